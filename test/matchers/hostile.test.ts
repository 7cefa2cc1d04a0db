// Runs under Vitest AND Jest (globals only). Issue #13's reproductions: hostile and degenerate input
// that used to pass silently (or crash) now fails with a message that says why, with or without `.not`.
import type { Judge, JudgeRequest } from '../../src/judge/types.js'
import { asyncFailureOf, failureOf } from '../helpers/failure.js'

/** A scripted judge: every claim list is `claims`, every claim is supported by context 1. */
function scriptedJudge(claims: string[]): Judge & { calls: number } {
  const judge = {
    id: 'scripted',
    model: 'scripted',
    temperature: 0,
    seed: 42,
    calls: 0,
    async ask<T>(request: JudgeRequest) {
      judge.calls += 1
      const keys = Object.keys(request.schema.properties ?? {})
      const value = keys.includes('verdicts')
        ? { verdicts: claims.map((_, i) => ({ claim: i + 1, reason: 'stated', verdict: 'supported', context: 1 })) }
        : { [keys[0] as string]: claims }
      return { value: value as T, raw: JSON.stringify(value), key: 'k', cached: false, seed: request.seed ?? 42, attempts: 1 }
    },
  }
  return judge
}

const CONTEXTS = ['Paris is the capital of France.']
const ok = { retrieved: ['a'], relevant: ['a'] }

describe('non-finite values are errors, never values', () => {
  it('refuses an exponential gain that overflows (2^1024), with or without .not', () => {
    const received = { retrieved: ['a'], relevant: { a: 1024 } }
    for (const run of [() => expect(received).not.toHaveNdcgAtK(1, 0.5, { gain: 'exponential' }), () => expect(received).toHaveNdcgAtK(1, 0.5, { gain: 'exponential' })]) {
      const message = failureOf(run)
      expect(message).toContain('Matcher error:')
      expect(message).toMatch(/relevant\["a"\].*finite gain/)
      expect(message).not.toContain('NaN')
    }
  })
  it('refuses linear grades whose gains sum past the largest number', () => {
    const received = { retrieved: ['a', 'b', 'c'], relevant: { a: 1e308, b: 1e308, c: 1e308 } }
    const message = failureOf(() => expect(received).not.toHaveNdcgAtK(3, 0.5))
    expect(message).toContain('Matcher error:')
    expect(message).toContain('not finite')
    expect(message).not.toContain('NaN')
  })
})

