/**
 * Raw matcher functions for a custom `expect.extend`, plus configuration. Importing this module has
 * no side effects; `rag-matchers/vitest` and `rag-matchers/jest` register everything for you.
 */
export { allMatchers, asyncMatcherNames } from './all.js'
// Named matcher functions are the checked ones; these explicit exports shadow the raw computes of `export *` below.
export {
  toAgreeWithHumans,
  toBeCompleteGiven,
  toBeGroundedIn,
  toBePreferredOver,
  toBeRelevantTo,
  toBeSemanticallySimilarTo,
  toCorrelateWith,
  toHaveAgreementAbove,
  toHaveContextRecall,
  toHaveHitRateAtK,
  toHaveMapAtK,
  toHaveMrrAbove,
  toHaveNdcgAtK,
  toHavePrecisionAtK,
  toHaveRecallAtK,
  toHitWithin,
  toMatchMetricBaseline,
  toSatisfyRubric,
  toScoreBleuAbove,
  toScoreChrfAbove,
  toScoreMeteorAbove,
  toScoreRougeAbove,
  toScoreRougeLAbove,
  toScoreTerBelow,
  toStateNumbersOf,
  toUtilizeContext,
  toWinAgainst,
  toCallNoTools,
  toCallTool,
  toCallTools,
  toHaveToolCallF1,
  toMakeAtMostToolCalls,
  toStayWithinBudget,
  toCompleteConversation,
  toRetainKnowledge,
} from './checked.js'
export * from './retrieval.js'
export * from './generation.js'
export * from './numeric.js'
export * from './judge.js'
export * from './embeddings.js'
export * from './baseline.js'
export * from './agreement.js'
export * from './agent.js'
export * from './agent-budget.js'
export * from './conversation.js'
export { configure, getConfig, resetConfig, type RagMatchersConfig } from './config.js'
export type { MatcherContext, MatcherMeta, MatcherResult } from './context.js'
export type { RagAsymmetricMatchers, RagMatchers } from './types.js'
export { MatcherUsageError } from './validate.js'
