import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../cli/main.js'
import { formatTestsetProgress, progressBar } from '../../cli/testset-progress.js'
import { runCli } from '../cli/run-cli.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { serverPerTest } from '../helpers/scripted-server.js'
import { passageOf } from './scripted-writer.js'

/** Six chunks, each with its own term; the writer asks about the chunk's ordinal and answers with its term. */
const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth']
const chunks = ORDINALS.map((_, i) => ({ id: `k${i}`, text: `Section ${i} of the manual defines the term zeta${i}q.` }))
const STEMS = ['What is defined', 'Which word names', 'Name the notion', 'Tell me the label', 'Which expression marks', 'Give the coined word']

function writer(delayMs: number, arrivals: number[] = []) {
  return (req: { body: any }) => {
    arrivals.push(performance.now())
    const i = Number(/Section (\d+)/.exec(passageOf(req.body))?.[1])
    const content = JSON.stringify({ question: `${STEMS[i]} in the ${ORDINALS[i]} section?`, answer: `It is zeta${i}q.`, keyword: `zeta${i}q` })
    return { body: { model: 'm', created_at: '2024-01-01T00:00:00Z', message: { role: 'assistant', content }, done: true }, delayMs }
  }
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-testset-progress-'))
  await writeFile(join(dir, 'chunks.jsonl'), chunks.map((c) => JSON.stringify(c)).join('\n') + '\n')
})
afterEach(async () => {
  vi.unstubAllEnvs()
  await rm(dir, { recursive: true, force: true })
})

const args = (host: string, ...more: string[]) => [
  'testset',
  'generate',
  '--chunks',
  join(dir, 'chunks.jsonl'),
  '--out',
  join(dir, 'qa.jsonl'),
  '--judge',
  'ollama:m',
  '--host',
  host,
  '--cache',
  join(dir, 'cache'),
  '-n',
  '6',
  '--kinds',
  'factual',
  ...more,
]

/** Runs the CLI with a stderr that says it is a terminal. */
async function onTerminal(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io = { stdout: { write: (c: string) => ((stdout += c), true) }, stderr: { isTTY: true, write: (c: string) => ((stderr += c), true) } }
  const code = await main(argv, io)
  return { code, stdout, stderr }
}

describe('testset generate: the progress bar', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })

  it('is drawn in place on a terminal and cleared before the summary', async () => {
    vi.stubEnv('CI', '')
    vi.stubEnv('RAG_PROGRESS', '')
    fake.on('/api/chat', () => true, writer(0))
    const result = await onTerminal(args(fake.host))
    expect(result.code).toBe(0)
    expect(result.stderr).toContain('\rtestset [------------------------] replies 0/6, kept 0 of 6 wanted\x1b[K')
    expect(result.stderr).toContain('\rtestset [########################] replies 6/6, kept 6 of 6 wanted\x1b[K')
    // Cleared at the end: the terminal is left on an empty line, and nothing else is written to stderr.
    expect(result.stderr.endsWith('\r\x1b[K')).toBe(true)
    expect(result.stderr.split('\r').filter((line) => line !== '' && !line.endsWith('\x1b[K'))).toEqual([])
    expect(result.stdout).toContain('kept 6 of 6 requested')
  })

  it('is not drawn when stderr is not a terminal, nor on a terminal under CI', async () => {
    fake.on('/api/chat', () => true, writer(0))
    const piped = await runCli(args(fake.host))
    expect(piped.code).toBe(0)
    expect(piped.stderr).toBe('')
    vi.stubEnv('CI', 'true')
    vi.stubEnv('RAG_PROGRESS', '')
    await rm(join(dir, 'cache'), { recursive: true })
    const ci = await onTerminal(args(fake.host))
    expect(ci.code).toBe(0)
    expect(ci.stderr).toBe('')
  })

  it('redraws at most every 100 ms, except when every reply asked for is back', () => {
    let text = ''
    let clock = 0
    const bar = progressBar({ write: (t: string) => (text += t) }, () => clock)
    bar.draw({ asked: 4, answered: 0, kept: 0, wanted: 4 })
    clock = 50
    bar.draw({ asked: 4, answered: 1, kept: 0, wanted: 4 })
    clock = 60
    bar.draw({ asked: 4, answered: 4, kept: 0, wanted: 4 })
    bar.end()
    expect(text.split('\r').filter(Boolean)).toEqual([
      `${formatTestsetProgress({ asked: 4, answered: 0, kept: 0, wanted: 4 })}\x1b[K`,
      `${formatTestsetProgress({ asked: 4, answered: 4, kept: 0, wanted: 4 })}\x1b[K`,
      '\x1b[K',
    ])
  })
})

describe('testset generate --concurrency', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })

  /**
   * The most requests that arrived within `delayMs` of one another. Each request is answered `delayMs`
   * after it arrives, so all requests arriving in such a window were in flight at once: a count above
   * the limit is a request sent over it.
   */
  const mostInFlight = (arrivals: readonly number[], delayMs: number) => Math.max(...arrivals.map((t) => arrivals.filter((u) => u >= t && u < t + delayMs).length))

  it.each([
    ['1', 1],
    ['3', 3],
  ])('--concurrency %s bounds the model calls in flight', async (flag, limit) => {
    const arrivals: number[] = []
    const delayMs = 400
    fake.on('/api/chat', () => true, writer(delayMs, arrivals))
    const result = await runCli(args(fake.host, '--concurrency', flag))
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(arrivals).toHaveLength(6)
    expect(mostInFlight(arrivals, delayMs)).toBeLessThanOrEqual(limit)
    // The one round of six questions is sent at once: the limit, not the sampling, holds them back.
    if (limit > 1) expect(mostInFlight(arrivals, delayMs)).toBeGreaterThan(1)
  })

  it('refuses a concurrency below 1 (usage)', async () => {
    const result = await runCli(args('http://127.0.0.1:9', '--concurrency', '0'))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('--concurrency needs an integer ≥ 1')
  })
})
