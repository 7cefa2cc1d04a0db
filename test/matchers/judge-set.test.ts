// Runs under Vitest AND Jest (globals only). The eval-set form of the judge matchers, judged by a
// scripted function judge (no server): the mean over the cases, the per-case breakdown with the judge's
// reasons, failed cases, concurrency, option checks, and per-case meta.
import { judgeCache } from '../../src/judge/cache.js'
import { functionJudge, type FunctionJudgeRequest } from '../../src/judge/function-judge.js'
import type { Judge } from '../../src/judge/types.js'
import { configure, resetConfig } from '../../matchers/config.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { toBeGroundedIn, toSatisfyRubric } from '../../matchers/judge.js'
import { isCaseSet } from '../../matchers/judge-set.js'
import { asyncFailureOf } from '../helpers/failure.js'
import { dataOf } from '../src/judge/helpers.js'

const CONTEXTS = [
  { id: 'doc-a', text: 'Paris is the capital of France.' },
  { id: 'doc-b', text: 'France uses the euro.' },
]
const SET = [
  { id: 'q1', question: 'What is the capital of France?', answer: 'Paris is the capital of France.', contexts: CONTEXTS },
  { id: 'q2', question: 'What currency does France use?', answer: 'France uses the euro. France uses the franc.', contexts: CONTEXTS },
  { id: 'q3', question: 'How many people live in Paris?', answer: 'Paris has 80 million people.', contexts: CONTEXTS },
]
const FAILED = { id: 'q4', question: 'Anything?', error: 'pipeline timeout (504)' }

/** What the scripted judge saw: the template step keys and the prompt sections. */
function bodyOf(req: FunctionJudgeRequest): { keys: string; body: { messages: FunctionJudgeRequest['messages'] } } {
  return {
    keys: Object.keys(req.schema.properties ?? {})
      .sort()
      .join(','),
    body: { messages: req.messages },
  }
}

/**
 * Claims are the answer's sentences; a claim is supported when a context contains it; a rubric scores 5
 * with a question, 1 without. `BOOM` in an answer makes the judge fail. Tracks calls in flight.
 */
function scripted(delayMs = 0): Judge & { maxInFlight: () => number } {
  let inFlight = 0
  let max = 0
  const judge = functionJudge(
    async (req) => {
      inFlight += 1
      max = Math.max(max, inFlight)
      try {
        if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs))
        const { keys, body } = bodyOf(req)
        if (keys === 'claims') {
          const answer = dataOf(body, 'ANSWER') ?? ''
          if (answer.includes('BOOM')) throw new Error('the model crashed')
          return { claims: answer.split(/(?<=\.)\s+/).filter((s) => s.trim() !== '') }
        }
        if (keys === 'verdicts' && dataOf(body, 'CLAIM 1') !== undefined) {
          const contexts: string[] = []
          for (let j = 1; dataOf(body, `CONTEXT ${j}`) !== undefined; j++) contexts.push(dataOf(body, `CONTEXT ${j}`) as string)
          const verdicts = []
          for (let i = 1; dataOf(body, `CLAIM ${i}`) !== undefined; i++) {
            const claim = dataOf(body, `CLAIM ${i}`) as string
            const j = contexts.findIndex((c) => c.includes(claim))
            verdicts.push(
              j >= 0
                ? { claim: i, reason: `Context ${j + 1} says so.`, verdict: 'supported', context: j + 1 }
                : { claim: i, reason: 'No context mentions it.', verdict: 'not_found', context: 0 },
            )
          }
          return { verdicts }
        }
        const sections = (label: string): string[] => {
          const out: string[] = []
          for (let i = 1; dataOf(body, `${label} ${i}`) !== undefined; i++) out.push(dataOf(body, `${label} ${i}`) as string)
          return out
        }
        const sentences = (text: string) => text.split(/(?<=\.)\s+/).filter((t) => t.trim() !== '')
        if (keys === 'points') {
          const reference = dataOf(body, 'SOURCE')
          return { points: reference === undefined ? sections('SOURCE') : sentences(reference) }
        }
        if (keys === 'verdicts' && sections('KEY POINT').length > 0) {
          const answer = dataOf(body, 'ANSWER') ?? ''
          return {
            verdicts: sections('KEY POINT').map((p, i) =>
              answer.includes(p) ? { point: i + 1, reason: 'The answer says it.', verdict: 'covered' } : { point: i + 1, reason: 'The answer omits it.', verdict: 'missing' },
            ),
          }
        }
        if (keys === 'verdicts' && sections('STATEMENT').length > 0) {
          const contexts = sections('CONTEXT')
          return {
            verdicts: sections('STATEMENT').map((st, i) => {
              const j = contexts.findIndex((c) => c.includes(st))
              return j >= 0
                ? { statement: i + 1, reason: `Context ${j + 1}.`, verdict: 'attributed', context: j + 1 }
                : { statement: i + 1, reason: 'In no context.', verdict: 'not_attributed', context: 0 }
            }),
          }
        }
        if (keys === 'statements') {
          const reference = dataOf(body, 'REFERENCE')
          if (reference !== undefined) return { statements: sentences(reference) }
          return { statements: sentences(dataOf(body, 'ANSWER') ?? '').map((st) => ({ statement: st, reason: 'On topic.', relevant: !st.includes('weather') })) }
        }
        if (keys === 'reason,used' || keys === 'reason,relevant,used') {
          const used = (dataOf(body, 'ANSWER') ?? '').includes(dataOf(body, 'CONTEXT') ?? '\u0000')
          return { reason: used ? 'The answer repeats it.' : 'Not drawn on.', used, ...(keys === 'reason,used' ? {} : { relevant: true }) }
        }
        if (keys === 'reason,score') {
          const question = dataOf(body, 'QUESTION')
          return question === undefined ? { reason: 'No question given.', score: 1 } : { reason: `Addresses: ${question}`, score: 5 }
        }
        throw new Error(`unscripted step ${keys}`)
      } finally {
        inFlight -= 1
      }
    },
    { id: 'scripted', model: 'scripted-1', concurrency: 16, cache: judgeCache({ dir: 'judge-cache', mode: 'off' }) },
  )
  return Object.assign(judge, { maxInFlight: () => max })
}

