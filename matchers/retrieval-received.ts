import { caseLabel } from '../src/eval-case.js'
import type { RetrievalCase } from '../src/retrieval/types.js'
import type { MatcherContext } from './context.js'
import { denseCases, errorText, matcherError } from './validate.js'

/** A received value is one query or an eval set; set matchers assert on the mean. */
export type RetrievalReceived =
  { readonly kind: 'case'; readonly case: RetrievalCase } | { readonly kind: 'set'; readonly cases: readonly RetrievalCase[]; readonly labels: readonly string[] }

const SHAPE = 'a case `{ retrieved, relevant }`, an array of cases, or `{ cases }`'

function checkCase(ctx: MatcherContext, matcher: string, args: string, value: unknown, where: string): RetrievalCase {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    matcherError(ctx, matcher, args, `${where} must be a case \`{ retrieved, relevant }\``, value)
  }
  const c = value as { retrieved?: unknown; relevant?: unknown; error?: unknown }
  if (c.error !== undefined && c.error !== null && c.retrieved === undefined) {
    matcherError(ctx, matcher, args, `${where} has no ranking because its pipeline failed: ${errorText(c.error)}`)
  }
  if (!Array.isArray(c.retrieved)) {
    matcherError(ctx, matcher, args, `${where}.retrieved must be an array of ids or \`{ id }\` objects`, c.retrieved)
  }
  if (c.relevant === undefined || c.relevant === null || typeof c.relevant !== 'object') {
    matcherError(ctx, matcher, args, `${where}.relevant must be an array/Set of ids or a record/Map of id → grade`, c.relevant)
  }
  return value as RetrievalCase
}

export function readRetrievalReceived(ctx: MatcherContext, matcher: string, args: string, received: unknown): RetrievalReceived {
  if (Array.isArray(received) || (received !== null && typeof received === 'object' && Array.isArray((received as { cases?: unknown }).cases))) {
    const cases = (Array.isArray(received) ? received : (received as { cases: unknown[] }).cases) as unknown[]
    if (cases.length === 0) matcherError(ctx, matcher, args, 'received eval set must contain at least one case', received)
    const checked = denseCases(ctx, matcher, args, cases).map((c, i) => checkCase(ctx, matcher, args, c, `received[${i}]`))
    return { kind: 'set', cases: checked, labels: checked.map((c, i) => caseLabel(c, i)) }
  }
  if (received !== null && typeof received === 'object' && 'retrieved' in received) {
    return { kind: 'case', case: checkCase(ctx, matcher, args, received, 'received value') }
  }
  return matcherError(ctx, matcher, args, `received value must be ${SHAPE}`, received)
}
