import { denseArray } from '../dense-array.js'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { cohenKappa, confusionMatrix, type KappaWeighting } from './cohen-kappa.js'
import { fleissKappa } from './fleiss-kappa.js'
import { krippendorffAlpha, type KrippendorffLevel } from './krippendorff-alpha.js'
import type { ScoreRating } from './ratings.js'
import { labelKey, labelKind, uniqueSorted, type Label } from './shared.js'

/** A {@link ScoreRating} whose dimension may be left out (it is then `'overall'`). */
export type ScoreRatingInput = Omit<ScoreRating, 'dimension'> & { readonly dimension?: string }

export interface AgreementReportOptions {
  /**
   * Krippendorff's level of measurement. Default: `'ordinal'` when a dimension's scores are all numbers,
   * `'nominal'` otherwise (strings or booleans).
   */
  readonly level?: KrippendorffLevel
  /** Weights for the pairwise Cohen's kappas. @default 'none' */
  readonly weights?: KappaWeighting
  /** How many of the most disputed items to list per dimension. @default 5 */
  readonly topItems?: number
}

/** The keys of {@link AgreementReportOptions}: what agreementReport accepts. */
export const AGREEMENT_REPORT_OPTION_KEYS = keysOf<AgreementReportOptions>()('level', 'weights', 'topItems')

/** A statistic that may be undefined for the data at hand: `value` NaN then carries the `reason`. */
export interface ReportStatistic {
  readonly value: number
  readonly reason?: string
}

export interface PairwiseKappa extends ReportStatistic {
  readonly raters: readonly [string, string]
  /** Items both raters scored. */
  readonly items: number
  /** Share of those items with identical scores. */
  readonly observedAgreement: number
}

export interface DisputedItem {
  readonly item: string
  /** Share of rater pairs on this item that disagree: 1 − Σ_c n_c(n_c − 1) / (m(m − 1)). */
  readonly disagreement: number
  readonly scores: Readonly<Record<string, Label>>
}

export interface DimensionReport {
  readonly dimension: string
  readonly raters: readonly string[]
  readonly items: number
  readonly ratings: number
  readonly labels: readonly Label[]
  readonly level: KrippendorffLevel
  readonly pairwiseKappa: readonly PairwiseKappa[]
  /** Fleiss' kappa over the items every rater scored. */
  readonly fleissKappa: ReportStatistic & { readonly items: number }
  /** Krippendorff's alpha over all ratings (missing ones allowed). */
  readonly krippendorffAlpha: ReportStatistic
  /** The pair with the lowest observed agreement (ties: lower kappa, then names), with its confusion matrix. */
  readonly mostDisagreeingPair?: {
    readonly raters: readonly [string, string]
    readonly observedAgreement: number
    readonly kappa: number
    readonly labels: readonly Label[]
    /** Rows: first rater, columns: second rater. */
    readonly confusionMatrix: readonly (readonly number[])[]
  }
  /** Items with the most disagreement (only items with some), most disputed first. */
  readonly disputedItems: readonly DisputedItem[]
}

export interface AgreementReportDetails {
  readonly dimensions: readonly DimensionReport[]
  readonly reason?: string
}

/**
 * Inter-rater agreement per dimension of a set of human (or judge) ratings.
 *
 * For each dimension: Cohen's kappa for every pair of raters over the items both scored (scikit-learn
 * semantics, `weights` as given); Fleiss' kappa over the items every rater scored (statsmodels
 * semantics); Krippendorff's alpha over all ratings with missing ones allowed (`level`, default ordinal
 * for numeric scores, nominal otherwise); the pair of raters with the lowest observed agreement and its
 * confusion matrix; and the `topItems` items where the raters disagree most (share of disagreeing rater
 * pairs). Statistics that are undefined for the data (one category only, no shared items) are NaN with a
 * `reason` instead of throwing.
 *
 * `value` is the lowest Krippendorff's alpha over the dimensions (NaN with a `reason` when none is
 * defined). Duplicate (item, rater, dimension) ratings and a dimension mixing numbers with labels throw a
 * MetricInputError.
 *
 * @example
 * agreementReport([
 *   { item: 'q1', rater: 'ann', score: 1 }, { item: 'q1', rater: 'bob', score: 1 },
 *   { item: 'q2', rater: 'ann', score: 0 }, { item: 'q2', rater: 'bob', score: 1 },
 *   { item: 'q3', rater: 'ann', score: 0 }, { item: 'q3', rater: 'bob', score: 0 },
 * ]).details.dimensions[0].pairwiseKappa[0].value // 0.3999999999999999 (dimension 'overall')
 */
