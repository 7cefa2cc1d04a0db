// Under Vitest the augmentation has no type parameters (it must merge with Vitest 4's Assertion<T> and
// Vitest 5's Assertion<R, T>), so the received type is not checked: every form compiles, for every
// received type, and the runtime check names the wrong value. The Jest type tests keep the received-type errors.
import { expect } from 'vitest'
import '../../../runners/vitest.js'

const c = { retrieved: ['a', 'b'], relevant: ['a'] }
expect(c).toHaveRecallAtK(3, 0.5)
expect([c]).not.toHitWithin(1)
expect('The answer.').toScoreBleuAbove('The answer.', 30)
expect([{ item: 'q1', rater: 'ann', score: 4 }]).toHaveAgreementAbove(0.5, { statistic: 'krippendorff' })

export function untyped(value: unknown, anything: any, maybe: typeof c | undefined): void {
  expect(value).toHaveRecallAtK(3, 0.5)
  expect(anything).toHaveRecallAtK(3, 0.5)
  expect(maybe).toHaveRecallAtK(3, 0.5)
  expect(value).toScoreBleuAbove('ref', 30)
}
