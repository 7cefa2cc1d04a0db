// The runtime matrix's Vitest suite, run from the installed tarball (scripts/runtime-matrix.mjs): one
// retrieval, one generation and one awaited judge assertion against a fake OpenAI-compatible server on
// 127.0.0.1. `tsc --noEmit` checks it too, so the types of the sync and async matchers are exercised.
import { afterAll, beforeAll, expect, test } from 'vitest'
import { judgeCache, openaiJudge, type Judge } from 'rag-matchers/judge'
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai.cjs'

const API_KEY = 'sk-runtime-matrix'
const ANSWER = 'Paris is the capital of France. Paris has 40 million inhabitants.'
const CONTEXTS = [{ id: 'doc-a', text: 'Paris is the capital and largest city of France.' }]

let fake: FakeOpenAI
let judge: Judge
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
afterAll(() => fake?.close())

test('retrieval: nDCG@3 and hit@3', () => {
  expect({ retrieved: ['d2', 'd4', 'd9'], relevant: { d2: 1, d4: 2 } }).toHaveNdcgAtK(3, 0.7)
  expect({ retrieved: ['d7', 'd2', 'd9'], relevant: ['d4'] }).not.toHitWithin(3)
})

test('generation: sacrebleu BLEU', () => {
  expect('The model scored 28.4 on the benchmark today.').toScoreBleuAbove('The model scored 28.4 on the benchmark today.', 30)
})

test('judge: awaited groundedness against an OpenAI-compatible server', async () => {
  const pending: Promise<void> = expect(ANSWER).toBeGroundedIn(CONTEXTS, 0.5, { judge })
  await pending
  await expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 0.9, { judge })
  await expect(expect(ANSWER).toBeGroundedIn(CONTEXTS, 0.9, { judge })).rejects.toThrow(/Paris has 40 million inhabitants/)
  expect(fake.requests).toHaveLength(6)
  expect(fake.problems).toEqual([])
})

// Never called: only for `tsc --noEmit`, which must reject wrong arguments to the matchers.
export function typeOnly(): void {
  // @ts-expect-error k is a number
  expect({ retrieved: ['a'], relevant: ['a'] }).toHaveNdcgAtK('3', 0.7)
  // @ts-expect-error contexts is a list
  void expect(ANSWER).toBeGroundedIn('not a list', 0.5)
}
