import { MetricInputError } from '../errors.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { normalSf, regularizedBeta, studentT } from './distributions.js'
import { finiteVector, pairwiseSum } from './shared.js'

export type CorrelationMethod = 'spearman' | 'kendall' | 'pearson'

export interface CorrelationDetails {
  readonly method: CorrelationMethod
  readonly n: number
  /** The coefficient (also `value`). */
  readonly statistic: number
  /** Two-sided p-value for "no association". */
  readonly pvalue: number
  /**
   * How the p-value was obtained: Student's t with n − 2 df (Spearman), the exact beta distribution of r
   * (Pearson), the exact permutation distribution or the normal approximation (Kendall), or `'none'`.
   */
  readonly pvalueMethod: 't' | 'beta' | 'exact' | 'asymptotic' | 'none'
  /** Tied pairs within x and within y (Kendall only). */
  readonly ties?: { readonly x: number; readonly y: number; readonly both: number }
  /** Why statistic or p-value is NaN, when one is. */
  readonly reason?: string
}

export type CorrelationScore = Score<CorrelationDetails>

function checkPair(fn: string, x: unknown, y: unknown): [number[], number[]] {
  const xs = finiteVector(fn, 'x', x)
  const ys = finiteVector(fn, 'y', y)
  if (xs.length !== ys.length) throw new MetricInputError(fn, 'y', `an array of the same length as x (${xs.length})`, y)
  return [xs, ys]
}

function isConstant(v: readonly number[]): boolean {
  return v.every((a) => a === v[0])
}

function correlationScore(name: string, details: CorrelationDetails): CorrelationScore {
  return makeScore(
    name,
    details.statistic,
    buildSignature('Correlation', [
      ['kind', details.method],
      ['n', details.n],
      ['pvalue', 'two-sided'],
    ]),
    details,
  )
}

/**
 * Ranks 1..n with ties sharing their average rank (scipy `rankdata(method='average')`).
 *
 * @example
 * averageRanks([10, 20, 20, 5]) // [2, 3.5, 3.5, 1]
 */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const ranks = new Array<number>(values.length)
  let start = 0
  while (start < order.length) {
    let end = start + 1
    while (end < order.length && order[end]![0] === order[start]![0]) end += 1
    // positions start..end-1 hold ranks start+1..end; their mean is (start + 1 + end) / 2
    const rank = (start + 1 + end) / 2
    for (let i = start; i < end; i += 1) ranks[order[i]![1]] = rank
    start = end
  }
  return ranks
}

/**
 * Spearman's rank correlation ρ with a two-sided p-value, as scipy 1.10.1 `spearmanr(x, y)`.
 *
 *   ρ = Pearson correlation of the average ranks (ties share the mean rank),
 *   t = ρ·√((n − 2) / ((1 + ρ)(1 − ρ))),  p = 2·P(T_{n−2} ≥ |t|)
 *
 * computed like `np.corrcoef` (covariance over n − 1, divided by each standard deviation in turn).
 * Constant input → NaN statistic and p-value with a `reason` (scipy warns `ConstantInputWarning`); with
 * n = 2 the p-value is NaN (0 degrees of freedom), as in scipy. Parity: the 22 golden cases, statistic to
 * 1e-12 and p-value to 1e-9.
 *
 * @example
 * spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]).value // 0.8207826816681233
 */
export function spearman(x: readonly number[], y: readonly number[]): CorrelationScore {
  const fn = 'spearman'
  const [xs, ys] = checkPair(fn, x, y)
  const n = xs.length
  const name = "Spearman's rho"
  if (n < 2 || isConstant(xs) || isConstant(ys)) {
    return correlationScore(name, {
      method: 'spearman',
      n,
      statistic: Number.NaN,
      pvalue: Number.NaN,
      pvalueMethod: 'none',
      reason: n < 2 ? 'fewer than 2 pairs: the correlation is not defined' : 'an input is constant: the correlation coefficient is not defined',
    })
  }
  const rs = corrcoef(averageRanks(xs), averageRanks(ys))
  const dof = n - 2
  // t = rs·√(dof / ((rs + 1)(1 − rs))) with the square root's argument clipped at 0, as scipy does
  let ratio = dof / ((rs + 1) * (1 - rs))
  if (ratio < 0) ratio = 0
  const t = rs * Math.sqrt(ratio)
  const pvalue = studentT(-Math.abs(t), dof).cdf * 2
  return correlationScore(name, {
    method: 'spearman',
    n,
    statistic: rs,
    pvalue,
    pvalueMethod: 't',
    ...(Number.isNaN(pvalue) ? { reason: 'n = 2 leaves 0 degrees of freedom: the p-value is not defined' } : {}),
  })
}

