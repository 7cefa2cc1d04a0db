/**
 * `rag-matchers compare`: two systems on the same eval sets, from their rag-report.json files or runs of
 * the history store.
 *
 *   rag-matchers compare BASE NEW [--history PATH|URL] [--format text|md|json] [--test bootstrap|permutation|none]
 *                        [--alpha 0.05] [--tolerance 0.02] [--cases shared|equal] [--resamples N] [--seed N]
 *                        [--max-regressed-cases N] [--check]
 *
 * BASE and NEW are each a rag-report.json file or a run reference (`last`, `last~N`, a run id or its
 * prefix, a git commit prefix) looked up in the history store (`--history`, else the store `rag-matchers
 * history` reads); an existing file wins over a reference of the same name (cli/compare-sources.ts).
 *
 * Per eval set (matched by name), metric rows pair only when their label AND their signature's
 * identity (every setting and the metric's revision, not the package version) match; the per-case
 * values of a pair are matched by case id and compared by `compareRuns`, the same implementation,
 * pairing, tests and status words as `toMatchMetricBaseline`. Any metric family whose rows carry
 * per-case values (retrieval, generation, judge and embedding set matchers) is compared the same way.
 * The same label with another signature is `not comparable: order:given → order:score` (both values
 * shown, no delta) and fails `--check`; a label with several signatures in one report is split by
 * the settings that differ. Set-level scores (corpus BLEU, which has no per-case values) are listed
 * with both values and cannot be tested. Under each table, the cases that
 * regressed on their own (their value dropped by more than the tolerance), worst first; a metric
 * without per-case values in both reports has none to list, and the output says so. Exit codes: 0 done, 1 usage,
 * 2 input (a file that is not a rag-report.json, no history store, a reference naming no run or several),
 * 4 with `--check` when a comparison failed.
 */
import { identitySignature } from '../src/eval-set/metric-revisions.js'
import { parseSignature, signatureDifferences } from '../src/signature.js'
import { compareRuns, signatureDifferenceText, type CaseCoverage, type MetricComparison, type RunComparison, type SignificanceTest } from '../src/eval-set/compare-runs.js'
import type { MetricRun, MetricValues } from '../src/eval-set/metric-run.js'
import { HistoryError } from '../src/history/errors.js'
import { sqliteMessage } from '../src/history/sqlite.js'
import type { EvalSetSection, MetricRow, RagReport } from '../src/report/model.js'
import { decimalsFor, formatSigned, formatValue, metricName } from '../src/report/table.js'
import { formatNumber, table } from '../src/text/format.js'
import { terminalSafe, terminalSafeLine } from '../src/text/terminal-safe.js'
import { loadSides, sideLine, type CompareSide } from './compare-sources.js'
import { EXIT, reportFailure, writeOut, type CliIo } from './io.js'

export const COMPARE_USAGE = `usage: rag-matchers compare <base> <new> [--history PATH|URL] [--format text|md|json] [--test bootstrap|permutation|none] [--alpha A] [--tolerance T] [--cases shared|equal] [--resamples N] [--seed N] [--max-regressed-cases N] [--check]
  <base>, <new>: a rag-report.json file, or a run of the history store: last, last~N, a run id (or a
  unique prefix), a git commit (prefix of 4+ digits). An existing file wins over a run of the same name.
  --history: the store to read runs from (default: RAG_MATCHERS_HISTORY, else .rag-matchers/history.sqlite
  from the current folder up, as rag-matchers history).`

export interface CompareReportsOptions {
  readonly test?: SignificanceTest
  readonly alpha?: number
  /** Fraction of each metric's full scale. @default 0.02 */
  readonly tolerance?: number
  /** @default 'shared': two systems are compared on the cases both ran; the counts say what was left out */
  readonly cases?: CaseCoverage
  readonly resamples?: number
  readonly seed?: number
  /** Fail a metric when more than this many of its cases regressed on their own (see compareRuns). */
  readonly maxRegressedCases?: number
}