export function agreementReport(ratings: readonly ScoreRatingInput[], options: AgreementReportOptions = {}): Score<AgreementReportDetails> {
  const fn = 'agreementReport'
  if (!Array.isArray(ratings) || ratings.length === 0) throw new MetricInputError(fn, 'ratings', 'a non-empty array of { item, rater, dimension, score }', ratings)
  denseArray(fn, 'ratings', ratings, 'an object { item, rater, dimension, score }')
  checkOptionKeys(fn, options, AGREEMENT_REPORT_OPTION_KEYS)
  const topItems = options.topItems ?? 5
  if (!Number.isInteger(topItems) || topItems < 0) throw new MetricInputError(fn, 'options.topItems', 'a non-negative integer', topItems)
  const weights = options.weights ?? 'none'

  // dimension → item → rater → score, in order of first appearance.
  const byDimension = new Map<string, Map<string, Map<string, Label>>>()
  ratings.forEach((r, i) => {
    if (r === null || typeof r !== 'object') throw new MetricInputError(fn, `ratings[${i}]`, 'an object { item, rater, dimension, score }', r)
    for (const key of ['item', 'rater'] as const) {
      if (typeof r[key] !== 'string' || r[key] === '') throw new MetricInputError(fn, `ratings[${i}].${key}`, 'a non-empty string', r[key])
    }
    if (labelKind(r.score) === undefined) throw new MetricInputError(fn, `ratings[${i}].score`, 'a finite number, a string or a boolean', r.score)
    const dimension = r.dimension ?? 'overall'
    let items = byDimension.get(dimension)
    if (items === undefined) byDimension.set(dimension, (items = new Map()))
    let raters = items.get(r.item)
    if (raters === undefined) items.set(r.item, (raters = new Map()))
    if (raters.has(r.rater)) {
      throw new MetricInputError(fn, `ratings[${i}]`, `one rating per (item, rater, dimension); ${r.rater} rated ${r.item} on ${dimension} twice`, r)
    }
    raters.set(r.rater, r.score)
  })

  const dimensions = [...byDimension.entries()].map(([dimension, items]) => dimensionReport(fn, dimension, items, weights, options.level, topItems))
  const alphas = dimensions.map((d) => d.krippendorffAlpha.value).filter((v) => !Number.isNaN(v))
  const value = alphas.length > 0 ? Math.min(...alphas) : Number.NaN
  const details: AgreementReportDetails = {
    dimensions,
    ...(alphas.length === 0 ? { reason: "Krippendorff's alpha is undefined for every dimension (see each dimension's reason)" } : {}),
  }
  const signature = buildSignature('AgreementReport', [
    ['level', options.level ?? 'auto'],
    ['weights', weights],
    ['dimensions', dimensions.length],
  ])
  return makeScore('Agreement report', value, signature, details)
}

