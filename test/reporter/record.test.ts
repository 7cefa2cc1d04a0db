// Recording matcher results for the reporters (matchers/record.ts): what is recorded, where, and that
// recording never changes a matcher's result.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { allMatchers } from '../../matchers/all.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { RECORD_LIMITS, RESULTS_DIR_ENV, TASK_META_KEY, toRecord, withRecording, type RecordedAssertion } from '../../matchers/record.js'
import * as retrieval from '../../matchers/retrieval.js'

const utils = { matcherHint: (name: string) => `expect(received).${name}()`, printReceived: (v: unknown) => String(v), printExpected: (v: unknown) => String(v) }

function fakeTask(meta: Record<string, unknown> = {}) {
  const file = { filepath: '/project/test/a.test.ts' }
  const outer = { name: 'outer', suite: { name: '', filepath: file.filepath }, filepath: undefined }
  return {
    type: 'test',
    name: 'my test',
    fullTestName: 'outer > inner > my test',
    meta,
    file,
    suite: { name: 'inner', suite: outer },
    result: { retryCount: 0, repeatCount: 0 },
  }
}

function ctx(extra: Partial<MatcherContext> & { task?: unknown } = {}): MatcherContext {
  return { isNot: false, promise: '', utils, ...extra } as MatcherContext
}

const set = [
  { id: 'a', question: 'Where is a?', retrieved: ['x', 'a'], relevant: ['a'] },
  { id: 'b', question: 'Where is b?', retrieved: ['b'], relevant: ['b'] },
  { id: 'c', question: 'Where is c?', retrieved: ['x', 'y'], relevant: ['c'] },
]

function recordsOf(task: { meta: Record<string, unknown> }): RecordedAssertion[] {
  return task.meta[TASK_META_KEY] as RecordedAssertion[]
}

