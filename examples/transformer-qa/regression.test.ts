// The regression gate: run the eval set through the pipeline once, then hold it against the
// committed baseline in __rag_baselines__/regression.test.ts.json. A change to the corpus, the
// retriever or the answers that makes retrieval or answers measurably worse fails here, with a
// per-metric, per-case report; a change within noise passes. `npm run example -- -u` rewrites it.
import { describeEvalSet } from '../../runners/matchers.js'
import { relevantBySubstring } from '../../src/index.js'
import { bm25Retriever, loadAnswers, loadEvalSet, loadPassages } from './pipeline.js'

const passages = loadPassages()
const retrieve = bm25Retriever(passages)
const { answers } = loadAnswers()

describeEvalSet(
  'transformer-qa',
  {
    dataset: () => loadEvalSet().map((item) => ({ ...item })),
    pipeline: (question, item) => {
      const retrieved = retrieve(question, 5)
      return { retrieved, contexts: retrieved.map((r) => r.text), answer: answers[item.id] ?? '' }
    },
    progress: 'off',
  },
  (run) => {
    it('runs every question without a pipeline error', () => {
      expect(run.errors).toBe(0)
    })

    it('retrieval and answers hold the committed baseline', () => {
      const cases = run.cases.map((c) => ({ ...c, relevant: relevantBySubstring(passages, c.keyword) }))
      expect(cases).toMatchMetricBaseline('transformer-qa', {
        metrics: ['recall@3', 'ndcg@3', 'mrr', 'bleu', 'chrf', 'rougeL', 'meteor'],
        tolerance: 0.02,
        alpha: 0.05,
      })
    })
  },
)
