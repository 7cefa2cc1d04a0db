/**
 * Regression gate: compares per-case metric values of a current run with a baseline run, metric by
 * metric, with a paired significance test so that noise does not fail a build and a real drop does.
 */
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { signatureDifferences } from '../signature.js'
import { metricScale } from './metrics.js'
import type { MetricRun } from './metric-run.js'
import { pairedBootstrap, signFlipTest, type PairedTestResult } from './statistics.js'

export type { MetricRun, MetricValues } from './metric-run.js'

export type SignificanceTest = 'bootstrap' | 'permutation'

export interface CompareRunsOptions {
  /**
   * Smallest drop that can count as a regression, as a FRACTION OF THE METRIC'S FULL SCALE: 0.02 is
   * 0.02 of recall and 2 points of BLEU/chrF (0–100). A number, or a number per metric name.
   * @default 0.02
   */
  readonly tolerance?: number | Readonly<Record<string, number>>
  /** Significance level of the one-sided test. @default 0.05 */
  readonly alpha?: number
  /** Resamples of the bootstrap (and of the Monte-Carlo sign-flip test). @default 10_000 */
  readonly resamples?: number
  /** Seed of the mulberry32 generator. @default 42 */
  readonly seed?: number
  /** `'bootstrap'`: paired bootstrap; `'permutation'`: sign-flip randomization test. @default 'bootstrap' */
  readonly test?: SignificanceTest
  /** Two-sided level of the reported interval of the delta. @default 0.95 */
  readonly confidence?: number
  /** Full scale per metric name; defaults to the registry's (100 for `bleu`/`chrf`, else 1). */
  readonly scales?: Readonly<Record<string, number>>
}

/** The keys of {@link CompareRunsOptions}. */
export const COMPARE_RUNS_OPTION_KEYS = keysOf<CompareRunsOptions>()('tolerance', 'alpha', 'resamples', 'seed', 'test', 'confidence', 'scales')

export interface CaseDelta {
  readonly id: string
  readonly baseline: number
  readonly current: number
  readonly delta: number
}

/**
 * - `ok`: compared, no significant drop beyond the tolerance;
 * - `regressed`: `delta < −tolerance` and `p < alpha`;
 * - `incomparable`: the signatures differ (see `signatureDifferences`), nothing was compared;
 * - `no-common-cases`: no case id is in both runs;
 * - `only-in-baseline` / `only-in-current`: the metric is tracked by one run only.
 */
export type ComparisonStatus = 'ok' | 'regressed' | 'incomparable' | 'no-common-cases' | 'only-in-baseline' | 'only-in-current'

export interface MetricComparison {
  readonly metric: string
  readonly status: ComparisonStatus
  readonly regressed: boolean
  /** Mean over the cases present in both runs (NaN when there are none, or the metric is in one run only). */
  readonly baselineMean: number
  readonly currentMean: number
  /** `currentMean − baselineMean`, the mean of the per-case deltas. */
  readonly delta: number
  /** Percentile bootstrap interval of `delta` at `confidence` ([NaN, NaN] when not compared). */
  readonly ci: readonly [number, number]
  /** One-sided p-value of a drop (NaN when not compared). */
  readonly pValue: number
  /** The tolerance in the metric's own units (fraction × scale). */
  readonly tolerance: number
  /** Cases compared. */
  readonly n: number
  /** Per-case deltas, largest drop first (ties by id). */
  readonly perCase: readonly CaseDelta[]
  readonly onlyInBaseline: readonly string[]
  readonly onlyInCurrent: readonly string[]
  readonly baselineSignature?: string
  readonly currentSignature?: string
  /** For `incomparable`: each differing signature key with its baseline (`a`) and current (`b`) value. */
  readonly signatureDifferences?: ReadonlyArray<{ key: string; a: string | undefined; b: string | undefined }>
  readonly test?: PairedTestResult['method']
}

export interface RunComparison {
  /** One entry per metric of either run, in name order. */
  readonly metrics: readonly MetricComparison[]
  readonly regressed: readonly string[]
  readonly incomparable: readonly string[]
  /** Case ids in any metric of the baseline but in no metric of the current run, and the reverse. */
  readonly onlyInBaseline: readonly string[]
  readonly onlyInCurrent: readonly string[]
  readonly options: {
    readonly alpha: number
    readonly resamples: number
    readonly seed: number
    readonly test: SignificanceTest
    readonly confidence: number
  }
}

const FN = 'compareRuns'

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

