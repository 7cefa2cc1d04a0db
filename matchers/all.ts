import * as embeddings from './embeddings.js'
import * as generation from './generation.js'
import * as retrieval from './retrieval.js'

/**
 * Every raw matcher function, ready for `expect.extend(allMatchers)`. Families register here.
 */
export const allMatchers = {
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
  toBeSemanticallySimilarTo: embeddings.toBeSemanticallySimilarTo,
}

/** Async matchers: awaited, and never advertised as asymmetric matchers (runners call those synchronously). */
export const asyncMatcherNames: ReadonlySet<string> = new Set<string>(['toBeSemanticallySimilarTo'])
