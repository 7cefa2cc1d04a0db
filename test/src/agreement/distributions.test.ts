import fc from 'fast-check'
import { betaCdf, betaSf, erf, erfc, logBeta, logGamma, normalCdf, normalIsf, normalPpf, normalSf, regularizedBeta, studentT } from '../../../src/agreement/distributions.js'

// Closed forms and identities only: every expected value here comes from mathematics, not from our code.

const rel = (a: number, b: number) => (a === b ? 0 : Math.abs(a - b) / Math.abs(b))
/**
 * Relative error within `tol`, except where the reference is subnormal (below 2^-1022): there `x ** a`
 * itself keeps only a few bits, so only a few units of the smallest subnormal are asked.
 */
function expectClose(got: number, want: number, tol: number): void {
  if (Math.abs(want) < 2 ** -1022) expect(Math.abs(got - want)).toBeLessThanOrEqual(4 * Number.MIN_VALUE)
  else expect(rel(got, want)).toBeLessThan(tol)
}

describe('erf / erfc', () => {
  it('hits known values (Abramowitz & Stegun table 7.1, 20 digits)', () => {
    // relative error within a few ulps (1e-15 ≈ 5 ulps)
    expect(rel(erf(0.5), 0.52049987781304653768)).toBeLessThan(1e-15)
    expect(rel(erf(1), 0.84270079294971486934)).toBeLessThan(1e-15)
    expect(rel(erfc(1), 0.15729920705028513066)).toBeLessThan(2e-15)
    expect(rel(erfc(2), 0.0046777349810472658379)).toBeLessThan(3e-15)
    expect(rel(erfc(5), 1.5374597944280348502e-12)).toBeLessThan(3e-15)
    expect(rel(erfc(10), 2.088487583762544757e-45)).toBeLessThan(3e-15)
    expect(rel(erfc(26), 5.6631924088561151e-296)).toBeLessThan(5e-15)
  })
  it('is odd / reflects, and the limits are exact', () => {
    fc.assert(
      fc.property(fc.double({ min: -6, max: 6, noNaN: true }), (x) => {
        expect(erf(-x) + erf(x)).toBe(0)
        expect(Math.abs(erfc(x) + erfc(-x) - 2)).toBeLessThan(4e-16)
        expect(Math.abs(erf(x) + erfc(x) - 1)).toBeLessThan(4e-16)
      }),
      { numRuns: 200 },
    )
    expect(erfc(0)).toBe(1)
    expect(erfc(Number.POSITIVE_INFINITY)).toBe(0)
    expect(erfc(Number.NEGATIVE_INFINITY)).toBe(2)
    expect(erfc(40)).toBe(0)
    expect(erf(Number.NaN)).toBeNaN()
  })
})

describe('normal distribution', () => {
  it('Φ(0) = 1/2 and the tails are complementary', () => {
    expect(normalCdf(0)).toBe(0.5)
    fc.assert(
      fc.property(fc.double({ min: -8, max: 8, noNaN: true }), (x) => {
        expect(Math.abs(normalCdf(x) + normalSf(x) - 1)).toBeLessThan(4e-16)
        expect(rel(normalSf(x), normalCdf(-x))).toBeLessThan(1e-15)
      }),
      { numRuns: 200 },
    )
  })
  it('isf inverts sf to within a couple of ulps, and the usual quantiles come out', () => {
    // Φ⁻¹(0.975) = 1.95996398454005423552…, Φ⁻¹(0.95) = 1.64485362695147271734… (within 4 ulps)
    expect(Math.abs(normalIsf(0.025) - 1.9599639845400542)).toBeLessThan(1e-15)
    expect(Math.abs(normalIsf(0.05) - 1.6448536269514727)).toBeLessThan(1e-15)
    expect(normalIsf(0.5)).toBe(0)
    expect(normalIsf(0)).toBe(Number.POSITIVE_INFINITY)
    expect(normalIsf(1)).toBe(Number.NEGATIVE_INFINITY)
    expect(normalIsf(1.5)).toBeNaN()
    expect(normalPpf(0.975)).toBeCloseTo(1.959963984540054, 14)
    fc.assert(
      fc.property(fc.double({ min: 1e-200, max: 0.999999, noNaN: true }), (q) => {
        expect(rel(normalSf(normalIsf(q)), q)).toBeLessThan(1e-13)
      }),
      { numRuns: 200 },
    )
  })
})

describe('logGamma / logBeta', () => {
  it('matches factorials and half-integer values', () => {
    let f = 1
    for (let n = 1; n <= 30; n += 1) {
      f *= n
      expect(Math.abs(logGamma(n + 1) - Math.log(f))).toBeLessThan(2e-14 * Math.max(1, Math.log(f)))
    }
    expect(Math.abs(logGamma(0.5) - 0.5 * Math.log(Math.PI))).toBeLessThan(4e-15)
    expect(Math.abs(logGamma(1))).toBeLessThan(4e-15)
    expect(Math.abs(logGamma(2))).toBeLessThan(4e-15)
    expect(logGamma(0)).toBeNaN()
  })
  it('satisfies Γ(x+1) = xΓ(x) and B(a,b) = Γ(a)Γ(b)/Γ(a+b)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0.05, max: 200, noNaN: true }), fc.double({ min: 0.05, max: 200, noNaN: true }), (a, b) => {
        expect(Math.abs(logGamma(a + 1) - logGamma(a) - Math.log(a))).toBeLessThan(1e-12 * Math.max(1, Math.abs(logGamma(a + 1))))
        const direct = logGamma(a) + logGamma(b) - logGamma(a + b)
        expect(Math.abs(logBeta(a, b) - direct)).toBeLessThan(1e-12 * Math.max(1, Math.abs(direct)))
      }),
      { numRuns: 200 },
    )
  })
})

