// Opt-in live checks against real models (Vitest only). They download or call real services, so they
// run only when asked: RAG_MATCHERS_LIVE=1 (Transformers.js default model, downloaded from the Hugging
// Face hub on first use), plus OLLAMA_HOST for Ollama (model: OLLAMA_EMBED_MODEL, default nomic-embed-text).
import { describe, expect, it } from 'vitest'
import { ollamaEmbedder } from '../../src/embeddings/ollama-embedder.js'
import { semanticSimilarities, semanticSimilarity } from '../../src/embeddings/semantic-similarity.js'
import { l2Norm } from '../../src/embeddings/similarity.js'
import { transformersEmbedder } from '../../src/embeddings/transformers-embedder.js'
import type { Embedder } from '../../src/embeddings/types.js'

const live = process.env.RAG_MATCHERS_LIVE === '1'
const ollamaHost = process.env.OLLAMA_HOST
const ollamaModel = process.env.OLLAMA_EMBED_MODEL ?? 'nomic-embed-text'

const skipLive = live ? '' : ' (skipped: set RAG_MATCHERS_LIVE=1 to run)'
const skipOllama = !live ? skipLive : ollamaHost ? '' : ' (skipped: set OLLAMA_HOST to run)'

/** What any decent sentence embedder gets right. */
async function sanity(embedder: Embedder): Promise<void> {
  const same = await semanticSimilarity('The capital of France is Paris.', 'The capital of France is Paris.', embedder)
  expect(same.value).toBeCloseTo(1, 6)
  const [paraphrase, unrelated] = await semanticSimilarities(
    [
      { candidate: 'Paris is the capital of France.', reference: 'The capital city of France is Paris.' },
      { candidate: 'Paris is the capital of France.', reference: 'My cat likes to sleep on the warm windowsill.' },
    ],
    embedder,
  )
  expect(paraphrase!.value).toBeGreaterThan(0.8)
  expect(unrelated!.value).toBeLessThan(paraphrase!.value - 0.3)
}

describe('live embeddings', () => {
  it.skipIf(!live)(
    `Transformers.js loads Xenova/all-MiniLM-L6-v2 and ranks a paraphrase above an unrelated text${skipLive}`,
    async () => {
      const embedder = transformersEmbedder({ loadTimeoutMs: 600_000 })
      try {
        const [vector] = await embedder.embed(['hello world'])
        expect(vector).toHaveLength(384)
        expect(l2Norm(vector!)).toBeCloseTo(1, 5)
        await sanity(embedder)
      } finally {
        await embedder.dispose()
      }
    },
    600_000,
  )

  it.skipIf(!live || !ollamaHost)(
    `Ollama embeds with ${ollamaModel} at OLLAMA_HOST${skipOllama}`,
    async () => {
      const embedder = ollamaEmbedder({ host: ollamaHost!, model: ollamaModel, timeoutMs: 120_000 })
      const vectors = await embedder.embed(['hello world', 'goodbye world'])
      expect(vectors).toHaveLength(2)
      expect(vectors[0]!.length).toBeGreaterThan(0)
      await sanity(embedder)
    },
    300_000,
  )
})
