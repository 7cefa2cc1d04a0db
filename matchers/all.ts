import * as agreement from './agreement.js'
import * as baseline from './baseline.js'
import * as embeddings from './embeddings.js'
import * as generation from './generation.js'
import * as numeric from './numeric.js'
import * as judge from './judge.js'
import * as retrieval from './retrieval.js'
import { withRecording } from './record.js'

/**
 * Every raw matcher function, ready for `expect.extend(allMatchers)`. Families register here.
 * `withRecording` hands each result's `meta` to the rag-matchers reporters (record.ts); it changes no result.
 */
export const allMatchers = withRecording({
  toHavePrecisionAtK: retrieval.toHavePrecisionAtK,
  toHaveRecallAtK: retrieval.toHaveRecallAtK,
  toHaveMrrAbove: retrieval.toHaveMrrAbove,
  toHaveNdcgAtK: retrieval.toHaveNdcgAtK,
  toHaveMapAtK: retrieval.toHaveMapAtK,
  toHitWithin: retrieval.toHitWithin,
  toHaveHitRateAtK: retrieval.toHaveHitRateAtK,
  toScoreBleuAbove: generation.toScoreBleuAbove,
  toScoreChrfAbove: generation.toScoreChrfAbove,
  toScoreRougeAbove: generation.toScoreRougeAbove,
  toScoreRougeLAbove: generation.toScoreRougeLAbove,
  toScoreMeteorAbove: generation.toScoreMeteorAbove,
  toStateNumbersOf: numeric.toStateNumbersOf,
  toBeSemanticallySimilarTo: embeddings.toBeSemanticallySimilarTo,
  toBeGroundedIn: judge.toBeGroundedIn,
  toBeCompleteGiven: judge.toBeCompleteGiven,
  toUtilizeContext: judge.toUtilizeContext,
  toHaveContextRecall: judge.toHaveContextRecall,
  toBeRelevantTo: judge.toBeRelevantTo,
  toSatisfyRubric: judge.toSatisfyRubric,
  toBePreferredOver: judge.toBePreferredOver,
  toMatchMetricBaseline: baseline.toMatchMetricBaseline,
  toHaveAgreementAbove: agreement.toHaveAgreementAbove,
  toCorrelateWith: agreement.toCorrelateWith,
  toWinAgainst: agreement.toWinAgainst,
})

/** Async matchers: awaited, and never advertised as asymmetric matchers (runners call those synchronously). */
export const asyncMatcherNames: ReadonlySet<string> = new Set<string>([
  'toBeSemanticallySimilarTo',
  'toBeGroundedIn',
  'toBeCompleteGiven',
  'toUtilizeContext',
  'toHaveContextRecall',
  'toBeRelevantTo',
  'toSatisfyRubric',
  'toBePreferredOver',
])
