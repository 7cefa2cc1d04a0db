import { MetricInputError } from '../../../src/errors.js'
import { mulberry32, pairedBootstrap, quantileSorted, signFlipTest, smallestAttainableP, fewestCasesToReach } from '../../../src/eval-set/statistics.js'

// The expected numbers below were computed by hand from the definitions in statistics.ts. The
// generator's outputs come from an independent Python implementation of mulberry32
// (32-bit state += 0x6D2B79F5; two xorshift-multiply rounds; u32 / 2^32), not from our code.
const MULBERRY32_SEED_42 = [
  0.6011037519201636, 0.44829055899754167, 0.8524657934904099, 0.6697340414393693, 0.17481389874592423, 0.5265925421845168, 0.2732279943302274, 0.6247446539346129,
  0.8654746483080089, 0.4723170551005751, 0.24992373422719538, 0.8820588334929198,
]

describe('mulberry32', () => {
  it('produces the reference sequence for seed 42', () => {
    const next = mulberry32(42)
    expect(MULBERRY32_SEED_42.map(() => next())).toEqual(MULBERRY32_SEED_42)
  })
  it('is deterministic per seed and differs between seeds', () => {
    const a = mulberry32(7)
    const b = mulberry32(7)
    const c = mulberry32(8)
    const xs = Array.from({ length: 5 }, () => a())
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs)
    expect(Array.from({ length: 5 }, () => c())).not.toEqual(xs)
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true)
  })
  it('refuses a non-integer seed', () => {
    expect(() => mulberry32(1.5)).toThrow(MetricInputError)
  })
})

describe('quantileSorted (type 7)', () => {
  it('interpolates between order statistics like numpy', () => {
    expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5)
    expect(quantileSorted([1, 2, 3, 4], 0)).toBe(1)
    expect(quantileSorted([1, 2, 3, 4], 1)).toBe(4)
    expect(quantileSorted([10, 20], 0.25)).toBe(12.5)
    expect(quantileSorted([], 0.5)).toBeNaN()
  })
})

describe('pairedBootstrap', () => {
  it('matches a hand computation on d = [-1, -4, 2], B = 4, seed 42', () => {
    // Draws ⌊u·3⌋ from the reference sequence: (1,1,2) (2,0,1) (0,1,2) (1,0,2)
    // → resample sums −6, −3, −3, −3. Observed S = −3, so "as low as the observation" is S*_b ≤ 2S = −6:
    // one resample (a tie) → p = (1 + 1) / (4 + 1) = 0.4.
    // Means −2, −1, −1, −1; 95 % interval: h = 3·0.025 = 0.075 → −2 + 0.075·1 = −1.925; h = 2.925 → −1.
    const r = pairedBootstrap([-1, -4, 2], { resamples: 4, seed: 42 })
    expect(r.n).toBe(3)
    expect(r.meanDelta).toBe(-1)
    expect(r.pValue).toBe(0.4)
    expect(r.ci[0]).toBeCloseTo(-1.925, 12)
    expect(r.ci[1]).toBe(-1)
    expect(r.method).toBe('paired-bootstrap')
  })
  it('gives p = 1/(B+1) for a constant drop and p = 1 for no change', () => {
    const drop = pairedBootstrap([-0.2, -0.2, -0.2, -0.2], { resamples: 999 })
    expect(drop.pValue).toBe(1 / 1000)
    expect(drop.ci[0]).toBeCloseTo(-0.2, 12)
    expect(drop.ci[1]).toBeCloseTo(-0.2, 12)
    expect(pairedBootstrap([0, 0, 0], { resamples: 99 }).pValue).toBe(1)
  })
  it('gives p near 1 for an improvement', () => {
    expect(pairedBootstrap([0.1, 0.3, 0.2, 0.4, 0.2], { resamples: 2000 }).pValue).toBeGreaterThan(0.99)
  })
  it('is deterministic for a seed', () => {
    const d = [-0.3, 0.1, -0.2, 0.05, -0.4, 0.2, -0.1, 0, -0.25, 0.15]
    expect(pairedBootstrap(d, { seed: 3 })).toEqual(pairedBootstrap(d, { seed: 3 }))
    expect(pairedBootstrap(d, { seed: 3 }).pValue).not.toBe(pairedBootstrap(d, { seed: 4 }).pValue)
  })
  it('validates its input', () => {
    expect(() => pairedBootstrap([])).toThrow('pairedBootstrap: Expected `diffs` to be a non-empty array of finite numbers')
    expect(() => pairedBootstrap([0.1, Number.NaN])).toThrow('Expected `diffs[1]` to be a finite number')
    expect(() => pairedBootstrap([0.1], { resamples: 0 })).toThrow('Expected `options.resamples` to be a positive integer')
    expect(() => pairedBootstrap([0.1], { confidence: 1 })).toThrow('Expected `options.confidence`')
  })
})

