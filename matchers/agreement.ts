import {
  agreementReport,
  cohenKappa,
  fleissKappa,
  krippendorffAlpha,
  metricAlignment,
  winRate,
  type CorrelationMethod,
  type DimensionReport,
  type KappaWeighting,
  type KrippendorffLevel,
  type Label,
  type MetricAlignmentDetails,
  type ScoreRatingInput,
  type TiesConvention,
} from '../src/agreement/index.js'
import { MetricInputError } from '../src/errors.js'
import { firstHole, holeProblem } from '../src/dense-array.js'
import { idOf, isObject, readRatingTable, RatingsInputError, tallyPairwise, type PairwiseTally, type RatingTable } from '../src/agreement/rating-table.js'
export type { PairwiseRecord, RatingMatrix, RatingRecord } from '../src/agreement/rating-table.js'
import type { Score } from '../src/score.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { buildMessage, formatNumber, list, MAX_ROWS, table, terminalSafe as safe, thresholdHeadline } from './message.js'
import { atLeast, declareMatcher } from './declare.js'
import { matcherError, requireThreshold } from './validate.js'

// ---------------------------------------------------------------- public types

interface AgreementOptionsBase {
  /** The dimension of the rating records to use. Required when the records hold more than one. */
  readonly dimension?: string
}

export interface CohenAgreementOptions extends AgreementOptionsBase {
  readonly statistic: 'cohen'
  /** Disagreement weights over the sorted scores (numeric or boolean scores only). @default 'none' */
  readonly weights?: KappaWeighting
  /** The two raters to compare: names for records, row indices for a matrix. Required with more than two raters. */
  readonly raters?: readonly [string | number, string | number]
}

export interface FleissAgreementOptions extends AgreementOptionsBase {
  readonly statistic: 'fleiss'
  /** Only these raters (at least two). @default every rater */
  readonly raters?: readonly (string | number)[]
}

export interface KrippendorffAgreementOptions extends AgreementOptionsBase {
  readonly statistic: 'krippendorff'
  /** Level of measurement. @default 'ordinal' for numeric scores, 'nominal' for labels and booleans */
  readonly level?: KrippendorffLevel
  /** Only these raters (names for records, row indices for a matrix). @default every rater */
  readonly raters?: readonly (string | number)[]
}

/** Options of `toHaveAgreementAbove`: the statistic decides which other options apply. */
export type AgreementMatcherOptions = CohenAgreementOptions | FleissAgreementOptions | KrippendorffAgreementOptions

/** Scores per item: an array aligned by position, or a record / Map aligned by item id. */
export type ItemScores = readonly number[] | Readonly<Record<string, number>> | ReadonlyMap<string, number>

export interface CorrelationMatcherOptions {
  /** @default 'spearman' */
  readonly method?: CorrelationMethod
}

export interface WinAgainstOptions {
  /** The lower bound of the Wilson interval must reach this. @default 0.5 (better than the baseline) */
  readonly minRate?: number
  /** Two-sided confidence level of the Wilson interval. @default 0.95 */
  readonly confidence?: number
  /** `'exclude'`: rate = wins / (wins + losses); `'half'`: a tie counts half a win. @default 'exclude' */
  readonly ties?: TiesConvention
  /** The system that should win. Required when the records compare the baseline with several systems. */
  readonly system?: string
}

/** Typed signatures of the human-evaluation matchers. Thresholds mean ≥; `.not` flips to <. */
export interface AgreementMatchers<R = unknown> {
  /**
   * Inter-rater agreement of the received ratings ≥ `min` (−1…1): Cohen's kappa (two raters), Fleiss'
   * kappa (items every rater scored) or Krippendorff's alpha (missing ratings allowed). Received: rating
   * records `{ item, rater, dimension?, score }` (or `loadRatings()` output), or a raters × items matrix
   * (cohen and krippendorff). An undefined statistic (NaN) fails, with or without `.not`.
   *
   * @example expect(ratings).toHaveAgreementAbove(0.6, { statistic: 'krippendorff', dimension: 'correctness' })
   */
  toHaveAgreementAbove(min: number, options: AgreementMatcherOptions): R
  /**
   * The correlation between the received metric scores and `humanScores` ≥ `min` (−1…1). Arrays align
   * by position, records and Maps by item id (an item scored on one side only is a Matcher error).
   * Fewer than 3 items, or a coefficient or p-value that is not finite, fails with or without `.not`.
   *
   * @example expect({ q1: 0.9, q2: 0.2, q3: 0.6 }).toCorrelateWith({ q1: 5, q2: 1, q3: 4 }, 0.8)
   */
  toCorrelateWith(humanScores: ItemScores, min: number, options?: CorrelationMatcherOptions): R
  /**
   * The received pairwise judgements show a system beating `baseline`: passes only when the LOWER bound
   * of the Wilson interval of its win rate is ≥ `minRate` (default 0.5), so a lucky small sample fails.
   *
   * @example expect(judgements).toWinAgainst('v1', { system: 'v2', minRate: 0.5 })
   */
  toWinAgainst(baseline: string, options?: WinAgainstOptions): R
}

// ---------------------------------------------------------------- shared helpers

const comparator = (ctx: MatcherContext) => (ctx.isNot ? ('<' as const) : ('>=' as const))

const showLabel = (l: Label) => (typeof l === 'string' ? (/^[\w.+-]+$/.test(l) ? l : JSON.stringify(l)) : String(l))

