// The history store on real SQLite files in temp dirs: append in one transaction, dedupe, read back, series, prune, migrations, refusals.
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { HistoryStore } from '../../src/history/store.js'
import { recordRun } from '../../src/history/record-run.js'
import { parseTarget, resolveTarget } from '../../src/history/target.js'
import { sqliteBinding } from '../../src/history/sqlite.js'
import { openHistory } from '../../src/history/public.js'
import { makeReport } from './make-report.js'

const dirs: string[] = []
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rag-history-'))
  dirs.push(dir)
  return dir
}
afterEach(() => {
  for (const d of dirs.splice(0)) {
    try {
      chmodSync(d, 0o755)
    } catch {
      // gone already
    }
    rmSync(d, { recursive: true, force: true })
  }
})

async function open(dir: string): Promise<HistoryStore> {
  return HistoryStore.open({ kind: 'sqlite', path: join(dir, 'h.sqlite') }, { root: dir, write: true })
}

describe('history store', () => {
  test('appends a run whole, dedupes the same report, reads it back unchanged', async () => {
    const dir = tempDir()
    const store = await open(dir)
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

  test('run references: last, last~N, prefix; nothing or several matched is an error', async () => {
    const dir = tempDir()
    const store = await open(dir)
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
    const dir = tempDir()
    const store = await open(dir)
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
    const dir = tempDir()
    const store = await open(dir)
    for (let seed = 1; seed <= 5; seed++) await store.append(makeReport({ seed, createdAt: new Date(Date.UTC(2026, 0, seed)) }), { source: 'import' })
    expect(await store.prune({ keep: 3 })).toBe(2)
    expect(await store.prune({ olderThanMs: 2.5 * 86_400_000, now: new Date(Date.UTC(2026, 0, 6)) })).toBe(1)
    expect(await store.counts()).toEqual({ runs: 2, evalSets: 4, metricRows: 8, cases: 12, caseValues: 24 })
    await store.close()
  })

  test('a store of a newer schema is refused and left as it is', async () => {
    const dir = tempDir()
    const store = await open(dir)
    await store.append(makeReport(), { source: 'import' })
    await store.backend.run(`UPDATE meta SET value = '99' WHERE key = 'schema_version'`)
    await store.close()
    const before = readFileSync(join(dir, 'h.sqlite'))
    await expect(open(dir)).rejects.toThrow(/written by a newer rag-matchers \(history schema 99; .* knows 1\).*left as it is/)
    await expect(HistoryStore.open({ kind: 'sqlite', path: join(dir, 'h.sqlite') }, { root: dir, write: false })).rejects.toThrow(/newer rag-matchers/)
    const warnings: string[] = []
    expect(await recordRun(makeReport({ seed: 2 }), { root: dir, history: join(dir, 'h.sqlite'), source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(readFileSync(join(dir, 'h.sqlite')).equals(before)).toBe(true)
  })

  test('a report of a newer report schema, or not a rag-report, is refused', async () => {
    const dir = tempDir()
    const store = await open(dir)
    await expect(store.append({ ...makeReport(), schemaVersion: 2 } as never, { source: 'import' })).rejects.toThrow(/newer rag-matchers \(report schemaVersion 2/)
    await expect(store.append({ hello: 1 } as never, { source: 'import' })).rejects.toThrow(/is not a rag-report/)
    expect((await store.counts()).runs).toBe(0)
    await store.close()
  })

  test('targets: default, off, env wins, sqlite:, postgres recognized, unknown scheme named', () => {
    expect(resolveTarget(undefined, '/p', {})).toEqual({ kind: 'sqlite', path: '/p/.rag-matchers/history.sqlite' })
    expect(resolveTarget(false, '/p', {})).toEqual({ kind: 'off' })
    expect(resolveTarget('runs.db', '/p', { RAG_MATCHERS_HISTORY: 'off' })).toEqual({ kind: 'off' })
    expect(resolveTarget(false, '/p', { RAG_MATCHERS_HISTORY: 'x/h.sqlite' })).toEqual({ kind: 'sqlite', path: '/p/x/h.sqlite' })
    expect(parseTarget('sqlite:/tmp/h.db', '/p')).toEqual({ kind: 'sqlite', path: '/tmp/h.db' })
    expect(parseTarget('postgres://u:secret@db/h', '/p')).toEqual({ kind: 'postgres', url: 'postgres://u:secret@db/h' })
    expect(() => parseTarget('mysql://u:secret@db/h', '/p')).toThrow("unknown history store scheme 'mysql:' in 'mysql://u:***@db/h'")
  })

  test('openHistory reads; a missing store is an error, not a new file', async () => {
    const dir = tempDir()
    await expect(openHistory(join(dir, 'none.sqlite'))).rejects.toThrow(/no history store at/)
    const store = await openHistory(join(dir, 'h.sqlite'), { write: true })
    await store.append(makeReport(), { source: 'import' })
    await store.close()
    const read = await openHistory(`sqlite:${join(dir, 'h.sqlite')}`)
    expect((await read.metricSeries('set0', 'mean m0')).points).toHaveLength(1)
    await read.close()
  })

  test('the binding is node:sqlite where the runtime has it, better-sqlite3 otherwise', () => {
    const hasNodeSqlite =
      typeof (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule === 'function' &&
      (process as { getBuiltinModule: (id: string) => unknown }).getBuiltinModule('node:sqlite') !== undefined
    expect(sqliteBinding(process.cwd()).binding).toBe(hasNodeSqlite ? 'node:sqlite' : 'better-sqlite3')
  })
})

describe('recordRun never changes a result: one warning line naming the store and the cause', () => {
  test('records into the default store under the root, with git facts when a checkout', async () => {
    const dir = tempDir()
    const warnings: string[] = []
    const id = await recordRun(makeReport(), { root: dir, source: 'vitest', warn: (l) => warnings.push(l) })
    expect(warnings).toEqual([])
    const store = await openHistory(undefined, { root: dir })
    expect((await store.listRuns())[0]).toMatchObject({ id, nodeVersion: process.version })
    await store.close()
  })

  test('off by option or env', async () => {
    const dir = tempDir()
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
    ['postgres', 'postgres://u:pw@db/runs', /^rag-matchers history: PostgreSQL stores are not supported yet \(postgres:\/\/u:\*\*\*@db\/runs\); this run is not recorded$/],
    ['unknown scheme', 'redis://db/0', /^rag-matchers history: unknown history store scheme 'redis:'.*this run is not recorded$/],
  ])('%s: one line', async (_name, target, line) => {
    const warnings: string[] = []
    expect(await recordRun(makeReport(), { root: tempDir(), history: target, source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(line)
  })

  test('a corrupt file: one line, the file is not touched', async () => {
    const dir = tempDir()
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
    const dir = tempDir()
    const ro = join(dir, 'ro')
    mkdirSync(ro)
    chmodSync(ro, 0o555)
    const warnings: string[] = []
    expect(await recordRun(makeReport(), { root: ro, source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain(join(ro, '.rag-matchers/history.sqlite'))
  })

  test('a store path that cannot be a folder (a file in the way): one line', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'blocker'), 'x')
    const warnings: string[] = []
    expect(await recordRun(makeReport(), { root: dir, history: join(dir, 'blocker', 'h.sqlite'), source: 'vitest', warn: (l) => warnings.push(l) })).toBeUndefined()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^rag-matchers history: cannot record this run in .*blocker\/h\.sqlite: /)
    expect(warnings[0]).not.toContain('\n')
  })
})
