/**
 * `rag-matchers/history`: the run history the reporters append to (SQLite `.rag-matchers/history.sqlite`
 * under the project root by default, or a PostgreSQL database given as `postgres://…`), and the queries
 * behind `rag-matchers history`.
 *
 * @example
 * import { openHistory } from 'rag-matchers/history'
 * const history = await openHistory()
 * const series = await history.metricSeries('qa', 'mean recall@3', { last: 20 })
 * await history.close()
 */
import { HistoryStore } from './store.js'
import { parseTarget, type HistoryTarget } from './target.js'

export { HistoryStore, checkReport, reportHash, parseAge } from './store.js'
export type { AppendOptions, CasePoint, MetricSeries, RunFilter, RunSource, RunSummary, SeriesPoint } from './store.js'
export { HistoryError } from './errors.js'
export { recordRun, type RecordRunOptions } from './record-run.js'
export { parseTarget, resolveTarget, DEFAULT_HISTORY_FILE, HISTORY_ENV, type HistoryTarget } from './target.js'
export { SCHEMA_VERSION as HISTORY_SCHEMA_VERSION } from './schema.js'
export type { HistoryBackend, SqlValue, BackendKind } from './backend.js'
export type { RunEnvironment, GitInfo, CiInfo } from './run-info.js'

export interface OpenHistoryOptions {
  /** Root for a relative path and the default store. Default: the current directory. */
  readonly root?: string
  /** Create the store when missing and bring its schema forward (default false: read only, a missing store is an error). */
  readonly write?: boolean
}

/**
 * Opens a history store: a SQLite file path, `sqlite:PATH`, a `postgres://user:password@host:port/database`
 * URL (the optional peer dependency `pg`), or a parsed target; default
 * `RAG_MATCHERS_HISTORY` or `.rag-matchers/history.sqlite` under `root`. Methods: `listRuns(filter)`,
 * `readRun(ref)` (the report model), `metricSeries(set, metric, { last })`, `caseSeries(set, id)`,
 * `runSummary(ref)`, `exportRuns()`, `prune(…)`, `close()`. Throws a HistoryError (one line) when it
 * cannot: no store, a newer schema, an unknown scheme, a malformed URL, a PostgreSQL server that is
 * down or refuses the password, `pg` not installed.
 *
 * @example
 * const history = await openHistory('.rag-matchers/history.sqlite')
 * const report = await history.readRun('last')
 */
export async function openHistory(target?: string | HistoryTarget, options: OpenHistoryOptions = {}): Promise<HistoryStore> {
  const root = options.root ?? process.cwd()
  const fromEnv = process.env.RAG_MATCHERS_HISTORY
  const resolved =
    typeof target === 'object' ? target : parseTarget(target ?? (fromEnv !== undefined && fromEnv.trim() !== '' && !/^off$/i.test(fromEnv.trim()) ? fromEnv : ''), root)
  return HistoryStore.open(resolved, { root, write: options.write === true })
}