describe('vacuous inputs fail by default, saying what is missing', () => {
  it('an empty answer is not grounded: it fails without calling the judge', async () => {
    const judge = scriptedJudge(['x'])
    for (const run of [() => expect('').toBeGroundedIn(CONTEXTS, { judge }), () => expect('').not.toBeGroundedIn(CONTEXTS, { judge })]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('the answer makes no factual claim')
      expect(message).toContain("empty: 'pass'")
    }
    expect(judge.calls).toBe(0)
  })
  it('an answer whose claim extraction returns no claims fails', async () => {
    const judge = scriptedJudge([])
    const message = await asyncFailureOf(() => expect('Well, hm.').toBeGroundedIn(CONTEXTS, { judge }))
    expect(message).toContain('groundedness could not be computed')
    expect(judge.calls).toBe(1)
  })
  it("`empty: 'pass'` accepts a claimless answer as grounded (and .not then fails)", async () => {
    const judge = scriptedJudge([])
    await expect('Well, hm.').toBeGroundedIn(CONTEXTS, { judge, empty: 'pass' })
    const message = await asyncFailureOf(() => expect('Well, hm.').not.toBeGroundedIn(CONTEXTS, { judge, empty: 'pass' }))
    expect(message).toContain('groundedness = 1.0000   required < 1.0000')
  })
  it('a claimed answer is still judged', async () => {
    await expect('Paris is the capital.').toBeGroundedIn(CONTEXTS, { judge: scriptedJudge(['Paris is the capital.']) })
  })
  it('an empty completeness source and an empty context-recall reference fail', async () => {
    const judge = scriptedJudge([])
    const complete = await asyncFailureOf(() => expect('Paris.').not.toBeCompleteGiven({ reference: 'Paris.' }, 0.5, { judge }))
    expect(complete).toContain('the source has no key point')
    const recall = await asyncFailureOf(() => expect(CONTEXTS).not.toHaveContextRecall('Paris.', 0.5, { judge }))
    expect(recall).toContain('the reference states nothing')
    await expect(CONTEXTS).toHaveContextRecall('Paris.', 0.5, { judge, empty: 'pass' })
  })

  it.each([
    ['recall', () => expect({ retrieved: ['a'], relevant: [] }).not.toHaveRecallAtK(3, 0.5)],
    ['nDCG', () => expect({ retrieved: ['a'], relevant: [] }).not.toHaveNdcgAtK(3, 0.5)],
    ['hit', () => expect({ retrieved: ['a'], relevant: [] }).not.toHitWithin(3)],
    ['grades ≤ 0 only', () => expect({ retrieved: ['a'], relevant: { a: 0 } }).not.toHaveMrrAbove(0.5)],
    ['an empty case in a set', () => expect([ok, { id: 'q2', retrieved: ['a'], relevant: [] }]).not.toHaveRecallAtK(1, 0.9)],
  ])('an empty ground truth (%s) is a Matcher error', (_name, run) => {
    const message = failureOf(run)
    expect(message).toContain('Matcher error:')
    expect(message).toContain('at least one relevant id')
    expect(message).toContain('allowEmptyRelevant: true')
  })
  it('`allowEmptyRelevant: true` scores an empty ground truth 0, as trec_eval does', () => {
    expect({ retrieved: ['a'], relevant: [] }).not.toHaveRecallAtK(3, 0.5, { allowEmptyRelevant: true })
    expect([ok, { retrieved: ['a'], relevant: [] }]).toHaveRecallAtK(3, 0.5, { allowEmptyRelevant: true })
    const message = failureOf(() => expect([ok, { retrieved: ['a'], relevant: [] }]).toHaveRecallAtK(3, 0.6, { allowEmptyRelevant: true }))
    expect(message).toContain('mean R@3 over 2 queries = 0.5000')
  })

  it.each([
    ['BLEU', () => expect('the cat').not.toScoreBleuAbove('', 10)],
    ['chrF', () => expect('the cat').not.toScoreChrfAbove(['the cat', '  '], 10)],
    ['ROUGE', () => expect('the cat').not.toScoreRougeAbove(' \n\t', 0.5)],
    ['ROUGE-L', () => expect('the cat').not.toScoreRougeLAbove('', 0.5)],
    ['METEOR', () => expect('the cat').not.toScoreMeteorAbove('', 0.5)],
    [
      'a set',
      () =>
        expect([
          { answer: 'a', reference: 'a' },
          { id: 'blank', answer: 'a', reference: ' ' },
        ]).not.toScoreMeteorAbove(0.5),
    ],
  ])('an empty or whitespace reference (%s) is a Matcher error', (_name, run) => {
    const message = failureOf(run)
    expect(message).toContain('Matcher error:')
    expect(message).toMatch(/reference.* is empty or whitespace/)
  })

  it('a reference without numbers fails the numeric check unless requireNumbers: false', () => {
    for (const run of [() => expect('x').toStateNumbersOf('no numbers here'), () => expect('x').not.toStateNumbersOf('no numbers here')]) {
      const message = failureOf(run)
      expect(message).toContain('Matcher error:')
      expect(message).toContain('the reference states no number')
      expect(message).toContain('requireNumbers: false')
    }
    expect('x').toStateNumbersOf('no numbers here', { requireNumbers: false })
    expect(() => expect([{ answer: 'x', reference: 'none' }]).toStateNumbersOf()).toThrow(/received\[0\] \(case [^)]*\): the reference states no number/)
  })
})

describe('sparse and malformed eval sets name the index', () => {
  const c = { retrieved: ['a'], relevant: ['a'] }
  /* eslint-disable no-sparse-arrays -- the holes are the input under test */
  it.each([
    ['a leading hole', () => expect([, c]).toHaveRecallAtK(3, 0.5), 'received[0]'],
    ['a middle hole under .not', () => expect([c, , c]).not.toHaveRecallAtK(1, 0.9), 'received[1]'],
    ['a number entry', () => expect([c, 3]).toHaveNdcgAtK(1, 0.5), 'received[1]'],
    ['an answer set hole', () => expect([{ answer: 'a', reference: 'a' }, ,]).toScoreRougeAbove(0.5), 'received[1]'],
    ['a hole in { cases }', () => expect({ cases: [c, , c] }).toHaveMrrAbove(0.5), 'received[1]'],
    /* eslint-enable no-sparse-arrays */
  ])('%s', (_name, run, where) => {
    const message = failureOf(run)
    expect(message).toContain('Matcher error:')
    expect(message).toContain(where)
    expect(message).not.toContain('TypeError')
  })
})