describe('withRecording', () => {
  it('returns exactly the matcher result (pass, message, meta)', () => {
    const task = fakeTask()
    const wrapped = allMatchers.toHaveRecallAtK.call(ctx({ task }), set, 1, 0.5) as MatcherResult
    const raw = retrieval.toHaveRecallAtK.call(ctx(), set, 1, 0.5)
    expect(wrapped.pass).toBe(raw.pass)
    expect(wrapped.message()).toBe(raw.message())
    expect(wrapped.meta).toEqual(raw.meta)
  })

  it('appends the meta, the test and the outcome to the Vitest task', () => {
    const task = fakeTask()
    const result = allMatchers.toHaveRecallAtK.call(ctx({ task }), set, 2, 0.5) as MatcherResult
    const [r] = recordsOf(task)
    expect(r).toMatchObject({
      v: 1,
      matcher: 'toHaveRecallAtK',
      metric: result.meta?.metric,
      value: result.meta?.value,
      threshold: 0.5,
      comparator: '>=',
      pass: result.pass,
      isNot: false,
      outcome: result.pass,
      signature: result.meta?.signature,
      setSize: 3,
      test: { name: 'my test', fullName: 'outer > inner > my test', file: '/project/test/a.test.ts', describe: ['outer', 'inner'] },
      attempt: 0,
      repeat: 0,
    })
    expect(r?.perCase).toEqual(result.meta?.perCase?.map(({ id, value, pass }) => ({ id, value, pass })))
    expect(r?.cases?.map((c) => c.question)).toEqual(['Where is a?', 'Where is b?', 'Where is c?'])
    expect(r?.cases?.[0]?.retrieved).toEqual(['x', 'a'])
    // What Vitest sends to the reporter process must survive JSON.
    expect(JSON.parse(JSON.stringify(r))).toEqual(r)
  })

  it('records the final outcome under .not: pass !== isNot', () => {
    const task = fakeTask()
    const result = allMatchers.toHitWithin.call(ctx({ task, isNot: true }), set[2], 2) as MatcherResult
    expect(result.pass).toBe(false)
    const [r] = recordsOf(task)
    expect(r).toMatchObject({ isNot: true, pass: false, outcome: true })
    expect(r?.setSize).toBeUndefined()
    expect(r?.cases).toBeUndefined()
  })

  it('never pushes into an array it did not create (Vitest copies suite meta into tests shallowly)', () => {
    const shared: unknown[] = []
    const task = fakeTask({ [TASK_META_KEY]: shared })
    allMatchers.toHitWithin.call(ctx({ task }), set[0], 2)
    expect(shared).toEqual([])
    expect(recordsOf(task)).toHaveLength(1)
  })

  it('does not record asymmetric use (no `promise` in the matcher state)', () => {
    const task = fakeTask()
    const asymmetric = { isNot: false, utils, task } as unknown as MatcherContext
    const result = allMatchers.toHitWithin.call(asymmetric, set[0], 2) as MatcherResult
    expect(result.pass).toBe(true)
    expect(task.meta[TASK_META_KEY]).toBeUndefined()
  })

  it('records a matcher that throws as an errored assertion, and rethrows the same error', () => {
    const task = fakeTask()
    let thrown: unknown
    try {
      allMatchers.toHitWithin.call(ctx({ task }), set[0], 0)
    } catch (error) {
      thrown = error
    }
    expect(String((thrown as Error).message)).toMatch(/positive integer/)
    const [record] = recordsOf(task)
    expect(record).toMatchObject({ matcher: 'toHitWithin', status: 'error', value: null, pass: false, outcome: false, case: { id: 'a', relevant: ['a'] } })
    expect(record?.error).toMatch(/positive integer/)
    // an eval set with bad ground truth: the error lands in the set, with the set's cases
    const broken = [...set.slice(0, 2), { id: 'bad', retrieved: ['x'], relevant: 42 }]
    expect(() => allMatchers.toHaveRecallAtK.call(ctx({ task }), { name: 'qa', cases: broken }, 3, 0.5)).toThrow(/relevant must be/)
    expect(recordsOf(task)[1]).toMatchObject({ status: 'error', set: 'qa', setSize: 3, outcome: false })
    // asymmetric use records nothing, thrown or not
    const asym = fakeTask()
    expect(() => allMatchers.toHitWithin.call({ isNot: false, utils, task: asym } as never, set[0], 0)).toThrow()
    expect(asym.meta[TASK_META_KEY]).toBeUndefined()
  })

  it('records a rejected async matcher as an errored assertion, and rejects with the same error', async () => {
    const boom = new Error('\u001b[31mjudge unreachable\u001b[39m: ECONNREFUSED')
    const matchers = withRecording({
      toBeJudged: async function (this: MatcherContext): Promise<MatcherResult> {
        await new Promise((r) => setTimeout(r, 1))
        throw boom
      },
    })
    const task = fakeTask()
    await expect(matchers.toBeJudged.call(ctx({ task }), { id: 'q7', answer: 'x' })).rejects.toBe(boom)
    expect(recordsOf(task)).toMatchObject([{ matcher: 'toBeJudged', status: 'error', error: 'judge unreachable: ECONNREFUSED', case: { id: 'q7' } }])
  })

  it('names the case of an assertion in a loop over cases, and keeps the expected ids beside the retrieved ones', () => {
    const task = fakeTask()
    for (const c of set) allMatchers.toHitWithin.call(ctx({ task }), c, 1)
    expect(recordsOf(task).map((r) => [r.case?.id, r.outcome])).toEqual([
      ['a', false],
      ['b', true],
      ['c', false],
    ])
    expect(recordsOf(task)[2]?.case).toMatchObject({ retrieved: ['x', 'y'], relevant: ['c'] })
    const graded = toRecord({}, 'toHaveNdcgAtK', [{ id: 'g', retrieved: ['x'], relevant: { g1: 2, g2: 1 } }], true, {
      matcher: 'm',
      metric: 'x',
      value: 1,
      comparator: '>=',
      pass: true,
      signature: '',
    })
    expect(graded.cases?.[0]?.relevant).toEqual(['g1', 'g2'])
  })

  it('records async matchers after they resolve and returns their promise', async () => {
    const meta = { matcher: 'toBeAsync', metric: 'x', value: 0.25, threshold: 0.5, comparator: '>=' as const, pass: false, signature: 'X|version:0' }
    const matchers = withRecording({
      toBeAsync: async function (this: MatcherContext): Promise<MatcherResult> {
        await new Promise((r) => setTimeout(r, 5))
        return { pass: false, message: () => 'no', meta }
      },
    })
    const task = fakeTask()
    const pending = matchers.toBeAsync.call(ctx({ task }), 'answer')
    expect(typeof (pending as Promise<unknown>).then).toBe('function')
    expect(task.meta[TASK_META_KEY]).toBeUndefined()
    const result = await pending
    expect(result.pass).toBe(false)
    expect(recordsOf(task)).toMatchObject([{ matcher: 'toBeAsync', value: 0.25, outcome: false }])
  })

  it('keeps the matcher names', () => {
    expect(Object.keys(allMatchers)).toEqual(expect.arrayContaining(['toHaveRecallAtK', 'toHitWithin', 'toScoreBleuAbove']))
    expect(allMatchers.toHitWithin.name).toBe('toHitWithin')
  })
})