function context(isNot = false): MatcherContext {
  return { isNot, promise: '', utils: { matcherHint: (name: string) => name, printReceived: String, printExpected: String } }
}

afterEach(() => {
  resetConfig()
})

describe('.toBeGroundedIn over an eval set', () => {
  it('asserts on the mean of the cases; .not passes below min', async () => {
    const judge = scripted()
    // (1 + 0.5 + 0) / 3
    await expect(SET).toBeGroundedIn(0.5, { judge })
    await expect({ cases: SET }).not.toBeGroundedIn(0.6, { judge })
    await expect(SET.slice(0, 1)).toBeGroundedIn({ judge })
  })

  it('fails with the mean, every case lowest first with the judge’s reasons, and the judge', async () => {
    const message = await asyncFailureOf(() => expect(SET).toBeGroundedIn(0.8, { judge: scripted() }))
    expect(message).toContain('expect(received).toBeGroundedIn(min)')
    expect(message).toContain('mean groundedness over 3 cases = 0.5000   required ≥ 0.8000   (short by 0.3000)')
    expect(message).toMatch(/signature: Judge\|metric:groundedness@[0-9a-f]{8}\|model:scripted-1\|/)
    expect(message).toContain('per case: 2 of 3 below 0.8000 (lowest first)')
    expect(message).toMatch(/q3\s+0\.0000\s+1 of 1 claims unsupported: "Paris has 80 million people\." — "No context mentions it\."\n/)
    expect(message).toMatch(/q2\s+0\.5000\s+1 of 2 claims unsupported: "France uses the franc\."/)
    expect(message).toMatch(/q1\s+1\.0000\s+all 1 claims supported/)
    expect(message).toContain('judge: function:scripted, temperature 0, seed 42; 6 calls, 0 from cache; cache off judge-cache')
    expect(message.replace(/groundedness@[0-9a-f]{8}/, 'groundedness@HASH').replace(/version:[\d.]+/, 'version:X')).toMatchSnapshot()
  })

  it('under .not lists the cases at or above min, highest first', async () => {
    const message = await asyncFailureOf(() => expect(SET).not.toBeGroundedIn(0.4, { judge: scripted() }))
    expect(message).toContain('mean groundedness over 3 cases = 0.5000   required < 0.4000')
    expect(message).toMatch(/per case: 2 of 3 at or above 0\.4000 \(highest first\)\n\s+q1\s+1\.0000.*\n\s+q2\s+0\.5000/)
    expect(message).not.toMatch(/\n\s+q3\s/)
  })

  it('records per-case values and reasons in meta, like the other set matchers', async () => {
    const result = (await toBeGroundedIn.call(context(), SET, 0.8, { judge: scripted() })) as MatcherResult
    expect(result.pass).toBe(false)
    expect(result.meta).toMatchObject({ matcher: 'toBeGroundedIn', metric: 'mean groundedness', value: 0.5, threshold: 0.8, comparator: '>=', pass: false })
    expect(result.meta?.perCase).toEqual([
      { id: 'q1', value: 1, pass: true },
      { id: 'q2', value: 0.5, pass: false },
      { id: 'q3', value: 0, pass: false },
    ])
    expect(result.meta?.extra).toMatchObject({ calls: 6, cached: 0, reasons: { q1: 'all 1 claims supported' } })
    // a function judge reports no tokens
    expect(result.meta?.extra).not.toHaveProperty('usage')
  })

  it('judges at most `concurrency` cases at once (default 4)', async () => {
    // distinct cases: identical questions would share one in-flight request
    const many = Array.from({ length: 8 }, (_, i) => ({ id: `c${i}`, answer: 'Paris is the capital of France.', contexts: [...CONTEXTS, `Case ${i}.`] }))
    const two = scripted(5)
    await expect(many).toBeGroundedIn(1, { judge: two, concurrency: 2 })
    expect(two.maxInFlight()).toBe(2)
    const byDefault = scripted(5)
    await expect(many).toBeGroundedIn(1, { judge: byDefault })
    expect(byDefault.maxInFlight()).toBe(4)
  })

  it('reads contexts from `retrieved` items with text', async () => {
    const set = [{ id: 'r1', answer: 'France uses the euro.', retrieved: [{ id: 'doc-b', text: 'France uses the euro.', score: 0.9 }] }]
    await expect(set).toBeGroundedIn(1, { judge: scripted() })
  })
})

