import { describeValue } from '../src/errors.js'
import { denseOr, holeProblem } from '../src/dense-array.js'
import { formatNumber } from '../src/text/format.js'
import { terminalSafe } from '../src/text/terminal-safe.js'
import type { MatcherContext } from './context.js'
import { trimLibraryFrames } from './stack.js'

/**
 * Misuse is not a metric failure: a wrong argument throws, whether or not `.not` is used, so a
 * typo can never turn into a passing assertion. The message follows Jest's matcher-error layout:
 * the hint, a blank line, `Matcher error: <what was expected>`, a blank line, what came in.
 */
export class MatcherUsageError extends Error {
  override readonly name = 'MatcherUsageError'
}

export function matcherError(ctx: MatcherContext, matcher: string, args: string, problem: string, value?: unknown, hasValue = arguments.length > 4): never {
  const hint = ctx.utils.matcherHint(matcher, 'received', args, { isNot: ctx.isNot === true, promise: ctx.promise ?? '' })
  // The problem and the value shown are one line each, and both carry user text (a case id, an option key,
  // a baseline name, a core MetricInputError's message, a Symbol's description or a class name that
  // JSON.stringify does not escape): escaped whole (src/text/terminal-safe.ts), line feeds included, so no
  // call site can forget it and no user string can start a line of its own or move the cursor.
  const shown = hasValue ? `\n\n${terminalSafe(describeWithType(value))}` : ''
  const error = new MatcherUsageError(`${hint}\n\nMatcher error: ${terminalSafe(problem)}${shown}`)
  // Trim our own frames (and the runner's expect plumbing) so the stack starts at the user's expect() line.
  throw trimLibraryFrames(error, matcherError)
}

function describeWithType(value: unknown): string {
  return `Received: ${describeValue(value)}`
}

export function requirePositiveInteger(ctx: MatcherContext, matcher: string, args: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    matcherError(ctx, matcher, args, `${name} must be a positive integer, got ${describeValue(value)}`)
  }
  return value
}

export function requireThreshold(
  ctx: MatcherContext,
  matcher: string,
  args: string,
  name: string,
  value: unknown,
  range: readonly [number, number] = [0, 1],
  hint = '',
): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < range[0] || value > range[1]) {
    matcherError(ctx, matcher, args, `${name} must be a number from ${range[0]} to ${range[1]}, got ${describeValue(value)}${hint}`)
  }
  return value
}

/**
 * A threshold for a metric on sacrebleu's 0–100 scale (BLEU, chrF, TER): a value in (0, 1) is almost
 * certainly on the wrong scale, so it is a Matcher error saying so (and what it would do) instead of a
 * silent pass or fail.
 */
export function requireHundredScaleThreshold(
  ctx: MatcherContext,
  matcher: string,
  args: string,
  name: string,
  value: unknown,
  range: readonly [number, number],
  consequence: string,
): number {
  const threshold = requireThreshold(ctx, matcher, args, name, value, range)
  if (threshold > 0 && threshold < 1) {
    matcherError(ctx, matcher, args, `${name} is on sacrebleu's 0–100 scale, got ${threshold}. Did you mean ${formatNumber(threshold * 100, undefined, 1)}? (${consequence})`)
  }
  return threshold
}

/**
 * The cases of an eval set, refusing holes: `[c, , c]` would otherwise be skipped by `map` and
 * `reduce` while the mean still divides by the full length.
 */
export function denseCases<T>(ctx: MatcherContext, matcher: string, args: string, cases: readonly T[]): T[] {
  return denseOr(cases, (i) => matcherError(ctx, matcher, args, `${holeProblem('received', i)} in the eval set; every entry must be a case`))
}

/**
 * A user array a matcher reads (`retrieved`, `relevant`, `references`), refusing holes as `undefined` is
 * refused: `where` names it in the message (`received value.retrieved[1] is a hole (an empty slot in a
 * sparse array); every entry must be …`). See src/dense-array.ts.
 */
export function denseUserArray<T>(ctx: MatcherContext, matcher: string, args: string, array: readonly T[], where: string, entry: string): T[] {
  return denseOr(array, (i) => matcherError(ctx, matcher, args, `${holeProblem(where, i)}; every entry must be ${entry}`))
}

/** A case's recorded pipeline error as text; never throws (a null-prototype object has no toString). */
export function errorText(error: unknown): string {
  try {
    return String((error as { message?: unknown } | null)?.message ?? error)
  } catch {
    return describeValue(error)
  }
}
