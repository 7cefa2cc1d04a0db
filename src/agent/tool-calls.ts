/**
 * Tool calls as the agent matchers take them: what an agent did (`{ name, args, step? }`, from the
 * user or an adapter in src/adapters) and what a test expects (a tool name, or `{ name, args? }`
 * whose args may be an asymmetric matcher such as `expect.objectContaining(…)`).
 */
import { MetricInputError } from '../errors.js'
import { firstHole, holeProblem } from '../dense-array.js'
import { isPlainObject } from '../options.js'

/** One call an agent made. `step` groups calls the model issued together (one message, one AI SDK step). */
export interface ToolCall {
  readonly name: string
  readonly args: Readonly<Record<string, unknown>>
  /** Calls with the same step were issued together (parallel), so their order among themselves is not defined. */
  readonly step?: number
  readonly id?: string
}

/**
 * Something with an `asymmetricMatch(received)` method: `expect.objectContaining(…)`, `expect.any(String)`
 * from Vitest or Jest, or a hand-written one. The core only calls the method, so both runners' work.
 */
export interface AsymmetricArgs {
  asymmetricMatch(received: unknown): boolean
}

/** An expected call: a tool name (any arguments), or a name with the arguments it must match. */
export type ExpectedToolCall = string | { readonly name: string; readonly args?: Readonly<Record<string, unknown>> | AsymmetricArgs; readonly step?: number }

/** An expected call after reading: `args` undefined means any arguments. */
export interface ReadExpectedCall {
  readonly name: string
  readonly args: Readonly<Record<string, unknown>> | AsymmetricArgs | undefined
  readonly step: number | undefined
}

/** How the arguments of a call are compared with an expected call's. */
export type ArgsMatch = 'exact' | 'partial' | 'ignore'

export function isAsymmetric(value: unknown): value is AsymmetricArgs {
  return value !== null && typeof value === 'object' && typeof (value as { asymmetricMatch?: unknown }).asymmetricMatch === 'function'
}

function isStep(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0
}

/**
 * The calls an agent made, checked: an array of `{ name, args?, step?, id? }` with a non-empty string
 * `name`, `args` a plain object (absent: `{}`, a tool without parameters), `step` an integer ≥ 0.
 * Other keys (`type`, `result`…) are allowed and ignored. `where` names the list in messages.
 *
 * @throws MetricInputError naming the call (`toolCalls[2].args`) for a call without a name, args that
 *   are not an object (a JSON string from OpenAI's `function.arguments` is named as such), a hole
 */
export function readToolCalls(fn: string, where: string, value: unknown): ToolCall[] {
  if (!Array.isArray(value)) throw new MetricInputError(fn, where, 'an array of tool calls `{ name, args }`', value)
  const hole = firstHole(value)
  if (hole >= 0) throw new MetricInputError(fn, `${where}[${hole}]`, `a tool call \`{ name, args }\` (${holeProblem(where, hole)})`, undefined)
  return value.map((raw: unknown, i) => {
    const at = `${where}[${i}]`
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new MetricInputError(fn, at, 'a tool call `{ name, args }`', raw)
    const call = raw as Record<string, unknown>
    if (typeof call.name !== 'string' || call.name === '') throw new MetricInputError(fn, `${at}.name`, 'the tool name (a non-empty string)', call.name)
    const args = call.args === undefined ? {} : call.args
    if (typeof args === 'string') {
      throw new MetricInputError(fn, `${at}.args`, 'an object (parse a JSON string such as OpenAI `function.arguments` with JSON.parse, or use an adapter)', args)
    }
    if (!isPlainObject(args)) throw new MetricInputError(fn, `${at}.args`, 'a plain object of arguments', args)
    if (call.step !== undefined && !isStep(call.step)) throw new MetricInputError(fn, `${at}.step`, 'an integer ≥ 0', call.step)
    const out: { name: string; args: Record<string, unknown>; step?: number; id?: string } = { name: call.name, args }
    if (call.step !== undefined) out.step = call.step as number
    if (typeof call.id === 'string') out.id = call.id
    return out
  })
}

/**
 * Expected calls, checked: each a tool name or `{ name, args?, step? }`, `args` a plain object or an
 * asymmetric matcher. `allowEmpty` false refuses an empty list (nothing would be asserted).
 */
export function readExpectedCalls(fn: string, where: string, value: unknown, allowEmpty: boolean): ReadExpectedCall[] {
  if (!Array.isArray(value)) throw new MetricInputError(fn, where, 'an array of expected calls (tool names or `{ name, args }`)', value)
  // `Object.assign([], { order: 'any-order' })`: options put where the calls go would otherwise be ignored
  const stray = Object.keys(value).find((k) => !/^(0|[1-9][0-9]*)$/.test(k))
  if (stray !== undefined)
    throw new MetricInputError(
      fn,
      `${where}.${stray}`,
      'absent: an array of expected calls has only its entries (options go in the next argument)',
      (value as unknown as Record<string, unknown>)[stray],
    )
  if (!allowEmpty && value.length === 0) throw new MetricInputError(fn, where, 'a non-empty array of expected calls', value)
  const hole = firstHole(value)
  if (hole >= 0) throw new MetricInputError(fn, `${where}[${hole}]`, `an expected call (${holeProblem(where, hole)})`, undefined)
  return value.map((raw: unknown, i) => readExpectedCall(fn, `${where}[${i}]`, raw))
}

/** One expected call: a tool name or `{ name, args?, step? }`. */
export function readExpectedCall(fn: string, where: string, raw: unknown): ReadExpectedCall {
  if (typeof raw === 'string') {
    if (raw === '') throw new MetricInputError(fn, where, 'a tool name (a non-empty string) or `{ name, args }`', raw)
    return { name: raw, args: undefined, step: undefined }
  }
  if (!isPlainObject(raw)) throw new MetricInputError(fn, where, 'a tool name or `{ name, args }`', raw)
  for (const key of Object.keys(raw)) {
    if (key !== 'name' && key !== 'args' && key !== 'step' && key !== 'id')
      throw new MetricInputError(fn, `${where}.${key}`, 'not set (an expected call has name, args and step)', raw[key])
  }
  if (typeof raw.name !== 'string' || raw.name === '') throw new MetricInputError(fn, `${where}.name`, 'the tool name (a non-empty string)', raw.name)
  const args = raw.args
  if (args !== undefined && !isPlainObject(args) && !isAsymmetric(args)) {
    throw new MetricInputError(fn, `${where}.args`, 'a plain object or an asymmetric matcher such as expect.objectContaining({ … })', args)
  }
  if (raw.step !== undefined && !isStep(raw.step)) throw new MetricInputError(fn, `${where}.step`, 'an integer ≥ 0', raw.step)
  return { name: raw.name, args: args as ReadExpectedCall['args'], step: raw.step as number | undefined }
}

/** `search({"query":"heads"})`, `search(…)` for any arguments: how messages show a call. */
export function describeCall(call: ToolCall | ReadExpectedCall): string {
  if (call.args === undefined) return `${call.name}(…)`
  if (isAsymmetric(call.args)) {
    const text = typeof (call.args as { toString?: unknown }).toString === 'function' ? safe(() => String(call.args)) : 'asymmetric matcher'
    return `${call.name}(${text})`
  }
  return `${call.name}(${safe(() => JSON.stringify(call.args, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)))})`
}

function safe(f: () => string | undefined): string {
  try {
    return f() ?? '…'
  } catch {
    return '…'
  }
}
