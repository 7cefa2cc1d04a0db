// Vitest in a Node ESM project (node16 resolution), resolving rag-matchers through its exports (dist/).
import { expect, test } from 'vitest'
import { describeEvalSet } from 'rag-matchers/vitest'
import { ndcgAtK } from 'rag-matchers'
import { recallAtK } from 'rag-matchers/retrieval'

const c = { retrieved: ['a', 'b'], relevant: ['a'] }
expect(c).toHaveNdcgAtK(3, 0.7)
expect(c).not.toHaveRecallAtK(3, 0.5)
expect([c, c]).toHaveMrrAbove(0.5)
expect({ cases: [c] }).toHitWithin(3)
expect({ run: c }).toEqual({ run: expect.toHaveNdcgAtK(3, 0.5) })
expect('The model scored 28.4.').toScoreBleuAbove('It scored 28.4.', 30)
expect([{ answer: 'a b', reference: 'a b' }]).toScoreRougeLAbove(0.5)
const score: number = ndcgAtK(c, 3).value
const recall: number = recallAtK(c, 3).value
expect(score + recall).toBeGreaterThan(0)

// Arguments and options are checked (the received type is not, under Vitest).
// @ts-expect-error k is a number
expect(c).toHaveNdcgAtK('3', 0.7)
// @ts-expect-error min is required
expect(c).toHaveRecallAtK(3)

export function untyped(value: unknown, anything: any, maybe: typeof c | undefined): void {
  expect(value).toHaveRecallAtK(3, 0.5)
  expect(anything).toHaveRecallAtK(3, 0.5)
  expect(maybe).toHaveRecallAtK(3, 0.5)
}

describeEvalSet('qa', { dataset: [{ id: 'q1', question: 'Who?', relevant: ['a'] }], pipeline: () => ({ retrieved: ['a'] }) }, (run) => {
  test('retrieves', () => expect(run).toHaveRecallAtK(3, 0.5))
  test('holds the baseline', () => expect(run).toMatchMetricBaseline('qa', { metrics: ['recall@3'] }))
})
