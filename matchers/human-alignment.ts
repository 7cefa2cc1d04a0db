/**
 * `expect(judged).toAgreeWithHumans(labels, { minKappa, minSpearman })` (issue #30): the judge's verdicts
 * against people's labels on the same items. The numbers are the core's (src/agreement/human-alignment.ts,
 * itself on cohenKappa, spearman and krippendorffAlpha); this module checks the call, decides and words it.
 */
import { HumanAlignmentInputError, humanAlignment, type HumanAlignmentDetails, type JudgedItem } from '../src/agreement/human-alignment.js'
import { alignmentConfusion, alignmentDisagreements, alignmentSummary } from '../src/agreement/human-alignment-text.js'
import type { KappaWeighting } from '../src/agreement/index.js'
import type { Score } from '../src/score.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { atLeast, declareMatcher, oneOf } from './declare.js'
import { buildMessage, MAX_ROWS, thresholdHeadline } from './message.js'
import { matcherError, requireThreshold } from './validate.js'

export interface HumanAlignmentMatcherOptions {
  /** Cohen's kappa between the judge and the people's consensus must reach this (−1…1). */
  readonly minKappa?: number
  /** Spearman's rho between the judge's scores and the people's mean scores must reach this (−1…1; numeric ratings only). */
  readonly minSpearman?: number
  /** The dimension of the human ratings; required when they hold several. */
  readonly dimension?: string
  /** Kappa weights. @default 'linear' for numeric scores, 'none' otherwise */
  readonly weights?: KappaWeighting
}

/** The human labels: rating or preference records, or `loadRatings()` output. */
export type HumanLabels = readonly object[] | { readonly scores: readonly object[]; readonly comparisons: readonly object[] }

export interface HumanAlignmentMatchers<R = unknown> {
  /**
   * The received judge verdicts (`{ item, score, reason? }` per item on the people's scale, or `{ item, a,
   * b, winner, reason? }` preferences) agree with people's `labels` on the same items: Cohen's kappa against
   * each item's consensus ≥ `minKappa` (weighted linear for numeric scales) and Spearman's rho against the
   * mean human score ≥ `minSpearman`. Fails listing the items where judge and people disagree, with the
   * judge's reasons and each rater's label, and the confusion matrix. Bad labels (no rater id, fewer than
   * two raters, items the judge did not judge, another scale) are a Matcher error; an undefined statistic fails, with or without `.not`.
   *
   * @example expect(judged).toAgreeWithHumans(ratings, { dimension: 'correctness', minKappa: 0.6, minSpearman: 0.7 })
   */
  toAgreeWithHumans(labels: HumanLabels, options: HumanAlignmentMatcherOptions): R
}

const MATCHER = 'toAgreeWithHumans'
const ARGS = 'labels, options'

/**
 * `expect(judged).toAgreeWithHumans(labels, { minKappa?, minSpearman?, dimension?, weights? })`.
 *
 * Passes when every bar given is met: kappa ≥ `minKappa`, rho ≥ `minSpearman` (at least one bar is
 * required). `.not` passes when one of them falls short. A bar whose statistic is undefined (one
 * category on both sides, a constant score) fails with or without `.not`, saying why.
 *
 * @example
 * expect([{ item: 'q1', score: 5 }, { item: 'q2', score: 1 }, { item: 'q3', score: 4 }])
 *   .toAgreeWithHumans(ratings, { minKappa: 0.6 })
 */
