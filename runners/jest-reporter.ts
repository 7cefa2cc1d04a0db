/**
 * `rag-matchers/jest-reporter`: the Jest reporter.
 *
 *   // jest.config.js
 *   reporters: ['default', ['rag-matchers/jest-reporter', { outputDir: 'rag-report' }]]
 *
 * Jest gives matchers no test object, so the matchers append one JSON line per result to a channel
 * folder (see record.ts). This reporter creates that folder in its constructor and puts its path in
 * `RAG_MATCHERS_RESULTS_DIR`; Jest constructs reporters before it forks its workers, and the workers
 * inherit the variable. After the run the reporter reads the lines, prints the same table as the
 * Vitest reporter and writes rag-report.json and rag-report.html to `outputDir`. Under `--shard=i/n`
 * each shard writes its own (partial) report; merge them with `mergeReportFiles`.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { errorMessage, RESULTS_DIR_ENV, type RecordedAssertion } from '../src/report/record.js'
import { buildReport, fromRecord, isRecord, type RagReport, type ReportAssertion, type RunFailure, type RunOutcome } from '../src/report/model.js'
import { checkOptions, finishReport, projectPath, resolveOutputDir, type RagReporterOptions } from '../src/report/output.js'
import { recordInteractiveRun } from '../src/eval-set/progress.js'
import { recordRun } from '../src/history/record-run.js'

export type { RagReporterOptions } from '../src/report/output.js'

/** The parts of Jest's AggregatedResult this reporter reads (typed structurally: no `@jest/reporters` import). */
export interface JestAggregatedResultLike {
  readonly testResults: ReadonlyArray<{
    readonly testFilePath: string
    readonly testResults: ReadonlyArray<{
      readonly fullName: string
      readonly title: string
      readonly ancestorTitles: readonly string[]
      readonly status?: string
      readonly failureMessages?: readonly string[]
    }>
    readonly numFailingTests?: number
    /** Set when the file failed to run (a syntax error, a throw at the top level). */
    readonly testExecError?: { readonly message?: string } | null
    /** Errors of the file outside its tests (a failed hook), when Jest reports them apart. */
    readonly failureMessage?: string | null
  }>
}

export interface JestGlobalConfigLike {
  readonly rootDir: string
  readonly shard?: { readonly shardIndex: number; readonly shardCount: number } | null
}

/**
 * Reads every channel line (`*.jsonl`) in `dir`; a malformed or foreign line is skipped, never fatal,
 * and a missing folder reads as no lines.
 *
 * @example
 * const records = readChannel(process.env.RAG_MATCHERS_RESULTS_DIR as string)
 */
export function readChannel(dir: string): RecordedAssertion[] {
  let files: string[]
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
  } catch {
    return []
  }
  const out: RecordedAssertion[] = []
  for (const f of files) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) {
      if (line.trim() === '') continue
      try {
        const value = JSON.parse(line) as unknown
        if (isRecord(value)) out.push(value)
      } catch {
        // A line cut by a killed worker: skip it.
      }
    }
  }
  return out
}

/**
 * Places channel records in their tests: per file, in the order the worker wrote them, each matched to
 * the Jest test result with the same full name (for its describe blocks and position). A record from
 * outside any test (a hook) is kept with the test name `(outside a test)` at the end of its file.
 *
 * @example
 * const assertions = collectJestAssertions(readChannel(dir), aggregatedResults, rootDir)
 */
export function collectJestAssertions(records: readonly RecordedAssertion[], results: JestAggregatedResultLike, root: string): ReportAssertion[] {
  const byFile = new Map<string, RecordedAssertion[]>()
  for (const r of records) {
    const file = r.test?.file ?? ''
    const list = byFile.get(file)
    if (list) list.push(r)
    else byFile.set(file, [r])
  }
  const testsOf = new Map(results.testResults.map((t) => [t.testFilePath, t.testResults]))
  const out: ReportAssertion[] = []
  for (const [path, list] of byFile) {
    // One file runs in one worker, so (pid, seq) is its execution order.
    list.sort((a, b) => (a.pid ?? 0) - (b.pid ?? 0) || (a.seq ?? 0) - (b.seq ?? 0))
    const tests = testsOf.get(path) ?? []
    const file = path === '' ? '(unknown file)' : projectPath(root, path)
    const perTest = new Map<number, number>()
    for (const record of list) {
      const fullName = record.test?.fullName ?? ''
      const found = fullName === '' ? -1 : tests.findIndex((t) => t.fullName === fullName)
      const testIndex = found >= 0 ? found : tests.length
      const index = perTest.get(testIndex) ?? 0
      perTest.set(testIndex, index + 1)
      const t = tests[found]
      out.push(
        fromRecord(record, {
          file,
          describe: t ? t.ancestorTitles : [],
          test: t ? t.title : fullName || '(outside a test)',
          fullName: t ? [...t.ancestorTitles, t.title].join(' > ') : fullName || '(outside a test)',
          testIndex,
          index,
        }),
      )
    }
  }
  return out
}

