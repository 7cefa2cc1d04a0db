import { aggregateRatings, fleissKappa } from '../../../src/agreement/fleiss-kappa.js'
import { MetricInputError } from '../../../src/errors.js'

describe('fleissKappa', () => {
  // 2 items × 3 raters: P₁ = 1, P₂ = (1 + 4 − 3)/6 = 1/3, P̄ = 2/3; p = (4/6, 2/6)
  const table = [
    [3, 0],
    [1, 2],
  ]

  it("hand-computed Fleiss' kappa: P̄_e = 5/9 → κ = 1/4", () => {
    const k = fleissKappa(table)
    expect(k.value).toBeCloseTo(0.25, 15)
    expect(k.details.observedAgreement).toBeCloseTo(2 / 3, 15)
    expect(k.details.expectedAgreement).toBeCloseTo(5 / 9, 15)
    expect(k.details.itemAgreement.map((p) => +p.toFixed(12))).toEqual([1, +(1 / 3).toFixed(12)])
    expect(k.details.raters).toBe(3)
    expect(k.signature).toBe('Kappa|kind:fleiss|items:2|raters:3|categories:2|version:0.1.0')
  })

  it("hand-computed Randolph's kappa: P̄_e = 1/2 → κ = 1/3", () => {
    const k = fleissKappa(table, { method: 'randolph' })
    expect(k.value).toBeCloseTo(1 / 3, 15)
    expect(k.metric).toBe("Randolph's kappa")
    expect(fleissKappa(table, { method: 'uniform' }).value).toBe(k.value)
  })

  it('ratings give the same value as their count table', () => {
    const ratings = [
      ['bad', 'bad', 'bad'],
      ['good', 'bad', 'good'],
    ]
    const k = fleissKappa(ratings) // strings → read as ratings
    expect(k.details.table).toEqual(table)
    expect(k.value).toBe(fleissKappa(table).value)
    expect(k.details.categories).toEqual(['bad', 'good'])
    expect(
      fleissKappa(
        [
          [2, 2, 2],
          [5, 2, 5],
        ],
        { input: 'ratings' },
      ).value,
    ).toBe(k.value)
  })

  it('says so when items have different numbers of ratings', () => {
    expect(() =>
      fleissKappa([
        [2, 1],
        [1, 1],
      ]),
    ).toThrow(MetricInputError)
    expect(() =>
      fleissKappa([
        [2, 1],
        [1, 1],
      ]),
    ).toThrow(/same number of ratings for every item/)
    expect(() =>
      fleissKappa([
        ['a', 'b', 'a'],
        ['a', null, 'b'],
      ]),
    ).toThrow(/item 1 has 2/)
  })

  it('one category only is NaN with a reason, for both methods', () => {
    for (const method of ['fleiss', 'randolph'] as const) {
      const k = fleissKappa(
        [
          ['x', 'x'],
          ['x', 'x'],
        ],
        { method },
      )
      expect(k.value).toBeNaN()
      expect(k.details.reason).toMatch(/one category/)
    }
    const single = fleissKappa([
      [1, 0],
      [0, 1],
    ])
    expect(single.value).toBeNaN()
    expect(single.details.reason).toMatch(/single rating/)
  })

  it('maximal disagreement (4 raters × 4 categories) is −1/3', () => {
    expect(
      fleissKappa([
        [1, 1, 1, 1],
        [1, 1, 1, 1],
      ]).value,
    ).toBeCloseTo(-1 / 3, 15)
  })

  it('refuses malformed tables and options', () => {
    expect(() => fleissKappa([])).toThrow(/non-empty/)
    expect(() => fleissKappa([[1, 2], [1]])).toThrow(/tableOrRatings\[1\]/)
    expect(() => fleissKappa([[1, -2]])).toThrow(/non-negative/)
    expect(() => fleissKappa(table, { method: 'cohen' as never })).toThrow(/options\.method/)
    expect(() => fleissKappa(table, { input: 'matrix' as never })).toThrow(/options\.input/)
  })
})

describe('aggregateRatings', () => {
  it('counts labels per item in sorted category order', () => {
    expect(
      aggregateRatings([
        [3, 1, 3],
        [2, 2, 1],
      ]),
    ).toEqual({
      table: [
        [1, 0, 2],
        [1, 2, 0],
      ],
      categories: [1, 2, 3],
    })
  })
  it('refuses mixed label kinds', () => {
    expect(() => aggregateRatings([[1, 'a']])).toThrow(/mixed label kinds/)
  })
})
