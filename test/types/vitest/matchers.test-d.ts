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
