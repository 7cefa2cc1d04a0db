import { caseLabel, caseName, isFailedCase } from '../src/eval-case.js'
import type { RetrievalCase } from '../src/retrieval/types.js'
import type { MatcherContext } from './context.js'
import type { FailedCase } from './message.js'
import { denseCases, denseUserArray, errorText, matcherError } from './validate.js'

/**
 * A received value is one query or an eval set; set matchers assert on the mean. For a set, `cases`
 * are the cases that can be scored (with their `labels` and `indices` in the received set) and
 * `failed` the ones whose pipeline failed; `total` counts both.
 */
export type RetrievalReceived =
  | { readonly kind: 'case'; readonly case: RetrievalCase }
  | {
      readonly kind: 'set'
      readonly cases: readonly RetrievalCase[]
      readonly labels: readonly string[]
      readonly indices: readonly number[]
      readonly failed: readonly FailedCase[]
      readonly total: number
    }

const SHAPE = 'a case `{ retrieved, relevant }`, an array of cases, or `{ cases }`'
const RELEVANT =
  'an array/Set of ids or a record/Map of id → grade (for an eval-set item with `keyword` and no `relevant`, pass `corpus` to runEvalSet/describeEvalSet so `relevant` comes from the keyword)'

/** `received[4]` when the case has no id, else `case q05 (received[4])`, then `.field` or `: field`. */
function fieldOf(where: string, name: string, field: string): string {
  return name === where ? `${where}.${field}` : `${name} (${where}): ${field}`
}

function checkCase(ctx: MatcherContext, matcher: string, args: string, value: unknown, where: string, name = where): RetrievalCase {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    matcherError(ctx, matcher, args, `${where} must be a case \`{ retrieved, relevant }\``, value)
  }
  const c = value as { retrieved?: unknown; relevant?: unknown; error?: unknown }
  if (isFailedCase(c, 'retrieved')) {
    matcherError(ctx, matcher, args, `${name} has no ranking because its pipeline failed: ${errorText(c.error)}`)
  }
  if (!Array.isArray(c.retrieved)) {
    matcherError(ctx, matcher, args, `${fieldOf(where, name, 'retrieved')} must be an array of ids or \`{ id }\` objects`, c.retrieved)
  }
  // A hole would be skipped by the ranking (the ranks after it shift up): refused like `undefined`.
  denseUserArray(ctx, matcher, args, c.retrieved, fieldOf(where, name, 'retrieved'), 'an id or an `{ id }` object')
  if (Array.isArray(c.relevant)) denseUserArray(ctx, matcher, args, c.relevant, fieldOf(where, name, 'relevant'), 'an id')
  const keyword = (value as { keyword?: unknown }).keyword
  if (c.relevant === undefined && typeof keyword === 'string') {
    matcherError(
      ctx,
      matcher,
      args,
      `${fieldOf(where, name, 'relevant')} is missing; the case has \`keyword: ${JSON.stringify(keyword)}\` but no corpus to find it in. Pass \`corpus\` (chunks \`{ id, text }\`, a JSON/JSONL file, or a function returning them) to runEvalSet/describeEvalSet so \`relevant\` comes from the keyword, or give the item \`relevant\``,
    )
  }
  if (c.relevant === undefined || c.relevant === null || typeof c.relevant !== 'object') {
    matcherError(ctx, matcher, args, `${fieldOf(where, name, 'relevant')} must be ${RELEVANT}`, c.relevant)
  }
  return value as RetrievalCase
}

export function readRetrievalReceived(ctx: MatcherContext, matcher: string, args: string, received: unknown): RetrievalReceived {
  if (Array.isArray(received) || (received !== null && typeof received === 'object' && Array.isArray((received as { cases?: unknown }).cases))) {
    const all = (Array.isArray(received) ? received : (received as { cases: unknown[] }).cases) as unknown[]
    if (all.length === 0) matcherError(ctx, matcher, args, 'received eval set must contain at least one case', received)
    const cases: RetrievalCase[] = []
    const labels: string[] = []
    const indices: number[] = []
    const failed: FailedCase[] = []
    denseCases(ctx, matcher, args, all).forEach((c, i) => {
      if (isFailedCase(c, 'retrieved')) {
        failed.push({ index: i, name: caseName(c, i), id: caseLabel(c, i), error: errorText((c as { error: unknown }).error) })
        return
      }
      cases.push(checkCase(ctx, matcher, args, c, `received[${i}]`, caseName(c, i)))
      labels.push(caseLabel(c, i))
      indices.push(i)
    })
    return { kind: 'set', cases, labels, indices, failed, total: all.length }
  }
  if (received !== null && typeof received === 'object' && 'retrieved' in received) {
    return { kind: 'case', case: checkCase(ctx, matcher, args, received, 'received value') }
  }
  return matcherError(ctx, matcher, args, `received value must be ${SHAPE}`, received)
}
