import { reciprocalRankValue } from './kernels.js'
import { firstRelevantRank, prepare, RETRIEVAL_OPTION_KEYS, rankingDetails, retrievalScore, type RetrievalScore } from './ranking.js'
import type { RetrievalCase, RetrievalOptions } from './types.js'

/**
 * Reciprocal rank: 1 / rank of the first relevant id in the WHOLE ranking (no cutoff), 0 when none
 * is retrieved (trec_eval `recip_rank`, ranx `mrr`). The mean over queries is MRR.
 *
 * @example reciprocalRank({ retrieved: ['a', 'b', 'c'], relevant: ['c'] }).value // 0.3333333333333333
 */
export function reciprocalRank(input: RetrievalCase, options: RetrievalOptions = {}): RetrievalScore {
  const norm = prepare('reciprocalRank', input, undefined, options, RETRIEVAL_OPTION_KEYS)
  const first = firstRelevantRank(norm)
  const value = reciprocalRankValue(norm)
  const details = rankingDetails(norm, undefined, (rank) => (rank === first ? 1 / rank : 0))
  return retrievalScore('RR', 'RR', value, norm, [], details)
}
