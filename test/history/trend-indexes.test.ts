// History schema 3 (#29): two covering indexes over the metric rows' small columns (and the baseline interval columns), so that the history UI
// reads a set's trend and the newest runs' rows without touching the rows' packed per-case values. A new
// store has them; a version 2 store is read as it is by a read-only open (same answers, nothing written)
// and gets them on its next write; on SQLite the UI's reads are answered from the index alone.
import { describe, expect, test } from 'vitest'
import { HistoryStore } from '../../src/history/store.js'
import { SCHEMA_VERSION } from '../../src/history/schema.js'
import type { HistoryBackend } from '../../src/history/backend.js'
import { runCells, setCells } from '../../src/ui/history-queries.js'
import { BACKENDS, backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'
import { makeReport } from './make-report.js'

const TREND_INDEXES = ['metric_rows_by_run', 'metric_rows_trend']

async function indexes(backend: HistoryBackend): Promise<string[]> {
  const rows =
    backend.kind === 'sqlite'
      ? await backend.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'metric_rows' AND name NOT LIKE 'sqlite_%'`)
      : await backend.all<{ name: string }>(`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'metric_rows' AND indexname NOT LIKE '%_pkey'`)
  return rows.map((r) => r.name).sort()
}

for (const kind of BACKENDS) {
  describe.skipIf(skipBackend(kind))(backendTitle('history schema 3: covering indexes of the metric rows', kind), () => {
    const fx = storeFixture(kind)

    test('a new store has them; a version 2 store is read as it is, unchanged, and gets them on its next write', async () => {
      const { target, dir } = await fx.fresh()
      const store = await HistoryStore.open(target, { root: dir, write: true })
      expect(store.schemaVersion).toBe(SCHEMA_VERSION)
      expect(await indexes(store.backend)).toEqual(TREND_INDEXES)
      for (let seed = 1; seed <= 3; seed++) await store.append(makeReport({ sets: 2, metrics: 3, cases: 4, seed }), { source: 'vitest' })
      const runs = await store.listRuns()
      const series = await store.metricSeries('set0', 'mean m1')
      // the store as version 2 left it: no interval columns, the one series index, version 2 in meta
      for (const name of TREND_INDEXES) await store.backend.exec(`DROP INDEX ${name}`)
      for (const column of ['baseline_ci_low', 'baseline_ci_high']) await store.backend.exec(`ALTER TABLE metric_rows DROP COLUMN ${column}`)
      await store.backend.exec(`CREATE INDEX metric_rows_series ON metric_rows (set_name, metric, run_id)`)
      await store.backend.run(`UPDATE meta SET value = '2' WHERE key = 'schema_version'`)
      await store.close()

      const v2 = await HistoryStore.open(target, { root: dir, write: false })
      expect(v2.schemaVersion).toBe(2)
      expect(await v2.listRuns()).toEqual(runs)
      expect(await v2.metricSeries('set0', 'mean m1')).toEqual(series)
      const order = new Map(runs.map((r, i) => [r.id, i]))
      expect((await setCells(v2, order, 'set0')).map((c) => [c.runId, c.metric, c.value])).toEqual(
        runs.flatMap((r) => ['mean m0', 'mean m1', 'mean m2'].map((m) => [r.id, m, expect.any(Number)])),
      )
      expect(await indexes(v2.backend)).toEqual(['metric_rows_series'])
      await v2.close()

      const written = await HistoryStore.open(target, { root: dir, write: true })
      expect(written.schemaVersion).toBe(SCHEMA_VERSION)
      expect(await indexes(written.backend)).toEqual(TREND_INDEXES)
      expect(await written.listRuns()).toEqual(runs)
      expect(await written.metricSeries('set0', 'mean m1')).toEqual(series)
      await written.close()
    })

    if (kind === 'sqlite') {
      test("the UI's reads of a set's trend and of a page of runs use the covering indexes, not the table", async () => {
        const { target, dir } = await fx.fresh()
        const store = await HistoryStore.open(target, { root: dir, write: true })
        try {
          await store.append(makeReport({ sets: 2, metrics: 3, cases: 4, seed: 1 }), { source: 'vitest' })
          const [run] = await store.listRuns()
          // capture the statements the UI sends, and ask SQLite how it answers each
          const sent: Array<{ sql: string; params: unknown[] }> = []
          const all = store.backend.all.bind(store.backend)
          store.backend.all = (async (sql: string, params: unknown[] = []) => {
            sent.push({ sql, params })
            return all(sql, params as never)
          }) as typeof store.backend.all
          const order = new Map([[run!.id, 0]])
          expect(await setCells(store, order, 'set1')).toHaveLength(3)
          expect(await runCells(store, order, [run!.id])).toHaveLength(6)
          expect(sent).toHaveLength(2)
          const plans = await Promise.all(sent.map(({ sql, params }) => all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params as never)))
          expect(plans.map((p) => p.map((r) => r.detail).join('; '))).toEqual([
            expect.stringMatching(/^SEARCH metric_rows USING COVERING INDEX metric_rows_trend \(set_name=\?\)$/),
            expect.stringMatching(/^SEARCH metric_rows USING COVERING INDEX metric_rows_by_run \(run_id=\?\)$/),
          ])
        } finally {
          await store.close()
        }
      })
    }
  })
}
