import { fleissKappa } from '../agreement/fleiss-kappa.js'
import { krippendorffAlpha } from '../agreement/krippendorff-alpha.js'
import { MetricInputError } from '../errors.js'

/**
 * How stable a judge is across repeated trials of the same questions: the numbers behind
 * `configure({ trials })`. A trial is one full run of a judge metric with its own seed (`seed + t`), so
 * the replay cache keys every trial apart.
 */

/** One judged case and its value in each trial (all cases have the same number of trials). */
export interface TrialCase {
  readonly id: string
  readonly values: readonly number[]
}

/** A statistic that may be undefined for the data: its value, or NaN with the reason. */
export interface TrialAgreement {
  readonly value: number
  readonly reason?: string
}

export interface TrialStatistics {
  /** Trials per case. */
  readonly trials: number
  readonly cases: number
  /** The verdict threshold: a case passes a trial when its value is ≥ it. */
  readonly threshold: number
  /** Mean over every case and trial (= the mean of the per-trial means). */
  readonly mean: number
  /** Lowest and highest per-trial mean: how far the assertion's own value moves between trials. */
  readonly min: number
  readonly max: number
  /** The per-trial means, trial 1 first. */
  readonly trialMeans: readonly number[]
  /** Share of the case × trial verdicts that pass. */
  readonly passRate: number
  /** Share of the cases whose verdict is not the same in every trial. */
  readonly flipRate: number
  /** The cases that flipped, with their per-trial values, in input order. */
  readonly flipped: readonly TrialCase[]
  /**
   * Fleiss' kappa over the verdicts (cases are the items, trials the raters, pass/fail the categories):
   * agreement of the judge with itself beyond chance. NaN with a reason when undefined (every verdict
   * the same: chance agreement is 1).
   */
  readonly fleissKappa: TrialAgreement
  /**
   * Krippendorff's alpha (interval) over the values (trials × cases): 1 when every case gets the same
   * value in every trial. NaN with a reason when undefined (a single value overall, no case judged twice).
   */
  readonly krippendorffAlpha: TrialAgreement
}

/**
 * Trial statistics of judged cases: mean, min and max of the per-trial means, pass rate, flip rate and
 * the judge's self-consistency (Fleiss' kappa over verdicts, Krippendorff's alpha over values, both
 * from the agreement core: `fleissKappa(…, { input: 'ratings' })` and `krippendorffAlpha(…, { level:
 * 'interval' })`, whose parity with statsmodels and the krippendorff package is tested there).
 *
 * A verdict is `value ≥ threshold`. A case flips when its verdicts are not all equal, so with one
 * trial nothing can flip and `flipRate` is 0. With a per-trial flip probability p, the expected flip
 * rate over n trials is 1 − (1 − p)ⁿ − pⁿ.
 *
 * @example
 * trialStatistics([{ id: 'q1', values: [1, 1, 0] }, { id: 'q2', values: [1, 1, 1] }], 0.5)
 * // { mean: 0.8333, min: 0.5, max: 1, passRate: 0.8333, flipRate: 0.5, flipped: [q1], … }
 */
export function trialStatistics(cases: readonly TrialCase[], threshold: number): TrialStatistics {
  const fn = 'trialStatistics'
  if (!Array.isArray(cases) || cases.length === 0) throw new MetricInputError(fn, 'cases', 'a non-empty array of { id, values }', cases)
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) throw new MetricInputError(fn, 'threshold', 'a finite number', threshold)
  const trials = (cases[0] as TrialCase | null)?.values?.length
  cases.forEach((c, i) => {
    if (c === null || typeof c !== 'object' || typeof c.id !== 'string') throw new MetricInputError(fn, `cases[${i}]`, 'a case { id: string, values }', c)
    if (!Array.isArray(c.values) || c.values.length === 0 || c.values.length !== trials) {
      throw new MetricInputError(fn, `cases[${i}].values`, `an array of ${trials ?? 'one or more'} values (one per trial, as many as cases[0])`, c.values)
    }
    const values: readonly unknown[] = c.values
    values.forEach((v, t) => {
      // NaN trials are refused, not averaged: the matcher fails a case the judge could not score before this.
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new MetricInputError(fn, `cases[${i}].values[${t}]`, 'a finite number', v)
    })
  })
  const n = trials as number
  const trialMeans = Array.from({ length: n }, (_, t) => cases.reduce((a, c) => a + (c.values[t] as number), 0) / cases.length)
  const mean = trialMeans.reduce((a, b) => a + b, 0) / n
  const verdicts = cases.map((c) => c.values.map((v: number) => v >= threshold))
  const passes = verdicts.reduce((a, row) => a + row.filter(Boolean).length, 0)
  const flipped = cases.filter((_, i) => new Set(verdicts[i]).size > 1)
  return {
    trials: n,
    cases: cases.length,
    threshold,
    mean,
    min: Math.min(...trialMeans),
    max: Math.max(...trialMeans),
    trialMeans,
    passRate: passes / (cases.length * n),
    flipRate: flipped.length / cases.length,
    flipped,
    fleissKappa: verdictKappa(verdicts),
    krippendorffAlpha: valueAlpha(cases, n),
  }
}

function verdictKappa(verdicts: readonly (readonly boolean[])[]): TrialAgreement {
  if ((verdicts[0]?.length ?? 0) < 2) return { value: Number.NaN, reason: 'one trial: self-consistency needs at least two' }
  const score = fleissKappa(
    verdicts.map((row) => row.map((pass) => (pass ? 'pass' : 'fail'))),
    { input: 'ratings' },
  )
  return Number.isNaN(score.value) ? { value: Number.NaN, reason: score.details.reason ?? "Fleiss' kappa is 0/0" } : { value: score.value }
}

function valueAlpha(cases: readonly TrialCase[], n: number): TrialAgreement {
  if (n < 2) return { value: Number.NaN, reason: 'one trial: self-consistency needs at least two' }
  const matrix = Array.from({ length: n }, (_, t) => cases.map((c) => c.values[t] as number))
  try {
    const score = krippendorffAlpha(matrix, { level: 'interval' })
    return Number.isNaN(score.value) ? { value: Number.NaN, reason: score.details.reason ?? "Krippendorff's alpha is 0/0" } : { value: score.value }
  } catch (error) {
    // The reference refuses data with a single value in the domain: every trial gave every case the same value.
    if (error instanceof MetricInputError || (error as Error | undefined)?.name === 'MetricInputError') {
      return { value: Number.NaN, reason: `undefined: the data need ${(error as MetricInputError).expected}` }
    }
    throw error
  }
}

/**
 * The flip rate expected from a judge whose verdict on each case turns over independently with
 * probability `p` in each of `trials` trials: 1 − (1 − p)ⁿ − pⁿ (for n ≥ 2; 0 for one trial).
 *
 * @example expectedFlipRate(0.1, 5) // 0.40951
 */
export function expectedFlipRate(p: number, trials: number): number {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new MetricInputError('expectedFlipRate', 'p', 'a probability from 0 to 1', p)
  if (!Number.isSafeInteger(trials) || trials < 1) throw new MetricInputError('expectedFlipRate', 'trials', 'a positive integer', trials)
  if (trials === 1) return 0
  // 1 − (1 − p)ⁿ as −expm1(n·log1p(−p)): the plain form cancels to a negative number for tiny p.
  return Math.max(0, -Math.expm1(trials * Math.log1p(-p)) - p ** trials)
}
