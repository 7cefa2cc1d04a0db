import { averagePrecision, hitRateAtK, ndcgAtK, precisionAtK, recallAtK, reciprocalRank } from '../../src/index.js'
import type { DuplicatePolicy } from '../../src/index.js'
import { loadFixture } from './fixtures/load.js'

interface SpecCase {
  id: string
  tags: string[]
  retrieved: string[]
  relevant: string[]
  k: number
  precision: number
  recall: number
  reciprocal_rank: number
  ndcg: number
  hit_rate: number
  average_precision_at_k: number
  average_precision: number
  if_deduplicated_first_occurrence?: Omit<SpecCase, 'id' | 'tags' | 'retrieved' | 'relevant' | 'k' | 'if_deduplicated_first_occurrence'>
}

const golden = loadFixture<{ spec_cases: SpecCase[] }>('retrieval.json')
const cases = golden.spec_cases
const TOL = 1e-12

function ours(c: SpecCase, duplicates: DuplicatePolicy) {
  const input = { retrieved: c.retrieved, relevant: c.relevant }
  const o = { duplicates }
  return {
    precision: precisionAtK(input, c.k, o).value,
    recall: recallAtK(input, c.k, o).value,
    reciprocal_rank: reciprocalRank(input, o).value,
    ndcg: ndcgAtK(input, c.k, o).value,
    hit_rate: hitRateAtK(input, c.k, o).value,
    average_precision_at_k: averagePrecision(input, c.k, o).value,
    average_precision: averagePrecision(input, undefined, o).value,
  }
}

const METRICS = ['precision', 'recall', 'reciprocal_rank', 'ndcg', 'hit_rate', 'average_precision_at_k', 'average_precision'] as const

describe('retrieval spec formulas match the golden transcription (cross-checked with trec_eval 10.0 and ranx)', () => {
  it('has all 300 public cases', () => {
    expect(cases).toHaveLength(300)
  })

  it.each(cases.map((c) => [c.id, c] as const))('%s with duplicates counted literally', (_id, c) => {
    const got = ours(c, 'literal')
    for (const m of METRICS) expect(Math.abs(got[m] - c[m]), `${m}: got ${got[m]}, want ${c[m]}`).toBeLessThanOrEqual(TOL)
  })

  it.each(cases.map((c) => [c.id, c] as const))('%s with the default first-occurrence policy', (_id, c) => {
    const want = c.if_deduplicated_first_occurrence ?? c
    const got = ours(c, 'first')
    for (const m of METRICS) expect(Math.abs(got[m] - want[m]), `${m}: got ${got[m]}, want ${want[m]}`).toBeLessThanOrEqual(TOL)
  })

  it('refuses duplicates under the trec_eval policy', () => {
    const dup = cases.find((c) => c.tags.includes('duplicates'))!
    expect(() => precisionAtK({ retrieved: dup.retrieved, relevant: dup.relevant }, dup.k, { duplicates: 'error' })).toThrow(/appears again at rank/)
  })
})
