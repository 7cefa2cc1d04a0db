/**
 * The reads the UI needs beyond the store's own queries, in one statement each so that a page over 1,000
 * runs × 200 metric rows is one round trip instead of 200 `metricSeries` calls. They go through the
 * store's public `backend` (the same `?`-placeholder SQL every backend speaks) and read only. The metric
 * rows are read by set name or by run id through the covering indexes of schema 3, never all at once.
 */
import type { HistoryStore } from '../history/public.js'

/** One metric row of one run: what the runs page and the set charts plot. */
export interface MetricCell {
  readonly runId: string
  readonly set: string
  readonly metric: string
  readonly matcher: string
  readonly value: number | null
  readonly threshold?: number
  readonly comparator: string
  readonly pass: boolean
  readonly direction: 'higher' | 'lower'
  readonly scale?: number
  readonly baseline?: number
  /** The baseline comparison's bootstrap interval of the change (current − baseline), when one was computed. */
  readonly ci?: readonly [number, number]
}

type Row = Record<string, unknown>
// PostgreSQL's driver returns COUNT(*) and BIGINT columns as strings
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined

/** The columns of a metric cell: all in the covering indexes metric_rows_trend and metric_rows_by_run (schema 3). */
const CELL_COLUMNS = 'run_id, set_index, metric_index, set_name, metric, matcher, comparator, value, threshold, pass, direction, scale, baseline_mean'

/** Parameters per `IN (…)` list: well under SQLite's and PostgreSQL's limits. */
const IN_CHUNK = 500

function cellOf(r: Row): MetricCell {
  const threshold = num(r.threshold)
  const scale = num(r.scale)
  const baseline = num(r.baseline_mean)
  const low = num(r.baseline_ci_low)
  const high = num(r.baseline_ci_high)
  return {
    runId: String(r.run_id),
    set: String(r.set_name),
    metric: String(r.metric),
    matcher: String(r.matcher),
    value: num(r.value) ?? null,
    ...(threshold !== undefined ? { threshold } : {}),
    comparator: String(r.comparator),
    pass: num(r.pass) === 1,
    direction: r.direction === 'lower' ? 'lower' : 'higher',
    ...(scale !== undefined ? { scale } : {}),
    ...(baseline !== undefined ? { baseline } : {}),
    ...(low !== undefined && high !== undefined ? { ci: [low, high] as const } : {}),
  }
}

/**
 * Rows in run order (`order`: a run id's position, oldest first; rows of runs it does not know are left
 * out), then set and metric index, keeping the first row of a label in a run, as `metricSeries` picks it.
 * Sorted here rather than by an ORDER BY joined with `runs`, so the read stays in one covering index.
 */
function cellsInOrder(rows: readonly Row[], order: ReadonlyMap<string, number>): MetricCell[] {
  const known = rows.filter((r) => order.has(String(r.run_id)))
  const at = (r: Row) => order.get(String(r.run_id)) as number
  known.sort((a, b) => at(a) - at(b) || (num(a.set_index) ?? 0) - (num(b.set_index) ?? 0) || (num(a.metric_index) ?? 0) - (num(b.metric_index) ?? 0))
  const seen = new Set<string>()
  const out: MetricCell[] = []
  for (const r of known) {
    const key = `${String(r.run_id)}\u0000${String(r.set_name)}\u0000${String(r.metric)}`
    if (seen.has(key)) continue
    seen.add(key)
    out.push(cellOf(r))
  }
  return out
}

/**
 * The metric rows of eval set `set` (optionally of one metric), in run order: a set's charts, with the
 * baseline comparison's interval (a schema 3 column, also in metric_rows_trend; a version 2 store has none).
 */
export async function setCells(store: HistoryStore, order: ReadonlyMap<string, number>, set: string, metric?: string): Promise<MetricCell[]> {
  const columns = store.schemaVersion >= 3 ? `${CELL_COLUMNS}, baseline_ci_low, baseline_ci_high` : CELL_COLUMNS
  const rows = await store.backend.all<Row>(
    `SELECT ${columns} FROM metric_rows WHERE set_name = ?${metric === undefined ? '' : ' AND metric = ?'}`,
    metric === undefined ? [set] : [set, metric],
  )
  return cellsInOrder(rows, order)
}

/** The metric rows of the runs `runIds`, in run order: a page of the runs list. */
export async function runCells(store: HistoryStore, order: ReadonlyMap<string, number>, runIds: readonly string[]): Promise<MetricCell[]> {
  const rows: Row[] = []
  for (let i = 0; i < runIds.length; i += IN_CHUNK) {
    const chunk = runIds.slice(i, i + IN_CHUNK)
    rows.push(...(await store.backend.all<Row>(`SELECT ${CELL_COLUMNS} FROM metric_rows WHERE run_id IN (${chunk.map(() => '?').join(', ')})`, chunk)))
  }
  return cellsInOrder(rows, order)
}

/** The metric labels of each eval set, in name order. */
export async function setMetrics(store: HistoryStore): Promise<Map<string, string[]>> {
  const rows = await store.backend.all<Row>(`SELECT DISTINCT set_name, metric FROM metric_rows ORDER BY set_name, metric`)
  const out = new Map<string, string[]>()
  for (const r of rows) {
    const list = out.get(String(r.set_name)) ?? []
    list.push(String(r.metric))
    out.set(String(r.set_name), list)
  }
  return out
}

/** The case ids recorded for an eval set. */
export async function caseIds(store: HistoryStore, set: string): Promise<string[]> {
  const rows = await store.backend.all<Row>(`SELECT DISTINCT case_id FROM cases WHERE set_name = ?`, [set])
  return rows.map((r) => String(r.case_id))
}

/** The newest run and the number of runs: what the open page polls. */
export async function latestRun(store: HistoryStore): Promise<{ latest: string | null; runs: number }> {
  const last = await store.backend.all<Row>(`SELECT id FROM runs ORDER BY ended_at DESC, id DESC LIMIT 1`)
  const count = await store.backend.all<Row>(`SELECT COUNT(*) AS n FROM runs`)
  return { latest: last[0] === undefined ? null : String(last[0].id), runs: num(count[0]?.n) ?? 0 }
}
