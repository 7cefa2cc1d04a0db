import { caseLabel, caseName, caseReferences, isFailedCase, type EvalCase } from '../src/eval-case.js'
import { invisibleCodePoints, type ReferenceTokenCheck } from '../src/generation/reference-tokens.js'
import { firstHole, holeProblem } from '../src/dense-array.js'
import { pyIsSpaceCode } from '../src/text/python-string.js'
import type { MatcherContext } from './context.js'
import type { FailedCase } from './message.js'
import { denseCases, errorText, matcherError } from './validate.js'

/** One answer with its references, from a received eval set. */
export interface AnswerCase {
  readonly id: string
  readonly answer: string
  readonly references: readonly string[]
  /** Position in the received set (failed cases left out of a partial read shift the rest). */
  readonly index?: number
  /** A case whose pipeline failed, kept as an empty answer (`failedCases: 'zero'`). */
  readonly failed?: boolean
}

/** The answer cases that can be scored and the ones whose pipeline failed, from a received eval set. */
export interface PartialAnswerSet {
  readonly cases: AnswerCase[]
  readonly failed: FailedCase[]
  readonly total: number
}

export function isEvalSet(received: unknown): received is readonly EvalCase[] | { cases: readonly EvalCase[] } {
  return Array.isArray(received) || (received !== null && typeof received === 'object' && Array.isArray((received as { cases?: unknown }).cases))
}

/** Cases with `answer` and `reference`/`references`; a case whose pipeline failed is a matcher error naming it. */
export function readAnswerSet(ctx: MatcherContext, matcher: string, args: string, received: unknown): AnswerCase[] {
  const { cases, failed } = readAnswerSetPartial(ctx, matcher, args, received)
  const f = failed[0]
  if (f !== undefined) matcherError(ctx, matcher, args, `${f.name} has no answer because its pipeline failed: ${f.error}`)
  return cases
}

/**
 * {@link readAnswerSet} for matchers with the `failedCases` option: the cases whose pipeline failed
 * (`error` set, no `answer`) are returned apart instead of refused; every other case is checked.
 */
export function readAnswerSetPartial(ctx: MatcherContext, matcher: string, args: string, received: unknown, keepFailedAsEmpty = false): PartialAnswerSet {
  const all = (Array.isArray(received) ? received : (received as { cases: unknown[] }).cases) as unknown[]
  if (all.length === 0) matcherError(ctx, matcher, args, 'received eval set must contain at least one case', received)
  const cases: AnswerCase[] = []
  const failed: FailedCase[] = []
  denseCases(ctx, matcher, args, all).forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object') matcherError(ctx, matcher, args, `received[${i}] must be a case with \`answer\` and \`reference\``, raw)
    const c = raw as EvalCase
    const id = caseLabel(c, i)
    const name = caseName(c, i)
    const where = name === `received[${i}]` ? name : `${name} (received[${i}])`
    const field = (f: string) => (where === name ? `${where}.${f}` : `${where}: ${f}`)
    const didFail = isFailedCase(c, 'answer')
    if (didFail) {
      failed.push({ index: i, name, id, error: errorText(c.error) })
      if (!keepFailedAsEmpty) return
    }
    if (!didFail && typeof c.answer !== 'string') matcherError(ctx, matcher, args, `${field('answer')} must be a string`, c.answer)
    const references = caseReferences(c)
    if (references === undefined || references.length === 0) {
      matcherError(ctx, matcher, args, `${where} must have \`reference\` (a string) or \`references\` (a non-empty array of strings)`, c.references ?? c.reference)
    }
    // forEach below would skip a hole (`[ 'a', , 'b' ]`) and the metric would then crash on it
    const hole = firstHole(references)
    if (hole >= 0) matcherError(ctx, matcher, args, `${holeProblem(field('references'), hole)}; every reference must be a string`)
    references.forEach((r, j) => {
      if (typeof r !== 'string') matcherError(ctx, matcher, args, `${field(`references[${j}]`)} must be a string`, r)
    })
    cases.push(didFail ? { id, answer: '', references, index: i, failed: true } : { id, answer: c.answer as string, references, index: i })
  })
  return { cases, failed, total: all.length }
}

/** The references argument of a per-answer matcher: a string or a non-empty array of strings. */
export function readReferences(ctx: MatcherContext, matcher: string, args: string, references: unknown): readonly string[] {
  if (typeof references === 'string') return [references]
  if (!Array.isArray(references) || references.length === 0) {
    matcherError(ctx, matcher, args, 'references must be a string or a non-empty array of strings', references)
  }
  // forEach below would skip a hole, which then crashed the metric (src/dense-array.ts)
  const hole = firstHole(references)
  if (hole >= 0) matcherError(ctx, matcher, args, `${holeProblem('references', hole)}; every reference must be a string`)
  references.forEach((r: unknown, i) => {
    if (typeof r !== 'string') matcherError(ctx, matcher, args, `references[${i}] must be a string`, r)
  })
  return references as readonly string[]
}

export function readAnswer(ctx: MatcherContext, matcher: string, args: string, received: unknown): string {
  if (typeof received !== 'string') {
    matcherError(
      ctx,
      matcher,
      args,
      'received value must be an answer string, or an eval set (array of cases with `answer` and `reference`) with only a threshold argument',
      received,
    )
  }
  return received
}

/** Whether `text` is empty or only Python whitespace (what every metric's tokenizer splits on). */
function isBlank(text: string): boolean {
  for (let k = 0; k < text.length; k++) if (!pyIsSpaceCode(text.charCodeAt(k))) return false
  return true
}

/**
 * A reference that is blank scores 0 on every overlap metric whatever the answer says, so `.not`
 * would pass on it: refused instead (both directions), naming the reference (`where`: `references[1]`,
 * `received[2].reference`). Blank means empty or whitespace only, or, with `check`, no token under
 * the metric's own tokenizer (ROUGE on CJK text, TER with noPunct on punctuation, invisible characters).
 */
export function refuseBlankReferences(
  ctx: MatcherContext,
  matcher: string,
  args: string,
  references: readonly string[],
  where: (index: number) => string,
  check?: ReferenceTokenCheck,
): void {
  references.forEach((r, i) => {
    if (isBlank(r) || r.trim() === '')
      matcherError(ctx, matcher, args, `${where(i)} is empty or whitespace only; an overlap score against it is 0 whatever the answer says`, r)
    if (check !== undefined && !check.hasToken(r)) {
      const invisible = invisibleCodePoints(r)
      const holds = invisible === '' ? '' : `; invisible characters in it: ${invisible}`
      matcherError(
        ctx,
        matcher,
        args,
        `${where(i)} has no tokens under ${check.metric}'s tokenizer (${check.tokenizer}), so a score against it is 0 whatever the answer says${holds}. Hint: ${check.hint}`,
        r,
      )
    }
  })
}

/** {@link refuseBlankReferences} for every case of an answer set. */
export function refuseBlankSetReferences(ctx: MatcherContext, matcher: string, args: string, cases: readonly AnswerCase[], check?: ReferenceTokenCheck): void {
  cases.forEach((c, i) =>
    refuseBlankReferences(
      ctx,
      matcher,
      args,
      c.references,
      (j) => (c.references.length === 1 ? `received[${c.index ?? i}].reference` : `received[${c.index ?? i}].references[${j}]`) + ` (case ${c.id})`,
      check,
    ),
  )
}
