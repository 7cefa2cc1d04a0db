import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MetricInputError } from '../../../src/errors.js'
import { judgeCache } from '../../../src/judge/cache.js'
import { JudgeError } from '../../../src/judge/errors.js'
import { ollamaJudge } from '../../../src/judge/ollama-judge.js'
import type { JsonSchema, JudgeRequest } from '../../../src/judge/types.js'
import { startFakeOllama } from '../../helpers/fake-ollama.js'
import { chatReply, useFakeOllama } from './helpers.js'

const schema: JsonSchema = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['yes', 'no'] }, n: { type: 'integer' } },
  required: ['verdict', 'n'],
  additionalProperties: false,
}

function request(prompt = 'Is it?', extra: Partial<JudgeRequest> = {}): JudgeRequest {
  return { template: 'test.step@00000000', system: 'You judge.', prompt, schema, ...extra }
}

describe('ollamaJudge', () => {
  const fake = useFakeOllama()

  // Issue #27 (3c): a truncated Ollama reply is refused like OpenAI's finish_reason 'length', even when it parses.
  it.each([
    ["done_reason: 'length'", { done: true, done_reason: 'length' }, "cut the reply off (done_reason: 'length')"],
    ['done: false', { done: false }, 'cut the reply off (done: false)'],
  ])('a reply with %s is a truncated reply, not a judgement (and is not cached)', async (_, flags, words) => {
    const base = chatReply({ verdict: 'yes', n: 1 }) as { body: Record<string, unknown> }
    fake.on('/api/chat', () => true, { body: { ...base.body, ...flags } })
    const dir = await mkdtemp(join(tmpdir(), 'rag-ollama-truncated-'))
    try {
      const error = await ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir }) })
        .ask(request())
        .catch((e: unknown) => e)
      expect(error).toBeInstanceOf(JudgeError)
      expect(error).toMatchObject({ kind: 'truncated' })
      expect((error as Error).message).toContain(words)
      expect((error as Error).message).toContain('numCtx')
      expect(fake.requests).toHaveLength(1)
      const replay = await ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir, mode: 'replay' }) })
        .ask(request())
        .catch((e: unknown) => e)
      expect(replay).toMatchObject({ kind: 'cache-miss' })
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it("a finished reply (done: true, done_reason 'stop') is accepted", async () => {
    fake.on('/api/chat', () => true, chatReply({ verdict: 'no', n: 2 }))
    expect((await ollamaJudge({ model: 'llama3.1:8b', host: fake.host }).ask(request())).value).toEqual({ verdict: 'no', n: 2 })
  })

  it('sends one non-streamed /api/chat request with the schema as format and temperature/seed options', async () => {
    fake.on('/api/chat', () => true, chatReply({ verdict: 'yes', n: 1 }))
    const judge = ollamaJudge({ model: 'llama3.1:8b', host: fake.host })
    const reply = await judge.ask(request())
    expect(reply).toMatchObject({ value: { verdict: 'yes', n: 1 }, raw: '{"verdict":"yes","n":1}', cached: false, seed: 42, attempts: 1 })
    expect(reply.key).toMatch(/^[0-9a-f]{64}$/)
    expect(fake.requests).toHaveLength(1)
    const r = fake.requests[0]!
    expect(r.method).toBe('POST')
    expect(r.path).toBe('/api/chat')
    expect(r.body).toEqual({
      model: 'llama3.1:8b',
      messages: [
        { role: 'system', content: 'You judge.' },
        { role: 'user', content: 'Is it?' },
      ],
      format: schema,
      options: { temperature: 0, seed: 42 },
      stream: false,
    })
    expect(judge).toMatchObject({ id: 'ollama:llama3.1:8b', model: 'llama3.1:8b', temperature: 0, seed: 42 })
  })

  it('passes temperature, a per-request seed and num_ctx through', async () => {
    fake.on('/api/chat', () => true, chatReply({ verdict: 'no', n: 2 }))
    const judge = ollamaJudge({ model: 'qwen2.5:7b-instruct', host: fake.host, temperature: 0.7, seed: 7, numCtx: 8192 })
    const reply = await judge.ask(request('p', { seed: 9 }))
    expect(reply.seed).toBe(9)
    expect(fake.requests[0]?.body.options).toEqual({ temperature: 0.7, seed: 9, num_ctx: 8192 })
    expect(judge.numCtx).toBe(8192)
  })

  it('retries a malformed reply, showing the model its reply and the problems', async () => {
    fake.on('/api/chat', () => true, chatReply('Sure! {"verdict": "yes"'), { times: 1 })
    fake.on('/api/chat', () => true, chatReply({ verdict: 'maybe', n: 1 }), { times: 1 })
    fake.on('/api/chat', () => true, chatReply({ verdict: 'no', n: 3 }))
    const judge = ollamaJudge({ model: 'm', host: fake.host })
    const reply = await judge.ask(request())
    expect(reply.value).toEqual({ verdict: 'no', n: 3 })
    expect(reply.attempts).toBe(3)
    const third = fake.requests[2]!.body.messages as Array<{ role: string; content: string }>
    expect(third.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user'])
    expect(third[2]?.content).toBe('Sure! {"verdict": "yes"')
    expect(third[3]?.content).toContain('not valid JSON')
    expect(third[5]?.content).toContain('$.verdict: expected one of "yes", "no", got "maybe"')
  })

  it('treats a failed semantic check like a schema violation', async () => {
    fake.on('/api/chat', () => true, chatReply({ verdict: 'yes', n: 5 }), { times: 1 })
    fake.on('/api/chat', () => true, chatReply({ verdict: 'yes', n: 2 }))
    const judge = ollamaJudge({ model: 'm', host: fake.host })
    const reply = await judge.ask(request('p', { check: (v: { n: number }) => (v.n > 3 ? [`n ${v.n} is out of range`] : []) }))
    expect(reply.value).toEqual({ verdict: 'yes', n: 2 })
    expect(fake.requests[1]?.body.messages[3].content).toContain('n 5 is out of range')
  })

  it('gives up after `retries` extra attempts with an invalid-reply error quoting the reply', async () => {
    fake.on('/api/chat', () => true, chatReply('I think yes.'))
    const judge = ollamaJudge({ model: 'tiny:1b', host: fake.host, retries: 1 })
    const error = await judge.ask(request()).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JudgeError)
    expect(error).toMatchObject({ kind: 'invalid-reply' })
    expect((error as Error).message).toContain('tiny:1b')
    expect((error as Error).message).toContain('after 2 attempt(s)')
    expect((error as Error).message).toContain('"I think yes."')
    expect(fake.requests).toHaveLength(2)
  })

  it('retries a response body that is not JSON at all', async () => {
    fake.on('/api/chat', () => true, { raw: '{"model": "m", "mess' }, { times: 1 })
    fake.on('/api/chat', () => true, chatReply({ verdict: 'yes', n: 1 }))
    const reply = await ollamaJudge({ model: 'm', host: fake.host }).ask(request())
    expect(reply.attempts).toBe(2)
  })

  it('retries HTTP 5xx, then reports it with the server message', async () => {
    fake.on('/api/chat', () => true, { status: 500, body: { error: 'llama runner process has terminated' } }, { times: 1 })
    fake.on('/api/chat', () => true, chatReply({ verdict: 'yes', n: 1 }))
    expect((await ollamaJudge({ model: 'm', host: fake.host }).ask(request())).value).toEqual({ verdict: 'yes', n: 1 })

    const other = await startFakeOllama()
    try {
      other.on('/api/chat', () => true, { status: 503, body: { error: 'server busy' } })
      const error = await ollamaJudge({ model: 'm', host: other.host, retries: 1 })
        .ask(request())
        .catch((e: unknown) => e)
      expect(error).toMatchObject({ kind: 'server' })
      expect((error as Error).message).toContain('HTTP 503')
      expect((error as Error).message).toContain('server busy')
      expect(other.requests).toHaveLength(2)
    } finally {
      await other.close()
    }
  })

  it('reports a 404 as a missing model and says to pull it, without retrying', async () => {
    fake.on('/api/chat', () => true, { status: 404, body: { error: 'model "llama3.1:8b" not found, try pulling it first' } })
    const error = await ollamaJudge({ model: 'llama3.1:8b', host: fake.host })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'model-not-found' })
    expect((error as Error).message).toContain('`ollama pull llama3.1:8b`')
    expect((error as Error).message).toContain(fake.host)
    expect(fake.requests).toHaveLength(1)
  })

  it('reports other 4xx as http errors', async () => {
    fake.on('/api/chat', () => true, { status: 400, body: { error: 'invalid format' } })
    const error = await ollamaJudge({ model: 'm', host: fake.host })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'http' })
    expect((error as Error).message).toContain('HTTP 400')
  })

  it('times out a slow server, naming the host and the limit', async () => {
    fake.on('/api/chat', () => true, { delayMs: 5_000, ...chatReply({ verdict: 'yes', n: 1 }) })
    const started = Date.now()
    const error = await ollamaJudge({ model: 'm', host: fake.host, timeoutMs: 150 })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'timeout' })
    expect((error as Error).message).toContain('within 150 ms')
    expect((error as Error).message).toContain(fake.host)
    expect(Date.now() - started).toBeLessThan(4_000)
    expect(fake.requests).toHaveLength(1)
  })

  it('times out even with a fetch that ignores the abort signal', async () => {
    const hanging = (() => new Promise<Response>(() => undefined)) as typeof fetch
    const error = await ollamaJudge({ model: 'm', host: fake.host, timeoutMs: 100, fetch: hanging })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'timeout' })
  })

  it('reports a refused connection as unreachable, naming the host and `ollama serve`', async () => {
    const closed = await startFakeOllama()
    const host = closed.host
    await closed.close()
    const error = await ollamaJudge({ model: 'm', host })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JudgeError)
    expect(error).toMatchObject({ kind: 'unreachable', info: { code: 'ECONNREFUSED' } })
    expect((error as Error).message).toContain(`Cannot reach Ollama at ${host} (ECONNREFUSED)`)
    expect((error as Error).message).toContain('`ollama serve`')
  })

  it('uses the injected fetch', async () => {
    fake.on('/api/chat', () => true, chatReply({ verdict: 'yes', n: 1 }))
    const seen: string[] = []
    const spy = ((input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      seen.push(String(input))
      return fetch(input, init)
    }) as typeof fetch
    await ollamaJudge({ model: 'm', host: fake.host, fetch: spy }).ask(request())
    expect(seen).toEqual([`${fake.host}/api/chat`])
  })

  it('keeps at most `concurrency` requests in flight', async () => {
    fake.on('/api/chat', () => true, { delayMs: 60, ...chatReply({ verdict: 'yes', n: 1 }) })
    let inFlight = 0
    let peak = 0
    const counting = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
      peak = Math.max(peak, ++inFlight)
      try {
        return await fetch(input, init)
      } finally {
        inFlight--
      }
    }) as typeof fetch
    const judge = ollamaJudge({ model: 'm', host: fake.host, concurrency: 2, fetch: counting })
    await Promise.all(Array.from({ length: 7 }, (_, i) => judge.ask(request(`q${i}`))))
    expect(fake.requests).toHaveLength(7)
    expect(peak).toBe(2)
  })

  it('shares one request between identical concurrent questions', async () => {
    fake.on('/api/chat', () => true, { delayMs: 30, ...chatReply({ verdict: 'yes', n: 1 }) })
    const judge = ollamaJudge({ model: 'm', host: fake.host })
    const [a, b] = await Promise.all([judge.ask(request()), judge.ask(request())])
    expect(a).toEqual(b)
    expect(fake.requests).toHaveLength(1)
  })

  it('rejects bad options with MetricInputError naming the option', () => {
    expect(() => ollamaJudge({ model: '' })).toThrow(new MetricInputError('ollamaJudge', 'model', 'a non-empty model tag such as `llama3.1:8b`', ''))
    expect(() => ollamaJudge({ model: 'm', host: 'localhost:11434' })).toThrow('Expected `host` to be an http(s) URL')
    expect(() => ollamaJudge({ model: 'm', temperature: -1 })).toThrow('Expected `temperature` to be a finite number ≥ 0')
    expect(() => ollamaJudge({ model: 'm', seed: 1.5 })).toThrow('Expected `seed` to be an integer')
    expect(() => ollamaJudge({ model: 'm', numCtx: 0 })).toThrow('Expected `numCtx` to be a positive integer')
    expect(() => ollamaJudge({ model: 'm', concurrency: 0 })).toThrow('Expected `concurrency` to be a positive integer')
    expect(() => ollamaJudge({ model: 'm', retries: -1 })).toThrow('Expected `retries` to be a non-negative integer')
    expect(() => ollamaJudge({ model: 'm', timeoutMs: 0 })).toThrow('Expected `timeoutMs` to be a positive number of milliseconds')
  })

  it('withCache derives the same judge with another cache', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-judge-with-cache-'))
    try {
      fake.on('/api/chat', () => true, chatReply({ verdict: 'yes', n: 1 }))
      const base = ollamaJudge({ model: 'm', host: fake.host, seed: 7 })
      expect(base.cache).toBeUndefined()
      const cache = judgeCache({ dir })
      const derived = base.withCache!(cache)
      expect(derived).toMatchObject({ id: 'ollama:m', model: 'm', seed: 7, cache })
      await derived.ask(request())
      expect((await derived.ask(request())).cached).toBe(true)
      expect((await base.ask(request())).cached).toBe(false)
      expect(fake.requests).toHaveLength(2)
      expect(() => base.withCache!({} as never)).toThrow('withCache: Expected `cache` to be a cache from judgeCache()')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('serves 100 recorded calls from the cache without the model (timing measured, not asserted)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-judge-speed-'))
    try {
      fake.on(
        '/api/chat',
        () => true,
        (req) => chatReply({ verdict: 'yes', n: Number(req.body.messages[1].content.slice(1)) }),
      )
      const record = ollamaJudge({ model: 'm', host: fake.host, cache: judgeCache({ dir }) })
      await Promise.all(Array.from({ length: 100 }, (_, i) => record.ask(request(`q${i}`))))
      expect(fake.requests).toHaveLength(100)

      const replay = ollamaJudge({ model: 'm', host: 'http://127.0.0.1:9', cache: judgeCache({ dir, mode: 'replay' }) })
      const started = performance.now()
      const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => replay.ask(request(`q${i}`))))
      const elapsed = performance.now() - started
      expect(replies.every((r, i) => r.cached && (r.value as { n: number }).n === i)).toBe(true)
      expect(fake.requests).toHaveLength(100)
      console.info(`[judge cache] 100 cached judge calls replayed in ${elapsed.toFixed(1)} ms`)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
