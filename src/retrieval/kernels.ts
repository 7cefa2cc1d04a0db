import { MetricInputError } from '../errors.js'
import { firstRelevantRank, hitsAtK } from './ranking.js'
import type { NormalizedCase } from './normalize.js'

/**
 * The metric values over a normalised case. The public metric functions and `evaluateRetrieval`
 * both call these, so a set is normalised once per case and every formula lives in one place.
 * Formulas and conventions are documented on the public functions.
 */
export const precisionValue = (norm: NormalizedCase, k: number): number => hitsAtK(norm, k) / k

export const recallValue = (norm: NormalizedCase, k: number, fn = 'recallAtK', metric = `R@${k}`): number =>
  withinScale(fn, metric, norm.relevantCount === 0 ? 0 : hitsAtK(norm, k) / norm.relevantCount, norm, k)

/**
 * `duplicates: 'literal'` counts every position (the golden spec transcription in test/parity), so a relevant
 * id listed twice is found twice and recall, AP and nDCG can pass 1. A value off the metric's 0–1 scale would
 * break the rule every threshold relies on, so such a ranking is refused, naming the repeated relevant ids.
 * The other policies never get here: each id takes one rank at most.
 */
function withinScale(fn: string, metric: string, value: number, norm: NormalizedCase, k: number | undefined): number {
  if (value <= 1 || norm.duplicates !== 'literal') return value
  const cut = k === undefined ? norm.ids.length : Math.min(k, norm.ids.length)
  const seen = new Set<string>()
  const repeated: string[] = []
  for (let i = 0; i < cut; i += 1) {
    const id = norm.ids[i] as string
    if ((norm.grades.get(id) ?? 0) <= 0) continue
    if (seen.has(id) && !repeated.includes(id)) repeated.push(id)
    seen.add(id)
  }
  const ids = repeated.map((id) => JSON.stringify(id)).join(', ')
  throw new MetricInputError(
    fn,
    'retrieved',
    `a ranking that keeps ${metric} within 0–1 under duplicates: 'literal' (it counts every position, so the relevant ${repeated.length === 1 ? 'id' : 'ids'} ${ids} listed more than once ${repeated.length === 1 ? 'is' : 'are'} found more than once and ${metric} = ${value.toFixed(4)}); pass duplicates: 'first' (the default) to count each id at its first position, or 'error' to refuse repeats`,
    repeated,
  )
}

export function reciprocalRankValue(norm: NormalizedCase): number {
  const first = firstRelevantRank(norm)
  return first === null ? 0 : 1 / first
}

export const hitRateValue = (norm: NormalizedCase, k: number): number => (hitsAtK(norm, k) > 0 ? 1 : 0)

export type NdcgGain = 'linear' | 'exponential'

/** The `gain` option, defaulted and checked; shared by `ndcgAtK` and the set evaluators. */
export function readGain(fn: string, gain: unknown): NdcgGain {
  if (gain === undefined) return 'linear'
  if (gain !== 'linear' && gain !== 'exponential') throw new MetricInputError(fn, 'options.gain', "'linear' or 'exponential'", gain)
  return gain
}

export function gainFunction(gain: NdcgGain): (grade: number) => number {
  return gain === 'linear' ? (g) => (g > 0 ? g : 0) : (g) => (g > 0 ? 2 ** g - 1 : 0)
}

/**
 * DCG and IDCG summed in rank order, as trec_eval does; nDCG is 0 when IDCG is 0. A grade whose gain is
 * not finite (2^1024 − 1) or gains whose sum overflows are refused: Infinity / Infinity would be NaN.
 */
export function ndcgValue(norm: NormalizedCase, k: number, gainName: NdcgGain, fn = 'ndcgAtK', metric = `nDCG@${k}`): { value: number; dcg: number; idcg: number } {
  const gain = gainFunction(gainName)
  for (const [id, grade] of norm.grades) {
    if (!Number.isFinite(gain(grade))) {
      const what = gainName === 'exponential' ? 'a grade below 1024 (with exponential gain, 2^grade − 1 must be a finite gain)' : 'a grade with a finite gain'
      throw new MetricInputError(fn, `relevant[${JSON.stringify(id)}]`, what, grade)
    }
  }
  let dcg = 0
  const cut = Math.min(k, norm.ids.length)
  for (let i = 0; i < cut; i += 1) dcg += gain(norm.grades.get(norm.ids[i] as string) ?? 0) / Math.log2(i + 2)
  const ideal = [...norm.grades.values()].filter((g) => g > 0).sort((a, b) => b - a)
  let idcg = 0
  for (let i = 0; i < Math.min(k, ideal.length); i += 1) idcg += gain(ideal[i] as number) / Math.log2(i + 2)
  if (!Number.isFinite(dcg) || !Number.isFinite(idcg)) {
    throw new MetricInputError(fn, 'relevant', `grades whose ${gainName} gains sum to a finite DCG (the sum is not finite: DCG ${dcg}, ideal DCG ${idcg})`, [
      ...norm.grades.values(),
    ])
  }
  return { value: withinScale(fn, metric, idcg === 0 ? 0 : dcg / idcg, norm, k), dcg, idcg }
}

/** Σ P@r over relevant ranks r ≤ k (the whole list without k), divided by all relevant ids. */
export function averagePrecisionValue(norm: NormalizedCase, k: number | undefined, fn = 'averagePrecision', metric = k === undefined ? 'AP' : `AP@${k}`): number {
  const cut = k === undefined ? norm.ids.length : Math.min(k, norm.ids.length)
  let hits = 0
  let sum = 0
  for (let i = 0; i < cut; i += 1) {
    if ((norm.grades.get(norm.ids[i] as string) ?? 0) > 0) {
      hits += 1
      sum += hits / (i + 1)
    }
  }
  return withinScale(fn, metric, norm.relevantCount === 0 ? 0 : sum / norm.relevantCount, norm, k)
}
