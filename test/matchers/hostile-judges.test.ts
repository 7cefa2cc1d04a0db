// Runs under Vitest AND Jest (globals only). Issue #27, second round: every reproduction either computes a
// finite value on valid input or fails with a message that says why, and `.not` never passes on input the
// positive form rejects.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { functionEmbedder } from '../../src/embeddings/function-embedder.js'
import { runEvalSet, type EvalRun } from '../../src/eval-set/run-eval-set.js'
import { judgeCache } from '../../src/judge/cache.js'
import { functionJudge } from '../../src/judge/function-judge.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import type { Judge } from '../../src/judge/types.js'
import { asyncFailureOf, failureOf } from '../helpers/failure.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'

type To = jest.Matchers<Promise<void>>
/** The failure messages of `expect(received)` and `expect(received).not`; each must fail. */
async function bothWays(received: unknown, call: (to: To) => Promise<void>): Promise<string[]> {
  return [await asyncFailureOf(() => call(expect(received) as unknown as To)), await asyncFailureOf(() => call(expect(received).not as unknown as To))]
}
function bothWaysSync(received: unknown, call: (to: jest.Matchers<void>) => void): string[] {
  return [failureOf(() => call(expect(received) as unknown as jest.Matchers<void>)), failureOf(() => call(expect(received).not as unknown as jest.Matchers<void>))]
}

/** A judge that must never be asked: the input is refused before any call. */
const never = functionJudge(
  () => {
    throw new Error('the judge was called')
  },
  { id: 'never', model: 'never-1', cache: judgeCache({ dir: 'unused-judge-cache', mode: 'off' }) },
)
/** A judge whose every extraction is empty: nothing to judge. */
const emptyJudge = functionJudge(() => ({ statements: [] }), { id: 'empty', model: 'empty-1', cache: judgeCache({ dir: 'unused-judge-cache', mode: 'off' }) })
/** Splits the answer into one relevant statement. */
const relevantJudge = (cacheDir: string, mode: 'readwrite' | 'replay' | 'off' = 'off'): Judge =>
  functionJudge(() => ({ statements: [{ statement: 'Paris is the capital.', relevant: true, reason: 'It answers.' }] }), {
    id: 'relevant',
    model: 'relevant-1',
    cache: judgeCache({ dir: cacheDir, mode, onWarning: () => undefined }),
  })

const letters = functionEmbedder((t: string) => ['a', 'e', 'i', 'o', 't', 's'].map((ch) => [...t].filter((c) => c === ch).length + 1), { id: 'letters' })

describe('1. a case whose pipeline failed is never scored on fields left over from the dataset', () => {
  const dataset = [
    { id: 'q1', question: 'Capital of France?', relevant: ['c1'], reference: 'Paris is the capital of France, 2 million people.' },
    { id: 'q2', question: 'Capital of Spain?', relevant: ['c2'], reference: 'Madrid is the capital of Spain, 3 million people.' },
  ]

  it.each(['answer', 'retrieved', 'contexts'] as const)(
    'an item carrying `%s` (a pipeline output) is refused before any call, naming the item and the field',
    async (field) => {
      let calls = 0
      const items = [dataset[0]!, { ...dataset[1]!, [field]: field === 'answer' ? 'Madrid is the capital of Spain, 3 million people.' : ['c2'] }]
      const error = await runEvalSet(items, () => {
        calls++
        throw new Error('down')
      }).catch((e: unknown) => e as Error)
      expect(error).toBeInstanceOf(Error)
      expect((error as Error).name).toBe('MetricInputError')
      expect((error as Error).message).toContain(`runEvalSet: item "q2" (dataset[1]) carries \`${field}\`, which is a pipeline output, not a dataset field`)
      expect((error as Error).message).toContain('Rename the field')
      expect(calls).toBe(0)
    },
  )

  it('an item carrying `error` (set by runEvalSet) is refused too', async () => {
    const error = await runEvalSet([{ question: 'q?', error: 'x' }], () => ({ answer: 'a' })).catch((e: unknown) => e as Error)
    expect((error as Error).message).toContain('runEvalSet: dataset[0] carries `error`, which runEvalSet sets on each case')
  })

  describe('a pipeline that throws: the case has no output field, and every set matcher fails naming it, with or without .not', () => {
    let run: EvalRun
    beforeAll(async () => {
      run = await runEvalSet(
        dataset,
        (_q, item) => {
          if (item.id === 'q2') throw new Error('vector DB down')
          return { retrieved: ['c1'], answer: 'Paris is the capital of France, 2 million people.' }
        },
        { progress: 'off' },
      )
    })

    it('the failed case carries no answer, retrieved or contexts', () => {
      const q2 = run.cases[1] as Record<string, unknown>
      expect(q2.error).toEqual({ name: 'Error', message: 'vector DB down' })
      expect('answer' in q2 || 'retrieved' in q2 || 'contexts' in q2).toBe(false)
    })

    it.each([
      ['recall', (to: jest.Matchers<void>) => to.toHaveRecallAtK(3, 0.5)],
      ['BLEU', (to: jest.Matchers<void>) => to.toScoreBleuAbove(10)],
      ['ROUGE-L', (to: jest.Matchers<void>) => to.toScoreRougeLAbove(0.5)],
      ['TER', (to: jest.Matchers<void>) => to.toScoreTerBelow(50)],
      ['chrF', (to: jest.Matchers<void>) => to.toScoreChrfAbove(50)],
      ['METEOR', (to: jest.Matchers<void>) => to.toScoreMeteorAbove(0.5)],
      ['the numeric check', (to: jest.Matchers<void>) => to.toStateNumbersOf()],
    ])('%s', (_name, call) => {
      for (const message of bothWaysSync(run, call)) {
        expect(message).toMatch(/q2|received\[1\]/)
        expect(message).toContain('vector DB down')
      }
    })

    it('set-level semantic similarity', async () => {
      for (const message of await bothWays(run, (to) => to.toBeSemanticallySimilarTo(0.5, { embedder: letters }))) {
        expect(message).toContain('q2')
        expect(message).toContain('vector DB down')
      }
    })
  })

  it('a pipeline returning {}: the case has no answer, so the matchers fail naming it (not a leftover, not a pass)', async () => {
    const run = await runEvalSet(dataset, () => ({}), { progress: 'off' })
    expect(run.errors).toBe(0)
    expect(run.cases.every((c) => !('answer' in c) && !('retrieved' in c))).toBe(true)
    for (const message of bothWaysSync(run, (to) => to.toScoreBleuAbove(10))) expect(message).toMatch(/case q1|received\[0\]/)
    for (const message of bothWaysSync(run, (to) => to.toHaveRecallAtK(3, 0.5))) expect(message).toMatch(/case q1|received\[0\]/)
  })
})