describe('the Jest channel (no task object)', () => {
  const saved = process.env[RESULTS_DIR_ENV]
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rag-record-test-'))
  })
  afterEach(() => {
    if (saved === undefined) delete process.env[RESULTS_DIR_ENV]
    else process.env[RESULTS_DIR_ENV] = saved
    rmSync(dir, { recursive: true, force: true })
  })

  it('appends one JSON line per result to <dir>/<pid>-<thread>.jsonl, with the test path and name', () => {
    process.env[RESULTS_DIR_ENV] = dir
    const jestCtx = ctx({ currentTestName: 'suite my test', testPath: '/project/test/b.test.ts' })
    allMatchers.toHitWithin.call(jestCtx, set[0], 2)
    allMatchers.toHaveMrrAbove.call(jestCtx, set, 0.1)
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(new RegExp(`^${process.pid}-\\d+\\.jsonl$`))
    const lines = readFileSync(join(dir, files[0] as string), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RecordedAssertion)
    expect(lines.map((l) => l.matcher)).toEqual(['toHitWithin', 'toHaveMrrAbove'])
    expect(lines[0]?.test).toEqual({ fullName: 'suite my test', file: '/project/test/b.test.ts' })
    expect(lines[0]?.pid).toBe(process.pid)
    expect((lines[1]?.seq as number) > (lines[0]?.seq as number)).toBe(true)
  })

  it('writes nothing without RAG_MATCHERS_RESULTS_DIR (no rag-matchers reporter configured)', () => {
    delete process.env[RESULTS_DIR_ENV]
    const result = allMatchers.toHitWithin.call(ctx({ currentTestName: 't', testPath: '/p' }), set[0], 2) as MatcherResult
    expect(result.pass).toBe(true)
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('toRecord: JSON-safe and bounded', () => {
  const base = { matcher: 'm', metric: 'mean X', value: 0.5, threshold: 0.4, comparator: '>=' as const, pass: true, signature: 'X|version:0' }

  it('cuts perCase at the limit and keeps the true count; keeps only id, value, pass', () => {
    const n = RECORD_LIMITS.perCase + 5
    const perCase = Array.from({ length: n }, (_, i) => ({ id: `q${i}`, value: i / n, pass: true, details: { huge: 'x'.repeat(100) } }))
    const r = toRecord({ isNot: false }, 'm', undefined, true, { ...base, perCase })
    expect(r.perCase).toHaveLength(RECORD_LIMITS.perCase)
    expect(r.perCaseTotal).toBe(n)
    expect(Object.keys(r.perCase?.[0] ?? {})).toEqual(['id', 'value', 'pass'])
  })

  it('truncates texts, keeps the first 10 retrieved ids, and caps the number of case texts', () => {
    const long = 'w'.repeat(2000)
    const cases = Array.from({ length: RECORD_LIMITS.cases + 3 }, (_, i) => ({
      id: i,
      question: long,
      answer: long,
      references: [long, 'second'],
      retrieved: Array.from({ length: 30 }, (_, j) => ({ id: `d${j}`, score: j })),
    }))
    const r = toRecord({ isNot: false }, 'm', { cases }, true, base)
    expect(r.setSize).toBe(cases.length)
    expect(r.cases).toHaveLength(RECORD_LIMITS.cases)
    const c = r.cases?.[0]
    expect(c?.id).toBe('0')
    expect(c?.question).toHaveLength(RECORD_LIMITS.text)
    expect(c?.answer?.endsWith('…')).toBe(true)
    expect(c?.reference).toHaveLength(RECORD_LIMITS.text)
    expect(c?.retrieved).toEqual(['d0', 'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9'])
  })

  it('turns NaN and infinities into null, never a silent number', () => {
    const r = toRecord({ isNot: false }, 'm', undefined, false, { ...base, value: Number.NaN, perCase: [{ id: 'a', value: Number.POSITIVE_INFINITY }] })
    expect(r.value).toBeNull()
    expect(r.perCase?.[0]?.value).toBeNull()
    expect(JSON.parse(JSON.stringify(r))).toEqual(r)
  })

  it('takes the set name from meta.set, meta.extra.set, or a received { name, cases }', () => {
    expect(toRecord({}, 'm', [], true, { ...base, set: 'from-meta' } as never).set).toBe('from-meta')
    expect(toRecord({}, 'm', [], true, { ...base, extra: { set: 'from-extra' } }).set).toBe('from-extra')
    expect(toRecord({}, 'm', { name: 'from-received', cases: [] }, true, base).set).toBe('from-received')
    expect(toRecord({}, 'm', [], true, base).set).toBeUndefined()
  })

  it('takes a baseline { mean, delta } from meta.baseline or meta.extra.baseline, and ignores a malformed one', () => {
    expect(toRecord({}, 'm', [], true, { ...base, baseline: { mean: 0.6, delta: -0.1 } } as never).baseline).toEqual({ mean: 0.6, delta: -0.1 })
    expect(toRecord({}, 'm', [], true, { ...base, extra: { baseline: { mean: 0.6, delta: 0.2 } } }).baseline).toEqual({ mean: 0.6, delta: 0.2 })
    expect(toRecord({}, 'm', [], true, { ...base, extra: { baseline: { mean: 'x' } } }).baseline).toBeUndefined()
  })

  it('drops an extra that is too large or not JSON', () => {
    expect(toRecord({}, 'm', undefined, true, { ...base, extra: { note: 'x'.repeat(RECORD_LIMITS.extra) } }).extra).toBeUndefined()
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(toRecord({}, 'm', undefined, true, { ...base, extra: cyclic }).extra).toBeUndefined()
    expect(toRecord({}, 'm', undefined, true, { ...base, extra: { k: 3 } }).extra).toEqual({ k: 3 })
  })

  it('treats only arrays of eval cases as eval sets (not ratings, numbers or rows of other shapes)', () => {
    expect(toRecord({}, 'm', [0.1, 0.2], true, base).setSize).toBeUndefined()
    expect(
      toRecord(
        {},
        'm',
        [
          [1, 2],
          [2, 1],
        ],
        true,
        base,
      ).setSize,
    ).toBeUndefined()
    expect(toRecord({}, 'm', [{ item: 'a', rater: 'r1', rating: 3 }], true, base).cases).toBeUndefined()
    expect(toRecord({}, 'm', { cases: [{ answer: 'x', reference: 'y' }] }, true, base).setSize).toBe(1)
    expect(toRecord({}, 'm', [], true, base).setSize).toBeUndefined()
  })

  it('marks positional labels (#n) of cases without id or question', () => {
    const received = [
      { retrieved: ['a'], relevant: ['a'] },
      { id: 'named', retrieved: ['b'], relevant: ['b'] },
    ]
    const r = toRecord({}, 'm', received, true, {
      ...base,
      perCase: [
        { id: '#1', value: 1 },
        { id: 'named', value: 1 },
      ],
    })
    expect(r.perCase?.map((c) => c.positional)).toEqual([true, undefined])
    expect(r.cases?.map((c) => c.positional)).toEqual([true, undefined])
  })
})

describe('in a real Vitest test', () => {
  it('lands in this test’s task.meta', ({ task }) => {
    expect(set).toHaveMrrAbove(0.3)
    expect(set[0]).not.toHitWithin(1)
    const records = (task.meta as Record<string, unknown>)[TASK_META_KEY] as RecordedAssertion[]
    expect(records.map((r) => [r.matcher, r.isNot, r.outcome])).toEqual([
      ['toHaveMrrAbove', false, true],
      ['toHitWithin', true, true],
    ])
    expect(records[0]?.test?.name).toBe('lands in this test’s task.meta')
    expect(records[0]?.test?.describe).toEqual(['in a real Vitest test'])
  })
})
