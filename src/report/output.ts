/**
 * Writing and announcing a report: shared by the Vitest reporter, the Jest reporter and the
 * merge-reports script, so all of them write the same three files and print the same lines.
 */
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { MetricInputError } from '../errors.js'
import { renderHtml } from './html.js'
import { renderMarkdown } from './markdown.js'
import type { RagReport } from './model.js'
import { hasContent, renderTable } from './table.js'

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
  mkdirSync(outputDir, { recursive: true })
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
 */
export function finishReport(
  report: RagReport,
  outputDir: string,
  log: (text: string) => void,
  options: RagReporterOptions = {},
  /** The file GitHub Actions names in `GITHUB_STEP_SUMMARY`: rag-report.md is appended to it (the caller reads the env). */
  stepSummary?: string,
): { json: string; html: string; md: string } | undefined {
  if (!hasContent(report)) {
    rmSync(join(outputDir, REPORT_JSON), { force: true })
    rmSync(join(outputDir, REPORT_HTML), { force: true })
    rmSync(join(outputDir, REPORT_MD), { force: true })
    return undefined
  }
  const paths = writeReport(report, outputDir)
  if (stepSummary !== undefined && stepSummary !== '') appendFileSync(stepSummary, `${renderMarkdown(report)}\n`)
  const text = options.table === false ? '' : renderTable(report)
  log(`${text === '' ? '' : `\n${text}\n`}\nrag-matchers report: ${paths.html}\n`)
  return paths
}
