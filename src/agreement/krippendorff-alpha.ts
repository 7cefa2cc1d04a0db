import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { columnSums, labelKey, labelKind, matrixSum, pairwiseSum, uniqueSorted, type Label } from './shared.js'

export type KrippendorffLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio'

/** One rating: a label, or `null` / `undefined` / `NaN` for "not rated". */
export type ReliabilityValue = Label | null | undefined

export interface KrippendorffAlphaOptions {
  /** Level of measurement, which picks the distance δ² between two values. */
  readonly level: KrippendorffLevel
  /**
   * The possible values in order (needed for ordinal strings). Default: the sorted distinct observed values.
   * An unused value changes ordinal/ratio distances only through its position and value, as in the reference.
   */
  readonly valueDomain?: readonly Label[]
}

/** The keys of {@link KrippendorffAlphaOptions}: what krippendorffAlpha accepts. */
export const KRIPPENDORFF_ALPHA_OPTION_KEYS = keysOf<KrippendorffAlphaOptions>()('level', 'valueDomain')

export interface KrippendorffAlphaDetails {
  readonly level: KrippendorffLevel
  readonly raters: number
  readonly units: number
  /** Units with at least two ratings (the only ones that count). */
  readonly pairableUnits: number
  /** The value domain in order. */
  readonly values: readonly Label[]
  /** n_v: pairable ratings per value. */
  readonly valueCounts: readonly number[]
  /** Total pairable ratings n = Σ n_v. */
  readonly pairableValues: number
  /** Coincidence matrix o_ck. */
  readonly coincidences: readonly (readonly number[])[]
  /** Expected coincidences e_ck = (n_c n_k − [c = k] n_c) / (n − 1). */
  readonly expectedCoincidences: readonly (readonly number[])[]
  /** Distances δ²_ck. */
  readonly distances: readonly (readonly number[])[]
  /**
   * Level interval only, when the values are beyond ~1e150 in magnitude or all below ~1e-150: the power of
   * two the values were measured in, so that (c − k)² stays finite and non-zero. Distances and
   * disagreements are then in units of `distanceUnit`²; alpha is unaffected.
   */
  readonly distanceUnit?: number
  /** Σ o·δ² and Σ e·δ² (α = 1 − D_o / D_e). */
  readonly observedDisagreement: number
  readonly expectedDisagreement: number
  readonly reason?: string
}

/**
 * Krippendorff's alpha for any number of raters with missing ratings, as the `krippendorff` package
 * (fast-krippendorff 0.8.3.dev0, `alpha(reliability_data, level_of_measurement=…)`) computes it.
 *
 *   α = 1 − Σ_ck o_ck δ²_ck / Σ_ck e_ck δ²_ck
 *
 * o is the coincidence matrix (each unit with m_u ≥ 2 ratings adds n_uc (n_uk − [c = k]) / (m_u − 1)),
 * n_v its column sums, e_ck = (n_c n_k − [c = k] n_c) / (n − 1). Distances: nominal [c ≠ k]; ordinal
 * (Σ_{g=c..k} n_g − (n_c + n_k)/2)² over value ranks; interval (c − k)²; ratio ((c − k)/(c + k))² (0 when
 * c + k = 0). Sums follow numpy's order.
 *
 * Input is raters × units (`reliabilityData[r][u]`), `null`/`undefined`/`NaN` = not rated. Errors, as the
 * reference raises them: rows of different lengths; values outside `valueDomain`; strings with a level
 * other than nominal and no `valueDomain`; fewer than two values in the domain ("There has to be more than
 * one value in the domain."); no unit rated twice ("at least one unit with values assigned by at least two
 * coders"). All pairable values identical is 0/0 → NaN with a `reason`. Parity: the 22 golden cases × 4
 * levels (Krippendorff 2011 and Wikipedia examples included): 80 values bit-identical, 8 errors alike.
 *
 * @example
 * krippendorffAlpha([[1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
 *   [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3], [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
 *   [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null]], { level: 'nominal' }).value // 0.743421052631579
 */
