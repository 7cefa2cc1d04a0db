/**
 * Regression gate: compares per-case metric values of a current run with a baseline run, metric by
 * metric, with a paired significance test so that noise does not fail a build and a real drop does.
 */
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { signatureDifferences } from '../signature.js'
import { metricScale } from './metrics.js'
import type { MetricRun, MetricValues } from './metric-run.js'
import { identitySignature } from './metric-revisions.js'
import { fewestCasesToReach, pairedBootstrap, signFlipTest, smallestAttainableP, type PairedTestResult } from './statistics.js'

export type { MetricRun, MetricValues } from './metric-run.js'

/**
 * `'bootstrap'`: paired bootstrap; `'permutation'`: sign-flip randomization test; `'none'`: a
 * tolerance-only gate (no test: any drop beyond the tolerance regresses), for sets too small for a test.
 */
export type SignificanceTest = 'bootstrap' | 'permutation' | 'none'

/**
 * `'equal'`: the run's case ids must equal the baseline's (else the comparison fails, listing the
 * added and removed ids); `'shared'`: compare the cases in both runs only (and fail when there are none).
 */
export type CaseCoverage = 'equal' | 'shared'

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
  /** @default 'bootstrap' */
  readonly test?: SignificanceTest
  /** Two-sided level of the reported interval of the delta. @default 0.95 */
  readonly confidence?: number
  /** Full scale per metric name; defaults to the registry's (100 for `bleu`/`chrf`, else 1). */
  readonly scales?: Readonly<Record<string, number>>
  /** Which cases are compared. @default 'equal' */
  readonly cases?: CaseCoverage
  /** Per metric name, `false` when lower values are better (TER, error rates). A metric's own `higherIsBetter` field counts too. @default true */
  readonly higherIsBetter?: Readonly<Record<string, boolean>>
  /** Also fail on `dropped (not significant)`: a drop beyond the tolerance that the test cannot tell from noise. @default false */
  readonly failOnDrop?: boolean
  /**
   * Per-case gate: a metric also fails when more than this many of its cases regressed on their own
   * (see {@link MetricComparison.regressedCases}), whatever its mean did. Absent: no per-case gate.
   */
  readonly maxRegressedCases?: number
}

/** The keys of {@link CompareRunsOptions}. */
export const COMPARE_RUNS_OPTION_KEYS = keysOf<CompareRunsOptions>()(
  'tolerance',
  'alpha',
  'resamples',
  'seed',
  'test',
  'confidence',
  'scales',
  'cases',
  'higherIsBetter',
  'failOnDrop',
  'maxRegressedCases',
)

export interface CaseDelta {
  readonly id: string
  readonly baseline: number
  readonly current: number
  /** `current − baseline`. */
  readonly delta: number
}

/**
 * What happened to a compared metric (`d` is the mean change in the metric's good direction, `tol` its tolerance):
 * - `improved`: `d > tol`;
 * - `ok`: `0 ≤ d ≤ tol`;
 * - `dropped (within tolerance)`: `−tol ≤ d < 0`;
 * - `dropped (not significant)`: `d < −tol` but the one-sided test's `p ≥ alpha` (passes unless `failOnDrop`);
 * - `regressed`: `d < −tol` and `p < alpha` (with `test: 'none'`, `d < −tol`).
 *
 * Not compared: `incomparable` (the identities differ, see `signatureDifferences`), `no-common-cases`,
 * `only-in-baseline` / `only-in-current` (the metric is tracked by one run only).
 */
export type ComparisonStatus =
  'ok' | 'improved' | 'dropped (within tolerance)' | 'dropped (not significant)' | 'regressed' | 'incomparable' | 'no-common-cases' | 'only-in-baseline' | 'only-in-current'

/** The status words of compared metrics, best first. */
export const COMPARED_STATUSES = ['improved', 'ok', 'dropped (within tolerance)', 'dropped (not significant)', 'regressed'] as const

