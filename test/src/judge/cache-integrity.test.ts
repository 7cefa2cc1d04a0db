// Issue #13 (judge part): a cache entry replays only for the request it was recorded for, replies are
// trusted from their content, a reply for another model is refused, and cache write failures are named.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { judgeCache, judgeCacheKey, judgeReplyDigest, type JudgeCacheEntry } from '../../../src/judge/cache.js'
import { JudgeError } from '../../../src/judge/errors.js'
import { ollamaJudge } from '../../../src/judge/ollama-judge.js'
import type { JsonSchema, JudgeRequest } from '../../../src/judge/types.js'
import { chatReply, useFakeOllama } from './helpers.js'

const schema: JsonSchema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false }
const request = (prompt = 'Is it?', template = 'test.step@00000000'): JudgeRequest => ({ template, system: 'You judge.', prompt, schema })

describe('judge cache integrity', () => {
  let dir: string
  let warnings: string[]
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rag-judge-integrity-'))
    warnings = []
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  const fake = useFakeOllama()
  const cache = (mode: 'readwrite' | 'replay' = 'readwrite', folder = dir) => judgeCache({ dir: folder, mode, onWarning: (m) => warnings.push(m) })
  const judge = (mode: 'readwrite' | 'replay' = 'readwrite', folder = dir) => ollamaJudge({ model: 'm', host: fake.host, cache: cache(mode, folder) })

  /** Records one entry, then rewrites it with `edit`, keeping its file name and stored key. */
  async function recordAndEdit(edit: (entry: JudgeCacheEntry) => JudgeCacheEntry): Promise<string> {
    fake.on('/api/chat', () => true, chatReply({ ok: true }))
    const { key } = await judge().ask(request())
    const file = join(dir, `${key}.json`)
    const entry = JSON.parse(await readFile(file, 'utf8')) as JudgeCacheEntry
    await writeFile(file, JSON.stringify(edit(entry)), 'utf8')
    return file
  }

  it.each([
    ['another model', (e: JudgeCacheEntry) => ({ ...e, model: 'other:70b' })],
    ['other messages', (e: JudgeCacheEntry) => ({ ...e, messages: [e.messages[0]!, { role: 'user', content: 'Is it not?' }] })],
    ['another template version', (e: JudgeCacheEntry) => ({ ...e, template: 'test.step@11111111' })],
    ['other options', (e: JudgeCacheEntry) => ({ ...e, options: { temperature: 1, seed: 42 } })],
    ['another backend', (e: JudgeCacheEntry) => ({ ...e, backend: { kind: 'openai', host: 'api.openai.com' } })],
  ])('an entry rewritten to %s is not replayed: reported in readwrite, a failure naming the entry in replay', async (_, edit) => {
    const file = await recordAndEdit(edit)
    const error = await judge('replay')
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JudgeError)
    expect(error).toMatchObject({ kind: 'cache-miss' })
    expect((error as Error).message).toContain(`${file} is corrupt`)
    expect((error as Error).message).toContain('hashes to')
    expect((error as Error).message).toContain('not to the file name')

    const reply = await judge().ask(request())
    expect(reply.cached).toBe(false)
    expect(warnings.some((w) => w.includes(`corrupt entry ${file}`) && w.includes('hashes to'))).toBe(true)
    expect(fake.requests).toHaveLength(2)
  })

  it('trusts reply.content, not reply.value: a value that differs from the content is refused', async () => {
    const file = await recordAndEdit((e) => ({ ...e, reply: { ...e.reply, value: { ok: false } } }))
    const error = await judge('replay')
      .ask(request())
      .catch((e: unknown) => e)
    expect((error as Error).message).toContain(`${file} is corrupt (reply.value differs from the parse of reply.content)`)
  })

  // Issue #27 (3d): a hand-edited reply, or one with a field deleted, is not replayed.
  const replayError = async (): Promise<Error> =>
    (await judge('replay')
      .ask(request())
      .then(
        () => new Error('replayed'),
        (e: unknown) => e,
      )) as Error

  it('refuses an entry whose value was deleted (it does not match its request), naming the file', async () => {
    const file = await recordAndEdit((e) => {
      const { value: _value, ...reply } = e.reply
      return { ...e, reply } as unknown as JudgeCacheEntry
    })
    const error = await replayError()
    expect(error).toMatchObject({ kind: 'cache-miss' })
    expect(error.message).toContain(`${file} is corrupt (reply.value is missing: the entry does not match its request)`)
  })

  it('refuses an entry whose content and value were both edited by hand (the digest no longer matches)', async () => {
    const file = await recordAndEdit((e) => ({ ...e, reply: { ...e.reply, content: '{"ok":false}', value: { ok: false } } }))
    const error = await replayError()
    expect(error).toMatchObject({ kind: 'cache-miss' })
    expect(error.message).toContain(`${file} is corrupt (reply.content does not match reply.sha256: the reply was edited`)
  })

  it('refuses an entry whose content only was edited (same JSON, other spacing) and one whose digest was deleted', async () => {
    const file = await recordAndEdit((e) => ({ ...e, reply: { ...e.reply, content: '{ "ok": true }' } }))
    expect((await replayError()).message).toContain(`${file} is corrupt (reply.content does not match reply.sha256`)
    await recordAndEdit((e) => {
      const { sha256: _sha, ...reply } = e.reply
      return { ...e, reply } as unknown as JudgeCacheEntry
    })
    expect((await replayError()).message).toContain(`${file} is corrupt (reply.sha256 is missing`)
  })

  it('refuses a reply copied from another entry (the digest binds the reply to its key)', async () => {
    fake.on('/api/chat', () => true, chatReply({ ok: true }))
    const other = await judge().ask(request('Is it not?'))
    const otherEntry = JSON.parse(await readFile(join(dir, `${other.key}.json`), 'utf8')) as JudgeCacheEntry
    const file = await recordAndEdit((e) => ({ ...e, reply: otherEntry.reply }))
    expect((await replayError()).message).toContain(`${file} is corrupt (reply.content does not match reply.sha256`)
  })

  it('an untouched entry still replays, with its digest written by the cache', async () => {
    const file = await recordAndEdit((e) => e)
    const entry = JSON.parse(await readFile(file, 'utf8')) as JudgeCacheEntry
    expect(entry.reply.sha256).toBe(judgeReplyDigest(entry.key, entry.reply.content))
    expect(await judge('replay').ask(request())).toMatchObject({ cached: true, value: { ok: true } })
  })

  it('refuses an entry whose reply came from another model', async () => {
    const file = await recordAndEdit((e) => ({ ...e, reply: { ...e.reply, model: 'tiny:1b' } }))
    const error = await judge('replay')
      .ask(request())
      .catch((e: unknown) => e)
    expect((error as Error).message).toContain(`${file} is corrupt (the reply came from model "tiny:1b", not the requested "m")`)
  })

  it('refuses a live reply for another model, naming both', async () => {
    fake.on('/api/chat', () => true, chatReply({ ok: true }, 'llama3.2:1b'))
    const error = await ollamaJudge({ model: 'llama3.1:8b', host: fake.host })
      .ask(request())
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ kind: 'wrong-model', info: { requested: 'llama3.1:8b', answered: 'llama3.2:1b' } })
    expect((error as Error).message).toContain(`Ollama at ${fake.host} answered for model llama3.2:1b, but the judge asked for llama3.1:8b`)
    expect(fake.requests).toHaveLength(1)
  })

  it('accepts the implicit :latest tag Ollama reports', async () => {
    fake.on('/api/chat', () => true, chatReply({ ok: true }, 'mistral:latest'))
    expect((await ollamaJudge({ model: 'mistral', host: fake.host }).ask(request())).value).toEqual({ ok: true })
  })

  it('keys on the template version too', () => {
    const base = { model: 'm', options: { temperature: 0, seed: 42 }, schema, messages: [{ role: 'user', content: 'x' }] }
    expect(judgeCacheKey({ ...base, template: 'a.b@00000000' })).not.toBe(judgeCacheKey({ ...base, template: 'a.b@00000001' }))
    expect(judgeCacheKey({ ...base, template: 'a.b@00000000' })).toBe(judgeCacheKey({ ...base, template: 'a.b@00000000', backend: { kind: 'ollama' } }))
  })

  it('when the cache folder is a file: the reply is still used, and a warning names the judge cache folder and the cause', async () => {
    fake.on('/api/chat', () => true, chatReply({ ok: true }))
    const folder = join(dir, 'not-a-folder')
    await writeFile(folder, 'I am a file', 'utf8')
    const reply = await judge('readwrite', folder).ask(request())
    expect(reply).toMatchObject({ value: { ok: true }, cached: false })
    const write = warnings.find((w) => w.includes('cannot write'))
    expect(write).toBeDefined()
    expect(write).toContain(`Judge cache folder ${folder}`)
    expect(write).toContain('is a file, not a folder')
    expect(write).toContain('The reply was used but not recorded')
  })

  it('when the entry path is a folder: the reply is still used, and the warning says so', async () => {
    fake.on('/api/chat', () => true, chatReply({ ok: true }))
    const { key } = await ollamaJudge({ model: 'm', host: fake.host }).ask(request())
    await mkdir(join(dir, `${key}.json`))
    const reply = await judge().ask(request())
    expect(reply).toMatchObject({ value: { ok: true }, cached: false, key })
    expect(warnings.some((w) => w.includes(`cannot read ${join(dir, `${key}.json`)}`) && w.includes('EISDIR'))).toBe(true)
    const write = warnings.find((w) => w.includes('cannot write'))
    expect(write).toContain(`Judge cache folder ${dir}`)
    expect(write).toContain('the entry path is a folder, not a file (EISDIR)')
  })

  it('write() itself throws a cache-write JudgeError naming the folder, never a bare ENOTDIR', async () => {
    const folder = join(dir, 'file')
    await writeFile(folder, 'x', 'utf8')
    const c = judgeCache({ dir: folder })
    const req = { template: 't.s@00000000', model: 'm', options: { temperature: 0, seed: 42 }, schema, messages: [{ role: 'user', content: 'x' }] }
    const entry: JudgeCacheEntry = {
      format: 'rag-matchers/judge-cache@2',
      key: judgeCacheKey(req),
      ...req,
      reply: { content: '{"ok":true}', value: { ok: true }, attempts: 1 },
    }
    const error = await c.write(entry).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(JudgeError)
    expect(error).toMatchObject({ kind: 'cache-write', info: { dir: folder } })
    expect((error as Error).message).toMatch(/^Judge cache folder .+: cannot write .+: .+ is a file, not a folder \((ENOTDIR|EEXIST)\)/)
    // An entry whose request does not hash to its key is never written.
    await expect(judgeCache({ dir }).write({ ...entry, model: 'other' })).rejects.toThrow('hashes to')
  })
})
