/**
 * `rag-matchers/reporter`: the Vitest reporter. Add it next to Vitest's own:
 *
 *   // vitest.config.ts
 *   reporters: ['default', ['rag-matchers/reporter', { outputDir: 'rag-report' }]]
 *
 * After the run it prints a table per eval set and per test file, and writes rag-report.json and
 * rag-report.html to `outputDir` (default `rag-report/` under the project root). It reads what the
 * matchers recorded in each test's `task.meta` (see record.ts) and recomputes no metric. It works on
 * `vitest --merge-reports` too, since task meta survives the blob reporter.
 *
 * Also exports the report helpers, for scripts: `buildReport`, `mergeReports`, `mergeReportFiles`,
 * `writeReport`, `renderTable`, `renderHtml`, `escapeHtml`, and `runMergeReportsCli` (the `merge-reports` command).
 */
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node'
import { errorMessage, TASK_META_KEY, type RecordedAssertion } from '../src/report/record.js'
import { buildReport, fromRecord, isRecord, type RagReport, type ReportAssertion, type RunFailure, type RunOutcome } from '../src/report/model.js'
import { checkOptions, finishReport, projectPath, resolveOutputDir, type RagReporterOptions } from '../src/report/output.js'
import { recordInteractiveRun } from '../src/eval-set/progress.js'
import { recordRun } from '../src/history/record-run.js'

export {
  buildReport,
  metricLabel,
  REPORT_SCHEMA_VERSION,
  type RagReport,
  type ReportAssertion,
  type EvalSetSection,
  type MetricRow,
  type CaseRow,
  type FileSection,
  type BaselineComparison,
  type RunOutcome,
  type RunFailure,
} from '../src/report/model.js'
export { mergeReports, mergeReportFiles } from '../src/report/merge.js'
export { runMergeReportsCli, MERGE_USAGE } from '../cli/merge-reports.js'
export { writeReport, REPORT_JSON, REPORT_HTML, DEFAULT_OUTPUT_DIR, type RagReporterOptions } from '../src/report/output.js'
export { renderTable } from '../src/report/table.js'
export { renderHtml, escapeHtml } from '../src/report/html.js'

/** Within one test, keep the last retry of each repeat: an earlier failed try is not a result. */
function lastTries(records: readonly RecordedAssertion[]): RecordedAssertion[] {
  const last = new Map<number, number>()
  for (const r of records) last.set(r.repeat ?? 0, Math.max(last.get(r.repeat ?? 0) ?? 0, r.attempt ?? 0))
  return records.filter((r) => (r.attempt ?? 0) === last.get(r.repeat ?? 0))
}

function describePath(test: TestCase): string[] {
  const names: string[] = []
  let parent: TestCase['parent'] = test.parent
  while (parent.type === 'suite') {
    names.unshift(parent.name)
    parent = parent.parent
  }
  return names
}

/**
 * The report assertions of finished test modules, from `testCase.meta().ragMatchers`, in file order.
 * Exported for tests and custom reporters.
 *
 * @example
 * const assertions = collectVitestAssertions(testModules, vitest.config.root)
 */
export function collectVitestAssertions(testModules: ReadonlyArray<TestModule>, root: string): ReportAssertion[] {
  const out: ReportAssertion[] = []
  for (const module of testModules) {
    const file = projectPath(root, module.moduleId)
    let testIndex = 0
    for (const test of module.children.allTests()) {
      const raw = (test.meta() as Record<string, unknown>)[TASK_META_KEY]
      const records = lastTries(Array.isArray(raw) ? raw.filter(isRecord) : [])
      const describe = describePath(test)
      records.forEach((record, index) => {
        out.push(fromRecord(record, { file, describe, test: test.name, fullName: test.fullName, testIndex, index }))
      })
      testIndex += 1
    }
  }
  return out
}

function firstError(errors: ReadonlyArray<unknown> | undefined): string | undefined {
  const e = errors?.[0]
  return e === undefined ? undefined : errorMessage(e)
}

/**
 * What the run reported beyond the rag-matchers assertions: failed tests in which no rag-matchers assertion
 * failed or errored (a plain `expect`, a describeEvalSet pipeline error), files that failed to load, suites
 * whose hooks failed, and errors outside any test. Exported for tests and custom reporters.
 *
 * @example
 * const run = collectVitestRun(testModules, collectVitestAssertions(testModules, root), root)
 */
export function collectVitestRun(
  testModules: ReadonlyArray<TestModule>,
  assertions: readonly ReportAssertion[],
  root: string,
  unhandledErrors: ReadonlyArray<unknown> = [],
): RunOutcome {
  const failedRag = new Set(assertions.filter((a) => !a.outcome).map((a) => `${a.file}\u0000${a.fullName}`))
  let tests = 0
  let failedTests = 0
  const failedOutside: RunFailure[] = []
  const fileErrors: RunFailure[] = []
  for (const module of testModules) {
    const file = projectPath(root, module.moduleId)
    const moduleError = firstError(module.errors())
    if (moduleError !== undefined) fileErrors.push({ file, error: moduleError })
    for (const suite of module.children.allSuites()) {
      const error = firstError(suite.errors())
      if (error !== undefined) fileErrors.push({ file, test: suite.fullName, error })
    }
    for (const test of module.children.allTests()) {
      const result = test.result()
      if (result.state === 'skipped' || result.state === 'pending') continue
      tests += 1
      if (result.state !== 'failed') continue
      failedTests += 1
      if (failedRag.has(`${file}\u0000${test.fullName}`)) continue
      const error = firstError(result.errors)
      failedOutside.push({ file, test: test.fullName, ...(error !== undefined ? { error } : {}) })
    }
  }
  for (const e of unhandledErrors) fileErrors.push({ file: '(outside any test)', error: errorMessage(e) })
  return { tests, failedTests, failedOutside, fileErrors }
}

/** The Vitest reporter (default export of `rag-matchers/reporter`). */
export default class RagMatchersReporter implements Reporter {
  private readonly options: RagReporterOptions
  private vitest: Vitest | undefined
  private startedAt = new Date()
  /** The last report built, for programmatic use. */
  report: RagReport | undefined

  constructor(options: RagReporterOptions = {}) {
    this.options = checkOptions('RagMatchersReporter', options)
    // Before Vitest starts its workers (they inherit it): whether a person watches this run, for
    // describeEvalSet's progress, which a worker cannot tell from its own piped stderr.
    recordInteractiveRun()
  }

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    this.startedAt = new Date()
  }

  onTestRunStart(): void {
    this.startedAt = new Date()
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown> = []): Promise<void> {
    const root = this.vitest?.config.root ?? process.cwd()
    const shard = this.vitest?.config.shard
    const assertions = collectVitestAssertions(testModules, root)
    const run = collectVitestRun(testModules, assertions, root, unhandledErrors)
    const report = buildReport(assertions, { runner: 'vitest', run, ...(shard ? { shard: { index: shard.index, count: shard.count } } : {}) })
    this.report = report
    const log = (text: string) => (this.vitest ? this.vitest.logger.log(text) : console.log(text))
    const written = finishReport(report, resolveOutputDir(root, this.options.outputDir), log, this.options, process.env.GITHUB_STEP_SUMMARY)
    // After the report is written; never throws, never changes the run's result (docs/history.md).
    if (written !== undefined) await recordRun(report, { root, history: this.options.history, source: 'vitest', startedAt: this.startedAt })
  }
}