/** A metric row that cannot be paired (a set-level score, a metric in one report only, or one whose signatures differ). */
export interface UnpairedMetric {
  readonly metric: string
  readonly base: number | null
  readonly next: number | null
  readonly why: string
  readonly decimals: number
  /**
   * `false`: the same metric in both reports with different signatures (`why` is `not comparable:
   * order:given → order:score`); no delta is shown, and the comparison fails. Absent otherwise.
   */
  readonly comparable?: false
  readonly baseSignature?: string
  readonly nextSignature?: string
}

export interface EvalSetComparison {
  readonly name: string
  /** The comparison fails: a failed metric, or a metric whose signatures differ. */
  readonly failed: boolean
  readonly comparison: RunComparison
  /** Per compared metric, how it is displayed (the row label) and its decimals. */
  readonly labels: Readonly<Record<string, { label: string; decimals: number }>>
  readonly unpaired: readonly UnpairedMetric[]
}

export interface ReportsComparison {
  readonly evalSets: readonly EvalSetComparison[]
  /** Eval sets in one report only. */
  readonly onlyInBase: readonly string[]
  readonly onlyInNew: readonly string[]
  /**
   * Why the reports cannot be compared as a whole, each a line: no eval set in both, no assertion in
   * the new report, a metric of the base report not paired in the new one, a `.not` row in the new
   * report. Any of them fails `--check`: a gate that compared nothing must not pass.
   */
  readonly notComparable: readonly string[]
  readonly failed: boolean
}

function rowKey(row: MetricRow): string {
  return metricName(row)
}

/** The identity of a row's signature (settings and metric revision, no package version); '' stays ''. */
function identityOf(row: MetricRow): string {
  return row.signature === '' ? '' : identitySignature(row.signature)
}

/** Lower is better for a row whose assertions recorded `direction: 'lower'` (or `higherIsBetter: false`). */
function lowerIsBetter(report: RagReport, row: MetricRow): boolean {
  const flagged = (o: unknown) =>
    o !== null && typeof o === 'object' && ((o as { direction?: unknown }).direction === 'lower' || (o as { higherIsBetter?: unknown }).higherIsBetter === false)
  if (flagged(row)) return true
  return report.assertions.some((a) => a.matcher === row.matcher && a.signature === row.signature && flagged(a))
}

/** The metric rows of one eval set of one report by label, each distinct identity once (the first row of each). */
function rowsByLabel(set: EvalSetSection): Map<string, MetricRow[]> {
  const out = new Map<string, MetricRow[]>()
  for (const row of set.metrics) {
    // the gate's own row counts regressed metrics; its per-metric values are not in the report
    if (row.matcher === 'toMatchMetricBaseline') continue
    const key = rowKey(row)
    const list = out.get(key) ?? []
    if (!list.some((r) => identityOf(r) === identityOf(row))) list.push(row)
    out.set(key, list)
  }
  return out
}

function valuesOf(row: MetricRow): MetricValues | undefined {
  if (row.values === undefined) return undefined
  const values: Record<string, number> = Object.create(null) as Record<string, number>
  // a value undefined by definition (recorded as null) has nothing to pair
  for (const v of row.values) if (v.value !== null && values[v.id] === undefined) values[v.id] = v.value
  return { signature: row.signature, values }
}

/**
 * A label for a row when the label alone is ambiguous (several signatures under it): the label and the
 * signature entries in which the rows under it differ, e.g. `mean nDCG@3 (order:score)`.
 */
function distinctLabel(label: string, row: MetricRow, all: readonly MetricRow[]): string {
  const parsed = all.map((r) => parseSignature(identityOf(r)))
  const mine = parseSignature(identityOf(row))
  const keys = new Set(parsed.flatMap((p) => [...p.entries.keys()]))
  const varying = [...keys].filter((k) => new Set(parsed.map((p) => p.entries.get(k))).size > 1)
  const names = new Set(parsed.map((p) => p.name))
  const parts = [...(names.size > 1 ? [mine.name] : []), ...varying.map((k) => `${k}:${mine.entries.get(k) ?? '(absent)'}`)]
  return parts.length === 0 ? label : `${label} (${parts.join(' ')})`
}

