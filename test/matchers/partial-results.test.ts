// Issue #26 (items 2 and 4), under Vitest AND Jest (globals only): an eval set where one pipeline call
// fails still reports the metric over the others and fails as an ordinary assertion (both ways),
// `failedCases` chooses 'fail' / 'zero' / 'skip', runEvalSet retries with backoff, and a `corpus`
// turns an item's `keyword` into its `relevant` ids, refusing a keyword that matches no chunk.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describeEvalSet, type EvalSetRunner } from '../../runners/describe-eval-set.js'
import { loadCorpus } from '../../src/eval-set/load-dataset.js'
import { runEvalSet, type EvalRunItem } from '../../src/eval-set/run-eval-set.js'
import { failureOf } from '../helpers/failure.js'

const FIXTURES = join(process.cwd(), 'test/fixtures/partial-results')
const QA = join(FIXTURES, 'qa.jsonl')
const CHUNKS = join(FIXTURES, 'chunks.jsonl')
const corpus = loadCorpus(CHUNKS)
const references = new Map(
  readFileSync(QA, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; reference: string })
    .map((item) => [item.id, item.reference] as const),
)

/** A retriever that finds the keyword's chunk (q02 misses it), an answer that repeats the reference (q02 does not know). */
function answerOf(item: EvalRunItem): { retrieved: string[]; answer: string } {
  if (item.id === 'q05') throw new Error('vector DB timeout (503)')
  if (item.id === 'q02') return { retrieved: ['c01', 'c03', 'c04'], answer: 'I do not know.' }
  const keyword = String(item.keyword).toLowerCase()
  const hit = corpus.find((c) => c.text.toLowerCase().includes(keyword))
  return { retrieved: [String(hit?.id), 'c12', 'c11'], answer: references.get(String(item.id)) as string }
}

/** Not a usage error: the runner's own assertion error, with no `Matcher error:` line. */
function assertionFailureOf(assertion: () => unknown): string {
  try {
    assertion()
  } catch (error) {
    expect((error as Error).name).not.toBe('MatcherUsageError')
    const message = failureOf(() => {
      throw error
    })
    expect(message).not.toContain('Matcher error')
    return message
  }
  throw new Error('expected the assertion to fail, but it passed')
}

