// One system's row of a sacrebleu paired test as the fixtures record it, and the comparison both paired parity
// files use (sacrebleu-significance for BLEU/chrF, sacrebleu-ter-significance for TER).
import type { PairedSystemResult } from '../../src/generation/significance/paired.js'

export interface PairedGoldenRow {
  system: string
  score: number
  p_value: number | null
  mean: number | null
  ci: number | null
}

/**
 * Our rows against sacrebleu's, in order: p-values always exactly; the score and mean/ci within the given
 * tolerances, where 0 means bitwise (`toBe`).
 */
export function expectPairedRows(ours: PairedSystemResult[], theirs: PairedGoldenRow[], tolerance: { score: number; meanCi: number }): void {
  const close = (got: number | null, want: number | null, tol: number, label: string) => {
    if (want === null || tol === 0) expect(got, label).toBe(want)
    else expect(Math.abs(got! - want), label).toBeLessThanOrEqual(tol)
  }
  expect(ours.map((r) => r.system)).toEqual(theirs.map((r) => r.system))
  ours.forEach((r, i) => {
    const g = theirs[i]!
    close(r.score, g.score, tolerance.score, `${r.system} score`)
    expect(r.pValue, `${r.system} p-value`).toBe(g.p_value)
    close(r.mean, g.mean, tolerance.meanCi, `${r.system} mean`)
    close(r.ci, g.ci, tolerance.meanCi, `${r.system} ci`)
  })
}
