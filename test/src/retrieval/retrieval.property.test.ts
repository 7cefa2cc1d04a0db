import fc from 'fast-check'
import { averagePrecision, hitRateAtK, ndcgAtK, precisionAtK, recallAtK, reciprocalRank } from '../../../src/index.js'

const idArb = fc.integer({ min: 0, max: 30 }).map((n) => `d${n}`)
const caseArb = fc.record({
  retrieved: fc.array(idArb, { maxLength: 40 }),
  relevant: fc.uniqueArray(idArb, { maxLength: 10 }),
})
const kArb = fc.integer({ min: 1, max: 50 })

describe('retrieval metric properties', () => {
  it('every value lies in [0, 1] under the default duplicate policy', () => {
    fc.assert(
      fc.property(caseArb, kArb, (c, k) => {
        for (const v of [
          precisionAtK(c, k).value,
          recallAtK(c, k).value,
          reciprocalRank(c).value,
          ndcgAtK(c, k).value,
          hitRateAtK(c, k).value,
          averagePrecision(c, k).value,
          averagePrecision(c).value,
        ]) {
          expect(v).toBeGreaterThanOrEqual(0)
          expect(v).toBeLessThanOrEqual(1 + 1e-12)
        }
      }),
    )
  })

  it('recall@k never decreases as k grows', () => {
    fc.assert(
      fc.property(caseArb, kArb, (c, k) => {
        expect(recallAtK(c, k + 1).value).toBeGreaterThanOrEqual(recallAtK(c, k).value)
      }),
    )
  })

  it('precision@k > 0 implies hit rate@k = 1, and hit rate ≥ precision', () => {
    fc.assert(
      fc.property(caseArb, kArb, (c, k) => {
        const p = precisionAtK(c, k).value
        const h = hitRateAtK(c, k).value
        expect(h).toBeGreaterThanOrEqual(p)
        if (p > 0) expect(h).toBe(1)
      }),
    )
  })

  it('graded nDCG with every grade 1 equals binary nDCG, for both gains', () => {
    fc.assert(
      fc.property(caseArb, kArb, (c, k) => {
        const graded = Object.fromEntries(c.relevant.map((id) => [id, 1]))
        const binary = ndcgAtK(c, k).value
        expect(ndcgAtK({ retrieved: c.retrieved, relevant: graded }, k).value).toBe(binary)
        expect(ndcgAtK({ retrieved: c.retrieved, relevant: graded }, k, { gain: 'exponential' }).value).toBe(binary)
        expect(ndcgAtK({ retrieved: c.retrieved, relevant: new Map(Object.entries(graded)) }, k).value).toBe(binary)
      }),
    )
  })

  it('reciprocal rank is 1/rank of the first relevant id, regardless of k', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const rel = new Set(c.relevant)
        const seen = new Set<string>()
        const deduped = c.retrieved.filter((id) => (seen.has(id) ? false : (seen.add(id), true)))
        const i = deduped.findIndex((id) => rel.has(id))
        expect(reciprocalRank(c).value).toBe(i < 0 ? 0 : 1 / (i + 1))
      }),
    )
  })
})
