import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MetricInputError } from '../../../src/errors.js'
import { judgeCache, type JudgeCacheEntry } from '../../../src/judge/cache.js'
import { JudgeError } from '../../../src/judge/errors.js'
import { groundedness } from '../../../src/judge/metrics/groundedness.js'
import { ollamaJudge } from '../../../src/judge/ollama-judge.js'
import { openaiJudge } from '../../../src/judge/openai-judge.js'
import type { JsonSchema, JudgeRequest } from '../../../src/judge/types.js'
import { chatShapeProblems, completion, openAIError, startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js'
import { chatReply, useFakeOllama } from './helpers.js'
import { serverPerTest } from '../../helpers/scripted-server.js'

const schema: JsonSchema = {
  type: 'object',
  properties: { verdict: { type: 'string', enum: ['yes', 'no'] }, n: { type: 'integer' } },
  required: ['verdict', 'n'],
  additionalProperties: false,
}
const request = (prompt = 'Is it? Reply with JSON.'): JudgeRequest => ({ template: 'test.step@00000000', system: 'You judge.', prompt, schema })
const CHAT = '/v1/chat/completions'
const KEY = 'sk-test-123'

describe('openaiJudge', () => {
  let fake: FakeOpenAI
  serverPerTest(startFakeOpenAI, (started) => {
    fake = started
  })
  const judge = (options: Partial<Parameters<typeof openaiJudge>[0]> = {}) => openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, apiKey: KEY, ...options })
  const failure = (options: Partial<Parameters<typeof openaiJudge>[0]> = {}) =>
    judge(options)
      .ask(request())
      .then(
        () => {
          throw new Error('expected the call to fail')
        },
        (e: unknown) => e as JudgeError,
      )

  it('sends POST /chat/completions with response_format json_schema (strict), temperature, seed and the bearer key', async () => {
    fake.on(CHAT, () => true, completion({ verdict: 'yes', n: 1 }))
    const j = judge({ temperature: 0, seed: 7 })
    const reply = await j.ask(request())
    expect(reply).toMatchObject({ value: { verdict: 'yes', n: 1 }, raw: '{"verdict":"yes","n":1}', cached: false, seed: 7, attempts: 1 })
    expect(fake.requests).toHaveLength(1)
    const r = fake.requests[0]!
    expect(chatShapeProblems(r, { apiKey: KEY, temperature: 0, seed: 7 })).toEqual([])
    expect(r.body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'test_step_00000000', schema, strict: true } })
    expect(r.body.messages).toEqual([
      { role: 'system', content: 'You judge.' },
      { role: 'user', content: 'Is it? Reply with JSON.' },
    ])
    expect(j).toMatchObject({ id: `openai:gpt-4o-mini@${fake.host}`, model: 'gpt-4o-mini', temperature: 0, seed: 7 })
    expect(j.signatureExtras).toEqual([
      ['backend', 'openai'],
      ['host', fake.host],
      ['format', 'json_schema'],
    ])
  })

  it('passes custom headers, and sends no authorization header to a local server without a key', async () => {
    fake.on(CHAT, () => true, completion({ verdict: 'yes', n: 1 }))
    await judge({ apiKey: undefined, headers: { 'x-route': 'judge' } }).ask(request())
    const r = fake.requests[0]!
    expect(chatShapeProblems(r, {})).toEqual([])
    expect(r.headers['x-route']).toBe('judge')
  })

  it('a missing key for a non-local host is a clear error at call time, and replay still works without one', async () => {
    const remote = openaiJudge({ model: 'gpt-4o-mini', baseURL: 'https://api.example.com/v1' })
    const previous = process.env['OPENAI_API_KEY']
    delete process.env['OPENAI_API_KEY']
    try {
      const error = await openaiJudge({ model: 'gpt-4o-mini', baseURL: 'https://api.example.com/v1' })
        .ask(request())
        .catch((e: unknown) => e)
      expect(error).toMatchObject({ kind: 'config' })
      expect((error as Error).message).toContain('no API key for the OpenAI-compatible server at https://api.example.com/v1 (model gpt-4o-mini): set OPENAI_API_KEY')
      // Record against the "remote" host (a fetch that routes it to the fake), then replay with no key at all.
      fake.on(CHAT, () => true, completion({ verdict: 'yes', n: 1 }))
      const dir = await mkdtemp(join(tmpdir(), 'rag-openai-nokey-'))
      try {
        const toFake = ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
          fetch(String(input instanceof Request ? input.url : input).replace('https://api.example.com/v1', fake.baseURL), init)) as typeof fetch
        await openaiJudge({ model: 'gpt-4o-mini', baseURL: 'https://api.example.com/v1', apiKey: KEY, fetch: toFake, cache: judgeCache({ dir }) }).ask(request())
        const replayed = await openaiJudge({ model: 'gpt-4o-mini', baseURL: 'https://api.example.com/v1', cache: judgeCache({ dir, mode: 'replay' }) }).ask(request())
        expect(replayed).toMatchObject({ cached: true, value: { verdict: 'yes', n: 1 } })
        expect(fake.requests).toHaveLength(1)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    } finally {
      if (previous !== undefined) process.env['OPENAI_API_KEY'] = previous
    }
    expect(remote.id).toBe('openai:gpt-4o-mini@api.example.com')
  })

  it('accepts a dated snapshot of the requested alias, refuses another model', async () => {
    fake.on(CHAT, () => true, completion({ verdict: 'yes', n: 1 }, { model: 'gpt-4o-mini-2024-07-18' }), { times: 1 })
    expect((await judge().ask(request())).value).toEqual({ verdict: 'yes', n: 1 })
    fake.on(CHAT, () => true, completion({ verdict: 'yes', n: 1 }, { model: 'gpt-3.5-turbo' }))
    const error = await failure()
    expect(error).toMatchObject({ kind: 'wrong-model' })
    expect(error.message).toContain(`the OpenAI-compatible server at ${fake.baseURL} answered for model gpt-3.5-turbo, but the judge asked for gpt-4o-mini`)
  })

  it.each([
    [401, 'auth', 'Incorrect API key provided', 'rejected the request with HTTP 401'],
    [404, 'model-not-found', 'The model `gpt-4o-mini` does not exist', 'answered 404 for model gpt-4o-mini'],
    [400, 'http', 'Invalid value for messages', 'answered HTTP 400'],
  ])('HTTP %i is a %s error naming the server, the model and the cause, not retried', async (status, kind, serverMessage, phrase) => {
    fake.on(CHAT, () => true, openAIError(status, serverMessage))
    const error = await failure()
    expect(error).toBeInstanceOf(JudgeError)
    expect(error.kind).toBe(kind)
    expect(error.message).toContain(fake.baseURL)
    expect(error.message).toContain(phrase)
    expect(error.message).toContain(serverMessage)
    expect(fake.requests).toHaveLength(1)
  })

  it('429 honours Retry-After (bounded), then succeeds; persistent 429 is rate-limited', async () => {
    fake.on(CHAT, () => true, openAIError(429, 'Rate limit reached', { headers: { 'retry-after': '1' } }), { times: 1 })
    fake.on(CHAT, () => true, completion({ verdict: 'no', n: 2 }))
    const started = Date.now()
    expect(await judge().ask(request())).toMatchObject({ value: { verdict: 'no', n: 2 }, attempts: 2 })
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)

    const other = await startFakeOpenAI()
    try {
      other.on(CHAT, () => true, openAIError(429, 'Rate limit reached', { headers: { 'retry-after-ms': '20' } }))
      const error = await openaiJudge({ model: 'm', baseURL: other.baseURL, apiKey: KEY, retries: 2 })
        .ask(request())
        .catch((e: unknown) => e)
      expect(error).toMatchObject({ kind: 'rate-limited', info: { retryAfterMs: 20 } })
      expect((error as Error).message).toContain('rate-limited the judge with HTTP 429 (model m)')
      expect(other.requests).toHaveLength(3)
    } finally {
      await other.close()
    }
  })

  it('5xx is retried, then reported as a server error', async () => {
    fake.on(CHAT, () => true, openAIError(500, 'The server had an error', { type: 'server_error' }))
    const error = await failure({ retries: 1 })
    expect(error).toMatchObject({ kind: 'server' })
    expect(error.message).toContain('failed with HTTP 500 (model gpt-4o-mini)')
    expect(fake.requests).toHaveLength(2)
  })

  it('a refusal is reported as such, quoting it', async () => {
    fake.on(CHAT, () => true, completion(null, { refusal: "I'm sorry, I can't help with that." }))
    const error = await failure()
    expect(error).toMatchObject({ kind: 'refusal' })
    expect(error.message).toContain(`(model gpt-4o-mini) refused to judge: "I'm sorry, I can't help with that."`)
  })

  it('finish_reason length is a truncated reply, not a schema puzzle', async () => {
    fake.on(CHAT, () => true, completion('{"verdict": "ye', { finishReason: 'length' }))
    const error = await failure()
    expect(error).toMatchObject({ kind: 'truncated' })
    expect(error.message).toContain('cut the reply off (finish_reason: length)')
  })

  it('half a reply then a closed connection: "closed the connection", retried', async () => {
    fake.on(CHAT, () => true, { ...completion({ verdict: 'yes', n: 1 }), hangUpAfterBytes: 30 })
    const error = await failure({ retries: 1 })
    expect(error).toMatchObject({ kind: 'connection-closed' })
    expect(error.message).toContain('closed the connection before the reply was complete (model gpt-4o-mini')
    expect(error.message).not.toContain('Cannot reach')
    expect(fake.requests).toHaveLength(2)
  })

  it('a hanging server times out within timeoutMs, naming the server and the model', async () => {
    fake.on(CHAT, () => true, { ...completion({ verdict: 'yes', n: 1 }), delayMs: 5_000 })
    const started = Date.now()
    const error = await failure({ timeoutMs: 150 })
    expect(error).toMatchObject({ kind: 'timeout' })
    expect(error.message).toContain(`${fake.baseURL} did not answer within 150 ms (model gpt-4o-mini)`)
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('a refused connection says cannot connect', async () => {
    const closed = await startFakeOpenAI()
    await closed.close()
    const error = await openaiJudge({ model: 'm', baseURL: closed.baseURL })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'unreachable', info: { code: 'ECONNREFUSED' } })
    expect((error as Error).message).toContain(`Cannot reach the OpenAI-compatible server at ${closed.baseURL} (ECONNREFUSED): cannot connect (model m)`)
  })

  it('a server that ignores json_schema and answers plain text is asked with json_object next, and the signature says so', async () => {
    fake.on(CHAT, (b) => b.response_format?.type === 'json_schema', completion('The verdict is yes.'))
    fake.on(CHAT, (b) => b.response_format?.type === 'json_object', completion({ verdict: 'yes', n: 4 }))
    const j = judge()
    expect(await j.ask(request())).toMatchObject({ value: { verdict: 'yes', n: 4 }, attempts: 2 })
    expect(fake.requests.map((r) => r.body.response_format?.type)).toEqual(['json_schema', 'json_object'])
    expect(chatShapeProblems(fake.requests[1]!, { apiKey: KEY, mode: 'json_object' })).toEqual([])
    expect(j.signatureExtras).toContainEqual(['format', 'json_object'])
    // Sticky: the next question starts with json_object.
    await j.ask(request('Another? Reply with JSON.'))
    expect(fake.requests[2]!.body.response_format?.type).toBe('json_object')
  })

  it('a server that rejects json_schema with 400 gets json_object, then the prompt alone', async () => {
    fake.on(CHAT, (b) => b.response_format?.type === 'json_schema', openAIError(400, "response_format 'json_schema' is not supported"))
    fake.on(CHAT, (b) => b.response_format?.type === 'json_object', openAIError(400, 'response_format json_object is not supported by this model'))
    fake.on(CHAT, (b) => b.response_format === undefined, completion({ verdict: 'no', n: 0 }))
    const j = judge()
    expect((await j.ask(request())).value).toEqual({ verdict: 'no', n: 0 })
    expect(j.signatureExtras).toContainEqual(['format', 'prompt'])
    expect(chatShapeProblems(fake.requests[2]!, { apiKey: KEY, mode: 'prompt' })).toEqual([])
  })

  it('a server that always answers plain text fails with invalid-reply naming the server, the model and the reply', async () => {
    fake.on(CHAT, () => true, completion('Sure! The answer is yes.'))
    const error = await failure({ retries: 2 })
    expect(error).toMatchObject({ kind: 'invalid-reply' })
    expect(error.message).toContain(`Judge model gpt-4o-mini on the OpenAI-compatible server at ${fake.baseURL} gave no valid reply`)
    expect(error.message).toContain('not valid JSON')
    expect(error.message).toContain('"Sure! The answer is yes."')
    expect(fake.requests).toHaveLength(3)
  })

  it('retries a schema violation with the repair message, like ollamaJudge', async () => {
    fake.on(CHAT, () => true, completion({ verdict: 'maybe', n: 1 }), { times: 1 })
    fake.on(CHAT, () => true, completion({ verdict: 'no', n: 3 }))
    const reply = await judge().ask(request())
    expect(reply).toMatchObject({ value: { verdict: 'no', n: 3 }, attempts: 2 })
    const second = fake.requests[1]!.body.messages as Array<{ role: string; content: string }>
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user'])
    expect(second[3]?.content).toContain('$.verdict: expected one of "yes", "no", got "maybe"')
  })

  describe('cache', () => {
    let dir: string
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'rag-openai-cache-'))
    })
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    it('records backend, host and mode; replays without a server; never replays for another host or for Ollama', async () => {
      fake.on(CHAT, () => true, completion({ verdict: 'yes', n: 1 }))
      const first = await judge({ cache: judgeCache({ dir }) }).ask(request())
      const entry = JSON.parse(await readFile(join(dir, `${first.key}.json`), 'utf8')) as JudgeCacheEntry
      expect(entry.backend).toEqual({ kind: 'openai', host: fake.host })
      expect(entry.reply).toMatchObject({ model: 'gpt-4o-mini', mode: 'json_schema', attempts: 1 })

      const replay = openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, cache: judgeCache({ dir, mode: 'replay' }) })
      expect(await replay.ask(request())).toMatchObject({ cached: true, value: { verdict: 'yes', n: 1 } })
      expect(fake.requests).toHaveLength(1)

      const otherHost = openaiJudge({ model: 'gpt-4o-mini', baseURL: 'http://localhost:9/v1', cache: judgeCache({ dir, mode: 'replay' }) })
      await expect(otherHost.ask(request())).rejects.toMatchObject({ kind: 'cache-miss' })
      const ollama = ollamaJudge({ model: 'gpt-4o-mini', host: 'http://127.0.0.1:9', cache: judgeCache({ dir, mode: 'replay' }) })
      await expect(ollama.ask(request())).rejects.toMatchObject({ kind: 'cache-miss' })
      expect(await readdir(dir)).toEqual([`${first.key}.json`])
    })
  })

  it('signs groundedness with backend, host and the structured-output mode', async () => {
    fake.on(CHAT, (b) => b.response_format?.json_schema?.name?.includes('claims'), completion({ claims: ['Paris is in France.'] }))
    fake.on(CHAT, () => true, completion({ verdicts: [{ claim: 1, reason: 'Passage 1.', verdict: 'supported', context: 1 }] }))
    const score = await groundedness('Paris is in France.', ['Paris is a city in France.'], judge())
    expect(score.value).toBe(1)
    expect(score.signature).toMatch(new RegExp(`\\|model:gpt-4o-mini\\|temp:0\\|seed:42\\|backend:openai\\|host:${fake.host.replace(/\./g, '\\.')}\\|format:json_schema\\|`))
  })

  it('names the openai package when it is missing (injected importer), and loads it lazily', async () => {
    const missing = Object.assign(new Error("Cannot find package 'openai' imported from /x.js"), { code: 'ERR_MODULE_NOT_FOUND' })
    let imports = 0
    const j = judge({
      importer: () => {
        imports++
        return Promise.reject(missing)
      },
    })
    expect(imports).toBe(0)
    const error = await j.ask(request()).catch((e: unknown) => e)
    expect(imports).toBe(1)
    expect(error).toMatchObject({ kind: 'missing-package', info: { package: 'openai' } })
    expect((error as Error).message).toContain('openaiJudge needs the `openai` package, which is not installed: run `npm install --save-dev openai`')
    expect(fake.requests).toHaveLength(0)
  })

  it('rejects bad options with MetricInputError naming the option', () => {
    expect(() => openaiJudge({ model: '' })).toThrow(new MetricInputError('openaiJudge', 'model', 'a non-empty model name such as `gpt-4o-mini`', ''))
    expect(() => openaiJudge({ model: 'm', baseURL: 'localhost:8000' })).toThrow('Expected `baseURL` to be an http(s) URL')
    expect(() => openaiJudge({ model: 'm', temperature: -1 })).toThrow('Expected `temperature` to be a finite number ≥ 0')
    expect(() => openaiJudge({ model: 'm', retries: -1 })).toThrow('Expected `retries` to be a non-negative integer')
    expect(() => openaiJudge({ model: 'm', headers: { a: 1 as never } })).toThrow('Expected `headers` to be an object of string header values')
    expect(() => openaiJudge({ model: 'm', nope: 1 } as never)).toThrow(/nope/)
  })
})

