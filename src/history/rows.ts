/**
 * A run's rows in the query tables: one per eval set, metric row (with its per-case values packed) and
 * case (its id and texts). The report model (src/report/model.ts) stays the one model; these rows and
 * the skeleton in `runs.report_packed` are its stored form (packed-report.ts), written with a few
 * multi-row INSERTs instead of one statement per row.
 */
import type { EvalSetSection, MetricRow, RagReport } from '../report/model.js'
import type { HistoryBackend, SqlValue } from './backend.js'
import { deflateJson } from './blob-codec.js'
import type { PackedReport, PackedValues } from './packed-report.js'

const bool = (b: boolean | undefined): SqlValue => (b === undefined ? null : b ? 1 : 0)
const num = (n: number | null | undefined): SqlValue => (typeof n === 'number' && Number.isFinite(n) ? n : null)

/** A signature without its version entries: the settings that say whether two numbers were computed alike. */
function comparableSignature(signature: string): string {
  return signature
    .split('|')
    .filter((part) => !/^(version|rev|failed):/.test(part))
    .join('|')
}

/** The baseline comparison status of a metric row (`ok`, `regressed`, …) recorded by a baseline assertion with the same settings. */
function baselineStatus(set: EvalSetSection, row: MetricRow): string | null {
  const want = comparableSignature(row.signature)
  const match = set.baselines.find((b) => b.signature !== undefined && comparableSignature(b.signature) === want)
  return match?.status ?? null
}

export const SET_COLUMNS = ['run_id', 'set_index', 'set_key', 'name', 'source', 'pass', 'metrics', 'cases'] as const
export const METRIC_COLUMNS = [
  'run_id',
  'set_index',
  'metric_index',
  'set_name',
  'row_key',
  'metric',
  'matcher',
  'signature',
  'value',
  'threshold',
  'comparator',
  'is_not',
  'pass',
  'scale',
  'direction',
  'aggregate',
  'n',
  'assertions',
  'failed_assertions',
  'errored',
  'baseline_mean',
  'baseline_delta',
  'baseline_status',
  'value_count',
  'case_values',
  'case_passes',
  'case_ids',
  'baseline_ci_low',
  'baseline_ci_high',
] as const
/** The metric row columns of schema 2 (the v1 → v2 migration writes these; schema 3 added the last two). */
export const METRIC_COLUMNS_V2 = METRIC_COLUMNS.slice(0, -2)
export const CASE_COLUMNS = ['run_id', 'set_index', 'case_index', 'set_name', 'case_id', 'texts'] as const

export interface ReportRows {
  readonly sets: SqlValue[][]
  readonly metrics: SqlValue[][]
  readonly cases: SqlValue[][]
}

/** The rows of every eval set of `report` (packed as `packed`), keyed by `runId`. */
export function reportRows(report: RagReport, packed: PackedReport, runId: string): ReportRows {
  const lower = new Set(report.assertions.filter((a) => a.direction === 'lower').map((a) => `${a.matcher}\u0000${a.signature}`))
  const packedRows = new Map<string, PackedValues>(packed.values.map((v) => [`${v.setIndex} ${v.metricIndex}`, v]))
  const sets: SqlValue[][] = []
  const metrics: SqlValue[][] = []
  report.evalSets.forEach((set, s) => {
    sets.push([runId, s, set.key, set.name, set.source, bool(set.pass), set.metrics.length, set.cases.length])
    set.metrics.forEach((row, m) => {
      // a measured row (latency, tokens, cost: no assertion behind it) is lower-is-better, as its comparator says
      const direction = lower.has(`${row.matcher}\u0000${row.signature}`) || (row.assertions === 0 && row.comparator === '<=') ? 'lower' : 'higher'
      const p = packedRows.get(`${s} ${m}`)
      metrics.push([
        runId,
        s,
        m,
        set.name,
        row.key,
        row.metric,
        row.matcher,
        row.signature,
        num(row.value),
        num(row.threshold),
        row.comparator,
        bool(row.isNot),
        bool(row.pass),
        num(row.scale),
        direction,
        row.aggregate,
        row.n,
        row.assertions,
        row.failedAssertions,
        row.errored ?? 0,
        num(row.baseline?.mean),
        num(row.baseline?.delta),
        baselineStatus(set, row),
        p?.count ?? null,
        p?.values ?? null,
        p?.passes ?? null,
        p?.ids === undefined ? null : deflateJson(JSON.stringify(p.ids)),
        num(row.baseline?.ci?.[0]),
        num(row.baseline?.ci?.[1]),
      ])
    })
  })
  const names = report.evalSets.map((set) => set.name)
  const cases = packed.cases.map((c): SqlValue[] => [runId, c.setIndex, c.caseIndex, names[c.setIndex] ?? '', c.id, c.texts])
  return { sets, metrics, cases }
}

/** Rows per statement: a power of two, so that a backend caching prepared statements sees a handful of shapes. */
const MAX_ROWS = 256
/** Placeholders per statement: well under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMS = 8_000

/**
 * Inserts `rows` into `table` with multi-row `INSERT … VALUES (…), (…)` statements (portable SQL; far
 * fewer statements than rows: 10,000 cases are about 40).
 */
export async function insertRows(backend: HistoryBackend, table: string, columns: readonly string[], rows: ReadonlyArray<readonly SqlValue[]>): Promise<void> {
  const one = `(${columns.map(() => '?').join(', ')})`
  let limit = MAX_ROWS
  while (limit > 1 && limit * columns.length > MAX_PARAMS) limit /= 2
  let at = 0
  while (at < rows.length) {
    let size = limit
    while (size > rows.length - at) size /= 2
    const params: SqlValue[] = []
    for (let i = at; i < at + size; i++) params.push(...(rows[i] as readonly SqlValue[]))
    await backend.run(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${Array.from({ length: size }, () => one).join(', ')}`, params)
    at += size
  }
}

/**
 * Writes a run's eval sets, metric rows and cases (the caller holds the transaction and writes the runs row
 * first). `metricColumns`: a prefix of METRIC_COLUMNS, for a migration step that writes an older schema's rows.
 */
export async function writeRunRows(
  backend: HistoryBackend,
  runId: string,
  report: RagReport,
  packed: PackedReport,
  metricColumns: readonly string[] = METRIC_COLUMNS,
): Promise<void> {
  const rows = reportRows(report, packed, runId)
  await insertRows(backend, 'eval_sets', SET_COLUMNS, rows.sets)
  await insertRows(
    backend,
    'metric_rows',
    metricColumns,
    rows.metrics.map((r) => r.slice(0, metricColumns.length)),
  )
  await insertRows(backend, 'cases', CASE_COLUMNS, rows.cases)
}