/** `np.corrcoef(a, b)[1, 0]`: covariance matrix over n − 1, then divided by σ_b and by σ_a, clipped to [−1, 1]. */
function corrcoef(a: readonly number[], b: readonly number[]): number {
  const n = a.length
  const ma = pairwiseSum(a) / n
  const mb = pairwiseSum(b) / n
  const ca = a.map((v) => v - ma)
  const cb = b.map((v) => v - mb)
  const fact = n - 1
  const cab = pairwiseSum(ca.map((v, i) => v * (cb[i] as number))) / fact
  const caa = pairwiseSum(ca.map((v) => v * v)) / fact
  const cbb = pairwiseSum(cb.map((v) => v * v)) / fact
  const r = cab / Math.sqrt(cbb) / Math.sqrt(caa)
  return Math.min(1, Math.max(-1, r))
}

/**
 * Pearson's r with the exact two-sided p-value, as scipy 1.10.1 `pearsonr(x, y)`.
 *
 *   r = Σ (x − x̄)(y − ȳ) / (‖x − x̄‖·‖y − ȳ‖),  p = 2·P(R ≥ |r|),  R ~ Beta(n/2 − 1, n/2 − 1) on [−1, 1]
 *
 * r is clipped to [−1, 1]. n = 2 gives r = ±1 and p = 1 exactly (scipy's shortcut). Constant input → NaN
 * statistic and p-value with a `reason` (scipy: `ConstantInputWarning`). Fewer than 2 pairs throws, as
 * scipy raises. Parity: the 22 golden cases, statistic to 1e-12 and p-value to 1e-9 (scipy's own r comes
 * from BLAS dot/nrm2, so the last bit or two of r can differ, which matters only for |r| within a few
 * ulps of 1).
 *
 * @example
 * pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]).value // 0.7745966692414834
 */
export function pearson(x: readonly number[], y: readonly number[]): CorrelationScore {
  const fn = 'pearson'
  const [xs, ys] = checkPair(fn, x, y)
  const n = xs.length
  const name = "Pearson's r"
  if (n < 2) throw new MetricInputError(fn, 'x', 'an array of at least 2 values', x)
  if (isConstant(xs) || isConstant(ys)) {
    return correlationScore(name, {
      method: 'pearson',
      n,
      statistic: Number.NaN,
      pvalue: Number.NaN,
      pvalueMethod: 'none',
      reason: 'an input is constant: the correlation coefficient is not defined',
    })
  }
  if (n === 2) {
    const r = Math.sign((xs[1] as number) - (xs[0] as number)) * Math.sign((ys[1] as number) - (ys[0] as number))
    return correlationScore(name, { method: 'pearson', n, statistic: r, pvalue: 1, pvalueMethod: 'none' })
  }
  // Centre and take norms in units of a power of two near each side's largest magnitude: the scaling is
  // exact (no rounding), so r is bit-for-bit what the unscaled formula gives wherever that formula does
  // not overflow or underflow, and stays right where it would (|x| ≥ ~1e154 made ‖x − x̄‖ infinite and r 0).
  const xm = centredScaled(xs)
  const ym = centredScaled(ys)
  const nx = norm2(xm)
  const ny = norm2(ym)
  let dot = 0
  for (let i = 0; i < n; i += 1) dot += ((xm[i] as number) / nx) * ((ym[i] as number) / ny)
  if (!Number.isFinite(dot) || !(nx > 0) || !(ny > 0)) {
    throw new MetricInputError(fn, 'x', 'values whose correlation can be computed in double precision (r came out non-finite)', x)
  }
  const r = Math.max(Math.min(dot, 1), -1)
  const ab = n / 2 - 1
  // scipy: 2 · beta(ab, ab, loc=−1, scale=2).sf(|r|), i.e. the upper tail at (|r| + 1)/2
  const u = (Math.abs(r) + 1) / 2
  const pvalue = 2 * regularizedBeta(u, ab, ab, 1 - u).upper
  return correlationScore(name, { method: 'pearson', n, statistic: r, pvalue, pvalueMethod: 'beta' })
}

/**
 * `v − mean(v)` in units of 2^k: the values are first divided by the power of two at or above their
 * largest magnitude (so the sum cannot overflow), centred, then the deviations are divided by the power of
 * two at or above their largest magnitude (so their squares neither overflow nor all underflow). Dividing
 * by a power of two is exact for normal numbers, so the correlation, which is scale-free, is unchanged.
 */
