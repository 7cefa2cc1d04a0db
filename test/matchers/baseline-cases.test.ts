// Issue #26, baseline parts: per-case regressions in every message and in meta, the maxRegressedCases
// gate, and RAG_MATCHERS_UPDATE_BASELINES as the only switch that rewrites a baseline (-u does not).
// Runs under Vitest AND Jest (globals only).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toMatchMetricBaseline, type MetricBaselineOptions } from '../../matchers/baseline.js'
import { readBaselineFile } from '../../src/eval-set/baseline-file.js'
import { LOCAL, runnerState, withRunner } from '../helpers/baseline-runner.js'
import { failureOf, stripAnsi } from '../helpers/failure.js'

const ENV = 'RAG_MATCHERS_UPDATE_BASELINES'
const local = LOCAL

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-baseline-cases-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const ids = (n: number) => Array.from({ length: n }, (_, i) => `q${String(i + 1).padStart(2, '0')}`)
/** `n` questions (q01…); the ids in `lost` retrieve nothing relevant in the top 3 (recall@3 1 → 0). */
const questions = (n: number, lost: readonly string[] = []) => ({
  cases: ids(n).map((id) => ({ id, relevant: ['d'], retrieved: lost.includes(id) ? ['x', 'y', 'z'] : ['d', 'x', 'y'] })),
})
const opts = (extra: Partial<MetricBaselineOptions> = {}): MetricBaselineOptions => ({ metrics: ['recall@3'], dir, onWrite: () => {}, ...extra })
const call = (received: unknown, options: MetricBaselineOptions) =>
  toMatchMetricBaseline.call(
    { ...runnerState(), isNot: false, utils: { matcherHint: (m: string) => `expect(received).${m}(name, options)`, printReceived: String, printExpected: String } } as never,
    received,
    'qa',
    options,
  )