interface Uncomputable {
  /** The statistic's name, e.g. `Cohen's kappa`. */
  readonly name: string
  /** `meta.metric`, when it differs from `name`. */
  readonly metric?: string
  readonly reason: string
  readonly signature: string
  readonly threshold: number
  readonly sections?: () => ReadonlyArray<string | undefined>
  readonly extra?: Record<string, unknown>
}

/** A value that cannot be computed (NaN) fails in BOTH directions: with `.not` the runner flips `pass`. */
function uncomputable(ctx: MatcherContext, matcher: string, args: string, u: Uncomputable): MatcherResult {
  return {
    pass: ctx.isNot === true,
    message: () =>
      buildMessage(ctx, {
        matcher,
        args,
        headline: `${u.name} is undefined for these data, so the assertion fails${ctx.isNot ? ' (also with .not)' : ''}.`,
        signature: u.signature,
        // the reason is one line and may name raters, items or systems: escaped whole
        sections: [`reason: ${safe(u.reason)}`, ...(u.sections?.() ?? [])],
      }),
    meta: {
      matcher,
      metric: u.metric ?? u.name,
      value: Number.NaN,
      threshold: u.threshold,
      comparator: comparator(ctx),
      pass: false,
      signature: u.signature,
      extra: { ...u.extra, reason: u.reason },
    },
  }
}

/** Runs a rater-table reader of the core; what it refuses becomes this matcher's Matcher error. */
function readTable<T>(ctx: MatcherContext, read: () => T, matcher: string, args: string): T {
  try {
    return read()
  } catch (error) {
    // Compare by name too: the ESM and CJS copies of the core each have their own classes.
    if (error instanceof RatingsInputError || (error as Error | undefined)?.name === 'MetricInputError') {
      const e = error as RatingsInputError
      if (typeof e.problem === 'string') matcherError(ctx, matcher, args, e.problem, e.received)
    }
    throw error
  }
}

// ---------------------------------------------------------------- toHaveAgreementAbove

const AGREEMENT = 'toHaveAgreementAbove'
const AGREEMENT_ARGS = 'min, options'
const STATISTIC_NAMES = { cohen: "Cohen's kappa", fleiss: "Fleiss' kappa", krippendorff: "Krippendorff's alpha" } as const
type Statistic = keyof typeof STATISTIC_NAMES

function readAgreementOptions(ctx: MatcherContext, options: unknown): AgreementMatcherOptions {
  const fail = (problem: string, value: unknown): never => matcherError(ctx, AGREEMENT, AGREEMENT_ARGS, problem, value)
  if (!isObject(options)) fail("options must be an object naming the statistic: { statistic: 'cohen' | 'fleiss' | 'krippendorff' }", options)
  const o = options as Record<string, unknown>
  if (o.statistic !== 'cohen' && o.statistic !== 'fleiss' && o.statistic !== 'krippendorff') {
    fail("options.statistic must be 'cohen', 'fleiss' or 'krippendorff'", o.statistic)
  }
  if (o.dimension !== undefined && (typeof o.dimension !== 'string' || o.dimension === '')) fail('options.dimension must be a non-empty string', o.dimension)
  if (o.weights !== undefined) {
    if (o.statistic !== 'cohen') fail(`options.weights applies to statistic 'cohen' only (got statistic '${String(o.statistic)}')`, o.weights)
    if (o.weights !== 'none' && o.weights !== 'linear' && o.weights !== 'quadratic') fail("options.weights must be 'none', 'linear' or 'quadratic'", o.weights)
  }
  if (o.level !== undefined) {
    if (o.statistic !== 'krippendorff') fail(`options.level applies to statistic 'krippendorff' only (got statistic '${String(o.statistic)}')`, o.level)
    if (!['nominal', 'ordinal', 'interval', 'ratio'].includes(o.level as string)) fail("options.level must be 'nominal', 'ordinal', 'interval' or 'ratio'", o.level)
  }
  if (o.raters !== undefined) {
    if (Array.isArray(o.raters) && firstHole(o.raters) >= 0) fail(`${holeProblem('options.raters', firstHole(o.raters))}; name every rater`, o.raters)
    if (!Array.isArray(o.raters) || o.raters.some((r) => idOf(r) === undefined)) fail('options.raters must be an array of rater names (or row indices for a matrix)', o.raters)
    const raters = o.raters as unknown[]
    if (new Set(raters.map(String)).size !== raters.length) fail('options.raters must name distinct raters', o.raters)
    if (o.statistic === 'cohen' && raters.length !== 2) fail("options.raters must name exactly two raters for statistic 'cohen'", o.raters)
    if (raters.length < 2) fail('options.raters must name at least two raters', o.raters)
  }
  return o as unknown as AgreementMatcherOptions
}

interface AgreementOutcome {
  readonly score?: Score<{ readonly reason?: string }>
  /** Why there is no number, when the statistic could not be computed at all. */
  readonly reason?: string
  /** What the statistic was computed over, one line each. */
  readonly summary: string[]
  /** The raters whose ratings the breakdown covers. */
  readonly breakdownRaters: string[]
  readonly confusion?: { readonly rows: string; readonly columns: string; readonly labels: readonly Label[]; readonly matrix: readonly (readonly number[])[] }
}