/**
 * What the run reported beyond the rag-matchers assertions: failed tests in which no rag-matchers assertion
 * failed or errored (a plain `expect`, a describeEvalSet pipeline error in `beforeAll`), and files that failed
 * to run. A file that reports failing tests but none by name (`numFailingTests` only) counts as a file error.
 *
 * @example
 * const run = collectJestRun(results, assertions, rootDir)
 */
export function collectJestRun(results: JestAggregatedResultLike, assertions: readonly ReportAssertion[], root: string): RunOutcome {
  const failedRag = new Set(assertions.filter((a) => !a.outcome).map((a) => `${a.file}\u0000${a.fullName}`))
  let tests = 0
  let failedTests = 0
  const failedOutside: RunFailure[] = []
  const fileErrors: RunFailure[] = []
  for (const file of results.testResults) {
    const path = projectPath(root, file.testFilePath)
    let failedHere = 0
    for (const t of file.testResults) {
      if (t.status === 'pending' || t.status === 'skipped' || t.status === 'todo' || t.status === 'disabled') continue
      tests += 1
      if (t.status !== 'failed') continue
      failedHere += 1
      const fullName = [...t.ancestorTitles, t.title].join(' > ')
      if (failedRag.has(`${path}\u0000${fullName}`)) continue
      const message = t.failureMessages?.[0]
      failedOutside.push({ file: path, test: fullName, ...(message !== undefined ? { error: errorMessage(message) } : {}) })
    }
    failedTests += failedHere
    if (file.testExecError !== undefined && file.testExecError !== null) {
      fileErrors.push({ file: path, error: errorMessage(file.testExecError.message ?? file.failureMessage ?? 'the file failed to run') })
    } else if ((file.numFailingTests ?? 0) > failedHere) {
      fileErrors.push({ file: path, error: errorMessage(file.failureMessage ?? `${(file.numFailingTests ?? 0) - failedHere} failing tests without a result`) })
    }
  }
  return { tests, failedTests, failedOutside, fileErrors }
}

/** The Jest reporter (default export of `rag-matchers/jest-reporter`). */
export default class RagMatchersJestReporter {
  private readonly options: RagReporterOptions
  private readonly root: string
  private readonly shard: { index: number; count: number } | undefined
  private readonly dir: string
  private readonly ownsDir: boolean
  private startedAt = new Date()
  /** The last report built, for programmatic use. */
  report: RagReport | undefined

  constructor(globalConfig: JestGlobalConfigLike, options: RagReporterOptions = {}) {
    this.options = checkOptions('RagMatchersJestReporter', options)
    this.root = globalConfig.rootDir
    this.shard = globalConfig.shard ? { index: globalConfig.shard.shardIndex, count: globalConfig.shard.shardCount } : undefined
    const given = process.env[RESULTS_DIR_ENV]
    this.ownsDir = given === undefined || given === ''
    this.dir = this.ownsDir ? mkdtempSync(join(tmpdir(), 'rag-matchers-jest-')) : (given as string)
    mkdirSync(this.dir, { recursive: true })
    // Set before Jest forks its workers (it builds reporters first), so every worker inherits it.
    process.env[RESULTS_DIR_ENV] = this.dir
    // Likewise whether a person watches: workers' stderr is a pipe, so describeEvalSet's progress asks us.
    recordInteractiveRun()
    if (this.ownsDir) process.once('exit', () => rmSync(this.dir, { recursive: true, force: true }))
  }

  /** Each run (watch mode reruns) starts from an empty channel. */
  onRunStart(): void {
    this.startedAt = new Date()
    this.clearChannel()
  }

  async onRunComplete(_contexts: unknown, results: JestAggregatedResultLike): Promise<void> {
    const assertions = collectJestAssertions(readChannel(this.dir), results, this.root)
    const run = collectJestRun(results, assertions, this.root)
    const report = buildReport(assertions, { runner: 'jest', run, ...(this.shard ? { shard: this.shard } : {}) })
    this.report = report
    const written = finishReport(
      report,
      resolveOutputDir(this.root, this.options.outputDir),
      (text) => process.stdout.write(`${text}\n`),
      this.options,
      process.env.GITHUB_STEP_SUMMARY,
    )
    this.clearChannel()
    // After the report is written; never throws, never changes the run's result (docs/history.md).
    if (written !== undefined) await recordRun(report, { root: this.root, history: this.options.history, source: 'jest', startedAt: this.startedAt })
  }

  getLastError(): Error | undefined {
    return undefined
  }

  private clearChannel(): void {
    try {
      for (const f of readdirSync(this.dir)) if (f.endsWith('.jsonl')) rmSync(join(this.dir, f), { force: true })
    } catch {
      // Nothing to clear.
    }
  }
}
