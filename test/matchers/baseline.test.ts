// Runs under Vitest AND Jest (globals only). Every baseline goes to a temp folder (`dir` option);
// the file NAME still comes from the runner's testPath, which the first test checks.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toMatchMetricBaseline, type BaselineWriteInfo, type MetricBaselineOptions } from '../../matchers/baseline.js'
import { readBaselineFile, writeBaselineEntry } from '../../src/eval-set/baseline-file.js'
import { identitySignature } from '../../src/eval-set/metric-revisions.js'
import { metricRunOf } from '../../src/eval-set/metrics.js'
import { LOCAL, runnerState, withRunner } from '../helpers/baseline-runner.js'
import { failureOf, stripAnsi } from '../helpers/failure.js'

const local = LOCAL

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
    // the identity: settings and the metric's revision, no package version; and the measure's name
    expect(stored.metrics['recall@1']).toEqual({
      measure: 'mean recall@1',
      signature: 'R|k:1|empty:zero|dup:first|order:given|rev:1',
      values: expected.metrics['recall@1']!.values,
    })
    expect(stored.metrics.mrr!.signature).toBe(identitySignature(expected.metrics.mrr!.signature))
    expect(stored.metrics.mrr!.signature).not.toContain('version')
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
    expect(message).toContain(
      'Baseline "qa": 2 of 2 metrics regressed: MRR (mrr) 1.0000 → 0.7500 (-0.2500, p = 1.0e-4); mean recall@1 (recall@1) 1.0000 → 0.5000 (-0.5000, p = 1.0e-4)',
    )
    expect(message).toMatch(/\n {2}measure\s+baseline\s+current\s+delta\s+95% CI\s+p\s+tolerance\s+status\n/)
    expect(message).toMatch(/mean recall@1 \(recall@1\)\s+1\.0000\s+0\.5000\s+-0\.5000\s+\[-0\.\d{4}, -0\.\d{4}\]\s+1\.0e-4\s+0\.0200\s+regressed\n/)
    expect(message).toContain('cases that regressed in mean recall@1 (recall@1) (10 of 20 dropped by more than the tolerance 0.0200), worst first:')
    expect(message).toContain("cases: 0 added, 0 removed, 20 compared (cases: 'equal')")
    expect(message).toMatch(/ {2}q00\s+recall@1\s+1\.0000 → 0\.0000\s+\(-1\.0000\)/)
    expect(message).toContain('  q08  recall@1  1.0000 → 0.0000  (-1.0000)\n  … and 5 more')
    expect(message).toContain('  q08  mrr  1.0000 → 0.5000  (-0.5000)\n  … and 5 more')
    expect(message).toContain('paired bootstrap, 10000 resamples, seed 42')
    expect(message).toContain('If the change is intended, update the baseline on purpose and commit the file:\n  RAG_MATCHERS_UPDATE_BASELINES=1 npx vitest run ')
    expect(message).toContain(`baseline file: ${baselineFile()}`)
    // the permutation test agrees
    expect(withRunner(local, () => failureOf(() => expect(worse).toMatchMetricBaseline('qa', opts({ test: 'permutation' }))))).toContain('sign-flip permutation test')
  })

  it('fails when cases were added or removed, listing them (bounded), with the counts and how to update', () => {
    withRunner(local, () => expect(evalRun([], [{ id: 'retired' }])).toMatchMetricBaseline('qa', opts()))
    const message = withRunner(local, () => failureOf(() => expect(evalRun([], [{ id: 'new-1' }, { id: 'new-2' }])).toMatchMetricBaseline('qa', opts())))
    expect(message).toContain('Baseline "qa": the run\'s cases are not the baseline\'s (2 added, 1 removed, 20 compared), so its mean is not comparable.')
    expect(message).toContain('cases in the baseline but not in this run (1): retired')
    expect(message).toContain('cases in this run but not in the baseline (2): new-1, new-2')
    expect(message).toContain('If the eval set changed on purpose, update the baseline on purpose and commit the file:\n  RAG_MATCHERS_UPDATE_BASELINES=1 npx vitest run ')
    expect(message).toContain("To compare only the cases in both, pass { cases: 'shared' }.")
    // bounded: 30 new ids list 10 and a count
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `extra-${String(i).padStart(2, '0')}` }))
    const long = withRunner(local, () => failureOf(() => expect(evalRun([], [{ id: 'retired' }, ...many])).toMatchMetricBaseline('qa', opts())))
    expect(long).toContain('cases in this run but not in the baseline (30): extra-00, extra-01,')
    expect(long).toContain('… and 20 more')
    // cases: 'shared' compares the shared ones, and says how many were left out
    const shared = toMatchMetricBaseline.call(
      { ...runnerState(), isNot: false, utils: { matcherHint: (m: string) => m, printReceived: String, printExpected: String } } as never,
      evalRun([], [{ id: 'new-1' }]),
      'qa',
      opts({ cases: 'shared' }),
    )
    expect(shared.pass).toBe(true)
    expect(stripAnsi(shared.message())).toContain("cases: 1 added, 1 removed, 20 compared (cases: 'shared')")
  })

  it('fails a run with no case in common with the baseline, also with cases: shared (issue #14)', () => {
    // recall 1 on q1…q10, then r1…r10 all at 0: this passed before (no-common-cases with regressed: false)
    const ten = (prefix: string, hit: boolean) => ({
      cases: Array.from({ length: 10 }, (_, i) => ({ id: `${prefix}${i + 1}`, relevant: ['d'], retrieved: hit ? ['d'] : ['x'] })),
    })
    withRunner(local, () => expect(ten('q', true)).toMatchMetricBaseline('qa', opts({ metrics: ['recall@3'] })))
    const equal = withRunner(local, () => failureOf(() => expect(ten('r', false)).toMatchMetricBaseline('qa', opts({ metrics: ['recall@3'] }))))
    expect(equal).toContain('(10 added, 10 removed, 0 compared)')
    const shared = withRunner(local, () => failureOf(() => expect(ten('r', false)).toMatchMetricBaseline('qa', opts({ metrics: ['recall@3'], cases: 'shared' }))))
    expect(shared).toContain('Baseline "qa": no case of the run is in the baseline (10 added, 10 removed, 0 compared).')
  })

  it('fails when new cases pull the mean down although the shared case held (issue #14)', () => {
    // one shared case plus nine new cases at recall 0: the run's mean fell from 1.0 to 0.1
    withRunner(local, () => expect({ cases: [{ id: 'q1', relevant: ['d'], retrieved: ['d'] }] }).toMatchMetricBaseline('qa', opts({ metrics: ['recall@3'] })))
    const run = { cases: [{ id: 'q1', relevant: ['d'], retrieved: ['d'] }, ...Array.from({ length: 9 }, (_, i) => ({ id: `n${i}`, relevant: ['d'], retrieved: ['x'] }))] }
    const message = withRunner(local, () => failureOf(() => expect(run).toMatchMetricBaseline('qa', opts({ metrics: ['recall@3'] }))))
    expect(message).toContain('(9 added, 0 removed, 1 compared)')
    expect(message).toContain('cases in this run but not in the baseline (9): n0, n1, n2')
  })

  it('refuses to compare when a signature changed, naming the metric, the setting, both values and -u', () => {
    const stored = metricRunOf(evalRun().cases, ['recall@1'])
    const old = stored.metrics['recall@1']!
    writeBaselineEntry(baselineFile(), 'qa', {
      metrics: { 'recall@1': { signature: old.signature.replace('dup:first', 'dup:literal').replace(/version:[^|]+$/, 'version:0.0.9'), values: old.values } },
    })
    const message = withRunner(local, () => failureOf(() => expect(evalRun()).toMatchMetricBaseline('qa', opts({ metrics: ['recall@1'] }))))
    expect(message).toContain('Baseline "qa" cannot be compared: mean recall@1 (recall@1) (dup:literal → dup:first) was computed with different settings than the baseline.')
    expect(message).toMatch(/mean recall@1 \(recall@1\)\s+n\/a\s+n\/a\s+n\/a\s+n\/a\s+—\s+0\.0200\s+not comparable: dup:literal → dup:first/)
    expect(message).not.toMatch(/regressed|improved/)
    expect(message).toContain('    dup: literal in the baseline, first now')
    // the package version is not part of the identity
    expect(message).not.toContain('version: 0.0.9 in the baseline')
    expect(message).toContain('    baseline signature: R|k:1|empty:zero|dup:literal|order:given|version:0.0.9')
    expect(message).toContain('    current signature:  R|k:1|empty:zero|dup:first|order:given|rev:1')
    expect(message).toContain('RAG_MATCHERS_UPDATE_BASELINES=1 npx jest ')
    // -u does not accept it
    expect(withRunner({ update: 'all' }, () => failureOf(() => expect(evalRun()).toMatchMetricBaseline('qa', opts({ metrics: ['recall@1'] }))))).toContain(
      'cannot be compared',
    )
  })

  it('compares a baseline written by another package version without -u, even in CI (issue #14)', () => {
    // "version: 0.0.9 in the baseline, 0.1.0 now" failed every gate on every upgrade
    const old = metricRunOf(evalRun().cases, ['recall@1'])
    writeBaselineEntry(baselineFile(), 'qa', {
      metrics: { 'recall@1': { signature: old.metrics['recall@1']!.signature.replace(/version:[^|]+$/, 'version:0.0.9'), values: old.metrics['recall@1']!.values } },
    })
    const before = readFileSync(baselineFile(), 'utf8')
    withRunner({ ci: 'true', update: 'none' }, () => expect(evalRun()).toMatchMetricBaseline('qa', opts({ metrics: ['recall@1'] })))
    expect(readFileSync(baselineFile(), 'utf8')).toBe(before)
    expect(writes).toEqual([])
  })

  it('reads a 0.1.0 baseline file and compares a run against it without -u, and still catches a regression', () => {
    const fixture = readFileSync(join(__dirname, '..', 'fixtures', 'baselines', 'v0.1.0', 'baseline.test.ts.json'), 'utf8')
    writeFileSync(baselineFile(), fixture)
    const same = withRunner({ ci: 'true', update: 'none' }, () => {
      expect(evalRun([3, 11])).toMatchMetricBaseline('qa', opts({ metrics: ['recall@1', 'mrr', 'bleu'] }))
      return readFileSync(baselineFile(), 'utf8')
    })
    expect(same).toBe(fixture)
    const worse = withRunner({ ci: 'true', update: 'none' }, () =>
      failureOf(() => expect(evalRun([0, 2, 3, 4, 6, 8, 10, 11, 12, 14, 16, 18])).toMatchMetricBaseline('qa', opts({ metrics: ['recall@1', 'mrr', 'bleu'] }))),
    )
    expect(worse).toContain('Baseline "qa": 2 of 3 metrics regressed: MRR (mrr) 0.9500 → 0.7000')
    // RAG_MATCHERS_UPDATE_BASELINES rewrites it in the current format
    withRunner({ update: 'new', baselines: '1' }, () => expect(evalRun([3, 11])).toMatchMetricBaseline('qa', opts({ metrics: ['recall@1', 'mrr', 'bleu'] })))
    const rewritten = readBaselineFile(baselineFile())!
    expect(rewritten.version).toBe(2)
    expect(rewritten.entries.qa!.metrics.bleu).toMatchObject({ measure: 'mean sentence BLEU', signature: 'BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|rev:1' })
  })

  it('names a changed implementation revision with its changelog line', () => {
    const old = metricRunOf(evalRun().cases, ['mrr'])
    writeBaselineEntry(baselineFile(), 'qa', { metrics: { mrr: { signature: 'RR|dup:first|rev:0', values: old.metrics.mrr!.values } } })
    const message = withRunner(local, () => failureOf(() => expect(evalRun()).toMatchMetricBaseline('qa', opts({ metrics: ['mrr'] }))))
    expect(message).toContain("MRR (mrr): the metric's implementation changed")
    expect(message).toContain('    RR: revision 0 in the baseline, 1 now (revision 1 since 0.1.0: first release; see "Metric revisions" in CHANGELOG.md)')
  })

  it('fails a permutation test that cannot reach alpha on 3 cases, unless a tolerance-only gate is chosen (issue #14)', () => {
    const three = (hit: boolean) => ({ cases: ['a', 'b', 'c'].map((id) => ({ id, relevant: ['d'], retrieved: hit ? ['d'] : ['x'] })) })
    const o = opts({ metrics: ['recall@3'], test: 'permutation' })
    withRunner(local, () => expect(three(true)).toMatchMetricBaseline('qa', o))
    const message = withRunner(local, () => failureOf(() => expect(three(false)).toMatchMetricBaseline('qa', o)))
    expect(message).toContain('Baseline "qa": the sign-flip permutation test cannot fail on 3 cases: its smallest attainable p is 0.1250, not below alpha 0.05.')
    expect(message).toContain('add cases: the sign-flip permutation test can reach p < 0.05 from 5 cases')
    expect(message).toContain("test: 'none'")
    // even an unchanged run fails: a gate that cannot fail is not a gate
    expect(withRunner(local, () => failureOf(() => expect(three(true)).toMatchMetricBaseline('qa', o)))).toContain('cannot fail on 3 cases')
    // the explicit tolerance-only gate
    const gate = opts({ metrics: ['recall@3'], test: 'none' })
    withRunner(local, () => expect(three(true)).toMatchMetricBaseline('qa', gate))
    const regressed = withRunner(local, () => failureOf(() => expect(three(false)).toMatchMetricBaseline('qa', gate)))
    expect(regressed).toContain('Baseline "qa": 1 of 1 metrics regressed: mean recall@3 (recall@3) 1.0000 → 0.0000 (-1.0000)')
    expect(regressed).toContain('tolerance-only gate (no significance test)')
  })

  it('shows a drop beyond the tolerance that is not significant as "dropped (not significant)", failing only with failOnDrop (issue #14)', () => {
    // five queries; one falls from rank 1 to rank 3 (nDCG@3 1 → 0.5) and one to rank 2 (→ 0.6309): mean −0.1738, 8.7× the tolerance
    const run = (worse: boolean) => ({
      cases: ['q1', 'q2', 'q3', 'q4', 'q5'].map((id, i) => ({
        id,
        relevant: ['d'],
        retrieved: worse && i === 0 ? ['x', 'y', 'd'] : worse && i === 1 ? ['x', 'd'] : ['d', 'x'],
      })),
    })
    withRunner(local, () => expect(run(false)).toMatchMetricBaseline('qa', opts({ metrics: ['ndcg@3'] })))
    const ctx = { ...runnerState(), isNot: false, utils: { matcherHint: (m: string) => m, printReceived: String, printExpected: String } } as never
    const result = withRunner(local, () => toMatchMetricBaseline.call(ctx, run(true), 'qa', opts({ metrics: ['ndcg@3'] })))
    expect(result.pass).toBe(true)
    const text = stripAnsi(result.message())
    expect(text).toMatch(/Baseline "qa" holds, but mean nDCG@3 \(ndcg@3\) 1\.0000 → 0\.8262 \(-0\.1738, p = 0\.\d{4}\) dropped beyond the tolerance without being significant/)
    expect(text).toMatch(/mean nDCG@3 \(ndcg@3\)\s+1\.0000\s+0\.8262\s+-0\.1738\s+\[.*\]\s+0\.\d{4}\s+0\.0200\s+dropped \(not significant\)\n/)
    const strict = withRunner(local, () => failureOf(() => expect(run(true)).toMatchMetricBaseline('qa', opts({ metrics: ['ndcg@3'], failOnDrop: true }))))
    expect(strict).toContain('1 of 1 metrics failed: mean nDCG@3 (ndcg@3) 1.0000 → 0.8262')
    expect(strict).toContain('dropped (not significant)')
  })

  it('fails instead of writing in CI, and under --ci', () => {
    const message = withRunner({ ci: 'true', update: 'new' }, () => failureOf(() => expect(evalRun()).toMatchMetricBaseline('qa', opts())))
    expect(message).toContain('No baseline "qa", and baselines are not written here because CI is set.')
    expect(message).toContain('Run the tests locally to write it, then commit')
    expect(message).toContain('(RAG_MATCHERS_UPDATE_BASELINES=1 writes it under --ci too; in CI it takes RAG_MATCHERS_UPDATE_BASELINES=force.)')
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

  it('rewrites the baseline under RAG_MATCHERS_UPDATE_BASELINES (not -u; in CI only with force), keeping other entries', () => {
    withRunner(local, () => {
      expect(evalRun()).toMatchMetricBaseline('qa', opts())
      expect(evalRun()).toMatchMetricBaseline('other', opts({ metrics: ['bleu'] }))
    })
    const worse = evalRun([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    withRunner(local, () => failureOf(() => expect(worse).toMatchMetricBaseline('qa', opts())))
    writes = []
    // -u (also in CI) does not accept the regression
    withRunner({ ci: 'true', update: 'all' }, () => failureOf(() => expect(worse).toMatchMetricBaseline('qa', opts())))
    withRunner({ update: 'all' }, () => failureOf(() => expect(worse).toMatchMetricBaseline('qa', opts())))
    // the switch is refused in CI
    withRunner({ ci: 'true', update: 'all', baselines: 'true' }, () => failureOf(() => expect(worse).toMatchMetricBaseline('qa', opts())))
    expect(writes).toEqual([])
    withRunner({ ci: 'true', update: 'all', baselines: 'force' }, () => expect(worse).toMatchMetricBaseline('qa', opts()))
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
    // the mean of sentence BLEU, named so: not the corpus BLEU of toScoreBleuAbove
    expect(message).toMatch(/mean sentence BLEU \(bleu\)\s+\d+\.\d{2}\s+\d+\.\d{2}\s+-\d+\.\d{2}\s+\[.*\]\s+1\.0e-4\s+2\.00\s+regressed/)
    expect(readBaselineFile(baselineFile())!.entries.gen!.metrics.bleu!.measure).toBe('mean sentence BLEU')
  })

  it("keeps its report record within the reporters' bound when many metrics regress with long case ids", () => {
    const metrics = ['recall@1', 'mrr', 'ndcg@1', 'precision@1', 'hit@1', 'map@1', 'ndcg@2', 'recall@2', 'map@2', 'precision@2']
    const long = (misses: number[]) => ({
      cases: Array.from({ length: 20 }, (_, i) => ({
        id: `a-rather-long-case-identifier-number-${String(i).padStart(3, '0')}`,
        relevant: [`d${i}`],
        retrieved: misses.includes(i) ? ['x', 'y', `d${i}`] : [`d${i}`],
      })),
    })
    withRunner(local, () => expect(long([])).toMatchMetricBaseline('qa', opts({ metrics })))
    const ctx = { ...runnerState(), isNot: false, utils: { matcherHint: (m: string) => m, printReceived: String, printExpected: String } } as never
    const result = withRunner(local, () => toMatchMetricBaseline.call(ctx, long([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), 'qa', opts({ metrics })))
    expect(result.pass).toBe(false)
    const extra = result.meta!.extra as { metrics: Array<{ status: string }> }
    expect(JSON.stringify(extra).length).toBeLessThanOrEqual(4000)
    expect(extra.metrics.map((m) => m.status)).toEqual(Array.from({ length: metrics.length }, () => 'regressed'))
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
      'Matcher error: options.metrics[0] is not a known metric; known: recall@k, precision@k, ndcg@k, mrr, hit@k, map@k, sentenceBleu, sentenceChrf, bleu, chrf, rouge1, rouge2, rougeL, rougeLsum, meteor, ter (k a positive integer)',
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

describe('.toMatchMetricBaseline with a lower-is-better metric (TER)', () => {
  const reference = 'The base Transformer uses h = 8 parallel attention heads.'
  const terRun = (answer: (i: number) => string) => ({
    cases: Array.from({ length: 20 }, (_, i) => ({ id: `t${String(i).padStart(2, '0')}`, answer: answer(i), reference })),
    startedAt: '',
    durationMs: 0,
    errors: 0,
  })
  const good = () => reference
  const worse = (i: number) => (i % 2 === 0 ? 'Transformers have many heads in the model.' : 'The base model uses eight heads.')
  const terOpts = (): MetricBaselineOptions => ({ metrics: ['ter'], dir, onWrite: (w) => writes.push(w) })

  it('fails when TER rises (more edits) and passes when it falls', () => {
    withRunner(local, () => expect(terRun(worse)).toMatchMetricBaseline('ter', terOpts()))
    // lower TER is an improvement: passes
    withRunner({ ci: 'true', update: 'none' }, () => expect(terRun(good)).toMatchMetricBaseline('ter', terOpts()))
    // rewrite the baseline at the good answers, then the worse answers regress
    withRunner({ update: 'new', baselines: '1' }, () => expect(terRun(good)).toMatchMetricBaseline('ter', terOpts()))
    const message = stripAnsi(failureOf(() => withRunner({ ci: 'true', update: 'none' }, () => expect(terRun(worse)).toMatchMetricBaseline('ter', terOpts()))))
    expect(message).toContain('regressed')
    expect(message).toContain('lower is better')
    expect(message).toContain('mean sentence TER')
  })
})
