// Runs under Vitest AND Jest (globals only). Token usage of judge assertions: what the fake Ollama and
// fake OpenAI servers report is summed per assertion into meta.extra.usage and shown under the judge
// line; replies replayed from the cache count apart (usage.cached), never as spent.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { judgeCache } from '../../src/judge/cache.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import { openaiJudge } from '../../src/judge/openai-judge.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { toBeGroundedIn } from '../../matchers/judge.js'
import { completion, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { asyncFailureOf } from '../helpers/failure.js'
import { chatReply, dataOf, step } from '../src/judge/helpers.js'

const CONTEXTS = ['Paris is the capital of France.', 'France uses the euro.']
const SET = [
  { id: 'q1', answer: 'Paris is the capital of France.', contexts: CONTEXTS },
  { id: 'q2', answer: 'France uses the euro.', contexts: CONTEXTS },
]

function context(isNot = false): MatcherContext {
  return { isNot, promise: '', utils: { matcherHint: (name: string) => name, printReceived: String, printExpected: String } }
}

let fake: FakeOllama
const root = mkdtempSync(join(tmpdir(), 'rag-matchers-judge-usage-'))

/** Claims: 120 prompt / 15 reply tokens; verdicts: 300 / 25. Every claim is supported by context 1. */
function script(): void {
  fake.on('/api/chat', step('claims'), (req) => chatReply({ claims: [dataOf(req.body, 'ANSWER')] }, undefined, { promptEvalCount: 120, evalCount: 15 }))
  fake.on(
    '/api/chat',
    step('verdicts'),
    chatReply({ verdicts: [{ claim: 1, reason: 'Context 1 says so.', verdict: 'supported', context: 1 }] }, undefined, { promptEvalCount: 300, evalCount: 25 }),
  )
}

beforeEach(async () => {
  fake = await startFakeOllama()
})
afterEach(async () => {
  const unhandled = fake.unhandled.length
  await fake.close()
  expect(unhandled).toBe(0)
})
afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

describe('judge usage in meta.extra.usage (Ollama prompt_eval_count / eval_count)', () => {
  const judge = () => ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir: 'judge-cache', mode: 'off' }) })

  it('one answer: the sum over its calls', async () => {
    script()
    const result = (await toBeGroundedIn.call(context(), 'Paris is the capital of France.', CONTEXTS, 1, { judge: judge() })) as MatcherResult
    expect(result.pass).toBe(true)
    expect(result.meta?.extra).toEqual({ calls: 2, cached: 0, usage: { promptTokens: 420, completionTokens: 40, calls: 2 } })
  })

  it('an eval set: the sum over every case, shown under the judge line', async () => {
    script()
    const result = (await toBeGroundedIn.call(context(), SET, 1, { judge: judge() })) as MatcherResult
    expect(result.meta?.extra).toMatchObject({ calls: 4, cached: 0, usage: { promptTokens: 840, completionTokens: 80, calls: 4 } })
    const message = await asyncFailureOf(() => expect(SET).not.toBeGroundedIn(1, { judge: judge() }))
    expect(message).toContain(
      'judge: ollama:llama3.1:8b, temperature 0, seed 42; 4 calls, 0 from cache; cache off judge-cache\ntokens: 840 prompt + 80 completion in 4 model requests',
    )
  })

  it('replayed replies count apart as usage.cached, not as spent', async () => {
    script()
    const dir = join(root, 'replay')
    await expect(SET).toBeGroundedIn(1, { judge: ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir }) }) })
    const requests = fake.requests.length
    const replay = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir, mode: 'replay' }) })
    const result = (await toBeGroundedIn.call(context(), SET, 1, { judge: replay })) as MatcherResult
    expect(fake.requests).toHaveLength(requests)
    expect(result.meta?.extra).toMatchObject({
      calls: 4,
      cached: 4,
      usage: { promptTokens: 0, completionTokens: 0, calls: 0, cached: { promptTokens: 840, completionTokens: 80, calls: 4 } },
    })
    const message = await asyncFailureOf(() => expect('Paris is the capital of France.').not.toBeGroundedIn(CONTEXTS, 1, { judge: replay }))
    expect(message).toContain('tokens: 0 prompt + 0 completion in 0 model requests; replayed from cache, not spent: 420 prompt + 40 completion')
  })

  it('no usage when the server reports none', async () => {
    fake.on('/api/chat', step('claims'), chatReply({ claims: ['Paris is the capital of France.'] }))
    fake.on('/api/chat', step('verdicts'), chatReply({ verdicts: [{ claim: 1, reason: 'Context 1.', verdict: 'supported', context: 1 }] }))
    const result = (await toBeGroundedIn.call(context(), 'Paris is the capital of France.', CONTEXTS, 1, { judge: judge() })) as MatcherResult
    expect(result.meta?.extra).toEqual({ calls: 2, cached: 0 })
    const message = await asyncFailureOf(() => expect('Paris is the capital of France.').not.toBeGroundedIn(CONTEXTS, 1, { judge: judge() }))
    expect(message).not.toContain('tokens:')
  })
})

describe('judge usage in meta.extra.usage (OpenAI usage.prompt_tokens / completion_tokens)', () => {
  let openai: FakeOpenAI
  beforeEach(async () => {
    openai = await startFakeOpenAI()
  })
  afterEach(async () => {
    await openai.close()
  })

  it('sums usage over the calls of an eval set', async () => {
    openai.on(
      '/v1/chat/completions',
      (body) => JSON.stringify(body).includes('"claims"') && !JSON.stringify(body).includes('"verdicts"'),
      (req) => {
        const prompt = (req.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')?.content ?? ''
        return completion({ claims: [dataOf({ messages: [{ role: 'user', content: prompt }] }, 'ANSWER')] }, { usage: { prompt_tokens: 90, completion_tokens: 11 } })
      },
    )
    openai.on(
      '/v1/chat/completions',
      () => true,
      completion({ verdicts: [{ claim: 1, reason: 'Context 1.', verdict: 'supported', context: 1 }] }, { usage: { prompt_tokens: 210, completion_tokens: 19 } }),
    )
    const judge = openaiJudge({ model: 'gpt-4o-mini', baseURL: openai.baseURL, apiKey: 'sk-test', cache: judgeCache({ dir: 'judge-cache', mode: 'off' }) })
    const result = (await toBeGroundedIn.call(context(), SET, 1, { judge })) as MatcherResult
    expect(result.pass).toBe(true)
    expect(result.meta?.extra).toMatchObject({ usage: { promptTokens: 600, completionTokens: 60, calls: 4 } })
  })
})