export interface MetricComparison {
  readonly metric: string
  readonly status: ComparisonStatus
  readonly regressed: boolean
  /**
   * This metric fails the comparison: regressed, `dropped (not significant)` under `failOnDrop`, more
   * regressed cases than `maxRegressedCases`, no common cases, or incomparable.
   */
  readonly failed: boolean
  /** `false` for a metric where lower is better; deltas are still `current − baseline`. */
  readonly higherIsBetter: boolean
  /** Mean over the cases present in both runs (NaN when there are none, or the metric is in one run only). */
  readonly baselineMean: number
  readonly currentMean: number
  /** `currentMean − baselineMean`, the mean of the per-case deltas. */
  readonly delta: number
  /** Percentile bootstrap interval of `delta` at `confidence` ([NaN, NaN] when not compared). */
  readonly ci: readonly [number, number]
  /** One-sided p-value of a drop (NaN when not compared or with `test: 'none'`). */
  readonly pValue: number
  /** The smallest p-value the test can give on `n` cases (0 with `test: 'none'`, NaN when not compared). */
  readonly minAttainableP: number
  /** The tolerance in the metric's own units (fraction × scale). */
  readonly tolerance: number
  /** Cases compared. */
  readonly n: number
  /** Per-case deltas, largest drop (in the good direction) first, ties by id. */
  readonly perCase: readonly CaseDelta[]
  /**
   * The cases that regressed on their own: their value moved in the bad direction by more than
   * `tolerance` (any drop when it is 0; 1e-9 of the scale absorbs rounding), worst first, ties by id.
   */
  readonly regressedCases: readonly CaseDelta[]
  /** `maxRegressedCases` was given and more cases than that regressed (the metric then fails). */
  readonly tooManyRegressedCases: boolean
  readonly onlyInBaseline: readonly string[]
  readonly onlyInCurrent: readonly string[]
  readonly baselineSignature?: string
  readonly currentSignature?: string
  /** For `incomparable`: each differing key of the identities (`rev` included) with its baseline (`a`) and current (`b`) value. */
  readonly signatureDifferences?: ReadonlyArray<{ key: string; a: string | undefined; b: string | undefined }>
  readonly test?: PairedTestResult['method'] | 'tolerance-only'
}

export interface CoverageReport {
  readonly mode: CaseCoverage
  /** Case ids of the current run absent from the baseline (over the compared metrics), in code-unit order. */
  readonly added: readonly string[]
  /** Case ids of the baseline absent from the current run. */
  readonly removed: readonly string[]
  /** Cases present in both. */
  readonly compared: number
  /** `'equal'`: no id added or removed; `'shared'`: at least one shared case. */
  readonly ok: boolean
}

export interface PowerReport {
  /** Smallest attainable p of the test at the fewest compared cases. */
  readonly minAttainableP: number
  /** The test cannot reach `alpha` on some compared metric (the comparison fails). */
  readonly underpowered: boolean
  /** The metrics it cannot fail on. */
  readonly metrics: readonly string[]
  /** Fewest cases at which the test could reach `alpha`, when some number can. */
  readonly casesNeeded?: number
}

