/**
 * The matcher functions `rag-matchers/matchers` exports by name, for a custom `expect.extend({ … })`.
 * Each is the registered matcher (allMatchers): the declaration's argument and option checks, core
 * input errors shown as Matcher errors, then the compute, recorded for the reporters. The family
 * files' own functions are the raw computes and are never exported from the entry, so no import path
 * skips the checks. A new matcher is added here too (a test compares this list with the declarations).
 */
import { allMatchers, type RegisteredMatcher } from './all.js'
export const toAgreeWithHumans: RegisteredMatcher = allMatchers.toAgreeWithHumans
export const toBeCompleteGiven: RegisteredMatcher = allMatchers.toBeCompleteGiven
export const toBeGroundedIn: RegisteredMatcher = allMatchers.toBeGroundedIn
export const toBePreferredOver: RegisteredMatcher = allMatchers.toBePreferredOver
export const toBeRelevantTo: RegisteredMatcher = allMatchers.toBeRelevantTo
export const toBeSemanticallySimilarTo: RegisteredMatcher = allMatchers.toBeSemanticallySimilarTo
export const toCorrelateWith: RegisteredMatcher = allMatchers.toCorrelateWith
export const toHaveAgreementAbove: RegisteredMatcher = allMatchers.toHaveAgreementAbove
export const toHaveContextRecall: RegisteredMatcher = allMatchers.toHaveContextRecall
export const toHaveHitRateAtK: RegisteredMatcher = allMatchers.toHaveHitRateAtK
export const toHaveMapAtK: RegisteredMatcher = allMatchers.toHaveMapAtK
export const toHaveMrrAbove: RegisteredMatcher = allMatchers.toHaveMrrAbove
export const toHaveNdcgAtK: RegisteredMatcher = allMatchers.toHaveNdcgAtK
export const toHavePrecisionAtK: RegisteredMatcher = allMatchers.toHavePrecisionAtK
export const toHaveRecallAtK: RegisteredMatcher = allMatchers.toHaveRecallAtK
export const toHitWithin: RegisteredMatcher = allMatchers.toHitWithin
export const toMatchMetricBaseline: RegisteredMatcher = allMatchers.toMatchMetricBaseline
export const toSatisfyRubric: RegisteredMatcher = allMatchers.toSatisfyRubric
export const toScoreBleuAbove: RegisteredMatcher = allMatchers.toScoreBleuAbove
export const toScoreChrfAbove: RegisteredMatcher = allMatchers.toScoreChrfAbove
export const toScoreMeteorAbove: RegisteredMatcher = allMatchers.toScoreMeteorAbove
export const toScoreRougeAbove: RegisteredMatcher = allMatchers.toScoreRougeAbove
export const toScoreRougeLAbove: RegisteredMatcher = allMatchers.toScoreRougeLAbove
export const toScoreTerBelow: RegisteredMatcher = allMatchers.toScoreTerBelow
export const toStateNumbersOf: RegisteredMatcher = allMatchers.toStateNumbersOf
export const toUtilizeContext: RegisteredMatcher = allMatchers.toUtilizeContext
export const toWinAgainst: RegisteredMatcher = allMatchers.toWinAgainst
export const toCallNoTools: RegisteredMatcher = allMatchers.toCallNoTools
export const toCallTool: RegisteredMatcher = allMatchers.toCallTool
export const toCallTools: RegisteredMatcher = allMatchers.toCallTools
export const toHaveToolCallF1: RegisteredMatcher = allMatchers.toHaveToolCallF1
export const toMakeAtMostToolCalls: RegisteredMatcher = allMatchers.toMakeAtMostToolCalls
export const toStayWithinBudget: RegisteredMatcher = allMatchers.toStayWithinBudget
export const toCompleteConversation: RegisteredMatcher = allMatchers.toCompleteConversation
export const toRetainKnowledge: RegisteredMatcher = allMatchers.toRetainKnowledge