function scopeLine(t: RatingTable): string {
  return t.source === 'matrix'
    ? `raters × items matrix: ${t.raters.length} raters, ${t.items.length} items`
    : `dimension ${safe(String(t.dimension))}: ${t.raters.length} raters (${list(t.raters)}), ${t.items.length} items`
}

function computeCohen(ctx: MatcherContext, t: RatingTable, weights: KappaWeighting): AgreementOutcome {
  if (t.raters.length > 2) {
    matcherError(
      ctx,
      AGREEMENT,
      AGREEMENT_ARGS,
      `statistic 'cohen' compares two raters, and the ratings have ${t.raters.length} (${list(t.raters)}); pass options.raters: [first, second], or use statistic 'fleiss' or 'krippendorff' for all of them`,
      t.raters,
    )
  }
  if (t.raters.length < 2)
    return { reason: `Cohen's kappa needs two raters; the ratings name only ${t.raters[0] ?? 'none'}`, summary: [scopeLine(t)], breakdownRaters: t.raters }
  const [r1, r2] = t.raters as [string, string]
  const a: Label[] = []
  const b: Label[] = []
  const oneSided: string[] = []
  for (const item of t.items) {
    const s = t.scores.get(item)!
    if (s.has(r1) && s.has(r2)) {
      a.push(s.get(r1) as Label)
      b.push(s.get(r2) as Label)
    } else if (s.has(r1) || s.has(r2)) oneSided.push(item)
  }
  const pair = `${safe(r1)} × ${safe(r2)}`
  const leftOut = oneSided.length > 0 ? `; ${oneSided.length} left out (rated by one of them only): ${list(oneSided, 5)}` : ''
  if (a.length === 0) return { reason: `${r1} and ${r2} rated no item in common`, summary: [`${pair}: no item rated by both${leftOut}`], breakdownRaters: [r1, r2] }
  const score = cohenKappa(a, b, { weights })
  const d = score.details
  const summary = [
    `${t.source === 'matrix' ? 'matrix ' : `dimension ${safe(String(t.dimension))}, `}${pair}: ${d.n} items rated by both${leftOut}`,
    `observed agreement ${formatNumber(d.observedAgreement)}, chance agreement ${formatNumber(d.expectedAgreement)}${weights === 'none' ? '' : ` (${weights} weights: disagreement observed ${formatNumber(d.observedDisagreement)}, by chance ${formatNumber(d.expectedDisagreement)})`}`,
  ]
  return { score, summary, breakdownRaters: [r1, r2], confusion: { rows: r1, columns: r2, labels: d.labels, matrix: d.confusionMatrix } }
}

function computeFleiss(t: RatingTable): AgreementOutcome {
  if (t.raters.length < 2)
    return { reason: `Fleiss' kappa needs at least two raters; the ratings name only ${t.raters[0] ?? 'none'}`, summary: [scopeLine(t)], breakdownRaters: t.raters }
  const complete = t.items.filter((item) => t.raters.every((r) => t.scores.get(item)!.has(r)))
  const incomplete = t.items.filter((item) => !complete.includes(item))
  const leftOut = incomplete.length > 0 ? `; ${incomplete.length} left out (not rated by every rater): ${list(incomplete, 5)}` : ''
  if (complete.length === 0) return { reason: 'no item was rated by every rater', summary: [scopeLine(t) + leftOut], breakdownRaters: t.raters }
  const rows = complete.map((item) => t.raters.map((r) => t.scores.get(item)!.get(r) as Label))
  const score = fleissKappa(rows, { input: 'ratings' })
  const d = score.details
  return {
    score,
    summary: [
      `dimension ${safe(String(t.dimension))}: ${d.items} items rated by all ${d.raters} raters (${list(t.raters)})${leftOut}`,
      `observed agreement ${formatNumber(d.observedAgreement)}, chance agreement ${formatNumber(d.expectedAgreement)}; categories ${list(d.categories.map(showLabel))}`,
    ],
    breakdownRaters: t.raters,
  }
}

function computeKrippendorff(ctx: MatcherContext, t: RatingTable, levelOption: KrippendorffLevel | undefined): AgreementOutcome {
  const level = levelOption ?? (t.kind === 'number' ? 'ordinal' : 'nominal')
  if (t.kind === 'string' && level !== 'nominal') {
    matcherError(
      ctx,
      AGREEMENT,
      AGREEMENT_ARGS,
      `options.level '${level}' needs numeric scores; the scores are labels, whose order is unknown: use level 'nominal' or numeric scores`,
      level,
    )
  }
  if (t.kind === 'boolean' && (level === 'interval' || level === 'ratio')) {
    matcherError(ctx, AGREEMENT, AGREEMENT_ARGS, `options.level '${level}' needs numeric scores; the scores are booleans: use level 'nominal'`, level)
  }
  // The reference takes no booleans: pass/fail go in as the labels 'false' < 'true' (as agreementReport does).
  const asValue = (v: Label | undefined) => (v === undefined ? null : typeof v === 'boolean' ? String(v) : v)
  const matrix = t.raters.map((r) => t.items.map((item) => asValue(t.scores.get(item)!.get(r))))
  const scope = `${scopeLine(t)}; level ${level}${levelOption === undefined ? ` (the default for ${t.kind === 'number' ? 'numeric scores' : 'labels'})` : ''}`
  try {
    const score = krippendorffAlpha(matrix, { level, ...(t.kind === 'boolean' && level === 'ordinal' ? { valueDomain: ['false', 'true'] } : {}) })
    const d = score.details
    return {
      score,
      summary: [
        scope,
        `${d.pairableUnits} of ${d.units} items rated at least twice (pairable), ${d.pairableValues} pairable ratings`,
        `disagreement observed ${formatNumber(d.observedDisagreement)}, expected by chance ${formatNumber(d.expectedDisagreement)} (alpha = 1 − observed / expected)`,
      ],
      breakdownRaters: t.raters,
    }
  } catch (error) {
    // What the reference refuses (one value in the domain, no unit rated twice) is a property of the data.
    if (!(error instanceof MetricInputError)) throw error
    return { reason: `the data need ${error.expected}`, summary: [scope], breakdownRaters: t.raters }
  }
}