export function krippendorffAlpha(reliabilityData: readonly (readonly ReliabilityValue[])[], options: KrippendorffAlphaOptions): Score<KrippendorffAlphaDetails> {
  const fn = 'krippendorffAlpha'
  const level = options?.level
  if (level !== 'nominal' && level !== 'ordinal' && level !== 'interval' && level !== 'ratio') {
    throw new MetricInputError(fn, 'options.level', "'nominal', 'ordinal', 'interval' or 'ratio'", level)
  }
  checkOptionKeys(fn, options, KRIPPENDORFF_ALPHA_OPTION_KEYS)
  if (!Array.isArray(reliabilityData) || reliabilityData.length === 0) {
    throw new MetricInputError(fn, 'reliabilityData', 'a non-empty array of rater rows (raters × units)', reliabilityData)
  }
  const nUnits = (reliabilityData[0] as unknown[] | undefined)?.length ?? 0
  let kind: 'string' | 'number' | 'boolean' | undefined
  const observed: Label[] = []
  reliabilityData.forEach((row, r) => {
    if (!Array.isArray(row)) throw new MetricInputError(fn, `reliabilityData[${r}]`, 'an array of ratings', row)
    if (row.length !== nUnits) {
      throw new MetricInputError(fn, `reliabilityData[${r}]`, `a row of ${nUnits} units like row 0 (raters × units)`, row)
    }
    row.forEach((v, u) => {
      if (isMissing(v)) return
      const k = labelKind(v)
      if (k === undefined || k === 'boolean') {
        throw new MetricInputError(fn, `reliabilityData[${r}][${u}]`, 'a number, a string or null (missing)', v)
      }
      if (kind !== undefined && k !== kind) {
        throw new MetricInputError(fn, `reliabilityData[${r}][${u}]`, `a ${kind} like the other ratings (mixed value kinds)`, v)
      }
      kind = k
      observed.push(v as Label)
    })
  })

  let domain: Label[]
  if (options.valueDomain === undefined || options.valueDomain === null) {
    if (kind === 'string' && level !== 'nominal') {
      throw new MetricInputError(fn, 'options.valueDomain', `an ordered value domain (strings with level '${level}' need one)`, undefined)
    }
    domain = uniqueSorted(observed)
  } else {
    if (!Array.isArray(options.valueDomain)) throw new MetricInputError(fn, 'options.valueDomain', 'an array of values', options.valueDomain)
    domain = [...options.valueDomain]
    const keys = new Set(domain.map((v) => labelKey(v)))
    for (const v of observed) {
      if (!keys.has(labelKey(v))) {
        throw new MetricInputError(fn, 'reliabilityData', `values inside options.valueDomain (the reliability data contains out-of-domain values)`, v)
      }
    }
  }
  if ((level === 'interval' || level === 'ratio') && domain.some((v) => typeof v !== 'number')) {
    throw new MetricInputError(fn, 'options.level', `'nominal' or 'ordinal' for non-numeric values ('${level}' needs numbers)`, level)
  }
  if (domain.length <= 1) {
    throw new MetricInputError(fn, 'reliabilityData', 'ratings with more than one value in the domain (there has to be more than one value in the domain)', domain)
  }

  // value_counts[u][v]: raters who gave unit u the value v.
  const index = new Map(domain.map((v, i) => [labelKey(v), i] as const))
  const V = domain.length
  const valueCounts: number[][] = []
  for (let u = 0; u < nUnits; u += 1) {
    const counts = new Array<number>(V).fill(0)
    for (const row of reliabilityData) {
      const v = row[u]
      if (isMissing(v)) continue
      const i = index.get(labelKey(v as Label)) as number
      counts[i] = (counts[i] as number) + 1
    }
    valueCounts.push(counts)
  }
  const ratingsPerUnit = valueCounts.map((c) => c.reduce((a, b) => a + b, 0))
  const pairableUnits = ratingsPerUnit.filter((m) => m >= 2).length
  if (pairableUnits === 0) {
    throw new MetricInputError(fn, 'reliabilityData', 'at least one unit with values assigned by at least two coders (raters)', reliabilityData)
  }

  // o = Σ_u (n_uc n_uk − [c=k] n_uc) / (max(m_u, 2) − 1), accumulated unit after unit as numpy does.
  const o: number[][] = Array.from({ length: V }, () => new Array<number>(V).fill(0))
  valueCounts.forEach((counts, u) => {
    const denominator = Math.max(ratingsPerUnit[u] as number, 2) - 1
    for (let c = 0; c < V; c += 1) {
      for (let k = 0; k < V; k += 1) {
        const unnormalized = (counts[c] as number) * (counts[k] as number) - (c === k ? (counts[c] as number) : 0)
        o[c]![k] = (o[c]![k] as number) + unnormalized / denominator
      }
    }
  })
  const nV = columnSums(o, V)
  const n = pairwiseSum(nV)
  const e = nV.map((nc, c) => nV.map((nk, k) => (nc * nk - (c === k ? nc : 0)) / (n - 1)))
  const unit = level === 'interval' || level === 'ratio' ? distanceUnit(domain as number[]) : 1
  const d = distances(domain, level, nV, unit)
  const observedDisagreement = matrixSum(o.map((row, c) => row.map((x, k) => x * (d[c]![k] as number))))
  const expectedDisagreement = matrixSum(e.map((row, c) => row.map((x, k) => x * (d[c]![k] as number))))
  const value = 1 - observedDisagreement / expectedDisagreement

  let reason: string | undefined
  if (Number.isNaN(value)) {
    reason = 'expected disagreement is 0 (every pairable rating has the same value), so alpha is 0/0'
  }
  const details: KrippendorffAlphaDetails = {
    level,
    raters: reliabilityData.length,
    units: nUnits,
    pairableUnits,
    values: domain,
    valueCounts: nV,
    pairableValues: n,
    coincidences: o,
    expectedCoincidences: e,
    distances: d,
    observedDisagreement,
    expectedDisagreement,
    ...(level === 'interval' && unit !== 1 ? { distanceUnit: unit } : {}),
    ...(reason === undefined ? {} : { reason }),
  }
  const signature = buildSignature('Alpha', [
    ['kind', 'krippendorff'],
    ['level', level],
    ['raters', reliabilityData.length],
    ['units', nUnits],
  ])
  return makeScore("Krippendorff's alpha", value, signature, details)
}

