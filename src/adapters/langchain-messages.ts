/**
 * LangChain.js messages → tool calls and usage for the agent matchers. Types only: nothing from
 * `@langchain/core` is loaded at run time.
 */
import type { BaseMessage } from '@langchain/core/messages'
import { MetricInputError } from '../errors.js'
import { adaptedCall, arrayAt, count, objectAt, usageEntry, type AdaptedToolCall, type AgentOutput } from './agent-output.js'
import type { TokenUsage } from '../agent/budget.js'

const FN = 'fromLangChainMessages'

/** Whether a message is an AI message: `_getType()`/`getType()` says `ai`, or its `type` field does (a serialised one). */
function isAiMessage(m: Record<string, unknown>): boolean {
  for (const key of ['getType', '_getType']) {
    const f = m[key]
    if (typeof f === 'function') {
      try {
        return (f as () => unknown).call(m) === 'ai'
      } catch {
        // a plain object that happens to have such a key: judged by its fields below
      }
    }
  }
  return m.type === 'ai' || Array.isArray(m.tool_calls)
}

/**
 * The tool calls of an AI message, or of every AI message of a list (an agent's `messages`, a
 * `createAgent`/LangGraph result's `messages`), each message one step: `tool_calls` (`{ name, args, id }`)
 * as they are, and `invalid_tool_calls` (arguments the model sent unparseable) kept as `invalid` calls
 * with `args: {}`. Usage from each message's `usage_metadata` (`input_tokens`, `output_tokens`,
 * `total_tokens`), its model from `response_metadata.model_name` or `.model`. `answer` is the text of the
 * last AI message with text.
 *
 * @throws MetricInputError naming the message, for a value that is not a message, a call without a name,
 *   args that are not an object, or a token count that is not a finite number ≥ 0
 * @example
 * const { messages } = await agent.invoke({ messages: [{ role: 'user', content: 'How many heads?' }] })
 * expect(fromLangChainMessages(messages)).toCallTools(['search'], { order: 'superset' })
 */
export function fromLangChainMessages(input: BaseMessage | readonly BaseMessage[] | { readonly messages: readonly BaseMessage[] }): AgentOutput {
  const list: unknown[] = Array.isArray(input)
    ? arrayAt(FN, 'messages', input, 'an array of messages')
    : input !== null && typeof input === 'object' && Array.isArray((input as { messages?: unknown }).messages)
      ? arrayAt(FN, 'messages', (input as { messages: unknown[] }).messages, 'an array of messages')
      : [objectAt(FN, 'message', input, 'an AIMessage or an array of messages')]
  const single = list.length === 1 && !Array.isArray(input) && !(input !== null && typeof input === 'object' && 'messages' in input)
  const toolCalls: AdaptedToolCall[] = []
  const usage: TokenUsage[] = []
  let answer: string | undefined
  list.forEach((raw, step) => {
    const where = single ? 'message' : `messages[${step}]`
    const m = objectAt(FN, where, raw, 'a message')
    if (!isAiMessage(m)) return
    if (m.tool_calls !== undefined && m.tool_calls !== null) {
      arrayAt(FN, `${where}.tool_calls`, m.tool_calls, 'an array of tool calls').forEach((c, i) => {
        const at = `${where}.tool_calls[${i}]`
        const call = objectAt(FN, at, c, 'a tool call `{ name, args }`')
        if (call.args !== undefined && (call.args === null || typeof call.args !== 'object' || Array.isArray(call.args))) {
          throw new MetricInputError(FN, `${at}.args`, 'an object of arguments', call.args)
        }
        toolCalls.push(adaptedCall(FN, at, call.name, call.args, step, call.id))
      })
    }
    if (Array.isArray(m.invalid_tool_calls)) {
      arrayAt(FN, `${where}.invalid_tool_calls`, m.invalid_tool_calls, 'an array of invalid tool calls').forEach((c, i) => {
        const call = objectAt(FN, `${where}.invalid_tool_calls[${i}]`, c, 'an invalid tool call')
        const name = typeof call.name === 'string' && call.name !== '' ? call.name : '(unnamed)'
        toolCalls.push({
          name,
          args: {},
          step,
          invalid: true,
          ...(typeof call.args === 'string' ? { rawArgs: call.args } : {}),
          ...(typeof call.id === 'string' ? { id: call.id } : {}),
        })
      })
    }
    if (m.usage_metadata !== undefined && m.usage_metadata !== null) {
      const u = objectAt(FN, `${where}.usage_metadata`, m.usage_metadata, '`{ input_tokens, output_tokens, total_tokens }`')
      const meta = (m.response_metadata ?? {}) as { model_name?: unknown; model?: unknown }
      const entry = usageEntry(
        count(FN, `${where}.usage_metadata.input_tokens`, u.input_tokens),
        count(FN, `${where}.usage_metadata.output_tokens`, u.output_tokens),
        count(FN, `${where}.usage_metadata.total_tokens`, u.total_tokens),
        meta.model_name ?? meta.model,
      )
      if (entry !== undefined) usage.push(entry)
    }
    if (typeof m.content === 'string' && m.content !== '') answer = m.content
  })
  return { toolCalls, usage, ...(answer === undefined ? {} : { answer }) }
}
