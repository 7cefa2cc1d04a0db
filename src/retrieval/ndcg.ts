import { gainFunction, ndcgValue, readGain, type NdcgGain } from './kernels.js'
import { keysOf } from '../option-keys.js'
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
 * Normalised Discounted Cumulative Gain at k (Järvelin & Kekäläinen, 2002).
 *
 *   nDCG@k = DCG@k / IDCG@k,   DCG@k = Σ_{r=1..k} gain(grade_r) / log2(r + 1)
 *
 * IDCG is the DCG of the ideal ordering of the positive grades, cut at k. Grades ≤ 0 give no gain.
 * Binary relevance is grade 1, so DCG = Σ over top-k hits of 1/log2(r+1) and
 * IDCG = Σ_{r=1..min(|relevant|,k)} 1/log2(r+1). No relevant ids → 0 (trec_eval and ranx).
 * Sums run in rank order, as trec_eval's do.
 *
 * @example ndcgAtK({ retrieved: ['d7', 'd2', 'd9'], relevant: { d2: 1, d4: 2 } }, 3).value // 0.2398…
 */
export function ndcgAtK(input: RetrievalCase, k: number, options: NdcgOptions = {}): RetrievalScore<NdcgDetails> {
  const norm = prepare('ndcgAtK', input, k, options, NDCG_OPTION_KEYS)
  const gainName = readGain('ndcgAtK', options.gain)
  const gain = gainFunction(gainName)
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
