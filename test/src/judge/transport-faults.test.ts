// Issue #13 (judge part): each wire fault gets its own message: cannot connect, closed mid-reply,
// too many redirects (bounded), model not found.
import { JudgeError } from '../../../src/judge/errors.js'
import { ollamaJudge } from '../../../src/judge/ollama-judge.js'
import { classifyNetworkError, MAX_REDIRECTS } from '../../../src/judge/transport.js'
import type { JsonSchema, JudgeRequest } from '../../../src/judge/types.js'
import { startFakeOllama } from '../../helpers/fake-ollama.js'
import { chatReply, useFakeOllama } from './helpers.js'

const schema: JsonSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
const request: JudgeRequest = { template: 'test.step@00000000', system: 'You judge.', prompt: 'Is it?', schema }

describe('judge transport faults (Ollama)', () => {
  const fake = useFakeOllama()

  it('a server that sends half a reply and closes: "closed the connection", not "cannot reach"; retried, then reported', async () => {
    fake.on('/api/chat', () => true, { ...chatReply({ ok: true }), hangUpAfterBytes: 40 })
    const error = await ollamaJudge({ model: 'm', host: fake.host, retries: 1 })
      .ask(request)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JudgeError)
    expect(error).toMatchObject({ kind: 'connection-closed' })
    const message = (error as Error).message
    expect(message).toContain(`Ollama at ${fake.host} closed the connection before the reply was complete (model m`)
    expect(message).toContain('The server was reached')
    expect(message).not.toContain('Cannot reach')
    expect(message).not.toContain('ollama serve`, or point')
    expect(fake.requests).toHaveLength(2)
  })

  it('recovers when the retry gets the whole reply', async () => {
    fake.on('/api/chat', () => true, { ...chatReply({ ok: true }), hangUpAfterBytes: 10 }, { times: 1 })
    fake.on('/api/chat', () => true, chatReply({ ok: true }))
    expect(await ollamaJudge({ model: 'm', host: fake.host }).ask(request)).toMatchObject({ value: { ok: true }, attempts: 2 })
  })

  it(`a redirect loop stops after ${MAX_REDIRECTS} redirects with "redirected more than ${MAX_REDIRECTS} times"`, async () => {
    fake.on('/api/chat', () => true, { status: 307, headers: { location: '/api/chat' }, body: {} })
    const error = await ollamaJudge({ model: 'm', host: fake.host })
      .ask(request)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'redirects' })
    expect((error as Error).message).toContain(`Ollama at ${fake.host} redirected more than ${MAX_REDIRECTS} times (model m)`)
    expect(fake.requests).toHaveLength(MAX_REDIRECTS + 1)
  })

  it('follows a short redirect chain, keeping method and body on 307', async () => {
    const target = await startFakeOllama()
    try {
      target.on('/api/chat', (body) => body?.model === 'm', chatReply({ ok: true }))
      fake.on('/api/chat', () => true, { status: 307, headers: { location: `${target.host}/api/chat` }, body: {} })
      expect((await ollamaJudge({ model: 'm', host: fake.host }).ask(request)).value).toEqual({ ok: true })
      expect(target.requests).toHaveLength(1)
      expect(target.unhandled).toEqual([])
    } finally {
      await target.close()
    }
  })

  it('a refused connection says "cannot connect"', async () => {
    const closed = await startFakeOllama()
    await closed.close()
    const error = await ollamaJudge({ model: 'm', host: closed.host, retries: 3 })
      .ask(request)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'unreachable', info: { code: 'ECONNREFUSED' } })
    expect((error as Error).message).toContain(`Cannot reach Ollama at ${closed.host} (ECONNREFUSED): cannot connect`)
  })

  it('a 404 says the model is not found', async () => {
    fake.on('/api/chat', () => true, { status: 404, body: { error: 'model "m" not found, try pulling it first' } })
    const error = await ollamaJudge({ model: 'm', host: fake.host })
      .ask(request)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'model-not-found' })
    expect((error as Error).message).toContain('answered 404 for model m')
  })

  it('classifyNetworkError walks the cause chain', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }) })
    expect(classifyNetworkError(refused)).toEqual({ kind: 'connect', code: 'ECONNREFUSED' })
    const closed = Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }) })
    expect(classifyNetworkError(closed)).toEqual({ kind: 'closed', code: 'UND_ERR_SOCKET' })
    expect(classifyNetworkError(new Error('something else'))).toBeUndefined()
  })
})
