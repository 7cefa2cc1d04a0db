import { hitRateValue } from './kernels.js'
import { prepare, RETRIEVAL_OPTION_KEYS, rankingDetails, retrievalScore, type RetrievalScore } from './ranking.js'
import type { RetrievalCase, RetrievalOptions } from './types.js'

/**
 * Hit rate at k: 1 when any relevant id is in the top k, else 0 (trec_eval `success_k`,
 * ranx `hit_rate@k`). Its mean over queries is the share of queries with a hit.
 *
 * @example hitRateAtK({ retrieved: ['a', 'b', 'c'], relevant: ['c'] }, 2).value // 0
 */
export function hitRateAtK(input: RetrievalCase, k: number, options: RetrievalOptions = {}): RetrievalScore {
  const norm = prepare('hitRateAtK', input, k, options, RETRIEVAL_OPTION_KEYS)
  const value = hitRateValue(norm, k)
  const details = rankingDetails(norm, k, (_rank, relevant) => (relevant ? 1 : 0))
  return retrievalScore(`HitRate@${k}`, 'HitRate', value, norm, [['k', k]], details)
}