describe('2. toBeSemanticallySimilarTo refuses a blank text, with or without .not', () => {
  it.each([
    ['a blank reference (the issue: cosine 0.84 passed)', 'Paris is the capital of France.', '   ', /Matcher error: reference is blank \(whitespace only\)/],
    ['an empty reference', 'Paris is the capital of France.', '', /Matcher error: reference is blank \(empty\)/],
    ['an empty answer', '', 'Paris is the capital of France.', /Matcher error: received value \(the answer\) is blank \(empty\)/],
    ['a whitespace answer', ' \n\t', 'Paris is the capital of France.', /Matcher error: received value \(the answer\) is blank/],
  ])('%s', async (_name, answer, reference, pattern) => {
    for (const message of await bothWays(answer, (to) => to.toBeSemanticallySimilarTo(reference, 0.5, { embedder: letters }))) expect(message).toMatch(pattern)
  })

  it('a valid pair computes a finite value', async () => {
    await expect('Paris is the capital.').toBeSemanticallySimilarTo('Paris is the capital.', 0.99, { embedder: letters })
  })

  it('in an eval set, a case with a blank reference or answer is refused, naming it', async () => {
    const blankRef = [
      { id: 'ok', answer: 'Paris.', reference: 'Paris.' },
      { id: 'blank', answer: 'Madrid.', reference: ' ' },
    ]
    for (const message of await bothWays(blankRef, (to) => to.toBeSemanticallySimilarTo(0.5, { embedder: letters }))) {
      expect(message).toContain('Matcher error: case blank (received[1]): the reference is blank (whitespace only)')
    }
    const blankAnswer = [{ id: 'quiet', answer: '', reference: 'Paris.' }]
    for (const message of await bothWays(blankAnswer, (to) => to.toBeSemanticallySimilarTo(0.5, { embedder: letters }))) {
      expect(message).toContain('Matcher error: case quiet (received[0]): the answer is blank (empty)')
    }
  })

  it('in an eval set, a failed case follows failedCases (default: fails both ways, naming it)', async () => {
    const set = [
      { id: 'ok', answer: 'Paris.', reference: 'Paris.' },
      { id: 'down', error: { name: 'Error', message: 'timeout' }, reference: 'Madrid.' },
    ]
    for (const message of await bothWays(set, (to) => to.toBeSemanticallySimilarTo(0.1, { embedder: letters }))) {
      expect(message).toContain('down')
      expect(message).toContain('timeout')
    }
    await expect(set).toBeSemanticallySimilarTo(0.1, { embedder: letters, failedCases: 'skip' })
  })
})

