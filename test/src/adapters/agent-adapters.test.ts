// The agent adapters against the real packages' own objects (no network): an AI SDK generateText tool loop
// over MockLanguageModelV4 from `ai/test`, OpenAI SDK results parsed by the real client from a canned HTTP
// reply (its `fetch` option), and @langchain/core messages. Vitest only.
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages'
import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { fromAiSdkResult } from '../../../src/adapters/ai-sdk.js'
import { fromLangChainMessages } from '../../../src/adapters/langchain-messages.js'
import { fromOpenAIChatCompletion, fromOpenAIResponse } from '../../../src/adapters/openai-agent.js'

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
})

describe('fromAiSdkResult (ai generateText with a mock model)', () => {
  it('reads every step: parallel calls share a step, usage per step with its model, the final text', async () => {
    const model = new MockLanguageModelV4({
      modelId: 'mock-small',
      doGenerate: [
        {
          content: [
            { type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: JSON.stringify({ query: 'attention heads' }) },
            { type: 'tool-call', toolCallId: 'c2', toolName: 'search', input: JSON.stringify({ query: 'model dimension' }) },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage: usage(120, 30),
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'The base model uses 8 heads.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: usage(300, 12),
          warnings: [],
        },
      ],
    })
    const search = tool({
      description: 'Search the corpus',
      inputSchema: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
      execute: ({ query }) => Promise.resolve(`results for ${query}`),
    })
    const result = await generateText({ model, tools: { search }, prompt: 'How many heads?', stopWhen: stepCountIs(4) })
    const out = fromAiSdkResult(result)
    expect(out.toolCalls).toEqual([
      { name: 'search', args: { query: 'attention heads' }, step: 0, id: 'c1' },
      { name: 'search', args: { query: 'model dimension' }, step: 0, id: 'c2' },
    ])
    expect(out.usage).toEqual([
      { inputTokens: 120, outputTokens: 30, totalTokens: 150, model: 'mock-small' },
      { inputTokens: 300, outputTokens: 12, totalTokens: 312, model: 'mock-small' },
    ])
    expect(out.answer).toBe('The base model uses 8 heads.')
    // straight into the matchers
    expect(out).toCallTools([
      { name: 'search', args: { query: 'model dimension' } },
      { name: 'search', args: { query: 'attention heads' } },
    ])
    expect(out).toMakeAtMostToolCalls(2)
    expect([{ id: 'q1', timing: { ms: 10 }, ...out }]).toStayWithinBudget({
      totalTokens: 462,
      totalCost: 1,
      prices: { 'mock-small': { inputPerMillion: 1, outputPerMillion: 2 } },
    })
  })
  it('refuses a result without steps, naming it', () => {
    expect(() => fromAiSdkResult({} as never)).toThrow('fromAiSdkResult: Expected `result.steps`')
    expect(() => fromAiSdkResult({ steps: [{ toolCalls: [{ input: {} }] }] } as never)).toThrow('result.steps[0].toolCalls[0].name')
  })
})

/** The real OpenAI client, answering every request with `body` (no network). */
function clientReplying(body: unknown): OpenAI {
  return new OpenAI({
    apiKey: 'test',
    baseURL: 'http://127.0.0.1:9/v1',
    fetch: () => Promise.resolve(new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })),
  })
}

describe('fromOpenAIChatCompletion (the openai client, canned reply)', () => {
  const body = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-mini-2024-07-18',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"query":"heads","k":3}' } },
            { id: 'call_2', type: 'function', function: { name: 'lookup', arguments: '{"id":' } },
          ],
        },
      },
    ],
    usage: { prompt_tokens: 80, completion_tokens: 20, total_tokens: 100 },
  }
  it('reads tool_calls (arguments parsed; unparseable ones kept as invalid calls) and usage', async () => {
    const completion = await clientReplying(body).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'heads?' }] })
    const out = fromOpenAIChatCompletion(completion)
    expect(out.toolCalls).toEqual([
      { name: 'search', args: { query: 'heads', k: 3 }, step: 0, id: 'call_1' },
      { name: 'lookup', args: {}, step: 0, id: 'call_2', invalid: true, rawArgs: '{"id":' },
    ])
    expect(out.usage).toEqual([{ inputTokens: 80, outputTokens: 20, totalTokens: 100, model: 'gpt-4o-mini-2024-07-18' }])
    expect(out).toCallTool({ name: 'search', args: { query: 'heads' } }, { argsMatch: 'partial' })
  })
  it('reads a message list, each assistant message one step', () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'heads?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'search', arguments: '{"query":"heads"}' } }] },
      { role: 'tool', tool_call_id: 'a', content: '8 heads' },
      { role: 'assistant', content: 'Eight.' },
    ]
    expect(fromOpenAIChatCompletion(messages)).toEqual({ toolCalls: [{ name: 'search', args: { query: 'heads' }, step: 1, id: 'a' }], usage: [], answer: 'Eight.' })
  })
  it('refuses what is neither a completion nor a message, naming the position', () => {
    expect(() => fromOpenAIChatCompletion([{ foo: 1 }] as never)).toThrow('input[0]')
    expect(() => fromOpenAIChatCompletion({ ...body, usage: { prompt_tokens: -1 } } as never)).toThrow('input.usage.prompt_tokens')
  })
})