/** Pairs of rows with the same label: same identity, else the closest leftovers (not comparable), else one side only. */
function pairRows(
  base: readonly MetricRow[],
  next: readonly MetricRow[],
): { same: Array<[MetricRow, MetricRow]>; differ: Array<[MetricRow, MetricRow]>; onlyBase: MetricRow[]; onlyNext: MetricRow[] } {
  const same: Array<[MetricRow, MetricRow]> = []
  const leftNext = [...next]
  const leftBase: MetricRow[] = []
  for (const b of base) {
    const i = leftNext.findIndex((n) => identityOf(n) === identityOf(b))
    if (i < 0) leftBase.push(b)
    else same.push([b, leftNext.splice(i, 1)[0] as MetricRow])
  }
  const differ: Array<[MetricRow, MetricRow]> = []
  const onlyBase: MetricRow[] = []
  for (const b of leftBase) {
    let best = -1
    let fewest = Number.POSITIVE_INFINITY
    leftNext.forEach((n, i) => {
      const d = signatureDifferences(identityOf(b), identityOf(n)).length
      if (d < fewest) {
        fewest = d
        best = i
      }
    })
    if (best < 0) onlyBase.push(b)
    else differ.push([b, leftNext.splice(best, 1)[0] as MetricRow])
  }
  return { same, differ, onlyBase, onlyNext: leftNext }
}

function scaleOf(row: MetricRow): number {
  return row.scale ?? (decimalsFor(row) === 2 ? 100 : 1)
}

/**
 * Compares two rag-report.json documents eval set by eval set, metric by metric (see the module comment).
 * @example compareReports(base, next).evalSets[0]?.comparison.metrics[0]?.status // 'ok'
 */
