/**
 * `rag-matchers/judge`: LLM-as-judge metrics (groundedness/faithfulness, answer relevance, context
 * precision/recall/utilization, completeness, rubric scores, pairwise comparison), the Ollama judge,
 * the judge-reply cache, and the `Judge` interface for plugging in another model. Curated: prompt
 * templates, rendering, schema validation and hashing stay internal.
 */
export type { Score } from '../score.js'
export { MetricInputError } from '../errors.js'
export type { JsonSchema, JsonType, Judge, JudgeReply, JudgeRequest, JudgeTokenUsage } from './types.js'
export { JudgeError, type JudgeErrorKind } from './errors.js'
export { ollamaJudge, type OllamaJudgeOptions } from './ollama-judge.js'
export { openaiJudge, type OpenAIJudgeOptions, type OpenAIOutputMode } from './openai-judge.js'
export { functionJudge, type FunctionJudgeOptions, type FunctionJudgeRequest, type FunctionJudgeResult } from './function-judge.js'
export {
  judgeCache,
  judgeCacheKey,
  DEFAULT_JUDGE_CACHE_DIR,
  type CacheRead,
  type JudgeBackendIdentity,
  type JudgeCache,
  type JudgeCacheEntry,
  type JudgeCacheMode,
  type JudgeCacheOptions,
  type JudgeCacheRequest,
} from './cache.js'
export {
  repeatPassRate,
  type CallStats,
  type JudgeUsage,
  type Consistency,
  type ContextInput,
  type EmptyPolicy,
  type JudgeDetailsBase,
  type JudgeMetricOptions,
} from './metrics/shared.js'
export { answerRelevance, type AnswerRelevanceDetails, type StatementRelevance } from './metrics/answer-relevance.js'
export { completeness, type CompletenessDetails, type CompletenessOptions, type CompletenessSource, type KeyPointJudgement } from './metrics/completeness.js'
export { contextPrecision, type ContextPrecisionDetails, type RankedChunkRelevance } from './metrics/context-precision.js'
export { contextRecall, type ContextRecallDetails, type ContextRecallOptions, type StatementAttribution } from './metrics/context-recall.js'
export { contextUtilization, type ChunkUse, type ContextUtilizationDetails, type ContextUtilizationOptions } from './metrics/context-utilization.js'
export { faithfulness, groundedness, type ClaimJudgement, type ClaimVerdict, type GroundednessDetails, type GroundednessOptions } from './metrics/groundedness.js'
export { pairwiseJudge, type PairwiseDetails, type PairwiseOptions, type PairwiseOrderVerdict, type PairwiseWinner } from './metrics/pairwise.js'
export { rubricScore, type Rubric, type RubricDetails, type RubricScoreOptions } from './metrics/rubric-score.js'
export { knowledgeRetention, type KnowledgeRetentionDetails, type KnowledgeRetentionOptions, type TurnRetention } from './metrics/knowledge-retention.js'
export {
  conversationCompleteness,
  type ConversationCompletenessDetails,
  type ConversationCompletenessOptions,
  type RequestJudgement,
} from './metrics/conversation-completeness.js'
export type { Conversation, ConversationTurn } from '../conversation/turns.js'
export { trialStatistics, expectedFlipRate, type TrialCase, type TrialStatistics, type TrialAgreement } from './trials.js'
