import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { normalIsf, normalSf } from './distributions.js'
import { assertLabels, columnSums, labelKey, matrixSum, pairwiseSum, rowSums, uniqueSorted, type Label } from './shared.js'

export type KappaWeighting = 'none' | 'linear' | 'quadratic'

export interface CohenKappaOptions {
  /**
   * Disagreement weights over label INDICES (position in the sorted label list, or in `labels`):
   * `'linear'` |i − j|, `'quadratic'` (i − j)²; unweighted when omitted (or `'none'`).
   */
  readonly weights?: KappaWeighting | null
  /**
   * The categories and their order. Pairs where either rater used a label outside this list are left out
   * (scikit-learn's `labels=`); an unused category still counts in weighted kappa through the indices.
   * Default: the sorted distinct labels of both raters.
   */
  readonly labels?: readonly Label[]
}

/** The keys of {@link CohenKappaOptions}: what cohenKappa accepts. */
export const COHEN_KAPPA_OPTION_KEYS = keysOf<CohenKappaOptions>()('weights', 'labels')

export interface CohenKappaDetails {
  /** Items counted (pairs with both labels in `labels`). */
  readonly n: number
  /** Pairs left out because a label was not in `options.labels`. */
  readonly excluded: number
  readonly labels: readonly Label[]
  /** counts[i][j]: rater 1 said labels[i], rater 2 said labels[j]. */
  readonly confusionMatrix: readonly (readonly number[])[]
  readonly weights: KappaWeighting
  /** Share of items with identical labels (trace / n). */
  readonly observedAgreement: number
  /** Chance agreement from the marginals: Σ_i p1(i)·p2(i). */
  readonly expectedAgreement: number
  /** Σ w·O / n with w the weight matrix (1 − identity when unweighted). */
  readonly observedDisagreement: number
  /** Σ w·E / n, E the outer product of the marginals divided by n. */
  readonly expectedDisagreement: number
  /** Why the value is NaN, when it is. */
  readonly reason?: string
}

/**
 * Cohen's kappa between two raters, with scikit-learn 1.2.1 `cohen_kappa_score` semantics.
 *
 *   κ = 1 − Σ_ij w_ij·O_ij / Σ_ij w_ij·E_ij,   E_ij = (col_i · row_j) / n
 *
 * O is the confusion matrix (rows rater 1, columns rater 2, categories in sorted order or `labels` order),
 * w is 1 − I (unweighted), |i − j| (linear) or (i − j)² (quadratic) over label INDICES, not values. The
 * sums run in numpy's order, so values agree with scikit-learn to the last bit or two.
 *
 * Edge cases: both raters using one identical category is 0/0 → NaN with a `reason` (scikit-learn returns
 * NaN with a RuntimeWarning); raters that are constant but differ give 0; perfectly swapped binary labels
 * give −1. Arrays must be non-empty, of equal length, and hold one kind of label (strings, finite numbers
 * or booleans). Parity: scikit-learn 1.2.1 — all 93 golden values (31 cases × 3 weightings) bit-identical,
 * and its own `test_cohen_kappa` vectors; statsmodels `cohens_kappa` agrees to 1e-12.
 *
 * @example
 * cohenKappa(['yes', 'no', 'yes', 'yes'], ['yes', 'no', 'no', 'yes']).value // 0.5
 */