export function compareReports(base: RagReport, next: RagReport, options: CompareReportsOptions = {}): ReportsComparison {
  const byName = (r: RagReport) => new Map(r.evalSets.map((s) => [s.name, s]))
  const b = byName(base)
  const n = byName(next)
  const evalSets: EvalSetComparison[] = []
  for (const [name, bs] of b) {
    const ns = n.get(name)
    if (ns === undefined) continue
    const bRows = rowsByLabel(bs)
    const nRows = rowsByLabel(ns)
    const unpaired: UnpairedMetric[] = []
    const baseMetrics: Record<string, MetricValues> = Object.create(null) as Record<string, MetricValues>
    const nextMetrics: Record<string, MetricValues> = Object.create(null) as Record<string, MetricValues>
    const scales: Record<string, number> = {}
    const higherIsBetter: Record<string, boolean> = {}
    const labels: Record<string, { label: string; decimals: number }> = {}
    for (const label of new Set([...bRows.keys(), ...nRows.keys()])) {
      const bl = bRows.get(label) ?? []
      const nl = nRows.get(label) ?? []
      const all = [...bl, ...nl]
      // one signature per side under this label: the label is the key, as before; else the differing settings join it
      const ambiguous = bl.length > 1 || nl.length > 1
      const keyOf = (row: MetricRow) => (ambiguous ? distinctLabel(label, row, all) : label)
      const { same, differ, onlyBase, onlyNext } = pairRows(bl, nl)
      for (const [br, nr] of same) {
        const key = keyOf(br)
        const bv = valuesOf(br)
        const nv = valuesOf(nr)
        if (bv === undefined || nv === undefined) {
          unpaired.push({ metric: key, base: br.value, next: nr.value, why: 'a set-level score (no per-case values to pair)', decimals: decimalsFor(br) })
          continue
        }
        baseMetrics[key] = bv
        nextMetrics[key] = nv
        scales[key] = scaleOf(br)
        higherIsBetter[key] = !(lowerIsBetter(base, br) || lowerIsBetter(next, nr))
        labels[key] = { label: key, decimals: decimalsFor(br) }
      }
      for (const [br, nr] of differ) {
        const difference = signatureDifferenceText(signatureDifferences(identityOf(br), identityOf(nr)))
        unpaired.push({
          metric: keyOf(br) === keyOf(nr) ? keyOf(br) : `${keyOf(br)} / ${keyOf(nr)}`,
          base: br.value,
          next: nr.value,
          why: `not comparable: ${difference}`,
          decimals: decimalsFor(br),
          comparable: false,
          baseSignature: identityOf(br),
          nextSignature: identityOf(nr),
        })
      }
      for (const br of onlyBase) unpaired.push({ metric: keyOf(br), base: br.value, next: null, why: 'only in the base report', decimals: decimalsFor(br) })
      for (const nr of onlyNext) unpaired.push({ metric: keyOf(nr), base: null, next: nr.value, why: 'only in the new report', decimals: decimalsFor(nr) })
    }
    const baseRun: MetricRun = { metrics: baseMetrics }
    const nextRun: MetricRun = { metrics: nextMetrics }
    // an eval set holding only baseline-gate assertions has no metric of its own to compare
    if (Object.keys(baseRun.metrics).length === 0 && unpaired.length === 0) continue
    const comparison = compareRuns(baseRun, nextRun, {
      scales,
      higherIsBetter,
      cases: options.cases ?? 'shared',
      ...(options.test !== undefined ? { test: options.test } : {}),
      ...(options.alpha !== undefined ? { alpha: options.alpha } : {}),
      ...(options.tolerance !== undefined ? { tolerance: options.tolerance } : {}),
      ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.maxRegressedCases !== undefined ? { maxRegressedCases: options.maxRegressedCases } : {}),
    })
    const failed = comparison.failed || unpaired.some((u) => u.comparable === false)
    evalSets.push({ name, failed, comparison, labels, unpaired })
  }
  const onlyInBase = [...b.keys()].filter((k) => !n.has(k))
  const onlyInNew = [...n.keys()].filter((k) => !b.has(k))
  const notComparable: string[] = []
  if (next.assertions.length === 0) notComparable.push('the new report has no assertions: nothing was measured')
  if (evalSets.length === 0) notComparable.push('no eval set is in both reports: nothing was compared')
  for (const s of evalSets) {
    for (const u of s.unpaired) {
      if (u.next === null && u.why === 'only in the base report') {
        notComparable.push(`eval set "${s.name}": ${u.metric} is not paired: it is in the base report only (its label changed, or it was not measured)`)
      }
    }
  }
  for (const set of next.evalSets) {
    if (!b.has(set.name)) continue
    const negated = [...new Set(set.metrics.filter((r) => r.isNot).map((r) => rowKey(r)))]
    for (const label of negated) {
      notComparable.push(`eval set "${set.name}": the new run asserted ${label}: a .not assertion inverts the verdict, so it is not compared; compare runs without .not`)
    }
  }
  return { evalSets, onlyInBase, onlyInNew, notComparable, failed: evalSets.some((s) => s.failed) || notComparable.length > 0 }
}

/** A rag-report.json's own checks: the fields compare reads have their types (a value is a number or null). */
export function checkReportShape(report: unknown, file: string): string | undefined {
  const bad = (where: string, what: string, got: unknown) => `${file}: ${where} must be ${what}, got ${JSON.stringify(got) ?? String(got)}`
  const isNumOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v))
  if (report === null || typeof report !== 'object') return bad('the report', 'a JSON object (a rag-report.json)', report)
  const r = report as { assertions?: unknown; evalSets?: unknown }
  if (!Array.isArray(r.assertions)) return bad('assertions', 'an array', r.assertions)
  if (!Array.isArray(r.evalSets)) return bad('evalSets', 'an array', r.evalSets)
  for (const [i, set] of (r.evalSets as unknown[]).entries()) {
    const at = `evalSets[${i}]`
    if (set === null || typeof set !== 'object') return bad(at, 'an object', set)
    const s = set as { name?: unknown; metrics?: unknown }
    if (typeof s.name !== 'string') return bad(`${at}.name`, 'a string', s.name)
    if (!Array.isArray(s.metrics)) return bad(`${at}.metrics`, 'an array', s.metrics)
    for (const [j, row] of (s.metrics as unknown[]).entries()) {
      const rat = `${at}.metrics[${j}]`
      if (row === null || typeof row !== 'object') return bad(rat, 'an object', row)
      const m = row as Record<string, unknown>
      for (const key of ['metric', 'matcher', 'signature'] as const) if (typeof m[key] !== 'string') return bad(`${rat}.${key}`, 'a string', m[key])
      if (!isNumOrNull(m.value)) return bad(`${rat}.value`, 'a finite number or null', m.value)
      if (m.scale !== undefined && !(typeof m.scale === 'number' && m.scale > 0)) return bad(`${rat}.scale`, 'a positive number', m.scale)
      if (m.isNot !== undefined && typeof m.isNot !== 'boolean') return bad(`${rat}.isNot`, 'a boolean', m.isNot)
      if (m.values !== undefined) {
        if (!Array.isArray(m.values)) return bad(`${rat}.values`, 'an array of { id, value }', m.values)
        for (const [k, v] of (m.values as unknown[]).entries()) {
          const vat = `${rat}.values[${k}]`
          if (v === null || typeof v !== 'object') return bad(vat, 'an object { id, value }', v)
          const cv = v as { id?: unknown; value?: unknown }
          if (typeof cv.id !== 'string') return bad(`${vat}.id`, 'a string', cv.id)
          if (!isNumOrNull(cv.value)) return bad(`${vat}.value`, 'a finite number or null', cv.value)
        }
      }
    }
  }
  return undefined
}

