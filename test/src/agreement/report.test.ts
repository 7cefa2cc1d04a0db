import { agreementReport } from '../../../src/agreement/report.js'
import type { ScoreRating } from '../../../src/agreement/ratings.js'
import { MetricInputError } from '../../../src/errors.js'

function rows(dimension: string, byRater: Record<string, Array<number | string | boolean | null>>, items = ['i1', 'i2', 'i3', 'i4']): ScoreRating[] {
  const out: ScoreRating[] = []
  for (const [rater, scores] of Object.entries(byRater)) {
    scores.forEach((score, k) => {
      if (score !== null) out.push({ item: items[k]!, rater, dimension, score })
    })
  }
  return out
}

describe('agreementReport', () => {
  // A and B agree everywhere; C disagrees with both on i2 and i4.
  const faithfulness = rows('faithfulness', { A: [1, 1, 0, 0], B: [1, 1, 0, 0], C: [1, 0, 0, 1] })

  it('hand-computed pairwise kappas, Fleiss, Krippendorff', () => {
    const report = agreementReport(faithfulness)
    const d = report.details.dimensions[0]!
    expect(d.dimension).toBe('faithfulness')
    expect(d.raters).toEqual(['A', 'B', 'C'])
    expect(d.items).toBe(4)
    expect(d.level).toBe('ordinal') // numeric scores
    expect(d.pairwiseKappa.map((p) => [p.raters.join('-'), p.value, p.observedAgreement, p.items])).toEqual([
      ['A-B', 1, 1, 4],
      ['A-C', 0, 0.5, 4],
      ['B-C', 0, 0.5, 4],
    ])
    // per-item P = 1, 1/3, 1, 1/3 → P̄ = 2/3; category shares ½, ½ → κ = (2/3 − 1/2)/(1/2) = 1/3
    expect(d.fleissKappa.value).toBeCloseTo(1 / 3, 15)
    expect(d.fleissKappa.items).toBe(4)
    // o = [[4, 2], [2, 4]], n = 12, e₀₁ = 36/11 → α = 1 − 4/(72/11) = 7/18 (same at every level with 2 values)
    expect(d.krippendorffAlpha.value).toBeCloseTo(7 / 18, 15)
    expect(report.value).toBe(d.krippendorffAlpha.value)
    expect(report.signature).toBe('AgreementReport|level:auto|weights:none|dimensions:1|version:0.1.0')
  })

  it('names the most disagreeing pair with its confusion matrix, and the disputed items', () => {
    const d = agreementReport(faithfulness).details.dimensions[0]!
    expect(d.mostDisagreeingPair).toEqual({
      raters: ['A', 'C'],
      observedAgreement: 0.5,
      kappa: 0,
      labels: [0, 1],
      confusionMatrix: [
        [1, 1],
        [1, 1],
      ],
    })
    // 1 − (2·1)/(3·2) = 2/3 on i2 and i4; nobody disputes i1 or i3
    expect(d.disputedItems.map((i) => [i.item, +i.disagreement.toFixed(12)])).toEqual([
      ['i2', +(2 / 3).toFixed(12)],
      ['i4', +(2 / 3).toFixed(12)],
    ])
    expect(d.disputedItems[0]!.scores).toEqual({ A: 1, B: 1, C: 0 })
  })

  it('handles several dimensions, missing ratings and undefined statistics', () => {
    const fluency = rows('fluency', { A: ['good', 'good', null, 'good'], B: ['good', null, 'good', 'good'], C: [null, 'good', 'good', null] })
    const report = agreementReport([...faithfulness, ...fluency], { topItems: 1 })
    const [, f] = report.details.dimensions
    expect(f!.dimension).toBe('fluency')
    expect(f!.level).toBe('nominal')
    expect(f!.fleissKappa.value).toBeNaN()
    expect(f!.fleissKappa.reason).toBe('no item was scored by every rater')
    expect(f!.krippendorffAlpha.value).toBeNaN()
    expect(f!.krippendorffAlpha.reason).toMatch(/more than one value in the domain/)
    expect(f!.pairwiseKappa.every((p) => Number.isNaN(p.value) && p.reason !== undefined)).toBe(true)
    expect(f!.disputedItems).toEqual([])
    // the report's value is the lowest defined alpha
    expect(report.value).toBeCloseTo(7 / 18, 15)
    expect(report.details.dimensions[0]!.disputedItems).toHaveLength(1)
  })

  it('raters without shared items get a NaN kappa with a reason', () => {
    const d = agreementReport(rows('x', { A: [1, 2, null, null], B: [1, 1, null, null], C: [null, null, 2, 1], D: [null, null, 2, 2] })).details.dimensions[0]!
    const ac = d.pairwiseKappa.find((p) => p.raters.join() === 'A,C')!
    expect(ac.value).toBeNaN()
    expect(ac.reason).toMatch(/no item in common/)
  })

  it('treats pass/fail booleans as labels', () => {
    const d = agreementReport(rows('verdict', { A: [true, true, false, false], B: [true, false, false, false] })).details.dimensions[0]!
    expect(d.labels).toEqual([false, true])
    expect(d.level).toBe('nominal')
    expect(d.pairwiseKappa[0]!.value).toBeCloseTo(0.5, 15) // p_o = 3/4, p_e = 1/2
    expect(Number.isFinite(d.krippendorffAlpha.value)).toBe(true)
  })

  it('refuses duplicates, mixed score kinds and bad options', () => {
    expect(() => agreementReport([])).toThrow(MetricInputError)
    const dup = [...faithfulness, { item: 'i1', rater: 'A', dimension: 'faithfulness', score: 0 }]
    expect(() => agreementReport(dup)).toThrow(/A rated i1 on faithfulness twice/)
    expect(() => agreementReport([...faithfulness, { item: 'i5', rater: 'A', dimension: 'faithfulness', score: 'bad' }])).toThrow(/mixes number and string/)
    expect(() => agreementReport(rows('x', { A: ['a', 'b'], B: ['a', 'a'] }), { level: 'interval' })).toThrow(/options\.level/)
    expect(() => agreementReport(faithfulness, { topItems: -1 })).toThrow(/options\.topItems/)
  })
})