describe('per-case regressions (issue #26)', () => {
  it('names q05 when one of 10 questions loses recall@3 1 → 0, though the mean drop is not significant', () => {
    withRunner(local, () => expect(questions(10)).toMatchMetricBaseline('qa', opts()))
    const result = withRunner(local, () => call(questions(10, ['q05']), opts()))
    expect(result.pass).toBe(true)
    const text = stripAnsi(result.message())
    expect(text).toMatch(/mean recall@3 \(recall@3\)\s+1\.0000\s+0\.9000\s+-0\.1000\s+\[.*\]\s+0\.2702\s+0\.0200\s+dropped \(not significant\)\n/)
    expect(text).toContain('1 case regressed on its own (listed below).')
    expect(text).toContain(
      'cases that regressed in mean recall@3 (recall@3) (1 of 10 dropped by more than the tolerance 0.0200), worst first:\n  q05  recall@3  1.0000 → 0.0000  (-1.0000)\n',
    )
    const extra = result.meta!.extra as { regressedCases: unknown[]; metrics: Array<{ regressedCases: number }> }
    expect(extra.regressedCases).toEqual([{ case: 'q05', metric: 'mean recall@3', key: 'recall@3', baseline: 1, current: 0, delta: -1 }])
    expect(extra.metrics[0]!.regressedCases).toBe(1)
    expect(extra).not.toHaveProperty('regressedCasesOmitted')
  })

  it('fails the same run with maxRegressedCases: 0, naming q05; passes with maxRegressedCases: 1', () => {
    withRunner(local, () => expect(questions(10)).toMatchMetricBaseline('qa', opts()))
    const message = withRunner(local, () => failureOf(() => expect(questions(10, ['q05'])).toMatchMetricBaseline('qa', opts({ maxRegressedCases: 0 }))))
    expect(message).toContain(
      'Baseline "qa": 1 of 1 metrics failed: mean recall@3 (recall@3) 1.0000 → 0.9000 (-0.1000, p = 0.2702) dropped (not significant), 1 case regressed (more than maxRegressedCases: 0)',
    )
    expect(message).toContain('  q05  recall@3  1.0000 → 0.0000  (-1.0000)')
    expect(message).toContain('maxRegressedCases 0: more cases than that dropping by more than the tolerance fail a metric.')
    expect(message).toContain(`${ENV}=1 npx vitest run `)
    expect(message).toContain(`${ENV}=1 npx jest `)
    const meta = withRunner(local, () => call(questions(10, ['q05']), opts({ maxRegressedCases: 0 }))).meta!
    expect(meta).toMatchObject({ pass: false, value: 1, extra: { maxRegressedCases: 0 } })
    withRunner(local, () => expect(questions(10, ['q05'])).toMatchMetricBaseline('qa', opts({ maxRegressedCases: 1 })))
    // an unchanged run passes the strictest gate
    withRunner(local, () => expect(questions(10)).toMatchMetricBaseline('qa', opts({ maxRegressedCases: 0 })))
  })

  it('fails on a case that regressed although the mean improved', () => {
    withRunner(local, () => expect(questions(10, ['q01', 'q02', 'q03'])).toMatchMetricBaseline('qa', opts()))
    const better = questions(10, ['q04'])
    const result = withRunner(local, () => call(better, opts()))
    expect(result.pass).toBe(true)
    expect(stripAnsi(result.message())).toContain('  q04  recall@3  1.0000 → 0.0000  (-1.0000)')
    const message = withRunner(local, () => failureOf(() => expect(better).toMatchMetricBaseline('qa', opts({ maxRegressedCases: 0 }))))
    expect(message).toMatch(/mean recall@3 \(recall@3\) 0\.7000 → 0\.9000 \(\+0\.2000, p = 0\.\d{4}\) improved, 1 case regressed \(more than maxRegressedCases: 0\)/)
  })

  it('lists regressed cases worst first, per metric, bounded with "… and N more", and not drops within the tolerance', () => {
    // 20 questions; q01–q08 fall to rank 3 (MRR 1 → 1/3, recall@3 holds), q09–q11 lose the hit (both 1 → 0)
    const run = (worse: boolean) => ({
      cases: ids(20).map((id, i) => ({
        id,
        relevant: ['d'],
        retrieved: !worse ? ['d', 'x', 'y'] : i < 8 ? ['x', 'y', 'd'] : i < 11 ? ['x', 'y', 'z'] : ['d', 'x', 'y'],
      })),
    })
    const o = opts({ metrics: ['recall@3', 'mrr'] })
    withRunner(local, () => expect(run(false)).toMatchMetricBaseline('qa', o))
    const message = withRunner(local, () => failureOf(() => expect(run(true)).toMatchMetricBaseline('qa', o)))
    expect(message).toContain(
      'cases that regressed in MRR (mrr) (11 of 20 dropped by more than the tolerance 0.0200), worst first:\n  q09  mrr  1.0000 → 0.0000  (-1.0000)\n  q10  mrr  1.0000 → 0.0000  (-1.0000)\n  q11  mrr  1.0000 → 0.0000  (-1.0000)\n  q01  mrr  1.0000 → 0.3333  (-0.6667)\n  q02  mrr  1.0000 → 0.3333  (-0.6667)\n  … and 6 more\n',
    )
    expect(message).toContain('cases that regressed in mean recall@3 (recall@3) (3 of 20 dropped by more than the tolerance 0.0200), worst first:\n  q09  recall@3')
    // a tolerance of 0.7 of the scale: the MRR drops of 0.6667 are within it, the losses of 1 are not
    const wide = withRunner(local, () => call(run(true), opts({ metrics: ['recall@3', 'mrr'], tolerance: { mrr: 0.7, 'recall@3': 0.02 } })))
    expect(stripAnsi(wide.message())).toContain('cases that regressed in MRR (mrr) (3 of 20 dropped by more than the tolerance 0.7000)')
    const extra = wide.meta!.extra as { regressedCases: Array<{ case: string; key: string }> }
    expect(extra.regressedCases.map((c) => `${c.key} ${c.case}`)).toEqual(['mrr q09', 'mrr q10', 'mrr q11', 'recall@3 q09', 'recall@3 q10', 'recall@3 q11'])
  })

  it('lists regressed cases in the coverage and power failures too', () => {
    withRunner(local, () => expect(questions(10)).toMatchMetricBaseline('qa', opts()))
    const added = { cases: [...questions(10, ['q05']).cases, { id: 'new', relevant: ['d'], retrieved: ['d'] }] }
    expect(withRunner(local, () => failureOf(() => expect(added).toMatchMetricBaseline('qa', opts())))).toContain('  q05  recall@3  1.0000 → 0.0000  (-1.0000)')
    const three = (lost: string[]) => ({ cases: ['a', 'b', 'c'].map((id) => ({ id, relevant: ['d'], retrieved: lost.includes(id) ? ['x'] : ['d'] })) })
    withRunner(local, () => expect(three([])).toMatchMetricBaseline('small', { ...opts(), test: 'permutation' }))
    const weak = withRunner(local, () => failureOf(() => expect(three(['b'])).toMatchMetricBaseline('small', { ...opts(), test: 'permutation' })))
    expect(weak).toContain('cannot fail on 3 cases')
    expect(weak).toContain('  b  recall@3  1.0000 → 0.0000  (-1.0000)')
  })

  it('keeps meta.extra within the record bound with many regressed cases, saying how many were left out', () => {
    const long = (lost: boolean) => ({
      cases: Array.from({ length: 60 }, (_, i) => ({
        id: `a-rather-long-case-identifier-number-${String(i).padStart(3, '0')}`,
        relevant: ['d'],
        retrieved: lost ? ['x'] : ['d'],
      })),
    })
    const metrics = ['recall@1', 'mrr', 'ndcg@1', 'precision@1', 'hit@1', 'map@1']
    withRunner(local, () => expect(long(false)).toMatchMetricBaseline('qa', opts({ metrics })))
    const result = withRunner(local, () => call(long(true), opts({ metrics })))
    const extra = result.meta!.extra as { regressedCases: unknown[]; regressedCasesOmitted: number; metrics: Array<{ regressedCases: number }> }
    expect(JSON.stringify(extra).length).toBeLessThanOrEqual(3_900)
    expect(extra.regressedCases.length).toBeGreaterThan(0)
    expect(extra.regressedCases.length + extra.regressedCasesOmitted).toBe(360)
    expect(extra.metrics.map((m) => m.regressedCases)).toEqual([60, 60, 60, 60, 60, 60])
  })

  it('checks maxRegressedCases (type, unknown keys), with and without .not', () => {
    const run = questions(10)
    for (const bad of [-1, 1.5, '0', null, Number.NaN]) {
      expect(() => expect(run).toMatchMetricBaseline('qa', opts({ maxRegressedCases: bad as never }))).toThrow('options.maxRegressedCases must be an integer ≥ 0')
      expect(() => expect(run).not.toMatchMetricBaseline('qa', opts({ maxRegressedCases: bad as never }))).toThrow('options.maxRegressedCases must be an integer ≥ 0')
    }
    expect(() => expect(run).toMatchMetricBaseline('qa', { ...opts(), maxRegressedCase: 0 } as never)).toThrow(/Matcher error: .*maxRegressedCase.*maxRegressedCases/)
    expect(() => expect(run).not.toMatchMetricBaseline('qa', { ...opts(), maxRegressedCase: 0 } as never)).toThrow(/Matcher error: .*maxRegressedCase/)
    // the matcher's own check, when called without the declaration
    expect(() => call(run, opts({ maxRegressedCases: -1 }))).toThrow('options.maxRegressedCases must be an integer ≥ 0')
  })
})

