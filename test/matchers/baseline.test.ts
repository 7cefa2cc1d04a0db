// Runs under Vitest AND Jest (globals only). Every baseline goes to a temp folder (`dir` option);
// the file NAME still comes from the runner's testPath, which the first test checks.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toMatchMetricBaseline, type BaselineWriteInfo, type MetricBaselineOptions } from '../../matchers/baseline.js'
import { readBaselineFile, writeBaselineEntry } from '../../src/eval-set/baseline-file.js'
import { metricRunOf } from '../../src/eval-set/metrics.js'
import { failureOf, stripAnsi } from '../helpers/failure.js'

type UpdateState = 'all' | 'new' | 'none'
interface RunnerState {
  testPath?: string
  snapshotState?: { _updateSnapshot: UpdateState }
}

const runnerState = () => (expect as unknown as { getState(): RunnerState }).getState()

/**
 * Runs `fn` as if under `CI=<ci>` and the runner's snapshot update state `update` ('all' is -u,
 * 'none' is --ci), restoring both afterwards. The state is the runner's own object, so the matcher
 * reads it exactly as it does in a real `-u` run.
 */
function withRunner<T>(state: { ci?: string; update: UpdateState }, fn: () => T): T {
  const snapshotState = runnerState().snapshotState!
  const savedUpdate = snapshotState._updateSnapshot
  const savedCi = process.env.CI
  snapshotState._updateSnapshot = state.update
  if (state.ci === undefined) delete process.env.CI
  else process.env.CI = state.ci
  try {
    return fn()
  } finally {
    snapshotState._updateSnapshot = savedUpdate
    if (savedCi === undefined) delete process.env.CI
    else process.env.CI = savedCi
  }
}
const local = { update: 'new' as const }

let dir: string
let writes: BaselineWriteInfo[]
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-baseline-matcher-'))
  writes = []
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const baselineFile = () => join(dir, 'baseline.test.ts.json')
const opts = (extra: Partial<MetricBaselineOptions> = {}): MetricBaselineOptions => ({ metrics: ['recall@1', 'mrr'], dir, onWrite: (w) => writes.push(w), ...extra })

/** 20 cases; `misses` lists the ids whose relevant doc falls to rank 2 (recall@1 0, RR 0.5). */
function evalRun(misses: readonly number[] = [], extra: Array<{ id: string }> = []) {
  const cases = Array.from({ length: 20 }, (_, i) => ({
    id: `q${String(i).padStart(2, '0')}`,
    relevant: [`d${i}`],
    retrieved: misses.includes(i) ? ['noise', `d${i}`] : [`d${i}`, 'noise'],
    answer: 'The base Transformer uses h = 8 attention heads.',
    reference: 'The base Transformer uses h = 8 parallel attention heads.',
  }))
  return { cases: [...cases, ...extra.map((e) => ({ ...e, relevant: ['x'], retrieved: ['x'], answer: 'a', reference: 'a' }))], startedAt: '', durationMs: 0, errors: 0 }
}

describe('the runner state the matcher relies on', () => {
  it('exposes testPath and snapshotState._updateSnapshot in the matcher state', () => {
    const state = runnerState()
    expect(state.testPath).toMatch(/baseline\.test\.ts$/)
    expect(['all', 'new', 'none']).toContain(state.snapshotState?._updateSnapshot)
  })
})

