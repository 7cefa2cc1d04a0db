// Model detection for the example suite: it must answer with a reason, never throw, never hang, and
// reach nothing but the configured Ollama host. Offline: a closed port, a silent socket and the shared
// fake Ollama server on 127.0.0.1 stand in for real servers; Transformers.js is simulated.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { detectModels, detectOllama, detectTransformersModel, hasModel, resolveOllamaHost } from '../../examples/transformer-qa/models.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'

/** A port on 127.0.0.1 that nothing listens on: bound by us, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const notInstalled = async (name: string): Promise<never> => {
  const error = new Error(`Cannot find package '${name}' imported from /x`) as Error & { code: string }
  error.code = 'ERR_MODULE_NOT_FOUND'
  throw error
}

describe('resolveOllamaHost (OLLAMA_HOST as Ollama reads it)', () => {
  it.each([
    [undefined, 'http://127.0.0.1:11434'],
    ['', 'http://127.0.0.1:11434'],
    ['127.0.0.1:11434', 'http://127.0.0.1:11434'],
    ['localhost', 'http://localhost:11434'],
    ['0.0.0.0', 'http://127.0.0.1:11434'],
    ['0.0.0.0:8080', 'http://127.0.0.1:8080'],
    ['http://example.test:9999/', 'http://example.test:9999'],
    ['https://ollama.example.test', 'https://ollama.example.test'],
  ])('%j → %s', (raw, expected) => {
    expect(resolveOllamaHost(raw)).toBe(expected)
  })

  it('gives undefined for something that is not a host', () => {
    expect(resolveOllamaHost('ftp://x')).toBeUndefined()
    expect(resolveOllamaHost('http://[bad')).toBeUndefined()
  })
})

describe('hasModel', () => {
  it('treats a name without a tag as :latest, like `ollama pull`', () => {
    expect(hasModel(['nomic-embed-text:latest'], 'nomic-embed-text')).toBe(true)
    expect(hasModel(['llama3.1:8b'], 'llama3.1:8b')).toBe(true)
    expect(hasModel(['llama3.1:8b'], 'llama3.1')).toBe(false)
    expect(hasModel(['llama3.1:70b'], 'llama3.1:8b')).toBe(false)
    expect(hasModel(['Library/Model:Q4'], 'library/model:q4')).toBe(true)
    expect(hasModel([], 'x')).toBe(false)
  })
})

describe('detectOllama', () => {
  let fake: FakeOllama
  beforeEach(async () => {
    fake = await startFakeOllama()
  })
  afterEach(async () => {
    await fake.close()
  })

  it('nothing listening: not reachable, with the host and the error in the reason, at once', async () => {
    const port = await closedPort()
    const started = Date.now()
    const status = await detectOllama({ host: `127.0.0.1:${port}` })
    expect(Date.now() - started).toBeLessThan(1000)
    expect(status).toEqual({
      host: `http://127.0.0.1:${port}`,
      reachable: false,
      reason: `Ollama not reachable at http://127.0.0.1:${port} (ECONNREFUSED)`,
      models: [],
    })
  })

  it('a server that accepts but never answers: gives up at the deadline instead of hanging', async () => {
    const sockets = new Set<Socket>()
    const silent: Server = createServer((socket) => {
      sockets.add(socket)
    })
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as { port: number }).port
    try {
      const started = Date.now()
      const status = await detectOllama({ host: `http://127.0.0.1:${port}`, timeoutMs: 300 })
      const elapsed = Date.now() - started
      expect(elapsed).toBeGreaterThanOrEqual(250)
      expect(elapsed).toBeLessThan(2000)
      expect(status.reachable).toBe(false)
      expect(status.reason).toBe(`Ollama at http://127.0.0.1:${port} did not answer /api/version within 300 ms`)
    } finally {
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => silent.close(() => resolve()))
    }
  })

  it('a reachable server: version and pulled models, from /api/version and /api/tags only', async () => {
    fake.on('/api/tags', () => true, { body: { models: [{ name: 'llama3.1:8b', model: 'llama3.1:8b' }, { name: 'nomic-embed-text:latest' }] } })
    const status = await detectOllama({ host: fake.host })
    expect(status).toEqual({ host: fake.host, reachable: true, version: '0.0.0-fake', models: ['llama3.1:8b', 'nomic-embed-text:latest'] })
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/version', 'GET /api/tags'])
    expect(fake.unhandled).toEqual([])
  })

  it('a slow /api/tags counts against the same deadline', async () => {
    fake.on('/api/tags', () => true, { body: { models: [] }, delayMs: 5000 })
    const started = Date.now()
    const status = await detectOllama({ host: fake.host, timeoutMs: 300 })
    expect(Date.now() - started).toBeLessThan(2000)
    expect(status.reachable).toBe(true)
    expect(status.models).toEqual([])
    expect(status.modelsReason).toBe(`Ollama at ${fake.host} did not list its models within 300 ms`)
  })

  it('a server that is not Ollama, or a broken OLLAMA_HOST: a reason, not an exception', async () => {
    fake.on('/api/version', () => true, { status: 404, body: { error: 'not found' } })
    expect((await detectOllama({ host: fake.host })).reason).toBe(`Ollama not reachable at ${fake.host} (HTTP 404)`)
    expect(await detectOllama({ host: 'ftp://nope' })).toEqual({ host: 'ftp://nope', reachable: false, reason: 'OLLAMA_HOST="ftp://nope" is not a host or URL', models: [] })
  })
})

describe('detectTransformersModel (files only, no network)', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rag-example-models-'))
  })
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  const fakePackage = (env: Record<string, unknown>) => async (name: string) =>
    name === '@huggingface/transformers' ? { env: { version: '9.9.9', allowLocalModels: true, ...env } } : notInstalled(name)

  it('not installed: says so', async () => {
    const status = await detectTransformersModel({ importModule: notInstalled })
    expect(status).toEqual({
      model: 'Xenova/all-MiniLM-L6-v2',
      available: false,
      reason: 'Transformers.js is not installed (@huggingface/transformers, @xenova/transformers)',
      searched: [],
    })
  })

  it('installed, model files absent: "not in the local cache", with the folders it looked in', async () => {
    const status = await detectTransformersModel({ importModule: fakePackage({ localModelPath: join(dir, 'models'), cacheDir: join(dir, 'cache') }) })
    expect(status.available).toBe(false)
    expect(status.reason).toBe('Transformers.js model Xenova/all-MiniLM-L6-v2 not in the local cache')
    expect(status.searched).toEqual([join(dir, 'models', 'Xenova/all-MiniLM-L6-v2'), join(dir, 'cache', 'Xenova/all-MiniLM-L6-v2')])
  })

  it('found in the cache only when every file the fp32 pipeline loads is there', async () => {
    const model = join(dir, 'cache', 'Xenova', 'all-MiniLM-L6-v2')
    await mkdir(join(model, 'onnx'), { recursive: true })
    for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) await writeFile(join(model, f), '{}')
    const importModule = fakePackage({ localModelPath: join(dir, 'models'), cacheDir: join(dir, 'cache') })
    expect((await detectTransformersModel({ importModule })).available).toBe(false)
    await writeFile(join(model, 'onnx', 'model.onnx'), 'x')
    expect(await detectTransformersModel({ importModule })).toEqual({
      model: 'Xenova/all-MiniLM-L6-v2',
      available: true,
      package: '@huggingface/transformers 9.9.9',
      dir: join(dir, 'cache', 'Xenova/all-MiniLM-L6-v2'),
      searched: [join(dir, 'models', 'Xenova/all-MiniLM-L6-v2'), join(dir, 'cache', 'Xenova/all-MiniLM-L6-v2')],
    })
  })

  it('a package that fails to import: the reason, not an exception', async () => {
    const status = await detectTransformersModel({
      importModule: async () => {
        throw new Error('onnxruntime binding failed\nstack…')
      },
    })
    expect(status.reason).toBe('@huggingface/transformers could not be imported (onnxruntime binding failed)')
  })

  it('the real installed package: answers either way without throwing', async () => {
    const status = await detectTransformersModel()
    expect(typeof status.available).toBe('boolean')
    if (!status.available) expect(status.reason).toMatch(/Transformers\.js/)
  })
})

describe('detectModels', () => {
  it('nothing runs: both reasons, and it never throws or waits', async () => {
    const port = await closedPort()
    const host = `http://127.0.0.1:${port}`
    const started = Date.now()
    const report = await detectModels({ env: { OLLAMA_HOST: host }, transformers: { importModule: notInstalled } })
    expect(Date.now() - started).toBeLessThan(1500)
    expect(report.embedder).toEqual({
      available: false,
      reason: `no embedding model (Ollama not reachable at ${host} (ECONNREFUSED); Transformers.js is not installed (@huggingface/transformers, @xenova/transformers))`,
    })
    expect(report.judge).toEqual({ available: false, model: 'llama3.1:8b', reason: `no judge model (Ollama not reachable at ${host} (ECONNREFUSED))` })
  })

  describe('with a fake Ollama', () => {
    let fake: FakeOllama
    beforeEach(async () => {
      fake = await startFakeOllama()
    })
    afterEach(async () => {
      expect(fake.unhandled).toEqual([])
      await fake.close()
    })

    it('models pulled: the Ollama embedder and judge, on the configured host and models', async () => {
      fake.on('/api/tags', () => true, { body: { models: [{ name: 'qwen2.5:3b' }, { name: 'all-minilm:latest' }] } })
      const report = await detectModels({
        env: { OLLAMA_HOST: fake.host, RAG_MATCHERS_JUDGE_MODEL: 'qwen2.5:3b', OLLAMA_EMBED_MODEL: 'all-minilm' },
        transformers: { importModule: notInstalled },
      })
      expect(report.embedder.available && report.embedder.label).toBe(`Ollama all-minilm at ${fake.host}`)
      expect(report.embedder.available && report.embedder.create().id).toBe('ollama|model:all-minilm')
      expect(report.judge.available).toBe(true)
      const judge = report.judge.available ? report.judge.create() : undefined
      expect(judge?.id).toBe('ollama:qwen2.5:3b')
      // Only the probe went out; creating the embedder and judge sends nothing.
      expect(fake.requests.map((r) => r.path)).toEqual(['/api/version', '/api/tags'])
    })

    it('reachable but the models are not pulled: says which to pull', async () => {
      fake.on('/api/tags', () => true, { body: { models: [{ name: 'phi3:mini' }] } })
      const report = await detectModels({ env: { OLLAMA_HOST: fake.host }, transformers: { importModule: notInstalled } })
      expect(report.judge).toEqual({
        available: false,
        model: 'llama3.1:8b',
        reason: `no judge model (llama3.1:8b not pulled in Ollama at ${fake.host} (run \`ollama pull llama3.1:8b\`))`,
      })
      expect(report.embedder.available ? '' : report.embedder.reason).toBe(
        `no embedding model (nomic-embed-text not pulled in Ollama at ${fake.host} (run \`ollama pull nomic-embed-text\`); Transformers.js is not installed (@huggingface/transformers, @xenova/transformers))`,
      )
    })
  })

  it('prefers the cached Transformers.js model (the matchers’ default embedder), built offline-only', async () => {
    const port = await closedPort()
    const report = await detectModels({
      env: { OLLAMA_HOST: `127.0.0.1:${port}` },
      transformers: { importModule: async () => ({ env: {} }) },
    })
    // A package whose env has no folders cannot hold the model.
    expect(report.embedder.available).toBe(false)
    const dir = await mkdtemp(join(tmpdir(), 'rag-example-tf-'))
    try {
      const model = join(dir, 'Xenova', 'all-MiniLM-L6-v2')
      await mkdir(join(model, 'onnx'), { recursive: true })
      for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', join('onnx', 'model.onnx')]) await writeFile(join(model, f), '{}')
      const found = await detectModels({ env: { OLLAMA_HOST: `127.0.0.1:${port}` }, transformers: { importModule: async () => ({ env: { cacheDir: dir } }) } })
      expect(found.embedder.available && found.embedder.label).toBe('Transformers.js Xenova/all-MiniLM-L6-v2 (local cache)')
      expect(found.embedder.available && found.embedder.backend).toBe('transformers')
      expect(found.embedder.available && found.embedder.create().id).toBe('transformers.js|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32')
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })

  it('checkTransformers: false skips the package import entirely', async () => {
    const port = await closedPort()
    let imported = false
    const report = await detectModels({
      env: { OLLAMA_HOST: `127.0.0.1:${port}` },
      checkTransformers: false,
      transformers: {
        importModule: async () => {
          imported = true
          return {}
        },
      },
    })
    expect(imported).toBe(false)
    expect(report.transformers.reason).toBe('Transformers.js not checked')
  })
})