function checkRun(which: string, run: unknown): MetricRun {
  if (run === null || typeof run !== 'object' || (run as { metrics?: unknown }).metrics === null || typeof (run as { metrics?: unknown }).metrics !== 'object') {
    throw new MetricInputError(FN, which, 'an object `{ metrics: { [metric]: { signature, values: { [caseId]: number } } } }`', run)
  }
  for (const [metric, mv] of Object.entries((run as MetricRun).metrics)) {
    if (mv === null || typeof mv !== 'object' || typeof mv.signature !== 'string' || mv.values === null || typeof mv.values !== 'object') {
      throw new MetricInputError(FN, `${which}.metrics[${JSON.stringify(metric)}]`, 'an object `{ signature: string, values: { [caseId]: number } }`', mv)
    }
    for (const [id, v] of Object.entries(mv.values)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) {
        throw new MetricInputError(FN, `${which}.metrics[${JSON.stringify(metric)}].values[${JSON.stringify(id)}]`, 'a finite number', v)
      }
    }
  }
  return run as MetricRun
}

function ownKeys(record: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(record).sort(byCodeUnit)
}

function toleranceFor(tolerance: CompareRunsOptions['tolerance'], metric: string): number {
  const t = typeof tolerance === 'number' ? tolerance : (tolerance?.[metric] ?? 0.02)
  if (typeof t !== 'number' || !Number.isFinite(t) || t < 0) {
    throw new MetricInputError(FN, typeof tolerance === 'number' ? 'options.tolerance' : `options.tolerance[${JSON.stringify(metric)}]`, 'a finite number ≥ 0', t)
  }
  return t
}

const NOT_COMPARED = { baselineMean: Number.NaN, currentMean: Number.NaN, delta: Number.NaN, ci: [Number.NaN, Number.NaN] as const, pValue: Number.NaN, n: 0, perCase: [] }

/**
 * Compares a current run with a baseline, metric by metric, on the cases present in both.
 *
 * For each metric tracked by both runs:
 * 1. signatures must be equal, else the metric is `incomparable` and lists the differing keys
 *    (`signatureDifferences`: key, baseline value, current value) — values computed under other
 *    settings or another library version are not compared;
 * 2. on the common case ids (code-unit order), `d_i = current_i − baseline_i`,
 *    `delta = mean(d) = currentMean − baselineMean` (both means over the common cases);
 * 3. a one-sided paired test of a drop: `test: 'bootstrap'` (default) is {@link pairedBootstrap},
 *    `p = (1 + #{b : m*_b − d̄ ≤ d̄}) / (B + 1)`; `test: 'permutation'` is the sign-flip test
 *    {@link signFlipTest} (exact over all 2^n sign vectors when 2^n ≤ B). Both use mulberry32(seed),
 *    so a given seed always gives the same p-value and interval.
 * 4. `regressed` when `delta < −tolerance·scale` AND `p < alpha`: a drop must be both larger than
 *    the tolerance and unlikely to be noise. Improvements never regress.
 *
 * Defaults: tolerance 0.02 of full scale, alpha 0.05, 10 000 resamples, seed 42, bootstrap, 95 % interval.
 * Cases in only one run are listed (per metric and overall) and left out of the test. There is no
 * reference implementation to match; the statistics are specified above and tested on hand-computed inputs.
 *
 * @example
 * const base = { metrics: { 'recall@3': { signature: 'R|k:3', values: { a: 1, b: 1, c: 1, d: 1 } } } }
 * const cur = { metrics: { 'recall@3': { signature: 'R|k:3', values: { a: 0.5, b: 0.5, c: 0.5, d: 0.5 } } } }
 * compareRuns(base, cur).regressed // ['recall@3'] (delta −0.5, p = 1/10001)
 */
