// Retrieval quality with the dense retriever (cosine over passage embeddings), next to the BM25 numbers
// of retrieval.test.ts. Runs with `npm run example -- --dense` (RAG_MATCHERS_RETRIEVER=dense) when an
// embedding model is available offline; otherwise skipped with the reason in the test name.
import { EmbeddingCache, evaluateRetrieval } from '../../src/index.js'
import { exampleModels } from './models.js'
import { BM25_LABEL, loadExample, requestedRetriever, RETRIEVER_ENV } from './pipeline.js'

const requested = requestedRetriever() === 'dense'
// Only a --dense run needs to know about embedders.
const choice = requested ? (await exampleModels()).embedder : undefined
const embedder = choice?.available ? choice.create() : undefined
const why = choice === undefined ? ` — skipped: BM25 run (pass --dense or set ${RETRIEVER_ENV}=dense)` : !choice.available ? ` — skipped: ${choice.reason}` : ''
const dense = embedder ? await loadExample({ retriever: 'dense', embedder, cache: new EmbeddingCache() }) : undefined

if (dense) {
  // Side by side with BM25, so a --dense run shows what changed.
  const bm25 = await loadExample({ retriever: 'bm25' })
  const summary = (cases: typeof dense.cases) => {
    const m = evaluateRetrieval(cases, { k: 3 }).mean
    return `MRR ${m.mrr.toFixed(3)}, hit rate@3 ${m.hitRate.toFixed(3)}, nDCG@3 ${m.ndcg.toFixed(3)}`
  }
  console.info(`[transformer-qa] retriever: ${dense.retriever} — ${summary(dense.cases)}; ${BM25_LABEL} — ${summary(bm25.cases)}`)
}

afterAll(async () => {
  await (embedder as { dispose?: () => Promise<void> } | undefined)?.dispose?.()
})

describe(`dense retrieval on the transformer-qa eval set (${dense ? dense.retriever : 'not run'})`, () => {
  it.skipIf(!dense)(`the answering passage is in the top 5 for most questions, and ranks high on average${why}`, () => {
    expect(dense!.cases).toHaveHitRateAtK(5, 0.75)
    expect(dense!.cases).toHaveMrrAbove(0.5)
  })
})