describe('ollamaJudge and openaiJudge share one implementation', () => {
  const ollama = useFakeOllama()
  it('the same request gives the same validation, repair and messages on both', async () => {
    // the same token counts as the OpenAI fake's default usage (10 prompt, 5 completion per call)
    const tokens = { promptEvalCount: 10, evalCount: 5 }
    ollama.on('/api/chat', () => true, chatReply({ verdict: 'maybe', n: 1 }, undefined, tokens), { times: 1 })
    ollama.on('/api/chat', () => true, chatReply({ verdict: 'yes', n: 1 }, undefined, tokens))
    const fake = await startFakeOpenAI()
    try {
      fake.on(CHAT, () => true, completion({ verdict: 'maybe', n: 1 }), { times: 1 })
      fake.on(CHAT, () => true, completion({ verdict: 'yes', n: 1 }))
      const a = await ollamaJudge({ model: 'm', host: ollama.host }).ask(request())
      const b = await openaiJudge({ model: 'm', baseURL: fake.baseURL, apiKey: KEY }).ask(request())
      expect({ ...a, key: '' }).toEqual({ ...b, key: '' })
      expect(a.key).not.toBe(b.key)
      expect(ollama.requests[1]!.body.messages).toEqual(fake.requests[1]!.body.messages)
    } finally {
      await fake.close()
    }
  })
})