/** The per-dimension report of the agreement core, for the most disputed items and the least-agreeing pair. */
function breakdownReport(t: RatingTable, raters: readonly string[], level: KrippendorffLevel | undefined): DimensionReport | undefined {
  const chosen = new Set(raters)
  const records: ScoreRatingInput[] = []
  for (const item of t.items) for (const [rater, score] of t.scores.get(item)!) if (chosen.has(rater)) records.push({ item, rater, score })
  if (records.length === 0) return undefined
  try {
    return agreementReport(records, { topItems: 5, ...(level === undefined ? {} : { level }) }).details.dimensions[0]
  } catch {
    return undefined
  }
}

function confusionSection(c: NonNullable<AgreementOutcome['confusion']>, heading: string): string {
  // Rows and columns beyond MAX_ROWS categories are cut, so a 0–100 scale cannot flood the message.
  const k = c.labels.length
  const shown = Math.min(k, MAX_ROWS)
  const header = ['', ...c.labels.slice(0, shown).map(showLabel)]
  const rows = c.matrix.slice(0, shown).map((row, i) => [showLabel(c.labels[i] as Label), ...row.slice(0, shown).map(String)])
  const note = k > shown ? `\n  (first ${shown} of ${k} categories)` : ''
  return `${heading}, rows ${safe(c.rows)}, columns ${safe(c.columns)}:\n${table([header, ...rows], { max: shown + 1 })}${note}`
}

function disputedSection(report: DimensionReport | undefined): string | undefined {
  if (report === undefined) return undefined
  if (report.disputedItems.length === 0) return 'no item has disagreeing ratings'
  // With two raters every disputed item has share 1, so the share is only worth printing for more.
  const shares = report.raters.length > 2
  const rows = report.disputedItems.map((d) => [
    d.item,
    Object.entries(d.scores)
      .map(([rater, score]) => `${rater}=${showLabel(score)}`)
      .join(', '),
    ...(shares ? [`(${formatNumber(d.disagreement, undefined, 2)} of rater pairs disagree)`] : []),
  ])
  return `most disagreed items:\n${table(rows)}`
}

/**
 * `expect(ratings).toHaveAgreementAbove(min, { statistic, dimension?, weights?, level?, raters? })`.
 *
 * Passes when the chosen inter-rater agreement statistic is ≥ `min` (a number from −1 to 1):
 * - `'cohen'`: Cohen's kappa of two raters over the items both rated (scikit-learn 1.2.1
 *   `cohen_kappa_score`, `weights` none/linear/quadratic over the sorted scores). With more than two
 *   raters, `raters: [a, b]` must name the pair (misuse otherwise: we do not average pairwise kappas).
 * - `'fleiss'`: Fleiss' kappa (statsmodels 0.13.5) over the items EVERY rater scored; other items are left
 *   out and listed.
 * - `'krippendorff'`: Krippendorff's alpha over all ratings, missing ones allowed; `level` defaults to
 *   `'ordinal'` for numeric scores and `'nominal'` for labels and booleans.
 *
 * Received: rating records `{ item, rater, dimension?, score }` (or the `{ scores }` that `loadRatings`
 * returns; `dimension` is required when the records have several), or a raters × items matrix with
 * `null` for "not rated" (cohen and krippendorff; rows are the raters, `raters` then takes row indices).
 * Values are the core's (parity: see `src/agreement`); the message adds the signature, what was counted,
 * the confusion matrix (the pair's for cohen, the least-agreeing pair's otherwise; at most 10 categories)
 * and the 5 most disagreed items. An undefined statistic (NaN: a single category, no shared item) FAILS,
 * with or without `.not`, and says why. Misuse (range, options, mixed score kinds, duplicate ratings)
 * throws `Matcher error:`.
 *
 * @example
 * expect([
 *   { item: 'q1', rater: 'ann', score: 1 }, { item: 'q1', rater: 'bob', score: 1 },
 *   { item: 'q2', rater: 'ann', score: 0 }, { item: 'q2', rater: 'bob', score: 0 },
 * ]).toHaveAgreementAbove(0.8, { statistic: 'cohen' }) // kappa 1
 */
