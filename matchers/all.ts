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
}

/** Async matchers: awaited, and never advertised as asymmetric matchers (runners call those synchronously). */
export const asyncMatcherNames: ReadonlySet<string> = new Set<string>([])