describe('.toMatchMetricBaseline', () => {
  it('writes the baseline on the first run, names the file after the test file, and says so', () => {
    withRunner(local, () => expect(evalRun()).toMatchMetricBaseline('qa', opts()))
    expect(readdirSync(dir)).toEqual(['baseline.test.ts.json'])
    expect(writes).toEqual([{ file: baselineFile(), name: 'qa', metrics: ['recall@1', 'mrr'], cases: 20, reason: 'new' }])
    const stored = readBaselineFile(baselineFile())!.entries.qa!
    const expected = metricRunOf(evalRun().cases, ['recall@1', 'mrr'])
    expect(stored.metrics['recall@1']).toEqual(expected.metrics['recall@1'])
    expect(stored.metrics.mrr!.signature).toBe(expected.metrics.mrr!.signature)
    // one case per line
    expect(readFileSync(baselineFile(), 'utf8')).toContain('\n            "q07": 1,\n')
  })

  it('announces a write on console.info when no onWrite is given', () => {
    const logs: string[] = []
    const original = console.info
    console.info = (message: string) => logs.push(message)
    try {
      withRunner(local, () => expect(evalRun()).toMatchMetricBaseline('qa', { metrics: ['mrr'], dir }))
    } finally {
      console.info = original
    }
    expect(logs).toHaveLength(1)
    expect(logs[0]).toContain('rag-matchers: wrote baseline "qa" (mrr × 20 cases) in ')
    expect(logs[0]).toContain('baseline.test.ts.json')
  })

  it('passes an unchanged run without writing, and a change within noise', () => {
    withRunner(local, () => expect(evalRun([3, 11])).toMatchMetricBaseline('qa', opts()))
    const before = readFileSync(baselineFile(), 'utf8')
    writes = []
    withRunner(local, () => expect(evalRun([3, 11])).toMatchMetricBaseline('qa', opts()))
    // two other cases miss instead: the same means
    withRunner(local, () => expect(evalRun([4, 12])).toMatchMetricBaseline('qa', opts()))
    // one more miss: recall@1 drops by 0.05 (more than the tolerance) but one case of 20 is noise
    withRunner(local, () => expect(evalRun([3, 11, 15])).toMatchMetricBaseline('qa', opts()))
    expect(writes).toEqual([])
    expect(readFileSync(baselineFile(), 'utf8')).toBe(before)
  })

  it('fails on a significant regression, with the means, delta, p-value and the worst cases', () => {
    withRunner(local, () => expect(evalRun()).toMatchMetricBaseline('qa', opts()))
    const worse = evalRun([0, 2, 4, 6, 8, 10, 12, 14, 16, 18])
    const message = withRunner(local, () => failureOf(() => expect(worse).toMatchMetricBaseline('qa', opts())))
    expect(message).toContain('expect(received).toMatchMetricBaseline(name, options)')
    expect(message).toContain('Baseline "qa": 2 of 2 metrics regressed: mrr 1.0000 → 0.7500 (-0.2500, p = 1.0e-4); recall@1 1.0000 → 0.5000 (-0.5000, p = 1.0e-4)')
    expect(message).toMatch(/recall@1\s+1\.0000\s+0\.5000\s+-0\.5000\s+\[-0\.\d{4}, -0\.\d{4}\]\s+1\.0e-4\s+0\.0200\s+REGRESSED/)
    expect(message).toContain('cases that dropped most in recall@1 (10 of 20 dropped):')
    expect(message).toMatch(/ {2}q00\s+1\.0000 → 0\.0000\s+\(-1\.0000\)/)
    expect(message).toContain('  q08  1.0000 → 0.0000  (-1.0000)\n  … and 5 more')
    expect(message).toContain('paired bootstrap, 10000 resamples, seed 42')
    expect(message).toContain('If the change is intended, update the baseline: run the tests with -u')
    expect(message).toContain(`baseline file: ${baselineFile()}`)
    // the permutation test agrees
    expect(withRunner(local, () => failureOf(() => expect(worse).toMatchMetricBaseline('qa', opts({ test: 'permutation' }))))).toContain('sign-flip permutation test')
  })

  it('lists the cases present in only one run', () => {
    withRunner(local, () => expect(evalRun([], [{ id: 'retired' }])).toMatchMetricBaseline('qa', opts()))
    const message = withRunner(local, () =>
      failureOf(() => expect(evalRun([1, 3, 5, 7, 9, 11, 13, 15], [{ id: 'new-1' }, { id: 'new-2' }])).toMatchMetricBaseline('qa', opts())),
    )
    expect(message).toContain('cases only in the baseline (1, not compared): retired')
    expect(message).toContain('cases only in this run (2, not compared): new-1, new-2')
  })

  it('refuses to compare when a signature changed, naming the metric, the setting, both values and -u', () => {
    const stored = metricRunOf(evalRun().cases, ['recall@1'])
    const old = stored.metrics['recall@1']!
    writeBaselineEntry(baselineFile(), 'qa', {
      metrics: { 'recall@1': { signature: old.signature.replace('dup:first', 'dup:literal').replace(/version:[^|]+$/, 'version:0.0.9'), values: old.values } },
    })
    const message = withRunner(local, () => failureOf(() => expect(evalRun()).toMatchMetricBaseline('qa', opts({ metrics: ['recall@1'] }))))
    expect(message).toContain('Baseline "qa" cannot be compared: recall@1 was computed with different settings than the baseline.')
    expect(message).toContain('    dup: literal in the baseline, first now')
    expect(message).toContain('    version: 0.0.9 in the baseline, ')
    expect(message).toContain('    baseline signature: R|k:1|empty:zero|dup:literal|version:0.0.9')
    expect(message).toContain('update the baseline with -u (vitest -u / jest -u)')
  })

  it('fails instead of writing in CI, and under --ci', () => {
    const message = withRunner({ ci: 'true', update: 'new' }, () => failureOf(() => expect(evalRun()).toMatchMetricBaseline('qa', opts())))
    expect(message).toContain('No baseline "qa", and baselines are not written here because CI is set.')
    expect(message).toContain('Run the tests locally (or with -u) to write it, then commit')
    expect(existsSync(baselineFile())).toBe(false)
    const ci = withRunner({ update: 'none' }, () => failureOf(() => expect(evalRun()).toMatchMetricBaseline('qa', opts())))
    expect(ci).toContain('because the runner does not write snapshots (--ci)')
    // an existing entry without one of the metrics fails the same way
    withRunner(local, () => expect(evalRun()).toMatchMetricBaseline('qa', opts({ metrics: ['mrr'] })))
    const partial = withRunner({ ci: '1', update: 'new' }, () => failureOf(() => expect(evalRun()).toMatchMetricBaseline('qa', opts())))
    expect(partial).toContain('Baseline "qa" has no values for recall@1, and baselines are not written here because CI is set.')
    // CI=false is not CI: the missing metric is added and the existing one compared
    withRunner({ ci: 'false', update: 'new' }, () => expect(evalRun()).toMatchMetricBaseline('qa', opts()))
    expect(Object.keys(readBaselineFile(baselineFile())!.entries.qa!.metrics).sort()).toEqual(['mrr', 'recall@1'])
  })

  it('rewrites the baseline under -u, also in CI, keeping other entries', () => {
    withRunner(local, () => {
      expect(evalRun()).toMatchMetricBaseline('qa', opts())
      expect(evalRun()).toMatchMetricBaseline('other', opts({ metrics: ['bleu'] }))
    })
    const worse = evalRun([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    withRunner(local, () => failureOf(() => expect(worse).toMatchMetricBaseline('qa', opts())))
    writes = []
    withRunner({ ci: 'true', update: 'all' }, () => expect(worse).toMatchMetricBaseline('qa', opts()))
    expect(writes.map((w) => [w.name, w.reason])).toEqual([['qa', 'update']])
    withRunner({ ci: 'true', update: 'none' }, () => expect(worse).toMatchMetricBaseline('qa', opts()))
    const file = readBaselineFile(baselineFile())!
    expect(Object.keys(file.entries).sort()).toEqual(['other', 'qa'])
    expect(file.entries.qa!.metrics['recall@1']!.values.q00).toBe(0)
  })

  it('tracks BLEU with a tolerance of 2 points (a fraction of its 0–100 scale)', () => {
    withRunner(local, () => expect(evalRun()).toMatchMetricBaseline('gen', opts({ metrics: ['bleu', 'rougeL'] })))
    const stored = readBaselineFile(baselineFile())!.entries.gen!
    expect(stored.metrics.bleu!.values.q00).toBeGreaterThan(40)
    expect(stored.metrics.rougeL!.signature).toContain('stem:yes|measure:F')
    const run = evalRun()
    const degraded = { ...run, cases: run.cases.map((c) => ({ ...c, answer: 'Transformers have heads.' })) }
    const message = withRunner(local, () => failureOf(() => expect(degraded).toMatchMetricBaseline('gen', opts({ metrics: ['bleu', 'rougeL'] }))))
    expect(message).toMatch(/bleu\s+\d+\.\d{2}\s+\d+\.\d{2}\s+-\d+\.\d{2}\s+\[.*\]\s+1\.0e-4\s+2\.00\s+REGRESSED/)
  })

  it('fails a run with failed cases, listing them', () => {
    const run = evalRun()
    const broken = {
      ...run,
      cases: run.cases.map((c, i) => (i === 4 ? { id: c.id, question: 'q', error: { name: 'TimeoutError', message: 'pipeline did not finish within 60000 ms' } } : c)),
    }
    const message = withRunner(local, () => failureOf(() => expect(broken).toMatchMetricBaseline('qa', opts())))
    expect(message).toContain('Baseline "qa": the run cannot be compared because some cases have no result.')
    expect(message).toMatch(/1 of 20 cases failed in the pipeline:\n {2}q04 {2}TimeoutError: pipeline did not finish within 60000 ms/)
    expect(existsSync(baselineFile())).toBe(false)
  })

  it('uses an explicit test file when given', () => {
    withRunner(local, () => expect(evalRun()).toMatchMetricBaseline('qa', { metrics: ['mrr'], file: join(dir, 'suite', 'other.test.ts'), onWrite: (w) => writes.push(w) }))
    expect(writes[0]!.file).toBe(join(dir, 'suite', '__rag_baselines__', 'other.test.ts.json'))
    expect(existsSync(writes[0]!.file)).toBe(true)
  })

  it('throws usage errors for bad arguments and .not', () => {
    const run = evalRun()
    expect(() => expect(run).toMatchMetricBaseline('qa', opts({ metrics: ['recall@0'] }))).toThrow(
      'Matcher error: options.metrics has an unknown metric; known: recall@k, precision@k, ndcg@k, mrr, hit@k, map@k, bleu, chrf, rouge1, rouge2, rougeL, rougeLsum, meteor (k a positive integer)',
    )
    expect(() => expect(run).toMatchMetricBaseline('', opts())).toThrow('name must be a non-empty string')
    expect(() => expect(run).toMatchMetricBaseline('qa', opts({ metrics: [] }))).toThrow('options.metrics must be a non-empty array')
    expect(() => expect(run).toMatchMetricBaseline('qa', opts({ tolerance: 5 }))).toThrow('options.tolerance must be a number from 0 to 1')
    expect(() => expect(run).toMatchMetricBaseline('qa', opts({ alpha: 1 }))).toThrow('options.alpha must be a number strictly between 0 and 1')
    expect(() => expect('answer').toMatchMetricBaseline('qa', opts())).toThrow('received value must be an eval run')
    expect(() => expect({ cases: [{ id: 'a' }] }).toMatchMetricBaseline('qa', opts())).toThrow('metricRunOf: Expected `cases[0].retrieved`')
    expect(() => expect(run).not.toMatchMetricBaseline('qa', opts())).toThrow('.not.toMatchMetricBaseline is not supported')
    expect(existsSync(baselineFile())).toBe(false)
  })

  it('needs a test file path when the runner gives none', () => {
    const ctx = { utils: { matcherHint: (m: string) => `expect(received).${m}(name, options)`, printReceived: String, printExpected: String }, testPath: undefined }
    expect(() => toMatchMetricBaseline.call(ctx, evalRun(), 'qa', { metrics: ['mrr'] })).toThrow(
      'the runner gave no test file path (this.testPath); pass { file: __filename }',
    )
    expect(stripAnsi('x')).toBe('x')
  })
})
