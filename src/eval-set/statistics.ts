/**
 * Paired significance tests for per-case metric differences, deterministic for a given seed.
 *
 * Everything here works on the per-case differences `d_i = current_i − baseline_i` of one metric,
 * in a fixed case order (the caller sorts the ids), and compares SUMS rather than means so that the
 * observed statistic and a resample that draws the same cases add up identically.
 */
import { MetricInputError } from '../errors.js'
import { abs, floor, imul } from '../math-bindings.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'

/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): a 32-bit state advanced by the odd constant
 * 0x6D2B79F5 and mixed by two xorshift-multiply rounds. Returns a function producing floats in
 * [0, 1) with 32 random bits each (`u32 / 2^32`). Small, fast, and identical on every platform, which
 * is all a reproducible resampling needs (it is not a cryptographic generator).
 *
 * Parity: the sequence equals the widely used 32-bit reference formulation (checked in the tests
 * against an independent Python implementation).
 *
 * @example
 * const next = mulberry32(42)
 * next() // 0.6011037519201636
 */
export function mulberry32(seed: number): () => number {
  if (!Number.isInteger(seed)) throw new MetricInputError('mulberry32', 'seed', 'an integer', seed)
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = imul(state ^ (state >>> 15), state | 1)
    t = (t + imul(t ^ (t >>> 7), t | 61)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Quantile with linear interpolation between order statistics (Hyndman & Fan type 7, numpy's default):
 * `h = (n − 1)·q`, `Q = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])` over the sorted values.
 *
 * @example quantileSorted([1, 2, 3, 4], 0.5) // 2.5
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length
  if (n === 0) return Number.NaN
  const h = (n - 1) * q
  const lo = Math.floor(h)
  const hi = Math.min(lo + 1, n - 1)
  const a = sorted[lo] as number
  const b = sorted[hi] as number
  return a + (h - lo) * (b - a)
}

export interface PairedTestOptions {
  /** Number of resamples B. @default 10_000 */
  readonly resamples?: number
  /** Seed of the mulberry32 generator. @default 42 */
  readonly seed?: number
  /** Two-sided level of the percentile interval. @default 0.95 */
  readonly confidence?: number
}

/** The keys of {@link PairedTestOptions}: what pairedBootstrap and signFlipTest accept. */
export const PAIRED_TEST_OPTION_KEYS = keysOf<PairedTestOptions>()('resamples', 'seed', 'confidence')

export interface PairedTestResult {
  /** Number of paired cases n. */
  readonly n: number
  /** Observed mean difference d̄ = Σd_i / n. */
  readonly meanDelta: number
  /** One-sided p-value of a drop (see the function that produced it). */
  readonly pValue: number
  /** Percentile bootstrap interval of the mean difference at `confidence`. */
  readonly ci: readonly [number, number]
  /** How the p-value was obtained. */
  readonly method: 'paired-bootstrap' | 'sign-flip-exact' | 'sign-flip-monte-carlo'
  /** Resamples (or, for the exact sign-flip test, sign vectors) behind the p-value. */
  readonly resamples: number
}

/** Sums within this relative distance of the observed one count as ties (reassociation rounding). */
const TIE_EPSILON = 1e-12

function checkDiffs(fn: string, diffs: readonly number[]): void {
  if (!Array.isArray(diffs) || diffs.length === 0) throw new MetricInputError(fn, 'diffs', 'a non-empty array of finite numbers', diffs)
  diffs.forEach((d, i) => {
    if (typeof d !== 'number' || !Number.isFinite(d)) throw new MetricInputError(fn, `diffs[${i}]`, 'a finite number', d)
  })
}

function resolveOptions(fn: string, options: PairedTestOptions): { resamples: number; seed: number; confidence: number } {
  checkOptionKeys(fn, options, PAIRED_TEST_OPTION_KEYS)
  const { resamples = 10_000, seed = 42, confidence = 0.95 } = options
  if (!Number.isInteger(resamples) || resamples < 1) throw new MetricInputError(fn, 'options.resamples', 'a positive integer', resamples)
  if (!Number.isInteger(seed)) throw new MetricInputError(fn, 'options.seed', 'an integer', seed)
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new MetricInputError(fn, 'options.confidence', 'a number strictly between 0 and 1', confidence)
  }
  return { resamples, seed, confidence }
}

function sum(values: readonly number[]): number {
  let s = 0
  for (const v of values) s += v
  return s
}

function absSum(values: readonly number[]): number {
  let s = 0
  for (const v of values) s += abs(v)
  return s
}

/**
 * Resamples n indices with replacement B times (index `⌊u·n⌋`, u from mulberry32(seed), drawn in
 * order resample by resample) and returns the resampled SUMS Σ d_{idx_j}.
 */
function bootstrapSums(diffs: readonly number[], resamples: number, seed: number): Float64Array {
  const n = diffs.length
  const values = Float64Array.from(diffs)
  const sums = new Float64Array(resamples)
  // mulberry32(seed) written out in the loop: the same draws, without a closure call per draw. This loop is
  // most of a large baseline gate's time (10,000 resamples of 10,000 cases per metric); inlined it runs
  // about 1.6x faster (bench/large-eval-set.mjs, and the tests pin the p-values and intervals).
  let state = seed >>> 0
  for (let b = 0; b < resamples; b++) {
    let s = 0
    for (let j = 0; j < n; j++) {
      state = (state + 0x6d2b79f5) >>> 0
      let t = imul(state ^ (state >>> 15), state | 1)
      t = (t + imul(t ^ (t >>> 7), t | 61)) ^ t
      s += values[floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)] as number
    }
    sums[b] = s
  }
  return sums
}

