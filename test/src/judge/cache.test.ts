import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { judgeCache, judgeCacheKey, judgeReplyDigest, JUDGE_CACHE_FORMAT, type JudgeCacheEntry } from '../../../src/judge/cache.js'
import { JudgeError } from '../../../src/judge/errors.js'
import { ollamaJudge } from '../../../src/judge/ollama-judge.js'
import type { JsonSchema, JudgeRequest } from '../../../src/judge/types.js'
import { bundleModule } from '../../helpers/bundle.js'
import { startFakeOllama } from '../../helpers/fake-ollama.js'
import { chatReply, useFakeOllama } from './helpers.js'

const schema: JsonSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false }
const request = (prompt = 'Is it?'): JudgeRequest => ({ template: 'test.step@00000000', system: 'You judge.', prompt, schema })

describe('judgeCache with ollamaJudge', () => {
  let dir: string
  let warnings: string[]
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rag-judge-cache-'))
    warnings = []
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  // Registered after the folder hooks: after-hooks run in reverse, so the server is checked and closed first, as before.
  const fake = useFakeOllama()
  beforeEach(() => {
    fake.on('/api/chat', () => true, chatReply({ ok: true }))
  })
  const cache = (mode?: 'readwrite' | 'read' | 'off' | 'replay') => judgeCache({ dir, ...(mode === undefined ? {} : { mode }), onWarning: (m) => warnings.push(m) })

  it('records a miss as one pretty JSON file named by its key, then serves it without the model', async () => {
    const first = await ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: cache() }).ask(request())
    expect(first.cached).toBe(false)
    expect(await readdir(dir)).toEqual([`${first.key}.json`])
    const entry = JSON.parse(await readFile(join(dir, `${first.key}.json`), 'utf8')) as JudgeCacheEntry
    expect(entry).toEqual({
      format: JUDGE_CACHE_FORMAT,
      key: first.key,
      template: 'test.step@00000000',
      backend: { kind: 'ollama' },
      model: 'llama3.1:8b',
      options: { temperature: 0, seed: 42 },
      schema,
      messages: [
        { role: 'system', content: 'You judge.' },
        { role: 'user', content: 'Is it?' },
      ],
      reply: { content: '{"ok":true}', value: { ok: true }, attempts: 1, model: 'llama3.1:8b', sha256: judgeReplyDigest(first.key, '{"ok":true}') },
    })
    expect(judgeCacheKey(entry)).toBe(first.key)

    const second = await ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: cache() }).ask(request())
    expect(second).toEqual({ ...first, cached: true, attempts: 0 })
    expect(fake.requests).toHaveLength(1)
  })

  it('keys on model, options, schema and prompt (each change is a miss), not on the host', async () => {
    const ask = (judgeOptions: Partial<Parameters<typeof ollamaJudge>[0]>, req: JudgeRequest = request()) =>
      ollamaJudge({ model: 'm', host: fake.host, cache: cache(), ...judgeOptions }).ask(req)
    const keys = new Set<string>()
    keys.add((await ask({})).key)
    keys.add((await ask({ model: 'm2' })).key)
    keys.add((await ask({ seed: 1 })).key)
    keys.add((await ask({ temperature: 0.5 })).key)
    keys.add((await ask({ numCtx: 4096 })).key)
    keys.add((await ask({}, request('Is it really?'))).key)
    keys.add((await ask({}, { ...request(), schema: { ...schema, description: 'changed' } })).key)
    expect(keys.size).toBe(7)
    expect(fake.requests).toHaveLength(7)
    const other = await startFakeOllama()
    try {
      expect((await ollamaJudge({ model: 'm', host: other.host, cache: cache() }).ask(request())).cached).toBe(true)
      expect(other.requests).toHaveLength(0)
    } finally {
      await other.close()
    }
  })

  it('mode read serves hits but never writes; mode off neither reads nor writes', async () => {
    await ollamaJudge({ model: 'm', host: fake.host, cache: cache('read') }).ask(request())
    expect(await readdir(dir).catch(() => [])).toEqual([])
    const recorded = await ollamaJudge({ model: 'm', host: fake.host, cache: cache() }).ask(request())
    expect((await ollamaJudge({ model: 'm', host: fake.host, cache: cache('read') }).ask(request())).cached).toBe(true)
    expect((await ollamaJudge({ model: 'm', host: fake.host, cache: cache('off') }).ask(request())).cached).toBe(false)
    expect(await readdir(dir)).toEqual([`${recorded.key}.json`])
    expect(fake.requests).toHaveLength(3)
  })

  it('mode replay fails on a miss, naming the entry and how to record it, without calling the model', async () => {
    const error = await ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: cache('replay') })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JudgeError)
    expect(error).toMatchObject({ kind: 'cache-miss' })
    const message = (error as Error).message
    const key = (error as JudgeError).info['key'] as string
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(message).toContain(join(dir, `${key}.json`))
    expect(message).toContain('does not exist')
    expect(message).toContain('template test.step@00000000')
    expect(message).toContain('cache mode `readwrite`')
    expect(message).toContain('commit the cache folder')
    expect(fake.requests).toHaveLength(0)
  })

  it('ignores a corrupt entry with a warning and rewrites it', async () => {
    const { key } = await ollamaJudge({ model: 'm', host: fake.host, cache: cache() }).ask(request())
    const file = join(dir, `${key}.json`)
    await writeFile(file, '{"format": "rag-matchers/judge-cache@1", "key": ', 'utf8')
    const reply = await ollamaJudge({ model: 'm', host: fake.host, cache: cache() }).ask(request())
    expect(reply.cached).toBe(false)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`corrupt entry ${file}`)
    expect(warnings[0]).toContain('it will be rewritten')
    expect(JSON.parse(await readFile(file, 'utf8')).reply.value).toEqual({ ok: true })
    expect((await ollamaJudge({ model: 'm', host: fake.host, cache: cache() }).ask(request())).cached).toBe(true)
    expect(fake.requests).toHaveLength(2)
  })

  it('treats an entry whose value fails the schema, or whose key does not match, as corrupt', async () => {
    const { key } = await ollamaJudge({ model: 'm', host: fake.host, cache: cache() }).ask(request())
    const file = join(dir, `${key}.json`)
    const entry = JSON.parse(await readFile(file, 'utf8'))
    // A consistent rewrite (content, value and digest) reaches the schema check.
    await writeFile(
      file,
      JSON.stringify({ ...entry, reply: { ...entry.reply, content: '{"ok":"yes"}', value: { ok: 'yes' }, sha256: judgeReplyDigest(key, '{"ok":"yes"}') } }),
      'utf8',
    )
    expect((await ollamaJudge({ model: 'm', host: fake.host, cache: cache() }).ask(request())).cached).toBe(false)
    expect(warnings[0]).toContain('$.ok: expected boolean')
    await writeFile(file, JSON.stringify({ ...entry, key: 'f'.repeat(64) }), 'utf8')
    expect((await ollamaJudge({ model: 'm', host: fake.host, cache: cache() }).ask(request())).cached).toBe(false)
    expect(warnings[1]).toContain('does not match the file name')
  })

  it('mode replay reports a corrupt entry as a failure too', async () => {
    const { key } = await ollamaJudge({ model: 'm', host: fake.host, cache: cache() }).ask(request())
    await writeFile(join(dir, `${key}.json`), 'not json', 'utf8')
    const error = await ollamaJudge({ model: 'm', host: fake.host, cache: cache('replay') })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'cache-miss' })
    expect((error as Error).message).toContain('is corrupt (invalid JSON')
    expect(fake.requests).toHaveLength(1)
  })

  it('validates its options and refuses keys that are not digests', () => {
    expect(() => judgeCache({ dir: '' })).toThrow('judgeCache: Expected `dir` to be a non-empty folder path')
    expect(() => judgeCache({ dir, mode: 'write' as never })).toThrow("Expected `mode` to be one of 'readwrite', 'read', 'off', 'replay'")
    expect(() => judgeCache({ dir }).fileFor('../../etc/passwd')).toThrow('Expected `key` to be a sha256 hex digest')
  })

  it('loses nothing when 8 worker threads write the same and different entries at once', async () => {
    // Worker threads cannot import TypeScript, so they get the real cache module bundled by esbuild.
    const bundle = await bundleModule(new URL('../../../src/judge/cache.ts', import.meta.url), dir, 'cache.bundle.mjs')
    const store = join(dir, 'store')
    const shared = ['0', '1', '2', '3']
    const rounds = 12
    // Large entries make a torn (non-atomic) write far more likely to be observed.
    const padding = 'x'.repeat(256 * 1024)
    const workerFile = fileURLToPath(new URL('./cache-workers.mjs', import.meta.url))
    const results = await Promise.all(
      Array.from(
        { length: 8 },
        (_, worker) =>
          new Promise<{ worker: number; own: string[]; sharedKeys: string[]; badReads: number; warnings: string[] }>((resolve, reject) => {
            const w = new Worker(workerFile, { workerData: { bundle, dir: store, worker, rounds, shared, padding } })
            w.once('message', resolve)
            w.once('error', reject)
          }),
      ),
    )
    expect(results.map((r) => [r.badReads, r.warnings])).toEqual(Array.from({ length: 8 }, () => [0, []]))
    const files = (await readdir(store)).sort()
    const sharedKeys = results[0]!.sharedKeys
    expect(results.every((r) => r.sharedKeys.join() === sharedKeys.join())).toBe(true)
    const expected = [...sharedKeys, ...results.flatMap((r) => r.own)].map((k) => `${k}.json`).sort()
    expect(files).toEqual(expected)
    expect(files).toHaveLength(4 + 8 * rounds)
    const check = judgeCache({ dir: store, onWarning: (m) => warnings.push(m) })
    for (const key of [...sharedKeys, ...results.flatMap((r) => r.own)]) {
      const read = await check.read(key)
      expect(read.status).toBe('hit')
    }
    expect(warnings).toEqual([])
    // Every write and read re-hashes a 256 KiB request; 8 workers on a shared 2-core machine need the room.
  }, 90_000)
})
