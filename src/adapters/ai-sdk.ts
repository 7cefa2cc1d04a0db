/**
 * Vercel AI SDK `generateText` results → tool calls and usage for the agent matchers. Types only:
 * nothing from `ai` is loaded at run time. The shape read is structural (steps, toolCalls, usage), so
 * AI SDK 5 to 7 results are read alike (`input`, or `args` before AI SDK 5).
 */
import { MetricInputError } from '../errors.js'
import { adaptedCall, arrayAt, count, objectAt, usageEntry, type AgentOutput } from './agent-output.js'
import type { TokenUsage } from '../agent/budget.js'

/** The part of a `generateText` step that is read. */
export interface AiSdkStepLike {
  readonly toolCalls: ReadonlyArray<{ readonly toolName: string; readonly input?: unknown; readonly args?: unknown; readonly toolCallId?: string }>
  readonly usage?: { readonly inputTokens?: number | undefined; readonly outputTokens?: number | undefined; readonly totalTokens?: number | undefined }
  readonly response?: { readonly modelId?: string }
  readonly model?: { readonly modelId?: string }
}

/** The part of a `generateText` result (or an Agent's `generate`) that is read. */
export interface AiSdkResultLike {
  readonly steps: readonly AiSdkStepLike[]
  readonly text?: string
  readonly response?: { readonly modelId?: string }
}

const FN = 'fromAiSdkResult'

/**
 * The tool calls of every step of a `generateText` result, in order, each with its step number (calls of
 * one step were issued together), the usage of each step with the model that answered it, and the final
 * text as `answer`.
 *
 * @throws MetricInputError naming the step and call, for a result without `steps`, a call without a
 *   `toolName`, or a token count that is not a finite number ≥ 0
 * @example
 * const result = await generateText({ model, tools, prompt, stopWhen: stepCountIs(5) })
 * const out = fromAiSdkResult(result) // { toolCalls: [{ name: 'search', args: { query: '…' }, step: 0, id: 'call-1' }], usage: [...], answer: '…' }
 * expect(out).toCallTool('search')
 */
export function fromAiSdkResult(result: AiSdkResultLike): AgentOutput {
  const r = objectAt(FN, 'result', result, 'a generateText result (with `steps`)')
  const steps = arrayAt(FN, 'result.steps', r.steps, 'an array of steps (a generateText result)')
  const toolCalls: AgentOutput['toolCalls'] = []
  const usage: TokenUsage[] = []
  const fallbackModel = (r.response as { modelId?: unknown } | undefined)?.modelId
  steps.forEach((raw, s) => {
    const where = `result.steps[${s}]`
    const step = objectAt(FN, where, raw, 'a step (with `toolCalls`)')
    const calls = arrayAt(FN, `${where}.toolCalls`, step.toolCalls, 'an array of tool calls')
    calls.forEach((c, i) => {
      const at = `${where}.toolCalls[${i}]`
      const call = objectAt(FN, at, c, 'a tool call `{ toolName, input }`')
      toolCalls.push(adaptedCall(FN, at, call.toolName, 'input' in call ? call.input : call.args, s, call.toolCallId))
    })
    if (step.usage !== undefined && step.usage !== null) {
      const u = objectAt(FN, `${where}.usage`, step.usage, 'usage `{ inputTokens, outputTokens, totalTokens }`')
      const model = (step.response as { modelId?: unknown } | undefined)?.modelId ?? (step.model as { modelId?: unknown } | undefined)?.modelId ?? fallbackModel
      const entry = usageEntry(
        count(FN, `${where}.usage.inputTokens`, u.inputTokens),
        count(FN, `${where}.usage.outputTokens`, u.outputTokens),
        count(FN, `${where}.usage.totalTokens`, u.totalTokens),
        model,
      )
      if (entry !== undefined) usage.push(entry)
    }
  })
  if (r.text !== undefined && typeof r.text !== 'string') throw new MetricInputError(FN, 'result.text', 'a string', r.text)
  return { toolCalls, usage, ...(typeof r.text === 'string' ? { answer: r.text } : {}) }
}
