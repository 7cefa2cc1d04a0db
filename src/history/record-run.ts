/**
 * What the reporters and `merge-reports` call after the report is written: append the run to the
 * history store. It never throws and never changes a test result: a store that cannot be written
 * (read-only folder, corrupt file, missing binding, a lock held too long, a newer schema, a PostgreSQL
 * server that is down or refuses the password) is one warning line naming the store and the cause. A
 * corrupt file is never deleted or overwritten.
 */
import type { RagReport } from '../report/model.js'
import { HistoryError } from './errors.js'
import { runEnvironment } from './run-info.js'
import { sqliteMessage } from './sqlite.js'
import { HistoryStore, type RunSource } from './store.js'
import { HISTORY_ENV, resolveTarget, targetText, type HistoryTarget } from './target.js'

export interface RecordRunOptions {
  /** The project root: the default store is `.rag-matchers/history.sqlite` under it, and git runs there. */
  readonly root: string
  /** The reporter option: `false` turns history off; a string is a store (path or URL). */
  readonly history?: string | boolean
  readonly source: RunSource
  readonly startedAt?: Date
  /** One line, without a newline; default: stderr. */
  readonly warn?: (line: string) => void
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim()
}

/**
 * Appends `report` to the run history (resolved from `options.history` and `RAG_MATCHERS_HISTORY`).
 * Resolves to the stored run id, or undefined when history is off or the run could not be stored (then
 * one warning line has been written). Never rejects.
 *
 * @example
 * await recordRun(report, { root: process.cwd(), source: 'vitest' })
 */
export async function recordRun(report: RagReport, options: RecordRunOptions): Promise<string | undefined> {
  const warn = options.warn ?? ((line: string) => process.stderr.write(`${line}\n`))
  let target: HistoryTarget
  try {
    target = resolveTarget(options.history, options.root)
  } catch (error) {
    const from = process.env[HISTORY_ENV]?.trim() ? ` (from ${HISTORY_ENV})` : ''
    warn(oneLine(`rag-matchers history: ${(error as Error).message}${from}; this run is not recorded`))
    return undefined
  }
  if (target.kind === 'off') return undefined
  let store: HistoryStore | undefined
  try {
    store = await HistoryStore.open(target, { root: options.root, write: true })
    const environment = runEnvironment(report.runner, options.root)
    const { id } = await store.append(report, { source: options.source, ...(options.startedAt ? { startedAt: options.startedAt } : {}), environment })
    return id
  } catch (error) {
    const cause = error instanceof HistoryError ? error.message : sqliteMessage(error)
    warn(oneLine(`rag-matchers history: cannot record this run in ${targetText(target)}: ${cause.replace(`${targetText(target)}: `, '')}`))
    return undefined
  } finally {
    try {
      await store?.close()
    } catch {
      // Closing a store that failed is nothing to report twice.
    }
  }
}