function percentileInterval(sums: Float64Array, n: number, confidence: number): readonly [number, number] {
  const means = Float64Array.from(sums, (s) => s / n).sort()
  return [quantileSorted(means, (1 - confidence) / 2), quantileSorted(means, (1 + confidence) / 2)]
}

/**
 * Paired bootstrap test of a drop (H0: the mean difference is 0; H1: it is negative).
 *
 * Resampling: B resamples of the n differences with replacement (see {@link mulberry32}; indices
 * `⌊u·n⌋`), resample means m*_b. Centring the bootstrap distribution on the null (m*_b − d̄ has the
 * null's shape), the one-sided p-value is the share of resamples at least as low as the observation:
 *
 *   p = (1 + #{b : m*_b − d̄ ≤ d̄}) / (B + 1)        (computed on sums: #{b : S*_b ≤ 2·S})
 *
 * The `+1` counts the observation itself, so p is never 0. Ties within a relative 1e-12 of Σ|d_i|
 * count as "at least as low". The interval is the percentile interval of m*_b at `confidence`
 * (type-7 quantiles). Caveat: with very few cases the bootstrap has no variance to work with (n = 1
 * gives p = 1/(B+1) for any drop); prefer {@link signFlipTest} for small sets.
 *
 * Parity: no reference library defines this exact gate; the definition above is the contract, and
 * the tests pin it with hand-computed resamples.
 *
 * @example
 * pairedBootstrap([-0.2, -0.2, -0.2], { resamples: 99 }) // { meanDelta: ≈ −0.2, pValue: 0.01 (1/100: no resample is as low as 2·Σd), ci: [≈ −0.2, ≈ −0.2], … }
 */
export function pairedBootstrap(diffs: readonly number[], options: PairedTestOptions = {}): PairedTestResult {
  const fn = 'pairedBootstrap'
  checkDiffs(fn, diffs)
  const { resamples, seed, confidence } = resolveOptions(fn, options)
  const n = diffs.length
  const observed = sum(diffs)
  const sums = bootstrapSums(diffs, resamples, seed)
  const bound = 2 * observed + TIE_EPSILON * absSum(diffs)
  let extreme = 0
  for (const s of sums) if (s <= bound) extreme++
  return {
    n,
    meanDelta: observed / n,
    pValue: (1 + extreme) / (resamples + 1),
    ci: percentileInterval(sums, n, confidence),
    method: 'paired-bootstrap',
    resamples,
  }
}