export function cohenKappa(rater1: readonly Label[], rater2: readonly Label[], options: CohenKappaOptions = {}): Score<CohenKappaDetails> {
  const fn = 'cohenKappa'
  const kind = assertLabels(fn, 'rater1', rater1)
  assertLabels(fn, 'rater2', rater2, kind)
  if (rater1.length !== rater2.length) {
    throw new MetricInputError(fn, 'rater2', `an array of the same length as rater1 (${rater1.length})`, rater2)
  }
  if (rater1.length === 0) throw new MetricInputError(fn, 'rater1', 'a non-empty array of labels', rater1)
  checkOptionKeys(fn, options, COHEN_KAPPA_OPTION_KEYS)
  const weights = weightingOption(fn, options.weights)

  let labels: Label[]
  if (options.labels !== undefined && options.labels !== null) {
    assertLabels(fn, 'options.labels', options.labels, kind)
    labels = [...options.labels]
    if (labels.length === 0) throw new MetricInputError(fn, 'options.labels', 'a non-empty array of labels', options.labels)
    const keys = new Set(labels.map(labelKey))
    if (keys.size !== labels.length) throw new MetricInputError(fn, 'options.labels', 'an array of distinct labels', options.labels)
    // scikit-learn refuses a label list that rater 1 never uses.
    if (!rater1.some((l) => keys.has(labelKey(l)))) {
      throw new MetricInputError(fn, 'options.labels', 'a list containing at least one label of rater1', options.labels)
    }
  } else {
    labels = uniqueSorted([...rater1, ...rater2])
  }

  const { confusion, n, excluded } = confusionMatrix(rater1, rater2, labels)
  const k = labels.length
  const sum0 = columnSums(confusion, k) // rater 2 marginals
  const sum1 = rowSums(confusion) // rater 1 marginals
  const total = pairwiseSum(sum0)
  // expected[i][j] = outer(sum0, sum1)[i][j] / n, as scikit-learn builds it.
  const expected = sum0.map((a) => sum1.map((b) => (a * b) / total))
  const w = weightMatrix(k, weights)
  const observedWeighted = matrixSum(w.map((row, i) => row.map((wij, j) => wij * (confusion[i]![j] as number))))
  const expectedWeighted = matrixSum(w.map((row, i) => row.map((wij, j) => wij * (expected[i]![j] as number))))
  const value = 1 - observedWeighted / expectedWeighted

  let trace = 0
  for (let i = 0; i < k; i += 1) trace += confusion[i]![i] as number
  let chance = 0
  for (let i = 0; i < k; i += 1) chance += ((sum1[i] as number) / total) * ((sum0[i] as number) / total)

  let reason: string | undefined
  if (Number.isNaN(value)) {
    reason =
      n === 0 ? 'no item has both labels in `labels`, so kappa is 0/0' : 'expected disagreement is 0 (both raters gave every item the same single label), so kappa is 0/0'
  }
  const details: CohenKappaDetails = {
    n,
    excluded,
    labels,
    confusionMatrix: confusion,
    weights,
    observedAgreement: trace / n,
    expectedAgreement: chance,
    observedDisagreement: observedWeighted / n,
    expectedDisagreement: expectedWeighted / n,
    ...(reason === undefined ? {} : { reason }),
  }
  return makeScore(
    "Cohen's kappa",
    value,
    buildSignature('Kappa', [
      ['kind', 'cohen'],
      ['weights', weights],
      ['n', n],
    ]),
    details,
  )
}

function weightingOption(fn: string, weights: unknown): KappaWeighting {
  if (weights === undefined || weights === null || weights === 'none') return 'none'
  if (weights === 'linear' || weights === 'quadratic') return weights
  throw new MetricInputError(fn, 'options.weights', "'linear', 'quadratic' or undefined", weights)
}

/** Confusion matrix over `labels` (rows first argument); pairs with a label outside `labels` are skipped. */
export function confusionMatrix(rater1: readonly Label[], rater2: readonly Label[], labels: readonly Label[]): { confusion: number[][]; n: number; excluded: number } {
  const index = new Map<string, number>()
  labels.forEach((l, i) => index.set(labelKey(l), i))
  const confusion = labels.map(() => new Array<number>(labels.length).fill(0))
  let n = 0
  let excluded = 0
  for (let t = 0; t < rater1.length; t += 1) {
    const i = index.get(labelKey(rater1[t] as Label))
    const j = index.get(labelKey(rater2[t] as Label))
    if (i === undefined || j === undefined) {
      excluded += 1
      continue
    }
    confusion[i]![j] = (confusion[i]![j] as number) + 1
    n += 1
  }
  return { confusion, n, excluded }
}

function weightMatrix(k: number, weights: KappaWeighting): number[][] {
  const w: number[][] = []
  for (let i = 0; i < k; i += 1) {
    const row: number[] = []
    for (let j = 0; j < k; j += 1) {
      if (weights === 'none') row.push(i === j ? 0 : 1)
      else if (weights === 'linear') row.push(Math.abs(i - j))
      else row.push((i - j) * (i - j))
    }
    w.push(row)
  }
  return w
}

export type KappaTableWeighting = 'linear' | 'ca' | 'quadratic' | 'fc' | 'toeplitz'