export function toAgreeWithHumans(this: MatcherContext, received: unknown, labels: unknown, options: unknown): MatcherResult {
  const ctx = this
  const o = (options ?? {}) as HumanAlignmentMatcherOptions
  if (options === undefined || options === null || typeof options !== 'object') {
    matcherError(ctx, MATCHER, ARGS, 'options must name a bar: { minKappa } and/or { minSpearman }', options)
  }
  if (o.minKappa === undefined && o.minSpearman === undefined) {
    matcherError(ctx, MATCHER, ARGS, 'options must name a bar: { minKappa } and/or { minSpearman }; without one nothing is asserted', options)
  }
  const minKappa = o.minKappa === undefined ? undefined : requireThreshold(ctx, MATCHER, ARGS, 'options.minKappa', o.minKappa, [-1, 1], " (Cohen's kappa lies from −1 to 1)")
  const minSpearman = o.minSpearman === undefined ? undefined : requireThreshold(ctx, MATCHER, ARGS, 'options.minSpearman', o.minSpearman, [-1, 1], ' (a correlation)')
  if (o.dimension !== undefined && (typeof o.dimension !== 'string' || o.dimension === ''))
    matcherError(ctx, MATCHER, ARGS, 'options.dimension must be a non-empty string', o.dimension)
  let score: Score<HumanAlignmentDetails>
  try {
    score = humanAlignment(received as JudgedItem[], labels, {
      ...(o.dimension === undefined ? {} : { dimension: o.dimension }),
      ...(o.weights === undefined ? {} : { weights: o.weights }),
    })
  } catch (error) {
    // By name too: the ESM and CJS copies of the core each have their own classes.
    if (error instanceof HumanAlignmentInputError || (error as Error | undefined)?.name === 'MetricInputError') {
      const e = error as HumanAlignmentInputError
      matcherError(ctx, MATCHER, ARGS, typeof e.problem === 'string' ? e.problem : e.message, e.received)
    }
    throw error
  }
  const d = score.details
  if (minSpearman !== undefined && d.spearman === undefined) {
    matcherError(
      ctx,
      MATCHER,
      ARGS,
      `options.minSpearman needs numeric ratings; these are ${d.kind === 'preferences' ? 'pairwise preferences' : 'labels'}, which have no order: use minKappa`,
      minSpearman,
    )
  }
  const rho = d.spearman?.value ?? Number.NaN
  const bars: Array<{ name: string; value: number; min: number; reason?: string }> = []
  if (minKappa !== undefined)
    bars.push({
      name: `Cohen's kappa${d.weights === 'none' ? '' : ` (${d.weights} weights)`}, judge vs people`,
      value: d.kappa.value,
      min: minKappa,
      ...(d.kappa.reason === undefined ? {} : { reason: d.kappa.reason }),
    })
  if (minSpearman !== undefined)
    bars.push({ name: "Spearman's rho, judge vs people's mean", value: rho, min: minSpearman, ...(d.spearman?.reason === undefined ? {} : { reason: d.spearman.reason }) })
  const sections = () => [alignmentSummary(d), alignmentConfusion(d), alignmentDisagreements(d)]
  const primary = bars[0] as { name: string; value: number; min: number }
  const extra = {
    kind: d.kind,
    n: d.n,
    kappa: Number.isNaN(d.kappa.value) ? null : d.kappa.value,
    ...(d.spearman === undefined ? {} : { spearman: Number.isNaN(rho) ? null : rho }),
    humanAlpha: Number.isNaN(d.humanAlpha.value) ? null : d.humanAlpha.value,
    accuracy: d.accuracy,
    disagreements: d.disagreements.slice(0, MAX_ROWS).map((x) => x.item),
    ...(minSpearman === undefined ? {} : { minSpearman }),
  }
  const undefinedBar = bars.find((b) => Number.isNaN(b.value))
  if (undefinedBar !== undefined) {
    const reason = `${undefinedBar.name} is undefined for these data (${undefinedBar.reason ?? '0/0'})`
    return {
      pass: ctx.isNot === true,
      message: () =>
        buildMessage(ctx, {
          matcher: MATCHER,
          args: ARGS,
          headline: `${reason}, so the assertion fails${ctx.isNot === true ? ' (also with .not)' : ''}.`,
          signature: score.signature,
          sections: sections(),
        }),
      meta: {
        matcher: MATCHER,
        metric: 'judge–human agreement',
        value: Number.NaN,
        threshold: primary.min,
        comparator: ctx.isNot ? '<' : '>=',
        pass: false,
        signature: score.signature,
        extra: { ...extra, error: reason },
      },
    }
  }
  const pass = bars.every((b) => b.value >= b.min)
  const deciding = bars.find((b) => b.value < b.min) ?? (bars[0] as (typeof bars)[number])
  const others = bars.filter((b) => b !== deciding)
  return {
    pass,
    message: () =>
      buildMessage(ctx, {
        matcher: MATCHER,
        args: ARGS,
        // the headline is one line: the bar that decides it (the first that falls short), the others after it
        headline: thresholdHeadline(ctx, { label: deciding.name, value: deciding.value, min: deciding.min }),
        signature: score.signature,
        sections: [others.map((b) => thresholdHeadline(ctx, { label: b.name, value: b.value, min: b.min })).join('\n') || undefined, ...sections()],
      }),
    meta: {
      matcher: MATCHER,
      metric: minKappa !== undefined ? 'judge–human kappa' : 'judge–human Spearman',
      value: primary.value,
      threshold: primary.min,
      comparator: ctx.isNot ? '<' : '>=',
      pass,
      signature: score.signature,
      extra,
    },
  }
}

export const humanAlignmentDeclarations = [
  declareMatcher({
    name: 'toAgreeWithHumans',
    async: false,
    family: 'agreement',
    summary:
      "The judge's verdicts agree with people's labels on the same items: Cohen's kappa against each item's consensus ≥ `minKappa` (linear weights for numeric scales) and Spearman's rho ≥ `minSpearman`; lists the disagreements with the judge's reasons and the confusion matrix.",
    forms: [
      {
        received: "the judge's verdicts: `{ item, score, reason? }` per item on the people's scale, or pairwise `{ item, a, b, winner, reason? }`",
        args: [
          {
            name: 'labels',
            type: 'HumanLabels',
            doc: 'Human rating records `{ item, rater, dimension?, score }`, pairwise records `{ item, rater, a, b, winner }`, or loadRatings() output.',
          },
        ],
        optionsRequired: true,
        options: {
          minKappa: { type: 'a number −1…1', doc: "Cohen's kappa between the judge and the people's consensus must reach this." },
          minSpearman: { type: 'a number −1…1', doc: "Spearman's rho between the judge's score and the mean human score must reach this (numeric ratings only)." },
          dimension: { type: 'a string', doc: 'The dimension of the human ratings; required when they hold several.' },
          weights: {
            type: "'none' | 'linear' | 'quadratic'",
            default: "'linear' for numeric scores, else 'none'",
            doc: 'Kappa weights over the scale points.',
            check: oneOf('none', 'linear', 'quadratic'),
          },
        },
      },
    ],
    metric: atLeast('judge–human kappa', { scale: 2 }),
    example: "expect(judged).toAgreeWithHumans(ratings, { dimension: 'correctness', minKappa: 0.6, minSpearman: 0.7 })",
    failing: {
      received: [
        { item: 'q1', score: 1, reason: 'Wrong.' },
        { item: 'q2', score: 5, reason: 'Right.' },
        { item: 'q3', score: 1, reason: 'Wrong.' },
      ],
      args: [
        [
          { item: 'q1', rater: 'ann', score: 5 },
          { item: 'q1', rater: 'bob', score: 4 },
          { item: 'q2', rater: 'ann', score: 1 },
          { item: 'q2', rater: 'bob', score: 2 },
          { item: 'q3', rater: 'ann', score: 3 },
          { item: 'q3', rater: 'bob', score: 3 },
        ],
        { minKappa: 0.6 },
      ],
    },
    compute: toAgreeWithHumans,
  }),
] as const
