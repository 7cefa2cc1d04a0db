// The example's generated eval set (examples/transformer-qa/testset): the committed replay cache
// regenerates the committed file byte for byte with no model; the same seed and cache give the same
// bytes, another seed samples other passages; and `npm run example` runs the suite on it.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { GENERATED_SET, generateExampleSet, RECORDED_CACHE } from '../../examples/transformer-qa/testset/generate.js'
import { ollamaReply } from '../../examples/transformer-qa/testset/record.js'
import { summaryPath } from '../../cli/testset.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { serverPerTest } from '../helpers/scripted-server.js'

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const quiet = () => {
  let stdout = ''
  let stderr = ''
  return { io: { stdout: { write: (c: string) => ((stdout += c), true) }, stderr: { write: (c: string) => ((stderr += c), true) } }, out: () => ({ stdout, stderr }) }
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rag-example-generated-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the example generated set', () => {
  it('the committed cache regenerates the committed file and its summary byte for byte, twice, with no model', async () => {
    const committed = await readFile(GENERATED_SET, 'utf8')
    const hashes: string[] = []
    for (const name of ['one.jsonl', 'two.jsonl']) {
      const { io, out } = quiet()
      // generateExampleSet replays with --host http://127.0.0.1:9, where nothing listens: a request would fail the run.
      expect(await generateExampleSet({ out: join(dir, name), io })).toBe(0)
      expect(out().stderr).toBe('')
      expect(out().stdout).toMatch(/^ {2}not-recorded +2$/m)
      const text = await readFile(join(dir, name), 'utf8')
      hashes.push(sha256(text))
      expect(await readFile(summaryPath(join(dir, name)), 'utf8')).toBe(await readFile(summaryPath(GENERATED_SET), 'utf8'))
    }
    expect(hashes).toEqual([sha256(committed), sha256(committed)])
  })
})

describe('the example generated set from the fake writer', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (server) => {
    fake = server
  })

  it('another seed samples other passages; seed 1 recorded again from the fake writer gives the committed set and cache', async () => {
    fake.on(
      '/api/chat',
      () => true,
      (req) => ollamaReply(req.body),
    )
    const sources = async (seed: number) => {
      const { io } = quiet()
      const out = join(dir, `seed-${seed}.jsonl`)
      expect(await generateExampleSet({ out, seed, cache: join(dir, `cache-${seed}`), cacheMode: 'readwrite', host: fake.host, io })).toBe(0)
      const text = await readFile(out, 'utf8')
      return {
        text,
        sources: text
          .trim()
          .split('\n')
          .map((line) => (JSON.parse(line) as { source: string[] }).source.join('+')),
      }
    }
    const one = await sources(1)
    const two = await sources(2)
    // Recorded again from the fake writer, seed 1 gives the committed set.
    expect(one.text).toBe(await readFile(GENERATED_SET, 'utf8'))
    expect((await readdir(join(dir, 'cache-1'))).sort()).toEqual((await readdir(RECORDED_CACHE)).sort())
    expect(two.sources).toHaveLength(20)
    expect(two.sources).not.toEqual(one.sources)
    expect(two.sources.filter((s) => !one.sources.includes(s)).length).toBeGreaterThan(0)
  })
})

describe('npm run example (examples/run-example.mjs)', () => {
  it('runs the suite, the generated set next to the hand-made one, and passes', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: 'true' }
    delete env['RAG_MATCHERS_EXAMPLE_LIVE']
    const files = ['examples/transformer-qa/generated.test.ts', 'examples/transformer-qa/retrieval.test.ts']
    const child = spawn(process.execPath, [join(process.cwd(), 'examples', 'run-example.mjs'), ...files], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect([code, output.match(/Test Files .*/)?.[0]]).toEqual([0, expect.stringMatching(/2 passed/)])
    expect(output).toContain('retrieval on the generated eval set (data/generated.jsonl)')
  }, 120_000)
})
