/**
 * What the agent adapters return: the calls in the form the agent matchers take, the token usage in the
 * form toStayWithinBudget takes (one entry per model call, with its model, so each is priced right), and
 * the final text. Spread it into a runEvalSet pipeline's return value: `{ ...fromAiSdkResult(r) }`.
 */
import { MetricInputError } from '../errors.js'
import { isPlainObject } from '../options.js'
import type { TokenUsage } from '../agent/budget.js'
import type { ToolCall } from '../agent/tool-calls.js'

/** A call as an adapter reads it; `invalid: true` marks a call whose arguments the model sent unparseable (its text in `rawArgs`). */
export interface AdaptedToolCall extends ToolCall {
  readonly invalid?: true
  readonly rawArgs?: string
}

export interface AgentOutput {
  readonly toolCalls: AdaptedToolCall[]
  /** One entry per model call that reported usage. */
  readonly usage: TokenUsage[]
  /** The final text, when the framework reports one. */
  readonly answer?: string
}

/** A token count the framework reported: a finite number ≥ 0, or absent. */
export function count(fn: string, where: string, value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new MetricInputError(fn, where, 'a token count (a finite number ≥ 0)', value)
  return value
}

/** A usage entry with only the counts that were given; undefined when none was. */
export function usageEntry(input: number | undefined, output: number | undefined, total: number | undefined, model: unknown): TokenUsage | undefined {
  if (input === undefined && output === undefined && total === undefined) return undefined
  return {
    ...(input === undefined ? {} : { inputTokens: input }),
    ...(output === undefined ? {} : { outputTokens: output }),
    ...(total === undefined ? {} : { totalTokens: total }),
    ...(typeof model === 'string' && model !== '' ? { model } : {}),
  }
}

/**
 * A call from its name and its arguments as the framework gave them: an object is used as is; a JSON
 * string is parsed (OpenAI sends `arguments` as text); an empty string is `{}`. Text that does not parse
 * to an object is what the model sent, not bad input: the call is kept, `invalid: true`, `args: {}`.
 */
export function adaptedCall(fn: string, where: string, name: unknown, args: unknown, step: number, id: unknown): AdaptedToolCall {
  if (typeof name !== 'string' || name === '') throw new MetricInputError(fn, `${where}.name`, 'the tool name (a non-empty string)', name)
  const base = { name, step, ...(typeof id === 'string' ? { id } : {}) }
  if (args === undefined || args === null) return { ...base, args: {} }
  if (isPlainObject(args)) return { ...base, args }
  if (typeof args === 'string') {
    if (args.trim() === '') return { ...base, args: {} }
    try {
      const parsed: unknown = JSON.parse(args)
      if (isPlainObject(parsed)) return { ...base, args: parsed }
    } catch {
      // the model's text is kept below
    }
    return { ...base, args: {}, invalid: true, rawArgs: args }
  }
  throw new MetricInputError(fn, `${where}.args`, 'the arguments (an object or a JSON string)', args)
}

/** Refuses what is not an object at `where`. */
export function objectAt(fn: string, where: string, value: unknown, expected: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object') throw new MetricInputError(fn, where, expected, value)
  return value as Record<string, unknown>
}

/** An array at `where`, refusing holes (a skipped hole would shift every later step). */
export function arrayAt(fn: string, where: string, value: unknown, expected: string): unknown[] {
  if (!Array.isArray(value)) throw new MetricInputError(fn, where, expected, value)
  for (let i = 0; i < value.length; i++) if (!(i in value)) throw new MetricInputError(fn, `${where}[${i}]`, expected.replace(/^an array of /, 'a '), undefined)
  return value
}