describe('failed cases (failedCases)', () => {
  it("'fail' (default): fails with and without .not, naming the case and its error, with the mean over the rest", async () => {
    for (const run of [
      () => expect([...SET, FAILED]).toBeGroundedIn(0.1, { judge: scripted() }),
      () => expect([...SET, FAILED]).not.toBeGroundedIn(0.9, { judge: scripted() }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain("1 of 4 cases failed in the pipeline (failedCases: 'fail'), so the assertion fails")
      expect(message).toContain('mean groundedness over 3 cases = 0.5000')
      expect(message).toContain('case q4 has no answer because its pipeline failed: pipeline timeout (504)')
      expect(message).toMatch(/signature: .*\|failed:fail\|version:/)
    }
  })

  it("'skip' leaves the case out; 'zero' scores it 0", async () => {
    const judge = scripted()
    await expect([...SET, FAILED]).toBeGroundedIn(0.5, { judge, failedCases: 'skip' })
    await expect([...SET, FAILED]).not.toBeGroundedIn(0.4, { judge, failedCases: 'zero' })
    const message = await asyncFailureOf(() => expect([...SET, FAILED]).toBeGroundedIn(0.5, { judge, failedCases: 'zero' }))
    expect(message).toContain('mean groundedness over 4 cases (1 failed scored 0) = 0.3750   required ≥ 0.5000')
    expect(message).toMatch(/q4\s+0\.0000\s+pipeline failed \(scored 0\)/)
    const result = (await toBeGroundedIn.call(context(), [...SET, FAILED], 0.5, { judge, failedCases: 'zero' })) as MatcherResult
    expect(result.meta?.perCase).toContainEqual({ id: 'q4', value: 0, pass: false })
  })

  it('every case failed: fails both ways', async () => {
    for (const run of [
      () => expect([FAILED]).toBeGroundedIn(0.5, { judge: scripted(), failedCases: 'skip' }),
      () => expect([FAILED]).not.toBeGroundedIn(0.5, { judge: scripted() }),
    ]) {
      expect(await asyncFailureOf(run)).toContain('every case (1 of 1) failed in the pipeline')
    }
  })
})

describe('a judge that cannot judge fails, never passes', () => {
  it('a case the judge fails on: fails with and without .not, naming the case', async () => {
    const set = [...SET, { id: 'boom', answer: 'BOOM.', contexts: CONTEXTS }]
    for (const run of [() => expect(set).toBeGroundedIn(0, { judge: scripted() }), () => expect(set).not.toBeGroundedIn(1, { judge: scripted() })]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('mean groundedness could not be computed, so the assertion fails.')
      expect(message).toContain('the judge could not score 1 of 4 cases:')
      expect(message).toContain('case boom: judge function scripted (model scripted-1) threw: the model crashed')
    }
  })

  it('an answer with nothing to judge fails both ways unless { empty: "pass" }', async () => {
    const set = [...SET.slice(0, 1), { id: 'blank', answer: '   ', contexts: CONTEXTS }]
    for (const run of [() => expect(set).toBeGroundedIn(0, { judge: scripted() }), () => expect(set).not.toBeGroundedIn(1, { judge: scripted() })]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('case blank: the answer makes no factual claim')
      expect(message).toContain("pass { empty: 'pass' } to score it 1")
    }
    await expect(set).toBeGroundedIn(1, { judge: scripted(), empty: 'pass' })
  })

  it('no judge configured: fails both ways, saying how to configure one', async () => {
    for (const run of [() => expect(SET).toBeGroundedIn(0.5), () => expect(SET).not.toBeGroundedIn(0.5)]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('mean groundedness could not be computed')
      expect(message).toContain('No judge is configured.')
    }
  })

  it('uses the judge from configure({ judge })', async () => {
    configure({ judge: scripted() })
    await expect(SET).toBeGroundedIn(0.5)
  })
})

describe('misuse is a Matcher error, with and without .not', () => {
  const both = async (run: (not: boolean) => Promise<unknown>, pattern: RegExp) => {
    await expect(run(false)).rejects.toThrow(pattern)
    await expect(run(true)).rejects.toThrow(pattern)
  }
  const judge = scripted()
  const on = (not: boolean) => (not ? expect(SET).not : expect(SET))

  it('unknown option keys and wrong option types', async () => {
    await both((not) => on(not).toBeGroundedIn(0.5, { judge, concurency: 2 } as never), /Matcher error: unknown option 'concurency' — did you mean 'concurrency'\?/)
    await both((not) => on(not).toBeGroundedIn(0.5, { judge, concurrency: 0 }), /Matcher error: options\.concurrency must be a positive integer/)
    await both((not) => on(not).toBeGroundedIn(0.5, { judge, concurrency: '2' as never }), /Matcher error: options\.concurrency must be a positive integer/)
    await both((not) => on(not).toBeGroundedIn(0.5, { judge, failedCases: 'ignore' as never }), /Matcher error: options\.failedCases must be 'fail' \| 'zero' \| 'skip'/)
    await both((not) => on(not).toBeGroundedIn(0.5, { judge, passRate: 1 } as never), /Matcher error: unknown option 'passRate'/)
    await both((not) => on(not).toBeCompleteGiven(0.5, { judge, source: 'answer' as never }), /Matcher error: options\.source must be 'reference' \| 'contexts'/)
    await both((not) => on(not).toBeRelevantTo(0.5, { judge, question: 'q' } as never), /Matcher error: unknown option 'question'/)
  })

  it('direct calls check the set options too', async () => {
    await expect(toBeGroundedIn.call(context(true), SET, 0.5, { judge, concurrency: -1 })).rejects.toThrow(/options\.concurrency must be a positive integer/)
    await expect(toBeGroundedIn.call(context(true), SET, 0.5, { judge, passRate: 1 })).rejects.toThrow(/options\.passRate applies to one answer/)
  })

  it('a case without what the matcher reads, a bad min, the single-answer argument', async () => {
    const noAnswer = [{ id: 'x', contexts: CONTEXTS }]
    await both((not) => (not ? expect(noAnswer).not : expect(noAnswer)).toBeGroundedIn(0.5, { judge }), /Matcher error: case x \(received\[0\]\) has no `answer`/)
    const noQuestion = [{ id: 'y', answer: 'Paris.' }]
    await both((not) => (not ? expect(noQuestion).not : expect(noQuestion)).toBeRelevantTo(0.5, { judge }), /Matcher error: case y \(received\[0\]\) has no `question`/)
    await both((not) => on(not).toBeGroundedIn(1.5, { judge }), /Matcher error: min must be a number from 0 to 1/)
    await both(
      (not) => on(not).toBeRelevantTo('What?' as never),
      /Matcher error: with an eval set as the received value, toBeRelevantTo takes \(min\); each case carries its own question/,
    )
    await both((not) => on(not).toBeGroundedIn(CONTEXTS as never, 0.5 as never), /Matcher error/)
    await both((not) => (not ? expect([]).not : expect([])).toBeGroundedIn(0.5, { judge }), /Matcher error: received eval set must contain at least one case/)
  })
})

describe('.toSatisfyRubric over an eval set', () => {
  it('shows each case its own question and averages the normalised scores', async () => {
    const judge = scripted()
    await expect(SET).toSatisfyRubric('Answers the question.', 1, { judge })
    const set = [...SET, { id: 'no-q', answer: 'Something.' }]
    // (1 + 1 + 1 + 0) / 4
    const message = await asyncFailureOf(() => expect(set).toSatisfyRubric('Answers the question.', 0.8, { judge }))
    expect(message).toContain('expect(received).toSatisfyRubric(rubric, min)')
    expect(message).toContain('mean rubric score over 4 cases = 0.7500   required ≥ 0.8000')
    expect(message).toMatch(/no-q\s+0\.0000\s+raw 1 on 1…5: "No question given\."/)
    const result = (await toSatisfyRubric.call(context(), set, 'Answers the question.', 0.8, { judge })) as MatcherResult
    expect(result.meta?.perCase).toHaveLength(4)
  })
})

describe('every set form reads what it needs from each case', () => {
  const ONE = [
    {
      id: 'c1',
      question: 'What is the capital of France?',
      answer: 'Paris is the capital of France. The weather is mild.',
      contexts: CONTEXTS,
      reference: 'Paris is the capital of France. France uses the euro.',
    },
  ]

  it('toBeCompleteGiven: the reference, else the contexts ({ source } chooses)', async () => {
    const judge = scripted()
    // 1 of the 2 key points of the reference is covered
    await expect(ONE).toBeCompleteGiven(0.5, { judge })
    await expect(ONE).not.toBeCompleteGiven(0.6, { judge })
    await expect(ONE).toBeCompleteGiven(0.5, { judge, source: 'contexts' })
    const message = await asyncFailureOf(() => expect(ONE).toBeCompleteGiven(0.9, { judge }))
    expect(message).toMatch(/c1\s+0\.5000\s+1 of 2 key points of the reference missing: "France uses the euro\." — "The answer omits it\."/)
    const bare = [{ id: 'b', answer: 'Paris.' }]
    await expect(expect(bare).toBeCompleteGiven(0.5, { judge })).rejects.toThrow(/Matcher error: case b has neither `reference` nor `contexts`/)
    await expect(expect(bare).not.toBeCompleteGiven(0.5, { judge, source: 'reference' })).rejects.toThrow(/Matcher error: case b \(received\[0\]\) has no `reference`/)
  })

  it('toHaveContextRecall: the case contexts (or retrieved texts) against its reference', async () => {
    const judge = scripted()
    await expect(ONE).toHaveContextRecall(1, { judge })
    const partial = [{ id: 'r', reference: 'France uses the euro. Paris is big.', retrieved: [{ id: 'doc-b', text: 'France uses the euro.' }] }]
    await expect(partial).not.toHaveContextRecall(0.6, { judge })
    const message = await asyncFailureOf(() => expect(partial).toHaveContextRecall(0.6, { judge }))
    expect(message).toContain('mean context recall over 1 case = 0.5000   required ≥ 0.6000')
    expect(message).toMatch(/r\s+0\.5000\s+1 of 2 reference statements not in the contexts: "Paris is big\."/)
    // the single form is unchanged: an array of chunks
    await expect(['France uses the euro.']).toHaveContextRecall('France uses the euro.', 1, { judge })
  })

  it('toUtilizeContext and toBeRelevantTo', async () => {
    const judge = scripted()
    await expect(ONE).toUtilizeContext(0.5, { judge })
    await expect(ONE).not.toUtilizeContext(0.6, { judge })
    expect(await asyncFailureOf(() => expect(ONE).toUtilizeContext(0.6, { judge }))).toMatch(/c1\s+0\.5000\s+1 of 2 chunks unused: "doc-b \(relevant\)" — "Not drawn on\."/)
    await expect(ONE).toBeRelevantTo(0.5, { judge })
    await expect(ONE).not.toBeRelevantTo(0.6, { judge })
    expect(await asyncFailureOf(() => expect(ONE).toBeRelevantTo(1, { judge }))).toMatch(/1 of 2 statements off the question: "The weather is mild\."/)
  })
})

describe('which received values are eval sets for toHaveContextRecall', () => {
  it('cases, not context chunks', () => {
    expect(isCaseSet([{ id: 'q1', contexts: ['a'], reference: 'a' }])).toBe(true)
    expect(isCaseSet({ cases: [] })).toBe(true)
    expect(isCaseSet(['chunk'])).toBe(false)
    expect(isCaseSet([{ id: 'c1', text: 'chunk' }])).toBe(false)
    expect(isCaseSet([])).toBe(false)
  })
})
