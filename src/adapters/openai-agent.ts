/**
 * OpenAI Chat Completions and Responses results → tool calls and usage for the agent matchers. Types
 * only: nothing from `openai` is loaded at run time.
 */
import type { ChatCompletion, ChatCompletionMessageParam } from 'openai/resources/chat/completions'
import type { Response } from 'openai/resources/responses/responses'
import { MetricInputError } from '../errors.js'
import { adaptedCall, arrayAt, count, objectAt, usageEntry, type AdaptedToolCall, type AgentOutput } from './agent-output.js'
import type { TokenUsage } from '../agent/budget.js'

const FN_CHAT = 'fromOpenAIChatCompletion'
const FN_RESPONSES = 'fromOpenAIResponse'

function chatCalls(message: Record<string, unknown>, where: string, step: number): AdaptedToolCall[] {
  if (message.tool_calls === undefined || message.tool_calls === null) return []
  const calls = arrayAt(FN_CHAT, `${where}.tool_calls`, message.tool_calls, 'an array of tool calls')
  return calls.map((raw, i) => {
    const at = `${where}.tool_calls[${i}]`
    const call = objectAt(FN_CHAT, at, raw, 'a tool call `{ type, function }`')
    if (call.type === 'custom') {
      // a custom tool takes free text: it is the call's one argument, `input`
      const custom = objectAt(FN_CHAT, `${at}.custom`, call.custom, '`{ name, input }`')
      return adaptedCall(FN_CHAT, `${at}.custom`, custom.name, { input: custom.input }, step, call.id)
    }
    const fn = objectAt(FN_CHAT, `${at}.function`, call.function, '`{ name, arguments }`')
    return adaptedCall(FN_CHAT, `${at}.function`, fn.name, fn.arguments, step, call.id)
  })
}

function chatUsage(completion: Record<string, unknown>, where: string): TokenUsage | undefined {
  if (completion.usage === undefined || completion.usage === null) return undefined
  const u = objectAt(FN_CHAT, `${where}.usage`, completion.usage, '`{ prompt_tokens, completion_tokens, total_tokens }`')
  return usageEntry(
    count(FN_CHAT, `${where}.usage.prompt_tokens`, u.prompt_tokens),
    count(FN_CHAT, `${where}.usage.completion_tokens`, u.completion_tokens),
    count(FN_CHAT, `${where}.usage.total_tokens`, u.total_tokens),
    completion.model,
  )
}

/**
 * The tool calls and usage of an agent loop over Chat Completions, from what it kept: one `ChatCompletion`,
 * the completions of every turn (in order), or the message list (`messages` after the loop). Each
 * completion or assistant message is one step; its `tool_calls` are the step's calls, `function.arguments`
 * parsed from JSON (text that does not parse is kept as an `invalid` call, since that is what the model
 * sent). A custom tool's text is its `input` argument. Usage (`prompt_tokens` → inputTokens,
 * `completion_tokens` → outputTokens) and `model` come from each completion; a message list has none.
 * `answer` is the last assistant text.
 *
 * @throws MetricInputError naming the position, for anything that is not a completion or a message, a
 *   call without a function name, or a token count that is not a finite number ≥ 0
 * @example
 * const completion = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages, tools })
 * expect(fromOpenAIChatCompletion(completion)).toCallTool({ name: 'search', args: { query: 'heads' } })
 */
