import fc from 'fast-check'
import { normalIsf } from '../../../src/agreement/distributions.js'
import { wilsonInterval, winRate } from '../../../src/agreement/win-rate.js'
import { MetricInputError } from '../../../src/errors.js'

describe('wilsonInterval', () => {
  it('0 successes of n: [0, z²/(n + z²)]', () => {
    const z = normalIsf(0.025)
    const ci = wilsonInterval(0, 10)
    expect(ci.low).toBeCloseTo(0, 15)
    expect(ci.high).toBeCloseTo((z * z) / (10 + z * z), 15)
    expect(ci.z).toBe(z)
  })

  it('is the set of p whose score test does not reject: (q − p)² = z²·p(1−p)/n at both ends', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0.01, 0.05, 0.1, 0.2), (n, share, alpha) => {
        const count = Math.round(share * n)
        const { low, high, z } = wilsonInterval(count, n, alpha)
        const q = count / n
        for (const p of [low, high]) expect(Math.abs((q - p) ** 2 - (z * z * p * (1 - p)) / n)).toBeLessThan(1e-13)
        // and it mirrors: successes ↔ failures
        const mirror = wilsonInterval(n - count, n, alpha)
        expect(Math.abs(low - (1 - mirror.high))).toBeLessThan(1e-14)
      }),
      { numRuns: 200 },
    )
  })

  it('n = 0 gives NaN bounds; bad arguments throw', () => {
    const ci = wilsonInterval(0, 0)
    expect(ci.low).toBeNaN()
    expect(ci.high).toBeNaN()
    expect(() => wilsonInterval(3, 2)).toThrow(MetricInputError)
    expect(() => wilsonInterval(1, 2, 0)).toThrow(/alpha/)
  })
})

describe('winRate', () => {
  it('excludes ties by default and can count them as half a win', () => {
    const counts = { wins: 6, losses: 2, ties: 2 }
    const ex = winRate(counts)
    expect(ex.value).toBe(0.75)
    expect(ex.details.nobs).toBe(8)
    expect(ex.details.count).toBe(6)
    expect(ex.details.low).toBe(wilsonInterval(6, 8, 0.05).low)
    const half = winRate(counts, { ties: 'half' })
    expect(half.value).toBe(0.7)
    expect(half.details.count).toBe(7)
    expect(half.details.nobs).toBe(10)
    expect(half.signature).toBe('WinRate|ties:half|ci:wilson|confidence:0.95|n:10|version:0.1.0')
  })

  it('reads confidence 0.9 as alpha 0.1 exactly', () => {
    expect(winRate({ wins: 3, losses: 1, ties: 0 }, { confidence: 0.9 }).details.high).toBe(wilsonInterval(3, 4, 0.1).high)
  })

  it('no decisive comparison is NaN with a reason', () => {
    const r = winRate({ wins: 0, losses: 0, ties: 4 })
    expect(r.value).toBeNaN()
    expect(r.details.low).toBeNaN()
    expect(r.details.reason).toMatch(/every comparison is a tie/)
    expect(winRate({ wins: 0, losses: 0, ties: 0 }, { ties: 'half' }).details.reason).toMatch(/no comparisons/)
    expect(winRate({ wins: 0, losses: 0, ties: 4 }, { ties: 'half' }).value).toBe(0.5)
  })

  it('refuses bad counts and options', () => {
    expect(() => winRate({ wins: 1.5, losses: 0, ties: 0 })).toThrow(/counts\.wins/)
    expect(() => winRate({ wins: 1, losses: -1, ties: 0 })).toThrow(/counts\.losses/)
    expect(() => winRate({ wins: 1, losses: 1, ties: 0 }, { confidence: 95 })).toThrow(/options\.confidence/)
    expect(() => winRate({ wins: 1, losses: 1, ties: 0 }, { ties: 'drop' as never })).toThrow(/options\.ties/)
  })
})
