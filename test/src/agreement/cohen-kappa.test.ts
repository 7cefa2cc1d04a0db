import fc from 'fast-check'
import { cohenKappa, cohenKappaTable, formatKappaSummary } from '../../../src/agreement/cohen-kappa.js'
import { MetricInputError } from '../../../src/errors.js'
import { parseSignature } from '../../../src/signature.js'

/** Rater vectors from a contingency table (rows rater 1, columns rater 2). */
function fromTable<T>(table: number[][], labels: T[]): [T[], T[]] {
  const a: T[] = []
  const b: T[] = []
  table.forEach((row, i) =>
    row.forEach((count, j) => {
      for (let k = 0; k < count; k += 1) {
        a.push(labels[i] as T)
        b.push(labels[j] as T)
      }
    }),
  )
  return [a, b]
}

describe('cohenKappa', () => {
  it('hand-computed 2 × 2: p_o = 0.7, p_e = 0.5 → κ = 0.4', () => {
    const [a, b] = fromTable(
      [
        [20, 5],
        [10, 15],
      ],
      ['yes', 'no'],
    )
    const k = cohenKappa(a, b)
    expect(k.value).toBeCloseTo(0.4, 14)
    expect(k.details.n).toBe(50)
    expect(k.details.observedAgreement).toBeCloseTo(0.7, 15)
    expect(k.details.expectedAgreement).toBeCloseTo(0.5, 15)
    // labels sorted by code point: 'no' < 'yes'
    expect(k.details.labels).toEqual(['no', 'yes'])
    expect(k.details.confusionMatrix).toEqual([
      [15, 10],
      [5, 20],
    ])
    expect(k.metric).toBe("Cohen's kappa")
    expect(k.signature).toBe('Kappa|kind:cohen|weights:none|n:50|version:0.1.0')
  })

  it('hand-computed weighted kappa on 3 categories', () => {
    // confusion (0,0), (1,2), (2,2); rows [1,1,1], columns [1,0,2]
    const r1 = [0, 1, 2]
    const r2 = [0, 2, 2]
    expect(cohenKappa(r1, r2).value).toBeCloseTo(0.5, 15) // 1 − 1/2
    expect(cohenKappa(r1, r2, { weights: 'linear' }).value).toBeCloseTo(2 / 3, 15) // 1 − 1/3
    expect(cohenKappa(r1, r2, { weights: 'quadratic' }).value).toBeCloseTo(0.8, 15) // 1 − 1/5
  })

  it('weights use label indices, not label values', () => {
    // same pattern with labels 1, 2, 5: value distances would be 1, 3, 4; index distances 1, 1, 2
    expect(cohenKappa([1, 2, 5], [1, 5, 5], { weights: 'linear' }).value).toBeCloseTo(2 / 3, 15)
    expect(cohenKappa([1, 2, 5], [1, 5, 5], { weights: 'quadratic' }).value).toBeCloseTo(0.8, 15)
  })

  it('an explicit label list changes the indices and drops pairs outside it', () => {
    // an unused category between used ones moves the index of 5 from 2 to 3
    const base = cohenKappa([0, 1, 1, 5], [0, 1, 5, 5], { weights: 'linear' })
    const widened = cohenKappa([0, 1, 1, 5], [0, 1, 5, 5], { weights: 'linear', labels: [0, 1, 3, 5] })
    expect(widened.details.labels).toEqual([0, 1, 3, 5])
    expect(widened.details.confusionMatrix).toEqual([
      [1, 0, 0, 0],
      [0, 1, 0, 1],
      [0, 0, 0, 0],
      [0, 0, 0, 1],
    ])
    expect(widened.value).not.toBeCloseTo(base.value, 6)
    const restricted = cohenKappa([0, 1, 1, 2, 2], [0, 1, 0, 2, 1], { labels: [0, 1] })
    expect(restricted.details.n).toBe(3)
    expect(restricted.details.excluded).toBe(2)
    expect(restricted.details.confusionMatrix).toEqual([
      [1, 0],
      [1, 1],
    ])
  })

  it('is NaN with a reason when both raters use one identical category, 0 or −1 in the other degenerate cases', () => {
    const k = cohenKappa(['a', 'a', 'a'], ['a', 'a', 'a'])
    expect(k.value).toBeNaN()
    expect(k.details.reason).toMatch(/0\/0/)
    for (const weights of ['linear', 'quadratic'] as const) expect(cohenKappa([1, 1], [1, 1], { weights }).value).toBeNaN()
    expect(cohenKappa([0, 0, 0], [1, 1, 1]).value).toBe(0)
    expect(cohenKappa([0, 1, 0, 1], [1, 0, 1, 0]).value).toBe(-1)
    expect(cohenKappa([0, 1, 0, 1], [1, 0, 1, 0]).details.reason).toBeUndefined()
  })

  it('accepts booleans and numbers, refuses mixed kinds and bad arguments', () => {
    expect(cohenKappa([true, false, true], [true, false, false]).details.labels).toEqual([false, true])
    expect(() => cohenKappa([1, 'a'] as never, [1, 1])).toThrow(MetricInputError)
    expect(() => cohenKappa([1, 2], ['1', '2'] as never)).toThrow(/mixed label kinds/)
    expect(() => cohenKappa([1, 2], [1])).toThrow(/same length/)
    expect(() => cohenKappa([], [])).toThrow(/non-empty/)
    expect(() => cohenKappa([1, Number.NaN], [1, 2])).toThrow(/rater1\[1\]/)
    expect(() => cohenKappa([1, 2], [1, 2], { weights: 'cubic' as never })).toThrow(/options\.weights/)
    expect(() => cohenKappa([1, 2], [1, 2], { labels: [3, 4] })).toThrow(/at least one label of rater1/)
    expect(() => cohenKappa([1, 2], [1, 2], { labels: [1, 1] })).toThrow(/distinct/)
  })

  it('is symmetric in the raters and 1 for identical raters (property)', () => {
    const labels = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 40 })
    fc.assert(
      fc.property(labels, labels, fc.constantFrom(undefined, 'linear' as const, 'quadratic' as const), (x, y, weights) => {
        const n = Math.min(x.length, y.length)
        const a = x.slice(0, n)
        const b = y.slice(0, n)
        const ab = cohenKappa(a, b, { weights }).value
        const ba = cohenKappa(b, a, { weights }).value
        if (Number.isNaN(ab)) expect(ba).toBeNaN()
        else expect(Math.abs(ab - ba)).toBeLessThan(1e-12)
        const self = cohenKappa(a, a, { weights }).value
        if (new Set(a).size > 1) expect(self).toBeCloseTo(1, 12)
        else expect(self).toBeNaN()
      }),
      { numRuns: 150 },
    )
  })
})

