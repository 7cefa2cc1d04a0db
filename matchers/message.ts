import { formatNumber } from '../src/text/format.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { matcherError } from './validate.js'

export { formatNumber, list, MAX_ROWS, quote, table } from '../src/text/format.js'

/**
 * Shared failure-message building. Every threshold matcher prints the same block:
 *
 *   expect(received).toHaveNdcgAtK(k, min)
 *
 *   nDCG@3 = 0.2015   required ≥ 0.7000   (short by 0.4985)
 *   signature: nDCG|k:3|gain:linear|dup:first|version:0.1.0
 *
 *   <breakdown>
 */

export interface ThresholdHeadline {
  /** What was measured, e.g. `nDCG@3` or `mean nDCG@3 over 8 queries`. */
  readonly label: string
  readonly value: number
  readonly min: number
  /** Decimals for this scale (4 for 0–1 metrics, 2 for BLEU's 0–100). */
  readonly decimals?: number
}

/** `nDCG@3 = 0.2015   required ≥ 0.7000   (short by 0.4985)`; under `.not`, `required < …` and `over by`. */
export function thresholdHeadline(ctx: MatcherContext, h: ThresholdHeadline): string {
  const decimals = h.decimals ?? 4
  const value = formatNumber(h.value, h.min, decimals)
  const min = formatNumber(h.min, h.value, decimals)
  const isNot = ctx.isNot === true
  const comparator = isNot ? '<' : '≥'
  let gap = ''
  if (Number.isNaN(h.value)) gap = '   (not a number)'
  else if (!isNot && h.value < h.min) gap = `   (short by ${formatNumber(h.min - h.value, undefined, decimals)})`
  else if (isNot && h.value >= h.min) gap = `   (at or above by ${formatNumber(h.value - h.min, undefined, decimals)})`
  return `${h.label} = ${colourNumber(ctx, 'received', value)}   required ${comparator} ${colourNumber(ctx, 'expected', min)}${gap}`
}

/** Prints the formatted number text (not the float, which would lose the padding) in the runner's colours. */
function colourNumber(ctx: MatcherContext, which: 'received' | 'expected', text: string): string {
  // printReceived(number) would print full precision; colour the chosen text with the runner's colour instead.
  const coloured = which === 'received' ? ctx.utils.printReceived(0) : ctx.utils.printExpected(0)
  return coloured.replace('0', text)
}

export interface MessageParts {
  readonly matcher: string
  /** The argument names in the hint, e.g. `k, min`. */
  readonly args?: string
  readonly received?: string
  readonly headline: string
  readonly signature?: string
  readonly sections?: ReadonlyArray<string | undefined>
  readonly comment?: string
}

/** Hint, blank line, headline, signature, then each non-empty breakdown section separated by a blank line. */
export function buildMessage(ctx: MatcherContext, parts: MessageParts): string {
  const hint = ctx.utils.matcherHint(parts.matcher, parts.received ?? 'received', parts.args ?? '', {
    isNot: ctx.isNot === true,
    promise: ctx.promise ?? '',
    ...(parts.comment ? { comment: parts.comment } : {}),
  })
  const lines = [hint, '', parts.headline]
  if (parts.signature) lines.push(`signature: ${parts.signature}`)
  for (const section of parts.sections ?? []) {
    if (section && section.length > 0) lines.push('', section)
  }
  return lines.join('\n')
}

export interface ThresholdOutcome {
  readonly matcher: string
  readonly args: string
  /** The headline label, e.g. `BLEU` or `mean ROUGE-L F over 8 answers`. */
  readonly label: string
  /** The metric name for reporters, e.g. `BLEU` or `mean ROUGE-L F`. */
  readonly metric?: string
  readonly value: number
  readonly min: number
  readonly decimals?: number
  readonly signature: string
  /** Built only when the message is shown. */
  readonly sections: () => ReadonlyArray<string | undefined>
  readonly perCase?: ReadonlyArray<{ readonly id: string; readonly value: number }>
}

/**
 * The result of a threshold matcher: the one comparator (`value ≥ min`, never flipped for `.not`), the
 * lazy message, and the meta the reporter reads.
 */
export function thresholdResult(ctx: MatcherContext, o: ThresholdOutcome): MatcherResult {
  // A non-finite value is an error, never a value: NaN < min would let `.not` pass.
  if (!Number.isFinite(o.value)) matcherError(ctx, o.matcher, o.args, `${o.label} ${nonFinite(o.value)}, so nothing can be asserted; check the input for overflowing values`)
  const bad = o.perCase?.find((c) => !Number.isFinite(c.value))
  if (bad !== undefined) matcherError(ctx, o.matcher, o.args, `case ${bad.id} ${nonFinite(bad.value)}, so nothing can be asserted`)
  const pass = o.value >= o.min
  return {
    pass,
    message: () =>
      buildMessage(ctx, {
        matcher: o.matcher,
        args: o.args,
        headline: thresholdHeadline(ctx, { label: o.label, value: o.value, min: o.min, ...(o.decimals === undefined ? {} : { decimals: o.decimals }) }),
        signature: o.signature,
        sections: o.sections(),
      }),
    meta: {
      matcher: o.matcher,
      metric: o.metric ?? o.label,
      value: o.value,
      threshold: o.min,
      comparator: ctx.isNot ? '<' : '>=',
      pass,
      signature: o.signature,
      ...(o.perCase ? { perCase: o.perCase.map((c) => ({ id: c.id, value: c.value, pass: c.value >= o.min })) } : {}),
    },
  }
}

/** What a non-finite value is, in words (a message never prints `NaN`). */
function nonFinite(value: number): string {
  return Number.isNaN(value) ? 'is not a number (0/0 or an undefined score)' : `is ${value > 0 ? '' : 'negative '}infinite (an overflow)`
}