describe(`${ENV}: the only switch that rewrites a baseline (issue #26)`, () => {
  it('-u alone never rewrites an existing baseline: the regression fails and says how to update on purpose', () => {
    withRunner(local, () => expect(questions(10)).toMatchMetricBaseline('qa', opts({ test: 'none' })))
    const before = readFileSync(join(dir, 'baseline-cases.test.ts.json'), 'utf8')
    const message = withRunner({ update: 'all' }, () => failureOf(() => expect(questions(10, ['q05'])).toMatchMetricBaseline('qa', opts({ test: 'none' }))))
    expect(message).toContain('Baseline "qa": 1 of 1 metrics regressed: mean recall@3 (recall@3) 1.0000 → 0.9000 (-0.1000)')
    expect(message).toMatch(
      /If the change is intended, update the baseline on purpose and commit the file:\n {2}RAG_MATCHERS_UPDATE_BASELINES=1 npx vitest run \S*baseline-cases\.test\.ts\n {2}RAG_MATCHERS_UPDATE_BASELINES=1 npx jest \S*baseline-cases\.test\.ts\n\(-u updates snapshots only; it never rewrites a metric baseline\.\)/,
    )
    expect(readFileSync(join(dir, 'baseline-cases.test.ts.json'), 'utf8')).toBe(before)
    // -u still writes a baseline that is missing (outside CI)
    withRunner({ update: 'all' }, () => expect(questions(10)).toMatchMetricBaseline('fresh', opts()))
    expect(Object.keys(readBaselineFile(join(dir, 'baseline-cases.test.ts.json'))!.entries).sort()).toEqual(['fresh', 'qa'])
  })

  it('rewrites with 1 or true (with or without -u), reporting an update', () => {
    for (const value of ['1', 'true']) {
      const writes: string[] = []
      withRunner(local, () => expect(questions(10)).toMatchMetricBaseline(`qa-${value}`, opts()))
      withRunner({ update: 'new', baselines: value }, () =>
        expect(questions(10, ['q05'])).toMatchMetricBaseline(`qa-${value}`, opts({ onWrite: (w) => writes.push(w.reason) })),
      )
      expect(writes).toEqual(['update'])
      expect(readBaselineFile(join(dir, 'baseline-cases.test.ts.json'))!.entries[`qa-${value}`]!.metrics['recall@3']!.values.q05).toBe(0)
      // now the run holds without the switch
      withRunner(local, () => expect(questions(10, ['q05'])).toMatchMetricBaseline(`qa-${value}`, opts({ maxRegressedCases: 0 })))
    }
    // an empty value is "off": a further loss fails, and the baseline keeps q06
    const message = withRunner({ update: 'new', baselines: '' }, () =>
      failureOf(() => expect(questions(10, ['q05', 'q06'])).toMatchMetricBaseline('qa-1', opts({ test: 'none' }))),
    )
    expect(message).toContain('  q06  recall@3  1.0000 → 0.0000  (-1.0000)')
    expect(readBaselineFile(join(dir, 'baseline-cases.test.ts.json'))!.entries['qa-1']!.metrics['recall@3']!.values.q06).toBe(1)
  })

  it('refuses to rewrite in CI unless the value is force', () => {
    withRunner(local, () => expect(questions(10)).toMatchMetricBaseline('qa', opts()))
    const file = join(dir, 'baseline-cases.test.ts.json')
    const before = readFileSync(file, 'utf8')
    const message = withRunner({ ci: 'true', update: 'none', baselines: '1' }, () => failureOf(() => expect(questions(10, ['q05'])).toMatchMetricBaseline('qa', opts())))
    expect(message).toContain(`Baseline "qa" was not rewritten: ${ENV} is set, and CI is set.`)
    expect(message).toContain(`set ${ENV}=force`)
    expect(readFileSync(file, 'utf8')).toBe(before)
    withRunner({ ci: 'true', update: 'none', baselines: 'force' }, () => expect(questions(10, ['q05'])).toMatchMetricBaseline('qa', opts()))
    expect(readBaselineFile(file)!.entries.qa!.metrics['recall@3']!.values.q05).toBe(0)
  })

  it('rejects any other value as a Matcher error naming the variable and the accepted values', () => {
    for (const value of ['yes', '0', 'false', 'TRUE']) {
      const expected = `the environment variable ${ENV} must be unset or empty (compare), 1 or true (rewrite the baselines; refused in CI) or force (rewrite, also in CI); got ${JSON.stringify(value)}`
      withRunner({ update: 'new', baselines: value }, () => {
        expect(() => expect(questions(10)).toMatchMetricBaseline('qa', opts())).toThrow(expected)
        expect(() => expect(questions(10)).toMatchMetricBaseline('qa', opts())).toThrow('Matcher error')
      })
    }
  })
})
