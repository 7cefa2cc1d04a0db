// Docs snippet, type-checked against the real `ai` package (never run: it would call a model):
//   npx tsc -p test/types/docs/tsconfig.json
// A judge on the Vercel AI SDK: `generateObject` gets the judge's messages and JSON schema; rag-matchers
// still validates the reply against the schema, retries, caches and signs.
import { generateObject, jsonSchema, type LanguageModel, type ModelMessage } from 'ai'
import { functionJudge, judgeCache, type FunctionJudgeRequest, type Judge } from '../../../src/judge/public.js'

function toModelMessages(messages: FunctionJudgeRequest['messages']): ModelMessage[] {
  return messages.map((m): ModelMessage => (m.role === 'assistant' ? { role: 'assistant', content: m.content } : m.role === 'system' ? { role: 'system', content: m.content } : { role: 'user', content: m.content }))
}

/** `aiSdkJudge('openai/gpt-4o-mini')`, or any provider model: `aiSdkJudge(anthropic('claude-3-5-haiku-latest'), 'claude-3-5-haiku')`. */
export function aiSdkJudge(model: LanguageModel, name = typeof model === 'string' ? model : model.modelId): Judge {
  return functionJudge(
    async ({ messages, schema, schemaName, temperature, seed, signal }) => {
      const { object } = await generateObject({
        model,
        schema: jsonSchema(schema as Parameters<typeof jsonSchema>[0]),
        schemaName,
        messages: toModelMessages(messages),
        temperature,
        seed,
        abortSignal: signal,
        maxRetries: 0, // rag-matchers retries (with the schema problems shown to the model)
      })
      return object
    },
    { id: 'ai-sdk', model: name, cache: judgeCache({ dir: '__rag_judge_cache__' }) },
  )
}

export const judge: Judge = aiSdkJudge('openai/gpt-4o-mini')
