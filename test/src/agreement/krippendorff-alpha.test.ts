import fc from 'fast-check'
import { krippendorffAlpha, type KrippendorffLevel } from '../../../src/agreement/krippendorff-alpha.js'
import { MetricInputError } from '../../../src/errors.js'

const LEVELS: KrippendorffLevel[] = ['nominal', 'ordinal', 'interval', 'ratio']

describe('krippendorffAlpha', () => {
  // 2 raters × 3 units: (a,a), (a,b), (b,b) → o = [[2,1],[1,2]], n_a = n_b = 3, e_ab = 9/5
  const data = [
    ['a', 'a', 'b'],
    ['a', 'b', 'b'],
  ]

  it('hand-computed nominal alpha: 1 − 2 / 3.6 = 4/9', () => {
    const a = krippendorffAlpha(data, { level: 'nominal' })
    expect(a.value).toBeCloseTo(4 / 9, 15)
    expect(a.details.coincidences).toEqual([
      [2, 1],
      [1, 2],
    ])
    expect(a.details.valueCounts).toEqual([3, 3])
    expect(a.details.expectedCoincidences[0]![1]).toBeCloseTo(1.8, 15)
    expect(a.details.pairableUnits).toBe(3)
    expect(a.signature).toBe('Alpha|kind:krippendorff|level:nominal|raters:2|units:3|version:0.1.0')
  })

  it('units rated once do not count', () => {
    const withSingles = [
      ['a', 'a', 'b', 'c', null],
      ['a', 'b', 'b', null, 'a'],
    ]
    const a = krippendorffAlpha(withSingles, { level: 'nominal' })
    expect(a.value).toBeCloseTo(4 / 9, 15)
    expect(a.details.pairableUnits).toBe(3)
  })

  it('with two values every level gives the same alpha', () => {
    const numeric = [
      [1, 1, 2, 2, 1],
      [1, 2, 2, 1, 1],
      [2, 2, 2, null, 1],
    ]
    const values = LEVELS.map((level) => krippendorffAlpha(numeric, { level }).value)
    for (const v of values) expect(v).toBeCloseTo(values[0]!, 14)
  })

  it('hand-computed interval alpha on three values', () => {
    // units (1,1), (1,3), (3,3): o = [[2,0,1],[0,0,0],[1,0,2]] over domain 1,2,3 (2 declared, unused)
    const a = krippendorffAlpha(
      [
        [1, 1, 3],
        [1, 3, 3],
      ],
      { level: 'interval', valueDomain: [1, 2, 3] },
    )
    // D_o = 2·4 = 8; D_e = 2 · (3·3/5)·4 = 14.4 → α = 1 − 8/14.4 = 4/9
    expect(a.value).toBeCloseTo(4 / 9, 15)
    expect(a.details.values).toEqual([1, 2, 3])
  })

  it('perfect agreement is 1 and ordinal strings need a value domain', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 2, maxLength: 20 }), (row) => {
        fc.pre(new Set(row).size > 1)
        for (const level of LEVELS) expect(krippendorffAlpha([row, row, row], { level }).value).toBeCloseTo(1, 14)
      }),
      { numRuns: 60 },
    )
    expect(() => krippendorffAlpha(data, { level: 'ordinal' })).toThrow(/ordered value domain/)
    expect(krippendorffAlpha(data, { level: 'ordinal', valueDomain: ['a', 'b'] }).value).toBeCloseTo(4 / 9, 15)
  })

  it('raises as the reference does, with its meaning', () => {
    expect(() =>
      krippendorffAlpha(
        [
          [3, 3],
          [3, 3],
        ],
        { level: 'nominal' },
      ),
    ).toThrow(MetricInputError)
    expect(() =>
      krippendorffAlpha(
        [
          [3, 3],
          [3, 3],
        ],
        { level: 'nominal' },
      ),
    ).toThrow(/more than one value in the domain/)
    expect(() =>
      krippendorffAlpha(
        [
          [1, null],
          [null, 2],
        ],
        { level: 'nominal' },
      ),
    ).toThrow(/at least two coders/)
    expect(() =>
      krippendorffAlpha(
        [
          [1, 2],
          [2, 4],
        ],
        { level: 'nominal', valueDomain: [1, 2, 3] },
      ),
    ).toThrow(/out-of-domain/)
    expect(() => krippendorffAlpha([[1, 2], [2]], { level: 'nominal' })).toThrow(/reliabilityData\[1\]/)
    expect(() => krippendorffAlpha(data, { level: 'interval', valueDomain: ['a', 'b'] })).toThrow(/needs numbers/)
    expect(() => krippendorffAlpha(data, { level: 'cardinal' as never })).toThrow(/options\.level/)
    expect(() => krippendorffAlpha([[1, 'a']], { level: 'nominal' })).toThrow(/mixed value kinds/)
  })

  it('no expected disagreement is NaN with a reason', () => {
    // value 2 only appears in a unit rated once, so every pairable rating is 1
    const a = krippendorffAlpha(
      [
        [1, 1, 2],
        [1, 1, null],
      ],
      { level: 'nominal' },
    )
    expect(a.value).toBeNaN()
    expect(a.details.reason).toMatch(/0\/0/)
  })

  it('NaN and undefined count as missing', () => {
    const a = krippendorffAlpha(
      [
        [1, 1, 2, Number.NaN],
        [1, 2, 2, undefined],
      ],
      { level: 'nominal' },
    )
    expect(a.value).toBe(
      krippendorffAlpha(
        [
          [1, 1, 2],
          [1, 2, 2],
        ],
        { level: 'nominal' },
      ).value,
    )
  })
})
