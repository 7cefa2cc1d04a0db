import {
  averagePrecision,
  evaluateRetrieval,
  hitRateAtK,
  MetricInputError,
  ndcgAtK,
  precisionAtK,
  rPrecision,
  recallAtK,
  reciprocalRank,
  relevantBySubstring,
  retrievalMetrics,
} from '../../../src/index.js'

describe('hand-computed values', () => {
  const c = { retrieved: ['d7', 'd2', 'd9'], relevant: { d2: 1, d4: 2 } }
  it('nDCG@3 with graded relevance (linear gain)', () => {
    // DCG = 1/log2(3); IDCG = 2 + 1/log2(3)
    expect(ndcgAtK(c, 3).value).toBeCloseTo(0.6309297535714575 / 2.6309297535714575, 15)
    expect(ndcgAtK(c, 3).signature).toBe('nDCG|k:3|gain:linear|empty:zero|dup:first|order:given|version:0.1.0')
  })
  it('nDCG@3 with exponential gain (ranx ndcg_burges example)', () => {
    const r = { retrieved: ['d3', 'd1', 'd2'], relevant: { d1: 0, d2: 1, d3: 2 } }
    expect(ndcgAtK(r, 3).value).toBeCloseTo(0.9502344167898356, 15)
    expect(ndcgAtK(r, 3, { gain: 'exponential' }).value).toBeCloseTo(0.9639404333166532, 15)
  })
  it('P, R, RR, AP, R-precision and hit rate', () => {
    const x = { retrieved: ['a', 'x', 'b', 'y'], relevant: ['a', 'b', 'c'] }
    expect(precisionAtK(x, 4).value).toBe(0.5)
    expect(recallAtK(x, 4).value).toBeCloseTo(2 / 3, 15)
    expect(reciprocalRank(x).value).toBe(1)
    expect(averagePrecision(x).value).toBeCloseTo((1 + 2 / 3) / 3, 15)
    expect(averagePrecision(x, 1).value).toBeCloseTo(1 / 3, 15)
    expect(rPrecision(x).value).toBeCloseTo(2 / 3, 15)
    expect(hitRateAtK(x, 1).value).toBe(1)
    expect(hitRateAtK({ retrieved: ['x', 'a'], relevant: ['a'] }, 1).value).toBe(0)
  })
  it('numbers and strings name the same id', () => {
    expect(precisionAtK({ retrieved: [1, 2], relevant: ['2'] }, 2).value).toBe(0.5)
  })
  it('duplicates: first occurrence by default, literal or refused on request', () => {
    const d = { retrieved: ['a', 'a', 'b'], relevant: ['a'] }
    expect(precisionAtK(d, 2).value).toBe(0.5)
    expect(precisionAtK(d, 2, { duplicates: 'literal' }).value).toBe(1)
    // literal counts every position: "a" found twice for one relevant id would be R@2 = 2, off the 0–1 scale
    expect(() => recallAtK(d, 2, { duplicates: 'literal' })).toThrow(/R@2 within 0–1 under duplicates: 'literal'.*"a".*R@2 = 2\.0000/)
    expect(recallAtK({ retrieved: ['a', 'a', 'b'], relevant: ['a', 'b'] }, 2, { duplicates: 'literal' }).value).toBe(1)
    expect(() => precisionAtK(d, 2, { duplicates: 'error' })).toThrow(MetricInputError)
    expect(precisionAtK(d, 2).details.duplicateIds).toEqual(['a'])
  })
  it('retrievalMetrics and evaluateRetrieval', () => {
    expect(retrievalMetrics(['a', 'b', 'c'], ['b'], 3)).toEqual({
      precision: 1 / 3,
      recall: 1,
      reciprocalRank: 0.5,
      ndcg: 1 / Math.log2(3),
      hitRate: 1,
    })
    const e = evaluateRetrieval(
      [
        { id: 'q1', retrieved: ['a'], relevant: ['a'] },
        { retrieved: ['b'], relevant: ['c'] },
      ],
      { k: 1 },
    )
    expect(e.mean).toEqual({ precision: 0.5, recall: 0.5, mrr: 0.5, ndcg: 0.5, hitRate: 0.5, map: 0.5 })
    expect(e.perQuery.map((q) => q.id)).toEqual(['q1', '#2'])
  })
})