function pText(m: MetricComparison): string {
  if (!Number.isFinite(m.pValue)) return '—'
  return m.pValue < 0.0001 ? m.pValue.toExponential(1) : formatNumber(m.pValue, undefined, 4)
}

function rowsOf(s: EvalSetComparison): string[][] {
  const rows: string[][] = s.comparison.metrics.map((m) => {
    const d = s.labels[m.metric]?.decimals ?? 4
    if (m.status === 'incomparable') {
      return [m.metric, formatValue(null, d), formatValue(null, d), 'n/a', '—', '0', `not comparable: ${signatureDifferenceText(m.signatureDifferences ?? [])}`]
    }
    return [
      m.metric + (m.higherIsBetter ? '' : ' (lower is better)'),
      formatValue(Number.isFinite(m.baselineMean) ? m.baselineMean : null, d),
      formatValue(Number.isFinite(m.currentMean) ? m.currentMean : null, d),
      Number.isFinite(m.delta) ? formatSigned(m.delta, d) : 'n/a',
      pText(m),
      String(m.n),
      m.status,
    ]
  })
  for (const u of s.unpaired) {
    const d = u.decimals
    rows.push([
      u.metric,
      formatValue(u.base, d),
      formatValue(u.next, d),
      u.base !== null && u.next !== null && u.comparable !== false ? formatSigned(u.next - u.base, d) : 'n/a',
      '—',
      '—',
      u.comparable === false ? u.why : `not paired: ${u.why}`,
    ])
  }
  return rows
}

const HEADER = ['metric', 'base', 'new', 'delta', 'p', 'n', 'verdict']

function coverageText(c: RunComparison): string {
  return `${c.coverage.compared} compared, ${c.coverage.added.length} added, ${c.coverage.removed.length} removed`
}

function powerText(s: EvalSetComparison): string | undefined {
  const p = s.comparison.power
  if (!p.underpowered) return undefined
  return `the ${s.comparison.options.test} test cannot reach p < ${s.comparison.options.alpha} on these cases (smallest attainable p ${formatNumber(p.minAttainableP, undefined, 4)}); add cases or use --test bootstrap or --test none`
}

/** Per-case regressions shown per metric in text and Markdown (JSON has them all). */
const CASES_SHOWN = 5

function regressedHeading(s: EvalSetComparison, m: MetricComparison): string {
  const d = s.labels[m.metric]?.decimals ?? 4
  const by = m.tolerance > 0 ? ` by more than the tolerance ${formatNumber(m.tolerance, undefined, d)}` : ''
  const gate = m.tooManyRegressedCases ? `, more than --max-regressed-cases ${s.comparison.options.maxRegressedCases}` : ''
  return `cases that regressed in ${m.metric} (${m.regressedCases.length} of ${m.n} dropped${by}${gate}), worst first`
}

function regressedRow(s: EvalSetComparison, m: MetricComparison, c: MetricComparison['regressedCases'][number]): string[] {
  const d = s.labels[m.metric]?.decimals ?? 4
  return [c.id, m.metric, `${formatValue(c.baseline, d)} → ${formatValue(c.current, d)}`, `(${formatSigned(c.delta, d)})`]
}