export interface CohenKappaTableOptions {
  /**
   * Category scores (1-D) turned into weights by `wt`, or a full k × k weight matrix (2-D, used as is).
   * With `wt` but no `weights`, the scores are 0, 1, …, k−1.
   */
  readonly weights?: readonly number[] | readonly (readonly number[])[]
  /**
   * How 1-D `weights` become a matrix: `'linear'`/`'ca'` |s_i − s_j| / (s_last − s_first) (the default when
   * `weights` is given), `'quadratic'`/`'fc'` the square of that, `'toeplitz'` w_ij = weights[|i − j|].
   */
  readonly wt?: KappaTableWeighting
  /** One-sided level of the confidence limits; statsmodels fixes 0.025 (a 95% interval). */
  readonly alpha?: number
}

/** The keys of {@link CohenKappaTableOptions}: what cohenKappaTable accepts. */
export const COHEN_KAPPA_TABLE_OPTION_KEYS = keysOf<CohenKappaTableOptions>()('weights', 'wt', 'alpha')

export interface CohenKappaTableDetails {
  readonly kind: 'Simple' | 'Weighted'
  readonly n: number
  readonly table: readonly (readonly number[])[]
  /** Weight matrix (disagreement weights; 0 on the diagonal for the usual choices), when weighted. */
  readonly weightMatrix?: readonly (readonly number[])[]
  readonly kappa: number
  readonly kappaMax: number
  readonly varKappa: number
  readonly stdKappa: number
  /** Variance and standard error of kappa under H0: κ = 0. */
  readonly varKappa0: number
  readonly stdKappa0: number
  readonly zValue: number
  readonly pvalueOneSided: number
  readonly pvalueTwoSided: number
  readonly alpha: number
  readonly kappaLow: number
  readonly kappaUpp: number
  readonly reason?: string
}

/**
 * Cohen's kappa from a k × k contingency table, with its asymptotic standard errors, confidence limits and
 * the z test of κ = 0 — statsmodels 0.13.5 `cohens_kappa(table, weights, wt)` semantics (SAS PROC FREQ
 * formulas).
 *
 * Simple kappa: κ = (p_o − p_e) / (1 − p_e) with Fleiss–Cohen–Everitt variance; weighted kappa:
 * κ = 1 − Σ w·p / Σ w·p_e (w disagreement weights), variance with agreement weights 1 − w as in SAS.
 * z = κ / ASE₀, one-sided p = 1 − Φ(z), two-sided p = 2(1 − Φ(|z|)), limits κ ∓ z_{1−α}·ASE.
 * Undefined values (a single used category: 1 − p_e = 0) come out NaN with a `reason`.
 * Parity: statsmodels' own test vectors (SAS and R `irr` printouts) to 1e-12 of statsmodels' output.
 *
 * @example
 * cohenKappaTable([[0, 4, 1], [0, 8, 0], [0, 1, 5]]).details.stdKappa // 0.13801357830581…
 */