describe('fromOpenAIResponse (the openai client, canned reply)', () => {
  it('reads function_call items, output_text and usage', async () => {
    const response = await clientReplying({
      id: 'resp_1',
      object: 'response',
      created_at: 1,
      model: 'gpt-4.1-mini',
      status: 'completed',
      output: [
        { type: 'function_call', id: 'fc_1', call_id: 'call_9', name: 'search', arguments: '{"query":"heads"}', status: 'completed' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        { type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Eight.', annotations: [] }] },
      ],
      usage: { input_tokens: 50, output_tokens: 7, total_tokens: 57, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
    }).responses.create({ model: 'gpt-4.1-mini', input: 'heads?' })
    const out = fromOpenAIResponse(response)
    expect(out.toolCalls).toEqual([
      { name: 'search', args: { query: 'heads' }, step: 0, id: 'call_9' },
      { name: 'web_search', args: {}, step: 0, id: 'ws_1' },
    ])
    expect(out.usage).toEqual([{ inputTokens: 50, outputTokens: 7, totalTokens: 57, model: 'gpt-4.1-mini' }])
    // output_text is the SDK's own convenience field, added by the real client
    expect(out.answer).toBe('Eight.')
  })
})

describe('fromLangChainMessages (@langchain/core messages)', () => {
  it('reads tool_calls, invalid_tool_calls and usage_metadata of each AI message', () => {
    const messages = [
      new HumanMessage('How many heads?'),
      new AIMessage({
        content: '',
        tool_calls: [{ id: 't1', name: 'search', args: { query: 'heads' } }],
        invalid_tool_calls: [{ id: 't2', name: 'lookup', args: '{"id":', error: 'bad JSON', type: 'invalid_tool_call' }],
        usage_metadata: { input_tokens: 40, output_tokens: 9, total_tokens: 49 },
        response_metadata: { model_name: 'llama3.1:8b' },
      }),
      new ToolMessage({ tool_call_id: 't1', content: '8 heads' }),
      new AIMessage({ content: 'Eight.', usage_metadata: { input_tokens: 60, output_tokens: 3, total_tokens: 63 } }),
    ]
    const out = fromLangChainMessages(messages)
    expect(out.toolCalls).toEqual([
      { name: 'search', args: { query: 'heads' }, step: 1, id: 't1' },
      { name: 'lookup', args: {}, step: 1, invalid: true, rawArgs: '{"id":', id: 't2' },
    ])
    expect(out.usage).toEqual([
      { inputTokens: 40, outputTokens: 9, totalTokens: 49, model: 'llama3.1:8b' },
      { inputTokens: 60, outputTokens: 3, totalTokens: 63 },
    ])
    expect(out.answer).toBe('Eight.')
    expect(fromLangChainMessages({ messages })).toEqual(out)
    expect(fromLangChainMessages(messages[1] as AIMessage).toolCalls[0]).toEqual({ name: 'search', args: { query: 'heads' }, step: 0, id: 't1' })
    expect(out).toCallNoTools('delete_file')
  })
  it('refuses a call without a name or with args that are not an object, naming the message', () => {
    expect(() => fromLangChainMessages([{ type: 'ai', content: '', tool_calls: [{ args: {} }] }] as never)).toThrow('messages[0].tool_calls[0].name')
    expect(() => fromLangChainMessages([{ type: 'ai', content: '', tool_calls: [{ name: 'a', args: [1] }] }] as never)).toThrow('messages[0].tool_calls[0].args')
  })
})