describeEvalSet('ten questions, q05 fails', { dataset: QA, corpus: CHUNKS, pipeline: (_q, item) => answerOf(item), progress: 'off', concurrency: 3 }, (run) => {
  it('records the failure on q05 (one attempt) and takes relevant from the keywords', () => {
    expect(run.errors).toBe(1)
    const q05 = run.cases[4]
    expect(q05?.id).toBe('q05')
    expect(q05?.error).toEqual({ name: 'Error', message: 'vector DB timeout (503)' })
    expect(q05?.attempts).toBe(1)
    expect(run.cases[1]?.relevant).toEqual(['c02'])
    expect(run.cases[8]?.relevant).toEqual(['c09'])
  })

  it("failedCases 'fail' (default): recall fails with the failed case named and the metric over the other nine", () => {
    const message = assertionFailureOf(() => expect(run).toHaveRecallAtK(3, 0.5))
    expect(message).toContain("1 of 10 cases failed in the pipeline (failedCases: 'fail'), so the assertion fails")
    expect(message).toContain('over the 9 that did not fail: mean R@3 over 9 queries = 0.8889   required ≥ 0.5000')
    expect(message).toContain('case q05 has no ranking because its pipeline failed: vector DB timeout (503)')
    expect(message).toMatch(/signature: R\|k:3\|.*\|failed:fail\|version:/)
    expect(message).not.toContain('received[4]')
  })

  it("failedCases 'fail': .not fails too", () => {
    const message = assertionFailureOf(() => expect(run).not.toHaveRecallAtK(3, 0.95))
    expect(message).toContain('so the assertion fails under .not too')
    expect(message).toContain('case q05 has no ranking because its pipeline failed: vector DB timeout (503)')
    expect(() => expect(run).not.toHaveMrrAbove(0.99, { failedCases: 'fail' })).toThrow('case q05')
  })

  it("failedCases 'fail' on the generation set matchers: named by case id, metric over the others", () => {
    for (const assertion of [
      () => expect(run).toScoreRougeLAbove(0.5),
      () => expect(run).not.toScoreRougeLAbove(0.99),
      () => expect(run).toScoreBleuAbove(10),
      () => expect(run.cases).not.toScoreChrfAbove(90),
      () => expect(run).toScoreMeteorAbove(0.2, { synonyms: false }),
    ]) {
      const message = assertionFailureOf(assertion)
      expect(message).toContain('1 of 10 cases failed in the pipeline')
      expect(message).toContain('case q05 has no answer because its pipeline failed: vector DB timeout (503)')
      expect(message).toMatch(/over the 9 that did not fail: (mean|corpus) /)
    }
  })

  it("failedCases 'zero': q05 scores 0 and the threshold decides (mean recall 8/10)", () => {
    expect(run).toHaveRecallAtK(3, 0.8, { failedCases: 'zero' })
    expect(run).not.toHaveRecallAtK(3, 0.81, { failedCases: 'zero' })
    const message = assertionFailureOf(() => expect(run).toHaveRecallAtK(3, 0.85, { failedCases: 'zero' }))
    expect(message).toContain('mean R@3 over 10 queries (1 failed scored 0) = 0.8000   required ≥ 0.8500')
    expect(message).toContain("failed cases: 1 of 10 (scored 0; failedCases: 'zero')")
    expect(message).toContain('case q05 has no ranking because its pipeline failed')
    expect(message).toMatch(/\|failed:zero\|version:/)
    expect(run).toScoreRougeLAbove(0.8, { failedCases: 'zero' })
    expect(run).not.toScoreRougeLAbove(0.9, { failedCases: 'zero' })
    expect(run).toScoreBleuAbove(50, { failedCases: 'zero' })
  })

  it("failedCases 'skip': q05 is left out (mean recall 8/9) and still listed", () => {
    expect(run).toHaveRecallAtK(3, 0.88, { failedCases: 'skip' })
    expect(run).not.toHaveRecallAtK(3, 0.9, { failedCases: 'skip' })
    const message = assertionFailureOf(() => expect(run).not.toHaveRecallAtK(3, 0.85, { failedCases: 'skip' }))
    expect(message).toContain('mean R@3 over 9 queries (1 failed left out) = 0.8889   required < 0.8500')
    expect(message).toContain("failed cases: 1 of 10 (left out of the score; failedCases: 'skip')")
    expect(message).toContain('case q05 has no ranking because its pipeline failed: vector DB timeout (503)')
    expect(message).toMatch(/\|failed:skip\|version:/)
    expect(run).toScoreRougeLAbove(0.85, { failedCases: 'skip' })
    expect(run).toHaveNdcgAtK(3, 0.85, { failedCases: 'skip', gain: 'exponential' })
  })

  it('refuses a wrong or unknown failedCases option, with or without .not', () => {
    const misuse = [
      () => expect(run).toHaveRecallAtK(3, 0.5, { failedCases: 'ignore' } as never),
      () => expect(run).not.toHaveRecallAtK(3, 0.5, { failedCases: 'ignore' } as never),
      () => expect(run).toHaveRecallAtK(3, 0.5, { failedCase: 'skip' } as never),
      () => expect(run).not.toHaveRecallAtK(3, 0.5, { failedCase: 'skip' } as never),
      () => expect(run).toScoreRougeLAbove(0.5, { failedCases: 0 } as never),
      () => expect(run).not.toScoreRougeLAbove(0.5, { failedCases: 0 } as never),
      () => expect(run).toScoreBleuAbove(10, { failedCases: true } as never),
      () => expect(run).not.toScoreBleuAbove(10, { failedCases: true } as never),
    ]
    for (const assertion of misuse)
      expect(failureOf(assertion)).toMatch(/Matcher error: (options\.failedCases must be 'fail' \| 'zero' \| 'skip'|unknown option 'failedCase')/)
  })
})