export function cohenKappaTable(table: readonly (readonly number[])[], options: CohenKappaTableOptions = {}): Score<CohenKappaTableDetails> {
  const fn = 'cohenKappaTable'
  const t = squareTable(fn, table)
  checkOptionKeys(fn, options, COHEN_KAPPA_TABLE_OPTION_KEYS)
  const k = t.length
  const alpha = options.alpha ?? 0.025
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 0.5)) throw new MetricInputError(fn, 'options.alpha', 'a number in (0, 0.5)', alpha)

  let agree = 0
  {
    const diag = t.map((row, i) => row[i] as number)
    agree = pairwiseSum(diag)
  }
  const nobs = matrixSum(t)
  const probs = t.map((row) => row.map((v) => v / nobs))
  const freqRow = rowSums(t).map((v) => v / nobs)
  const freqCol = columnSums(t, k).map((v) => v / nobs)
  // prob_exp[i][j] = freq_col[j] * freq_row[i]
  const probExp = freqRow.map((r) => freqCol.map((c) => c * r))
  const agreeExp = pairwiseSum(probExp.map((row, i) => row[i] as number))

  const weighted = options.weights !== undefined || options.wt !== undefined
  let kappa: number
  let varKappa: number
  let varKappa0: number
  let weightMatrixOut: number[][] | undefined
  if (!weighted) {
    kappa = (agree / nobs - agreeExp) / (1 - agreeExp)
    const termA = pairwiseSum(probs.map((row, i) => (row[i] as number) * square(1 - ((freqRow[i] as number) + (freqCol[i] as number)) * (1 - kappa))))
    const termBCells = probs.map((row, i) => row.map((p, j) => (i === j ? 0 : p * square((freqCol[i] as number) + (freqRow[j] as number)))))
    const termB = square(1 - kappa) * matrixSum(termBCells)
    const termC = square(kappa - agreeExp * (1 - kappa))
    varKappa = (termA + termB - termC) / square(1 - agreeExp) / nobs
    const termC0 = pairwiseSum(freqCol.map((c, i) => c * (freqRow[i] as number) * (c + (freqRow[i] as number))))
    varKappa0 = (agreeExp + square(agreeExp) - termC0) / (square(1 - agreeExp) * nobs)
  } else {
    const W = tableWeights(fn, k, options)
    weightMatrixOut = W
    kappa =
      1 - matrixSum(W.map((row, i) => row.map((w, j) => w * (t[i]![j] as number)))) / nobs / matrixSum(W.map((row, i) => row.map((w, j) => w * (probExp[i]![j] as number))))
    const agreementW = W.map((row) => row.map((w) => 1 - w))
    const wRow = rowSums(agreementW.map((row) => row.map((w, j) => (freqCol[j] as number) * w)))
    const wCol = columnSums(
      agreementW.map((row, i) => row.map((w) => (freqRow[i] as number) * w)),
      k,
    )
    const agreeWexp = matrixSum(agreementW.map((row, i) => row.map((w, j) => w * (freqCol[j] as number) * (freqRow[i] as number))))
    const termA = matrixSum(probs.map((row, i) => row.map((p, j) => p * square((agreementW[i]![j] as number) - ((wCol[j] as number) + (wRow[i] as number)) * (1 - kappa)))))
    const fac = 1 / (square(1 - agreeWexp) * nobs)
    varKappa = (termA - square(kappa - agreeWexp * (1 - kappa))) * fac
    const freqse = freqRow.map((r) => freqCol.map((c) => c * r))
    varKappa0 =
      (matrixSum(freqse.map((row, i) => row.map((f, j) => f * square((agreementW[i]![j] as number) - ((wCol[j] as number) + (wRow[i] as number)))))) - square(agreeWexp)) * fac
  }
  let minSum = 0
  {
    const mins = freqRow.map((r, i) => Math.min(r, freqCol[i] as number))
    minSum = pairwiseSum(mins)
  }
  const kappaMax = (minSum - agreeExp) / (1 - agreeExp)
  const stdKappa = Math.sqrt(varKappa)
  const stdKappa0 = Math.sqrt(varKappa0)
  const zValue = kappa / stdKappa0
  const pvalueOneSided = normalSf(zValue)
  const pvalueTwoSided = normalSf(Math.abs(zValue)) * 2
  const delta = normalIsf(alpha) * stdKappa
  let reason: string | undefined
  if (Number.isNaN(kappa)) {
    reason = nobs === 0 ? 'the table is empty, so kappa is 0/0' : 'chance agreement is 1 (one category holds every rating), so kappa is 0/0'
  } else if (Number.isNaN(zValue)) {
    reason = 'the variance of kappa under H0 is 0 or undefined, so z and the p-values are undefined'
  }
  const details: CohenKappaTableDetails = {
    kind: weighted ? 'Weighted' : 'Simple',
    n: nobs,
    table: t,
    ...(weightMatrixOut === undefined ? {} : { weightMatrix: weightMatrixOut }),
    kappa,
    kappaMax,
    varKappa,
    stdKappa,
    varKappa0,
    stdKappa0,
    zValue,
    pvalueOneSided,
    pvalueTwoSided,
    alpha,
    kappaLow: kappa - delta,
    kappaUpp: kappa + delta,
    ...(reason === undefined ? {} : { reason }),
  }
  const weightName = !weighted ? 'none' : options.weights !== undefined && Array.isArray(options.weights[0]) ? 'matrix' : (options.wt ?? 'linear')
  return makeScore(
    "Cohen's kappa",
    kappa,
    buildSignature('Kappa', [
      ['kind', 'cohen-table'],
      ['weights', weightName],
      ['n', nobs],
    ]),
    details,
  )
}

