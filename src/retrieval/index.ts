export * from './types.js'
export { normalizeCase, normalizeRelevance, type NormalizedCase } from './normalize.js'
export type { RankRow, RankingDetails, RetrievalScore } from './ranking.js'
export { precisionAtK } from './precision-at-k.js'
export { recallAtK } from './recall-at-k.js'
export { reciprocalRank } from './reciprocal-rank.js'
export { ndcgAtK, type NdcgGain, type NdcgOptions } from './ndcg.js'
export { hitRateAtK } from './hit-rate.js'
export { averagePrecision, rPrecision } from './average-precision.js'
export {
  evaluateRetrieval,
  retrievalMetrics,
  type EvaluateRetrievalOptions,
  type PerQueryRetrieval,
  type RetrievalEvaluation,
  type RetrievalMetrics,
} from './retrieval-metrics.js'
export { relevantBySubstring, type SubstringOptions } from './relevant-by-substring.js'
