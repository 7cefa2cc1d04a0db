import { gainFunction, ndcgValue, readGain, type NdcgGain } from './kernels.js'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import type { NormalizedCase } from './normalize.js'
import { prepare, rankingDetails, retrievalScore, type RetrievalScore } from './ranking.js'
import type { RankingDetails } from './ranking.js'
import type { RetrievalCase, RetrievalOptions } from './types.js'

export interface NdcgDetails extends RankingDetails {
  readonly dcg: number
  readonly idcg: number
}

export type { NdcgGain }

export interface NdcgOptions extends RetrievalOptions {
  /**
   * How a grade becomes a gain. `'linear'` (default): the grade itself (trec_eval `ndcg_cut`, ranx `ndcg`).
   * `'exponential'`: 2^grade − 1 (ranx `ndcg_burges`). With binary relevance both give 1 per hit.
   * @default 'linear'
   */
  readonly gain?: NdcgGain
}

/** The keys of {@link NdcgOptions}: what ndcgAtK accepts. */
export const NDCG_OPTION_KEYS = keysOf<NdcgOptions>()('duplicates', 'allowEmptyRelevant', 'order', 'gain')

/**
 * The smallest positive grade nDCG accepts. trec_eval and ranx read grades as integers; fractional
 * grades are fine, but a positive grade below this (5e-324, 1e-320: subnormal numbers) is not a usable
 * grade: its gain divided by log2(rank + 1) underflows (5e-324 / 2 is 0), so DCG and IDCG come out of
 * rounding, not of the ranking (two such grades at ranks 1 and 3 gave 0.5 instead of 0.92), and with
 * exponential gain 2^grade − 1 rounds to 0 for grades below ~1e-16.
 */
export const MIN_NDCG_GRADE = 1e-6

/** Refuses a positive grade below {@link MIN_NDCG_GRADE}, naming the id. Grades ≤ 0 (not relevant) are fine. */
export function checkUsableGrades(fn: string, norm: NormalizedCase): void {
  for (const [id, grade] of norm.grades) {
    if (grade > 0 && grade < MIN_NDCG_GRADE) {
      throw new MetricInputError(
        fn,
        `relevant[${JSON.stringify(id)}]`,
        `a grade ≤ 0 (not relevant) or ≥ ${MIN_NDCG_GRADE} (a smaller positive grade underflows in DCG's sums, so nDCG would be rounding noise; grades are usually integers, as in trec_eval)`,
        grade,
      )
    }
  }
}

/**
 * Normalised Discounted Cumulative Gain at k (Järvelin & Kekäläinen, 2002).
 *
 *   nDCG@k = DCG@k / IDCG@k,   DCG@k = Σ_{r=1..k} gain(grade_r) / log2(r + 1)
 *
 * IDCG is the DCG of the ideal ordering of the positive grades, cut at k. Grades ≤ 0 give no gain.
 * Binary relevance is grade 1, so DCG = Σ over top-k hits of 1/log2(r+1) and
 * IDCG = Σ_{r=1..min(|relevant|,k)} 1/log2(r+1). No relevant ids → 0 (trec_eval and ranx).
 * A positive grade below 1e-6 ({@link MIN_NDCG_GRADE}) is refused: it underflows in the sums.
 * Sums run in rank order, as trec_eval's do.
 *
 * @example ndcgAtK({ retrieved: ['d7', 'd2', 'd9'], relevant: { d2: 1, d4: 2 } }, 3).value // 0.2398…
 */
export function ndcgAtK(input: RetrievalCase, k: number, options: NdcgOptions = {}): RetrievalScore<NdcgDetails> {
  const norm = prepare('ndcgAtK', input, k, options, NDCG_OPTION_KEYS)
  const gainName = readGain('ndcgAtK', options.gain)
  const gain = gainFunction(gainName)
  checkUsableGrades('ndcgAtK', norm)
  const { value, dcg, idcg } = ndcgValue(norm, k, gainName)
  const details = rankingDetails(norm, k, (rank, _relevant, grade) => gain(grade) / Math.log2(rank + 1))
  return retrievalScore(
    `nDCG@${k}`,
    'nDCG',
    value,
    norm,
    [
      ['k', k],
      ['gain', gainName],
      ['empty', 'zero'],
    ],
    { ...details, dcg, idcg },
  )
}
