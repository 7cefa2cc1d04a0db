/**
 * Writing and announcing a report: shared by the Vitest reporter, the Jest reporter and the
 * merge-reports script, so all of them write the same three files and print the same lines.
 */
import { appendFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { MetricInputError } from '../errors.js'
import { makeFolderSync } from '../make-folder.js'
import { renderHtml } from './html.js'
import { renderMarkdown } from './markdown.js'
import type { RagReport } from './model.js'
import { hasContent, renderTable } from './table.js'
import { terminalSafe } from '../text/terminal-safe.js'

export const REPORT_JSON = 'rag-report.json'
export const REPORT_HTML = 'rag-report.html'
export const REPORT_MD = 'rag-report.md'
export const DEFAULT_OUTPUT_DIR = 'rag-report'

/** Options both reporters take. */
export interface RagReporterOptions {
  /** Folder for rag-report.json, rag-report.html and rag-report.md, relative to the project root. Default `rag-report`. */
  outputDir?: string
  /** Print the terminal table (default true). The HTML path is printed either way when files are written. */
  table?: boolean
  /**
   * Run history (docs/history.md): each finished run is appended to `.rag-matchers/history.sqlite` under the
   * project root (default); a string names another store, `false` turns it off. `RAG_MATCHERS_HISTORY` wins.
   */
  history?: string | boolean
}

export function checkOptions(fn: string, options: unknown): RagReporterOptions {
  if (options === undefined || options === null) return {}
  if (typeof options !== 'object' || Array.isArray(options)) throw new MetricInputError(fn, 'options', 'an object `{ outputDir?, table? }`', options)
  const o = options as RagReporterOptions
  if (o.outputDir !== undefined && (typeof o.outputDir !== 'string' || o.outputDir === '')) {
    throw new MetricInputError(fn, 'options.outputDir', 'a non-empty path string', o.outputDir)
  }
  if (o.table !== undefined && typeof o.table !== 'boolean') throw new MetricInputError(fn, 'options.table', 'a boolean', o.table)
  if (o.history !== undefined && typeof o.history !== 'boolean' && (typeof o.history !== 'string' || o.history.trim() === '')) {
    throw new MetricInputError(fn, 'options.history', 'false, true or a store path / URL', o.history)
  }
  return o
}

export function resolveOutputDir(root: string, outputDir: string | undefined): string {
  const dir = outputDir ?? DEFAULT_OUTPUT_DIR
  return isAbsolute(dir) ? dir : resolve(root, dir)
}

/** A path relative to `root`, `/`-separated, for stable report keys across machines. */
export function projectPath(root: string, file: string): string {
  const rel = relative(root, file)
  return (rel === '' || rel.startsWith('..') || isAbsolute(rel) ? file : rel).split(sep).join('/')
}

/**
 * Writes rag-report.json (pretty-printed, key order fixed by the model), rag-report.html and rag-report.md into
 * `outputDir` (created if missing); returns their paths.
 *
 * @example
 * writeReport(mergeReportFiles(files), 'rag-report').html // '…/rag-report/rag-report.html'
 */
export function writeReport(report: RagReport, outputDir: string): { json: string; html: string; md: string } {
  makeFolderSync(outputDir)
  const json = join(outputDir, REPORT_JSON)
  const html = join(outputDir, REPORT_HTML)
  const md = join(outputDir, REPORT_MD)
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`)
  writeFileSync(html, renderHtml(report))
  writeFileSync(md, renderMarkdown(report))
  return { json, html, md }
}

/**
 * What a reporter does at the end of a run. With assertions, or when the run failed (a test failed, a
 * file failed to load, a describeEvalSet pipeline threw in its hook): print the table, write the three
 * files, print the HTML path, so a CI step after the tests always has a report saying `fail`. Without
 * any rag-matchers assertion in a run that passed: remove a stale report from an earlier run (so nobody
 * opens old numbers) and print nothing.
 *
 * Writing never fails the run: a report folder or `GITHUB_STEP_SUMMARY` that cannot be written (a folder,
 * a read-only file system, no permission) prints one warning line naming the path and the cause, and the
 * run's exit code stays what the tests decided. The paths are returned either way.
 */
export function finishReport(
  report: RagReport,
  outputDir: string,
  log: (text: string) => void,
  options: RagReporterOptions = {},
  /** The file GitHub Actions names in `GITHUB_STEP_SUMMARY`: rag-report.md is appended to it (the caller reads the env). */
  stepSummary?: string,
  /** Where a warning line goes (a report or summary that cannot be written); stderr by default. */
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): { json: string; html: string; md: string } | undefined {
  const warnings: string[] = []
  if (!hasContent(report)) {
    try {
      for (const file of [REPORT_JSON, REPORT_HTML, REPORT_MD]) rmSync(join(outputDir, file), { force: true })
    } catch (error) {
      warn(`rag-matchers: cannot remove the stale report in ${terminalSafe(outputDir)}: ${fsCause(error)}`)
    }
    return undefined
  }
  const text = options.table === false ? '' : renderTable(report)
  let written = true
  const paths = { json: join(outputDir, REPORT_JSON), html: join(outputDir, REPORT_HTML), md: join(outputDir, REPORT_MD) }
  try {
    writeReport(report, outputDir)
  } catch (error) {
    written = false
    const path = (error as NodeJS.ErrnoException)?.path ?? outputDir
    warnings.push(`rag-matchers: cannot write the report to ${terminalSafe(path)}: ${fsCause(error)}; the run's result is unchanged`)
  }
  if (stepSummary !== undefined && stepSummary !== '') {
    const problem = appendStepSummary(stepSummary, `${renderMarkdown(report)}\n`)
    if (problem !== undefined) warnings.push(problem)
  }
  const shown = `${text === '' ? '' : `\n${text}\n`}${written ? `\nrag-matchers report: ${paths.html}\n` : ''}`
  if (shown !== '') log(shown)
  for (const line of warnings) warn(line)
  return paths
}

const CAUSES: Readonly<Record<string, string>> = {
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a directory, not a file',
  ENOENT: 'no such file or directory',
  EEXIST: 'a file of that name is in the way',
}

/** `read-only file system (EROFS)`: an fs error's cause in words, with its code; its message otherwise. */
export function fsCause(error: unknown): string {
  const e = error as NodeJS.ErrnoException
  const code = typeof e?.code === 'string' ? e.code : undefined
  const words = code !== undefined ? CAUSES[code] : undefined
  if (words !== undefined) return `${words} (${code})`
  return terminalSafe(error instanceof Error ? error.message : String(error))
}

/**
 * Appends the Markdown summary to `GITHUB_STEP_SUMMARY`. Returns the warning line when the path is a
 * folder or cannot be written: `GITHUB_STEP_SUMMARY=/x is a directory, not a file: the summary was not appended`.
 */
function appendStepSummary(path: string, markdown: string): string | undefined {
  const shown = `GITHUB_STEP_SUMMARY=${terminalSafe(path)}`
  const folder = `rag-matchers: ${shown} is a directory, not a file: the summary was not appended`
  try {
    if (isDirectory(path)) return folder
    appendFileSync(path, markdown)
    return undefined
  } catch (error) {
    if ((error as NodeJS.ErrnoException)?.code === 'EISDIR') return folder
    return `rag-matchers: ${shown} cannot be written (${fsCause(error)}): the summary was not appended`
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
