/**
 * The root entry, `import { … } from 'rag-matchers'`: the curated public surface.
 *
 * Rule for what is listed here (explicit names only, never `export *`):
 * - values: the functions, classes and constants a user calls — metrics, embedders, judges, loaders,
 *   eval-set running and baselines, the error classes they throw, signatures and `VERSION`;
 * - types: only the types those values take and return (inputs, options, results). Detail types of
 *   individual results, enum-like unions and lower-level helpers live in the family entries
 *   (`rag-matchers/retrieval`, `/generation`, `/judge`, `/agreement`, `/eval-set`, `/report`;
 *   framework adapters, whose types name optional peers, only in `rag-matchers/adapters`).
 * Helpers (text/Python-compat functions, kernels, tokenizers, statistics internals, `makeScore`…)
 * stay internal: everything listed here is semver surface. Keep the root at about 150 names or
 * fewer, types included; `test/public-surface.test.ts` snapshots the runtime names.
 */

// Shared
export { VERSION } from './version.js'
export type { Score } from './score.js'
export type { EvalCase } from './eval-case.js'
export { buildSignature, parseSignature, signatureDifferences, type ParsedSignature } from './signature.js'

// Errors
export { MetricInputError } from './errors.js'
export { EmbeddingError } from './embeddings/errors.js'
export { JudgeError } from './judge/errors.js'
export { DatasetError } from './eval-set/load-dataset.js'
export { BaselineFileError } from './eval-set/baseline-file.js'
export { RatingsParseError } from './agreement/ratings.js'
export { TrecFormatError, TrecEvalError } from './retrieval/trec/errors.js'

// Retrieval
export type { Id, RetrievedItem, Relevance, RetrievalCase, RetrievalOptions, DuplicatePolicy, RetrievalOrder } from './retrieval/types.js'
export type { RetrievalScore } from './retrieval/ranking.js'
export { precisionAtK } from './retrieval/precision-at-k.js'
export { recallAtK } from './retrieval/recall-at-k.js'
export { reciprocalRank } from './retrieval/reciprocal-rank.js'
export { ndcgAtK, type NdcgOptions } from './retrieval/ndcg.js'
export { hitRateAtK } from './retrieval/hit-rate.js'
export { averagePrecision, rPrecision } from './retrieval/average-precision.js'
export { evaluateRetrieval, retrievalMetrics, type EvaluateRetrievalOptions, type RetrievalEvaluation, type RetrievalMetrics } from './retrieval/retrieval-metrics.js'
export { relevantBySubstring, type SubstringOptions } from './retrieval/relevant-by-substring.js'

// TREC (trec_eval)
export { parseRun, TrecRun, type TrecParseOptions } from './retrieval/trec/run.js'
export { parseQrels, TrecQrels } from './retrieval/trec/qrels.js'
export { trecEval, evaluateTrec, type TrecEvalOptions, type TrecEvalResult, type TrecEvalTable } from './retrieval/trec/evaluate.js'
export { formatTrecEval, type TrecFormatOptions } from './retrieval/trec/format.js'

// Generation
export { sentenceBleu, corpusBleu, type BleuOptions, type CorpusBleuOptions, type BleuScore } from './generation/bleu.js'
export { sentenceChrf, corpusChrf, type ChrfOptions, type CorpusChrfOptions, type ChrfScore } from './generation/chrf.js'
export { sentenceTer, corpusTer, type TerOptions, type CorpusTerOptions, type TerScore, type CorpusTerScore } from './generation/ter/ter.js'
export { pairedBootstrap, pairedApproxRandomization, type PairedTestResult } from './generation/significance/paired.js'
export { rougeScore, type RougeOptions, type RougeResult, type RougeScore, type RougeType } from './generation/rouge.js'
export { meteorScore, type MeteorOptions } from './generation/meteor.js'
export {
  numericConsistency,
  extractNumbers,
  type NumericConsistencyOptions,
  type NumericConsistencyDetails,
  type ExtractNumbersOptions,
  type NumberMention,
} from './generation/numeric-consistency.js'

