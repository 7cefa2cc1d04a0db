// The history store on both backends (a real SQLite file in a temp folder; a real PostgreSQL server,
// see test/helpers/history-backends.ts): append in one transaction, dedupe, read back, series, prune,
// migrations, refusals; then recordRun's one warning line for stores that cannot be written.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, test } from 'vitest'
import { HistoryStore } from '../../src/history/store.js'
import { recordRun } from '../../src/history/record-run.js'
import { parseTarget, redactUrl, resolveTarget, type HistoryTarget } from '../../src/history/target.js'
import { SCHEMA_VERSION } from '../../src/history/schema.js'
import { sqliteBinding } from '../../src/history/sqlite.js'
import { numberPlaceholders } from '../../src/history/postgres.js'
import { openHistory } from '../../src/history/public.js'
import type { RagReport } from '../../src/report/model.js'
import { BACKENDS, backendTitle, skipBackend, storeFixture, type StoreFixture } from '../helpers/history-backends.js'
import { makeReport } from './make-report.js'

/** What a test can compare before and after a refused open: the SQLite file's bytes; the PostgreSQL tables, meta and run ids. */
async function snapshot(target: HistoryTarget): Promise<string> {
  if (target.kind === 'sqlite') return readFileSync(target.path).toString('base64')
  if (target.kind !== 'postgres') throw new Error('no store')
  const client = new pg.Client({ connectionString: target.url })
  await client.connect()
  try {
    const tables = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`)
    const meta = await client.query(`SELECT key, value FROM meta ORDER BY key`)
    const runs = await client.query(`SELECT id FROM runs ORDER BY id`)
    return JSON.stringify([tables.rows, meta.rows, runs.rows])
  } finally {
    await client.end()
  }
}

/** A port on 127.0.0.1 that nothing listens on: a server that is down. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function openFresh(fx: StoreFixture): Promise<HistoryStore> {
  const { target, dir } = await fx.fresh()
  return HistoryStore.open(target, { root: dir, write: true })
}

for (const kind of BACKENDS) {
  describe.skipIf(skipBackend(kind))(backendTitle('history store', kind), () => {
    const fx = storeFixture(kind)

    test('appends a run whole, dedupes the same report, reads it back unchanged', async () => {
      const store = await openFresh(fx)
      expect(store.backend.kind).toBe(kind)
      const report = makeReport({ sets: 2, metrics: 3, cases: 4, seed: 1 })
      const first = await store.append(report, { source: 'vitest', startedAt: new Date('2026-01-01T00:00:00Z') })
      expect(first.added).toBe(true)
      expect(await store.append(report, { source: 'import' })).toEqual({ id: first.id, added: false })
      expect(await store.counts()).toEqual({ runs: 1, evalSets: 2, metricRows: 6, cases: 8, caseValues: 24 })
      expect(await store.readRun('last')).toEqual(report)
      expect(await store.readRun(first.id.slice(0, 4))).toEqual(report)
      const [run] = await store.listRuns()
      expect(run).toMatchObject({
        id: first.id,
        source: 'vitest',
        runner: 'vitest',
        durationMs: 1000,
        verdict: { status: 'pass', reasons: [] },
        summary: { evalSets: 2, errored: 0 },
      })
      await store.close()
    })

    test('texts with NUL, quotes, ? and $1, astral characters: the report reads back unchanged', async () => {
      const store = await openFresh(fx)
      const odd = `it's "odd" ? $1 \u0000 nul, snow ☃, clef 𝄞, bidi \u202e`
      const report = JSON.parse(
        JSON.stringify(makeReport({ sets: 1, metrics: 2, cases: 3, seed: 4 })).replaceAll('answer 1 of run 4', odd.replaceAll('"', '\\"').replace('\u0000', '\\u0000')),
      ) as RagReport
      expect(JSON.stringify(report)).toContain('\\u0000 nul')
      const { id } = await store.append(report, { source: 'import' })
      expect(await store.readRun(id)).toEqual(report)
      expect((await store.caseSeries('set0', 'q1'))[0]?.answer).toBe(odd)
      await store.close()
    })

    test('run references: last, last~N, prefix; nothing or several matched is an error', async () => {
      const store = await openFresh(fx)
      const ids: string[] = []
      for (let seed = 1; seed <= 20; seed++) ids.push((await store.append(makeReport({ seed }), { source: 'import' })).id)
      expect(await store.resolveRef('last')).toBe(ids[19])
      expect(await store.resolveRef('last~2')).toBe(ids[17])
      await expect(store.resolveRef('last~20')).rejects.toThrow(/fewer than 21 runs/)
      await expect(store.resolveRef('ffffffffffff')).rejects.toThrow(/no run matches 'ffffffffffff'/)
      await expect(store.resolveRef('not-a-ref')).rejects.toThrow(/not a run reference/)
      // 20 random hex ids: some first character is shared by two of them
      const counts = new Map<string, number>()
      for (const id of ids) counts.set(id[0] as string, (counts.get(id[0] as string) ?? 0) + 1)
      const shared = [...counts].find(([, n]) => n > 1)?.[0] as string
      await expect(store.resolveRef(shared)).rejects.toThrow(/matches several runs/)
      await store.close()
    })

    test('metric series: per run, direction-aware status words, first regression', async () => {
      const store = await openFresh(fx)
      const means = [0.5, 0.6, 0.6, 0.4, 0.7]
      for (const [i, v] of means.entries()) await store.append(makeReport({ sets: 1, metrics: 2, cases: 2, seed: i + 1, lower: [1], value: () => v }), { source: 'import' })
      const up = await store.metricSeries('set0', 'mean m0')
      expect(up.points.map((p) => p.status ?? null)).toEqual([null, 'improved', 'ok', 'regressed', 'improved'])
      expect(up.firstRegression?.value).toBeCloseTo(0.4)
      const down = await store.metricSeries('set0', 'mean m1')
      expect(down.points[0]?.direction).toBe('lower')
      expect(down.points.map((p) => p.status ?? null)).toEqual([null, 'regressed', 'ok', 'improved', 'regressed'])
      expect((await store.metricSeries('set0', 'mean m0', { last: 2 })).points.map((p) => p.value)).toEqual([0.4, 0.7])
      expect((await store.metricSeries('set0', 'mean m0', { tolerance: 0.25 })).firstRegression).toBeUndefined()
      const cases = await store.caseSeries('set0', 'q1')
      expect(cases).toHaveLength(5)
      expect(cases[0]).toMatchObject({ values: { 'mean m0': 0.5 }, retrieved: ['d1', 'd2'], answer: 'answer 1 of run 1' })
      expect((await store.listRuns({ set: 'set0', last: 2 })).map((r) => r.endedAt)).toEqual(['2026-01-01T00:00:04.000Z', '2026-01-01T00:00:05.000Z'])
      expect(await store.listRuns({ set: 'nope' })).toEqual([])
      await store.close()
    })

    test('prune --keep and --older-than, in one transaction, rows of pruned runs gone', async () => {
      const store = await openFresh(fx)
      for (let seed = 1; seed <= 5; seed++) await store.append(makeReport({ seed, createdAt: new Date(Date.UTC(2026, 0, seed)) }), { source: 'import' })
      expect(await store.prune({ keep: 3 })).toBe(2)
      expect(await store.prune({ olderThanMs: 2.5 * 86_400_000, now: new Date(Date.UTC(2026, 0, 6)) })).toBe(1)
      expect(await store.counts()).toEqual({ runs: 2, evalSets: 4, metricRows: 8, cases: 12, caseValues: 24 })
      await store.close()
    })

    test('a failure inside the transaction leaves no partial run, and the same run can be stored afterwards', async () => {
      const store = await openFresh(fx)
      const report = makeReport({ sets: 2, metrics: 3, cases: 4, seed: 7 })
      const backend = store.backend
      const { run, runMany } = backend
      let inserts = 0
      // The second INSERT of the append (the run row is in by then) fails, as a disk or a connection would.
      const failSecond = (sql: string) => {
        if (/^\s*INSERT/i.test(sql) && ++inserts === 2) throw new Error('write failed mid-run')
      }
      Object.assign(backend, {
        run: (sql: string, params?: never) => (failSecond(sql), run.call(backend, sql, params)),
        runMany: (sql: string, rows: never) => (failSecond(sql), runMany.call(backend, sql, rows)),
      })
      await expect(store.append(report, { source: 'vitest' })).rejects.toThrow('write failed mid-run')
      expect(inserts).toBeGreaterThanOrEqual(2)
      Object.assign(backend, { run, runMany })
      expect(await store.counts()).toEqual({ runs: 0, evalSets: 0, metricRows: 0, cases: 0, caseValues: 0 })
      expect(await store.append(report, { source: 'vitest' })).toMatchObject({ added: true })
      expect(await store.readRun('last')).toEqual(report)
      await store.close()
    })

    test('a store of a newer schema is refused and left as it is', async () => {
      const { target, text, dir } = await fx.fresh()
      const store = await HistoryStore.open(target, { root: dir, write: true })
      await store.append(makeReport(), { source: 'import' })
      await store.backend.run(`UPDATE meta SET value = '99' WHERE key = 'schema_version'`)
      await store.close()
      const before = await snapshot(target)
      const refused = new RegExp(`written by a newer rag-matchers \\(history schema 99; .* knows ${SCHEMA_VERSION}\\).*left as it is`)
      await expect(HistoryStore.open(target, { root: dir, write: true })).rejects.toThrow(refused)
      await expect(HistoryStore.open(target, { root: dir, write: false })).rejects.toThrow(/newer rag-matchers/)
      const warnings: string[] = []
      expect(await recordRun(makeReport({ seed: 2 }), { root: dir, history: text, source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toMatch(/newer rag-matchers/)
      expect(await snapshot(target)).toBe(before)
    })

    test('a report of a newer report schema, or not a rag-report, is refused', async () => {
      const store = await openFresh(fx)
      await expect(store.append({ ...makeReport(), schemaVersion: 2 } as never, { source: 'import' })).rejects.toThrow(/newer rag-matchers \(report schemaVersion 2/)
      await expect(store.append({ hello: 1 } as never, { source: 'import' })).rejects.toThrow(/is not a rag-report/)
      expect((await store.counts()).runs).toBe(0)
      await store.close()
    })

    test('openHistory reads and never creates: a missing or empty store is an error; it writes only when asked', async () => {
      const { target, text } = await fx.fresh()
      await expect(openHistory(text)).rejects.toThrow(kind === 'sqlite' ? /no history store at/ : /is an empty or older history store/)
      if (target.kind === 'sqlite') expect(() => readFileSync(target.path)).toThrow()
      else await expect(snapshot(target)).rejects.toThrow(/relation "meta" does not exist/)
      const store = await openHistory(text, { write: true })
      await store.append(makeReport(), { source: 'import' })
      await store.close()
      const read = await openHistory(kind === 'sqlite' ? `sqlite:${text}` : text)
      expect((await read.metricSeries('set0', 'mean m0')).points).toHaveLength(1)
      // A PostgreSQL store opened for reading is a read-only session: the read commands cannot change a shared store.
      if (kind === 'postgres') await expect(read.backend.run(`DELETE FROM runs`)).rejects.toThrow(/read-only transaction \(25006\)/)
      await read.close()
    })

    test('recordRun records into the store, with the run facts', async () => {
      const { text, dir } = await fx.fresh()
      const warnings: string[] = []
      const id = await recordRun(makeReport(), { root: dir, history: text, source: 'vitest', warn: (l) => warnings.push(l) })
      expect(warnings).toEqual([])
      const store = await openHistory(text)
      expect((await store.listRuns())[0]).toMatchObject({ id, nodeVersion: process.version, source: 'vitest' })
      await store.close()
    })
  })
}

describe('history targets', () => {
  test('default, off, env wins, sqlite:, postgres checked, unknown scheme named', () => {
    expect(resolveTarget(undefined, '/p', {})).toEqual({ kind: 'sqlite', path: '/p/.rag-matchers/history.sqlite' })
    expect(resolveTarget(false, '/p', {})).toEqual({ kind: 'off' })
    expect(resolveTarget('runs.db', '/p', { RAG_MATCHERS_HISTORY: 'off' })).toEqual({ kind: 'off' })
    expect(resolveTarget(false, '/p', { RAG_MATCHERS_HISTORY: 'x/h.sqlite' })).toEqual({ kind: 'sqlite', path: '/p/x/h.sqlite' })
    expect(parseTarget('sqlite:/tmp/h.db', '/p')).toEqual({ kind: 'sqlite', path: '/tmp/h.db' })
    expect(parseTarget('postgres://u:secret@db/h', '/p')).toEqual({ kind: 'postgres', url: 'postgres://u:secret@db/h' })
    expect(parseTarget('postgresql://db:6543/h?sslmode=require', '/p')).toEqual({ kind: 'postgres', url: 'postgresql://db:6543/h?sslmode=require' })
    expect(parseTarget('postgres:///h', '/p')).toEqual({ kind: 'postgres', url: 'postgres:///h' })
    expect(() => parseTarget('mysql://u:secret@db/h', '/p')).toThrow("unknown history store scheme 'mysql:' in 'mysql://u:***@db/h'")
  })

  test.each([
    ['a port that is not a number', 'postgres://u:secret@db:pg/h', /the port is not a number/],
    ['a port out of range', 'postgres://u:secret@db:70000/h', /the port is not from 1 to 65535/],
    ['a raw / in the password', 'postgres://u:sec/ret@db/h', /the port is not a number .*%-escapes/],
    ['a raw # in the password', 'postgres://u:sec#ret@db/h', /the port is not a number/],
    ['a bad %-escape', 'postgres://u:sec%zzret@db/h', /the password has a % that is not a %-escape/],
    ['no //', 'postgres:u:secret@db/h', /must start with postgres:\/\//],
    ['an unclosed IPv6 host', 'postgres://u:secret@[::1/h', /not a valid URL/],
    ['a database name with a /', 'postgres://u:secret@db/h/x', /the database name has a \//],
  ])('a malformed postgres:// URL (%s) is a usage error, its password hidden', (_name, url, why) => {
    let error: (Error & { kind?: string }) | undefined
    try {
      parseTarget(url, '/p')
    } catch (e) {
      error = e as Error
    }
    expect(error?.name).toBe('HistoryError')
    expect(error?.kind).toBe('usage')
    expect(error?.message).toMatch(/^malformed PostgreSQL URL '/)
    expect(error?.message).toMatch(why)
    expect(error?.message).not.toMatch(/secret|sec|ret/)
  })

  test('redactUrl hides the password, whatever it holds, and a password= parameter', () => {
    expect(redactUrl('postgres://u:pw@db/h')).toBe('postgres://u:***@db/h')
    expect(redactUrl('postgres://u:p@w@db/h')).toBe('postgres://u:***@db/h')
    expect(redactUrl('postgres://u@db/h?sslmode=require&password=pw')).toBe('postgres://u@db/h?sslmode=require&password=***')
    expect(redactUrl('postgres://db/h')).toBe('postgres://db/h')
  })

  test('placeholders: ? becomes $n outside literals, identifiers, dollar quotes and comments', () => {
    expect(numberPlaceholders(`SELECT a FROM t WHERE x = ? AND y IN (?, ?)`)).toEqual({ text: `SELECT a FROM t WHERE x = $1 AND y IN ($2, $3)`, count: 3 })
    expect(numberPlaceholders(`SELECT '?', 'it''s ?', E'\\'?', "a?b", $$?$$, $x$ ? $x$ -- ?\n, ? /* ? */`).text).toBe(
      `SELECT '?', 'it''s ?', E'\\'?', "a?b", $$?$$, $x$ ? $x$ -- ?\n, $1 /* ? */`,
    )
    expect(numberPlaceholders('(?, ?)', 5)).toEqual({ text: '($5, $6)', count: 2 })
  })

  test('the binding is node:sqlite where the runtime has it, better-sqlite3 otherwise', () => {
    const hasNodeSqlite =
      typeof (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule === 'function' &&
      (process as { getBuiltinModule: (id: string) => unknown }).getBuiltinModule('node:sqlite') !== undefined
    expect(sqliteBinding(process.cwd()).binding).toBe(hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3')
  })
})

describe('recordRun never changes a result: one warning line naming the store and the cause', () => {
  const fx = storeFixture('sqlite')

  test('records into the default store under the root, with git facts when a checkout', async () => {
    const dir = fx.tempDir()
    const warnings: string[] = []
    const id = await recordRun(makeReport(), { root: dir, source: 'vitest', warn: (l) => warnings.push(l) })
    expect(warnings).toEqual([])
    const store = await openHistory(undefined, { root: dir })
    expect((await store.listRuns())[0]).toMatchObject({ id, nodeVersion: process.version })
    await store.close()
  })

  test('off by option or env', async () => {
    const dir = fx.tempDir()
    expect(await recordRun(makeReport(), { root: dir, history: false, source: 'vitest', warn: () => {} })).toBeUndefined()
    process.env.RAG_MATCHERS_HISTORY = 'off'
    try {
      expect(await recordRun(makeReport(), { root: dir, source: 'vitest', warn: () => {} })).toBeUndefined()
    } finally {
      delete process.env.RAG_MATCHERS_HISTORY
    }
    expect(() => readFileSync(join(dir, '.rag-matchers/history.sqlite'))).toThrow()
  })

  test.each([
    [
      'a malformed postgres:// URL',
      'postgres://u:secret@db:pg/runs',
      /^rag-matchers history: malformed PostgreSQL URL 'postgres:\/\/u:\*\*\*@db:pg\/runs': .*; this run is not recorded$/,
    ],
    ['an unknown scheme', 'redis://db/0', /^rag-matchers history: unknown history store scheme 'redis:'.*this run is not recorded$/],
  ])('%s: one line', async (_name, target, line) => {
    const warnings: string[] = []
    expect(await recordRun(makeReport(), { root: fx.tempDir(), history: target, source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(line)
  })

  test('a PostgreSQL server that is down: one line naming the store, the password hidden', async () => {
    const port = await closedPort()
    const warnings: string[] = []
    const url = `postgres://rag:secret-pw@127.0.0.1:${port}/runs`
    expect(await recordRun(makeReport(), { root: fx.tempDir(), history: url, source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toEqual([
      `rag-matchers history: cannot record this run in postgres://rag:***@127.0.0.1:${port}/runs: cannot connect: connection refused at 127.0.0.1:${port} (ECONNREFUSED: is the server running?)`,
    ])
  })

  test.each([
    ['never answers', 'keep', /: cannot connect: no answer within 10 s \(connection timeout\)$/],
    ['hangs up at once', 'hang up', /: cannot connect: Connection terminated unexpectedly$/],
  ])('a server on the PostgreSQL port that %s: one line', { timeout: 30_000 }, async (_name, behaviour, cause) => {
    const sockets: Socket[] = []
    const server = createServer((socket) => (behaviour === 'keep' ? sockets.push(socket) : socket.destroy()))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as { port: number }
    const warnings: string[] = []
    try {
      expect(
        await recordRun(makeReport(), { root: fx.tempDir(), history: `postgres://rag:pw@127.0.0.1:${port}/runs`, source: 'vitest', warn: (l) => warnings.push(l) }),
      ).toBeUndefined()
    } finally {
      for (const socket of sockets) socket.destroy()
      server.close()
    }
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(new RegExp(`^rag-matchers history: cannot record this run in postgres://rag:\\*\\*\\*@127\\.0\\.0\\.1:${port}/runs: `))
    expect(warnings[0]).toMatch(cause)
  })

  test('a corrupt file: one line, the file is not touched', async () => {
    const dir = fx.tempDir()
    const file = join(dir, 'h.sqlite')
    const junk = Buffer.from('this is not a database '.repeat(300))
    writeFileSync(file, junk)
    const warnings: string[] = []
    expect(await recordRun(makeReport(), { root: dir, history: file, source: 'jest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(`cannot record this run in ${file}`)
    expect(warnings[0]).toMatch(/not a database/)
    expect(readFileSync(file).equals(junk)).toBe(true)
  })

  test.skipIf(process.getuid?.() === 0)('a read-only folder: one line', async () => {
    const dir = fx.tempDir()
    const ro = join(dir, 'ro')
    mkdirSync(ro)
    chmodSync(ro, 0o555)
    const warnings: string[] = []
    try {
      expect(await recordRun(makeReport(), { root: ro, source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    } finally {
      chmodSync(ro, 0o755)
    }
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(join(ro, '.rag-matchers/history.sqlite'))
  })

  test('a store path that cannot be a folder (a file in the way): one line', async () => {
    const dir = fx.tempDir()
    writeFileSync(join(dir, 'blocker'), 'x')
    const warnings: string[] = []
    expect(await recordRun(makeReport(), { root: dir, history: join(dir, 'blocker', 'h.sqlite'), source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^rag-matchers history: cannot record this run in .*blocker\/h\.sqlite: /)
    expect(warnings[0]).not.toContain('\n')
    rmSync(join(dir, 'blocker'))
  })
})

describe.skipIf(skipBackend('postgres'))(backendTitle('recordRun on a PostgreSQL server that refuses', 'postgres'), () => {
  const fx = storeFixture('postgres')

  test.each([
    ['a wrong password', { password: 'not-the-password' }, /cannot connect: password authentication failed for user "postgres" \(28P01\)$/],
    ['an unknown database', { database: 'no_such_db' }, /cannot connect: database "no_such_db" does not exist \(3D000: create it first, e\.g\. createdb\)$/],
  ])('%s: one line naming the store, the password hidden', async (_name, change, cause) => {
    const url = fx.serverUrl(change)
    const password = new URL(url).password
    const warnings: string[] = []
    expect(await recordRun(makeReport(), { root: fx.tempDir(), history: url, source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^rag-matchers history: cannot record this run in postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w+: /)
    expect(warnings[0]).toMatch(cause)
    expect(warnings[0]).not.toContain(password)
  })
})
