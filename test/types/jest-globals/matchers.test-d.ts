// Type tests for `@jest/globals` users (the `expect` package's Matchers).
import { expect } from '@jest/globals'
import { expectTypeOf } from 'expect-type'
import '../../../matchers/jest-globals.js'

const c = { retrieved: ['a', 'b'], relevant: ['a'] }

expect(c).toHaveNdcgAtK(3, 0.7)
expect(c).not.toHaveRecallAtK(3, 0.5)
expect(c).toHitWithin(3)
expectTypeOf(expect(c).toHaveNdcgAtK(3, 0.7)).toBeVoid()
expect({ run: c }).toEqual({ run: expect.toHaveNdcgAtK(3, 0.5) })

// @ts-expect-error k is a number
expect(c).toHaveNdcgAtK('3', 0.7)
// @ts-expect-error min is required
expect(c).toHaveMapAtK(3)

const answer = 'The big model scored 28.4 BLEU.'
const cases = [{ answer, reference: 'It scored 28.4.' }]
expect(answer).toScoreBleuAbove('It scored 28.4.', 30)
expect(cases).toScoreRougeLAbove(0.5)
// @ts-expect-error an answer needs references
expect(answer).toScoreMeteorAbove(0.5)
// @ts-expect-error an eval set takes only the threshold
expect(cases).toScoreChrfAbove('ref', 30)
