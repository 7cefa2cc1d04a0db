// An agent over an eval set end to end: runEvalSet calls a real AI SDK tool loop (generateText over a
// scripted MockLanguageModelV4, offline) per question; the cases carry the adapter's toolCalls and usage
// and runEvalSet's timing, and the set matchers assert on them. Vitest only.
import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { fromAiSdkResult } from '../../../src/adapters/ai-sdk.js'
import { runEvalSet } from '../../../src/eval-set/run-eval-set.js'

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
})

/** A scripted model: searches for what it is told to, then answers; `skip` answers without searching. */
function scriptedModel(query: string | undefined) {
  const answer = { content: [{ type: 'text' as const, text: 'Eight heads.' }], finishReason: { unified: 'stop' as const, raw: 'stop' }, usage: usage(200, 5), warnings: [] }
  if (query === undefined) return new MockLanguageModelV4({ modelId: 'scripted', doGenerate: [answer] })
  return new MockLanguageModelV4({
    modelId: 'scripted',
    doGenerate: [
      {
        content: [{ type: 'tool-call' as const, toolCallId: 'c1', toolName: 'search', input: JSON.stringify({ query }) }],
        finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
        usage: usage(100, 10),
        warnings: [],
      },
      answer,
    ],
  })
}

const search = tool({
  inputSchema: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
  execute: ({ query }) => Promise.resolve(`chunks about ${query}`),
})

const dataset = [
  { id: 'heads', question: 'How many heads?', plan: 'attention heads', expectedToolCalls: [{ name: 'search', args: { query: 'attention heads' } }] },
  { id: 'lazy', question: 'What is d_model?', plan: undefined, expectedToolCalls: [{ name: 'search', args: { query: 'model dimension' } }] },
]

describe('an agent eval set through runEvalSet', () => {
  it('records calls, usage and timing per case; the set matchers name the case that skipped its search', async () => {
    const run = await runEvalSet(
      dataset,
      async (question, item) => fromAiSdkResult(await generateText({ model: scriptedModel(item.plan), tools: { search }, prompt: question, stopWhen: stepCountIs(3) })),
      { progress: 'off' },
    )
    expect(run.cases.map((c) => (c.toolCalls as unknown[]).length)).toEqual([1, 0])
    expect(run.cases[0]?.usage).toEqual([
      { inputTokens: 100, outputTokens: 10, totalTokens: 110, model: 'scripted' },
      { inputTokens: 200, outputTokens: 5, totalTokens: 205, model: 'scripted' },
    ])
    expect(run).toMakeAtMostToolCalls(1)
    expect(run).not.toCallTools()
    expect(() => expect(run).toCallTools()).toThrow(/lazy\s+a different number of calls \(0 calls made, 1 expected\)/)
    expect(run).toHaveToolCallF1(0.5)
    expect(run).not.toHaveToolCallF1(0.6)
    expect(run).toStayWithinBudget({
      totalTokens: 520,
      tokensPerCase: 315,
      maxMs: 60_000,
      totalCost: 0.01,
      prices: { scripted: { inputPerMillion: 5, outputPerMillion: 15 } },
    })
    expect(() => expect(run).toStayWithinBudget({ totalCost: 0.01, prices: { other: { inputPerMillion: 5, outputPerMillion: 15 } } })).toThrow(
      /Matcher error: .*the price of model "scripted", which case heads used/,
    )
  })
  it('refuses a dataset item carrying toolCalls or usage: a failed pipeline would keep them', async () => {
    await expect(runEvalSet([{ id: 'q', question: 'A?', toolCalls: [] }], () => ({}), { progress: 'off' })).rejects.toThrow(
      'runEvalSet: item "q" (dataset[0]) carries `toolCalls`, which is a pipeline output',
    )
    await expect(runEvalSet([{ id: 'q', question: 'A?', usage: {} }], () => ({}), { progress: 'off' })).rejects.toThrow('carries `usage`')
  })
})