/** Rows computed with other settings in the two reports: why they fail and what to do. */
function notComparable(s: EvalSetComparison): string[] {
  return s.unpaired
    .filter((u) => u.comparable === false)
    .map(
      (u) =>
        `not comparable: ${u.metric} was computed with other settings in the two reports (${u.why.replace(/^not comparable: /, '')}); its values are not compared, so this fails. Run both systems with the same settings.`,
    )
}

/** Metrics whose per-case regressions cannot be listed: no per-case values in both reports (not-comparable ones say why in their row). */
function unlisted(s: EvalSetComparison): string | undefined {
  const names = s.unpaired.filter((u) => u.comparable !== false).map((u) => u.metric)
  return names.length > 0 ? `per-case regressions not listed for ${names.join(', ')}: no per-case values in both reports` : undefined
}

function verdictOf(c: ReportsComparison): string {
  return c.failed ? 'FAIL: the new system is worse on some metric (or the comparison cannot be made)' : 'no regression'
}

function footer(c: ReportsComparison): string[] {
  return [
    ...c.notComparable.map((why) => `not comparable: ${why}`),
    ...(c.onlyInBase.length > 0 ? [`eval sets only in the base report: ${c.onlyInBase.join(', ')}`] : []),
    ...(c.onlyInNew.length > 0 ? [`eval sets only in the new report: ${c.onlyInNew.join(', ')}`] : []),
  ]
}

/** What was compared, when a side is a run of the history: one line each (see compare-sources.ts sideLine). */
export interface ComparedSides {
  readonly base: string
  readonly next: string
}

/** The comparison as plain text (the default format); `sides` heads it when given. */
export function formatText(c: ReportsComparison, sides?: ComparedSides): string {
  // A branch name or reference is user text: shown on its line, never able to start another (terminal-safe).
  const out: string[] = sides ? [`base: ${terminalSafe(sides.base)}`, `new:  ${terminalSafe(sides.next)}`, ''] : []
  for (const s of c.evalSets) {
    // Set names, metric labels and case ids are user text (a report may be hand-edited): escaped where they
    // are put on a line, so none can start another line or move the cursor.
    out.push(terminalSafeLine(`Eval set "${s.name}" · ${coverageText(s.comparison)}${s.failed ? ' · FAIL' : ''}`))
    out.push(table([HEADER, ...rowsOf(s).map(safeCells)], { max: Number.MAX_SAFE_INTEGER }))
    for (const m of s.comparison.metrics.filter((x) => x.regressedCases.length > 0)) {
      out.push(
        terminalSafeLine(`  ${regressedHeading(s, m)}:`),
        table(
          m.regressedCases.map((c) => safeCells(regressedRow(s, m, c))),
          { indent: '    ', max: CASES_SHOWN },
        ),
      )
    }
    for (const line of notComparable(s)) out.push(terminalSafeLine(`  ${line}`))
    const skipped = unlisted(s)
    if (skipped) out.push(terminalSafeLine(`  ${skipped}`))
    const power = powerText(s)
    if (power) out.push(terminalSafeLine(`  ${power}`))
    out.push('')
  }
  out.push(...footer(c).map((line) => terminalSafeLine(line)), `verdict: ${verdictOf(c)}`)
  return `${out.join('\n')}\n`
}

const safeCells = (cells: readonly string[]): string[] => cells.map((cell) => terminalSafe(cell))

