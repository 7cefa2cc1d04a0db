// Retrieval quality of the example pipeline, per question and for the whole set.
import { runExample } from './pipeline.js'

const cases = runExample()
const byId = Object.fromEntries(cases.map((c) => [c.id, c]))

describe('retrieval on the transformer-qa eval set', () => {
  it('every question has exactly one answering passage (keyword ground truth)', () => {
    for (const c of cases) expect([c.id, c.relevant.size]).toEqual([c.id, 1])
  })

  it.each(cases.filter((c) => c.id !== 'heads').map((c) => [c.id, c] as const))('%s: the answering passage is in the top 3', (_id, c) => {
    expect(c).toHitWithin(3)
    expect(c).toHaveRecallAtK(3, 1)
  })

  it('heads: the literal answer "h = 8" ranks below a passage about varying the number of heads', () => {
    const heads = byId.heads!
    expect(heads).not.toHitWithin(1)
    expect(heads).toHitWithin(3)
    expect(heads).toHaveMrrAbove(0.5)
    expect(heads).not.toHaveNdcgAtK(3, 0.7)
  })

  it('set-level metrics', () => {
    expect(cases).toHavePrecisionAtK(3, 0.3)
    expect(cases).toHaveRecallAtK(3, 1)
    expect(cases).toHaveMrrAbove(0.8)
    expect(cases).toHaveNdcgAtK(3, 0.8)
    expect(cases).toHaveHitRateAtK(3, 1)
  })
})
