/**
 * The example's agent: the real AI SDK tool loop (`generateText` with a `search` tool and `stopWhen`)
 * over the built-in corpus, driven by a scripted model (`MockLanguageModelV4` from `ai/test`) so it runs
 * offline and gives the same calls every time. The script says which queries the agent sends for each
 * question; the search tool runs the example's BM25 retriever, so what comes back is real retrieval.
 * The answer is the committed recording, as in the rest of the example.
 */
import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { fromAiSdkResult } from '../../src/adapters/public.js'
import type { RetrievalStep } from '../../src/agent/index.js'
import { bm25Retriever, type Passage } from './pipeline.js'

/** The model id the scripted model reports; the price table of the budget names it. */
export const AGENT_MODEL = 'scripted-agent'

/**
 * What the scripted agent searches for, per question: one query, or a first query it refines. `heads`
 * searches twice (its first query finds the passage about varying the number of heads), and `hardware`
 * asks with a vague query: the set's tool-call F1 and retrieval show both.
 */
export const AGENT_PLAN: Readonly<Record<string, readonly string[]>> = {
  heads: ['attention heads', 'parallel attention layers heads h'],
  'bleu-en-de': ['BLEU English-to-German big model'],
  'bleu-en-fr': ['BLEU English-to-French big model'],
  'd-model': ['model dimension d_model'],
  'd-ff': ['feed-forward inner dimension d_ff'],
  layers: ['encoder stack layers'],
  hardware: ['training'],
  'train-time': ['base models training time hours'],
}

/** Rough token count of what the model is sent or says (4 characters a token), so usage grows with the prompt as a real model's does. */
function tokens(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4)
}

const usage = (input: number, output: number) => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
})

/** A model that sends the planned queries one per step (reading how many tool results it has seen), then answers. */
function scriptedModel(queries: readonly string[], answer: string): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    modelId: AGENT_MODEL,
    doGenerate: (options) => {
      const searched = options.prompt.filter((m) => m.role === 'tool').length
      const query = queries[searched]
      if (query !== undefined) {
        const input = JSON.stringify({ query })
        return Promise.resolve({
          content: [{ type: 'tool-call' as const, toolCallId: `call-${searched + 1}`, toolName: 'search', input }],
          finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
          usage: usage(tokens(options.prompt), tokens(input)),
          warnings: [],
        })
      }
      return Promise.resolve({
        content: [{ type: 'text' as const, text: answer }],
        finishReason: { unified: 'stop' as const, raw: 'stop' },
        usage: usage(tokens(options.prompt), tokens(answer)),
        warnings: [],
      })
    },
  })
}

/**
 * The agent as an eval-set pipeline: one `generateText` run per question, returning the adapter's
 * `{ toolCalls, usage, answer }` and the retrieval `steps` its searches made.
 */
export function agentPipeline(passages: readonly Passage[], answers: Readonly<Record<string, string>>) {
  const retrieve = bm25Retriever(passages)
  return async (question: string, item: { readonly id: string }) => {
    const steps: RetrievalStep[] = []
    const search = tool({
      description: 'Search the Transformer paper; returns the 3 best passages.',
      inputSchema: jsonSchema<{ query: string }>({ type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }),
      execute: ({ query }) => {
        const hits = retrieve(query, 3)
        steps.push({ query, retrieved: hits.map((h) => h.id) })
        return Promise.resolve(hits.map((h) => ({ id: h.id, text: h.text })))
      },
    })
    const result = await generateText({
      model: scriptedModel(AGENT_PLAN[item.id] ?? [], answers[item.id] ?? ''),
      tools: { search },
      prompt: question,
      stopWhen: stepCountIs(4),
    })
    return { ...fromAiSdkResult(result), steps }
  }
}