// Embeddings and semantic similarity
export type { Embedder } from './embeddings/types.js'
export { cosineSimilarity } from './embeddings/similarity.js'
export { EmbeddingCache, embedTexts, type EmbedTextsOptions } from './embeddings/cache.js'
export { semanticSimilarity, semanticSimilarities, meanSemanticSimilarity, type SemanticSimilarityOptions, type EmbedSimDetails } from './embeddings/semantic-similarity.js'
export { transformersEmbedder, type TransformersEmbedderOptions } from './embeddings/transformers-embedder.js'
export { ollamaEmbedder, type OllamaEmbedderOptions } from './embeddings/ollama-embedder.js'
export { openaiEmbedder, type OpenAIEmbedderOptions } from './embeddings/openai-embedder.js'
export { functionEmbedder, type FunctionEmbedderOptions } from './embeddings/function-embedder.js'

// LLM judges
export type { Judge } from './judge/types.js'
export { judgeCache, type JudgeCache, type JudgeCacheOptions } from './judge/cache.js'
export { ollamaJudge, type OllamaJudgeOptions } from './judge/ollama-judge.js'
export { openaiJudge, type OpenAIJudgeOptions } from './judge/openai-judge.js'
export { functionJudge, type FunctionJudgeOptions } from './judge/function-judge.js'
export type { JudgeMetricOptions } from './judge/metrics/shared.js'
export { answerRelevance } from './judge/metrics/answer-relevance.js'
export { completeness } from './judge/metrics/completeness.js'
export { contextPrecision } from './judge/metrics/context-precision.js'
export { contextRecall } from './judge/metrics/context-recall.js'
export { contextUtilization } from './judge/metrics/context-utilization.js'
export { faithfulness, groundedness } from './judge/metrics/groundedness.js'
export { pairwiseJudge } from './judge/metrics/pairwise.js'
export { rubricScore } from './judge/metrics/rubric-score.js'
export { knowledgeRetention } from './judge/metrics/knowledge-retention.js'
export { conversationCompleteness } from './judge/metrics/conversation-completeness.js'
export type { Conversation, ConversationTurn } from './conversation/turns.js'

// Agreement statistics and human ratings
export type { Label } from './agreement/shared.js'
export { cohenKappa } from './agreement/cohen-kappa.js'
export { fleissKappa } from './agreement/fleiss-kappa.js'
export { krippendorffAlpha } from './agreement/krippendorff-alpha.js'
export { pearson, spearman, kendallTau, type CorrelationScore } from './agreement/correlation.js'
export { winRate, type WinCounts } from './agreement/win-rate.js'
export { bradleyTerry, type Comparison } from './agreement/bradley-terry.js'
export { loadRatings, parseRatings, type Ratings, type ScoreRating, type PairwiseRating, type ParseRatingsOptions } from './agreement/ratings.js'
export { agreementReport, type AgreementReportOptions } from './agreement/report.js'
export { metricAlignment, type MetricAlignmentOptions } from './agreement/alignment.js'

// Eval sets, metric runs and baselines
export { loadDataset, parseDataset, type Dataset, type EvalItem, type ParseDatasetOptions } from './eval-set/load-dataset.js'
export { runEvalSet, type EvalRun, type Pipeline, type PipelineContext, type PipelineOutput, type RunEvalSetOptions } from './eval-set/run-eval-set.js'
export { computeMetric, metricRunOf, type MetricValue } from './eval-set/metrics.js'
export type { MetricRun } from './eval-set/metric-run.js'
export { compareRuns, type CompareRunsOptions, type RunComparison } from './eval-set/compare-runs.js'
export { readBaselineFile, writeBaselineEntry, type BaselineEntry, type BaselineFile } from './eval-set/baseline-file.js'