function centredScaled(v: readonly number[]): number[] {
  const scale = powerOfTwoAbove(v)
  const s = v.map((a) => a / scale)
  const mean = pairwiseSum(s) / s.length
  const centred = s.map((a) => a - mean)
  const k = powerOfTwoAbove(centred)
  return centred.map((a) => a / k)
}

/** The power of two 2^e with max|v| ≤ 2^e < 2·max|v| (1 when every value is 0), itself a finite double. */
function powerOfTwoAbove(v: readonly number[]): number {
  let m = 0
  for (const a of v) m = Math.max(m, Math.abs(a))
  if (m === 0 || !Number.isFinite(m)) return 1
  const e = Math.min(1023, Math.max(-1074, Math.ceil(Math.log2(m))))
  return 2 ** e
}

/** Euclidean norm ‖v‖ (scipy uses BLAS nrm2; any difference is in the last bit). */
function norm2(v: readonly number[]): number {
  return Math.sqrt(pairwiseSum(v.map((a) => a * a)))
}

/**
 * Kendall's tau-b with a two-sided p-value, as scipy 1.10.1 `kendalltau(x, y)` (variant 'b',
 * method 'auto').
 *
 *   τ_b = (n_c − n_d) / √((n₀ − n_x)(n₀ − n_y)),  n₀ = n(n − 1)/2
 *
 * with n_x, n_y the pairs tied in x, in y. p-value: without ties and with n ≤ 33 (or with at most one
 * discordant/concordant pair) the exact permutation distribution of Kendall (1970), computed by the same
 * recurrence as scipy; otherwise the normal approximation of n_c − n_d with the tie-corrected variance
 *   v = (n(n−1)(2n+5) − Σt(t−1)(2t+5) − Σu(u−1)(2u+5))/18 + 2 n_x n_y / (n(n−1)) + Σt(t−1)(t−2) Σu(u−1)(u−2) / (9 n(n−1)(n−2)).
 * Constant input (all pairs tied in x or in y) → NaN statistic and p-value with a `reason`, as scipy
 * (which does not warn here). Parity: the 22 golden cases, statistic to 1e-12 and p-value to 1e-9.
 *
 * @example
 * kendallTau([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]).value // 0.6
 */
export function kendallTau(x: readonly number[], y: readonly number[]): CorrelationScore {
  const fn = 'kendallTau'
  const [xs, ys] = checkPair(fn, x, y)
  const n = xs.length
  const name = "Kendall's tau-b"
  const nan = (reason: string): CorrelationScore => correlationScore(name, { method: 'kendall', n, statistic: Number.NaN, pvalue: Number.NaN, pvalueMethod: 'none', reason })
  if (n < 2) return nan('fewer than 2 pairs: the correlation is not defined')

  // Dense ranks of y, then sort by (x, y) and take dense ranks of x, as scipy does.
  const yRank = denseRanks(ys)
  const order = xs.map((_, i) => i).sort((a, b) => (xs[a] as number) - (xs[b] as number) || (yRank[a] as number) - (yRank[b] as number))
  const xSorted = order.map((i) => xs[i] as number)
  const ySorted = order.map((i) => yRank[i] as number)
  const xRank = denseRanksSorted(xSorted)

  const dis = discordantPairs(ySorted)
  // Joint ties: runs where both ranks repeat.
  let ntie = 0
  let run = 1
  for (let i = 1; i <= n; i += 1) {
    if (i < n && xRank[i] === xRank[i - 1] && ySorted[i] === ySorted[i - 1]) run += 1
    else {
      ntie += (run * (run - 1)) / 2
      run = 1
    }
  }
  const [xtie, x0, x1] = tieStatistics(xRank)
  const [ytie, y0, y1] = tieStatistics(ySorted)
  const tot = (n * (n - 1)) / 2
  if (xtie === tot || ytie === tot) return nan('an input is constant (every pair is tied): the correlation is not defined')

  const conMinusDis = tot - xtie - ytie + ntie - 2 * dis
  let tau = conMinusDis / Math.sqrt(tot - xtie) / Math.sqrt(tot - ytie)
  tau = Math.min(1, Math.max(-1, tau))

  let pvalue: number
  let pvalueMethod: 'exact' | 'asymptotic'
  if (xtie === 0 && ytie === 0 && (n <= 33 || Math.min(dis, tot - dis) <= 1)) {
    pvalueMethod = 'exact'
    pvalue = kendallExactPvalue(n, tot - dis)
  } else {
    pvalueMethod = 'asymptotic'
    const m = n * (n - 1)
    const variance = (m * (2 * n + 5) - x1 - y1) / 18 + (2 * xtie * ytie) / m + (x0 * y0) / (9 * m * (n - 2))
    const z = conMinusDis / Math.sqrt(variance)
    pvalue = 2 * normalSf(Math.abs(z))
  }
  return correlationScore(name, {
    method: 'kendall',
    n,
    statistic: tau,
    pvalue,
    pvalueMethod,
    ties: { x: xtie, y: ytie, both: ntie },
  })
}

