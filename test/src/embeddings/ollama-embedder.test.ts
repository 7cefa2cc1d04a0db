import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { EmbeddingError } from '../../../src/embeddings/errors.js'
import { ollamaEmbedder } from '../../../src/embeddings/ollama-embedder.js'
import { semanticSimilarity } from '../../../src/embeddings/semantic-similarity.js'
import { startFakeOllama, type FakeOllama } from '../../helpers/fake-ollama.js'

/** A deterministic 3-d vector per text, so answers can be checked position by position. */
const vectorOf = (text: string): number[] => [text.length, text.charCodeAt(0) || 0, 1]

function answerEmbed(server: FakeOllama, model = 'nomic-embed-text'): void {
  server.on(
    '/api/embed',
    (body) => body?.model === model,
    (req) => ({ body: { model, embeddings: (req.body.input as string[]).map(vectorOf) } }),
  )
}

let server: FakeOllama
beforeEach(async () => {
  server = await startFakeOllama()
})
afterEach(async () => {
  expect(server.unhandled).toEqual([])
  await server.close()
})

/** A port nothing listens on: bind one, read it, close it. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
  const { port } = probe.address() as AddressInfo
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}

async function failure(promise: Promise<unknown>): Promise<EmbeddingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(EmbeddingError)
  return error as EmbeddingError
}

describe('ollamaEmbedder', () => {
  it('posts { model, input: [...] } to /api/embed and returns one Float32Array per text, in order', async () => {
    answerEmbed(server)
    const embedder = ollamaEmbedder({ host: server.host })
    const vectors = await embedder.embed(['a cat', 'the dog'])
    expect(vectors.map((v) => Array.from(v))).toEqual([vectorOf('a cat'), vectorOf('the dog')])
    expect(vectors[0]).toBeInstanceOf(Float32Array)
    expect(server.requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'POST', path: '/api/embed', body: { model: 'nomic-embed-text', input: ['a cat', 'the dog'] } },
    ])
  })

  it('sends batches of batchSize texts and keeps the order across batches', async () => {
    answerEmbed(server, 'mxbai-embed-large')
    const embedder = ollamaEmbedder({ host: server.host, model: 'mxbai-embed-large', batchSize: 2 })
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee']
    const vectors = await embedder.embed(texts)
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3, 4, 5])
    expect(server.requests.map((r) => r.body.input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']])
  })

  it('passes dimensions and keep_alive when set, and records dimensions in the id', async () => {
    answerEmbed(server)
    const embedder = ollamaEmbedder({ host: server.host, dimensions: 3, keepAlive: '10m' })
    expect(embedder.id).toBe('ollama|model:nomic-embed-text|dims:3')
    await embedder.embed(['x'])
    expect(server.requests[0]?.body).toEqual({ model: 'nomic-embed-text', input: ['x'], dimensions: 3, keep_alive: '10m' })
  })

  it('works end to end in semanticSimilarity, with the model in the signature', async () => {
    answerEmbed(server)
    const score = await semanticSimilarity('ab', 'ab', ollamaEmbedder({ host: server.host }))
    expect(score.value).toBe(1)
    expect(score.signature).toBe('EmbedSim|model:nomic-embed-text|backend:ollama|sim:cos|rescale:none|version:0.1.0')
    expect(server.requests).toHaveLength(1) // both texts in one request
  })

  it('404: says the model is not pulled and how to pull it', async () => {
    server.on('/api/embed', () => true, { status: 404, body: { error: 'model "nomic-embed-text" not found, try pulling it first' } })
    const error = await failure(ollamaEmbedder({ host: server.host }).embed(['x']))
    expect(error.kind).toBe('model-not-found')
    expect(error.message).toContain('`ollama pull nomic-embed-text`')
    expect(error.message).toContain(server.host)
  })

  it('connection refused: names the host and says `ollama serve`', async () => {
    const host = `http://127.0.0.1:${await closedPort()}`
    const error = await failure(ollamaEmbedder({ host }).embed(['x']))
    expect(error.kind).toBe('unreachable')
    expect(error.message).toContain(`cannot reach Ollama at ${host}`)
    expect(error.message).toContain('ECONNREFUSED')
    expect(error.message).toContain('`ollama serve`')
  })

  it('a slow reply times out after timeoutMs', async () => {
    server.on('/api/embed', () => true, { delayMs: 5_000, body: { embeddings: [[1]] } })
    const started = Date.now()
    const error = await failure(ollamaEmbedder({ host: server.host, timeoutMs: 100 }).embed(['x']))
    expect(error.kind).toBe('timeout')
    expect(error.message).toContain('timeoutMs (100 ms)')
    expect(Date.now() - started).toBeLessThan(4_000)
  })

  it('5xx: a server error with the status and the server message', async () => {
    server.on('/api/embed', () => true, { status: 500, body: { error: 'llama runner process has terminated' } })
    const error = await failure(ollamaEmbedder({ host: server.host }).embed(['x']))
    expect(error.kind).toBe('server-error')
    expect(error.message).toContain('answered 500')
    expect(error.message).toContain('llama runner process has terminated')
  })

  it('an answer without one vector per text is a bad response, never a score', async () => {
    server.on('/api/embed', () => true, { body: { model: 'nomic-embed-text', embeddings: [[1, 2]] } }, { times: 1 })
    server.on('/api/embed', () => true, { body: { model: 'nomic-embed-text', embeddings: [[1, 'x']] } }, { times: 1 })
    server.on('/api/embed', () => true, { raw: '{"embeddings": [[1,' }, { times: 1 })
    const embedder = ollamaEmbedder({ host: server.host })
    expect((await failure(embedder.embed(['a', 'b']))).message).toContain('expected 2 vector(s), one per text, got 1 vectors')
    expect((await failure(embedder.embed(['a']))).kind).toBe('bad-response')
    expect((await failure(embedder.embed(['a']))).kind).toBe('bad-response')
  })

  it('refuses vectors from another model; names a connection closed mid-reply and a redirect loop (issue #13)', async () => {
    server.on('/api/embed', () => true, { body: { model: 'all-minilm:latest', embeddings: [[1, 2]] } }, { times: 1 })
    const embedder = ollamaEmbedder({ host: server.host })
    const wrong = await failure(embedder.embed(['a']))
    expect(wrong.kind).toBe('bad-response')
    expect(wrong.message).toContain('answered for model "all-minilm:latest", but the embedder asked for "nomic-embed-text"')
    server.on('/api/embed', () => true, { body: { model: 'nomic-embed-text', embeddings: [[1, 2, 3]] }, hangUpAfterBytes: 20 }, { times: 1 })
    const closed = await failure(embedder.embed(['a']))
    expect(closed.message).toContain(`Ollama at ${server.host} closed the connection before the reply was complete`)
    server.on('/api/embed', () => true, { status: 302, headers: { location: '/api/embed' }, body: {} })
    const before = server.requests.length
    const loop = await failure(embedder.embed(['a']))
    expect(loop.message).toContain('redirected more than 5 times')
    expect(server.requests.length - before).toBe(6)
  })

  it('uses the fetch it is given, with an abort signal', async () => {
    answerEmbed(server)
    const seen: Array<AbortSignal | null | undefined> = []
    const spy: typeof fetch = (input, init) => {
      seen.push(init?.signal)
      return fetch(input, init)
    }
    await ollamaEmbedder({ host: server.host, fetch: spy }).embed(['x'])
    expect(seen).toHaveLength(1)
    expect(seen[0]).toBeInstanceOf(AbortSignal)
  })

  it('refuses malformed options', () => {
    expect(() => ollamaEmbedder({ batchSize: 0 })).toThrow('ollamaEmbedder: Expected `batchSize` to be a positive integer, got `0` (number)')
    expect(() => ollamaEmbedder({ model: '' })).toThrow(/`model`/)
    expect(() => ollamaEmbedder({ timeoutMs: -1 })).toThrow(/`timeoutMs`/)
  })
})
