import { recallValue } from './kernels.js'
import { prepare, RETRIEVAL_OPTION_KEYS, rankingDetails, retrievalScore, type RetrievalScore } from './ranking.js'
import type { RetrievalCase, RetrievalOptions } from './types.js'

/**
 * Recall at k: relevant ids in the top k, divided by the number of relevant ids.
 *
 *   R@k = hits(k) / |relevant|     (0 when there are no relevant ids, as trec_eval and ranx)
 *
 * @example recallAtK({ retrieved: ['a', 'b', 'c'], relevant: ['b', 'x'] }, 3).value // 0.5
 */
export function recallAtK(input: RetrievalCase, k: number, options: RetrievalOptions = {}): RetrievalScore {
  const norm = prepare('recallAtK', input, k, options, RETRIEVAL_OPTION_KEYS)
  const value = recallValue(norm, k)
  const details = rankingDetails(norm, k, (_rank, relevant) => (relevant ? 1 : 0))
  return retrievalScore(
    `R@${k}`,
    'R',
    value,
    norm,
    [
      ['k', k],
      ['empty', 'zero'],
    ],
    details,
  )
}
