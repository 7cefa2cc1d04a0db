// Type tests for the Vitest augmentation: compiled by `npm run test:types`, never executed.
import { expectTypeOf } from 'expect-type'
import { expect } from 'vitest'
import '../../../runners/vitest.js'
import { allMatchers } from '../../../runners/matchers.js'

const c = { retrieved: ['a', 'b'], relevant: ['a'] }

expect(c).toHaveNdcgAtK(3, 0.7)
expect(c).toHaveNdcgAtK(3, 0.7, { gain: 'exponential' })
expect(c).not.toHaveRecallAtK(3, 0.5)
expect([c, c]).toHaveMrrAbove(0.5)
expect(c).toHitWithin(3)
expect(c).toHaveMapAtK(3, 0.5)
expect(c).toHaveHitRateAtK(3, 1)
expect(c).toHavePrecisionAtK(3, 0.5)
expectTypeOf(expect(c).toHaveNdcgAtK(3, 0.7)).toBeVoid()

// @ts-expect-error k is a number
expect(c).toHaveNdcgAtK('3', 0.7)
// @ts-expect-error min is required
expect(c).toHaveRecallAtK(3)
// @ts-expect-error unknown gain
expect(c).toHaveNdcgAtK(3, 0.7, { gain: 'log' })
// @ts-expect-error toHitWithin takes only k
expect(c).toHitWithin(3, 0.5)

expect.extend(allMatchers)

// Generation matchers: the received type picks the form.
const answer = 'The big model scored 28.4 BLEU.'
const cases = [{ answer, reference: 'It scored 28.4.' }]
expect(answer).toScoreBleuAbove('It scored 28.4.', 30)
expect(answer).toScoreBleuAbove(['a', 'b'], 30, { tokenize: 'intl' })
expect(answer).toScoreRougeAbove('ref', 0.5, { type: 'rouge2', measure: 'recall' })
expect(answer).toScoreRougeLAbove('ref', 0.5)
expect(answer).toScoreMeteorAbove('ref', 0.5)
expect(answer).toScoreChrfAbove('ref', 50, { wordOrder: 2 })
expect(cases).toScoreBleuAbove(30)
expect(cases).toScoreRougeLAbove(0.5)
expect({ cases }).toScoreMeteorAbove(0.5)
expectTypeOf(expect(answer).toScoreBleuAbove('r', 30)).toBeVoid()
// @ts-expect-error unknown ROUGE type
expect(answer).toScoreRougeAbove('ref', 0.5, { type: 'rougeX' })

// Baselines
expect(cases).toMatchMetricBaseline('answers', { metrics: ['bleu', 'rougeL'], tolerance: 0.02 })
// @ts-expect-error the baseline needs a name
expect(cases).toMatchMetricBaseline({ metrics: ['bleu'] })

// Human-evaluation matchers (agreement, correlation with people, pairwise wins).
const humanRatings = [
  { item: 'q1', rater: 'ann', dimension: 'correctness', score: 4 },
  { item: 'q1', rater: 'bob', dimension: 'correctness', score: 5 },
]
expect(humanRatings).toHaveAgreementAbove(0.6, { statistic: 'cohen', weights: 'quadratic' })
expect(humanRatings).toHaveAgreementAbove(0.6, { statistic: 'cohen', raters: ['ann', 'bob'], dimension: 'correctness' })
expect(humanRatings).toHaveAgreementAbove(0.4, { statistic: 'fleiss' })
expect([
  [1, 2, null],
  [1, 3, 2],
]).not.toHaveAgreementAbove(0.8, { statistic: 'krippendorff', level: 'interval' })
expect([0.9, 0.4, 0.7]).toCorrelateWith([5, 2, 4], 0.5)
expect({ q1: 0.9, q2: 0.4 }).toCorrelateWith({ q1: 5, q2: 2 }, 0.5, { method: 'kendall' })
expect([{ item: 'q1', a: 'v2', b: 'v1', winner: 'a' }]).toWinAgainst('v1', { minRate: 0.5, confidence: 0.9, ties: 'half', system: 'v2' })
expect({ wins: 40, losses: 10, ties: 5 }).toWinAgainst('v1')
expectTypeOf(expect(humanRatings).toHaveAgreementAbove(0.6, { statistic: 'fleiss' })).toBeVoid()
// @ts-expect-error the statistic is required
expect(humanRatings).toHaveAgreementAbove(0.6)
// @ts-expect-error unknown statistic
expect(humanRatings).toHaveAgreementAbove(0.6, { statistic: 'scott' })
// @ts-expect-error weights apply to Cohen's kappa only
expect(humanRatings).toHaveAgreementAbove(0.6, { statistic: 'fleiss', weights: 'linear' })
// @ts-expect-error level applies to Krippendorff's alpha only
expect(humanRatings).toHaveAgreementAbove(0.6, { statistic: 'cohen', level: 'ordinal' })
// @ts-expect-error Cohen's kappa compares exactly two raters
expect(humanRatings).toHaveAgreementAbove(0.6, { statistic: 'cohen', raters: ['ann', 'bob', 'carl'] })
// @ts-expect-error humanScores come before min
expect([0.9, 0.4]).toCorrelateWith(0.5, [5, 2])
// @ts-expect-error unknown correlation method
expect([0.9, 0.4]).toCorrelateWith([5, 2], 0.5, { method: 'tau' })
// @ts-expect-error the baseline is a system name
expect({ wins: 4, losses: 1, ties: 0 }).toWinAgainst(0.5)
// @ts-expect-error unknown ties convention
expect({ wins: 4, losses: 1, ties: 0 }).toWinAgainst('v1', { ties: 'drop' })

// Every retrieval matcher takes the core's retrieval options; unknown keys do not compile.
expect(c).toHaveRecallAtK(3, 0.5, { duplicates: 'error' })
expect(c).toHavePrecisionAtK(3, 0.5, { duplicates: 'literal' })
expect(c).toHaveMrrAbove(0.5, { duplicates: 'first' })
expect(c).toHitWithin(3, { duplicates: 'literal' })
// @ts-expect-error unknown option key
expect(c).toHaveNdcgAtK(3, 0.5, { gian: 'exponential' })
// @ts-expect-error duplicates is one of 'first' | 'literal' | 'error'
expect(c).toHaveMapAtK(3, 0.5, { duplicates: 'all' })