describe('failedCases on inline sets', () => {
  const good = { id: 'a', retrieved: ['x'], relevant: ['x'], answer: 'the cat sat', reference: 'the cat sat' }
  const noId = { retrieved: ['y'], relevant: ['x'] }
  const failed = { error: new Error('boom') }

  it('names a failed case without an id by its position', () => {
    expect(failureOf(() => expect([good, noId, failed]).toHaveHitRateAtK(1, 0.1))).toContain('received[2] has no ranking because its pipeline failed: boom')
    expect(failureOf(() => expect([good, failed]).toScoreMeteorAbove(0.1))).toContain('received[1] has no answer because its pipeline failed: boom')
  })

  it("a set whose every case failed fails both ways, whatever the choice except 'zero'", () => {
    for (const mode of ['fail', 'skip'] as const) {
      expect(assertionFailureOf(() => expect([failed]).toHaveRecallAtK(1, 0.5, { failedCases: mode }))).toContain('every case (1 of 1) failed in the pipeline')
      expect(assertionFailureOf(() => expect([failed]).not.toHaveRecallAtK(1, 0.5, { failedCases: mode }))).toContain('and nothing can be scored, so the assertion fails')
    }
    expect(() => expect([failed]).not.toHaveRecallAtK(1, 0.5, { failedCases: 'zero' })).not.toThrow()
  })

  it('refuses failedCases for one query (an option of eval sets only), with or without .not', () => {
    expect(failureOf(() => expect(good).toHaveRecallAtK(1, 0.5, { failedCases: 'skip' }))).toContain("Matcher error: unknown option 'failedCases'")
    expect(failureOf(() => expect(good).not.toHaveRecallAtK(1, 0.5, { failedCases: 'skip' }))).toContain("Matcher error: unknown option 'failedCases'")
    expect(failureOf(() => expect('the cat').toScoreRougeLAbove('the cat', 0.5, { failedCases: 'skip' } as never))).toContain('Matcher error')
  })

  it('a case with a keyword and no relevant says to pass corpus', () => {
    const message = failureOf(() => expect([good, { id: 'q09', retrieved: ['c1'], keyword: 'AES 256' }]).toHaveRecallAtK(1, 0.5))
    expect(message).toContain('Matcher error: case q09 (received[1]): relevant is missing; the case has `keyword: "AES 256"`')
    expect(message).toContain('Pass `corpus`')
    expect(failureOf(() => expect([{ retrieved: ['c1'] }]).not.toHaveRecallAtK(1, 0.5))).toContain('pass `corpus` to runEvalSet/describeEvalSet')
  })
})

describe('runEvalSet retries', () => {
  const items = [
    { id: 'q1', question: 'one', relevant: ['c1'] },
    { id: 'q2', question: 'two', relevant: ['c1'] },
  ]

  it('a call that fails once succeeds on its 2nd attempt: no failed case, attempts recorded', async () => {
    const calls: Record<string, number> = {}
    const run = await runEvalSet(
      items,
      (_q, item) => {
        calls[item.id] = (calls[item.id] ?? 0) + 1
        if (item.id === 'q2' && calls[item.id] === 1) throw new Error('vector DB timeout (503)')
        return { retrieved: ['c1'], answer: 'ok' }
      },
      { retries: 2, retryDelayMs: 1, progress: 'off' },
    )
    expect(run.errors).toBe(0)
    expect(run.cases.map((c) => [c.id, c.attempts, c.error])).toEqual([
      ['q1', 1, undefined],
      ['q2', 2, undefined],
    ])
    expect(run).toHitWithin(1, { failedCases: 'fail' })
  })

  it('a case fails only after its retries, waiting with exponential backoff (d, 2d)', async () => {
    const started = Date.now()
    const run = await runEvalSet(
      [items[0] as (typeof items)[number]],
      () => {
        throw new Error('still down')
      },
      { retries: 2, retryDelayMs: 20, progress: 'off' },
    )
    expect(Date.now() - started).toBeGreaterThanOrEqual(55)
    expect(run.errors).toBe(1)
    expect(run.cases[0]?.attempts).toBe(3)
    expect(run.cases[0]?.error?.message).toBe('still down')
  })

  it('retries a timed-out call, but not a return value of the wrong shape', async () => {
    let slow = 0
    let bad = 0
    const run = await runEvalSet(
      items,
      (_q, item) => {
        if (item.id === 'q1') return ++slow === 1 ? new Promise<never>(() => undefined) : { answer: 'late' }
        bad++
        return { answer: 42 } as never
      },
      { retries: 1, retryDelayMs: 1, timeoutMs: 20, progress: 'off' },
    )
    expect([run.cases[0]?.attempts, run.cases[0]?.answer, run.cases[0]?.error]).toEqual([2, 'late', undefined])
    expect([run.cases[1]?.attempts, bad, run.cases[1]?.error?.name]).toEqual([1, 1, 'MetricInputError'])
  })

  it('refuses a bad or unknown retry option', async () => {
    const pipeline = () => ({ answer: 'x' })
    for (const [options, text] of [
      [{ retries: -1 }, 'options.retries'],
      [{ retries: 1.5 }, 'options.retries'],
      [{ retries: '2' }, 'options.retries'],
      [{ retryDelayMs: -1 }, 'options.retryDelayMs'],
      [{ retryDelayMs: Number.NaN }, 'options.retryDelayMs'],
      [{ corpus: 42 }, 'options.corpus'],
      [{ retry: 1 }, 'options.retry'],
    ] as const) {
      await expect(runEvalSet(items, pipeline, { progress: 'off', ...(options as object) })).rejects.toThrow(text)
    }
  })
})

