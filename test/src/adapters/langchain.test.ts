// fromLangChainDocuments against the real @langchain/core: an in-memory vector store (FakeVectorStore from
// @langchain/core/utils/testing) over a small corpus, embedded with a deterministic bag-of-words Embeddings
// subclass (no model, no network). Vitest only.
import { Document } from '@langchain/core/documents'
import { Embeddings } from '@langchain/core/embeddings'
import { FakeVectorStore } from '@langchain/core/utils/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { fromLangChainDocuments } from '../../../src/adapters/public.js'
import { bagOfWords, CORPUS, QUERIES, VOCABULARY } from './corpus.js'

class BagOfWordsEmbeddings extends Embeddings {
  private readonly embed = bagOfWords(VOCABULARY)
  constructor() {
    super({})
  }
  embedDocuments(texts: string[]): Promise<number[][]> {
    return Promise.resolve(texts.map((t) => this.embed(t)))
  }
  embedQuery(text: string): Promise<number[]> {
    return Promise.resolve(this.embed(text))
  }
}

let store: FakeVectorStore
beforeAll(async () => {
  store = await FakeVectorStore.fromDocuments(
    CORPUS.map((d) => new Document({ pageContent: d.text, metadata: { docId: d.docId } })),
    new BagOfWordsEmbeddings(),
  )
})

describe('fromLangChainDocuments over a real LangChain vector store', () => {
  it('similaritySearchWithScore → retrieved items with ids from metadata, scores and text, in store order', async () => {
    const hits = await store.similaritySearchWithScore('Which planet has rings of ice?', 3)
    const items = fromLangChainDocuments(hits, { id: 'docId' })
    expect(items.map((i) => i.id)).toEqual(hits.map(([doc]) => doc.metadata.docId))
    expect(items.map((i) => i.score)).toEqual(hits.map(([, score]) => score))
    expect(items[0]).toEqual({ id: 'saturn', score: hits[0]?.[1], text: 'Saturn has the most spectacular rings, made of ice and rock.' })
  })

  it('holds recall@3 and nDCG@3 over the eval set', async () => {
    const cases = await Promise.all(
      QUERIES.map(async (q) => ({ id: q.id, retrieved: fromLangChainDocuments(await store.similaritySearchWithScore(q.question, 3), { id: 'docId' }), relevant: q.relevant })),
    )
    expect(cases).toHaveRecallAtK(3, 1)
    expect(cases).toHaveNdcgAtK(3, 0.9)
    expect(cases).toHaveNdcgAtK(3, 0.9, { order: 'score' })
    // the per-query check is live: a query whose relevant document is not retrieved fails
    expect({ retrieved: cases[0]?.retrieved ?? [], relevant: { mars: 2 } }).not.toHaveRecallAtK(3, 0.5)
  })

  it("order: 'score' recovers the store's ranking from shuffled [Document, score] pairs", async () => {
    const hits = await store.similaritySearchWithScore('Why is Mars the red planet?', 14)
    const shuffled = [...hits].reverse()
    const relevant = QUERIES.find((q) => q.id === 'red')?.relevant ?? {}
    expect({ retrieved: fromLangChainDocuments(hits, { id: 'docId' }), relevant }).toHaveNdcgAtK(3, 0.9)
    expect({ retrieved: fromLangChainDocuments(shuffled, { id: 'docId' }), relevant }).not.toHaveNdcgAtK(3, 0.9)
    expect({ retrieved: fromLangChainDocuments(shuffled, { id: 'docId' }), relevant }).toHaveNdcgAtK(3, 0.9, { order: 'score' })
  })

  it('a retriever (Document[] without scores) adapts too, ranked as returned', async () => {
    const docs = await store.asRetriever({ k: 3 }).invoke('Where is the asteroid belt?')
    const items = fromLangChainDocuments(docs, { id: (doc) => String(doc.metadata.docId) })
    expect(items.every((i) => i.score === undefined)).toBe(true)
    expect({ retrieved: items, relevant: { asteroid: 2 } }).toHaveMrrAbove(1)
    expect(() => expect({ retrieved: items, relevant: { asteroid: 2 } }).toHaveMrrAbove(1, { order: 'score' })).toThrow(/retrieved\[0\]\.score/)
  })
})
