// The received type: a matcher on a value it can never accept is a type error; valid forms still check.
import '../../../runners/jest.js'

const c = { retrieved: ['a', 'b'], relevant: ['a'] }
expect(c).toHaveRecallAtK(3, 0.5)
expect([c]).not.toHitWithin(1)
expect('The answer.').toScoreBleuAbove('The answer.', 30)
expect([{ item: 'q1', rater: 'ann', score: 4 }]).toHaveAgreementAbove(0.5, { statistic: 'krippendorff' })

// @ts-expect-error a retrieval matcher on a number
expect(42).toHaveRecallAtK(3, 0.5)
// @ts-expect-error nor under .not
expect(42).not.toHaveRecallAtK(3, 0.5)
// @ts-expect-error a string is not a ranking
expect('d1').toHitWithin(3)
// @ts-expect-error a generation matcher on a number
expect(28.4).toScoreBleuAbove('28.4', 30)
// @ts-expect-error the numeric check on a boolean
expect(true).toStateNumbersOf('28.4')
// @ts-expect-error a baseline needs an eval run
expect(0.9).toMatchMetricBaseline('qa', { metrics: ['recall@3'] })
// @ts-expect-error agreement needs ratings
expect('ann').toHaveAgreementAbove(0.5)

export function untyped(value: unknown, anything: any, maybe: typeof c | undefined): void {
  expect(value).toHaveRecallAtK(3, 0.5)
  expect(anything).toHaveRecallAtK(3, 0.5)
  expect(maybe).toHaveRecallAtK(3, 0.5)
  expect(value).toScoreBleuAbove('ref', 30)
}