/** A Markdown cell or line: one line, no table break, no HTML, and no control character (a CI log shows it raw). */
function mdCell(text: string): string {
  return terminalSafe(text.replace(/\r?\n/g, ' ')).replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

/** The comparison as Markdown: one table per eval set; `sides` listed under the heading when given. */
export function formatMarkdown(c: ReportsComparison, sides?: ComparedSides): string {
  const out: string[] = ['## rag-matchers compare', '', ...(sides ? [`- base: ${mdCell(sides.base)}`, `- new: ${mdCell(sides.next)}`, ''] : [])]
  for (const s of c.evalSets) {
    out.push(`### Eval set "${mdCell(s.name)}" · ${coverageText(s.comparison)}${s.failed ? ' · FAIL' : ''}`, '')
    out.push(`| ${HEADER.join(' | ')} |`, `|${HEADER.map(() => ' --- ').join('|')}|`)
    for (const r of rowsOf(s)) out.push(`| ${r.map(mdCell).join(' | ')} |`)
    const regressed = s.comparison.metrics.filter((x) => x.regressedCases.length > 0)
    if (regressed.length > 0) out.push('', '**Regressed cases**', '')
    for (const m of regressed) {
      const shown = m.regressedCases.slice(0, CASES_SHOWN).map((c) => {
        const [id, , values, delta] = regressedRow(s, m, c)
        return `\`${mdCell(id as string).replace(/`/g, "'")}\` ${values} ${delta}`
      })
      const more = m.regressedCases.length > CASES_SHOWN ? `, … and ${m.regressedCases.length - CASES_SHOWN} more` : ''
      out.push(`- ${mdCell(regressedHeading(s, m))}: ${shown.join(', ')}${more}`)
    }
    for (const line of notComparable(s)) out.push('', `> ${mdCell(line)}`)
    const skipped = unlisted(s)
    if (skipped) out.push('', `> ${mdCell(skipped)}`)
    const power = powerText(s)
    if (power) out.push('', `> ${mdCell(power)}`)
    out.push('')
  }
  out.push(...footer(c).map((l) => `${mdCell(l)}\n`), `**Verdict:** ${verdictOf(c)}`)
  return `${out.join('\n')}\n`
}

/** The comparison as JSON (NaN as null); `runs`: the stored runs compared, for sides that are runs of the history. */
export function formatJson(c: ReportsComparison, files: { base: string; next: string }, runs: { base?: unknown; next?: unknown } = {}): string {
  const num = (v: number) => (Number.isFinite(v) ? v : null)
  const doc = {
    base: files.base,
    new: files.next,
    ...(runs.base !== undefined ? { baseRun: runs.base } : {}),
    ...(runs.next !== undefined ? { newRun: runs.next } : {}),
    failed: c.failed,
    onlyInBase: c.onlyInBase,
    onlyInNew: c.onlyInNew,
    notComparable: c.notComparable,
    evalSets: c.evalSets.map((s) => ({
      name: s.name,
      failed: s.failed,
      options: s.comparison.options,
      coverage: s.comparison.coverage,
      power: s.comparison.power,
      metrics: s.comparison.metrics.map((m) => ({
        metric: m.metric,
        status: m.status,
        failed: m.failed,
        higherIsBetter: m.higherIsBetter,
        base: num(m.baselineMean),
        new: num(m.currentMean),
        delta: num(m.delta),
        ci: [num(m.ci[0]), num(m.ci[1])],
        pValue: num(m.pValue),
        minAttainableP: num(m.minAttainableP),
        tolerance: m.tolerance,
        n: m.n,
        test: m.test ?? null,
        worst: m.perCase.slice(0, 5),
        // every case that dropped by more than the tolerance, worst first
        regressedCases: m.regressedCases,
        tooManyRegressedCases: m.tooManyRegressedCases,
      })),
      unpaired: s.unpaired,
    })),
  }
  return `${JSON.stringify(doc, null, 2)}\n`
}

function parseNumber(flag: string, value: string | undefined, check: (n: number) => boolean): number | string {
  const n = Number(value)
  return value === undefined || value === '' || !Number.isFinite(n) || !check(n)
    ? `${flag} needs ${flag === '--alpha' ? 'a number in (0, 1)' : flag === '--tolerance' ? 'a number from 0 to 1' : 'a positive integer'}, got ${JSON.stringify(value ?? null)}`
    : n
}

