// Runs under Vitest AND Jest (globals only). Issue #13 at the assertion level: each transport fault of
// the Ollama judge fails the assertion with its own message; a cache that cannot be written does not
// lose the reply (the assertion is decided, with a warning); user functions that never settle fail
// naming themselves, within their timeout.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { functionEmbedder } from '../../src/embeddings/function-embedder.js'
import { judgeCache } from '../../src/judge/cache.js'
import { functionJudge } from '../../src/judge/function-judge.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { asyncFailureOf } from '../helpers/failure.js'
import { chatReply, step } from '../src/judge/helpers.js'
import { serverPerTest } from '../helpers/scripted-server.js'

const CONTEXTS = [{ id: 'doc-a', text: 'Paris is the capital and largest city of France.' }]
const ANSWER = 'Paris is the capital of France.'

let fake: FakeOllama
const root = mkdtempSync(join(tmpdir(), 'rag-matchers-judge-faults-'))
serverPerTest(startFakeOllama, (started) => {
  fake = started
})
afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

const offCache = () => judgeCache({ dir: 'judge-cache', mode: 'off' })

function scriptGood(): void {
  fake.on('/api/chat', step('claims'), chatReply({ claims: [ANSWER] }))
  fake.on('/api/chat', step('verdicts'), chatReply({ verdicts: [{ claim: 1, reason: 'Passage 1 says so.', verdict: 'supported', context: 1 }] }))
}

describe('judge faults fail the assertion with a message that names the cause', () => {
  it('half a reply, then a closed connection: "closed the connection", not "Cannot reach … ollama serve"', async () => {
    fake.on('/api/chat', () => true, { ...chatReply({ claims: [ANSWER] }), hangUpAfterBytes: 30 })
    const judge = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, retries: 1, cache: offCache() })
    for (const run of [() => expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge }), () => expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 1, { judge })]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('groundedness could not be computed, so the assertion fails.')
      expect(message).toContain(`Ollama at ${fake.host} closed the connection before the reply was complete (model llama3.1:8b`)
      expect(message).not.toContain('Cannot reach')
    }
  })

  it('a redirect loop: "redirected more than 5 times", after 6 requests, not 42', async () => {
    fake.on('/api/chat', () => true, { status: 308, headers: { location: '/api/chat' }, body: {} })
    const judge = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: offCache() })
    const message = await asyncFailureOf(() => expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge }))
    expect(message).toContain(`Ollama at ${fake.host} redirected more than 5 times (model llama3.1:8b)`)
    expect(fake.requests).toHaveLength(6)
  })

  it('a reply from another model is refused, naming both models', async () => {
    fake.on('/api/chat', () => true, chatReply({ claims: [ANSWER] }, 'tinyllama:1b'))
    const judge = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: offCache() })
    const message = await asyncFailureOf(() => expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 1, { judge }))
    expect(message).toContain('answered for model tinyllama:1b, but the judge asked for llama3.1:8b')
  })
})

describe('a judge cache that cannot be written', () => {
  it('still decides the assertion from the reply received, with a warning naming the cache folder and the cause', async () => {
    const folder = join(root, 'cache-is-a-file')
    writeFileSync(folder, 'not a folder')
    const warnings: string[] = []
    scriptGood()
    const judge = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir: folder, onWarning: (m) => warnings.push(m) }) })
    await expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge })
    const message = await asyncFailureOf(() => expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 1, { judge }))
    expect(message).toContain('groundedness = 1.0000')
    const writes = warnings.filter((w) => w.includes('cannot write'))
    expect(writes.length).toBeGreaterThanOrEqual(2)
    expect(writes[0]).toContain(`Judge cache folder ${folder}`)
    expect(writes[0]).toContain('is a file, not a folder')
    expect(writes[0]).toContain('The reply was used but not recorded')
  })
})

describe('a tampered cache entry', () => {
  it('is never replayed: in replay mode the assertion fails, with or without .not, naming the entry', async () => {
    const dir = join(root, 'tampered')
    scriptGood()
    const record = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir }) })
    await expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge: record })
    // Rewrite every entry to claim another model, as a hand edit or a bad merge would.
    for (const name of readdirSync(dir)) {
      const file = join(dir, name)
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), model: 'llama3.1:70b' }))
    }
    const replay = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir, mode: 'replay', onWarning: () => undefined }) })
    for (const run of [() => expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge: replay }), () => expect(ANSWER).not.toBeGroundedIn(CONTEXTS, 1, { judge: replay })]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('groundedness could not be computed, so the assertion fails.')
      expect(message).toContain(`Judge cache (mode replay) has no valid entry for this request: ${dir}`)
      expect(message).toContain('not to the file name')
    }
    expect(fake.requests).toHaveLength(2)
  })
})

describe('user functions that never settle', () => {
  it('a judge function fails the assertion within its timeout, naming it', async () => {
    const judge = functionJudge(() => new Promise(() => undefined), { id: 'my-sdk', model: 'gpt-4o-mini', timeoutMs: 100 })
    const started = Date.now()
    const message = await asyncFailureOf(() => expect(ANSWER).toBeGroundedIn(CONTEXTS, 1, { judge }))
    expect(message).toContain('judge function my-sdk did not answer within 100 ms (model gpt-4o-mini)')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('an embedding function fails the assertion within its timeout, naming the embedder', async () => {
    const embedder = functionEmbedder(() => new Promise<number[]>(() => undefined), { id: 'my-api|model:e5', timeoutMs: 100 })
    const started = Date.now()
    const message = await asyncFailureOf(() => expect('a').toBeSemanticallySimilarTo('b', 0.5, { embedder }))
    expect(message).toContain('my-api|model:e5: the embedding function did not settle within 100 ms')
    expect(Date.now() - started).toBeLessThan(5_000)
  })
})
