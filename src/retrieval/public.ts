/**
 * `rag-matchers/retrieval`: ranked-retrieval metrics (precision/recall@k, MRR, nDCG, hit rate, AP,
 * R-precision), batch evaluation, substring ground truth, and the trec_eval-compatible TREC
 * parsing/evaluation/formatting. Curated: helpers (normalisation, kernels, byte parsing) stay internal.
 */
export type { Score } from '../score.js'
export { MetricInputError } from '../errors.js'
export type { Id, RetrievedItem, Relevance, RetrievalCase, RetrievalOptions, DuplicatePolicy, RetrievalOrder } from './types.js'
export type { RankRow, RankingDetails, RetrievalScore } from './ranking.js'
export { precisionAtK } from './precision-at-k.js'
export { recallAtK } from './recall-at-k.js'
export { reciprocalRank } from './reciprocal-rank.js'
export { ndcgAtK, type NdcgDetails, type NdcgGain, type NdcgOptions } from './ndcg.js'
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

// TREC (trec_eval 10.0)
export { parseRun, TrecRun, type TrecParseOptions } from './trec/run.js'
export { parseQrels, TrecQrels, type QrelsTopic } from './trec/qrels.js'
export { parseRunStream, parseQrelsStream, type TrecSource } from './trec/stream.js'
export { trecEval, evaluateTrec, type TrecEvalOptions, type TrecEvalResult, type TrecEvalTable, type TrecEvalColumn } from './trec/evaluate.js'
export { formatTrecEval, trecEvalLines, type TrecFormatOptions } from './trec/format.js'
export { MEASURE_SETS as TREC_MEASURE_SETS } from './trec/measures.js'
export { TrecFormatError, TrecEvalError, type TrecEvalErrorCode } from './trec/errors.js'
