import { metricAlignment } from '../../../src/agreement/alignment.js'
import { kendallTau, pearson, spearman } from '../../../src/agreement/correlation.js'
import { MetricInputError } from '../../../src/errors.js'

describe('metricAlignment: correlation', () => {
  const metric = { q1: 0.9, q2: 0.4, q3: 0.7, q4: 0.2, q5: 0.6 }
  const human = { q1: 5, q2: 3, q3: 4, q4: 1, q5: 2 }

  it('is Spearman by default, matched by item id, with p-value and n', () => {
    const a = metricAlignment(metric, human)
    // ranks (1 = best): metric q1 1, q3 2, q5 3, q2 4, q4 5; human q1 1, q3 2, q2 3, q5 4, q4 5 → Σd² = 2 → ρ = 1 − 12/120 = 0.9
    expect(a.value).toBeCloseTo(0.9, 15)
    const x = [0.9, 0.4, 0.7, 0.2, 0.6]
    const y = [5, 3, 4, 1, 2]
    expect(a.details.pvalue).toBe(spearman(x, y).details.pvalue)
    expect(a.details.n).toBe(5)
    expect(metricAlignment(metric, human, { method: 'kendall' }).value).toBe(kendallTau(x, y).value)
    expect(metricAlignment(metric, human, { method: 'pearson' }).value).toBe(pearson(x, y).value)
    expect(a.signature).toBe('MetricAlignment|method:spearman|n:5|version:0.1.0')
  })

  it('lists the largest rank disagreements', () => {
    const a = metricAlignment(metric, human, { top: 5 })
    expect(a.details.rankDisagreements).toEqual([
      { item: 'q2', metric: 0.4, human: 3, metricRank: 4, humanRank: 3, difference: 1 },
      { item: 'q5', metric: 0.6, human: 2, metricRank: 3, humanRank: 4, difference: -1 },
    ])
  })

  it('reports items scored on one side only and accepts arrays and Maps', () => {
    const a = metricAlignment(
      new Map([
        ['a', 1],
        ['b', 2],
        ['c', 3],
        ['x', 9],
      ]),
      { a: 1, b: 2, c: 4, y: 0 },
    )
    expect(a.details.metricOnly).toEqual(['x'])
    expect(a.details.humanOnly).toEqual(['y'])
    expect(a.details.n).toBe(3)
    expect(a.value).toBeCloseTo(1, 15)
    expect(metricAlignment([1, 2, 3], [2, 4, 6]).value).toBeCloseTo(1, 15)
    expect(() => metricAlignment([1, 2, 3], [2, 4])).toThrow(/same length/)
  })

  it('a constant side is NaN with a reason', () => {
    const a = metricAlignment([1, 2, 3], [2, 2, 2])
    expect(a.value).toBeNaN()
    expect(a.details.reason).toMatch(/constant/)
  })
})

describe('metricAlignment: pass-fail', () => {
  it('kappa, accuracy and the confusion matrix (rows human, columns metric)', () => {
    // human:  P P P F F F ; metric ≥ 0.5: P P F P F F
    const metric = [0.9, 0.8, 0.3, 0.6, 0.1, 0.2]
    const human = [true, true, true, false, false, false]
    const a = metricAlignment(metric, human, { method: 'pass-fail', threshold: 0.5 })
    expect(a.details.confusionMatrix).toEqual([
      [2, 1],
      [1, 2],
    ])
    expect(a.details.accuracy).toBeCloseTo(4 / 6, 15)
    // p_o = 2/3, p_e = 1/2 → κ = 1/3
    expect(a.value).toBeCloseTo(1 / 3, 15)
    expect(a.details.disagreements).toEqual([
      { item: '2', metricPass: false, humanPass: true },
      { item: '3', metricPass: true, humanPass: false },
    ])
    expect(a.signature).toBe('MetricAlignment|method:pass-fail|threshold:0.5|n:6|version:0.1.0')
  })

  it('threshold means ≥, and numeric human scores need their own threshold', () => {
    const a = metricAlignment([0.5, 0.4], [4, 2], { method: 'pass-fail', threshold: 0.5, humanThreshold: 3 })
    expect(a.details.accuracy).toBe(1)
    expect(() => metricAlignment([0.5, 0.4], [4, 2], { method: 'pass-fail', threshold: 0.5 })).toThrow(/options\.humanThreshold/)
  })

  it('one verdict everywhere on both sides is NaN with a reason', () => {
    const a = metricAlignment([true, true], [true, true], { method: 'pass-fail' })
    expect(a.value).toBeNaN()
    expect(a.details.reason).toMatch(/0\/0/)
    expect(a.details.accuracy).toBe(1)
  })

  it('refuses bad arguments', () => {
    expect(() => metricAlignment({ a: 1 }, { b: 1 })).toThrow(MetricInputError)
    expect(() => metricAlignment([1, 2], [1, 2], { method: 'cosine' as never })).toThrow(/options\.method/)
    expect(() => metricAlignment([1, Number.NaN], [1, 2])).toThrow(/metricScores\["1"\]/)
  })
})