describe('messages say the right thing', () => {
  it('a .not failure on an eval set lists the cases at or above the threshold', () => {
    const set = ['q1', 'q2', 'q3', 'q4', 'q5'].map((id) => ({ id, retrieved: ['a'], relevant: ['a'] }))
    set.push({ id: 'low', retrieved: ['x'], relevant: ['a'] })
    const message = failureOf(() => expect(set).not.toHaveRecallAtK(1, 0.5))
    expect(message).toContain('queries at or above 0.5000: 5 of 6 (highest first)')
    expect(message).not.toContain('queries below')
    expect(message).not.toMatch(/^low\s/m)
  })
  it('a .not failure on an answer set lists the answers at or above the threshold', () => {
    const set = [
      { id: 'same', answer: 'the cat sat', reference: 'the cat sat' },
      { id: 'other', answer: 'a dog ran', reference: 'the cat sat' },
    ]
    const message = failureOf(() => expect(set).not.toScoreRougeAbove(0.4))
    expect(message).toContain('per answer: 1 of 2 at or above 0.4000 (highest first)')
    expect(message).not.toMatch(/^other\s/m)
  })
  it('a .not failure on an embedding set lists the cases at or above the threshold', async () => {
    const { functionEmbedder } = await import('../../src/embeddings/function-embedder.js')
    const embedder = functionEmbedder((t: string) => (t.startsWith('cat') ? [1, 0] : [0, 1]), { id: 'hostile-cats' })
    const set = [
      { id: 'close', answer: 'cat one', reference: 'cat two' },
      { id: 'far', answer: 'dog', reference: 'cat' },
    ]
    const message = await asyncFailureOf(() => expect(set).not.toBeSemanticallySimilarTo(0.4, { embedder }))
    expect(message).toContain('cases at or above 0.4000: 1 of 2 (most similar first)')
    expect(message).not.toMatch(/^far\s/m)
  })
  it.each([
    ['a string grade', () => expect({ retrieved: ['a'], relevant: { a: '1' } }).toHaveNdcgAtK(1, 0.5), /relevant\["a"\].*a finite grade/],
    ['a null id', () => expect({ retrieved: [null], relevant: ['a'] }).not.toHaveRecallAtK(1, 0.5), /retrieved\[0\]/],
    ['a null relevant id', () => expect({ retrieved: ['a'], relevant: [null] }).toHitWithin(1), /relevant\[0\]/],
  ])('core input errors (%s) are shown in the Matcher error layout', (_name, run, pattern) => {
    const message = failureOf(run)
    expect(message).toMatch(/^expect\(received\)(\.not)?\.to\w+\(/)
    expect(message).toContain('Matcher error:')
    expect(message).toMatch(pattern)
  })
})

describe('the matcher functions exported from rag-matchers/matchers', () => {
  it('are the checked, registered matchers, for every declared matcher', async () => {
    const entry = (await import('../../runners/matchers.js')) as unknown as Record<string, unknown>
    const { allMatchers, matcherDeclarations } = await import('../../matchers/all.js')
    const exported = Object.keys(entry).filter((name) => /^to[A-Z]/.test(name) && typeof entry[name] === 'function')
    expect(exported.length).toBeGreaterThan(20)
    for (const name of exported) expect({ name, checked: entry[name] === (allMatchers as Record<string, unknown>)[name] }).toEqual({ name, checked: true })
    // Every declared matcher is exported by name, and only checked ones are.
    expect(matcherDeclarations.map((d) => d.name).sort()).toEqual(exported.filter((n) => matcherDeclarations.some((d) => d.name === n)).sort())
  })
  it('refuse an unknown option when called through a custom expect.extend', () => {
    return import('../../runners/matchers.js').then(({ toHaveRecallAtK }) => {
      expect.extend({ customRecall: toHaveRecallAtK })
      const custom = expect(ok) as unknown as { customRecall: (k: number, min: number, options: object) => void }
      expect(() => custom.customRecall(3, 0.5, { duplicate: 'first' })).toThrow(/Matcher error: .*duplicate/)
    })
  })
})

describe('a pipeline that never settles', () => {
  it('fails under runEvalSet timeout, and the matcher message names the pipeline and the case', async () => {
    const { runEvalSet } = await import('../../src/eval-set/run-eval-set.js')
    const started = Date.now()
    const run = await runEvalSet(
      [
        { id: 'fine', question: 'q1', relevant: ['a'] },
        { id: 'stuck', question: 'q2', relevant: ['a'] },
      ],
      async function searchIndex(question: string) {
        if (question === 'q2') return new Promise<never>(() => undefined)
        return { retrieved: ['a'] }
      },
      { timeoutMs: 30, progress: 'off' },
    )
    expect(Date.now() - started).toBeLessThan(5_000)
    for (const assertion of [() => expect(run).toHaveRecallAtK(1, 0.5), () => expect(run).not.toHaveRecallAtK(1, 0.5)]) {
      // A failed case is an ordinary assertion failure (partial results), with or without .not.
      const message = failureOf(assertion)
      expect(message).not.toContain('Matcher error:')
      expect(message).toContain('1 of 2 cases failed in the pipeline')
      expect(message).toContain('pipeline searchIndex did not finish case "stuck" within 30 ms')
    }
  })
})
