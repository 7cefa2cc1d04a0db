import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { normalIsf } from './distributions.js'
import { alphaFromConfidence } from './shared.js'

export interface WinCounts {
  readonly wins: number
  readonly losses: number
  readonly ties: number
}

export type TiesConvention = 'exclude' | 'half'

export interface WinRateOptions {
  /**
   * `'exclude'` (default): rate = wins / (wins + losses), ties dropped.
   * `'half'`: rate = (wins + ties/2) / (wins + losses + ties), a tie counts half a win.
   */
  readonly ties?: TiesConvention
  /** Two-sided confidence level of the Wilson interval. @default 0.95 */
  readonly confidence?: number
}

/** The keys of {@link WinRateOptions}: what winRate accepts. */
export const WIN_RATE_OPTION_KEYS = keysOf<WinRateOptions>()('ties', 'confidence')

export interface WilsonInterval {
  readonly low: number
  readonly high: number
  /** The normal quantile z = Φ⁻¹(1 − α/2). */
  readonly z: number
}

export interface WinRateDetails extends WinCounts {
  readonly convention: TiesConvention
  /** Successes fed to the interval (wins, or wins + ties/2). */
  readonly count: number
  /** Trials fed to the interval (wins + losses, or all comparisons). */
  readonly nobs: number
  readonly confidence: number
  readonly low: number
  readonly high: number
  readonly z: number
  readonly reason?: string
}

/**
 * Wilson score interval for a binomial proportion, as statsmodels 0.13.5
 * `proportion_confint(count, nobs, alpha, method='wilson')` (no continuity correction):
 *
 *   q = count/nobs, z = Φ⁻¹(1 − α/2), center = (q + z²/(2n)) / (1 + z²/n),
 *   half = z·√(q(1 − q)/n + z²/(4n²)) / (1 + z²/n),  [center − half, center + half]
 *
 * `count` may be fractional (ties counted as halves). nobs = 0 → NaN bounds (statsmodels: NaN with
 * RuntimeWarnings). Parity: the golden Wilson bounds for α = 0.05 and 0.1 to 1e-12.
 *
 * @example
 * wilsonInterval(0, 10, 0.05).high // 0.27753279986288937 (statsmodels: 0.27753279986288926)
 */
export function wilsonInterval(count: number, nobs: number, alpha = 0.05): WilsonInterval {
  const fn = 'wilsonInterval'
  if (typeof nobs !== 'number' || !Number.isFinite(nobs) || nobs < 0) throw new MetricInputError(fn, 'nobs', 'a non-negative number of trials', nobs)
  if (typeof count !== 'number' || !Number.isFinite(count) || count < 0 || count > nobs) {
    throw new MetricInputError(fn, 'count', `a number of successes between 0 and nobs (${nobs})`, count)
  }
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) throw new MetricInputError(fn, 'alpha', 'a number strictly between 0 and 1', alpha)
  const q = count / nobs
  const z = normalIsf(alpha / 2)
  const z2 = z * z
  const denominator = 1 + z2 / nobs
  const center = (q + z2 / (2 * nobs)) / denominator
  let half = z * Math.sqrt((q * (1 - q)) / nobs + z2 / (4 * (nobs * nobs)))
  half /= denominator
  return { low: center - half, high: center + half, z }
}

/**
 * Win rate of system A over system B from pairwise judgements, with a Wilson score interval.
 *
 *   ties 'exclude': rate = wins / (wins + losses);  ties 'half': rate = (wins + ties/2) / (wins + losses + ties)
 *
 * The interval is {@link wilsonInterval} on the same count and number of trials, at `confidence`
 * (default 0.95 → z ≈ 1.9599639845400545). No decisive comparison (all ties under 'exclude', or nothing at
 * all) is 0/0 → NaN rate and bounds with a `reason`. Parity: the 18 golden cases (both conventions,
 * α = 0.05 and 0.1) to 1e-12 against statsmodels 0.13.5.
 *
 * @example
 * winRate({ wins: 221, losses: 119, ties: 160 }, { ties: 'half' }).value // 0.602
 */
export function winRate(counts: WinCounts, options: WinRateOptions = {}): Score<WinRateDetails> {
  const fn = 'winRate'
  if (counts === null || typeof counts !== 'object') throw new MetricInputError(fn, 'counts', 'an object { wins, losses, ties }', counts)
  for (const key of ['wins', 'losses', 'ties'] as const) {
    const v = counts[key]
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new MetricInputError(fn, `counts.${key}`, 'a non-negative integer', v)
  }
  checkOptionKeys(fn, options, WIN_RATE_OPTION_KEYS)
  const convention = options.ties ?? 'exclude'
  if (convention !== 'exclude' && convention !== 'half') throw new MetricInputError(fn, 'options.ties', "'exclude' or 'half'", convention)
  const confidence = options.confidence ?? 0.95
  const alpha = alphaFromConfidence(fn, confidence)
  const { wins, losses, ties } = counts
  const count = convention === 'exclude' ? wins : wins + ties / 2
  const nobs = convention === 'exclude' ? wins + losses : wins + losses + ties
  const value = count / nobs
  const interval = wilsonInterval(count, nobs, alpha)
  let reason: string | undefined
  if (nobs === 0) {
    reason = convention === 'exclude' && ties > 0 ? 'every comparison is a tie and ties are excluded: the win rate is 0/0' : 'no comparisons: the win rate is 0/0'
  }
  const details: WinRateDetails = {
    wins,
    losses,
    ties,
    convention,
    count,
    nobs,
    confidence,
    low: interval.low,
    high: interval.high,
    z: interval.z,
    ...(reason === undefined ? {} : { reason }),
  }
  const signature = buildSignature('WinRate', [
    ['ties', convention],
    ['ci', 'wilson'],
    ['confidence', confidence],
    ['n', nobs],
  ])
  return makeScore('Win rate', value, signature, details)
}
