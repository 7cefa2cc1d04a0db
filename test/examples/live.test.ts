// `npm run example -- --live` without a real model: answer generation against the shared fake Ollama
// server, the refusal when no server runs, and the wiring through examples/run-example.mjs.
import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildAnswerMessages, generateLiveAnswers, LIVE_OPTIONS, prepareLiveRun } from '../../examples/transformer-qa/live.js'
import { BM25_LABEL, loadEvalSet, loadPassages, retrieveEvalSet } from '../../examples/transformer-qa/pipeline.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** The question a chat request asks (last line of the user message). */
const questionOf = (body: any): string => String(body?.messages?.[1]?.content ?? '').split('\nQuestion: ')[1] ?? ''
const chatReply = (model: string, content: string) => ({ body: { model, created_at: '2024-01-01T00:00:00Z', message: { role: 'assistant', content }, done: true } })

let fake: FakeOllama
let dir: string
beforeEach(async () => {
  fake = await startFakeOllama()
  dir = await mkdtemp(join(tmpdir(), 'rag-example-live-'))
})
afterEach(async () => {
  await fake.close()
  await rm(dir, { recursive: true, force: true })
})

describe('buildAnswerMessages', () => {
  it('numbers the retrieved passages in rank order, then asks the question', () => {
    const [system, user] = buildAnswerMessages('How many layers?', [
      { id: 'encoder-p1', score: 2, text: 'The encoder is a stack of N = 6 identical layers.' },
      { id: 'decoder-p1', score: 1, text: 'The decoder also stacks six identical layers.' },
    ])
    expect(system!.role).toBe('system')
    expect(system!.content).toMatch(/Use only the numbered context passages/)
    expect(user).toEqual({
      role: 'user',
      content: 'Context passages:\n[1] The encoder is a stack of N = 6 identical layers.\n[2] The decoder also stacks six identical layers.\n\nQuestion: How many layers?',
    })
  })
})

describe('generateLiveAnswers', () => {
  it('asks /api/chat once per question (temperature 0, seed 42, contexts in the prompt) and writes the file', async () => {
    fake.on(
      '/api/chat',
      () => true,
      (req) => chatReply('m:1b', `  Answer to: ${questionOf(req.body)}\n`),
    )
    const run = await retrieveEvalSet({ retriever: 'bm25' })
    const items = run.evalSet.map((item, i) => ({ id: item.id, question: item.question, contexts: run.results[i]! }))
    const out = join(dir, 'nested', 'answers.live.json')
    const lines: string[] = []
    const result = await generateLiveAnswers({ host: fake.host, model: 'm:1b', out, retriever: run.retriever, items, log: (l) => lines.push(l) })

    const written = JSON.parse(await readFile(out, 'utf8'))
    expect(written).toEqual(result)
    expect(written.model).toBe('m:1b')
    expect(written.retriever).toBe(BM25_LABEL)
    expect(written.options).toEqual({ temperature: 0, seed: 42 })
    expect(Number.isNaN(Date.parse(written.generatedAt))).toBe(false)
    expect(written.answers).toEqual(Object.fromEntries(items.map((it) => [it.id, `Answer to: ${it.question}`])))
    expect(lines).toHaveLength(items.length)

    expect(fake.unhandled).toEqual([])
    expect(fake.requests).toHaveLength(items.length)
    fake.requests.forEach((req, i) => {
      const item = items[i]!
      expect(req.method).toBe('POST')
      expect(req.path).toBe('/api/chat')
      expect(req.body.model).toBe('m:1b')
      expect(req.body.stream).toBe(false)
      expect(req.body.options).toEqual(LIVE_OPTIONS)
      expect(req.body.messages).toEqual(buildAnswerMessages(item.question, item.contexts))
      // The answering passage BM25 found is in the prompt.
      for (const context of item.contexts) expect(req.body.messages[1].content).toContain(context.text)
    })
  })

  it('an empty reply or an HTTP error fails naming the question', async () => {
    const items = [{ id: 'q1', question: 'Why?', contexts: [] }]
    fake.on('/api/chat', () => true, chatReply('m', '   '), { times: 1 })
    await expect(generateLiveAnswers({ host: fake.host, model: 'm', out: join(dir, 'a.json'), retriever: 'x', items, log: () => {} })).rejects.toThrow(
      'live answer for "q1": m returned an empty answer',
    )
    fake.on('/api/chat', () => true, { status: 404, body: { error: 'model "m" not found, try pulling it first' } })
    await expect(generateLiveAnswers({ host: fake.host, model: 'm', out: join(dir, 'a.json'), retriever: 'x', items, log: () => {} })).rejects.toThrow(
      /live answer for "q1" failed: model "m" not found/,
    )
  })

  it('rejects malformed options with MetricInputError', async () => {
    await expect(generateLiveAnswers({ host: 'localhost', model: 'm', retriever: 'x', items: [{ id: 'a', question: 'q', contexts: [] }] })).rejects.toThrow(
      'generateLiveAnswers: Expected `host` to be an http(s) URL',
    )
    await expect(generateLiveAnswers({ host: fake.host, model: 'm', retriever: 'x', items: [] })).rejects.toThrow(/Expected `items` to be a non-empty array/)
  })
})