export function toHaveAgreementAbove(this: MatcherContext, received: unknown, min: number, options: AgreementMatcherOptions): MatcherResult {
  const ctx = this
  requireThreshold(ctx, AGREEMENT, AGREEMENT_ARGS, 'min', min, [-1, 1], ' (kappa and alpha lie from −1 to 1)')
  const o = readAgreementOptions(ctx, options)
  const t = readTable(ctx, () => readRatingTable(received, o), AGREEMENT, AGREEMENT_ARGS)
  const statistic: Statistic = o.statistic
  if (statistic === 'cohen' && (o as CohenAgreementOptions).weights !== undefined && (o as CohenAgreementOptions).weights !== 'none' && t.kind === 'string') {
    matcherError(
      ctx,
      AGREEMENT,
      AGREEMENT_ARGS,
      'options.weights needs numeric (or boolean) scores: weights follow the order of the scores, and labels have none',
      (o as CohenAgreementOptions).weights,
    )
  }
  const level = statistic === 'krippendorff' ? (o as KrippendorffAgreementOptions).level : undefined
  const outcome =
    statistic === 'cohen'
      ? computeCohen(ctx, t, (o as CohenAgreementOptions).weights ?? 'none')
      : statistic === 'fleiss'
        ? computeFleiss(t)
        : computeKrippendorff(ctx, t, level)

  const name = outcome.score?.metric ?? STATISTIC_NAMES[statistic]
  const signature = outcome.score?.signature ?? ''
  const value = outcome.score?.value ?? Number.NaN
  const details = () => {
    const reportLevel = statistic === 'krippendorff' ? (level ?? (t.kind === 'number' ? 'ordinal' : 'nominal')) : undefined
    const report = breakdownReport(t, outcome.breakdownRaters, reportLevel)
    const pair = report?.mostDisagreeingPair
    const confusion =
      outcome.confusion !== undefined
        ? confusionSection(outcome.confusion, 'confusion matrix')
        : pair !== undefined
          ? confusionSection(
              { rows: pair.raters[0], columns: pair.raters[1], labels: pair.labels, matrix: pair.confusionMatrix },
              `least-agreeing pair ${safe(pair.raters[0])} × ${safe(pair.raters[1])} (observed agreement ${formatNumber(pair.observedAgreement)}, kappa ${formatNumber(pair.kappa)}): confusion matrix`,
            )
          : undefined
    return [outcome.summary.join('\n'), confusion, disputedSection(report)]
  }
  const extra = { statistic, raters: outcome.breakdownRaters, ...(t.dimension === undefined ? {} : { dimension: t.dimension }) }
  if (Number.isNaN(value)) {
    const reason = outcome.reason ?? outcome.score?.details.reason ?? `${name} is NaN`
    return uncomputable(ctx, AGREEMENT, AGREEMENT_ARGS, { name, reason, signature, threshold: min, sections: details, extra })
  }
  const pass = value >= min
  return {
    pass,
    message: () =>
      buildMessage(ctx, { matcher: AGREEMENT, args: AGREEMENT_ARGS, headline: thresholdHeadline(ctx, { label: name, value, min }), signature, sections: details() }),
    meta: { matcher: AGREEMENT, metric: name, value, threshold: min, comparator: comparator(ctx), pass, signature, extra },
  }
}

// ---------------------------------------------------------------- toCorrelateWith

const CORRELATE = 'toCorrelateWith'
const CORRELATE_ARGS = 'humanScores, min'
const METHOD_NAMES = { spearman: "Spearman's rho", kendall: "Kendall's tau-b", pearson: "Pearson's r" } as const

interface ReadScores {
  readonly positional: boolean
  /** Array: the array itself; record or Map: a Map by item. */
  readonly values: number[] | Map<string, number>
  readonly size: number
}