/** Dense ranks 1..k of arbitrary values (equal values share a rank). */
function denseRanks(values: readonly number[]): number[] {
  const sorted = [...new Set(values)].sort((a, b) => a - b)
  const rank = new Map(sorted.map((v, i) => [v, i + 1] as const))
  return values.map((v) => rank.get(v) as number)
}

function denseRanksSorted(sorted: readonly number[]): number[] {
  const out: number[] = []
  let r = 0
  for (let i = 0; i < sorted.length; i += 1) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) r += 1
    out.push(r)
  }
  return out
}

/** [Σ t(t−1)/2, Σ t(t−1)(t−2), Σ t(t−1)(2t+5)] over groups of equal ranks. */
function tieStatistics(ranks: readonly number[]): [number, number, number] {
  const counts = new Map<number, number>()
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1)
  let pairs = 0
  let s0 = 0
  let s1 = 0
  for (const t of counts.values()) {
    if (t <= 1) continue
    pairs += (t * (t - 1)) / 2
    s0 += t * (t - 1) * (t - 2)
    s1 += t * (t - 1) * (2 * t + 5)
  }
  return [pairs, s0, s1]
}

/** Pairs i < j with y_i > y_j (strictly), counted with a Fenwick tree in O(n log n). */
function discordantPairs(y: readonly number[]): number {
  const size = y.reduce((m, v) => Math.max(m, v), 0)
  const tree = new Array<number>(size + 1).fill(0)
  let dis = 0
  let seen = 0
  for (const v of y) {
    // previous values ≤ v
    let notGreater = 0
    for (let i = v; i > 0; i -= i & -i) notGreater += tree[i] as number
    dis += seen - notGreater
    for (let i = v; i <= size; i += i & -i) tree[i] = (tree[i] as number) + 1
    seen += 1
  }
  return dis
}

/**
 * Exact two-sided p-value of Kendall's tau without ties: twice the lower tail of the number of concordant
 * pairs c (folded to the nearer tail), by the recurrence of Kendall (1970) in the same arithmetic as
 * scipy's `_kendall_p_exact`; factorials are exact (BigInt) before the one rounding to a double.
 */
function kendallExactPvalue(n: number, concordant: number): number {
  const tot = (n * (n - 1)) / 2
  const c = Math.min(concordant, tot - concordant)
  let prob: number
  if (n <= 0) return Number.NaN
  if (n === 1 || n === 2) prob = 1
  else if (c === 0) prob = n < 171 ? 2 / factorial(n) : 0
  else if (c === 1) prob = n < 172 ? 2 / factorial(n - 1) : 0
  else if (4 * c === n * (n - 1)) prob = 1
  else if (n < 171) {
    let counts = new Array<number>(c + 1).fill(0)
    counts[0] = 1
    counts[1] = 1
    for (let j = 3; j <= n; j += 1) {
      counts = cumulativeSum(counts)
      if (j <= c) {
        const old = counts.slice()
        for (let i = j; i <= c; i += 1) counts[i] = (counts[i] as number) - (old[i - j] as number)
      }
    }
    prob = (2 * pairwiseSum(counts)) / factorial(n)
  } else {
    let counts = new Array<number>(c + 1).fill(0)
    counts[0] = 1
    counts[1] = 1
    for (let j = 3; j <= n; j += 1) {
      counts = cumulativeSum(counts).map((v) => v / j)
      if (j <= c) {
        const old = counts.slice()
        for (let i = j; i <= c; i += 1) counts[i] = (counts[i] as number) - (old[i - j] as number)
      }
    }
    prob = pairwiseSum(counts)
  }
  return Math.min(1, Math.max(0, prob))
}

function cumulativeSum(values: readonly number[]): number[] {
  const out: number[] = []
  let s = 0
  for (const v of values) {
    s += v
    out.push(s)
  }
  return out
}

/** n! rounded once to the nearest double, as Python's int → float conversion does. */
function factorial(n: number): number {
  let f = 1n
  for (let i = 2n; i <= BigInt(n); i += 1n) f *= i
  return Number(f)
}