describe('signFlipTest', () => {
  it('enumerates every sign vector when 2^n ≤ B', () => {
    // Sums of ±0.3 ±0.1 ±0.1 that are ≤ −0.3: (−,−,−) = −0.5, (−,−,+) = −0.3, (−,+,−) = −0.3 → 3 of 8.
    const r = signFlipTest([-0.3, -0.1, 0.1])
    expect(r.method).toBe('sign-flip-exact')
    expect(r.resamples).toBe(8)
    expect(r.pValue).toBe(3 / 8)
    // Only the identity vector reaches −10 → 1/16.
    expect(signFlipTest([-1, -2, -3, -4]).pValue).toBe(1 / 16)
    expect(signFlipTest([0, 0]).pValue).toBe(1)
  })
  it('samples sign vectors from mulberry32(seed + 1) when 2^n > B', () => {
    // d = [−1, 2, −3, −4, −5], S = −11, B = 8, seed 42 → generator seed 43. An independent Python
    // implementation gives the sign-flipped sums 3, 1, 9, −13, −5, −9, 5, −11: two are ≤ −11 → p = 3/9.
    const r = signFlipTest([-1, 2, -3, -4, -5], { resamples: 8, seed: 42 })
    expect(r.method).toBe('sign-flip-monte-carlo')
    expect(r.pValue).toBe(3 / 9)
  })
})

describe('smallestAttainableP / fewestCasesToReach', () => {
  it('is 2^−n for the exact sign-flip test and 1/(B + 1) otherwise', () => {
    expect([3, 4, 5].map((n) => smallestAttainableP('permutation', n, 10_000))).toEqual([0.125, 0.0625, 0.03125])
    // 2^14 > 10 000 resamples: Monte-Carlo, whose p counts the observation itself
    expect(smallestAttainableP('permutation', 14, 10_000)).toBe(1 / 10_001)
    expect(smallestAttainableP('bootstrap', 3, 10_000)).toBe(1 / 10_001)
    expect(smallestAttainableP('bootstrap', 3, 19)).toBe(0.05)
    expect(() => smallestAttainableP('bootstrap', 0, 10)).toThrow('Expected `n` to be a positive integer')
  })

  it('agrees with the p-value of the most extreme data', () => {
    for (const n of [1, 2, 3, 4, 5, 8]) {
      expect(signFlipTest(Array.from({ length: n }, () => -1)).pValue).toBe(smallestAttainableP('permutation', n, 10_000))
    }
    expect(pairedBootstrap([-1, -1, -1], { resamples: 99 }).pValue).toBe(smallestAttainableP('bootstrap', 3, 99))
  })

  it('finds the fewest cases that can reach alpha', () => {
    expect(fewestCasesToReach('permutation', 0.05, 10_000)).toBe(5)
    expect(fewestCasesToReach('permutation', 0.01, 10_000)).toBe(7)
    expect(fewestCasesToReach('bootstrap', 0.05, 10_000)).toBe(1)
    expect(fewestCasesToReach('bootstrap', 0.05, 10)).toBeUndefined()
  })
})

describe('the bootstrap draws mulberry32(seed) index by index', () => {
  it('gives the p-value and interval of resampling written out with mulberry32 itself', () => {
    const diffs = Array.from({ length: 137 }, (_, i) => Math.sin(i * 1.7) * 0.05 - 0.004)
    for (const seed of [42, 7, -3]) {
      const next = mulberry32(seed)
      const sums = Array.from({ length: 501 }, () => {
        let s = 0
        for (let j = 0; j < diffs.length; j++) s += diffs[Math.floor(next() * diffs.length)]!
        return s
      })
      const observed = diffs.reduce((a, b) => a + b, 0)
      const bound = 2 * observed + 1e-12 * diffs.reduce((a, b) => a + Math.abs(b), 0)
      const means = Float64Array.from(sums, (s) => s / diffs.length).sort()
      const r = pairedBootstrap(diffs, { resamples: 501, seed })
      expect(r.pValue).toBe((1 + sums.filter((s) => s <= bound).length) / 502)
      expect(r.ci).toEqual([quantileSorted(means, (1 - 0.95) / 2), quantileSorted(means, (1 + 0.95) / 2)])
    }
  })
})