export interface RunComparison {
  /** One entry per metric of either run, in name order. */
  readonly metrics: readonly MetricComparison[]
  readonly regressed: readonly string[]
  readonly incomparable: readonly string[]
  /** Case ids in any metric of the baseline but in no metric of the current run, and the reverse. */
  readonly onlyInBaseline: readonly string[]
  readonly onlyInCurrent: readonly string[]
  readonly coverage: CoverageReport
  readonly power: PowerReport
  /** The comparison fails: a failed metric, coverage not met, or a test that cannot reach `alpha`. */
  readonly failed: boolean
  readonly options: {
    readonly alpha: number
    readonly resamples: number
    readonly seed: number
    readonly test: SignificanceTest
    readonly confidence: number
    readonly cases: CaseCoverage
    readonly failOnDrop: boolean
    /** Absent when no per-case gate was asked for. */
    readonly maxRegressedCases?: number
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

function directionOf(options: CompareRunsOptions, metric: string, ...runs: Array<MetricValues | undefined>): boolean {
  const given = options.higherIsBetter?.[metric]
  if (given !== undefined) {
    if (typeof given !== 'boolean') throw new MetricInputError(FN, `options.higherIsBetter[${JSON.stringify(metric)}]`, 'a boolean', given)
    return given
  }
  // the TER-style direction flag a recorded metric may carry
  return !runs.some((r) => (r as { higherIsBetter?: unknown } | undefined)?.higherIsBetter === false)
}

const NOT_COMPARED = {
  baselineMean: Number.NaN,
  currentMean: Number.NaN,
  delta: Number.NaN,
  ci: [Number.NaN, Number.NaN] as const,
  pValue: Number.NaN,
  minAttainableP: Number.NaN,
  n: 0,
  perCase: [],
  regressedCases: [],
  tooManyRegressedCases: false,
}

/**
 * The keys in which two identities differ, as `key:old → key:new` joined by `, ` (a key absent on one
 * side reads `(absent)`), e.g. `order:given → order:score, gain:linear → gain:exponential`.
 * @example signatureDifferenceText([{ key: 'order', a: 'given', b: 'score' }]) // 'order:given → order:score'
 */
export function signatureDifferenceText(differences: ReadonlyArray<{ key: string; a: string | undefined; b: string | undefined }>): string {
  const side = (key: string, v: string | undefined) => (v === undefined ? `${key} (absent)` : key === 'name' ? v : `${key}:${v}`)
  return differences.map((d) => `${side(d.key, d.a)} → ${side(d.key, d.b)}`).join(', ')
}

/** The status word of a compared metric from its change `d` in the good direction (see {@link ComparisonStatus}). */
export function comparisonStatus(d: number, tolerance: number, pValue: number, alpha: number, test: SignificanceTest): ComparisonStatus {
  if (d > tolerance) return 'improved'
  if (d >= 0) return 'ok'
  if (d >= -tolerance) return 'dropped (within tolerance)'
  if (test === 'none' || pValue < alpha) return 'regressed'
  return 'dropped (not significant)'
}

/**
 * Compares a current run with a baseline, metric by metric. This is the one implementation behind
 * both `toMatchMetricBaseline` and `rag-matchers compare`.
 *
 * For each metric tracked by both runs:
 * 1. identities must be equal ({@link identitySignature}: every setting, and the metric's
 *    implementation revision instead of the package version), else the metric is `incomparable` and
 *    lists the differing keys. Signatures written by 0.1.0 (`version:0.1.0`) compare by the settings
 *    they record, so an upgrade that changes no metric's numbers compares as before;
 * 2. case coverage: with `cases: 'equal'` (default) the case ids must be the same in both runs, else
 *    the comparison fails (`coverage`); with `'shared'` only the common ids count, and none in common fails;
 * 3. on the common ids (code-unit order), `d_i = current_i − baseline_i`, `delta = mean(d)`; the test
 *    runs on `s·d_i` with `s = −1` for a lower-is-better metric, so a "drop" is always a change for the worse;
 * 4. a one-sided paired test of a drop: `'bootstrap'` (default, {@link pairedBootstrap}), `'permutation'`
 *    ({@link signFlipTest}, exact over all 2^n sign vectors when 2^n ≤ B), or `'none'` (tolerance only);
 *    both tests use mulberry32(seed), so a given seed always gives the same p-value and interval;
 * 5. the status word ({@link ComparisonStatus}); `regressed` when the drop exceeds `tolerance·scale`
 *    AND `p < alpha`. `dropped (not significant)` passes unless `failOnDrop`. Whatever the mean did,
 *    `regressedCases` lists the cases whose own value dropped by more than `tolerance·scale`; with
 *    `maxRegressedCases`, more of them than that fails the metric (`tooManyRegressedCases`);
 * 6. power: when the test's smallest attainable p on n cases ({@link smallestAttainableP}) is not
 *    below `alpha`, the test cannot fail on any data, so the comparison fails (`power.underpowered`)
 *    until there are more cases, another test, or `test: 'none'` (a tolerance-only gate, chosen explicitly).
 *
 * Defaults: tolerance 0.02 of full scale, alpha 0.05, 10 000 resamples, seed 42, bootstrap, 95 % interval.
 * There is no reference implementation to match; the statistics are specified above and tested on
 * hand-computed inputs.
 *
 * @example
 * const base = { metrics: { 'recall@3': { signature: 'R|k:3|rev:1', values: { a: 1, b: 1, c: 1, d: 1 } } } }
 * const cur = { metrics: { 'recall@3': { signature: 'R|k:3|rev:1', values: { a: 0.5, b: 0.5, c: 0.5, d: 0.5 } } } }
 * compareRuns(base, cur).regressed // ['recall@3'] (delta −0.5, p = 1/10001)
 */
export function compareRuns(baseline: MetricRun, current: MetricRun, options: CompareRunsOptions = {}): RunComparison {
  checkRun('baseline', baseline)
  checkRun('current', current)
  if (options === null || typeof options !== 'object') throw new MetricInputError(FN, 'options', 'an object', options)
  checkOptionKeys(FN, options, COMPARE_RUNS_OPTION_KEYS)
  const { alpha = 0.05, resamples = 10_000, seed = 42, test = 'bootstrap', confidence = 0.95, cases = 'equal', failOnDrop = false } = options
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) throw new MetricInputError(FN, 'options.alpha', 'a number strictly between 0 and 1', alpha)
  if (!Number.isInteger(resamples) || resamples < 1) throw new MetricInputError(FN, 'options.resamples', 'a positive integer', resamples)
  if (!Number.isInteger(seed)) throw new MetricInputError(FN, 'options.seed', 'an integer', seed)
  if (test !== 'bootstrap' && test !== 'permutation' && test !== 'none') throw new MetricInputError(FN, 'options.test', "'bootstrap', 'permutation' or 'none'", test)
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new MetricInputError(FN, 'options.confidence', 'a number strictly between 0 and 1', confidence)
  }
  if (cases !== 'equal' && cases !== 'shared') throw new MetricInputError(FN, 'options.cases', "'equal' or 'shared'", cases)
  if (typeof failOnDrop !== 'boolean') throw new MetricInputError(FN, 'options.failOnDrop', 'a boolean', failOnDrop)
  const { maxRegressedCases } = options
  if (maxRegressedCases !== undefined && !(typeof maxRegressedCases === 'number' && Number.isInteger(maxRegressedCases) && maxRegressedCases >= 0)) {
    throw new MetricInputError(FN, 'options.maxRegressedCases', 'an integer ≥ 0', maxRegressedCases)
  }
  if (typeof options.tolerance !== 'number' && options.tolerance !== undefined && (options.tolerance === null || typeof options.tolerance !== 'object')) {
    throw new MetricInputError(FN, 'options.tolerance', 'a number ≥ 0 or a record of metric → number', options.tolerance)
  }
  if (options.higherIsBetter !== undefined && (options.higherIsBetter === null || typeof options.higherIsBetter !== 'object')) {
    throw new MetricInputError(FN, 'options.higherIsBetter', 'a record of metric → boolean', options.higherIsBetter)
  }