function square(x: number): number {
  return x * x
}

function squareTable(fn: string, table: unknown): number[][] {
  if (!Array.isArray(table) || table.length === 0) throw new MetricInputError(fn, 'table', 'a non-empty square array of counts', table)
  const k = table.length
  return table.map((row, i) => {
    if (!Array.isArray(row) || row.length !== k) throw new MetricInputError(fn, `table[${i}]`, `a row of ${k} counts (square table)`, row)
    return row.map((v, j) => {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new MetricInputError(fn, `table[${i}][${j}]`, 'a non-negative finite count', v)
      return v
    })
  })
}

function tableWeights(fn: string, k: number, options: CohenKappaTableOptions): number[][] {
  const raw = options.weights ?? Array.from({ length: k }, (_, i) => i)
  if (!Array.isArray(raw) || raw.length === 0) throw new MetricInputError(fn, 'options.weights', 'an array of scores or a square weight matrix', raw)
  if (Array.isArray(raw[0])) {
    const m = raw as readonly (readonly number[])[]
    if (m.length !== k || m.some((row) => !Array.isArray(row) || row.length !== k)) {
      throw new MetricInputError(fn, 'options.weights', `a ${k} × ${k} weight matrix (same shape as the table)`, raw)
    }
    return m.map((row) => row.map((v) => Number(v)))
  }
  const s = raw as readonly number[]
  if (s.length !== k || s.some((v) => typeof v !== 'number' || !Number.isFinite(v))) {
    throw new MetricInputError(fn, 'options.weights', `${k} finite category scores`, raw)
  }
  const wt = options.wt ?? 'linear'
  const first = s[0] as number
  const last = s[k - 1] as number
  if (wt === 'linear' || wt === 'ca') return s.map((a) => s.map((b) => Math.abs(a - b) / (last - first)))
  if (wt === 'quadratic' || wt === 'fc') return s.map((a) => s.map((b) => square(a - b) / square(last - first)))
  if (wt === 'toeplitz') return s.map((_, i) => s.map((__, j) => s[Math.abs(i - j)] as number))
  throw new MetricInputError(fn, 'options.wt', "'linear', 'ca', 'quadratic', 'fc' or 'toeplitz'", wt)
}

/**
 * The SAS-style printout statsmodels gives for `str(cohens_kappa(table))` (kappa, ASE, 95% limits and the
 * test of κ = 0, four decimals).
 *
 * @example
 * formatKappaSummary(cohenKappaTable([[0, 4, 1], [0, 8, 0], [0, 1, 5]]).details).includes('Kappa                     0.4842') // true
 */
export function formatKappaSummary(details: CohenKappaTableDetails): string {
  const f = (x: number) => formatFixed(x, 4).padStart(6)
  const level = 100 - details.alpha * 200
  const levelText = Math.abs(Math.round(level) - level) < 1e-14 ? String(Math.round(level)).padStart(4) : level.toFixed(1).padStart(4)
  const kind = details.kind
  return [
    `                  ${kind} Kappa Coefficient`,
    '              --------------------------------',
    `              Kappa                     ${f(details.kappa)}`,
    `              ASE                       ${f(details.stdKappa)}`,
    `            ${levelText}% Lower Conf Limit      ${f(details.kappaLow)}`,
    `            ${levelText}% Upper Conf Limit      ${f(details.kappaUpp)}`,
    '',
    `                 Test of H0: ${kind} Kappa = 0`,
    '',
    `              ASE under H0              ${f(details.stdKappa0)}`,
    `              Z                         ${f(details.zValue)}`,
    `              One-sided Pr >  Z         ${f(details.pvalueOneSided)}`,
    `              Two-sided Pr > |Z|        ${f(details.pvalueTwoSided)}`,
    '',
  ].join('\n')
}

/** Python's `'%.Nf' % x`: `nan`, `inf`, and `-0.0000` kept for tiny negatives. */
function formatFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan'
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf'
  const text = Math.abs(x).toFixed(digits)
  return x < 0 || Object.is(x, -0) ? `-${text}` : text
}
