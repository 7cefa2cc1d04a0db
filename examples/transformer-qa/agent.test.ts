// The agent case: the same questions answered by an agent that decides what to search for (the real AI
// SDK tool loop over a scripted model, offline; see agent.ts). The tests assert on what it did: the
// calls it made and with which arguments, the tool-call F1 against the calls the dataset expects, the
// retrieval its searches got (scored over its steps), and its latency, tokens and cost.
import { describeEvalSet } from '../../runners/matchers.js'
import { AGENT_MODEL, agentPipeline } from './agent.js'
import { loadEvalSet, loadPassages, loadRecordedAnswers } from './pipeline.js'

const passages = loadPassages()

describeEvalSet(
  'transformer-qa agent',
  {
    // One search per question is what a good agent does; any query counts (an expected call without args).
    dataset: () => loadEvalSet().map((item) => ({ ...item, expectedToolCalls: [{ name: 'search' }] })),
    pipeline: agentPipeline(passages, loadRecordedAnswers()),
    // ground truth: the passages that contain each item's keyword
    corpus: passages,
    progress: 'off',
  },
  (run) => {
    const byId = (id: string) => run.cases.find((c) => c.id === id)

    it('searches with the question’s terms, never calls anything else, and at most twice', () => {
      expect(run.errors).toBe(0)
      expect(byId('d-model')).toCallTool({ name: 'search', args: { query: expect.stringContaining('d_model') } })
      expect(byId('heads')).toCallTools([{ name: 'search', args: { query: 'attention heads' } }, 'search'], { order: 'exact' })
      expect(run).toMakeAtMostToolCalls(2)
      expect(run).not.toMakeAtMostToolCalls(1) // heads refines its query
    })

    it('tool-call F1 against one expected search per question (RAGAS): the extra search of heads costs precision', () => {
      expect(run).toHaveToolCallF1(0.95)
      expect(run).not.toHaveToolCallF1(1)
    })

    it('retrieval over the agent’s searches: the union of its steps, and the step it answered from', () => {
      expect(run).toHaveRecallAtK(3, 0.85) // hardware searched for "training" and missed its passage
      expect(run).not.toHaveRecallAtK(3, 1)
      expect(byId('heads')).toHaveMrrAbove(1, { steps: 'last' }) // the refined query ranks the answer first
      expect(byId('heads')).not.toHaveMrrAbove(0.5) // the union ranks it third
    })

    it('stays within its latency, token and cost budget (prices passed in, none built in)', () => {
      expect(run).toStayWithinBudget({
        p95Ms: 5_000,
        tokensPerCase: 1_500,
        totalCost: 0.01,
        prices: { [AGENT_MODEL]: { inputPerMillion: 0.15, outputPerMillion: 0.6 } },
      })
    })
  },
)