describe('degenerate inputs', () => {
  it('empty relevant gives 0 everywhere', () => {
    const c = { retrieved: ['a'], relevant: [] as string[] }
    expect([precisionAtK(c, 1), recallAtK(c, 1), ndcgAtK(c, 1), averagePrecision(c), rPrecision(c)].map((s) => s.value)).toEqual([0, 0, 0, 0, 0])
  })
  it('empty retrieved gives 0 everywhere', () => {
    const c = { retrieved: [] as string[], relevant: ['a'] }
    expect([precisionAtK(c, 3), recallAtK(c, 3), ndcgAtK(c, 3), reciprocalRank(c), hitRateAtK(c, 3)].map((s) => s.value)).toEqual([0, 0, 0, 0, 0])
  })
  it('grades ≤ 0 are judged non-relevant', () => {
    expect(recallAtK({ retrieved: ['a', 'b'], relevant: { a: 0, b: -1, c: 2 } }, 2).value).toBe(0)
  })
})

describe('bad input names the argument', () => {
  it.each([
    [() => precisionAtK({ retrieved: ['a'], relevant: ['a'] }, 0), 'precisionAtK: Expected `k` to be a positive integer, got `0` (number)'],
    [() => ndcgAtK({ retrieved: ['a'], relevant: ['a'] }, 2.5), 'ndcgAtK: Expected `k` to be a positive integer, got `2.5` (number)'],
    [() => recallAtK({ retrieved: 'a' as never, relevant: ['a'] }, 1), 'recallAtK: Expected `retrieved` to be an array'],
    [() => recallAtK({ retrieved: ['a'], relevant: undefined as never }, 1), 'recallAtK: Expected `relevant` to be'],
    [() => recallAtK({ retrieved: ['a'], relevant: 'a' as never }, 1), 'not a single string'],
    [() => recallAtK({ retrieved: [{}] as never, relevant: ['a'] }, 1), 'Expected `retrieved[0]` to be an id'],
    [() => recallAtK({ retrieved: ['a'], relevant: { a: Number.NaN } }, 1), 'Expected `relevant["a"]` to be a finite grade'],
    [() => ndcgAtK({ retrieved: ['a'], relevant: ['a'] }, 1, { gain: 'log' as never }), "Expected `options.gain` to be 'linear' or 'exponential'"],
    [() => evaluateRetrieval([], { k: 3 }), 'Expected `cases` to be a non-empty array'],
  ])('%#', (call, text) => {
    expect(call).toThrow(MetricInputError)
    expect(call).toThrow(text)
  })
})

describe('relevantBySubstring', () => {
  const chunks = [
    { id: 'c1', text: 'Each layer uses h = 8 parallel attention heads.' },
    { id: 2, text: 'The model dimension is 512.' },
    { id: 'c3', text: 'Multi-Head attention' },
  ]
  it('matches case-insensitively by default and keeps id types', () => {
    expect(relevantBySubstring(chunks, 'H = 8')).toEqual(new Set(['c1']))
    expect(relevantBySubstring(chunks, '512')).toEqual(new Set([2]))
    expect(relevantBySubstring(chunks, 'attention')).toEqual(new Set(['c1', 'c3']))
  })
  it('can be case-sensitive', () => {
    expect(relevantBySubstring(chunks, 'Attention', { caseSensitive: true })).toEqual(new Set())
  })
  it('rejects an empty keyword', () => {
    expect(() => relevantBySubstring(chunks, '')).toThrow('Expected `keyword` to be a non-empty string')
  })
})
