/**
 * `rag-matchers merge-reports`: the command behind the CI merge job for Jest shards (or any set of
 * rag-report.json files from disjoint test files).
 *
 *   rag-matchers merge-reports [--output-dir rag-report] [--no-table] <file-or-folder>…
 *
 * A folder argument stands for every rag-report.json below it (CI artifact downloads put each shard
 * in a folder of its own). Writes the merged rag-report.json and rag-report.html to `--output-dir`
 * (default `rag-report`, relative to the current directory) and prints the same table as the reporters.
 */
import { readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { mergeReportFiles } from '../src/report/merge.js'
import { DEFAULT_OUTPUT_DIR, REPORT_JSON, writeReport } from '../src/report/output.js'
import { renderTable } from '../src/report/table.js'
import type { RagReport } from '../src/report/model.js'
import { recordRun } from '../src/history/record-run.js'

export const MERGE_USAGE = 'usage: rag-matchers merge-reports [--output-dir <dir>] [--no-table] [--no-history] <rag-report.json or folder>…'

function findReports(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name)
    if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) out.push(...findReports(path))
    else if (entry.isFile() && entry.name === REPORT_JSON) out.push(path)
  }
  return out
}

/**
 * Runs the command with `argv` (the arguments after `merge-reports`); returns the exit code, following
 * the rag-matchers CLI's codes: 0 success, 1 usage (unknown option, missing value), 2 input (no report
 * files, an unreadable, non-JSON or foreign file). Messages go to `io.error`; never throws.
 *
 * @example
 * process.exitCode = runMergeReportsCli(['--output-dir', 'rag-report', 'shards/'])
 */
export function runMergeReportsCli(
  argv: readonly string[],
  io: {
    log: (text: string) => void
    error: (text: string) => void
    cwd?: string
    /** Called with the merged report once it is written (the `merge-reports` command records it in the run history). */
    onWritten?: (report: RagReport, options: { history: boolean }) => void
  } = { log: (t) => console.log(t), error: (t) => console.error(t) },
): number {
  const cwd = io.cwd ?? process.cwd()
  let outputDir = DEFAULT_OUTPUT_DIR
  let table = true
  let history = true
  const inputs: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--help' || arg === '-h') {
      io.log(MERGE_USAGE)
      return 0
    } else if (arg === '--output-dir' || arg === '-o') {
      const value = argv[++i]
      if (value === undefined || value === '') {
        io.error(`rag-matchers merge-reports: --output-dir needs a folder\n${MERGE_USAGE}`)
        return 1
      }
      outputDir = value
    } else if (arg.startsWith('--output-dir=')) {
      outputDir = arg.slice('--output-dir='.length)
    } else if (arg === '--no-table') {
      table = false
    } else if (arg === '--no-history') {
      history = false
    } else if (arg.startsWith('-')) {
      io.error(`rag-matchers merge-reports: unknown option ${arg}\n${MERGE_USAGE}`)
      return 1
    } else {
      inputs.push(arg)
    }
  }
  try {
    const files: string[] = []
    for (const input of inputs) {
      const path = resolve(cwd, input)
      let isDir = false
      try {
        isDir = statSync(path).isDirectory()
      } catch {
        // Not there: mergeReportFiles names it.
      }
      files.push(...(isDir ? findReports(path) : [path]))
    }
    if (files.length === 0) {
      io.error(`rag-matchers merge-reports: no ${REPORT_JSON} files${inputs.length > 0 ? ` in ${inputs.join(', ')}` : ' given'}\n${MERGE_USAGE}`)
      return 2
    }
    const report = mergeReportFiles(files)
    const paths = writeReport(report, resolve(cwd, outputDir))
    io.onWritten?.(report, { history })
    const text = table ? renderTable(report) : ''
    io.log(`${text === '' ? '' : `${text}\n\n`}merged ${files.length} reports\nrag-matchers report: ${paths.html}`)
    return 0
  } catch (error) {
    io.error(`rag-matchers merge-reports: ${(error as Error).message}`)
    return 2
  }
}

/**
 * The `merge-reports` subcommand in the shape of the rag-matchers CLI's commands (`run(argv, io)` in
 * cli/main.ts `COMMANDS`): same behaviour as {@link runMergeReportsCli}, writing to `io.stdout`/`io.stderr`.
 *
 * @example
 * // cli/main.ts registers it under COMMANDS['merge-reports'], loaded on demand
 * await run(['--output-dir', 'rag-report', 'shards/'], { stdout: process.stdout, stderr: process.stderr })
 */
export async function run(argv: readonly string[], io: { stdout: { write(chunk: string): unknown }; stderr: { write(chunk: string): unknown } }): Promise<number> {
  const startedAt = new Date()
  let written: { report: RagReport; history: boolean } | undefined
  const code = runMergeReportsCli(argv, {
    log: (text) => io.stdout.write(`${text}\n`),
    error: (text) => io.stderr.write(`${text}\n`),
    onWritten: (report, options) => (written = { report, ...options }),
  })
  // The merged run goes into the run history after the report is written; a failure there is one warning line.
  if (written !== undefined && written.history) {
    await recordRun(written.report, { root: process.cwd(), source: 'merge-reports', startedAt, warn: (line) => io.stderr.write(`${line}\n`) })
  }
  return code
}
