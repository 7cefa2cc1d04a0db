// Issue #27: correlations are scale-free, so multiplying the scores by any factor must not change them,
// however large or small (Pearson's r used to overflow to 0 for scores ≥ ~1e154 and underflow below
// ~1e-154). A fixed seed keeps the property reproducible (test/property/harness.ts conventions).
import fc from 'fast-check'
import { MetricInputError } from '../../../src/errors.js'
import { kendallTau, krippendorffAlpha, metricAlignment, pearson, spearman } from '../../../src/agreement/index.js'
import { checkSync } from '../../property/harness.js'

const SEED = Number(process.env.RAG_PROPERTY_SEED ?? 20261227)
const RUNS = 300

/** 3 to 20 paired integer scores in −100…100 (integers: x·s then rounds by far less than 1e-9 of r). */
const pairs = fc
  .integer({ min: 3, max: 20 })
  .chain((n) =>
    fc.tuple(fc.array(fc.integer({ min: -100, max: 100 }), { minLength: n, maxLength: n }), fc.array(fc.integer({ min: -100, max: 100 }), { minLength: n, maxLength: n })),
  )
/** s = 10^e, e uniform in [−150, 150]. */
const scale = fc.double({ min: -150, max: 150, noNaN: true }).map((e) => 10 ** e)

/** The coefficient, or 'refused' when the core throws its input error (never another exception). */
function coefficient(run: () => { value: number; details: { reason?: string } }): number | 'refused' {
  try {
    const score = run()
    // finite, or NaN with a reason (a constant side); never ±Infinity, never a silent NaN
    if (!Number.isFinite(score.value) && !(Number.isNaN(score.value) && typeof score.details.reason === 'string')) {
      throw new Error(`non-finite coefficient ${score.value} without a reason`)
    }
    return score.value
  } catch (error) {
    if (error instanceof MetricInputError) return 'refused'
    throw error
  }
}

const same = (a: number | 'refused', b: number | 'refused'): boolean =>
  typeof a === 'number' && typeof b === 'number' ? (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= 1e-9 : a === b

describe('correlations do not depend on the scale of the scores', () => {
  it.each([
    ['pearson', pearson],
    ['spearman', spearman],
    ['kendall', kendallTau],
  ] as const)('%s: r(x·s, y) = r(x, y) within 1e-9 for s in [1e-150, 1e150], and every result is finite or refused', (_name, fn) => {
    fc.assert(
      fc.property(pairs, scale, ([x, y], s) => {
        const base = coefficient(() => fn(x, y))
        const xs = x.map((v) => v * s)
        const scaled = coefficient(() => fn(xs, y))
        const both = coefficient(() =>
          fn(
            xs,
            y.map((v) => v / s),
          ),
        )
        if (!same(base, scaled) || !same(base, both)) throw new Error(`r(x, y) = ${base}, r(x·${s}, y) = ${scaled}, r(x·s, y/s) = ${both}`)
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('toCorrelateWith on scaled scores keeps the rule: pass, finite fail or Matcher error, both ways', () => {
    fc.assert(
      fc.property(pairs, scale, fc.constantFrom('spearman', 'kendall', 'pearson'), ([x, y], s, method) => {
        checkSync(
          'toCorrelateWith',
          x.map((v) => v * s),
          [y, 0.5, { method }],
        )
      }),
      { seed: SEED, numRuns: 100 },
    )
  })

  it('Pearson r at the edges of the double range: exact where the plain formula overflowed or underflowed', () => {
    const x = [1, 2, 3, 4]
    const y = [2, 1, 4, 3]
    const r = pearson(x, y).value
    for (const s of [2 ** 600, 2 ** 1000, 2 ** -600, 2 ** -1000, 1e154, 1e-160]) {
      expect(
        pearson(
          x.map((v) => v * s),
          y,
        ).value,
      ).toBeCloseTo(r, 14)
      expect(
        pearson(
          x.map((v) => v * s),
          y.map((v) => v * s),
        ).value,
      ).toBeCloseTo(r, 14)
    }
    // powers of two scale exactly: the same bits
    expect(
      pearson(
        x.map((v) => v * 2 ** 700),
        y,
      ).value,
    ).toBe(r)
    expect(pearson([1.7e308, -1.7e308, 0, 1e308], [4, 1, 2, 3]).value).toBeCloseTo(pearson([1.7, -1.7, 0, 1], [4, 1, 2, 3]).value, 14)
    expect(pearson([1e154, 2e154, 3e154, 4e154], [1, 2, 3, 4]).details.pvalue).toBeLessThan(1e-6)
  })

  it('metricAlignment: a hole in an array is refused, naming its position', () => {
    const metric = [0.1, 0.2, 0.3]
    delete metric[1]
    expect(() => metricAlignment(metric, [1, 2, 3])).toThrow(/metricScores\[1\]/)
  })

  it('Krippendorff interval/ratio alpha of values beyond 1e154 or below 1e-154 equals that of the plain values', () => {
    const plain = [
      [1, 2, 3, 4, null],
      [1, 3, 3, 4, 5],
      [2, 2, null, 4, 5],
    ]
    for (const level of ['interval', 'ratio'] as const) {
      const alpha = krippendorffAlpha(plain, { level }).value
      for (const s of [2 ** 700, 2 ** -700]) {
        const scaled = plain.map((row) => row.map((v) => (v === null ? null : v * s)))
        const score = krippendorffAlpha(scaled, { level })
        expect(score.value).toBe(alpha)
        if (level === 'interval') expect(score.details.distanceUnit).toBeGreaterThan(0)
      }
      expect(krippendorffAlpha(plain, { level }).details.distanceUnit).toBeUndefined()
    }
  })
})