describe('regularized incomplete beta', () => {
  it('keeps the counterexample an unseeded run found: I_x(a,1) = x^a where x^a is subnormal', () => {
    // x = 1e-12, a = 26.17: x^a ≈ 1e-314, a subnormal that holds only a few significant bits
    expectClose(regularizedBeta(1e-12, 26.16893386235212, 1).lower, 1e-12 ** 26.16893386235212, 1e-12)
  })
  it('matches its closed forms', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-12, max: 1 - 1e-12, noNaN: true }), fc.double({ min: 0.1, max: 40, noNaN: true }), (x, a) => {
        // I_x(1,1) = x, I_x(a,1) = x^a, I_x(1,b) = 1 − (1−x)^b, I_x(½,½) = (2/π)·asin(√x)
        expect(rel(regularizedBeta(x, 1, 1).lower, x)).toBeLessThan(1e-13)
        expectClose(regularizedBeta(x, a, 1).lower, x ** a, 1e-12)
        expectClose(regularizedBeta(x, 1, a).upper, (1 - x) ** a, 1e-12)
        // asin is ill-conditioned near 1, so check the smaller tail: I_x(½,½) = 1 − (2/π)·asin(√(1−x))
        const arcsine = regularizedBeta(x, 0.5, 0.5)
        if (x <= 0.5) expect(rel(arcsine.lower, (2 / Math.PI) * Math.asin(Math.sqrt(x)))).toBeLessThan(1e-13)
        else expect(rel(arcsine.upper, (2 / Math.PI) * Math.asin(Math.sqrt(1 - x)))).toBeLessThan(1e-13)
      }),
      { numRuns: 200 },
    )
  })
  it('is symmetric: I_x(a,b) = 1 − I_{1−x}(b,a), with both tails consistent', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        fc.double({ min: 0.2, max: 80, noNaN: true }),
        fc.double({ min: 0.2, max: 80, noNaN: true }),
        (x, a, b) => {
          const t = regularizedBeta(x, a, b)
          const s = regularizedBeta(1 - x, b, a)
          expect(Math.abs(t.lower - s.upper)).toBeLessThan(1e-13)
          expect(Math.abs(t.lower + t.upper - 1)).toBeLessThan(1e-15)
        },
      ),
      { numRuns: 200 },
    )
  })
  it('has exact ends and NaN outside the domain', () => {
    expect(regularizedBeta(0, 2, 3)).toEqual({ lower: 0, upper: 1 })
    expect(regularizedBeta(1, 2, 3)).toEqual({ lower: 1, upper: 0 })
    expect(regularizedBeta(0.5, -1, 3).lower).toBeNaN()
    expect(betaCdf(-1, 2, 2)).toBe(0)
    expect(betaSf(2, 2, 2)).toBe(0)
    // symmetric Beta(a, a) has its median at ½
    expect(Math.abs(betaCdf(0.5, 7.5, 7.5) - 0.5)).toBeLessThan(1e-14)
  })
})

describe("Student's t", () => {
  it('df = 1 is Cauchy and df = 2 has a closed form', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), (t) => {
        const c1 = 0.5 + Math.atan(t) / Math.PI
        expect(Math.abs(studentT(t, 1).cdf - c1)).toBeLessThan(1e-14)
        const c2 = 0.5 + t / (2 * Math.sqrt(2 + t * t))
        expect(Math.abs(studentT(t, 2).cdf - c2)).toBeLessThan(1e-14)
      }),
      { numRuns: 200 },
    )
    // the far tail keeps its relative accuracy: P(T₂ ≤ −t) = ½ − t/(2√(2+t²)) = 1 / (√(2+t²)(√(2+t²) + t))
    for (const t of [10, 1e3, 1e6, 1e9]) {
      const r = Math.sqrt(2 + t * t)
      expect(rel(studentT(-t, 2).cdf, 1 / (r * (r + t)))).toBeLessThan(1e-13)
    }
  })
  it('tends to the normal for large df and handles the special points', () => {
    // the t tail exceeds the normal one by about (x³ + x)·φ(x)/(4·df)
    expect(Math.abs(studentT(1.96, 1e7).sf - normalSf(1.96))).toBeLessThan(1e-7)
    expect(studentT(0, 5)).toEqual({ cdf: 0.5, sf: 0.5 })
    expect(studentT(Number.POSITIVE_INFINITY, 5)).toEqual({ cdf: 1, sf: 0 })
    expect(studentT(1, 0).cdf).toBeNaN()
  })
})