describe('3a. nothing to judge fails toBeRelevantTo both ways unless { empty: "pass" }', () => {
  it('the issue: a reply {"statements":[]} no longer makes .not.toBeRelevantTo pass', async () => {
    for (const message of await bothWays('Paris.', (to) => to.toBeRelevantTo('What is the capital of France?', 0.5, { judge: emptyJudge }))) {
      expect(message).toContain('answer relevance could not be computed, so the assertion fails.')
      expect(message).toContain("the answer has no statement, so there is nothing to judge. Pass { empty: 'pass' } to accept it as vacuously true (score 1).")
    }
  })

  it("with { empty: 'pass' } it scores 1: the positive form passes and .not fails", async () => {
    await expect('Paris.').toBeRelevantTo('What is the capital of France?', 1, { judge: emptyJudge, empty: 'pass' })
    const message = await asyncFailureOf(() => expect('Paris.').not.toBeRelevantTo('What is the capital of France?', 1, { judge: emptyJudge, empty: 'pass' }))
    expect(message).toContain('empty:vacuous')
  })

  it('an unknown empty value is a Matcher error', async () => {
    for (const message of await bothWays('Paris.', (to) => to.toBeRelevantTo('Q?', 0.5, { judge: emptyJudge, empty: 'maybe' } as never))) {
      expect(message).toContain("Matcher error: options.empty must be 'fail' | 'pass'")
    }
  })

  it('the eval-set form too', async () => {
    const set = [{ id: 'q1', question: 'What is the capital of France?', answer: 'Paris.' }]
    for (const message of await bothWays(set, (to) => to.toBeRelevantTo(0.5, { judge: emptyJudge }))) {
      expect(message).toContain('q1')
      expect(message).toContain("empty: 'pass'")
    }
    await expect(set).toBeRelevantTo(1, { judge: emptyJudge, empty: 'pass' })
  })
})

describe('3b. a blank reference or question is refused before any judge call, naming the argument', () => {
  it.each([
    [
      'toBeCompleteGiven({ reference: " " }) (the issue)',
      (to: To) => to.toBeCompleteGiven({ reference: ' ' }, 1, { judge: never }),
      'source.reference is blank (whitespace only)',
    ],
    ['toBeRelevantTo("")', (to: To) => to.toBeRelevantTo('', 0.5, { judge: never }), 'question is blank (empty)'],
    ['toHaveContextRecall(" ")', (to: To) => to.toHaveContextRecall('\n', 0.5, { judge: never }), 'reference is blank (whitespace only)'],
    [
      'toBeCompleteGiven({ contexts }, { question: " " })',
      (to: To) => to.toBeCompleteGiven({ contexts: ['Paris.'] }, 1, { judge: never, question: ' ' }),
      'options.question is blank',
    ],
    ['toSatisfyRubric(…, { reference: "" })', (to: To) => to.toSatisfyRubric('Correct.', 0.5, { judge: never, reference: '' }), 'options.reference is blank (empty)'],
    ['toBePreferredOver(…, { question: " " })', (to: To) => to.toBePreferredOver('Madrid.', { judge: never, question: ' ' }), 'options.question is blank'],
  ])('%s', async (_name, call, words) => {
    const received = _name.startsWith('toHaveContextRecall') ? ['Paris is the capital.'] : 'Paris.'
    for (const message of await bothWays(received, call)) {
      expect(message).toContain(`Matcher error: ${words}`)
      expect(message).not.toContain('the judge was called')
    }
  })

  it('in an eval set, a case with a blank question or reference is refused, naming the case', async () => {
    const set = [{ id: 'q7', question: '  ', answer: 'Paris.' }]
    for (const message of await bothWays(set, (to) => to.toBeRelevantTo(0.5, { judge: never }))) {
      expect(message).toContain('Matcher error: case q7 (received[0]) has a blank `question` (whitespace only)')
    }
    const recall = [{ id: 'r1', contexts: ['Paris.'], reference: '' }]
    for (const message of await bothWays(recall, (to) => to.toHaveContextRecall(0.5, { judge: never }))) {
      expect(message).toContain('Matcher error: case r1 (received[0]) has a blank `reference` (empty)')
    }
  })
})

