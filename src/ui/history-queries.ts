/**
 * The reads the UI needs beyond the store's own queries, in one statement each so that a page over 1,000
 * runs × 200 metric rows is one round trip instead of 200 `metricSeries` calls. They go through the
 * store's public `backend` (the same `?`-placeholder SQL every backend speaks) and read only.
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
}

type Row = Record<string, unknown>
// PostgreSQL's driver returns COUNT(*) and BIGINT columns as strings
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined

/**
 * Every metric row, oldest run first (the first row of a label in a run wins, as `metricSeries` picks
 * it), optionally of one eval set only.
 */
export async function metricCells(store: HistoryStore, set?: string): Promise<MetricCell[]> {
  const rows = await store.backend.all<Row>(
    `SELECT m.run_id, m.set_name, m.metric, m.matcher, m.value, m.threshold, m.comparator, m.pass, m.direction, m.scale, m.baseline_mean
     FROM metric_rows m JOIN runs r ON r.id = m.run_id
     ${set === undefined ? '' : 'WHERE m.set_name = ?'}
     ORDER BY r.ended_at, r.id, m.set_index, m.metric_index`,
    set === undefined ? [] : [set],
  )
  const seen = new Set<string>()
  const out: MetricCell[] = []
  for (const r of rows) {
    const runId = String(r.run_id)
    const setName = String(r.set_name)
    const metric = String(r.metric)
    const key = `${runId}\u0000${setName}\u0000${metric}`
    if (seen.has(key)) continue
    seen.add(key)
    const threshold = num(r.threshold)
    const scale = num(r.scale)
    const baseline = num(r.baseline_mean)
    out.push({
      runId,
      set: setName,
      metric,
      matcher: String(r.matcher),
      value: num(r.value) ?? null,
      ...(threshold !== undefined ? { threshold } : {}),
      comparator: String(r.comparator),
      pass: num(r.pass) === 1,
      direction: r.direction === 'lower' ? 'lower' : 'higher',
      ...(scale !== undefined ? { scale } : {}),
      ...(baseline !== undefined ? { baseline } : {}),
    })
  }
  return out
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
