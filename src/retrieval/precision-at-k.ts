import { precisionValue } from './kernels.js'
import { prepare, RETRIEVAL_OPTION_KEYS, rankingDetails, retrievalScore, type RetrievalScore } from './ranking.js'
import type { RetrievalCase, RetrievalOptions } from './types.js'

/**
 * Precision at k: relevant ids in the top k, divided by k.
 *
 *   P@k = hits(k) / k
 *
 * Divides by k even when fewer than k ids were retrieved (trec_eval `P_k`, ranx `precision@k`).
 * Relevant means grade > 0.
 *
 * @example precisionAtK({ retrieved: ['a', 'b', 'c'], relevant: ['b', 'x'] }, 3).value // 0.3333333333333333
 */
export function precisionAtK(input: RetrievalCase, k: number, options: RetrievalOptions = {}): RetrievalScore {
  const norm = prepare('precisionAtK', input, k, options, RETRIEVAL_OPTION_KEYS)
  const value = precisionValue(norm, k)
  const details = rankingDetails(norm, k, (_rank, relevant) => (relevant ? 1 : 0))
  return retrievalScore(`P@${k}`, 'P', value, norm, [['k', k]], details)
}
