export { DEFAULT_JUDGE_CACHE_DIR, JUDGE_CACHE_FORMAT, judgeCache, judgeCacheKey } from './cache.js'
export type { CacheRead, JudgeBackendIdentity, JudgeCache, JudgeCacheEntry, JudgeCacheMode, JudgeCacheOptions, JudgeCacheRequest } from './cache.js'
export { JudgeError, type JudgeErrorKind } from './errors.js'
export { ollamaJudge, type OllamaJudgeOptions } from './ollama-judge.js'
export { openaiJudge, type OpenAIJudgeOptions, type OpenAIOutputMode } from './openai-judge.js'
export { functionJudge, type FunctionJudgeOptions, type FunctionJudgeRequest, type FunctionJudgeResult } from './function-judge.js'
export type { JsonSchema, JsonType, Judge, JudgeReply, JudgeRequest, JudgeTokenUsage } from './types.js'
export * from './templates/index.js'
export { answerRelevance, type AnswerRelevanceDetails, type AnswerRelevanceOptions, type StatementRelevance } from './metrics/answer-relevance.js'
export { completeness, type CompletenessDetails, type CompletenessOptions, type CompletenessSource, type KeyPointJudgement } from './metrics/completeness.js'
export { contextPrecision, type ContextPrecisionDetails, type RankedChunkRelevance } from './metrics/context-precision.js'
export { contextRecall, type ContextRecallDetails, type ContextRecallOptions, type StatementAttribution } from './metrics/context-recall.js'
export { contextUtilization, type ChunkUse, type ContextUtilizationDetails, type ContextUtilizationOptions } from './metrics/context-utilization.js'
export { faithfulness, groundedness, type ClaimJudgement, type ClaimVerdict, type GroundednessDetails, type GroundednessOptions } from './metrics/groundedness.js'
export { pairwiseJudge, type PairwiseDetails, type PairwiseOptions, type PairwiseOrderVerdict, type PairwiseWinner } from './metrics/pairwise.js'
export { rubricScore, type Rubric, type RubricDetails, type RubricScoreOptions } from './metrics/rubric-score.js'
export {
  MAX_REPEAT,
  repeatPassRate,
  sumUsage,
  type CallStats,
  type JudgeUsage,
  type Consistency,
  type ContextInput,
  type EmptyPolicy,
  type JudgeDetailsBase,
  type JudgeMetricOptions,
} from './metrics/shared.js'
