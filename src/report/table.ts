/**
 * The terminal summary the reporters print after a run: per eval set a metric table (value,
 * threshold, result, baseline delta when one exists) with the failing cases underneath, then the
 * single-case assertions per test file, grouped by metric once a file has more than
 * {@link GROUP_SINGLES_ABOVE}. Plain text, no colours, so it reads the same in CI logs. Every line and
 * cell is terminal-safe (src/text/terminal-safe.ts): a case id, set, file or test name, metric label or
 * error text shows its control characters as visible escapes and cannot start a line of its own.
 */
import { formatNumber, list, table } from '../text/format.js'
import { terminalSafe } from '../text/terminal-safe.js'
import { causeOf, type BaselineComparison, type EvalSetSection, type MetricRow, type RagReport, type RegressedCase, type ReportAssertion, type RunFailure } from './model.js'
import type { RecordedComparator } from './record.js'
import { trialLines } from './trials.js'

/** 2 decimals on a 0–100 scale (BLEU, chrF), 4 on 0–1. The recorded scale decides; older records are guessed from names. */
export function decimalsFor(row: { metric: string; matcher: string; threshold?: number; value: number | null; scale?: number }): number {
  // measured rows (src/report/performance.ts): ms to 0.1, whole tokens, a cost of fractions of a cent
  if (row.matcher === 'measured') return row.metric.startsWith('latency') ? 1 : row.metric.startsWith('tokens') ? 0 : 6
  if (row.scale !== undefined) return row.scale >= 100 ? 2 : 4
  if (/bleu|chrf/i.test(row.matcher) || /BLEU|chrF/.test(row.metric)) return 2
  const value = row.value !== null && Number.isFinite(row.value) ? row.value : 0
  return (row.threshold ?? 0) > 1 || value > 1 ? 2 : 4
}

/**
 * A number that has no value to print, with the reason: `n/a (not a number)`, `n/a (infinite)`,
 * `n/a (negative infinite)`. No table, Markdown or HTML cell ever reads `NaN` or `Infinity`.
 */
export function nonFiniteText(value: number): string {
  return Number.isNaN(value) ? 'n/a (not a number)' : `n/a (${value > 0 ? '' : 'negative '}infinite)`
}

/** {@link formatNumber}, with {@link nonFiniteText} for NaN and ±Infinity. */
export function displayNumber(value: number, other: number | undefined, decimals: number): string {
  return Number.isFinite(value) ? formatNumber(value, other, decimals) : nonFiniteText(value)
}

/** A value for display: `n/a` for a value undefined by definition (recorded as null), `n/a (reason)` for NaN or ±Infinity. */
export function formatValue(value: number | null | undefined, decimals: number, other?: number): string {
  return value === null || value === undefined ? 'n/a' : displayNumber(value, other, decimals)
}

const COMPARATOR_SIGN: Readonly<Record<RecordedComparator, string>> = { '>=': '≥', '<': '<', '<=': '≤', '>': '>' }

/** `≥ 0.8000` or, under `.not`, `< 0.8000`; for a lower-is-better metric (TER) `≤ 30.00`, under `.not` `> 30.00`. */
export function formatThreshold(row: { threshold?: number; comparator: RecordedComparator; value: number | null }, decimals: number): string {
  if (row.threshold === undefined) return '—'
  return `${COMPARATOR_SIGN[row.comparator] ?? '≥'} ${displayNumber(row.threshold, row.value ?? undefined, decimals)}`
}

/** `+0.0123 (baseline 0.8000)`, or `—` without a baseline. */
export function formatDelta(baseline: MetricRow['baseline'], decimals: number): string {
  if (baseline === undefined) return '—'
  return `${formatSigned(baseline.delta, decimals)} (baseline ${displayNumber(baseline.mean, undefined, decimals)})`
}