describe('3c. a truncated Ollama reply is not a judgement', () => {
  let fake: FakeOllama
  beforeAll(async () => {
    fake = await startFakeOllama()
  })
  afterAll(async () => {
    await fake.close()
  })
  const reply = (flags: Record<string, unknown>) => ({
    body: {
      model: 'llama3.1:8b',
      created_at: '2024-01-01T00:00:00Z',
      message: { role: 'assistant', content: JSON.stringify({ statements: [{ statement: 'Paris.', relevant: true, reason: 'ok' }] }) },
      ...flags,
    },
  })

  it.each([
    ["done_reason: 'length'", { done: true, done_reason: 'length' }],
    ['done: false', { done: false }],
  ])('%s fails both ways, saying it was cut off', async (label, flags) => {
    const model = `llama3.1:8b`
    fake.on('/api/chat', (body: { messages?: Array<{ content: string }> }) => JSON.stringify(body).includes(label), reply(flags))
    const judge = ollamaJudge({ model, host: fake.host, retries: 0, cache: judgeCache({ dir: 'unused-judge-cache', mode: 'off' }) })
    for (const message of await bothWays('Paris.', (to) => to.toBeRelevantTo(`What is it? (${label})`, 0.5, { judge }))) {
      expect(message).toContain('answer relevance could not be computed, so the assertion fails.')
      expect(message).toContain(`cut the reply off (${label})`)
    }
  })
})

describe('3d. a hand-edited replay cache entry is refused, naming the file', () => {
  let dir: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rag-hostile-judges-'))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  async function recordThenEdit(edit: (entry: { reply: Record<string, unknown> }) => unknown): Promise<string> {
    await expect('Paris.').toBeRelevantTo('What is the capital of France?', 1, { judge: relevantJudge(dir, 'readwrite') })
    const [name] = await readdir(dir)
    const file = join(dir, name as string)
    await writeFile(file, JSON.stringify(edit(JSON.parse(await readFile(file, 'utf8')))), 'utf8')
    return file
  }

  it.each([
    [
      'reply.content and reply.value rewritten to a verdict that passes',
      (e: { reply: Record<string, unknown> }) => {
        const value = { statements: [{ statement: 'Paris.', relevant: false, reason: 'edited' }] }
        return { ...e, reply: { ...e.reply, content: JSON.stringify(value), value } }
      },
      'reply.content does not match reply.sha256',
    ],
    [
      'reply.value deleted',
      (e: { reply: Record<string, unknown> }) => {
        const { value: _value, ...reply } = e.reply
        return { ...e, reply }
      },
      'reply.value is missing',
    ],
  ])('%s: fails both ways in replay', async (_name, edit, problem) => {
    const file = await recordThenEdit(edit)
    for (const message of await bothWays('Paris.', (to) => to.toBeRelevantTo('What is the capital of France?', 0.5, { judge: relevantJudge(dir, 'replay') }))) {
      expect(message).toContain('answer relevance could not be computed, so the assertion fails.')
      expect(message).toContain(`${file} is corrupt (${problem}`)
      expect(message).toContain('does not match its request')
    }
  })

  it('an untouched entry replays', async () => {
    await recordThenEdit((e) => e)
    await expect('Paris.').toBeRelevantTo('What is the capital of France?', 1, { judge: relevantJudge(dir, 'replay') })
  })
})

describe('3e. repeat is bounded', () => {
  it.each([1e6, 101])('repeat: %d is a Matcher error naming the option, both ways, before any call', async (repeat) => {
    for (const message of await bothWays('Paris.', (to) => to.toBeRelevantTo('Capital?', 0.5, { judge: never, repeat }))) {
      expect(message).toContain('Matcher error: options.repeat must be a positive integer ≤ 100')
    }
    const set = [{ id: 'q1', question: 'Capital?', answer: 'Paris.' }]
    for (const message of await bothWays(set, (to) => to.toBeRelevantTo(0.5, { judge: never, repeat }))) {
      expect(message).toContain('Matcher error: options.repeat must be a positive integer ≤ 100')
    }
  })

  it('repeat: 100 runs', async () => {
    await expect('Paris.').toBeRelevantTo('Capital?', 1, { judge: relevantJudge('unused-judge-cache'), repeat: 100 })
  })
})

describe('4. nDCG refuses an unusable (subnormal) grade', () => {
  it.each([5e-324, 1e-320, 1e-9])('relevant: { a: %d } is a Matcher error naming the id, both ways', (grade) => {
    for (const message of bothWaysSync({ retrieved: ['a'], relevant: { a: grade } }, (to) => to.toHaveNdcgAtK(3, 0.5))) {
      expect(message).toContain('Matcher error')
      expect(message).toContain('relevant["a"]')
      expect(message).toContain('underflows')
    }
  })

  it('a small but usable grade (1e-6) and a fractional one compute a finite value', () => {
    expect({ retrieved: ['a'], relevant: { a: 1e-6 } }).toHaveNdcgAtK(3, 1)
    expect({ retrieved: ['x', 'a'], relevant: { a: 0.5, b: 0 } }).not.toHaveNdcgAtK(3, 0.7)
  })
})
