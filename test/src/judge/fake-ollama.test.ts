import { Ollama } from 'ollama'
import { startFakeOllama, type FakeOllama } from '../../helpers/fake-ollama.js'

describe('fake-ollama test server', () => {
  let fake: FakeOllama
  beforeEach(async () => {
    fake = await startFakeOllama()
  })
  afterEach(async () => {
    await fake.close()
  })

  it('answers /api/version without a script and records the request', async () => {
    const client = new Ollama({ host: fake.host })
    await expect(client.version()).resolves.toEqual({ version: '0.0.0-fake' })
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/version'])
    expect(fake.unhandled).toEqual([])
  })

  it('serves scripted JSON replies, first match wins, and honours `times`', async () => {
    fake.on('/api/chat', (b) => b.model === 'm', { body: { message: { role: 'assistant', content: 'one' }, done: true } }, { times: 1 })
    fake.on(
      '/api/chat',
      () => true,
      (req) => ({ body: { message: { role: 'assistant', content: `two:${req.body.model}` }, done: true } }),
    )
    const client = new Ollama({ host: fake.host })
    const a = await client.chat({ model: 'm', messages: [] })
    const b = await client.chat({ model: 'm', messages: [] })
    expect([a.message.content, b.message.content]).toEqual(['one', 'two:m'])
    expect(fake.requests[0]?.body.model).toBe('m')
    expect(fake.unhandled).toEqual([])
  })

  it('streams NDJSON chunks', async () => {
    fake.on('/api/chat', () => true, {
      stream: [
        { message: { role: 'assistant', content: 'a' }, done: false },
        { message: { role: 'assistant', content: 'b' }, done: true },
      ],
    })
    const client = new Ollama({ host: fake.host })
    let text = ''
    for await (const part of await client.chat({ model: 'm', messages: [], stream: true })) text += part.message.content
    expect(text).toBe('ab')
  })

  it('returns error statuses, raw bodies and records unscripted requests', async () => {
    fake.on('/api/chat', (b) => b.model === 'missing', { status: 404, body: { error: 'model "missing" not found, try pulling it first' } })
    fake.on('/api/generate', () => true, { raw: '{not json' })
    const client = new Ollama({ host: fake.host })
    await expect(client.chat({ model: 'missing', messages: [] })).rejects.toMatchObject({ status_code: 404, message: expect.stringContaining('not found') })
    await expect(client.generate({ model: 'x', prompt: 'p' })).rejects.toThrow()
    await expect(client.embed({ model: 'x', input: 'p' })).rejects.toMatchObject({ status_code: 500, message: 'unscripted request' })
    expect(fake.unhandled.map((r) => r.path)).toEqual(['/api/embed'])
  })

  it('delays replies and survives a client that gives up', async () => {
    fake.on('/api/chat', () => true, { delayMs: 2_000, body: { done: true } })
    const res = fetch(`${fake.host}/api/chat`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(50) })
    await expect(res).rejects.toThrow()
  })
})
