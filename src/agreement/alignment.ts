import { denseArray } from '../dense-array.js'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { cohenKappa } from './cohen-kappa.js'
import { averageRanks, kendallTau, pearson, spearman, type CorrelationScore } from './correlation.js'

export type AlignmentMethod = 'spearman' | 'kendall' | 'pearson' | 'pass-fail'

/** Scores per item: an array (items are the indices '0', '1', …), a record or a Map keyed by item id. */
export type ItemValues<T> = readonly T[] | Readonly<Record<string, T>> | ReadonlyMap<string, T>

export interface MetricAlignmentOptions {
  /** @default 'spearman' */
  readonly method?: AlignmentMethod
  /** pass-fail: a numeric metric score passes when ≥ `threshold` (booleans need none). */
  readonly threshold?: number
  /** pass-fail: a numeric human score passes when ≥ `humanThreshold` (booleans need none). */
  readonly humanThreshold?: number
  /** How many disagreements to list. @default 5 */
  readonly top?: number
}

/** The keys of {@link MetricAlignmentOptions}: what metricAlignment accepts. */
export const METRIC_ALIGNMENT_OPTION_KEYS = keysOf<MetricAlignmentOptions>()('method', 'threshold', 'humanThreshold', 'top')

export interface RankDisagreement {
  readonly item: string
  readonly metric: number
  readonly human: number
  /** 1 = highest score; ties share the average rank. */
  readonly metricRank: number
  readonly humanRank: number
  /** metricRank − humanRank: positive when the metric ranks the item lower than the humans do. */
  readonly difference: number
}

export interface PassFailDisagreement {
  readonly item: string
  readonly metricPass: boolean
  readonly humanPass: boolean
}

export interface MetricAlignmentDetails {
  readonly method: AlignmentMethod
  /** Items scored by both. */
  readonly n: number
  /** Items only one side scored (left out). */
  readonly metricOnly: readonly string[]
  readonly humanOnly: readonly string[]
  /** Correlation methods: the coefficient and its two-sided p-value. */
  readonly statistic?: number
  readonly pvalue?: number
  readonly rankDisagreements?: readonly RankDisagreement[]
  /** pass-fail: Cohen's kappa between metric and human verdicts, accuracy and the 2 × 2 table. */
  readonly kappa?: number
  readonly accuracy?: number
  /** Rows: human fail, human pass; columns: metric fail, metric pass. */
  readonly confusionMatrix?: readonly (readonly number[])[]
  readonly disagreements?: readonly PassFailDisagreement[]
  readonly reason?: string
}

/**
 * How well an automatic metric agrees with human judgement on the same items.
 *
 * Correlation methods (`'spearman'` default, `'kendall'` tau-b, `'pearson'`): the coefficient with its
 * two-sided p-value and n (scipy 1.10.1 semantics, see {@link spearman}), plus the `top` items whose rank
 * differs most between metric and humans (rank 1 = highest score, average ranks for ties).
 *
 * `'pass-fail'`: verdicts are booleans, or numbers compared with `threshold` (metric) / `humanThreshold`
 * (humans) using ≥. Reports Cohen's kappa over {fail, pass} (scikit-learn semantics), accuracy (share of
 * equal verdicts), the 2 × 2 confusion matrix and the items where the verdicts differ.
 *
 * Items are matched by id; ids present on one side only are listed and left out. `value` is the
 * coefficient (correlation methods) or kappa (pass-fail); undefined cases are NaN with a `reason`.
 *
 * @example
 * metricAlignment({ q1: 0.9, q2: 0.4, q3: 0.7 }, { q1: 5, q2: 2, q3: 3 }).value // 1 (Spearman)
 */
