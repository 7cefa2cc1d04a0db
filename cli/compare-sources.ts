/**
 * The two sides of `rag-matchers compare`: a rag-report.json file, or a run of the history store named by a
 * run reference (`last`, `last~N`, a run id or its prefix, a git commit prefix; src/history/run-ref.ts).
 *
 * File or reference is decided per argument, without guessing: an existing path is a file (so a file that
 * happens to be called `last` is still read as a file); anything else with the form of a run reference is
 * looked up in the store; anything else is a file that is not there. The store is opened only when a side
 * is a run, read-only.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { HistoryError } from '../src/history/errors.js'
import { looksLikeRunRef } from '../src/history/run-ref.js'
import { HistoryStore, type RunSummary } from '../src/history/store.js'
import { mergeReportFiles, mergeReports } from '../src/report/merge.js'
import type { RagReport } from '../src/report/model.js'
import { historyTarget } from './history-target.js'

export interface CompareSide {
  /** What the output calls it: the file as given, or `run ID (REF)`. */
  readonly label: string
  readonly report: RagReport
  /** The stored run, for a run reference. */
  readonly run?: RunSummary
}

/** Whether `arg` is read as a run of the history store (not an existing path, and a reference in form). */
export function isRunArgument(arg: string, cwd: string): boolean {
  return !existsSync(resolve(cwd, arg)) && looksLikeRunRef(arg)
}

/**
 * Loads both sides, in the form compare reads a report (re-grouped from its assertions, as for a file).
 * Throws a HistoryError for a store or reference problem (no store, a reference naming no run or several)
 * and the file's own error for a file.
 */
export async function loadSides(args: readonly string[], options: { history?: string; cwd: string }): Promise<CompareSide[]> {
  const runArgs = args.filter((a) => isRunArgument(a, options.cwd))
  const runs = new Map<string, { run: RunSummary; report: RagReport }>()
  if (runArgs.length > 0) {
    const target = historyTarget(options.history, options.cwd)
    let store: HistoryStore
    try {
      store = await HistoryStore.open(target, { root: options.cwd, write: false })
    } catch (error) {
      if (!(error instanceof HistoryError) || error.kind === 'usage') throw error
      throw new HistoryError(`'${runArgs[0]}' is not a file, so it names a run of the history: ${error.message}`)
    }
    try {
      for (const arg of runArgs) {
        if (runs.has(arg)) continue
        const id = await store.resolveRef(arg)
        runs.set(arg, { run: await store.runSummary(id), report: await store.readRun(id) })
      }
    } finally {
      await store.close()
    }
  }
  return args.map((arg): CompareSide => {
    const stored = runs.get(arg)
    if (stored === undefined) return { label: arg, report: mergeReportFiles([resolve(options.cwd, arg)]) }
    return {
      label: stored.run.id === arg.trim().toLowerCase() ? `run ${stored.run.id}` : `run ${stored.run.id} (${arg.trim()})`,
      report: mergeReports([stored.report]),
      run: stored.run,
    }
  })
}

/** One line naming a side for the text and Markdown output: the file, or the run with its time and commit. */
export function sideLine(side: CompareSide): string {
  const r = side.run
  if (r === undefined) return side.label
  const when = r.endedAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z')
  const git = r.git?.commit ? `, ${r.git.branch ?? '(detached)'}@${r.git.commit.slice(0, 7)}${r.git.dirty ? '+dirty' : ''}` : ''
  return `${side.label}, ${when}${git}`
}