export function rowResult(row: Pick<MetricRow, 'pass' | 'assertions' | 'failedAssertions'> & { readonly errored?: number }): string {
  const errored = row.errored ?? 0
  // latency, tokens and cost are measured, not asserted (toStayWithinBudget is the gate)
  if (row.assertions === 0) return 'measured'
  if (row.assertions === 1) return row.pass ? 'pass' : errored > 0 ? 'ERROR' : 'FAIL'
  if (row.pass) return `pass (${row.assertions} assertions)`
  return `FAIL (${row.failedAssertions} of ${row.assertions} assertions${errored > 0 ? `, ${errored} errored` : ''})`
}

/** An assertion's result word: `pass`, `FAIL`, or `ERROR` when its matcher threw. */
export function assertionResult(a: Pick<ReportAssertion, 'outcome' | 'status'>): string {
  return a.status === 'error' ? 'ERROR' : a.outcome ? 'pass' : 'FAIL'
}

/**
 * A row whose value is a count, not a score: the baseline gate (`toMatchMetricBaseline` records the
 * number of regressed metrics, which must stay below 1).
 */
export function isCountRow(row: { readonly matcher: string }): boolean {
  return row.matcher === 'toMatchMetricBaseline'
}

function countOf(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/** The value of a row or assertion for display: a count as `6 regressed metrics`, a score with its decimals. */
export function valueText(row: { metric: string; matcher: string; threshold?: number; value: number | null; scale?: number }): string {
  if (isCountRow(row) && row.value !== null && Number.isInteger(row.value)) return countOf(row.value, 'regressed metric')
  return formatValue(row.value, decimalsFor(row), row.threshold)
}

/** The threshold of a row or assertion for display: a count gate as `allowed 0`, a score as `≥ 0.8000`. */
export function thresholdText(row: { metric: string; matcher: string; threshold?: number; comparator: RecordedComparator; value: number | null; scale?: number }): string {
  if (isCountRow(row) && row.threshold !== undefined && Number.isInteger(row.threshold) && row.comparator === '<') return `allowed ${row.threshold - 1}`
  return formatThreshold(row, decimalsFor(row))
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g

/** One line of text: control characters, line breaks and bidi controls become spaces, cut at `max`. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(CONTROL, ' ').replace(/ {2,}/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}

/** `1 → 0` for a per-case regression; integers stay integers, others get 4 decimals. */
export function formatRegressed(r: RegressedCase): string {
  const v = (x: number | null) => (x === null ? 'n/a' : Number.isInteger(x) ? String(x) : displayNumber(x, undefined, 4))
  return `${r.case} ${r.metric} ${v(r.baseline)} → ${v(r.current)}`
}

/** A failure of the run outside the rag-matchers assertions, on one line. */
export function runFailureText(f: RunFailure): string {
  return `${f.file}${f.test !== undefined ? ` › ${f.test}` : ''}${f.error !== undefined ? `: ${oneLine(f.error, 200)}` : ''}`
}

/** The headline words: `pass`, or `FAIL — 1 assertion errored; 2 tests failed outside rag-matchers assertions`. */
export function verdictText(report: RagReport): string {
  const v = report.verdict ?? { status: report.summary.failed === 0 ? 'pass' : 'fail', reasons: [] }
  if (v.status === 'pass') return 'pass'
  return v.reasons.length > 0 ? `FAIL — ${v.reasons.join('; ')}` : 'FAIL'
}

/** The summary line's counts: `3 assertions in 2 files, 2 passed, 1 failed (1 errored) · 1 eval set`. */
export function countsText(report: RagReport): string {
  const s = report.summary
  const errored = (s.errored ?? 0) > 0 ? ` (${s.errored} errored)` : ''
  return (
    `${s.assertions} ${s.assertions === 1 ? 'assertion' : 'assertions'} in ${s.files} ${s.files === 1 ? 'file' : 'files'}, ` +
    `${s.passed} passed, ${s.failed} failed${errored} · ${s.evalSets} eval ${s.evalSets === 1 ? 'set' : 'sets'}` +
    usageText(s.judgeUsage)
  )
}

/** ` · judge tokens: 840 prompt + 80 completion in 4 model requests`, or nothing when no judge reported tokens. */
function usageText(u: RagReport['summary']['judgeUsage']): string {
  if (u === undefined) return ''
  return ` · judge tokens: ${u.promptTokens} prompt + ${u.completionTokens} completion in ${u.calls} model ${u.calls === 1 ? 'request' : 'requests'}`
}

/** Does the report have anything to show: an assertion, or a failure of the run? */
export function hasContent(report: RagReport): boolean {
  return report.summary.assertions > 0 || (report.run !== undefined && (report.run.failedOutside.length > 0 || report.run.fileErrors.length > 0))
}

/**
 * The test and, for an assertion in a loop over cases, the case id: `answers each case [case q05]`. A title
 * that already names the case (`test.each` with `$id`) is not followed by it again.
 */
export function assertionLabel(a: ReportAssertion, max = 60): string {
  const title = testTitle(a, max)
  const id = a.case?.id
  return id !== undefined && id !== '' && !a.test.includes(id) ? `${title} [case ${oneLine(id, 60)}]` : title
}

/** Why the failed assertions of a set or file failed, one line each: `test [case q05]: message`. */
export function causeLines(assertions: readonly ReportAssertion[], max = 10): string[] {
  const out: string[] = []
  for (const a of assertions) {
    if (a.outcome) continue
    const cause = causeOf(a)
    if (cause === undefined) continue
    out.push(`${assertionLabel(a)}${a.status === 'error' ? ' (error)' : ''}: ${oneLine(cause)}`)
  }
  return out.length > max ? [...out.slice(0, max), `… and ${out.length - max} more`] : out
}

/** The assertions behind an eval set section, from the report's canonical list. */
export function setAssertions(report: RagReport, set: EvalSetSection): ReportAssertion[] {
  const files = new Set(set.files)
  const tests = new Set(set.tests)
  return report.assertions.filter((a) => files.has(a.file) && tests.has(a.fullName) && (a.perCase !== undefined || a.setSize !== undefined) && setKeyOf(a) === set.key)
}

function setKeyOf(a: ReportAssertion): string {
  return a.set !== undefined ? `set:${a.set}` : `describe:${a.file}::${a.describe.join(' › ')}`
}

/** A metric row's label with its `(.not)` and `(weighted)` marks; the HTML table shows the same. */
export function metricName(row: MetricRow): string {
  const parts = [row.metric]
  if (row.isNot) parts.push('(.not)')
  if (row.aggregate === 'weighted-mean') parts.push('(weighted)')
  return parts.join(' ')
}

/** The test's own title (its describe blocks head the section in the HTML), cut to keep the table narrow. */
function testTitle(a: ReportAssertion, max = 60): string {
  const flat = a.test.replace(/\s+/g, ' ')
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}

function singleRow(a: ReportAssertion): string[] {
  return [assertionLabel(a), a.metric + (a.isNot ? ' (.not)' : ''), valueText(a), thresholdText(a), assertionResult(a)]
}

const ALL = Number.MAX_SAFE_INTEGER

/**
 * A file with more single-case assertions than this (a loop over a dataset, not a handful of
 * hand-written checks) prints one row per metric instead of one per assertion: count, passed,
 * failed, threshold and the worst cases. rag-report.html and rag-report.json keep every assertion.
 * 40 keeps a hand-written file whole while a loop over 1,000 cases prints a few lines.
 */
export const GROUP_SINGLES_ABOVE = 40
const WORST_SHOWN = 3

/** How far an assertion is on the passing side of its threshold (negative: failing); null without one. */
function margin(a: ReportAssertion): number | null {
  if (a.value === null || a.threshold === undefined) return null
  return a.comparator === '>=' || a.comparator === '>' ? a.value - a.threshold : a.threshold - a.value
}

/** Failed assertions first, then the nearest to their threshold: the ones a reader should look at. */
function worstFirst(x: ReportAssertion, y: ReportAssertion): number {
  if (x.outcome !== y.outcome) return x.outcome ? 1 : -1
  return (margin(x) ?? Infinity) - (margin(y) ?? Infinity)
}

/** One row per metric (with its `.not` and comparator) of a file's single assertions, in first-seen order. */
export function groupedSingleRows(assertions: readonly ReportAssertion[]): string[][] {
  const groups = new Map<string, ReportAssertion[]>()
  for (const a of assertions) {
    const key = `${a.metric}\u0000${a.isNot}\u0000${a.comparator}`
    const list = groups.get(key)
    if (list) list.push(a)
    else groups.set(key, [a])
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as ReportAssertion
    const d = decimalsFor(first)
    const failed = group.filter((a) => !a.outcome).length
    const thresholds = [...new Set(group.map((a) => a.threshold).filter((t): t is number => t !== undefined))].sort((p, q) => p - q)
    const threshold =
      thresholds.length <= 1
        ? formatThreshold(first, d)
        : `${COMPARATOR_SIGN[first.comparator] ?? '≥'} ${displayNumber(thresholds[0] as number, undefined, d)}…${displayNumber(thresholds.at(-1) as number, undefined, d)}`
    const worst = [...group].sort(worstFirst).slice(0, WORST_SHOWN)
    return [
      first.metric + (first.isNot ? ' (.not)' : ''),
      String(group.length),
      String(group.length - failed),
      String(failed),
      threshold,
      worst.map((a) => `${assertionLabel(a, 30)} ${formatValue(a.value, d, a.threshold)}${a.outcome ? '' : ` ${assertionResult(a)}`}`).join(', '),
    ]
  })
}

/** A signed delta: `+0.0123`, `−0.0456`, `±0.0000`. */
export function formatSigned(delta: number | null, decimals: number): string {
  if (delta === null) return 'n/a'
  if (!Number.isFinite(delta)) return nonFiniteText(delta)
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±'
  return `${sign}${formatNumber(Math.abs(delta), undefined, decimals)}`
}

/** One metric of a baseline comparison: names like `bleu`/`chrf` are on 0–100. */
export function baselineRow(b: BaselineComparison): string[] {
  const d = decimalsFor({ metric: b.metric, matcher: b.metric, value: b.current })
  const p = b.pValue === undefined ? '—' : b.pValue === null ? 'n/a' : displayNumber(b.pValue, undefined, 4)
  return [b.metric, formatValue(b.baseline, d), formatValue(b.current, d), formatSigned(b.delta, d), p, b.status ?? '—']
}

/**
 * Renders the report as text for the terminal. Returns '' for a report without assertions, so a run
 * without rag-matchers assertions prints nothing from us.
 *
 * @example
 * console.log(renderTable(buildReport(assertions, { runner: 'vitest' })))
 */
export function renderTable(report: RagReport): string {
  if (!hasContent(report)) return ''
  const lines: string[] = []
  // Every line is terminal-safe; a table's rows are joined by our own line feeds, so its cells are made safe instead.
  const out = {
    push: (...texts: string[]) => lines.push(...texts.map((text) => terminalSafe(text))),
    table: (rows: ReadonlyArray<ReadonlyArray<string>>, options: { indent?: string; max?: number }) =>
      lines.push(
        table(
          rows.map((row) => row.map((cell) => terminalSafe(cell))),
          options,
        ),
      ),
  }
  const shard = report.shard ? ` · shard ${report.shard.index}/${report.shard.count} (partial: merge the shards for the full report)` : ''
  out.push(`rag-matchers: ${countsText(report)}${shard}`, `verdict: ${verdictText(report)}`)
  for (const set of report.evalSets) {
    const size = set.cases.length
    const where = set.source === 'set' || set.name !== set.files[0] ? ` (${set.files.join(', ')})` : ''
    out.push('', `Eval set "${set.name}"${where} · ${size} ${size === 1 ? 'case' : 'cases'} · ${set.pass ? 'pass' : 'FAIL'}`)
    // One set asserted by several tests is one set; say which tests asserted it.
    if (set.tests.length > 1) out.push(`  asserted by ${set.tests.length} tests: ${list(set.tests)}`)
    const withBaseline = set.metrics.some((m) => m.baseline !== undefined)
    const header = ['metric', 'value', 'threshold', 'n', 'result', ...(withBaseline ? ['Δ baseline'] : [])]
    const rows = set.metrics.map((m) => {
      const d = decimalsFor(m)
      return [metricName(m), valueText(m), thresholdText(m), String(m.n), rowResult(m), ...(withBaseline ? [formatDelta(m.baseline, d)] : [])]
    })
    out.table([header, ...rows], { max: ALL })
    const why = causeLines(setAssertions(report, set))
    if (why.length > 0) out.push('  why:', ...why.map((line) => `    ${line}`))
    const trials = trialLines(setAssertions(report, set))
    if (trials.length > 0) out.push('  trials:', ...trials.map((line) => `    ${line}`))
    if (set.baselines.length > 0) {
      out.push('  baseline comparisons:')
      out.table([['metric', 'baseline', 'current', 'Δ', 'p', 'status'], ...set.baselines.map(baselineRow)], { indent: '    ', max: ALL })
    }
    if (set.regressedCases !== undefined && set.regressedCases.length > 0) out.push(`  regressed cases: ${list(set.regressedCases.map(formatRegressed), 10)}`)
    const failing = set.metrics.filter((m) => m.failingCases.length > 0)
    if (failing.length > 0) {
      out.push('  cases below the threshold:')
      for (const m of failing) {
        const d = decimalsFor(m)
        const byId = new Map((m.values ?? []).map((v) => [v.id, v.value]))
        // a failing case is on the wrong side of the threshold: below it, or above it for a lower-is-better metric
        out.push(
          `    ${m.metric} ${m.comparator === '<=' ? '>' : '<'} ${formatValue(m.threshold, d)}: ${list(m.failingCases.map((id) => `${id} ${formatValue(byId.get(id), d, m.threshold)}`))}`,
        )
      }
    }
  }
  for (const file of report.singles) {
    out.push('', `Assertions in ${file.file} · ${file.pass ? 'pass' : 'FAIL'}`)
    const why = causeLines(file.assertions)
    if (file.assertions.length > GROUP_SINGLES_ABOVE) {
      out.push(`  ${file.assertions.length} assertions, grouped by metric (more than ${GROUP_SINGLES_ABOVE} in this file); each one is in rag-report.html and rag-report.json`)
      out.table([['metric', 'assertions', 'passed', 'failed', 'threshold', 'worst'], ...groupedSingleRows(file.assertions)], { max: ALL })
    } else {
      out.table([['test', 'metric', 'value', 'threshold', 'result'], ...file.assertions.map(singleRow)], { max: ALL })
    }
    if (why.length > 0) out.push('  why:', ...why.map((line) => `    ${line}`))
    const trials = trialLines(file.assertions)
    if (trials.length > 0) out.push('  trials:', ...trials.map((line) => `    ${line}`))
  }
  const outside = runFailureLines(report)
  if (outside.length > 0) out.push('', ...outside)
  return lines.join('\n')
}

/** The run's failures outside the rag-matchers assertions, as text lines (at most 10 of each kind). */
export function runFailureLines(report: RagReport): string[] {
  const run = report.run
  if (run === undefined) return []
  const out: string[] = []
  if (run.failedOutside.length > 0) {
    out.push(`Failed outside rag-matchers assertions (${countOf(run.failedOutside.length, 'test')}):`)
    out.push(...run.failedOutside.slice(0, 10).map((f) => `  ${runFailureText(f)}`))
    if (run.failedOutside.length > 10) out.push(`  … and ${run.failedOutside.length - 10} more`)
  }
  if (run.fileErrors.length > 0) {
    out.push(`Failed to run (${run.fileErrors.length} ${run.fileErrors.length === 1 ? 'file or hook' : 'files or hooks'}):`)
    out.push(...run.fileErrors.slice(0, 10).map((f) => `  ${runFailureText(f)}`))
    if (run.fileErrors.length > 10) out.push(`  … and ${run.fileErrors.length - 10} more`)
  }
  return out
}
