import { caseReferences, type EvalCase } from '../src/eval-case.js'
import { caseLabel } from '../src/eval-case.js'
import type { MatcherContext } from './context.js'
import { denseCases, errorText, matcherError } from './validate.js'

/** One answer with its references, from a received eval set. */
export interface AnswerCase {
  readonly id: string
  readonly answer: string
  readonly references: readonly string[]
}

export function isEvalSet(received: unknown): received is readonly EvalCase[] | { cases: readonly EvalCase[] } {
  return Array.isArray(received) || (received !== null && typeof received === 'object' && Array.isArray((received as { cases?: unknown }).cases))
}

/** Cases with `answer` and `reference`/`references`; a case whose pipeline failed is a matcher error naming it. */
export function readAnswerSet(ctx: MatcherContext, matcher: string, args: string, received: unknown): AnswerCase[] {
  const cases = (Array.isArray(received) ? received : (received as { cases: unknown[] }).cases) as unknown[]
  if (cases.length === 0) matcherError(ctx, matcher, args, 'received eval set must contain at least one case', received)
  return denseCases(ctx, matcher, args, cases).map((raw, i) => {
    if (raw === null || typeof raw !== 'object') matcherError(ctx, matcher, args, `received[${i}] must be a case with \`answer\` and \`reference\``, raw)
    const c = raw as EvalCase
    const id = caseLabel(c, i)
    if (c.error !== undefined && c.error !== null && typeof c.answer !== 'string') {
      matcherError(ctx, matcher, args, `case ${id} has no answer because its pipeline failed: ${errorText(c.error)}`)
    }
    if (typeof c.answer !== 'string') matcherError(ctx, matcher, args, `received[${i}].answer must be a string`, c.answer)
    const references = caseReferences(c)
    if (references === undefined || references.length === 0) {
      matcherError(ctx, matcher, args, `received[${i}] must have \`reference\` (a string) or \`references\` (a non-empty array of strings)`, c.references ?? c.reference)
    }
    references.forEach((r, j) => {
      if (typeof r !== 'string') matcherError(ctx, matcher, args, `received[${i}].references[${j}] must be a string`, r)
    })
    return { id, answer: c.answer, references }
  })
}

/** The references argument of a per-answer matcher: a string or a non-empty array of strings. */
export function readReferences(ctx: MatcherContext, matcher: string, args: string, references: unknown): readonly string[] {
  if (typeof references === 'string') return [references]
  if (!Array.isArray(references) || references.length === 0) {
    matcherError(ctx, matcher, args, 'references must be a string or a non-empty array of strings', references)
  }
  references.forEach((r, i) => {
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

/**
 * An empty or whitespace-only reference scores 0 on every overlap metric, so `.not` would pass on it:
 * refused instead, naming the reference (`where`: `references[1]`, `received[2].reference`).
 */
export function refuseBlankReferences(ctx: MatcherContext, matcher: string, args: string, references: readonly string[], where: (index: number) => string): void {
  references.forEach((r, i) => {
    if (r.trim() === '') matcherError(ctx, matcher, args, `${where(i)} is empty or whitespace only; an overlap score against it is 0 whatever the answer says`, r)
  })
}

/** {@link refuseBlankReferences} for every case of an answer set. */
export function refuseBlankSetReferences(ctx: MatcherContext, matcher: string, args: string, cases: readonly AnswerCase[]): void {
  cases.forEach((c, i) =>
    refuseBlankReferences(
      ctx,
      matcher,
      args,
      c.references,
      (j) => (c.references.length === 1 ? `received[${i}].reference` : `received[${i}].references[${j}]`) + ` (case ${c.id})`,
    ),
  )
}
