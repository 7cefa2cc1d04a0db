// Runs under Vitest AND Jest (globals only). openaiJudge against the scripted OpenAI-protocol server
// (test/helpers/fake-openai.ts): a good server passes the assertion, and every fault a real server
// shows makes it fail, with or without .not, naming the server, the model and the cause, within the timeout.
import { judgeCache } from '../../src/judge/cache.js'
import { openaiJudge } from '../../src/judge/openai-judge.js'
import type { Judge } from '../../src/judge/types.js'
import { openaiEmbedder } from '../../src/embeddings/openai-embedder.js'
import { chatShapeProblems, completion, embeddingsReply, openAIError, startFakeOpenAI, type FakeOpenAI, type FakeOpenAIReply } from '../helpers/fake-openai.js'
import { asyncFailureOf } from '../helpers/failure.js'
import { serverPerTest } from '../helpers/scripted-server.js'

const CONTEXTS = [{ id: 'doc-a', text: 'Paris is the capital and largest city of France.' }]
const ANSWER = 'Paris is the capital of France.'
const CHAT = '/v1/chat/completions'
const KEY = 'sk-matcher'

let fake: FakeOpenAI
serverPerTest(startFakeOpenAI, (started) => {
  fake = started
})

function judge(options: { timeoutMs?: number; retries?: number; baseURL?: string } = {}): Judge {
  return openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, apiKey: KEY, cache: judgeCache({ dir: 'judge-cache', mode: 'off' }), retries: 1, ...options })
}

/** A well-behaved server: claims, then verdicts, each as a strict json_schema reply. */
function scriptGood(): void {
  fake.on(CHAT, (b) => 'claims' in (b.response_format?.json_schema?.schema?.properties ?? {}), completion({ claims: [ANSWER] }))
  fake.on(CHAT, () => true, completion({ verdicts: [{ claim: 1, reason: 'Passage 1 says so.', verdict: 'supported', context: 1 }] }))
}

describe('.toBeGroundedIn with openaiJudge', () => {
  it('passes against a well-behaved server, sending the protocol shape, and signs with backend, host and mode', async () => {
    scriptGood()
    await expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge: judge() })
    expect(fake.requests).toHaveLength(2)
    for (const r of fake.requests) expect(chatShapeProblems(r, { apiKey: KEY, temperature: 0, seed: 42 })).toEqual([])
    scriptGood()
    const message = await asyncFailureOf(() => expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 1, { judge: judge() }))
    expect(message).toContain(`backend:openai|host:${fake.host}|format:json_schema`)
    expect(message).toContain(`judge: openai:gpt-4o-mini@${fake.host}, temperature 0, seed 42`)
  })

  const faults: Array<[string, FakeOpenAIReply, string]> = [
    ['401 (bad key)', openAIError(401, 'Incorrect API key provided: sk-matc***'), 'rejected the request with HTTP 401 (model gpt-4o-mini): 401 Incorrect API key'],
    ['404 (unknown model)', openAIError(404, 'The model `gpt-4o-mini` does not exist'), 'answered 404 for model gpt-4o-mini'],
    [
      '429 (rate limit, Retry-After)',
      openAIError(429, 'Rate limit reached', { headers: { 'retry-after': '0.05' } }),
      'rate-limited the judge with HTTP 429 (model gpt-4o-mini)',
    ],
    ['500', openAIError(500, 'The server had an error', { type: 'server_error' }), 'failed with HTTP 500 (model gpt-4o-mini)'],
    ['half a reply, then close', { ...completion({ claims: [ANSWER] }), hangUpAfterBytes: 25 }, 'closed the connection before the reply was complete (model gpt-4o-mini'],
    ['a hang', { ...completion({ claims: [ANSWER] }), delayMs: 10_000 }, 'did not answer within 1000 ms (model gpt-4o-mini)'],
    ['a refusal', completion(null, { refusal: 'I cannot help with that.' }), '(model gpt-4o-mini) refused to judge: "I cannot help with that."'],
    ['a truncated reply', completion('{"claims": ["Paris is', { finishReason: 'length' }), '(model gpt-4o-mini) cut the reply off (finish_reason: length)'],
    ['plain text that ignores the schema', completion('Here are the claims: Paris is the capital.'), 'gave no valid reply for groundedness.'],
  ]

  it.each(faults)('fails — with or without .not — on %s, naming the server, the model and the cause', async (_, reply, cause) => {
    fake.on(CHAT, () => true, reply)
    const started = Date.now()
    for (const run of [
      () => expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge: judge({ timeoutMs: 1_000 }) }),
      () => expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 1, { judge: judge({ timeoutMs: 1_000 }) }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('groundedness could not be computed, so the assertion fails.')
      expect(message).toContain(fake.baseURL)
      expect(message).toContain('gpt-4o-mini')
      expect(message).toContain(cause)
      expect(message).not.toMatch(/\n\s+at /)
    }
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('fails on refused connections, saying it cannot connect', async () => {
    const closed = await startFakeOpenAI()
    await closed.close()
    const message = await asyncFailureOf(() => expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge: judge({ baseURL: closed.baseURL }) }))
    expect(message).toContain(`Cannot reach the OpenAI-compatible server at ${closed.baseURL} (ECONNREFUSED): cannot connect (model gpt-4o-mini)`)
  })

  it('passes against a server that ignores json_schema but honours json_object, and says json_object in the signature', async () => {
    fake.on(CHAT, (b) => b.response_format?.type === 'json_schema', completion('Sure, here you go.'))
    let step = 0
    fake.on(
      CHAT,
      (b) => b.response_format?.type === 'json_object',
      () => (step++ === 0 ? completion({ claims: [ANSWER] }) : completion({ verdicts: [{ claim: 1, reason: 'Passage 1.', verdict: 'supported', context: 1 }] })),
    )
    const j = judge()
    await expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge: j })
    step = 0
    const message = await asyncFailureOf(() => expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 1, { judge: j }))
    expect(message).toContain('format:json_object')
  })
})

describe('.toBeSemanticallySimilarTo with openaiEmbedder', () => {
  it('computes the cosine from the server vectors, and fails naming the server on a 404', async () => {
    fake.on(
      '/v1/embeddings',
      (b) => b.model === 'text-embedding-3-small',
      (req) => embeddingsReply((req.body.input as string[]).map((t) => [t.length, 1])),
    )
    const embedder = openaiEmbedder({ model: 'text-embedding-3-small', baseURL: fake.baseURL, apiKey: KEY })
    await expect('ab').toBeSemanticallySimilarTo('ab', 1, { embedder })
    const missing = openaiEmbedder({ model: 'no-such-model', baseURL: fake.baseURL, apiKey: KEY })
    fake.on('/v1/embeddings', () => true, openAIError(404, 'model not found'))
    const message = await asyncFailureOf(() => expect('x').toBeSemanticallySimilarTo('y', 0.5, { embedder: missing }))
    expect(message).toContain(`answered 404 for model "no-such-model"`)
    expect(message).toContain(fake.baseURL)
  })
})
