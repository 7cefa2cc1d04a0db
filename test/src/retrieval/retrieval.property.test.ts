import fc from 'fast-check'
import {
  averagePrecision,
  evaluateRetrieval,
  hitRateAtK,
  ndcgAtK,
  precisionAtK,
  rPrecision,
  recallAtK,
  reciprocalRank,
  retrievalMetrics,
  type DuplicatePolicy,
} from '../../../src/index.js'

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

  // Issue #27: duplicates: 'literal' counts every position, so a repeated relevant id used to push recall, AP
  // and nDCG above 1. Every metric, every policy, on rankings drawn from a few ids (so duplicates are common):
  // a value in [0, 1], or a MetricInputError (a repeat under 'error', or 'literal' past 1) — never a value above 1.
  it('every metric stays in [0, 1] under every duplicates policy, on rankings with duplicates', () => {
    const fewIds = fc.integer({ min: 0, max: 4 }).map((n) => `d${n}`)
    const dupCase = fc.record({
      retrieved: fc.array(fewIds, { maxLength: 12 }),
      relevant: fc.oneof(fc.uniqueArray(fewIds, { maxLength: 4 }), fc.dictionary(fewIds, fc.integer({ min: -1, max: 4 }), { maxKeys: 4 })),
    })
    const policy = fc.constantFrom<DuplicatePolicy>('first', 'literal', 'error')
    const gain = fc.constantFrom('linear' as const, 'exponential' as const)
    let refusedAboveOne = 0
    fc.assert(
      fc.property(dupCase, fc.integer({ min: 1, max: 14 }), policy, gain, (c, k, duplicates, g) => {
        const o = { duplicates }
        const metrics: Array<[string, () => number]> = [
          ['P', () => precisionAtK(c, k, o).value],
          ['R', () => recallAtK(c, k, o).value],
          ['RR', () => reciprocalRank(c, o).value],
          ['nDCG', () => ndcgAtK(c, k, { ...o, gain: g }).value],
          ['HitRate', () => hitRateAtK(c, k, o).value],
          ['AP@k', () => averagePrecision(c, k, o).value],
          ['AP', () => averagePrecision(c, undefined, o).value],
          ['RPrec', () => rPrecision(c, o).value],
          ['metrics', () => Math.max(...Object.values(retrievalMetrics(c.retrieved, c.relevant, k, { ...o, gain: g })))],
          ['evaluate', () => Math.max(...Object.values(evaluateRetrieval([c], { k, ...o, gain: g }).mean))],
        ]
        for (const [name, value] of metrics) {
          let v: number
          try {
            v = value()
          } catch (error) {
            expect([name, (error as Error).name]).toEqual([name, 'MetricInputError'])
            const message = (error as Error).message
            if (duplicates === 'first') throw error
            if (duplicates === 'literal') {
              expect(message).toContain("within 0–1 under duplicates: 'literal'")
              refusedAboveOne += 1
            }
            continue
          }
          expect([name, duplicates, v >= 0 && v <= 1]).toEqual([name, duplicates, true])
        }
      }),
      { seed: 27, numRuns: 400 },
    )
    // the generator does reach the refusal (the class is generated, not just tolerated)
    expect(refusedAboveOne).toBeGreaterThan(0)
  })
})
