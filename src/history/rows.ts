/**
 * A report as rows of the normalized tables: one per eval set, metric row, case and per-case value.
 * The report model (src/report/model.ts) stays the one model; these rows are a second serialisation
 * for queries, and `runs.report_json` keeps the whole report for a lossless `show`.
 */
import type { EvalSetSection, MetricRow, RagReport } from '../report/model.js'
import type { SqlValue } from './backend.js'

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

export interface ReportRows {
  readonly sets: SqlValue[][]
  readonly metrics: SqlValue[][]
  readonly cases: SqlValue[][]
  readonly values: SqlValue[][]
}

export const INSERT_SET = `INSERT INTO eval_sets (run_id, set_index, set_key, name, source, pass, metrics, cases, files_json, baselines_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
export const INSERT_METRIC = `INSERT INTO metric_rows (run_id, set_index, metric_index, set_name, row_key, metric, matcher, signature, value, threshold, comparator, is_not, pass, scale, direction, aggregate, n, assertions, failed_assertions, errored, baseline_mean, baseline_delta, baseline_status, row_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
export const INSERT_CASE = `INSERT INTO cases (run_id, set_index, case_index, set_name, case_id, question, answer, retrieved_json, failing_json, case_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
export const INSERT_VALUE = `INSERT INTO case_values (run_id, set_index, metric_index, position, case_id, value, pass) VALUES (?, ?, ?, ?, ?, ?, ?)`

/** The rows of every eval set of `report`, keyed by `runId`. */
export function reportRows(report: RagReport, runId: string): ReportRows {
  const lower = new Set(report.assertions.filter((a) => a.direction === 'lower').map((a) => `${a.matcher}\u0000${a.signature}`))
  const sets: SqlValue[][] = []
  const metrics: SqlValue[][] = []
  const cases: SqlValue[][] = []
  const values: SqlValue[][] = []
  report.evalSets.forEach((set, s) => {
    sets.push([runId, s, set.key, set.name, set.source, bool(set.pass), set.metrics.length, set.cases.length, JSON.stringify(set.files), JSON.stringify(set.baselines)])
    set.metrics.forEach((row, m) => {
      const { values: perCase, ...rest } = row
      const direction = lower.has(`${row.matcher}\u0000${row.signature}`) ? 'lower' : 'higher'
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
        JSON.stringify(rest),
      ])
      perCase?.forEach((v, i) => values.push([runId, s, m, i, v.id, num(v.value), bool(v.pass)]))
    })
    set.cases.forEach((c, i) => {
      cases.push([
        runId,
        s,
        i,
        set.name,
        c.id,
        c.question ?? null,
        c.answer ?? null,
        c.retrieved === undefined ? null : JSON.stringify(c.retrieved),
        JSON.stringify(c.failing),
        JSON.stringify(c),
      ])
    })
  })
  return { sets, metrics, cases, values }
}
