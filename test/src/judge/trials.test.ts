// trialStatistics and expectedFlipRate (issue #30): small hand-counted cases, the agreement core's numbers
// for self-consistency, and the refusals.
import { fleissKappa } from '../../../src/agreement/fleiss-kappa.js'
import { krippendorffAlpha } from '../../../src/agreement/krippendorff-alpha.js'
import { MetricInputError } from '../../../src/errors.js'
import { expectedFlipRate, trialStatistics } from '../../../src/judge/trials.js'

describe('trialStatistics', () => {
  it('counts verdicts by hand: q1 flips (1, 1, 0), q2 never does', () => {
    const s = trialStatistics(
      [
        { id: 'q1', values: [1, 1, 0] },
        { id: 'q2', values: [1, 1, 1] },
      ],
      0.5,
    )
    expect(s.trials).toBe(3)
    expect(s.cases).toBe(2)
    expect(s.trialMeans).toEqual([1, 1, 0.5])
    expect(s.mean).toBeCloseTo(5 / 6, 15)
    expect([s.min, s.max]).toEqual([0.5, 1])
    expect(s.passRate).toBe(5 / 6)
    expect(s.flipRate).toBe(0.5)
    expect(s.flipped.map((c) => c.id)).toEqual(['q1'])
  })

  it('self-consistency is the agreement core’s: Fleiss over verdicts, Krippendorff (interval) over values', () => {
    const cases = [
      { id: 'a', values: [0.9, 0.8, 0.2] },
      { id: 'b', values: [0.1, 0.3, 0.2] },
      { id: 'c', values: [0.7, 0.9, 0.8] },
      { id: 'd', values: [0.4, 0.6, 0.5] },
    ]
    const s = trialStatistics(cases, 0.5)
    const verdicts = cases.map((c) => c.values.map((v) => (v >= 0.5 ? 'pass' : 'fail')))
    expect(s.fleissKappa.value).toBe(fleissKappa(verdicts, { input: 'ratings' }).value)
    expect(s.krippendorffAlpha.value).toBe(
      krippendorffAlpha(
        [0, 1, 2].map((t) => cases.map((c) => c.values[t] as number)),
        { level: 'interval' },
      ).value,
    )
  })

  it('undefined self-consistency is NaN with a reason, never a silent number', () => {
    const one = trialStatistics([{ id: 'a', values: [1] }], 0.5)
    expect(one.flipRate).toBe(0)
    expect(one.fleissKappa.reason).toContain('one trial')
    const same = trialStatistics(
      [
        { id: 'a', values: [1, 1] },
        { id: 'b', values: [1, 1] },
      ],
      0.5,
    )
    expect(Number.isNaN(same.fleissKappa.value)).toBe(true)
    expect(same.fleissKappa.reason).toContain('chance agreement is 1')
    expect(Number.isNaN(same.krippendorffAlpha.value)).toBe(true)
    expect(same.krippendorffAlpha.reason).toContain('more than one value in the domain')
  })

  it('refuses what it cannot count', () => {
    expect(() => trialStatistics([], 0.5)).toThrow(MetricInputError)
    expect(() =>
      trialStatistics(
        [
          { id: 'a', values: [1, 0] },
          { id: 'b', values: [1] },
        ],
        0.5,
      ),
    ).toThrow('Expected `cases[1].values` to be an array of 2 values')
    expect(() => trialStatistics([{ id: 'a', values: [1, Number.NaN] }], 0.5)).toThrow('Expected `cases[0].values[1]` to be a finite number')
    expect(() => trialStatistics([{ id: 'a', values: [1] }], Number.NaN)).toThrow('Expected `threshold` to be a finite number')
  })
})

describe('expectedFlipRate', () => {
  it('is 1 − (1 − p)ⁿ − pⁿ, 0 for one trial, and never negative for tiny p', () => {
    expect(expectedFlipRate(0.1, 5)).toBeCloseTo(1 - 0.9 ** 5 - 0.1 ** 5, 15)
    expect(expectedFlipRate(0.5, 2)).toBe(0.5)
    expect(expectedFlipRate(0.3, 1)).toBe(0)
    expect(expectedFlipRate(1e-162, 2)).toBeGreaterThanOrEqual(0)
    expect(() => expectedFlipRate(1.5, 2)).toThrow(MetricInputError)
    expect(() => expectedFlipRate(0.5, 0)).toThrow(MetricInputError)
  })
})
