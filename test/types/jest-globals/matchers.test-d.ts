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
