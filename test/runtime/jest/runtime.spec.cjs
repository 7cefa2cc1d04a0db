// The runtime matrix's Jest suite (CommonJS, global expect), run from the installed tarball: the same
// retrieval, generation and awaited judge assertions as the Vitest suite, against the fake server.
const { judgeCache, openaiJudge } = require('rag-matchers/judge')
const { startFakeOpenAI } = require('./fake-openai.cjs')

const API_KEY = 'sk-runtime-matrix'
const ANSWER = 'Paris is the capital of France. Paris has 40 million inhabitants.'
const CONTEXTS = [{ id: 'doc-a', text: 'Paris is the capital and largest city of France.' }]

let fake
let judge
beforeAll(async () => {
  fake = await startFakeOpenAI({
    apiKey: API_KEY,
    claims: ['Paris is the capital of France.', 'Paris has 40 million inhabitants.'],
    verdicts: [
      { claim: 1, reason: 'Passage 1 says so.', verdict: 'supported', context: 1 },
      { claim: 2, reason: 'No passage gives the population.', verdict: 'not_found', context: 0 },
    ],
  })
  judge = openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, apiKey: API_KEY, retries: 0, cache: judgeCache({ dir: '.judge-cache', mode: 'off' }) })
})
afterAll(() => fake && fake.close())

test('retrieval: nDCG@3 and hit@3', () => {
  expect({ retrieved: ['d2', 'd4', 'd9'], relevant: { d2: 1, d4: 2 } }).toHaveNdcgAtK(3, 0.7)
  expect({ retrieved: ['d7', 'd2', 'd9'], relevant: ['d4'] }).not.toHitWithin(3)
})

test('generation: sacrebleu BLEU', () => {
  expect('The model scored 28.4 on the benchmark today.').toScoreBleuAbove('The model scored 28.4 on the benchmark today.', 30)
})

test('judge: awaited groundedness against an OpenAI-compatible server', async () => {
  await expect(ANSWER).toBeGroundedIn(CONTEXTS, 0.5, { judge })
  await expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 0.9, { judge })
  await expect(expect(ANSWER).toBeGroundedIn(CONTEXTS, 0.9, { judge })).rejects.toThrow(/Paris has 40 million inhabitants/)
  expect(fake.requests).toHaveLength(6)
  expect(fake.problems).toEqual([])
})