/**
 * Approximate randomization (sign-flip) test of a drop. Under H0 each case's difference is as likely
 * to have the opposite sign (current and baseline are exchangeable within a pair), so the null
 * distribution of Σ ε_i·d_i with ε_i = ±1 is the reference for the observed Σ d_i:
 *
 *   p = #{ε : Σ ε_i d_i ≤ Σ d_i} / 2^n                  when 2^n ≤ B (exact: every sign vector), else
 *   p = (1 + #{b : Σ ε*_bi d_i ≤ Σ d_i}) / (B + 1)      with ε*_bi = −1 when u < 0.5, from mulberry32(seed + 1)
 *
 * Ties within a relative 1e-12 of Σ|d_i| count. The interval is the same paired-bootstrap percentile
 * interval as {@link pairedBootstrap} (mulberry32(seed)): a randomization test gives a p-value, not an interval.
 * Parity: as {@link pairedBootstrap}, specified here and pinned by hand-computed tests.
 *
 * @example
 * signFlipTest([-0.3, -0.1, 0.1]).pValue // 0.375 (3 of the 8 sign vectors sum to ≤ −0.3)
 */
export function signFlipTest(diffs: readonly number[], options: PairedTestOptions = {}): PairedTestResult {
  const fn = 'signFlipTest'
  checkDiffs(fn, diffs)
  const { resamples, seed, confidence } = resolveOptions(fn, options)
  const n = diffs.length
  const observed = sum(diffs)
  const bound = observed + TIE_EPSILON * absSum(diffs)
  const ci = percentileInterval(bootstrapSums(diffs, resamples, seed), n, confidence)
  if (n <= 30 && 2 ** n <= resamples) {
    const total = 2 ** n
    let extreme = 0
    for (let mask = 0; mask < total; mask++) {
      let s = 0
      for (let i = 0; i < n; i++) s += (mask >>> i) & 1 ? -(diffs[i] as number) : (diffs[i] as number)
      if (s <= bound) extreme++
    }
    return { n, meanDelta: observed / n, pValue: extreme / total, ci, method: 'sign-flip-exact', resamples: total }
  }
  const next = mulberry32(seed + 1)
  let extreme = 0
  for (let b = 0; b < resamples; b++) {
    let s = 0
    for (let i = 0; i < n; i++) s += next() < 0.5 ? -(diffs[i] as number) : (diffs[i] as number)
    if (s <= bound) extreme++
  }
  return { n, meanDelta: observed / n, pValue: (1 + extreme) / (resamples + 1), ci, method: 'sign-flip-monte-carlo', resamples }
}

/**
 * The smallest p-value a paired test can return on `n` cases with `resamples` resamples: below it,
 * no data, however bad, is significant. When it is not below `alpha`, the test cannot fail.
 *
 * - `'permutation'` (sign-flip): exact when `n ≤ 30` and `2^n ≤ resamples`, where the most extreme
 *   observation is 1 of the 2^n sign vectors, `p_min = 2^−n` (3 cases: 0.125; 4: 0.0625; 5: 0.03125);
 *   otherwise Monte-Carlo, `p_min = 1/(B + 1)`.
 * - `'bootstrap'`: `p_min = 1/(B + 1)` (the observation itself counts).
 *
 * @example smallestAttainableP('permutation', 3, 10_000) // 0.125
 */
export function smallestAttainableP(test: 'bootstrap' | 'permutation', n: number, resamples: number): number {
  if (!Number.isInteger(n) || n < 1) throw new MetricInputError('smallestAttainableP', 'n', 'a positive integer', n)
  if (!Number.isInteger(resamples) || resamples < 1) throw new MetricInputError('smallestAttainableP', 'resamples', 'a positive integer', resamples)
  if (test === 'permutation' && n <= 30 && 2 ** n <= resamples) return 2 ** -n
  if (test !== 'bootstrap' && test !== 'permutation') throw new MetricInputError('smallestAttainableP', 'test', "'bootstrap' or 'permutation'", test)
  return 1 / (resamples + 1)
}

/**
 * The fewest cases at which {@link smallestAttainableP} is below `alpha` (the test can fail at all),
 * or `undefined` when no number of cases gets there with these resamples.
 * @example fewestCasesToReach('permutation', 0.05, 10_000) // 5
 */
export function fewestCasesToReach(test: 'bootstrap' | 'permutation', alpha: number, resamples: number): number | undefined {
  for (let n = 1; n <= 64; n++) if (smallestAttainableP(test, n, resamples) < alpha) return n
  return undefined
}
