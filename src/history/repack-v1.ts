/**
 * The code step of the schema 1 → 2 migration: every run stored by version 1 keeps its whole report in
 * `runs.report_json`, from which its version 2 rows (eval sets, metric rows with packed values, cases) and
 * its packed skeleton are written, one run at a time. Its content hash is recomputed (version 2 hashes the
 * packed form), so importing a report a version 1 store already holds still adds nothing; its id stays.
 */
import type { RagReport } from '../report/model.js'
import type { HistoryBackend } from './backend.js'
import { deflateJson } from './blob-codec.js'
import { packReport } from './packed-report.js'
import { METRIC_COLUMNS_V2, writeRunRows } from './rows.js'

export async function repackV1Runs(backend: HistoryBackend): Promise<void> {
  const ids = await backend.all<{ id: string }>(`SELECT id FROM runs ORDER BY ended_at, id`)
  for (const { id } of ids) {
    // One report in memory at a time: a version 1 run can be a 40 MB JSON document.
    const rows = await backend.all<{ report_json: string }>(`SELECT report_json FROM runs WHERE id = ?`, [id])
    const report = JSON.parse(String(rows[0]?.report_json)) as RagReport
    const packed = packReport(report)
    // the rows as schema 2 has them (the 2 → 3 step adds its columns after)
    await writeRunRows(backend, String(id), report, packed, METRIC_COLUMNS_V2)
    await backend.run(`UPDATE runs SET report_packed = ?, content_hash = ? WHERE id = ?`, [deflateJson(packed.skeleton), packed.hash, String(id)])
  }
}