function dimensionReport(
  fn: string,
  dimension: string,
  items: Map<string, Map<string, Label>>,
  weights: KappaWeighting,
  levelOption: KrippendorffLevel | undefined,
  topItems: number,
): DimensionReport {
  const raterSet = new Set<string>()
  const all: Label[] = []
  let kind: string | undefined
  for (const [item, raters] of items) {
    for (const [rater, score] of raters) {
      raterSet.add(rater)
      const k = labelKind(score)
      if (kind !== undefined && k !== kind) {
        throw new MetricInputError(fn, 'ratings', `scores of one kind per dimension (${dimension} mixes ${kind} and ${k}, e.g. ${rater} on ${item})`, score)
      }
      kind = k
      all.push(score)
    }
  }
  const raters = [...raterSet].sort()
  const labels = uniqueSorted(all)
  const level = levelOption ?? (kind === 'number' ? 'ordinal' : 'nominal')
  const itemNames = [...items.keys()]

  // Pairwise Cohen's kappa over shared items.
  const pairwiseKappa: PairwiseKappa[] = []
  let worst: { pair: PairwiseKappa; labels: Label[]; confusion: number[][] } | undefined
  for (let i = 0; i < raters.length; i += 1) {
    for (let j = i + 1; j < raters.length; j += 1) {
      const r1 = raters[i] as string
      const r2 = raters[j] as string
      const a: Label[] = []
      const b: Label[] = []
      for (const scores of items.values()) {
        if (scores.has(r1) && scores.has(r2)) {
          a.push(scores.get(r1) as Label)
          b.push(scores.get(r2) as Label)
        }
      }
      let entry: PairwiseKappa
      if (a.length === 0) {
        entry = { raters: [r1, r2], items: 0, observedAgreement: Number.NaN, value: Number.NaN, reason: `${r1} and ${r2} scored no item in common` }
      } else {
        const k = cohenKappa(a, b, { weights })
        entry = {
          raters: [r1, r2],
          items: a.length,
          observedAgreement: k.details.observedAgreement,
          value: k.value,
          ...(k.details.reason === undefined ? {} : { reason: k.details.reason }),
        }
        const pairLabels = uniqueSorted([...a, ...b])
        if (
          worst === undefined ||
          entry.observedAgreement < worst.pair.observedAgreement ||
          (entry.observedAgreement === worst.pair.observedAgreement && entry.value < worst.pair.value)
        ) {
          worst = { pair: entry, labels: pairLabels, confusion: confusionMatrix(a, b, pairLabels).confusion }
        }
      }
      pairwiseKappa.push(entry)
    }
  }

  // Fleiss' kappa over complete items.
  const complete = itemNames.filter((item) => raters.every((r) => items.get(item)!.has(r)))
  let fleiss: ReportStatistic & { items: number }
  if (raters.length < 2) {
    fleiss = { value: Number.NaN, items: 0, reason: 'fewer than two raters' }
  } else if (complete.length === 0) {
    fleiss = { value: Number.NaN, items: 0, reason: 'no item was scored by every rater' }
  } else {
    const rows = complete.map((item) => raters.map((r) => items.get(item)!.get(r) as Label))
    const f = fleissKappa(rows, { input: 'ratings' })
    fleiss = { value: f.value, items: complete.length, ...(f.details.reason === undefined ? {} : { reason: f.details.reason }) }
  }

  // Krippendorff's alpha over everything; data conditions that the reference refuses become NaN here.
  if ((level === 'interval' || level === 'ratio') && kind !== 'number') {
    throw new MetricInputError(fn, 'options.level', `'nominal' or 'ordinal' for the labels of ${dimension} ('${level}' needs numeric scores)`, level)
  }
  let alpha: ReportStatistic
  // Booleans (pass/fail) go in as the labels 'false' < 'true'.
  const asValue = (v: Label | undefined) => (v === undefined ? null : typeof v === 'boolean' ? String(v) : v)
  const matrix = raters.map((r) => itemNames.map((item) => asValue(items.get(item)!.get(r))))
  const domain = labels.map((l) => asValue(l) as Label)
  try {
    const a = krippendorffAlpha(matrix, { level, ...(level !== 'nominal' && kind !== 'number' ? { valueDomain: domain } : {}) })
    alpha = { value: a.value, ...(a.details.reason === undefined ? {} : { reason: a.details.reason }) }
  } catch (error) {
    if (!(error instanceof MetricInputError)) throw error
    alpha = { value: Number.NaN, reason: error.message }
  }

  // Items with the most disagreement between their raters.
  const disputed: DisputedItem[] = []
  for (const item of itemNames) {
    const scores = items.get(item)!
    const m = scores.size
    if (m < 2) continue
    const counts = new Map<string, number>()
    for (const s of scores.values()) counts.set(labelKey(s), (counts.get(labelKey(s)) ?? 0) + 1)
    let agreeing = 0
    for (const c of counts.values()) agreeing += c * (c - 1)
    const disagreement = 1 - agreeing / (m * (m - 1))
    if (disagreement > 0) disputed.push({ item, disagreement, scores: Object.fromEntries([...scores.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1))) })
  }
  // Most disputed first; among equals, a wider spread of numeric scores first, then the item's order.
  const spread = (d: DisputedItem) => {
    const values = Object.values(d.scores)
    if (!values.every((v) => typeof v === 'number')) return 0
    return Math.max(...(values as number[])) - Math.min(...(values as number[]))
  }
  const order = new Map(itemNames.map((n, i) => [n, i] as const))
  disputed.sort((x, y) => y.disagreement - x.disagreement || spread(y) - spread(x) || (order.get(x.item) as number) - (order.get(y.item) as number))

  return {
    dimension,
    raters,
    items: itemNames.length,
    ratings: all.length,
    labels,
    level,
    pairwiseKappa,
    fleissKappa: fleiss,
    krippendorffAlpha: alpha,
    ...(worst === undefined
      ? {}
      : {
          mostDisagreeingPair: {
            raters: worst.pair.raters,
            observedAgreement: worst.pair.observedAgreement,
            kappa: worst.pair.value,
            labels: worst.labels,
            confusionMatrix: worst.confusion,
          },
        }),
    disputedItems: disputed.slice(0, topItems),
  }
}
