// Embedding similarity of the example's answers to their references. Runs when an embedding model is
// available without the network (the Transformers.js default model in the local cache, or Ollama's
// nomic-embed-text); otherwise its tests are registered as skipped with the reason in their names.
import { EmbeddingCache } from '../../src/index.js'
import { exampleModels } from './models.js'
import { loadExample, loadRecordedAnswers } from './pipeline.js'

const models = await exampleModels()
const choice = models.embedder
const embedder = choice.available ? choice.create() : undefined
const cache = new EmbeddingCache()
const why = choice.available ? '' : ` — skipped: ${choice.reason}`
const run = await loadExample({
  ...(embedder ? { embedder, cache } : { embedderReason: choice.available ? '' : choice.reason }),
})
const correct = run.cases.filter((c) => c.id !== 'bleu-en-de')
const wrongCase = run.cases.find((c) => c.id === 'bleu-en-de')!
// The wrong-number answer is the committed one even with --live: it is the example's planted error.
const wrongAnswer = loadRecordedAnswers()['bleu-en-de']!
const byId = Object.fromEntries(run.cases.map((c) => [c.id, c]))

console.info(
  `[transformer-qa] embedder: ${choice.available ? choice.label : `none, ${choice.reason}`}; ` +
    `retriever: ${run.retriever}${run.note ? ` (${run.note})` : ''}; answers: ${run.answers}`,
)

afterAll(async () => {
  // A Transformers.js embedder holds an ONNX session; free it so the worker exits promptly.
  await (embedder as { dispose?: () => Promise<void> } | undefined)?.dispose?.()
})

describe(`semantic similarity (${choice.available ? choice.label : 'no embedding model'})`, () => {
  // Per-answer tests exist only with a model; without one, the set-level test below carries the reason.
  if (embedder) {
    it.each(correct.map((c) => [c.id, c] as const))('%s: the answer means what the reference says (cosine ≥ 0.7)', async (_id, c) => {
      await expect(c.answer).toBeSemanticallySimilarTo(c.reference, 0.7, { embedder })
    })
  }

  it.skipIf(!embedder)(`set level: mean cosine of the correct answers ≥ 0.75${why}`, async () => {
    await expect(correct).toBeSemanticallySimilarTo(0.75, { embedder })
  })

  it.skipIf(!embedder)(`an answer is not a paraphrase of another question's reference${why}`, async () => {
    await expect(byId['heads']!.answer).not.toBeSemanticallySimilarTo(byId['hardware']!.reference, 0.9, { embedder })
  })

  it.skipIf(!embedder)(`the wrong-number answer (41.0 for English-German) still looks similar: embeddings do not catch it, the numeric check does${why}`, async () => {
    await expect(wrongAnswer).toBeSemanticallySimilarTo(wrongCase.reference, 0.7, { embedder })
    expect(wrongAnswer).not.toStateNumbersOf(wrongCase.reference)
  })
})
