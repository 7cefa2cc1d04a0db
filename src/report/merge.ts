/**
 * Merging per-shard rag-report.json files (Jest `--shard=i/n`, or any runs of disjoint test files)
 * into one report. Vitest users can instead merge blob reports with `vitest --merge-reports` and our
 * reporter; both paths end in the same `buildReport`.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { MetricInputError } from '../errors.js'
import { buildReport, REPORT_SCHEMA_VERSION, type RagReport, type ReportAssertion, type RunFailure, type RunOutcome } from './model.js'

function checkReport(value: unknown, where: string): RagReport {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MetricInputError('mergeReports', where, 'a rag-report object', value)
  }
  const r = value as Partial<RagReport>
  if (r.schemaVersion !== REPORT_SCHEMA_VERSION) {
    throw new MetricInputError(
      'mergeReports',
      `${where}.schemaVersion`,
      `${REPORT_SCHEMA_VERSION} (a rag-report.json written by this version of rag-matchers)`,
      r.schemaVersion,
    )
  }
  if (!Array.isArray(r.assertions)) throw new MetricInputError('mergeReports', `${where}.assertions`, 'an array', r.assertions)
  return r as RagReport
}

/**
 * Merges reports into one: the union of their assertions, regrouped by `buildReport`. Means of eval
 * sets split across reports are recomputed from the union of per-case values (never an average of
 * the per-report means), in the canonical order (file, test, assertion), so merging the shards of a
 * run gives exactly the unsharded numbers. An assertion present in two reports (the same file run in
 * two shards) is kept once.
 *
 * Throws MetricInputError when `reports` is empty or a report has another `schemaVersion`.
 *
 * @example
 * const merged = mergeReports([shard1, shard2, shard3])
 * merged.evalSets[0]?.metrics[0]?.value // mean over the cases of all three shards
 */
export function mergeReports(reports: readonly unknown[], options: { createdAt?: Date } = {}): RagReport {
  if (!Array.isArray(reports) || reports.length === 0) {
    throw new MetricInputError('mergeReports', 'reports', 'a non-empty array of rag-report.json objects', reports)
  }
  const checked = reports.map((r, i) => checkReport(r, `reports[${i}]`))
  const seen = new Set<string>()
  const assertions: ReportAssertion[] = []
  for (const report of checked) {
    for (const a of report.assertions) {
      const key = `${a.file}\u0000${a.testIndex}\u0000${a.index}`
      if (seen.has(key)) continue
      seen.add(key)
      assertions.push(a)
    }
  }
  const run = mergeRuns(checked)
  return buildReport(assertions, {
    runner: 'merged',
    mergedFrom: checked.length,
    ...(run !== undefined ? { run } : {}),
    ...(options.createdAt ? { createdAt: options.createdAt } : {}),
  })
}

/** The runners' outcomes of the inputs, summed; failures listed once. Undefined when no input had one (older reports). */
function mergeRuns(reports: readonly RagReport[]): RunOutcome | undefined {
  const runs = reports.map((r) => r.run).filter((r): r is RunOutcome => r !== undefined && r !== null && typeof r === 'object')
  if (runs.length === 0) return undefined
  const once = (lists: ReadonlyArray<readonly RunFailure[] | undefined>): RunFailure[] => {
    const seen = new Set<string>()
    const out: RunFailure[] = []
    for (const f of lists.flatMap((l) => (Array.isArray(l) ? l : []))) {
      const key = `${f.file}\u0000${f.test ?? ''}\u0000${f.error ?? ''}`
      if (seen.has(key)) continue
      seen.add(key)
      out.push(f)
    }
    return out
  }
  return {
    tests: runs.reduce((s, r) => s + (r.tests ?? 0), 0),
    failedTests: runs.reduce((s, r) => s + (r.failedTests ?? 0), 0),
    failedOutside: once(runs.map((r) => r.failedOutside)),
    fileErrors: once(runs.map((r) => r.fileErrors)),
  }
}

/**
 * Reads rag-report.json files and merges them with {@link mergeReports}. A file that is missing or
 * not JSON throws MetricInputError naming it.
 *
 * @example
 * const merged = mergeReportFiles(['shard-1/rag-report.json', 'shard-2/rag-report.json'])
 */
export function mergeReportFiles(files: readonly string[], options: { createdAt?: Date } = {}): RagReport {
  if (!Array.isArray(files) || files.length === 0 || files.some((f) => typeof f !== 'string')) {
    throw new MetricInputError('mergeReportFiles', 'files', 'a non-empty array of paths to rag-report.json files', files)
  }
  const reports = files.map((file, i) => {
    let text: string
    try {
      text = readFileSync(resolve(file), 'utf8')
    } catch (error) {
      throw new MetricInputError('mergeReportFiles', `files[${i}]`, `a readable file (${(error as Error).message})`, file)
    }
    try {
      return JSON.parse(text) as unknown
    } catch (error) {
      throw new MetricInputError('mergeReportFiles', `files[${i}]`, `a JSON file (${(error as Error).message})`, file)
    }
  })
  return mergeReports(reports, options)
}
