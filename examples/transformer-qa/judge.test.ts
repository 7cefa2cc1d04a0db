// LLM-judged quality of the example's answers: groundedness in the retrieved contexts, completeness
// against the reference, and use of the contexts, through ollamaJudge. Runs when Ollama answers at
// OLLAMA_HOST with the judge model (RAG_MATCHERS_JUDGE_MODEL, default llama3.1:8b) pulled; otherwise its
// tests are registered as skipped with the reason in their names.
//
// Replies are recorded in __rag_judge_cache__/ (mode readwrite) next to this file, so a second run with
// the same answers, contexts and model is served from disk. Only a real model ever writes there.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EmbeddingCache, judgeCache } from '../../src/index.js'
import { exampleModels } from './models.js'
import { loadExample, loadRecordedAnswers, requestedRetriever } from './pipeline.js'

const CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), '__rag_judge_cache__')
// A judge call on a CPU-only machine can take a minute; each test makes several.
const JUDGE_TEST_TIMEOUT = 1_800_000

// The embedder only matters for dense retrieval; without --dense, skip its (slower) check.
const dense = requestedRetriever() === 'dense'
const models = await exampleModels({ embedder: dense })
const choice = models.judge
const judge = choice.available ? choice.create(judgeCache({ dir: CACHE_DIR, mode: 'readwrite' })) : undefined
const why = choice.available ? '' : ` — skipped: ${choice.reason}`
// Dense retrieval (--dense) needs the embedder here too: the judge sees the contexts the pipeline retrieved.
const embed = models.embedder
const embedder = dense && embed.available ? embed.create() : undefined
const run = await loadExample(embedder ? { embedder, cache: new EmbeddingCache() } : { embedderReason: embed.available ? '' : embed.reason })
const correct = run.cases.filter((c) => c.id !== 'bleu-en-de')
const wrongCase = run.cases.find((c) => c.id === 'bleu-en-de')!
// The planted error stays the committed answer even with --live answers.
const wrongAnswer = loadRecordedAnswers()['bleu-en-de']!

console.info(
  `[transformer-qa] judge: ${choice.available ? `ollama ${choice.model} at ${choice.host}, cache readwrite ${CACHE_DIR}` : `none, ${choice.reason}`}; ` +
    `retriever: ${run.retriever}${run.note ? ` (${run.note})` : ''}; answers: ${run.answers}`,
)

afterAll(async () => {
  await (embedder as { dispose?: () => Promise<void> } | undefined)?.dispose?.()
})

describe(`LLM judge (${choice.available ? `ollama ${choice.model}` : 'no judge model'}; contexts from ${run.retriever})`, () => {
  if (judge) {
    it.each(correct.map((c) => [c.id, c] as const))(
      '%s: every claim of the answer is supported by the retrieved contexts',
      async (_id, c) => {
        await expect(c.answer).toBeGroundedIn(c.contexts, 1, { judge })
      },
      JUDGE_TEST_TIMEOUT,
    )

    it.each(correct.map((c) => [c.id, c] as const))(
      '%s: the answer covers the key points of the reference (completeness ≥ 0.5)',
      async (_id, c) => {
        await expect(c.answer).toBeCompleteGiven({ reference: c.reference }, 0.5, { judge, question: c.question })
      },
      JUDGE_TEST_TIMEOUT,
    )

    it.each(correct.map((c) => [c.id, c] as const))(
      '%s: the answer draws on the top-3 contexts (utilization ≥ 0.3, i.e. at least one chunk)',
      async (_id, c) => {
        await expect(c.answer).toUtilizeContext(c.contexts.slice(0, 3), 0.3, { judge, question: c.question })
      },
      JUDGE_TEST_TIMEOUT,
    )
  }

  it.skipIf(!judge)(
    `the wrong-number answer (41.0 for English-German) is NOT grounded in its contexts${why}`,
    async () => {
      await expect(wrongAnswer).not.toBeGroundedIn(wrongCase.contexts, 1, { judge })
    },
    JUDGE_TEST_TIMEOUT,
  )
})
