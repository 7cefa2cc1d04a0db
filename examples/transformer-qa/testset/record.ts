/**
 * Records the example's replay cache from the scripted fake writer (fake-writer.ts), not from a real
 * model: serves it over the Ollama protocol on 127.0.0.1 (the tests' fake server) and runs the example's
 * generation once in cache mode `readwrite`. Run by `node examples/transformer-qa/testset/record.mjs`;
 * only needed again when the prompts or the corpus change (the cache keys then change too).
 */
import { rm } from 'node:fs/promises'
import { startFakeOllama } from '../../../test/helpers/fake-ollama.js'
import { loadPassages } from '../pipeline.js'
import { replyFor, type Reply } from './fake-writer.js'
import { generateExampleSet, RECORDED_CACHE, WRITER_MODEL } from './generate.js'

/** The fake writer as Ollama /api/chat replies (a refusal is prose: Ollama has no refusal field). */
export function ollamaReply(body: unknown, passages = loadPassages()): { body: unknown } {
  const request = body as { messages?: Array<{ role: string; content: string }>; format?: { properties?: Record<string, unknown> } } | undefined
  const prompt = (request?.messages ?? []).find((m) => m.role === 'user')?.content ?? ''
  const reply: Reply = replyFor(prompt, Object.keys(request?.format?.properties ?? {}), passages)
  const content = 'json' in reply ? JSON.stringify(reply.json) : 'raw' in reply ? reply.raw : reply.refuse
  return { body: { model: WRITER_MODEL, created_at: '2026-12-05T00:00:00Z', message: { role: 'assistant', content }, done: true } }
}

export async function record(): Promise<number> {
  await rm(RECORDED_CACHE, { recursive: true, force: true })
  const fake = await startFakeOllama()
  try {
    fake.on(
      '/api/chat',
      () => true,
      (req) => ollamaReply(req.body),
    )
    return await generateExampleSet({ cacheMode: 'readwrite', host: fake.host })
  } finally {
    await fake.close()
  }
}
