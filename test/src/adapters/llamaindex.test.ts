// fromLlamaIndexNodes against the real llamaindex: a VectorStoreIndex (in-memory SimpleVectorStore) over a small
// corpus of Documents, embedded with a deterministic bag-of-words BaseEmbedding subclass (no model, no network).
// Vitest only.
import { BaseEmbedding, Document, Settings, VectorStoreIndex, type NodeWithScore } from 'llamaindex'
import { beforeAll, describe, expect, it } from 'vitest'
import { fromLlamaIndexNodes } from '../../../src/adapters/public.js'
import { bagOfWords, CORPUS, QUERIES, VOCABULARY } from './corpus.js'

class BagOfWordsEmbedding extends BaseEmbedding {
  private readonly embed = bagOfWords(VOCABULARY)
  constructor() {
    super()
  }
  getTextEmbedding(text: string): Promise<number[]> {
    return Promise.resolve(this.embed(text))
  }
}

let index: VectorStoreIndex
beforeAll(async () => {
  // Settings is LlamaIndex's module-level configuration; Vitest isolates test files, so this stays in this file.
  Settings.embedModel = new BagOfWordsEmbedding()
  index = await VectorStoreIndex.fromDocuments(CORPUS.map((d) => new Document({ text: d.text, metadata: { docId: d.docId } })))
})

const retrieve = (query: string, k: number): Promise<NodeWithScore[]> => index.asRetriever({ similarityTopK: k }).retrieve({ query })

describe('fromLlamaIndexNodes over a real LlamaIndex VectorStoreIndex', () => {
  it('NodeWithScore[] → retrieved items with ids from node metadata, scores and text, in retriever order', async () => {
    const hits = await retrieve('Which planet has rings of ice?', 3)
    const items = fromLlamaIndexNodes(hits, { id: 'docId' })
    expect(items.map((i) => i.id)).toEqual(hits.map((h) => h.node.metadata.docId))
    expect(items.map((i) => i.score)).toEqual(hits.map((h) => h.score))
    expect(items[0]?.id).toBe('saturn')
    expect(items[0]?.text).toBe('Saturn has the most spectacular rings, made of ice and rock.')
  })

  it('holds recall@3 and nDCG@3 over the eval set', async () => {
    const cases = await Promise.all(
      QUERIES.map(async (q) => ({ id: q.id, retrieved: fromLlamaIndexNodes(await retrieve(q.question, 3), { id: 'docId' }), relevant: q.relevant })),
    )
    expect(cases).toHaveRecallAtK(3, 1)
    expect(cases).toHaveNdcgAtK(3, 0.9)
    expect(cases).toHaveNdcgAtK(3, 0.9, { order: 'score' })
    expect({ retrieved: cases[0]?.retrieved ?? [], relevant: { mars: 2 } }).not.toHaveRecallAtK(3, 0.5)
  })

  it("order: 'score' recovers the retriever's ranking from shuffled nodes", async () => {
    const hits = await retrieve('Why is Mars the red planet?', 14)
    const relevant = QUERIES.find((q) => q.id === 'red')?.relevant ?? {}
    const shuffled = [...hits].reverse()
    expect({ retrieved: fromLlamaIndexNodes(hits, { id: 'docId' }), relevant }).toHaveNdcgAtK(3, 0.9)
    expect({ retrieved: fromLlamaIndexNodes(shuffled, { id: 'docId' }), relevant }).not.toHaveNdcgAtK(3, 0.9)
    expect({ retrieved: fromLlamaIndexNodes(shuffled, { id: 'docId' }), relevant }).toHaveNdcgAtK(3, 0.9, { order: 'score' })
  })

  it('takes the id from a function of the entry (here the source document id through metadata)', async () => {
    const hits = await retrieve('Where is the asteroid belt?', 3)
    const items = fromLlamaIndexNodes(hits, { id: (h, i) => `${String(h.node.metadata.docId)}#${i}` })
    expect(items.map((x) => x.id)).toEqual(hits.map((h, i) => `${String(h.node.metadata.docId)}#${i}`))
  })
})
