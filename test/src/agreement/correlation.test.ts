import fc from 'fast-check'
import { averageRanks, kendallTau, pearson, spearman } from '../../../src/agreement/correlation.js'
import { MetricInputError } from '../../../src/errors.js'

/** Brute-force tau-b over all pairs. */
function tauB(x: number[], y: number[]): number {
  let s = 0
  let tx = 0
  let ty = 0
  const n = x.length
  for (let i = 0; i < n; i += 1) {
    for (let j = i + 1; j < n; j += 1) {
      const dx = Math.sign(x[j]! - x[i]!)
      const dy = Math.sign(y[j]! - y[i]!)
      s += dx * dy
      if (dx === 0) tx += 1
      if (dy === 0) ty += 1
    }
  }
  const n0 = (n * (n - 1)) / 2
  return s / Math.sqrt((n0 - tx) * (n0 - ty))
}

function permutations(n: number): number[][] {
  if (n === 1) return [[0]]
  const out: number[][] = []
  for (const p of permutations(n - 1)) for (let k = 0; k <= p.length; k += 1) out.push([...p.slice(0, k), n - 1, ...p.slice(k)])
  return out
}

describe('averageRanks', () => {
  it('gives tied values their mean rank', () => {
    expect(averageRanks([10, 20, 20, 5])).toEqual([2, 3.5, 3.5, 1])
    expect(averageRanks([7, 7, 7])).toEqual([2, 2, 2])
  })
})

describe('spearman', () => {
  it('is Pearson on the ranks', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })), { minLength: 3, maxLength: 30 }), (pairs) => {
        const x = pairs.map((p) => p[0])
        const y = pairs.map((p) => p[1])
        fc.pre(new Set(x).size > 1 && new Set(y).size > 1)
        const rs = spearman(x, y).value
        expect(Math.abs(rs - pearson(averageRanks(x), averageRanks(y)).value)).toBeLessThan(1e-14)
      }),
      { numRuns: 150 },
    )
  })

  it('n = 4: the t test with 2 df gives p = 1 − |ρ| exactly', () => {
    // ρ = 1 − 6Σd²/(n(n²−1)) = 1 − 12/60 = 0.8
    const s = spearman([1, 2, 3, 4], [1, 3, 2, 4])
    expect(s.value).toBeCloseTo(0.8, 15)
    expect(s.details.pvalue).toBeCloseTo(0.2, 14)
    expect(s.details.pvalueMethod).toBe('t')
    expect(s.signature).toBe('Correlation|kind:spearman|n:4|pvalue:two-sided|version:0.1.0')
  })

  it('constant input and n = 2 are NaN with reasons', () => {
    const c = spearman([1, 2, 3], [4, 4, 4])
    expect(c.value).toBeNaN()
    expect(c.details.pvalue).toBeNaN()
    expect(c.details.reason).toMatch(/constant/)
    const two = spearman([1, 2], [3, 5])
    expect(two.value).toBeCloseTo(1, 15)
    expect(two.details.pvalue).toBeNaN()
    expect(two.details.reason).toMatch(/degrees of freedom/)
  })
})

describe('pearson', () => {
  it('n = 4 has a uniform null distribution: p = 1 − |r|; n = 3 the arcsine law', () => {
    const x = [1, 2, 3, 4]
    const y = [2, 1, 4, 3]
    const r = pearson(x, y)
    expect(r.value).toBeCloseTo(0.6, 15)
    expect(r.details.pvalue).toBeCloseTo(0.4, 14)
    const three = pearson([1, 2, 3], [1, 3, 2])
    expect(three.value).toBeCloseTo(0.5, 15)
    expect(three.details.pvalue).toBeCloseTo(1 - (2 / Math.PI) * Math.asin(0.5), 14)
  })

  it('n = 2 is ±1 with p = 1; constant input is NaN with a reason; fewer than 2 throws', () => {
    expect(pearson([1, 2], [5, 3]).value).toBe(-1)
    expect(pearson([1, 2], [5, 3]).details.pvalue).toBe(1)
    expect(pearson([1, 2, 3], [2, 2, 2]).details.reason).toMatch(/constant/)
    expect(() => pearson([1], [1])).toThrow(MetricInputError)
  })

  it('refuses bad input', () => {
    expect(() => pearson([1, 2, 3], [1, 2])).toThrow(/same length/)
    expect(() => pearson([1, Number.POSITIVE_INFINITY, 3], [1, 2, 3])).toThrow(/x\[1\]/)
    expect(() => spearman('123' as never, [1, 2, 3])).toThrow(MetricInputError)
  })
})

describe('kendallTau', () => {
  it('matches brute-force tau-b, ties included', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), { minLength: 3, maxLength: 60 }), (pairs) => {
        const x = pairs.map((p) => p[0])
        const y = pairs.map((p) => p[1])
        fc.pre(new Set(x).size > 1 && new Set(y).size > 1)
        expect(Math.abs(kendallTau(x, y).value - tauB(x, y))).toBeLessThan(1e-14)
      }),
      { numRuns: 150 },
    )
  })

  it('exact p-values equal the permutation distribution (n = 6, all 720 orders)', () => {
    const n = 6
    const x = [0, 1, 2, 3, 4, 5]
    const perms = permutations(n)
    const concordant = (p: number[]) => {
      let c = 0
      for (let i = 0; i < n; i += 1) for (let j = i + 1; j < n; j += 1) if (p[j]! > p[i]!) c += 1
      return c
    }
    const counts = perms.map(concordant)
    for (const y of [
      [0, 2, 1, 3, 5, 4],
      [5, 3, 4, 1, 0, 2],
      [2, 0, 4, 1, 5, 3],
    ]) {
      const c = concordant(y)
      const lower = Math.min(c, 15 - c)
      // two-sided: twice the probability of a result at least as far in the nearer tail
      const tail = counts.filter((k) => k <= lower).length / perms.length
      const k = kendallTau(x, y)
      expect(k.details.pvalueMethod).toBe('exact')
      expect(k.details.pvalue).toBeCloseTo(Math.min(1, 2 * tail), 14)
    }
  })

  it('uses the normal approximation with ties or n > 33', () => {
    expect(kendallTau([1, 1, 2, 3], [1, 2, 3, 4]).details.pvalueMethod).toBe('asymptotic')
    const x = Array.from({ length: 40 }, (_, i) => i)
    const y = x.map((v) => (v * 7) % 40)
    expect(kendallTau(x, y).details.pvalueMethod).toBe('asymptotic')
    // …except when at most one pair is discordant: exact 2/n! or 2/(n−1)!
    const almost = [...x]
    ;[almost[0], almost[1]] = [almost[1]!, almost[0]!]
    const k = kendallTau(x, almost)
    expect(k.details.pvalueMethod).toBe('exact')
    let f = 1
    for (let i = 2; i <= 39; i += 1) f *= i
    expect(k.details.pvalue / (2 / f)).toBeCloseTo(1, 12)
  })

  it('constant input is NaN with a reason; ties are reported', () => {
    const k = kendallTau([1, 2, 3], [0, 0, 0])
    expect(k.value).toBeNaN()
    expect(k.details.reason).toMatch(/constant/)
    expect(kendallTau([1, 1, 2, 2], [1, 2, 2, 3]).details.ties).toEqual({ x: 2, y: 1, both: 0 })
  })
})
