/**
 * What the agent matchers receive: the calls an agent made (an array of `{ name, args }`, or a case or an
 * adapter's output `{ toolCalls }`), or an eval set whose cases carry `toolCalls` (and, for the
 * comparisons, `expectedToolCalls`). A case whose pipeline failed (`error` set, no `toolCalls`) is kept
 * apart for the `failedCases` option.
 */
import { readToolCalls, type ToolCall } from '../src/agent/tool-calls.js'
import { caseLabel, caseName } from '../src/eval-case.js'
import type { MatcherContext } from './context.js'
import type { FailedCase } from './message.js'
import { denseCases, errorText, matcherError } from './validate.js'

/** One case of a received set, its calls read. */
export interface AgentCase {
  readonly id: string
  /** `case q3`, or `received[2]` without an id: how messages name it. */
  readonly name: string
  readonly index: number
  readonly calls: ToolCall[]
  readonly raw: Readonly<Record<string, unknown>>
}

export interface AgentSet {
  readonly cases: AgentCase[]
  readonly failed: FailedCase[]
  readonly total: number
}

const CASE_KEYS = ['toolCalls', 'expectedToolCalls', 'question', 'error', 'timing', 'usage']

/** An object that is a case rather than a call: it has one of the case fields. */
function isCaseObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && CASE_KEYS.some((k) => k in value)
}

/** An eval set: `{ cases }` (a runEvalSet run), or an array whose first entry is a case rather than a call. */
export function isAgentSet(received: unknown): boolean {
  if (received !== null && typeof received === 'object' && !Array.isArray(received) && Array.isArray((received as { cases?: unknown }).cases)) return true
  return Array.isArray(received) && received.length > 0 && 0 in received && isCaseObject(received[0])
}

export const RECEIVED_CALLS = 'the tool calls an agent made: an array of `{ name, args }`, or `{ toolCalls }` (an adapter’s output or a case)'
export const RECEIVED_AGENT_SET = 'an eval set whose cases carry `toolCalls`: an array of cases, `{ cases }`, or a runEvalSet run'

/** The calls of one received value that is not a set. */
export function readCalls(ctx: MatcherContext, matcher: string, args: string, received: unknown): ToolCall[] {
  if (Array.isArray(received)) return readToolCalls(matcher, 'received', received)
  if (received !== null && typeof received === 'object' && 'toolCalls' in received)
    return readToolCalls(matcher, 'received.toolCalls', (received as { toolCalls: unknown }).toolCalls)
  return matcherError(ctx, matcher, args, `received value must be ${RECEIVED_CALLS}, or ${RECEIVED_AGENT_SET}`, received)
}

/** The cases of a received set; a case without `toolCalls` (that did not fail) is a Matcher error naming it. */
export function readAgentSet(ctx: MatcherContext, matcher: string, args: string, received: unknown): AgentSet {
  const all = (Array.isArray(received) ? received : (received as { cases: unknown[] }).cases) as unknown[]
  if (all.length === 0) matcherError(ctx, matcher, args, 'received eval set must contain at least one case', received)
  const cases: AgentCase[] = []
  const failed: FailedCase[] = []
  denseCases(ctx, matcher, args, all).forEach((raw, index) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) matcherError(ctx, matcher, args, `received[${index}] must be a case with \`toolCalls\``, raw)
    const c = raw as Record<string, unknown>
    const id = caseLabel(c, index)
    const name = caseName(c, index)
    if (c.toolCalls === undefined && c.error !== undefined && c.error !== null) {
      failed.push({ index, name, id, error: errorText(c.error) })
      return
    }
    if (c.toolCalls === undefined) {
      matcherError(
        ctx,
        matcher,
        args,
        `${name} has no \`toolCalls\`: return the calls from the pipeline (an adapter gives them: fromAiSdkResult, fromOpenAIChatCompletion, fromLangChainMessages)`,
      )
    }
    cases.push({ id, name, index, calls: readToolCalls(matcher, `${name}.toolCalls`, c.toolCalls), raw: c })
  })
  return { cases, failed, total: all.length }
}

/** The cases of a received set for the budget: failed cases included (their time was spent). */
export function readBudgetSet(
  ctx: MatcherContext,
  matcher: string,
  args: string,
  received: unknown,
): Array<{ id: string; name: string; raw: Record<string, unknown>; failed: boolean; error: string }> {
  if (!isAgentSet(received) && !(Array.isArray(received) && received.length > 0)) {
    matcherError(ctx, matcher, args, 'received value must be an eval run `{ cases }` or an array of cases with `timing` and `usage`', received)
  }
  const all = (Array.isArray(received) ? received : (received as { cases: unknown[] }).cases) as unknown[]
  if (all.length === 0) matcherError(ctx, matcher, args, 'received eval set must contain at least one case', received)
  return denseCases(ctx, matcher, args, all).map((raw, index) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) matcherError(ctx, matcher, args, `received[${index}] must be a case`, raw)
    const c = raw as Record<string, unknown>
    const failed = c.error !== undefined && c.error !== null
    return { id: caseLabel(c, index), name: caseName(c, index), raw: c, failed, error: failed ? errorText(c.error) : '' }
  })
}
