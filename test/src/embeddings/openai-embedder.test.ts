import { openaiEmbedder } from '../../../src/embeddings/openai-embedder.js'
import { embeddingsReply, openAIError, startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js'
import { serverPerTest } from '../../helpers/scripted-server.js'

const EMBED = '/v1/embeddings'
const KEY = 'sk-embed'
/** Deterministic vectors from the text: [length, vowels, 1]. */
const vectorOf = (t: string): number[] => [t.length, [...t].filter((c) => 'aeiou'.includes(c)).length, 1]

describe('openaiEmbedder', () => {
  let fake: FakeOpenAI
  serverPerTest(startFakeOpenAI, (started) => {
    fake = started
  })
  const embedder = (options: Partial<Parameters<typeof openaiEmbedder>[0]> = {}) =>
    openaiEmbedder({ model: 'text-embedding-3-small', baseURL: fake.baseURL, apiKey: KEY, ...options })

  it('posts batches to /embeddings with float encoding, places vectors by index, and names model and host in its id', async () => {
    fake.on(
      EMBED,
      () => true,
      (req) => embeddingsReply((req.body.input as string[]).map(vectorOf), { reverse: true }),
    )
    const e = embedder({ batchSize: 2, dimensions: 3 })
    expect(e.id).toBe(`openai|model:text-embedding-3-small|host:${fake.host}|dims:3`)
    const vectors = await e.embed(['a', 'bee', 'cat', 'dodo', 'e'])
    expect(vectors.map((v) => Array.from(v))).toEqual(['a', 'bee', 'cat', 'dodo', 'e'].map(vectorOf))
    expect(fake.requests.map((r) => r.body.input)).toEqual([['a', 'bee'], ['cat', 'dodo'], ['e']])
    expect(fake.requests[0]!.body).toMatchObject({ model: 'text-embedding-3-small', encoding_format: 'float', dimensions: 3 })
    expect(fake.requests[0]!.headers['authorization']).toBe(`Bearer ${KEY}`)
  })

  it('refuses vectors for another model, a missing index, and non-finite values', async () => {
    fake.on(EMBED, () => true, embeddingsReply([[1, 2]], { model: 'text-embedding-ada-002' }), { times: 1 })
    await expect(embedder().embed(['x'])).rejects.toMatchObject({ kind: 'bad-response', message: expect.stringContaining('answered for model "text-embedding-ada-002"') })
    fake.on(
      EMBED,
      () => true,
      {
        body: {
          object: 'list',
          model: 'text-embedding-3-small',
          data: [
            { index: 0, embedding: [1] },
            { index: 0, embedding: [2] },
          ],
        },
      },
      { times: 1 },
    )
    await expect(embedder().embed(['x', 'y'])).rejects.toMatchObject({ kind: 'bad-response', message: expect.stringContaining('index 0 for a batch of 2') })
    fake.on(EMBED, () => true, { body: { object: 'list', model: 'text-embedding-3-small', data: [{ index: 0, embedding: [1, null] }] } }, { times: 1 })
    await expect(embedder().embed(['x'])).rejects.toMatchObject({ kind: 'bad-response' })
  })

  it.each([
    [404, 'model-not-found', 'answered 404 for model "text-embedding-3-small"'],
    [401, 'auth', 'rejected the request with HTTP 401'],
    [500, 'server-error', 'answered HTTP 500 for model "text-embedding-3-small"'],
  ])('HTTP %i is %s, naming the server', async (status, kind, phrase) => {
    fake.on(EMBED, () => true, openAIError(status, 'nope'))
    const error = await embedder()
      .embed(['x'])
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'EmbeddingError', kind })
    expect((error as Error).message).toContain(phrase)
    expect((error as Error).message).toContain(fake.baseURL)
  })

  it('times out, reports a refused connection, a connection closed mid-reply, and a missing key for a remote host', async () => {
    fake.on(EMBED, () => true, { ...embeddingsReply([[1]]), delayMs: 5_000 }, { times: 1 })
    await expect(embedder({ timeoutMs: 100 }).embed(['x'])).rejects.toMatchObject({ kind: 'timeout', message: expect.stringContaining('within timeoutMs (100 ms)') })
    fake.on(EMBED, () => true, { ...embeddingsReply([[1, 2, 3]]), hangUpAfterBytes: 20 }, { times: 1 })
    await expect(embedder().embed(['x'])).rejects.toMatchObject({
      kind: 'unreachable',
      message: expect.stringContaining('closed the connection before the reply was complete'),
    })
    const closed = await startFakeOpenAI()
    await closed.close()
    await expect(openaiEmbedder({ model: 'm', baseURL: closed.baseURL }).embed(['x'])).rejects.toMatchObject({
      kind: 'unreachable',
      message: expect.stringContaining(`cannot reach the OpenAI-compatible server at ${closed.baseURL}`),
    })
    const previous = process.env['OPENAI_API_KEY']
    delete process.env['OPENAI_API_KEY']
    try {
      await expect(openaiEmbedder({ model: 'm', baseURL: 'https://api.example.com/v1' }).embed(['x'])).rejects.toMatchObject({
        kind: 'auth',
        message: expect.stringContaining('no API key for the OpenAI-compatible server at https://api.example.com/v1'),
      })
    } finally {
      if (previous !== undefined) process.env['OPENAI_API_KEY'] = previous
    }
  })

  it('names the openai package when it is missing, and never loads it before the first embed', async () => {
    let imports = 0
    const e = embedder({
      importer: () => {
        imports++
        return Promise.reject(Object.assign(new Error("Cannot find module 'openai'"), { code: 'MODULE_NOT_FOUND' }))
      },
    })
    expect(imports).toBe(0)
    await expect(e.embed(['x'])).rejects.toMatchObject({ kind: 'missing-package', message: expect.stringContaining('openaiEmbedder needs the `openai` package') })
    expect(imports).toBe(1)
  })

  it('rejects bad options', () => {
    expect(() => openaiEmbedder({ model: '' })).toThrow('Expected `model` to be an embedding model name')
    expect(() => openaiEmbedder({ model: 'm', batchSize: 0 })).toThrow(/batchSize/)
    expect(() => openaiEmbedder({ model: 'm', baseURL: 'x' })).toThrow(/baseURL/)
    expect(() => openaiEmbedder({ model: 'm', other: 1 } as never)).toThrow(/other/)
  })
})
