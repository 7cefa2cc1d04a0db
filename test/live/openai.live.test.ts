// Opt-in: openaiJudge and openaiEmbedder against a real OpenAI-protocol server. Vitest only.
//   OPENAI_API_KEY=sk-… npx vitest run test/live/openai.live.test.ts                      (OpenAI itself)
//   OPENAI_BASE_URL=http://127.0.0.1:8000/v1 RAG_MATCHERS_OPENAI_MODEL=<served name> npx vitest run test/live/openai.live.test.ts
// Models: RAG_MATCHERS_OPENAI_MODEL (default gpt-4o-mini), RAG_MATCHERS_OPENAI_EMBED_MODEL (default
// text-embedding-3-small). No cache, so the server is exercised every time; the cases are clear-cut.
import { describe, expect, it } from 'vitest'
import { openaiEmbedder } from '../../src/embeddings/openai-embedder.js'
import { semanticSimilarities } from '../../src/embeddings/semantic-similarity.js'
import { groundedness, openaiJudge } from '../../src/judge/index.js'

const key = process.env['OPENAI_API_KEY']
const baseURL = process.env['OPENAI_BASE_URL']
const model = process.env['RAG_MATCHERS_OPENAI_MODEL'] || 'gpt-4o-mini'
const embedModel = process.env['RAG_MATCHERS_OPENAI_EMBED_MODEL'] || 'text-embedding-3-small'
const skipReason = key || baseURL ? undefined : 'set OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (a compatible server) to run'
const where = baseURL ?? 'https://api.openai.com/v1'

describe.skipIf(skipReason !== undefined)(`openaiJudge / openaiEmbedder against ${where}${skipReason === undefined ? '' : ` (skipped: ${skipReason})`}`, () => {
  const CONTEXTS = ['Paris is the capital and largest city of France.', 'The euro is the currency of France.']

  it(`grounds a supported answer and flags an invented one (${model})`, { timeout: 300_000 }, async () => {
    const judge = openaiJudge({ model, timeoutMs: 120_000 })
    const good = await groundedness('Paris is the capital of France.', CONTEXTS, judge)
    const bad = await groundedness('Marseille is the capital of France and its currency is the franc.', CONTEXTS, judge)
    console.info(`[live] ${good.signature} good=${good.value} bad=${bad.value}`)
    expect(good.value).toBe(1)
    expect(bad.value).toBeLessThan(0.5)
  })

  it(`embeds, ranking a paraphrase above an unrelated text (${embedModel})`, { timeout: 120_000 }, async () => {
    const embedder = openaiEmbedder({ model: embedModel })
    const [vector] = await embedder.embed(['hello world'])
    expect(vector!.length).toBeGreaterThan(0)
    const [paraphrase, unrelated] = await semanticSimilarities(
      [
        { candidate: 'Paris is the capital of France.', reference: 'The capital city of France is Paris.' },
        { candidate: 'Paris is the capital of France.', reference: 'My cat likes to sleep on the warm windowsill.' },
      ],
      embedder,
    )
    console.info(`[live] ${embedder.id} paraphrase=${paraphrase!.value} unrelated=${unrelated!.value}`)
    expect(paraphrase!.value).toBeGreaterThan(unrelated!.value + 0.2)
  })
})