describe('cohenKappaTable (statsmodels cohens_kappa)', () => {
  const sas = [
    [0, 4, 1],
    [0, 8, 0],
    [0, 1, 5],
  ]

  it('gives the same kappa as cohenKappa on the same data', () => {
    const [a, b] = fromTable(sas, [0, 1, 2])
    expect(cohenKappaTable(sas).value).toBeCloseTo(cohenKappa(a, b).value, 14)
    expect(cohenKappaTable(sas, { wt: 'quadratic' }).value).toBeCloseTo(cohenKappa(a, b, { weights: 'quadratic' }).value, 14)
  })

  it('z, p-values and limits follow from the standard errors', () => {
    const d = cohenKappaTable(sas).details
    expect(d.zValue).toBeCloseTo(d.kappa / d.stdKappa0, 15)
    expect(d.pvalueTwoSided).toBeCloseTo(2 * d.pvalueOneSided, 15) // z > 0
    expect(d.kappaUpp - d.kappa).toBeCloseTo(d.kappa - d.kappaLow, 15)
    expect((d.kappaUpp - d.kappa) / d.stdKappa).toBeCloseTo(1.959963984540054, 12)
    expect(d.kind).toBe('Simple')
    expect(cohenKappaTable(sas, { weights: [0, 1, 2] }).details.kind).toBe('Weighted')
  })

  it('prints the SAS-style summary', () => {
    const text = formatKappaSummary(cohenKappaTable(sas).details)
    expect(text.split('\n')[0]).toBe('                  Simple Kappa Coefficient')
    expect(text).toContain('              95% Lower Conf Limit      0.2137\n')
    expect(text.endsWith('Two-sided Pr > |Z|        0.0011\n')).toBe(true)
  })

  it('a single used category is NaN with a reason', () => {
    const d = cohenKappaTable([
      [5, 0],
      [0, 0],
    ])
    expect(d.value).toBeNaN()
    expect(d.details.reason).toMatch(/chance agreement is 1/)
  })

  it('refuses non-square tables, negative counts and bad weights', () => {
    expect(() => cohenKappaTable([[1, 2]])).toThrow(/square/)
    expect(() =>
      cohenKappaTable([
        [1, -1],
        [0, 1],
      ]),
    ).toThrow(/table\[0\]\[1\]/)
    expect(() =>
      cohenKappaTable(
        [
          [1, 0],
          [0, 1],
        ],
        { weights: [0, 1, 2] },
      ),
    ).toThrow(/options\.weights/)
    expect(() =>
      cohenKappaTable(
        [
          [1, 0],
          [0, 1],
        ],
        { weights: [[0, 1]] },
      ),
    ).toThrow(/2 × 2 weight matrix/)
    expect(() =>
      cohenKappaTable(
        [
          [1, 0],
          [0, 1],
        ],
        { wt: 'cubic' as never },
      ),
    ).toThrow(/options\.wt/)
  })

  it('records the weighting in the signature', () => {
    expect(parseSignature(cohenKappaTable(sas, { wt: 'toeplitz' }).signature).entries.get('weights')).toBe('toeplitz')
    expect(parseSignature(cohenKappaTable(sas).signature).entries.get('weights')).toBe('none')
  })
})