export function metricAlignment(
  metricScores: ItemValues<number | boolean>,
  humanScores: ItemValues<number | boolean>,
  options: MetricAlignmentOptions = {},
): Score<MetricAlignmentDetails> {
  const fn = 'metricAlignment'
  checkOptionKeys(fn, options, METRIC_ALIGNMENT_OPTION_KEYS)
  const method = options.method ?? 'spearman'
  if (!['spearman', 'kendall', 'pearson', 'pass-fail'].includes(method)) {
    throw new MetricInputError(fn, 'options.method', "'spearman', 'kendall', 'pearson' or 'pass-fail'", method)
  }
  const top = options.top ?? 5
  if (!Number.isInteger(top) || top < 0) throw new MetricInputError(fn, 'options.top', 'a non-negative integer', top)
  const metric = toMap(fn, 'metricScores', metricScores)
  const human = toMap(fn, 'humanScores', humanScores)
  if (Array.isArray(metricScores) && Array.isArray(humanScores) && metricScores.length !== humanScores.length) {
    throw new MetricInputError(fn, 'humanScores', `an array of the same length as metricScores (${metricScores.length})`, humanScores)
  }
  const items = [...metric.keys()].filter((k) => human.has(k))
  const metricOnly = [...metric.keys()].filter((k) => !human.has(k))
  const humanOnly = [...human.keys()].filter((k) => !metric.has(k))
  if (items.length === 0) throw new MetricInputError(fn, 'humanScores', 'scores for at least one item that metricScores also scores', humanScores)

  const signature = buildSignature('MetricAlignment', [
    ['method', method],
    ['threshold', options.threshold],
    ['humanThreshold', options.humanThreshold],
    ['n', items.length],
  ])

  if (method === 'pass-fail') {
    const m = items.map((k) => verdict(fn, 'metricScores', k, metric.get(k) as number | boolean, options.threshold, 'options.threshold'))
    const h = items.map((k) => verdict(fn, 'humanScores', k, human.get(k) as number | boolean, options.humanThreshold, 'options.humanThreshold'))
    const k = cohenKappa(h, m, { labels: [false, true] })
    const confusion = k.details.confusionMatrix.map((row) => [...row])
    const agreeing = m.filter((v, i) => v === h[i]).length
    const disagreements = items
      .map((item, i) => ({ item, metricPass: m[i] as boolean, humanPass: h[i] as boolean }))
      .filter((d) => d.metricPass !== d.humanPass)
      .slice(0, top)
    const details: MetricAlignmentDetails = {
      method,
      n: items.length,
      metricOnly,
      humanOnly,
      kappa: k.value,
      accuracy: agreeing / items.length,
      confusionMatrix: confusion,
      disagreements,
      ...(k.details.reason === undefined ? {} : { reason: k.details.reason }),
    }
    return makeScore('Metric alignment', k.value, signature, details)
  }

  const xs = items.map((k) => numeric(fn, 'metricScores', k, metric.get(k)))
  const ys = items.map((k) => numeric(fn, 'humanScores', k, human.get(k)))
  let corr: CorrelationScore
  if (method === 'pearson') {
    if (items.length < 2) throw new MetricInputError(fn, 'humanScores', 'scores for at least 2 shared items (Pearson)', humanScores)
    corr = pearson(xs, ys)
  } else corr = method === 'kendall' ? kendallTau(xs, ys) : spearman(xs, ys)
  // Rank 1 = best: rank the negated scores.
  const metricRanks = averageRanks(xs.map((v) => -v))
  const humanRanks = averageRanks(ys.map((v) => -v))
  const rankDisagreements = items
    .map((item, i) => ({
      item,
      metric: xs[i] as number,
      human: ys[i] as number,
      metricRank: metricRanks[i] as number,
      humanRank: humanRanks[i] as number,
      difference: (metricRanks[i] as number) - (humanRanks[i] as number),
    }))
    .filter((d) => d.difference !== 0)
    .map((d, order) => ({ d, order }))
    .sort((a, b) => Math.abs(b.d.difference) - Math.abs(a.d.difference) || a.order - b.order)
    .slice(0, top)
    .map(({ d }) => d)
  const details: MetricAlignmentDetails = {
    method,
    n: items.length,
    metricOnly,
    humanOnly,
    statistic: corr.value,
    pvalue: corr.details.pvalue,
    rankDisagreements,
    ...(corr.details.reason === undefined ? {} : { reason: corr.details.reason }),
  }
  return makeScore('Metric alignment', corr.value, signature, details)
}

function toMap<T>(fn: string, argument: string, values: ItemValues<T>): Map<string, T> {
  if (Array.isArray(values)) {
    denseArray(fn, argument, values, 'a score')
    return new Map(values.map((v, i) => [String(i), v] as const))
  }
  if (values instanceof Map) return new Map(values)
  if (values !== null && typeof values === 'object') return new Map(Object.entries(values as Record<string, T>))
  throw new MetricInputError(fn, argument, 'an array, a record or a Map of scores by item', values)
}

function numeric(fn: string, argument: string, item: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new MetricInputError(fn, `${argument}[${JSON.stringify(item)}]`, 'a finite number', v)
  return v
}

function verdict(fn: string, argument: string, item: string, v: number | boolean, threshold: number | undefined, thresholdName: string): boolean {
  if (typeof v === 'boolean') return v
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new MetricInputError(fn, `${argument}[${JSON.stringify(item)}]`, 'a boolean or a finite number', v)
  if (threshold === undefined) throw new MetricInputError(fn, thresholdName, `a number to turn numeric ${argument} into pass/fail`, threshold)
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) throw new MetricInputError(fn, thresholdName, 'a finite number', threshold)
  return v >= threshold
}