function readScores(ctx: MatcherContext, what: string, value: unknown): ReadScores {
  const fail = (problem: string, v: unknown): never => matcherError(ctx, CORRELATE, CORRELATE_ARGS, problem, v)
  const check = (label: string, v: unknown) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${what}${label} must be a finite number`, v)
    return v as number
  }
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    const hole = firstHole(value as ArrayLike<unknown>)
    if (hole >= 0) fail(`${holeProblem(what, hole)}; every position needs a finite number`, value)
    const values = Array.from(value as ArrayLike<unknown>, (v, i) => check(`[${i}]`, v))
    if (values.length === 0) fail(`${what} must hold at least one score`, value)
    return { positional: true, values, size: values.length }
  }
  let entries: Array<[unknown, unknown]>
  if (value instanceof Map) entries = [...value.entries()]
  else if (isObject(value)) entries = Object.entries(value)
  else return fail(`${what} must be an array of numbers, or a record { [item]: number } (or Map) aligned by item`, value)
  if (entries.length === 0) fail(`${what} must hold at least one score`, value)
  const map = new Map<string, number>()
  for (const [k, v] of entries) map.set(String(k), check(`[${JSON.stringify(String(k))}]`, v))
  return { positional: false, values: map, size: map.size }
}

function formatP(p: number): string {
  return p !== 0 && p < 1e-4 ? p.toExponential(2) : p.toFixed(4)
}

/**
 * `expect(metricScores).toCorrelateWith(humanScores, min, { method })`: how well an automatic metric
 * tracks human judgement on the same items.
 *
 * Passes when the correlation coefficient is ≥ `min` (−1…1): Spearman's rho (default), Kendall's tau-b or
 * Pearson's r, with scipy 1.10.1 semantics (the core's `metricAlignment`). Received value and
 * `humanScores` are either two arrays of numbers of the same length (aligned by position) or two
 * records `{ [item]: number }` / Maps aligned by item id. An item scored on one side only, a hole in an
 * array, or mixing an array with a record is a Matcher error (dropping unmatched items could leave two,
 * whose correlation is ±1 whatever the scores). The message gives the coefficient, its two-sided
 * p-value, n and the items whose ranks differ most (rank 1 = highest score). Fewer than 3 items, a
 * constant side, or a coefficient or p-value that is not a finite number FAILS with or without `.not`,
 * and says why; scores so large or small that r cannot be computed finitely are a Matcher error.
 *
 * @example
 * expect({ q1: 0.9, q2: 0.2, q3: 0.6 }).toCorrelateWith({ q1: 5, q2: 1, q3: 4 }, 0.8) // rho 1
 */
export function toCorrelateWith(this: MatcherContext, received: unknown, humanScores: ItemScores, min: number, options?: CorrelationMatcherOptions): MatcherResult {
  const ctx = this
  const fail = (problem: string, v: unknown): never => matcherError(ctx, CORRELATE, CORRELATE_ARGS, problem, v)
  if (typeof humanScores === 'number') fail('the first argument is humanScores (an array or record of numbers); min comes second', humanScores)
  requireThreshold(ctx, CORRELATE, CORRELATE_ARGS, 'min', min, [-1, 1], ' (a correlation coefficient)')
  if (options !== undefined && !isObject(options)) fail("options must be an object such as { method: 'kendall' }", options)
  const methodOption: unknown = options?.method ?? 'spearman'
  const method: CorrelationMethod =
    methodOption === 'spearman' || methodOption === 'kendall' || methodOption === 'pearson'
      ? methodOption
      : fail("options.method must be 'spearman', 'kendall' or 'pearson'", methodOption)
  const metric = readScores(ctx, 'received value', received)
  const human = readScores(ctx, 'humanScores', humanScores)
  if (metric.positional !== human.positional) {
    fail('received value and humanScores must both be arrays (aligned by position) or both records/Maps (aligned by item id)', humanScores)
  }
  if (metric.positional && metric.size !== human.size) fail(`humanScores must have as many scores as the received value (${metric.size})`, humanScores)
  if (!metric.positional) {
    // Items scored on one side only are an error, not silently dropped: dropping them can leave two items,
    // whose correlation is ±1 whatever the scores.
    const m = metric.values as Map<string, number>
    const h = human.values as Map<string, number>
    const metricOnly = [...m.keys()].filter((k) => !h.has(k))
    const humanOnly = [...h.keys()].filter((k) => !m.has(k))
    if (metricOnly.length + humanOnly.length > 0) {
      const show = (ids: string[]) =>
        list(
          ids.map((k) => JSON.stringify(k)),
          5,
        )
      const parts = [
        metricOnly.length > 0 ? `${show(metricOnly)} ${metricOnly.length === 1 ? 'has' : 'have'} a metric score (received) but no human score` : '',
        humanOnly.length > 0 ? `${show(humanOnly)} ${humanOnly.length === 1 ? 'has' : 'have'} a human score but no metric score (received)` : '',
      ].filter(Boolean)
      fail(`received value and humanScores must score the same items: ${parts.join('; ')}; score them on both sides or remove them from both`, humanScores)
    }
  }
  const name = METHOD_NAMES[method]
  if (metric.size < 3) {
    const reason = `only ${metric.size} ${metric.size === 1 ? 'item' : 'items'} scored: a correlation needs at least 3 (with 2, r is ±1 whatever the scores and its p-value is undefined)`
    return uncomputable(ctx, CORRELATE, CORRELATE_ARGS, { name, reason, signature: '', threshold: min, extra: { method, n: metric.size } })
  }
  let score: ReturnType<typeof metricAlignment>
  try {
    score = metricAlignment(metric.values, human.values, { method, top: 5 })
  } catch (error) {
    // What the core refuses in numbers (a coefficient it cannot compute finitely) is this matcher's misuse.
    if ((error as Error | undefined)?.name === 'MetricInputError') {
      const e = error as MetricInputError
      fail(`${name} cannot be computed for these scores: the core expected ${e.argument} to be ${e.expected}`, e.received)
    }
    throw error
  }
  const d = score.details
  const label = (item: string) => (metric.positional ? `[${item}]` : item)
  const sections = (): Array<string | undefined> => {
    const p = d.pvalue ?? Number.NaN
    return [Number.isFinite(p) ? `p = ${formatP(p)} (two-sided), n = ${d.n}` : `n = ${d.n} (no p-value)`, rankSection(d, label)]
  }
  const extra = { method, n: d.n, pvalue: d.pvalue ?? null }
  // One rule: a coefficient or p-value that is not a finite number fails in both directions, with the reason.
  if (!Number.isFinite(score.value) || !Number.isFinite(d.pvalue ?? Number.NaN)) {
    const reason = d.reason ?? (Number.isFinite(score.value) ? `the p-value of ${name} is ${String(d.pvalue)}` : `${name} is ${String(score.value)}`)
    return uncomputable(ctx, CORRELATE, CORRELATE_ARGS, { name, reason, signature: score.signature, threshold: min, sections, extra })
  }
  const pass = score.value >= min
  return {
    pass,
    message: () =>
      buildMessage(ctx, {
        matcher: CORRELATE,
        args: CORRELATE_ARGS,
        headline: thresholdHeadline(ctx, { label: `${name} (received vs humanScores)`, value: score.value, min }),
        signature: score.signature,
        sections: sections(),
      }),
    meta: { matcher: CORRELATE, metric: name, value: score.value, threshold: min, comparator: comparator(ctx), pass, signature: score.signature, extra },
  }
}

function rankSection(d: MetricAlignmentDetails, label: (item: string) => string): string | undefined {
  const rows = d.rankDisagreements ?? []
  if (rows.length === 0) return 'every item has the same rank on both sides'
  const fmt = (v: number) => (Number.isInteger(v) ? String(v) : formatNumber(v))
  return `largest rank disagreements (rank 1 = highest score):\n${table([
    ['item', 'received', 'human', 'received rank', 'human rank'],
    ...rows.map((r) => [label(r.item), fmt(r.metric), fmt(r.human), fmt(r.metricRank), fmt(r.humanRank)]),
  ])}`
}

// ---------------------------------------------------------------- toWinAgainst

const WIN = 'toWinAgainst'
const WIN_ARGS = 'baseline'

/**
 * `expect(judgements).toWinAgainst(baseline, { minRate = 0.5, confidence = 0.95, ties = 'exclude', system? })`.
 *
 * Counts the received pairwise judgements between `system` and `baseline` (either may be `a` or `b`;
 * judgements between other systems are ignored and counted in the message) and computes the win rate
 * with its Wilson score interval (the core's `winRate`, statsmodels 0.13.5 `proportion_confint(method=
 * 'wilson')` parity): ties `'exclude'` → wins / (wins + losses), `'half'` → (wins + ties/2) / all.
 * Passes only when the LOWER bound of the interval is ≥ `minRate` (0…1), so a lucky small sample does
 * not pass (8 wins of 10 has a 95% lower bound of 0.49). Every judgement is one trial; several raters of
 * the same item are not independent, so their interval is somewhat optimistic.
 *
 * Received: records `{ item, rater?, a, b, winner: 'a' | 'b' | 'tie' }` (or `loadRatings()` output), or
 * counts `{ wins, losses, ties? }` (then `system` is only a label). `system` may be left out when the
 * baseline meets one other system only. No decisive judgement (none at all, or only ties with 'exclude')
 * FAILS with or without `.not`. Misuse (unknown baseline, bad options) throws `Matcher error:`.
 *
 * @example
 * expect({ wins: 40, losses: 10, ties: 5 }).toWinAgainst('v1', { minRate: 0.6 }) // 95% interval [0.67, 0.89]
 */
export function toWinAgainst(this: MatcherContext, received: unknown, baseline: string, options?: WinAgainstOptions): MatcherResult {
  const ctx = this
  const fail = (problem: string, v: unknown): never => matcherError(ctx, WIN, WIN_ARGS, problem, v)
  if (typeof baseline !== 'string' || baseline.trim() === '') fail('baseline must be the name of the system to beat (a non-empty string)', baseline)
  if (options !== undefined && !isObject(options)) fail('options must be an object such as { minRate: 0.5 }', options)
  const o = (options ?? {}) as Record<string, unknown>
  const minRate = o.minRate === undefined ? 0.5 : requireThreshold(ctx, WIN, WIN_ARGS, 'options.minRate', o.minRate, [0, 1], ' (a win rate)')
  const confidence: number =
    o.confidence === undefined
      ? 0.95
      : typeof o.confidence === 'number' && o.confidence > 0 && o.confidence < 1
        ? o.confidence
        : fail('options.confidence must be a number strictly between 0 and 1, e.g. 0.95', o.confidence)
  const ties: TiesConvention = o.ties === undefined ? 'exclude' : o.ties === 'exclude' || o.ties === 'half' ? o.ties : fail("options.ties must be 'exclude' or 'half'", o.ties)
  const system: string | undefined =
    o.system === undefined
      ? undefined
      : typeof o.system === 'string' && o.system.trim() !== '' && o.system !== baseline
        ? o.system
        : fail('options.system must name the system that should win (a non-empty string other than the baseline)', o.system)
  const t: PairwiseTally = readTable(ctx, () => tallyPairwise(received, baseline, system), WIN, WIN_ARGS)
  const score = winRate({ wins: t.wins, losses: t.losses, ties: t.ties }, { ties, confidence })
  const d = score.details
  const level = `${Number((confidence * 100).toPrecision(12))}%`
  const counts = `${safe(t.system)} vs ${safe(baseline)}: ${t.wins} ${t.wins === 1 ? 'win' : 'wins'}, ${t.losses} ${t.losses === 1 ? 'loss' : 'losses'}, ${t.ties} ${t.ties === 1 ? 'tie' : 'ties'} (${ties === 'exclude' ? 'ties excluded' : 'a tie counts half a win'})`
  const others = [
    t.lost.length > 0 ? `lost on: ${list(t.lost)}` : undefined,
    t.ignored > 0 ? `ignored ${t.ignored} judgement${t.ignored === 1 ? '' : 's'} between other systems` : undefined,
  ]
    .filter(Boolean)
    .join('\n')
  const extra = { system: t.system, baseline, wins: t.wins, losses: t.losses, ties: t.ties, rate: score.value, low: d.low, high: d.high, confidence }
  const metric = `win rate (lower ${level} Wilson bound)`
  if (Number.isNaN(score.value)) {
    const reason = d.reason ?? 'the win rate is undefined'
    return uncomputable(ctx, WIN, WIN_ARGS, {
      name: `The win rate of ${t.system} against ${baseline}`,
      metric,
      reason,
      signature: score.signature,
      threshold: minRate,
      sections: () => [counts, others],
      extra,
    })
  }
  const pass = d.low >= minRate
  return {
    pass,
    message: () => {
      const interval = `win rate ${formatNumber(score.value)} over ${d.nobs} ${d.nobs === 1 ? 'judgement' : 'judgements'}, ${level} Wilson interval [${formatNumber(d.low)}, ${formatNumber(d.high)}]`
      const lucky =
        !ctx.isNot && !pass && score.value >= minRate
          ? `the observed rate reaches ${formatNumber(minRate)} but the lower bound does not: too few judgements to tell the systems apart at ${level}`
          : undefined
      return buildMessage(ctx, {
        matcher: WIN,
        args: WIN_ARGS,
        headline: thresholdHeadline(ctx, { label: `lower ${level} Wilson bound of the win rate of ${t.system} against ${baseline}`, value: d.low, min: minRate }),
        signature: score.signature,
        sections: [[counts, interval, lucky].filter(Boolean).join('\n'), others],
      })
    },
    meta: { matcher: WIN, metric, value: d.low, threshold: minRate, comparator: comparator(ctx), pass, signature: score.signature, extra },
  }
}

// ---------------------------------------------------------------- declarations

const RATINGS = 'rating records `{ item, rater, dimension?, score }` (or loadRatings() output), or a raters × items matrix'

export const agreementDeclarations = [
  declareMatcher({
    name: 'toHaveAgreementAbove',
    async: false,
    family: 'agreement',
    summary:
      "Inter-rater agreement ≥ `min` (−1…1): Cohen's kappa (two raters), Fleiss' kappa (items every rater scored) or Krippendorff's alpha (missing ratings allowed). An undefined statistic fails, with or without `.not`.",
    forms: [
      {
        received: RATINGS,
        args: [{ name: 'min', type: 'number', doc: 'Threshold on −1…1.' }],
        optionsRequired: true,
        options: {
          statistic: { type: "'cohen' | 'fleiss' | 'krippendorff' (required)", doc: 'Which statistic.' },
          dimension: { type: 'a string', doc: 'The dimension of the records to use; required when they hold several.' },
          weights: { type: "'none' | 'linear' | 'quadratic'", default: "'none'", doc: 'Cohen only: disagreement weights.' },
          level: { type: "'nominal' | 'ordinal' | 'interval' | 'ratio'", default: "'ordinal' for numbers, else 'nominal'", doc: 'Krippendorff only: level of measurement.' },
          raters: { type: 'an array of rater names (row indices for a matrix)', doc: 'Only these raters (Cohen: exactly two).' },
        },
      },
    ],
    metric: atLeast('agreement', { scale: 2 }),
    example: "expect(ratings).toHaveAgreementAbove(0.6, { statistic: 'krippendorff', dimension: 'correctness' })",
    failing: {
      received: [
        [1, 2, 3, 4],
        [4, 3, 2, 1],
      ],
      args: [0.6, { statistic: 'cohen' }],
    },
    compute: toHaveAgreementAbove,
  }),
  declareMatcher({
    name: 'toCorrelateWith',
    async: false,
    family: 'agreement',
    summary: 'The correlation of the received metric scores with `humanScores` ≥ `min` (−1…1), scipy 1.10 semantics; arrays align by position, records and Maps by item id.',
    forms: [
      {
        received: 'metric scores: an array of numbers, or a record / Map item → number',
        args: [
          { name: 'humanScores', type: 'ItemScores', doc: 'Human scores of the same items, in the same shape.' },
          { name: 'min', type: 'number', doc: 'Threshold on −1…1.' },
        ],
        options: { method: { type: "'spearman' | 'kendall' | 'pearson'", default: "'spearman'", doc: 'Which coefficient.' } },
      },
    ],
    metric: atLeast('correlation', { scale: 2 }),
    example: 'expect({ q1: 0.9, q2: 0.2, q3: 0.6 }).toCorrelateWith({ q1: 5, q2: 1, q3: 4 }, 0.8)',
    failing: { received: [0.9, 0.2, 0.6, 0.4], args: [[1, 5, 2, 4], 0.5] },
    compute: toCorrelateWith,
  }),
  declareMatcher({
    name: 'toWinAgainst',
    async: false,
    family: 'agreement',
    summary: 'Pairwise judgements show a system beating `baseline`: passes only when the lower bound of the Wilson interval of its win rate is ≥ `minRate`.',
    forms: [
      {
        received: 'pairwise judgements `{ item, a, b, winner }` (or loadRatings() output), or counts `{ wins, losses, ties? }`',
        args: [{ name: 'baseline', type: 'string', doc: 'The system to beat.' }],
        options: {
          minRate: { type: 'a number 0–1', default: '0.5', doc: 'The lower Wilson bound must reach this.' },
          confidence: { type: 'a number in (0, 1)', default: '0.95', doc: 'Two-sided confidence level of the interval.' },
          ties: { type: "'exclude' | 'half'", default: "'exclude'", doc: 'Leave ties out, or count a tie as half a win.' },
          system: { type: 'a string', doc: 'The system that should win; required when the baseline met several.' },
        },
      },
    ],
    metric: atLeast('win rate (lower Wilson bound)', { scale: 1 }),
    example: "expect({ wins: 40, losses: 10, ties: 5 }).toWinAgainst('v1', { minRate: 0.6 })",
    failing: { received: { wins: 8, losses: 2 }, args: ['v1'] },
    compute: toWinAgainst,
  }),
] as const