export function compareRuns(baseline: MetricRun, current: MetricRun, options: CompareRunsOptions = {}): RunComparison {
  checkRun('baseline', baseline)
  checkRun('current', current)
  if (options === null || typeof options !== 'object') throw new MetricInputError(FN, 'options', 'an object', options)
  checkOptionKeys(FN, options, COMPARE_RUNS_OPTION_KEYS)
  const { alpha = 0.05, resamples = 10_000, seed = 42, test = 'bootstrap', confidence = 0.95 } = options
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) throw new MetricInputError(FN, 'options.alpha', 'a number strictly between 0 and 1', alpha)
  if (!Number.isInteger(resamples) || resamples < 1) throw new MetricInputError(FN, 'options.resamples', 'a positive integer', resamples)
  if (!Number.isInteger(seed)) throw new MetricInputError(FN, 'options.seed', 'an integer', seed)
  if (test !== 'bootstrap' && test !== 'permutation') throw new MetricInputError(FN, 'options.test', "'bootstrap' or 'permutation'", test)
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new MetricInputError(FN, 'options.confidence', 'a number strictly between 0 and 1', confidence)
  }
  if (typeof options.tolerance !== 'number' && options.tolerance !== undefined && (options.tolerance === null || typeof options.tolerance !== 'object')) {
    throw new MetricInputError(FN, 'options.tolerance', 'a number ≥ 0 or a record of metric → number', options.tolerance)
  }

  const names = [...new Set([...Object.keys(baseline.metrics), ...Object.keys(current.metrics)])].sort(byCodeUnit)
  const metrics: MetricComparison[] = []
  for (const metric of names) {
    const scale = options.scales?.[metric] ?? metricScale(metric)
    const tolerance = toleranceFor(options.tolerance, metric) * scale
    const b = Object.prototype.hasOwnProperty.call(baseline.metrics, metric) ? baseline.metrics[metric] : undefined
    const c = Object.prototype.hasOwnProperty.call(current.metrics, metric) ? current.metrics[metric] : undefined
    if (b === undefined || c === undefined) {
      const only = b === undefined ? 'only-in-current' : 'only-in-baseline'
      metrics.push({
        metric,
        status: only,
        regressed: false,
        ...NOT_COMPARED,
        tolerance,
        onlyInBaseline: b ? ownKeys(b.values) : [],
        onlyInCurrent: c ? ownKeys(c.values) : [],
        ...(b ? { baselineSignature: b.signature } : {}),
        ...(c ? { currentSignature: c.signature } : {}),
      })
      continue
    }
    const baseIds = ownKeys(b.values)
    const curIds = ownKeys(c.values)
    const curSet = new Set(curIds)
    const baseSet = new Set(baseIds)
    const common = baseIds.filter((id) => curSet.has(id))
    const onlyInBaseline = baseIds.filter((id) => !curSet.has(id))
    const onlyInCurrent = curIds.filter((id) => !baseSet.has(id))
    const signatures = { baselineSignature: b.signature, currentSignature: c.signature }
    if (b.signature !== c.signature) {
      metrics.push({
        metric,
        status: 'incomparable',
        regressed: false,
        ...NOT_COMPARED,
        tolerance,
        onlyInBaseline,
        onlyInCurrent,
        ...signatures,
        signatureDifferences: signatureDifferences(b.signature, c.signature),
      })
      continue
    }
    if (common.length === 0) {
      metrics.push({ metric, status: 'no-common-cases', regressed: false, ...NOT_COMPARED, tolerance, onlyInBaseline, onlyInCurrent, ...signatures })
      continue
    }
    const perCase = common.map((id) => {
      const bv = b.values[id] as number
      const cv = c.values[id] as number
      return { id, baseline: bv, current: cv, delta: cv - bv }
    })
    const diffs = perCase.map((p) => p.delta)
    const stats = test === 'bootstrap' ? pairedBootstrap(diffs, { resamples, seed, confidence }) : signFlipTest(diffs, { resamples, seed, confidence })
    let baseSum = 0
    let curSum = 0
    for (const p of perCase) {
      baseSum += p.baseline
      curSum += p.current
    }
    const regressed = stats.meanDelta < -tolerance && stats.pValue < alpha
    metrics.push({
      metric,
      status: regressed ? 'regressed' : 'ok',
      regressed,
      baselineMean: baseSum / common.length,
      currentMean: curSum / common.length,
      delta: stats.meanDelta,
      ci: stats.ci,
      pValue: stats.pValue,
      tolerance,
      n: common.length,
      perCase: [...perCase].sort((x, y) => x.delta - y.delta || byCodeUnit(x.id, y.id)),
      onlyInBaseline,
      onlyInCurrent,
      ...signatures,
      test: stats.method,
    })
  }

  const allIds = (run: MetricRun) => new Set(Object.values(run.metrics).flatMap((m) => Object.keys(m.values)))
  const baseAll = allIds(baseline)
  const curAll = allIds(current)
  return {
    metrics,
    regressed: metrics.filter((m) => m.regressed).map((m) => m.metric),
    incomparable: metrics.filter((m) => m.status === 'incomparable').map((m) => m.metric),
    onlyInBaseline: [...baseAll].filter((id) => !curAll.has(id)).sort(byCodeUnit),
    onlyInCurrent: [...curAll].filter((id) => !baseAll.has(id)).sort(byCodeUnit),
    options: { alpha, resamples, seed, test, confidence },
  }
}