function isMissing(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))
}

/**
 * The power of two the interval and ratio levels measure values in: 1 for ordinary values, else one near
 * the largest magnitude, so that (c − k)² and c + k neither overflow (|values| beyond ~1e154) nor
 * underflow to 0 (below ~1e-150). Dividing by a power of two is exact and alpha is a ratio of
 * disagreements, so alpha is unchanged; interval distances are then in units of `distanceUnit`².
 */
function distanceUnit(values: readonly number[]): number {
  let m = 0
  for (const v of values) m = Math.max(m, Math.abs(v))
  if (m === 0 || (m <= 2 ** 500 && m >= 2 ** -500)) return 1
  return 2 ** Math.min(1023, Math.max(-1074, Math.ceil(Math.log2(m))))
}

function distances(domain: readonly Label[], level: KrippendorffLevel, nV: readonly number[], unit: number): number[][] {
  const V = domain.length
  const d: number[][] = []
  for (let c = 0; c < V; c += 1) {
    const row: number[] = []
    for (let k = 0; k < V; k += 1) {
      if (level === 'nominal') {
        row.push(c === k ? 0 : 1)
      } else if (level === 'ordinal') {
        const lo = Math.min(c, k)
        const hi = Math.max(c, k)
        // numpy's add.reduceat over n_v[lo..hi], then minus the half weights of both ends
        let between = nV[lo] as number
        for (let g = lo + 1; g <= hi; g += 1) between += nV[g] as number
        const x = between - ((nV[lo] as number) + (nV[hi] as number)) / 2
        row.push(x * x)
      } else {
        const a = (domain[c] as number) / unit
        const b = (domain[k] as number) / unit
        if (level === 'interval') {
          const x = a - b
          row.push(x * x)
        } else {
          const sum = a + b
          const x = sum !== 0 ? (a - b) / sum : 0
          row.push(x * x)
        }
      }
    }
    d.push(row)
  }
  return d
}
