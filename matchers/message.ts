import { formatNumber, list as listText, MAX_ROWS, quote as quoteText, table as tableText } from '../src/text/format.js'
import { terminalSafe, terminalSafeLine, terminalSafeLines } from '../src/text/terminal-safe.js'
import type { MatcherContext, MatcherResult } from './context.js'
import type { OptionSpec } from './declare.js'
import { matcherError } from './validate.js'

export { formatNumber, MAX_ROWS } from '../src/text/format.js'
export { terminalSafe } from '../src/text/terminal-safe.js'

/*
 * User text in a message (case ids, answers, references, judge reasons, error texts, baseline names,
 * metric keys) is terminal-safe (src/text/terminal-safe.ts). Where it is escaped:
 * - the headline and the signature are one line each: `buildMessage` escapes them whole, line feeds
 *   included, so whatever a label interpolates cannot start a line;
 * - a Matcher error's problem and value are one line each: `matcherError` (validate.ts) escapes them whole;
 * - a section has lines of our own layout, so user text in it must go through `quote`, `list`, `table` or
 *   `terminalSafe` where it is interpolated; `buildMessage` then escapes every other control character
 *   left in it (but the line feeds and the runner's own colour codes). The property suite
 *   (test/property/injection.suite.ts) drives every matcher's messages with hostile user text to find a
 *   site that does not.
 */

/** Quotes a free-text value (see src/text/format.ts), terminal-safe: JSON escapes plus separators and bidi controls. */
export function quote(text: string, max?: number): string {
  return terminalSafe(quoteText(text, max))
}

/** A bounded, comma-separated list of terminal-safe items. */
export function list(items: readonly string[], max?: number): string {
  return listText(
    items.map((item) => terminalSafe(item)),
    max,
  )
}

/** A padded table of terminal-safe cells (the widths are those of the escaped text). */
export function table(rows: ReadonlyArray<ReadonlyArray<string>>, options?: { indent?: string; max?: number; total?: number }): string {
  return tableText(
    rows.map((row) => row.map((cell) => terminalSafe(cell))),
    options,
  )
}