describeEvalSet(
  'a flaky pipeline with retries',
  {
    dataset: [{ id: 'only', question: 'q', relevant: ['c1'] }],
    retries: 1,
    retryDelayMs: 1,
    progress: 'off',
    pipeline: (() => {
      let calls = 0
      return () => {
        calls++
        if (calls === 1) throw new Error('flaky')
        return { retrieved: ['c1'] }
      }
    })(),
  },
  (run) => {
    it('passes after the retry', () => {
      expect(run.errors).toBe(0)
      expect(run.cases[0]?.attempts).toBe(2)
      expect(run).toHitWithin(1)
    })
  },
)

describe('keyword ground truth through corpus', () => {
  const dataset = [
    { id: 'enc', question: 'How is data at rest encrypted?', keyword: 'aes-256' },
    { id: 'tls', question: 'Which TLS?', keyword: 'TLS 1.3', relevant: ['c99'] },
    { id: 'plain', question: 'No keyword here' },
  ]

  it('fills relevant from the keyword (case-insensitive), keeps a given relevant, from an array, a file or a function', async () => {
    for (const source of [corpus, CHUNKS, async () => corpus]) {
      const run = await runEvalSet(dataset, () => ({ retrieved: ['c02'] }), { corpus: source, progress: 'off' })
      expect(run.cases.map((c) => c.relevant)).toEqual([['c02'], ['c99'], undefined])
    }
  })

  it('a keyword that matches no chunk fails the run, naming the item and the keyword, before any pipeline call', async () => {
    let calls = 0
    const pipeline = () => {
      calls++
      return { retrieved: [] }
    }
    const typo = [...dataset, { id: 'q07', question: 'Which cipher?', keyword: 'AES 256' }]
    await expect(runEvalSet(typo, pipeline, { corpus, progress: 'off' })).rejects.toThrow(
      'runEvalSet: 1 of 4 items have a keyword found in no chunk of the corpus (12 chunks; case-insensitive substring)',
    )
    await expect(runEvalSet(typo, pipeline, { corpus, progress: 'off' })).rejects.toThrow('item "q07": keyword "AES 256"')
    expect(calls).toBe(0)
  })

  it('describeEvalSet: the block fails in its hook with the same error, and refuses bad options at once', async () => {
    let hook: (() => Promise<void>) | undefined
    const runner: EvalSetRunner = {
      describe: (_name, fn) => fn(),
      beforeAll: (fn) => {
        hook = fn
      },
    }
    describeEvalSet(
      'typo',
      { dataset: [{ id: 'q07', question: 'Which cipher?', keyword: 'AES 256' }], corpus: CHUNKS, pipeline: () => ({ retrieved: [] }), runner, progress: 'off' },
      () => undefined,
    )
    await expect((hook as () => Promise<void>)()).rejects.toThrow('item "q07": keyword "AES 256"')
    const base = { dataset, pipeline: () => ({}), runner }
    for (const [options, text] of [
      [{ retries: -1 }, 'options.retries'],
      [{ retries: 'twice' }, 'options.retries'],
      [{ retryDelayMs: '5' }, 'options.retryDelayMs'],
      [{ corpus: 7 }, 'options.corpus'],
      [{ corpusFile: CHUNKS }, 'options.corpusFile'],
    ] as const) {
      expect(() => describeEvalSet('bad', { ...base, ...(options as object) }, () => undefined)).toThrow(text)
    }
  })

  it('a corpus file with a bad chunk names the file and line; another extension is refused', () => {
    expect(() => loadCorpus(join(FIXTURES, 'bad-chunks.jsonl'))).toThrow(/bad-chunks\.jsonl line 3: Expected `text` to be a string, got `undefined`/)
    expect(() => loadCorpus(join(FIXTURES, 'chunks.txt'))).toThrow('a .json, .jsonl or .ndjson file')
  })
})