  const names = [...new Set([...Object.keys(baseline.metrics), ...Object.keys(current.metrics)])].sort(byCodeUnit)
  const metrics: MetricComparison[] = []
  const added = new Set<string>()
  const removed = new Set<string>()
  for (const metric of names) {
    const scale = options.scales?.[metric] ?? metricScale(metric)
    const tolerance = toleranceFor(options.tolerance, metric) * scale
    const b = Object.prototype.hasOwnProperty.call(baseline.metrics, metric) ? baseline.metrics[metric] : undefined
    const c = Object.prototype.hasOwnProperty.call(current.metrics, metric) ? current.metrics[metric] : undefined
    const higherIsBetter = directionOf(options, metric, b, c)
    if (b === undefined || c === undefined) {
      const only = b === undefined ? 'only-in-current' : 'only-in-baseline'
      metrics.push({
        metric,
        status: only,
        regressed: false,
        failed: false,
        higherIsBetter,
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
    const baseIdentity = identitySignature(b.signature)
    const curIdentity = identitySignature(c.signature)
    // a metric that could not be compared fails, with what it has to say about the cases
    const notCompared = (status: 'incomparable' | 'no-common-cases') =>
      ({ metric, status, regressed: false, failed: true, higherIsBetter, ...NOT_COMPARED, tolerance, onlyInBaseline, onlyInCurrent, ...signatures }) as const
    if (baseIdentity !== curIdentity) {
      metrics.push({ ...notCompared('incomparable'), signatureDifferences: signatureDifferences(baseIdentity, curIdentity) })
      continue
    }
    for (const id of onlyInBaseline) removed.add(id)
    for (const id of onlyInCurrent) added.add(id)
    if (common.length === 0) {
      metrics.push(notCompared('no-common-cases'))
      continue
    }
    const perCase = common.map((id) => {
      const bv = b.values[id] as number
      const cv = c.values[id] as number
      return { id, baseline: bv, current: cv, delta: cv - bv }
    })
    const sign = higherIsBetter ? 1 : -1
    // `0 * -1` is −0, which prints as "-0"; `+ 0` turns it into 0
    const oriented = perCase.map((p) => sign * p.delta + 0)
    let baseSum = 0
    let curSum = 0
    for (const p of perCase) {
      baseSum += p.baseline
      curSum += p.current
    }
    let pValue = Number.NaN
    let ci: readonly [number, number]
    let method: MetricComparison['test']
    let minAttainableP = 0
    let meanDelta: number
    if (test === 'none') {
      const stats = pairedBootstrap(oriented, { resamples, seed, confidence })
      meanDelta = stats.meanDelta
      ci = stats.ci
      method = 'tolerance-only'
    } else {
      const stats = test === 'bootstrap' ? pairedBootstrap(oriented, { resamples, seed, confidence }) : signFlipTest(oriented, { resamples, seed, confidence })
      meanDelta = stats.meanDelta
      pValue = stats.pValue
      ci = stats.ci
      method = stats.method
      minAttainableP = smallestAttainableP(test, common.length, resamples)
    }
    // the interval is of the oriented mean; turn it back into current − baseline
    const rawCi: readonly [number, number] = sign === 1 ? ci : [-ci[1] + 0, -ci[0] + 0]
    const status = comparisonStatus(meanDelta, tolerance, pValue, alpha, test)
    const regressed = status === 'regressed'
    const ranked = perCase.map((p, i) => ({ p, o: oriented[i] as number })).sort((x, y) => x.o - y.o || byCodeUnit(x.p.id, y.p.id))
    const slack = tolerance + 1e-9 * scale
    const regressedCases = ranked.filter((x) => x.o < -slack).map((x) => x.p)
    const tooManyRegressedCases = maxRegressedCases !== undefined && regressedCases.length > maxRegressedCases
    metrics.push({
      metric,
      status,
      regressed,
      failed: regressed || (failOnDrop && status === 'dropped (not significant)') || tooManyRegressedCases,
      higherIsBetter,
      baselineMean: baseSum / common.length,
      currentMean: curSum / common.length,
      delta: sign * meanDelta + 0,
      ci: rawCi,
      pValue,
      minAttainableP,
      tolerance,
      n: common.length,
      perCase: ranked.map((x) => x.p),
      regressedCases,
      tooManyRegressedCases,
      onlyInBaseline,
      onlyInCurrent,
      ...signatures,
      test: method,
    })
  }

  const compared = metrics.filter((m) => m.n > 0)
  const coverageOk = cases === 'equal' ? added.size === 0 && removed.size === 0 : metrics.every((m) => m.status !== 'no-common-cases')
  const underpowered = test === 'none' ? [] : compared.filter((m) => !(m.minAttainableP < alpha)).map((m) => m.metric)
  const fewest = compared.length === 0 ? 0 : Math.min(...compared.map((m) => m.n))
  const casesNeeded = test === 'none' ? undefined : fewestCasesToReach(test, alpha, resamples)
  const power: PowerReport = {
    minAttainableP: test === 'none' || compared.length === 0 ? 0 : smallestAttainableP(test, fewest, resamples),
    underpowered: underpowered.length > 0,
    metrics: underpowered,
    ...(casesNeeded !== undefined ? { casesNeeded } : {}),
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
    coverage: {
      mode: cases,
      added: [...added].sort(byCodeUnit),
      removed: [...removed].sort(byCodeUnit),
      compared: new Set(compared.flatMap((m) => m.perCase.map((p) => p.id))).size,
      ok: coverageOk,
    },
    power,
    failed: metrics.some((m) => m.failed) || !coverageOk || power.underpowered,
    options: { alpha, resamples, seed, test, confidence, cases, failOnDrop, ...(maxRegressedCases !== undefined ? { maxRegressedCases } : {}) },
  }
}
