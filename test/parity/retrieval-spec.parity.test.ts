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
  // duplicates: 'literal' refuses (MetricInputError) a ranking whose literal count would leave 0–1; NaN marks it
  const value = (f: () => { value: number }) => {
    try {
      return f().value
    } catch (error) {
      if (duplicates === 'literal' && /within 0–1 under duplicates: 'literal'/.test((error as Error).message)) return Number.NaN
      throw error
    }
  }
  return {
    precision: value(() => precisionAtK(input, c.k, o)),
    recall: value(() => recallAtK(input, c.k, o)),
    reciprocal_rank: value(() => reciprocalRank(input, o)),
    ndcg: value(() => ndcgAtK(input, c.k, o)),
    hit_rate: value(() => hitRateAtK(input, c.k, o)),
    average_precision_at_k: value(() => averagePrecision(input, c.k, o)),
    average_precision: value(() => averagePrecision(input, undefined, o)),
  }
}

const METRICS = ['precision', 'recall', 'reciprocal_rank', 'ndcg', 'hit_rate', 'average_precision_at_k', 'average_precision'] as const

describe('retrieval spec formulas match the golden transcription (cross-checked with trec_eval 10.0 and ranx)', () => {
  it('has all 300 public cases', () => {
    expect(cases).toHaveLength(300)
  })

  it.each(cases.map((c) => [c.id, c] as const))('%s with duplicates counted literally', (_id, c) => {
    const got = ours(c, 'literal')
    // the golden value where it is on the 0–1 scale; a refusal exactly where the transcription leaves it
    for (const m of METRICS) {
      if (c[m] > 1) expect(got[m], `${m}: golden ${c[m]} is above 1, so the input is refused`).toBeNaN()
      else expect(Math.abs(got[m] - c[m]), `${m}: got ${got[m]}, want ${c[m]}`).toBeLessThanOrEqual(TOL)
    }
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