/** The escape sequences the runner puts around a number it prints (none with NO_COLOR / FORCE_COLOR=0). */
function runnerCodes(ctx: MatcherContext): string[] {
  const codes = new Set<string>()
  const samples: unknown[] = []
  try {
    samples.push(ctx.utils.printReceived(0), ctx.utils.printExpected(0))
  } catch {
    // a stub without colours
  }
  for (const text of samples) {
    // eslint-disable-next-line no-control-regex
    if (typeof text === 'string') for (const m of text.matchAll(/\u001b\[[0-9;]*m/g)) codes.add(m[0])
  }
  return [...codes]
}

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
  const keep = runnerCodes(ctx)
  const lines = [hint, '', terminalSafeLine(parts.headline, keep)]
  if (parts.signature) lines.push(`signature: ${terminalSafe(parts.signature)}`)
  for (const section of parts.sections ?? []) {
    if (section && section.length > 0) lines.push('', terminalSafeLines(section, keep))
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
  if (bad !== undefined) matcherError(ctx, o.matcher, o.args, `case ${terminalSafe(bad.id)} ${nonFinite(bad.value)}, so nothing can be asserted`)
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

// ---------------------------------------------------------------- eval sets with failed cases

/** What a set matcher does with cases whose pipeline failed (`failedCases` option). */
export type FailedCasesMode = 'fail' | 'zero' | 'skip'

/** A case of a received eval set whose pipeline failed: its name in messages and its error text. */
export interface FailedCase {
  /** Position in the received set. */
  readonly index: number
  /** `case q05` (its id), or `received[4]` when it has none. */
  readonly name: string
  /** Its id for reports: the id, else the position label. */
  readonly id: string
  readonly error: string
}

/** The `failedCases` option of every set matcher that scores per case. */
export const FAILED_CASES_OPTION: OptionSpec = {
  type: "'fail' | 'zero' | 'skip'",
  default: "'fail'",
  doc: "Eval sets only: what a case whose pipeline failed (`error` set, nothing to score) does. `'fail'`: the metric is computed over the other cases and shown, and the assertion fails, with or without `.not`, naming each failed case and its error. `'zero'`: the case scores 0 (counted as an empty output) and the threshold decides. `'skip'`: the case is left out of the score (still listed in the message). Shown in the signature as `failed:<choice>` when a case failed or the choice is not the default.",
  check: (v: unknown) => v === 'fail' || v === 'zero' || v === 'skip',
}

/** The `failedCases` choice from an options object (already checked by the declaration). */
export function failedCasesMode(options: unknown): FailedCasesMode {
  const v = options !== null && typeof options === 'object' ? (options as { failedCases?: unknown }).failedCases : undefined
  return v === 'zero' || v === 'skip' ? v : 'fail'
}

/** Options without `failedCases`, for a core function that checks its own option keys. */
export function withoutFailedCases<O>(options: O): O {
  if (options === null || typeof options !== 'object' || !('failedCases' in options)) return options
  const { failedCases: _ignored, ...rest } = options as O & { failedCases?: unknown }
  return rest as O
}

/**
 * A set-level signature with `failed:<mode>` before `version` (which stays last) when a case failed or
 * the choice is not the default: the number then depends on it. A set with no failure under the
 * default keeps the signature it always had, so existing baselines still compare.
 */
export function failedCasesSignature(signature: string, mode: FailedCasesMode, failed: number): string {
  if (failed === 0 && mode === 'fail') return signature
  const at = signature.lastIndexOf('|version:')
  const entry = `failed:${mode}`
  return at < 0 ? `${signature}|${entry}` : `${signature.slice(0, at)}|${entry}${signature.slice(at)}`
}

/** `case q05 has no ranking because its pipeline failed: vector DB timeout (503)`, one line per failed case. */
export function failedCasesSection(failed: readonly FailedCase[], total: number, what: string, mode: FailedCasesMode): string | undefined {
  if (failed.length === 0) return undefined
  const how = mode === 'fail' ? 'not scored' : mode === 'zero' ? 'scored 0' : 'left out of the score'
  const lines = failed.slice(0, MAX_ROWS).map((f) => `  ${terminalSafe(f.name)} has no ${what} because its pipeline failed: ${terminalSafe(f.error)}`)
  if (failed.length > MAX_ROWS) lines.push(`  … and ${failed.length - MAX_ROWS} more`)
  return `failed cases: ${failed.length} of ${total} (${how}; failedCases: '${mode}')\n${lines.join('\n')}`
}

export interface PartialSetOutcome extends ThresholdOutcome {
  readonly failed: readonly FailedCase[]
  readonly total: number
  readonly mode: FailedCasesMode
  /** What a failed case has none of: `ranking`, `answer`. */
  readonly what: string
  /** Scored cases (the mean's denominator); 0 when every case failed and none is scored. */
  readonly scored: number
}

/**
 * The result of a set matcher when cases may have failed in the pipeline. No failure: the ordinary
 * threshold result. `'zero'`/`'skip'`: the ordinary result, the failed cases listed first. `'fail'`
 * (or nothing left to score): a failure in both directions (`pass` is `isNot`), never a Matcher error,
 * whose headline says so and whose next line shows the metric over the cases that did not fail.
 */
export function partialSetResult(ctx: MatcherContext, o: PartialSetOutcome): MatcherResult {
  const section = failedCasesSection(o.failed, o.total, o.what, o.mode)
  if (o.failed.length === 0) return thresholdResult(ctx, o)
  if (o.mode !== 'fail' && o.scored > 0) return thresholdResult(ctx, { ...o, sections: () => [section, ...o.sections()] })
  const n = o.failed.length
  const isNot = ctx.isNot === true
  const why =
    o.scored === 0
      ? `every case (${n} of ${o.total}) failed in the pipeline and nothing can be scored, so the assertion fails`
      : `${n} of ${o.total} ${o.total === 1 ? 'case' : 'cases'} failed in the pipeline (failedCases: 'fail'), so the assertion fails${isNot ? ' under .not too' : ''}`
  if (o.scored > 0 && !Number.isFinite(o.value))
    matcherError(ctx, o.matcher, o.args, `${o.label} ${nonFinite(o.value)}, so nothing can be asserted; check the input for overflowing values`)
  const over =
    o.scored > 0
      ? `over the ${o.scored} that did not fail: ${thresholdHeadline(ctx, { label: o.label, value: o.value, min: o.min, ...(o.decimals === undefined ? {} : { decimals: o.decimals }) })}`
      : undefined
  const hint =
    o.scored > 0
      ? "pass { failedCases: 'skip' } to assert on the others only, or { failedCases: 'zero' } to score failed cases 0"
      : 'fix the pipeline or retry (runEvalSet `retries`)'
  return {
    pass: isNot,
    message: () =>
      buildMessage(ctx, {
        matcher: o.matcher,
        args: o.args,
        headline: why,
        signature: o.signature,
        sections: [[over, hint].filter(Boolean).join('\n'), section, ...(o.scored > 0 ? o.sections() : [])],
      }),
    // Recorded even when nothing could be scored (value NaN, recorded as null), so a report never leaves
    // out an assertion that failed; `extra.failedCases` lets it name the cases and their errors.
    meta: {
      matcher: o.matcher,
      metric: o.metric ?? o.label,
      value: o.scored > 0 ? o.value : Number.NaN,
      threshold: o.min,
      comparator: isNot ? '<' : '>=',
      // recorded as what the assertion did: failed, in either direction
      pass: isNot,
      signature: o.signature,
      ...(o.scored > 0 && o.perCase ? { perCase: o.perCase.map((c) => ({ id: c.id, value: c.value, pass: c.value >= o.min })) } : {}),
      extra: { failedCases: o.failed.slice(0, MAX_RECORDED_FAILED).map((c) => ({ id: c.id, error: c.error.slice(0, 200) })), failedCaseCount: n },
    },
  }
}

/** Failed cases kept in a result's `meta.extra.failedCases` (the report's budget for `extra` is 4,000 characters). */
const MAX_RECORDED_FAILED = 10