describe('prepareLiveRun (the --live step)', () => {
  it('with the model pulled: retrieves with BM25, generates every answer and writes the file', async () => {
    fake.on('/api/tags', () => true, { body: { models: [{ name: 'llama3.1:8b' }] } })
    fake.on(
      '/api/chat',
      (body) => body.model === 'llama3.1:8b',
      (req) => chatReply('llama3.1:8b', `Live: ${questionOf(req.body)}`),
    )
    const out = join(dir, 'answers.live.json')
    const lines: string[] = []
    const code = await prepareLiveRun({ env: { OLLAMA_HOST: fake.host }, out, log: (l) => lines.push(l) })
    expect(code).toBe(0)
    const written = JSON.parse(await readFile(out, 'utf8'))
    const evalSet = loadEvalSet()
    expect(Object.keys(written.answers)).toEqual(evalSet.map((e) => e.id))
    expect(written.answers['layers']).toBe(`Live: ${evalSet.find((e) => e.id === 'layers')!.question}`)
    expect(written.retriever).toBe(BM25_LABEL)
    expect(lines[0]).toBe(`--live: answering ${evalSet.length} questions with llama3.1:8b at ${fake.host} (temperature 0, seed 42); retriever: ${BM25_LABEL}`)
    expect(lines.at(-1)).toBe(`--live: wrote ${out}; the suite uses it for this run.`)
    expect(fake.unhandled).toEqual([])
    // The prompt carries the passage that holds the answer (BM25 finds it in the top 5).
    const passages = new Map(loadPassages().map((p) => [p.id, p.text]))
    const layersChat = fake.requests.find((r) => r.path === '/api/chat' && questionOf(r.body) === evalSet.find((e) => e.id === 'layers')!.question)!
    expect(layersChat.body.messages[1].content).toContain(passages.get('encoder-p1'))
  })

  it('RAG_MATCHERS_ANSWER_MODEL picks the model; a model that is not pulled is refused with the pull command', async () => {
    fake.on('/api/tags', () => true, { body: { models: [{ name: 'llama3.1:8b' }] } })
    const lines: string[] = []
    const code = await prepareLiveRun({ env: { OLLAMA_HOST: fake.host, RAG_MATCHERS_ANSWER_MODEL: 'qwen2.5:3b' }, out: join(dir, 'x.json'), log: (l) => lines.push(l) })
    expect(code).toBe(1)
    expect(lines.join('\n')).toBe(
      `--live: Ollama at ${fake.host} does not have qwen2.5:3b.\nRun \`ollama pull qwen2.5:3b\`, or choose a pulled model with RAG_MATCHERS_ANSWER_MODEL (\`ollama list\`).`,
    )
    expect(fake.requests.some((r) => r.path === '/api/chat')).toBe(false)
  })

  it('no server: exits 1 at once with what to do, and writes nothing', async () => {
    const port = await closedPort()
    const lines: string[] = []
    const started = Date.now()
    const out = join(dir, 'never.json')
    const code = await prepareLiveRun({ env: { OLLAMA_HOST: `127.0.0.1:${port}` }, out, log: (l) => lines.push(l) })
    expect(code).toBe(1)
    expect(Date.now() - started).toBeLessThan(1500)
    expect(lines.join('\n')).toBe(
      `--live needs a running Ollama server: Ollama not reachable at http://127.0.0.1:${port} (ECONNREFUSED).\n` +
        'Start it with `ollama serve` (and `ollama pull llama3.1:8b`), or set OLLAMA_HOST; or run without --live to use the recorded answers.',
    )
    await expect(readFile(out)).rejects.toThrow(/ENOENT/)
  })
})

describe('examples/run-example.mjs --live', () => {
  it('without a server it exits non-zero with the message, before running the suite', async () => {
    const port = await closedPort()
    const env: NodeJS.ProcessEnv = { ...process.env, OLLAMA_HOST: `127.0.0.1:${port}`, NO_COLOR: '1' }
    delete env['RAG_MATCHERS_EXAMPLE_LIVE']
    const child = spawn(process.execPath, [join(process.cwd(), 'examples', 'run-example.mjs'), '--live'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(code).toBe(1)
    expect(output).toContain(`--live needs a running Ollama server: Ollama not reachable at http://127.0.0.1:${port} (ECONNREFUSED).`)
    // Vitest never started the suite.
    expect(output).not.toMatch(/Test Files/)
  }, 60_000)
})
