/**
 * Retrieval steps inside an agent (issue #31), for the retrieval matchers: a case with `steps: [{ query,
 * retrieved }]` and no `retrieved` becomes the case (or, under `steps: 'each'`, the cases) the retrieval
 * matchers score. The ranking math is untouched; src/agent/retrieval-steps.ts builds the rankings.
 */
import { retrievalFromSteps, STEPS_MODES, type StepsMode } from '../src/agent/retrieval-steps.js'
import { caseLabel, caseName } from '../src/eval-case.js'
import type { MatcherContext } from './context.js'
import { oneOf, type OptionSpec } from './declare.js'
import { matcherError } from './validate.js'

export type { StepsMode }

export const STEPS_OPTION: OptionSpec = {
  type: "'union' | 'each' | 'last'",
  default: "'union'",
  doc: "For a case with retrieval steps (`steps: [{ query, retrieved }]`, an agent's searches) instead of `retrieved`: score the steps' union in first-seen order (`'union'`), the last step (`'last'`), or each step as its own query, named `<id> step <n>` (`'each'`). Shown in the signature as `steps:` when a case has steps.",
  check: oneOf(...STEPS_MODES),
}

function hasSteps(c: unknown): c is Record<string, unknown> & { steps: unknown } {
  return c !== null && typeof c === 'object' && !Array.isArray(c) && 'steps' in c && (c as { steps?: unknown }).steps !== undefined
}

/** The cases one received case stands for; `where` names it in errors. */
function expandCase(
  ctx: MatcherContext,
  matcher: string,
  args: string,
  c: Record<string, unknown>,
  index: number | undefined,
  mode: StepsMode,
): Array<Record<string, unknown>> {
  const name = index === undefined ? 'received value' : caseName(c, index)
  if (c.retrieved !== undefined)
    matcherError(ctx, matcher, args, `${name} has both \`retrieved\` and \`steps\`; give one of them (steps are an agent's searches, scored by options.steps)`)
  const { steps, ...rest } = c
  const rankings = retrievalFromSteps(matcher, name, steps, mode)
  if (mode !== 'each') return [{ ...rest, retrieved: rankings[0]?.retrieved }]
  const label = index === undefined ? (typeof c.id === 'string' || typeof c.id === 'number' ? String(c.id) : 'case') : caseLabel(c, index)
  return rankings.map((r) => ({ ...rest, id: `${label} step ${(r.step as number) + 1}`, retrieved: r.retrieved }))
}

/**
 * The received value with every case that has `steps` replaced by its ranking(s), and whether any had
 * steps. Under `'each'` a single case with steps becomes an eval set of its steps. Values without steps
 * are returned as they are (the retrieval reader checks them).
 */
export function expandRetrievalSteps(ctx: MatcherContext, matcher: string, args: string, received: unknown, mode: StepsMode): { received: unknown; used: boolean } {
  const isSet = Array.isArray(received) || (received !== null && typeof received === 'object' && Array.isArray((received as { cases?: unknown }).cases))
  if (!isSet) {
    if (!hasSteps(received)) return { received, used: false }
    const cases = expandCase(ctx, matcher, args, received, undefined, mode)
    return { received: mode === 'each' ? cases : cases[0], used: true }
  }
  const all = (Array.isArray(received) ? received : (received as { cases: unknown[] }).cases) as unknown[]
  // a sparse set is left to the reader, which names the hole
  if (!all.some((c, i) => i in all && hasSteps(c))) return { received, used: false }
  const out: unknown[] = []
  for (let i = 0; i < all.length; i++) {
    if (!(i in all)) return { received, used: false }
    const c = all[i]
    if (hasSteps(c)) out.push(...expandCase(ctx, matcher, args, c, i, mode))
    else out.push(c)
  }
  return { received: out, used: true }
}

/** A signature with `steps:<mode>` before `version` (which stays last). */
export function stepsSignature(signature: string, mode: StepsMode): string {
  const at = signature.lastIndexOf('|version:')
  return at < 0 ? `${signature}|steps:${mode}` : `${signature.slice(0, at)}|steps:${mode}${signature.slice(at)}`
}

/** Options without `steps`, for a core function that checks its own option keys. */
export function withoutSteps<O>(options: O): O {
  if (options === null || typeof options !== 'object' || !('steps' in options)) return options
  const { steps: _ignored, ...rest } = options as O & { steps?: unknown }
  return rest as O
}
