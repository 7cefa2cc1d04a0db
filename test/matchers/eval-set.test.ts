// Runs under Vitest AND Jest (globals only): describeEvalSet registers with the runner's own
// describe/beforeAll, and the run handle is a received value for every set matcher.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeEvalSet, EvalRunHandle, type EvalSetRunner } from '../../runners/describe-eval-set.js'
import { failureOf } from '../helpers/failure.js'

const chunks: Record<string, string> = {
  c1: 'The base Transformer uses h = 8 parallel attention heads.',
  c2: 'The big model achieved a BLEU score of 28.4 on WMT 2014 English-to-German.',
  c3: 'Dropout of 0.1 was applied to the base model.',
  c4: 'The model dimension is d_model = 512.',
}
const dataset = [
  { id: 'heads', question: 'How many attention heads?', relevant: ['c1'], reference: 'The base Transformer uses h = 8 attention heads.' },
  { id: 'bleu', question: 'What BLEU on English-German?', relevant: ['c2'], reference: 'The big model reached 28.4 BLEU.' },
  { id: 'dropout', question: 'Which dropout rate?', relevant: ['c3'], reference: 'A dropout rate of 0.1.' },
  { id: 'dims', question: 'What is d_model?', relevant: ['c4'], reference: 'd_model is 512.' },
]
// A toy retriever: ranks chunks by shared lower-cased words with the question.
function retrieve(question: string): string[] {
  const words = new Set(question.toLowerCase().match(/[a-z0-9_]+/g) ?? [])
  return Object.entries(chunks)
    .map(([id, text]) => ({ id, score: (text.toLowerCase().match(/[a-z0-9_]+/g) ?? []).filter((w) => words.has(w)).length }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
    .map((r) => r.id)
}

const calls: string[] = []
let inFlight = 0
let maxInFlight = 0
let collectionError: unknown

describeEvalSet(
  'toy transformer QA',
  {
    dataset,
    concurrency: 2,
    progress: 'off',
    pipeline: async (question, item) => {
      calls.push(item.id)
      inFlight++
      maxInFlight = Math.max(maxInFlight, inFlight)
      await new Promise((resolve) => setTimeout(resolve, 5))
      inFlight--
      const retrieved = retrieve(question)
      return { retrieved, answer: chunks[retrieved[0] as string] as string, contexts: retrieved.slice(0, 2).map((id) => chunks[id] as string) }
    },
  },
  (run) => {
    try {
      void run.cases
    } catch (error) {
      collectionError = error
    }

    it('refuses to be read while tests are collected', () => {
      expect(String(collectionError)).toContain('describeEvalSet("toy transformer QA"): the eval set has not run yet')
    })

    it('has run every item before the first test, in dataset order, with bounded concurrency', () => {
      expect(run).toBeInstanceOf(EvalRunHandle)
      expect(run.ready).toBe(true)
      expect(run.cases.map((c) => c.id)).toEqual(['heads', 'bleu', 'dropout', 'dims'])
      expect(run.errors).toBe(0)
      expect(maxInFlight).toBe(2)
      expect(run.cases[0]).toMatchObject({ question: 'How many attention heads?', relevant: ['c1'] })
      expect(run.cases[0]!.timing.ms).toBeGreaterThan(0)
    })

    it('is a received value for the set matchers (retrieval and generation)', () => {
      expect(run).toHitWithin(2)
      expect(run).toHaveRecallAtK(1, 1)
      expect(run.cases).toHaveMrrAbove(1)
      expect(run).toScoreRougeLAbove(0.3)
      const message = failureOf(() => expect(run).not.toHaveNdcgAtK(1, 1))
      expect(message).toContain('mean nDCG@1 over 4 queries = 1.0000   required < 1.0000')
    })

    describe('a nested block', () => {
      it('sees the same run', () => {
        expect(run.run.cases).toBe(run.cases)
        expect(run.durationMs).toBeGreaterThanOrEqual(0)
        expect(typeof run.startedAt).toBe('string')
      })
    })

    it('ran the pipeline once per item, however many tests read the run', () => {
      expect([...calls].sort()).toEqual(['bleu', 'dims', 'dropout', 'heads'])
    })
  },
)

const failing = { fails: 0 }
describeEvalSet(
  'a set with a failing case',
  {
    dataset: dataset.slice(0, 3),
    progress: 'off',
    timeoutMs: 50,
    pipeline: (question, item) => {
      if (item.id === 'bleu') {
        failing.fails++
        throw new Error('index unavailable')
      }
      if (item.id === 'dropout') return new Promise(() => undefined)
      return { retrieved: retrieve(question), answer: 'x' }
    },
  },
  (run) => {
    it('records the failures on their cases and keeps them', () => {
      expect(run.errors).toBe(2)
      expect(run.cases.map((c) => c.error?.name)).toEqual([undefined, 'Error', 'TimeoutError'])
      expect(failing.fails).toBe(1)
    })
    it('makes set matchers name the failed case', () => {
      expect(() => expect(run).toHaveRecallAtK(3, 0)).toThrow('case bleu has no ranking because its pipeline failed: index unavailable')
      expect(failureOf(() => expect(run).not.toHaveRecallAtK(3, 0))).not.toContain('Matcher error')
    })
  },
)

// A dataset file: loaded at collection time, run in beforeAll.
const folder = mkdtempSync(join(tmpdir(), 'rag-eval-set-'))
const file = join(folder, 'set.jsonl')
writeFileSync(file, dataset.map((d) => JSON.stringify(d)).join('\n'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describeEvalSet('from a JSON Lines file', { dataset: file, progress: 'off', pipeline: (q) => ({ retrieved: retrieve(q) }) }, (run) => {
  it('loads the file and runs it', () => {
    expect(run.cases.map((c) => c.id)).toEqual(['heads', 'bleu', 'dropout', 'dims'])
    expect(run).toHaveHitRateAtK(2, 1)
  })
})

describe('describeEvalSet with an explicit runner', () => {
  function fakeRunner() {
    const hooks: Array<{ fn: () => unknown; timeout: number | undefined }> = []
    const names: string[] = []
    const runner: EvalSetRunner = {
      describe: (name, fn) => {
        names.push(name)
        fn()
      },
      beforeAll: (fn, timeout) => {
        hooks.push({ fn, timeout })
      },
    }
    return { runner, hooks, names }
  }

  it('runs the set in the hook and derives the hook timeout from the set size', async () => {
    const { runner, hooks, names } = fakeRunner()
    let handle: EvalRunHandle | undefined
    describeEvalSet('explicit', { dataset: dataset.slice(0, 3), pipeline: () => ({ answer: 'a' }), concurrency: 2, timeoutMs: 1000, progress: 'off', runner }, (run) => {
      handle = run
    })
    expect(names).toEqual(['explicit'])
    expect(hooks).toHaveLength(1)
    expect(hooks[0]!.timeout).toBe(2 * 1000 + 30_000)
    expect(handle!.ready).toBe(false)
    await hooks[0]!.fn()
    expect(handle!.cases).toHaveLength(3)
    expect(JSON.stringify(handle)).toContain('"answer":"a"')
  })

  it('turns a dataset error into a failing hook with the file, line and field, not a collection crash', async () => {
    const bad = join(folder, 'bad.json')
    writeFileSync(bad, '[\n  {"id": "a", "question": "Q?"},\n  {"id": "b", "question": ""}\n]')
    const { runner, hooks } = fakeRunner()
    let handle: EvalRunHandle | undefined
    describeEvalSet('broken file', { dataset: bad, pipeline: () => ({}), runner }, (run) => {
      handle = run
    })
    await expect(Promise.resolve().then(() => hooks[0]!.fn())).rejects.toThrow(`parseDataset: ${bad} line 3 (item [1]): Expected \`question\` to be a non-empty string`)
    expect(() => handle!.cases).toThrow('describeEvalSet("broken file"): the eval set could not be run: parseDataset:')
  })

  it('calls a dataset function once, in the hook', async () => {
    const { runner, hooks } = fakeRunner()
    let loads = 0
    describeEvalSet(
      'lazy',
      {
        dataset: async () => {
          loads++
          return dataset.slice(0, 2)
        },
        pipeline: () => ({ answer: 'a' }),
        progress: 'off',
        runner,
      },
      () => undefined,
    )
    expect(loads).toBe(0)
    expect(hooks[0]!.timeout).toBe(60 * 60_000)
    await hooks[0]!.fn()
    expect(loads).toBe(1)
  })

  it('validates its arguments', () => {
    const { runner } = fakeRunner()
    expect(() => describeEvalSet('', { dataset, pipeline: () => ({}), runner }, () => undefined)).toThrow('describeEvalSet: Expected `name` to be a non-empty string')
    expect(() => describeEvalSet('x', { dataset, pipeline: 'no' as never, runner }, () => undefined)).toThrow('Expected `options.pipeline` to be a function')
    expect(() => describeEvalSet('x', { dataset: 3 as never, pipeline: () => ({}), runner }, () => undefined)).toThrow('Expected `options.dataset`')
    expect(() => describeEvalSet('x', { dataset, pipeline: () => ({}), runner }, 'fn' as never)).toThrow('Expected `fn` to be a function')
  })
})
