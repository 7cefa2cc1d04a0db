// A store written by the previous rag-matchers (history schema 1: fixtures/v1-store.sqlite, written by
// fixtures/write-store.ts at commit d5c23f7) is brought forward when opened for writing, and reads back the
// same runs; a migration that fails leaves it as it was.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { RagReport } from '../../src/report/model.js'
import { SqliteBackend } from '../../src/history/sqlite.js'
import { HistoryStore } from '../../src/history/store.js'
import { SCHEMA_VERSION } from '../../src/history/schema.js'

const FIXTURE = join(import.meta.dirname, 'fixtures', 'v1-store.sqlite')
const dir = mkdtempSync(join(tmpdir(), 'rag-history-v1-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let copies = 0
function copy(): string {
  const file = join(dir, `v1-${++copies}.sqlite`)
  copyFileSync(FIXTURE, file)
  return file
}

type Row = Record<string, unknown>
/** Plain SQL on a store file, without the store's migrations. */
async function raw<T>(file: string, fn: (db: SqliteBackend) => Promise<T>): Promise<T> {
  const db = SqliteBackend.open(file, { root: dir, create: true })
  try {
    return await fn(db)
  } finally {
    await db.close()
  }
}

describe('history schema 1 → 2', () => {
  test('a version 1 store migrates on open for writing and reads back the same runs', async () => {
    const file = copy()
    // What version 1 stored, read with plain SQL: each run's columns and its whole report JSON.
    const v1 = await raw(file, (db) => db.all<Row>(`SELECT * FROM runs ORDER BY ended_at, id`))
    expect(v1.map((r) => r.source)).toEqual(['vitest', 'vitest', 'import'])
    const reports = v1.map((r) => JSON.parse(String(r.report_json)) as RagReport)

    // Read-only, the older store is refused and not touched.
    const bytes = readFileSync(file)
    await expect(HistoryStore.open({ kind: 'sqlite', path: file }, { root: dir, write: false })).rejects.toThrow(/older history store/)
    expect(readFileSync(file).equals(bytes)).toBe(true)

    const store = await HistoryStore.open({ kind: 'sqlite', path: file }, { root: dir, write: true })
    expect(store.schemaVersion).toBe(SCHEMA_VERSION)
    expect(SCHEMA_VERSION).toBe(4)
    for (const [i, r] of v1.entries()) {
      const back = await store.readRun(String(r.id))
      expect(JSON.stringify(back)).toBe(JSON.stringify(reports[i]))
    }
    // Same runs, same ids, same facts in every column but the report's (now packed) and the content hash (now of the packed form).
    const v2 = await store.backend.all<Row>(`SELECT * FROM runs ORDER BY ended_at, id`)
    const facts = (r: Row) => Object.fromEntries(Object.entries(r).filter(([k]) => !['report_json', 'report_packed', 'content_hash'].includes(k)))
    expect(v2.map(facts)).toEqual(v1.map(facts))
    expect(Object.keys(v2[0] ?? {})).not.toContain('report_json')
    expect(await store.backend.hasTable('case_values')).toBe(false)
    expect(await store.backend.all(`SELECT value FROM meta WHERE key = 'schema_version'`)).toEqual([{ value: String(SCHEMA_VERSION) }])

    // The queries work on the migrated rows.
    const runs = await store.listRuns()
    expect(runs.map((r) => r.id)).toEqual(v1.map((r) => r.id))
    expect(runs[1]).toMatchObject({ git: { commit: '2222222222222222222222222222222222222222', branch: 'main' }, ci: { provider: 'github', runId: '42' } })
    const series = await store.metricSeries('set0', 'mean m1')
    expect(series.points.map((p) => p.value)).toEqual(reports.slice(0, 2).map((r) => r.evalSets[0]?.metrics[1]?.value))
    const kase = await store.caseSeries('set1', 'q2')
    const want = reports.slice(0, 2).map((r) => {
      const set = r.evalSets[1]
      const c = set?.cases.find((x) => x.id === 'q2')
      return Object.fromEntries(Object.entries(c?.values ?? {}).map(([key, v]) => [set?.metrics.find((m) => m.key === key)?.metric, v.value]))
    })
    expect(kase.map((p) => p.values)).toEqual(want)
    expect(kase.map((p) => p.failing)).toEqual(reports.slice(0, 2).map((r) => r.evalSets[1]?.cases.find((x) => x.id === 'q2')?.failing))
    const perCase = reports.flatMap((r) => r.evalSets.flatMap((s) => s.metrics.map((m) => m.values?.length ?? 0)))
    expect(await store.counts()).toMatchObject({ runs: 3, caseValues: perCase.reduce((a, b) => a + b, 0) })

    // The content hash is recomputed: the reports the version 1 store held add nothing when imported again.
    for (const [i, report] of reports.entries()) expect(await store.append(report, { source: 'import' })).toEqual({ id: String(v1[i]?.id), added: false })
    await store.close()

    // Opened again: nothing left to migrate, the runs as they were.
    const again = await HistoryStore.open({ kind: 'sqlite', path: file }, { root: dir, write: false })
    expect(JSON.stringify(await again.readRun('last'))).toBe(JSON.stringify(reports[2]))
    await again.close()
  })

  test('a migration that fails leaves the version 1 store as it was (one transaction)', async () => {
    const file = copy()
    await raw(file, (db) => db.run(`UPDATE runs SET report_json = '{"not json' WHERE source = 'import'`))
    const before = await raw(file, (db) => db.all<Row>(`SELECT * FROM runs ORDER BY id`))
    await expect(HistoryStore.open({ kind: 'sqlite', path: file }, { root: dir, write: true })).rejects.toThrow(/cannot use .*v1-\d\.sqlite/)
    await raw(file, async (db) => {
      expect(await db.all(`SELECT value FROM meta WHERE key = 'schema_version'`)).toEqual([{ value: '1' }])
      expect(await db.all<Row>(`SELECT * FROM runs ORDER BY id`)).toEqual(before)
      expect(await db.hasTable('case_values')).toBe(true)
      expect((await db.all<{ n: number }>(`SELECT COUNT(*) AS n FROM case_values`))[0]?.n).toBeGreaterThan(0)
    })
  })
})
