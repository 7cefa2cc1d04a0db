/**
 * Bootstrap confidence intervals over per-segment sufficient statistics, exactly as sacrebleu 2.6
 * (`Metric.corpus_score(..., n_bootstrap=N)`, `significance._bootstrap_resample`, `Score.estimate_ci`):
 *
 * 1. `idxs = default_rng(seed).choice(n, size=(N, n), replace=True)` (numpy's stream, see random.ts);
 * 2. the statistics are cast to float32 and resample k scores `stats[idxs[k]].sum(0)`;
 * 3. sort; `lo = N // 40`, `hi = N − lo − 1`; `ci = 0.5 · (sorted[hi] − sorted[lo])` (a 95% interval's
 *    half-width); `mean` = Python's `statistics.mean` (exact) for a corpus score, `np.mean` (pairwise)
 *    inside the paired tests.
 */
import { MetricInputError } from '../../errors.js'
import type { SignatureValue } from '../../signature.js'
import { defaultRng, type DrawMatrix } from './random.js'
import { exactMean, numpyMean } from './summation.js'

/** What a bootstrapped corpus score carries: printed by sacrebleu as `μ = mean ± ci`. */
export interface BootstrapEstimate {
  /** Mean of the resample scores (sacrebleu `_mean`, Python `statistics.mean`). */
  readonly mean: number
  /** Half-width of the 95% interval: `0.5 · (sorted[N − N//40 − 1] − sorted[N//40])` (sacrebleu `_ci`). */
  readonly ci: number
  /** How many resamples were drawn. */
  readonly nBootstrap: number
  /** The generator's seed; `null` = unseeded (OS entropy, sacrebleu's `SACREBLEU_SEED=none`). */
  readonly seed: number | null
}

/** A metric's score from summed statistics; `float32` = the sums and ratios as sacrebleu's float32 arrays give them. */
export type StatsScorer = (sums: number[], float32: boolean) => number

/** sacrebleu's default seed when neither an option nor `SACREBLEU_SEED` gives one. */
export const DEFAULT_SEED = 12345

/** The largest resample count accepted (the index matrix is N × n 32-bit words). */
export const MAX_RESAMPLES = 1_000_000

/**
 * The seed sacrebleu would use: the option if given (`null` = unseeded), else `SACREBLEU_SEED` from
 * the environment (`none`, any case, = unseeded), else 12345. Reading the environment is sacrebleu's
 * documented interface for its seed, kept here so results match its command line; pass `seed` to
 * avoid it.
 */
export function resolveSeed(fn: string, seed: unknown): number | null {
  if (seed === null) return null
  if (seed !== undefined) {
    if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)
      throw new MetricInputError(fn, 'options.seed', 'a non-negative safe integer or null (unseeded)', seed)
    return seed
  }
  const env = typeof process === 'undefined' ? undefined : process.env?.['SACREBLEU_SEED']
  if (env === undefined) return DEFAULT_SEED
  if (env.trim().toLowerCase() === 'none') return null
  // Python int(): optional sign and surrounding whitespace; numpy refuses negative seeds
  if (!/^\s*\+?\d+\s*$/.test(env) || !Number.isSafeInteger(Number(env))) {
    throw new MetricInputError(fn, 'SACREBLEU_SEED (environment variable)', "a non-negative integer or 'none'", env)
  }
  return Number(env)
}

/**
 * A corpus metric's `nBootstrap` and `seed` options, checked (`seed` only goes with `nBootstrap`) and the seed
 * resolved as {@link resolveSeed} does; undefined when the score is not resampled.
 * @throws MetricInputError for a bad resample count or seed, or a seed without `nBootstrap`
 */
export function bootstrapOptions(
  fn: string,
  options: { readonly nBootstrap?: number; readonly seed?: number | null } | undefined,
): { nBootstrap: number; seed: number | null } | undefined {
  if (options?.nBootstrap === undefined) {
    if (options?.seed !== undefined) throw new MetricInputError(fn, 'options.seed', 'set only together with options.nBootstrap', options.seed)
    return undefined
  }
  const nBootstrap = checkResamples(fn, 'options.nBootstrap', options.nBootstrap)
  return { nBootstrap, seed: resolveSeed(fn, options.seed) }
}