export function fromOpenAIChatCompletion(input: ChatCompletion | readonly ChatCompletion[] | readonly ChatCompletionMessageParam[]): AgentOutput {
  const list = Array.isArray(input) ? arrayAt(FN_CHAT, 'input', input, 'an array of ChatCompletions or of messages') : [objectAt(FN_CHAT, 'input', input, 'a ChatCompletion')]
  const toolCalls: AdaptedToolCall[] = []
  const usage: TokenUsage[] = []
  let answer: string | undefined
  list.forEach((raw, step) => {
    const where = Array.isArray(input) ? `input[${step}]` : 'input'
    const item = objectAt(FN_CHAT, where, raw, 'a ChatCompletion or a message')
    if (Array.isArray(item.choices)) {
      // the first choice is the one an agent loop continues with (n > 1 samples alternatives)
      const choice = objectAt(FN_CHAT, `${where}.choices[0]`, item.choices[0], 'a choice `{ message }`')
      const message = objectAt(FN_CHAT, `${where}.choices[0].message`, choice.message, 'a message')
      toolCalls.push(...chatCalls(message, `${where}.choices[0].message`, step))
      if (typeof message.content === 'string' && message.content !== '') answer = message.content
      const u = chatUsage(item, where)
      if (u !== undefined) usage.push(u)
      return
    }
    if (typeof item.role !== 'string') throw new MetricInputError(FN_CHAT, where, 'a ChatCompletion (with `choices`) or a message (with `role`)', item)
    if (item.role !== 'assistant') return
    toolCalls.push(...chatCalls(item, where, step))
    if (typeof item.content === 'string' && item.content !== '') answer = item.content
  })
  return { toolCalls, usage, ...(answer === undefined ? {} : { answer }) }
}

/**
 * The tool calls and usage of one or more Responses API results (`openai.responses.create`), each result
 * one step. `function_call` items become calls (`arguments` parsed from JSON, text that does not parse kept
 * as an `invalid` call); `custom_tool_call` items take their text as `input`; built-in tool calls
 * (`web_search_call`, `file_search_call`, …) are named by their type without `_call` and carry no args.
 * Usage: `input_tokens`, `output_tokens`, `total_tokens` and `model`. `answer` is the last `output_text`.
 *
 * @throws MetricInputError naming the position, for a result without `output`, a function call without a
 *   name, or a token count that is not a finite number ≥ 0
 * @example
 * const response = await openai.responses.create({ model: 'gpt-4o-mini', input, tools })
 * expect(fromOpenAIResponse(response)).toCallTools(['search'], { order: 'superset' })
 */
export function fromOpenAIResponse(input: Response | readonly Response[]): AgentOutput {
  const list = Array.isArray(input) ? arrayAt(FN_RESPONSES, 'input', input, 'an array of Responses') : [input]
  const toolCalls: AdaptedToolCall[] = []
  const usage: TokenUsage[] = []
  let answer: string | undefined
  list.forEach((raw, step) => {
    const where = Array.isArray(input) ? `input[${step}]` : 'input'
    const response = objectAt(FN_RESPONSES, where, raw, 'a Response (with `output`)')
    const output = arrayAt(FN_RESPONSES, `${where}.output`, response.output, 'an array of output items (a Response)')
    output.forEach((o, i) => {
      const at = `${where}.output[${i}]`
      const item = objectAt(FN_RESPONSES, at, o, 'an output item')
      if (item.type === 'function_call') toolCalls.push(adaptedCall(FN_RESPONSES, at, item.name, item.arguments, step, item.call_id))
      else if (item.type === 'custom_tool_call') toolCalls.push(adaptedCall(FN_RESPONSES, at, item.name, { input: item.input }, step, item.call_id))
      else if (typeof item.type === 'string' && item.type.endsWith('_call'))
        toolCalls.push(adaptedCall(FN_RESPONSES, at, item.type.slice(0, -'_call'.length), {}, step, item.id))
    })
    if (typeof response.output_text === 'string' && response.output_text !== '') answer = response.output_text
    if (response.usage !== undefined && response.usage !== null) {
      const u = objectAt(FN_RESPONSES, `${where}.usage`, response.usage, '`{ input_tokens, output_tokens, total_tokens }`')
      const entry = usageEntry(
        count(FN_RESPONSES, `${where}.usage.input_tokens`, u.input_tokens),
        count(FN_RESPONSES, `${where}.usage.output_tokens`, u.output_tokens),
        count(FN_RESPONSES, `${where}.usage.total_tokens`, u.total_tokens),
        response.model,
      )
      if (entry !== undefined) usage.push(entry)
    }
  })
  return { toolCalls, usage, ...(answer === undefined ? {} : { answer }) }
}