/** Runs `rag-matchers compare` with the arguments after `compare`; returns the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const files: string[] = []
  let format: 'text' | 'md' | 'json' = 'text'
  let check = false
  let history: string | undefined
  const options: { -readonly [K in keyof CompareReportsOptions]: CompareReportsOptions[K] } = {}
  const usage = (message: string) => reportFailure(io, 'compare', EXIT.usage, `${message}\n${COMPARE_USAGE}`)
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = () => inline ?? argv[++i]
    if (flag === '-h' || flag === '--help') {
      await writeOut(io.stdout, `${COMPARE_USAGE}\n`)
      return EXIT.ok
    } else if (flag === '--format') {
      const v = value()
      if (v !== 'text' && v !== 'md' && v !== 'json') return usage(`--format must be text, md or json, got ${JSON.stringify(v ?? null)}`)
      format = v
    } else if (flag === '--test') {
      const v = value()
      if (v !== 'bootstrap' && v !== 'permutation' && v !== 'none') return usage(`--test must be bootstrap, permutation or none, got ${JSON.stringify(v ?? null)}`)
      options.test = v
    } else if (flag === '--cases') {
      const v = value()
      if (v !== 'shared' && v !== 'equal') return usage(`--cases must be shared or equal, got ${JSON.stringify(v ?? null)}`)
      options.cases = v
    } else if (flag === '--alpha' || flag === '--tolerance' || flag === '--resamples' || flag === '--seed') {
      const checks: Record<string, (n: number) => boolean> = {
        '--alpha': (n) => n > 0 && n < 1,
        '--tolerance': (n) => n >= 0 && n <= 1,
        '--resamples': (n) => Number.isInteger(n) && n >= 1,
        '--seed': (n) => Number.isInteger(n),
      }
      const n = parseNumber(flag, value(), checks[flag] as (n: number) => boolean)
      if (typeof n === 'string') return usage(flag === '--seed' ? `--seed needs an integer` : n)
      options[flag.slice(2) as 'alpha' | 'tolerance' | 'resamples' | 'seed'] = n
    } else if (flag === '--max-regressed-cases') {
      const v = value()
      const n = Number(v)
      if (v === undefined || v === '' || !Number.isInteger(n) || n < 0) return usage(`--max-regressed-cases needs an integer ≥ 0, got ${JSON.stringify(v ?? null)}`)
      options.maxRegressedCases = n
    } else if (flag === '--history') {
      const v = value()
      if (v === undefined || v === '') return usage('--history needs a store: a SQLite file, sqlite:PATH or postgres://…')
      history = v
    } else if (flag === '--check') {
      check = true
    } else if (flag.startsWith('-') && flag !== '-') {
      return usage(`unknown option ${arg}`)
    } else {
      files.push(arg)
    }
  }
  if (files.length !== 2) return usage(`expected two reports (base, new): rag-report.json files or runs of the history, got ${files.length}`)
  let sides: [CompareSide, CompareSide]
  try {
    sides = (await loadSides(files, { ...(history !== undefined ? { history } : {}), cwd: process.cwd() })) as [CompareSide, CompareSide]
  } catch (error) {
    if (error instanceof HistoryError) return reportFailure(io, 'compare', error.kind === 'usage' ? EXIT.usage : EXIT.input, error.message)
    const code = (error as { code?: unknown }).code
    // A store SQLite refuses mid-read (corrupt, locked too long): the cause, not a stack.
    if (typeof code === 'string' && /SQLITE/i.test(code)) return reportFailure(io, 'compare', EXIT.input, sqliteMessage(error))
    return reportFailure(io, 'compare', EXIT.input, (error as Error).message)
  }
  for (const side of sides) {
    const problem = checkReportShape(side.report, side.label)
    if (problem !== undefined) return reportFailure(io, 'compare', EXIT.input, problem)
  }
  const [base, next] = sides
  const comparison = compareReports(base.report, next.report, options)
  // Runs of the history are named first (which runs, when, which commit); two files print as before.
  const named = base.run !== undefined || next.run !== undefined ? { base: sideLine(base), next: sideLine(next) } : undefined
  const text =
    format === 'json'
      ? formatJson(comparison, { base: base.label, next: next.label }, { base: base.run, next: next.run })
      : format === 'md'
        ? formatMarkdown(comparison, named)
        : formatText(comparison, named)
  await writeOut(io.stdout, text)
  return check && comparison.failed ? EXIT.evaluation : EXIT.ok
}