/** sacrebleu's signature entries of a bootstrap, right after `nrefs` (`bs:N|seed:S`, `seed:none` when unseeded). */
export function bootstrapEntries(nBootstrap: number, seed: number | null): Array<[string, SignatureValue]> {
  return [
    ['bs', nBootstrap],
    ['seed', seed ?? 'none'],
  ]
}

/** Validates a resample count: an integer from `min` to {@link MAX_RESAMPLES}. */
export function checkResamples(fn: string, argument: string, value: unknown, min = 2): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_RESAMPLES) {
    throw new MetricInputError(fn, argument, `an integer from ${min} to ${MAX_RESAMPLES}`, value)
  }
  return value
}

/**
 * The score of every resample, in resample order: row k of `idxs` picks segments, their statistics are
 * summed in float32 (numpy's sequential axis-0 reduction, emulated with `Math.fround`: exact for counts
 * below 2^24, numpy's rounding above) and scored with `float32 = true`.
 */
export function resampleScores(stats: ReadonlyArray<readonly number[]>, idxs: DrawMatrix<Uint32Array>, score: StatsScorer): Float64Array {
  const width = stats.length > 0 ? stats[0]!.length : 0
  const f32 = stats.map((row) => Float32Array.from(row))
  const out = new Float64Array(idxs.rows)
  const sums = new Float64Array(width)
  for (let k = 0; k < idxs.rows; k++) {
    sums.fill(0)
    const base = k * idxs.cols
    for (let i = 0; i < idxs.cols; i++) {
      const row = f32[idxs.data[base + i]!]!
      for (let j = 0; j < width; j++) sums[j] = Math.fround(sums[j]! + row[j]!)
    }
    out[k] = score(Array.from(sums), true)
  }
  return out
}

/** The sorted copy and the interval half-width sacrebleu reports. */
function sortedCi(scores: ArrayLike<number>): { sorted: Float64Array; ci: number } {
  const sorted = Float64Array.from(scores).sort()
  const lo = Math.floor(sorted.length / 40)
  const hi = sorted.length - lo - 1
  return { sorted, ci: 0.5 * (sorted[hi]! - sorted[lo]!) }
}

/** sacrebleu `Score.estimate_ci`: `statistics.mean` (exact, one rounding) and the 95% half-width. */
export function estimateCiExact(scores: ArrayLike<number>): { mean: number; ci: number } {
  const { sorted, ci } = sortedCi(scores)
  return { mean: exactMean(sorted), ci }
}

/** sacrebleu `significance.estimate_ci`: `np.mean` of the SORTED scores (numpy's pairwise sum) and the half-width. */
export function estimateCiNumpy(scores: ArrayLike<number>): { mean: number; ci: number } {
  const { sorted, ci } = sortedCi(scores)
  return { mean: numpyMean(sorted), ci }
}

/** Everything one corpus bootstrap computes (the estimate plus, for tests and reports, the draws). */
export interface BootstrapRun extends BootstrapEstimate {
  /** Resample k's segment indices: `idxs.data[k * n + i]`. */
  readonly idxs: DrawMatrix<Uint32Array>
  /** Resample scores, in resample order. */
  readonly scores: Float64Array
}

/**
 * sacrebleu's corpus bootstrap over per-segment statistics (`stats[i]` = segment i's vector):
 * `nBootstrap` resamples from `default_rng(seed)` (null = unseeded), `mean` exact as
 * `statistics.mean`. Callers validate `nBootstrap` and `seed` ({@link checkResamples}, {@link resolveSeed}).
 */
export function bootstrapCorpus(stats: ReadonlyArray<readonly number[]>, score: StatsScorer, nBootstrap: number, seed: number | null): BootstrapRun {
  const idxs = defaultRng(seed).choice(stats.length, nBootstrap, stats.length)
  const scores = resampleScores(stats, idxs, score)
  const { mean, ci } = estimateCiExact(scores)
  return { mean, ci, nBootstrap, seed, idxs, scores }
}
