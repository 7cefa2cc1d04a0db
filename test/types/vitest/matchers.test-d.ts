// Type tests for the Vitest augmentation: compiled by `npm run test:types`, never executed.
import { expectTypeOf } from 'expect-type'
import { expect } from 'vitest'
import '../../../matchers/vitest.js'
import { allMatchers } from '../../../matchers/index.js'

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
// @ts-expect-error an answer needs references
expect(answer).toScoreBleuAbove(30)
// @ts-expect-error an eval set takes only the threshold
expect(cases).toScoreBleuAbove('ref', 30)
// @ts-expect-error unknown ROUGE type
expect(answer).toScoreRougeAbove('ref', 0.5, { type: 'rougeX' })
