/**
 * The terminal summary the reporters print after a run: per eval set a metric table (value,
 * threshold, result, baseline delta when one exists) with the failing cases underneath, then the
 * single-case assertions per test file, grouped by metric once a file has more than
 * {@link GROUP_SINGLES_ABOVE}. Plain text, no colours, so it reads the same in CI logs.
 */
import { formatNumber, list, table } from '../text/format.js'
import type { BaselineComparison, MetricRow, RagReport, ReportAssertion } from './model.js'
import type { RecordedComparator } from './record.js'

/** 2 decimals on a 0–100 scale (BLEU, chrF), 4 on 0–1. The recorded scale decides; older records are guessed from names. */
export function decimalsFor(row: { metric: string; matcher: string; threshold?: number; value: number | null; scale?: number }): number {
  if (row.scale !== undefined) return row.scale >= 100 ? 2 : 4
  if (/bleu|chrf/i.test(row.matcher) || /BLEU|chrF/.test(row.metric)) return 2
  return (row.threshold ?? 0) > 1 || (row.value ?? 0) > 1 ? 2 : 4
}

/** A value for display: `n/a` for a value undefined by definition (recorded as null). */
export function formatValue(value: number | null | undefined, decimals: number, other?: number): string {
  return value === null || value === undefined ? 'n/a' : formatNumber(value, other, decimals)
}

const COMPARATOR_SIGN: Readonly<Record<RecordedComparator, string>> = { '>=': '≥', '<': '<', '<=': '≤', '>': '>' }

/** `≥ 0.8000` or, under `.not`, `< 0.8000`; for a lower-is-better metric (TER) `≤ 30.00`, under `.not` `> 30.00`. */
export function formatThreshold(row: { threshold?: number; comparator: RecordedComparator; value: number | null }, decimals: number): string {
  if (row.threshold === undefined) return '—'
  return `${COMPARATOR_SIGN[row.comparator] ?? '≥'} ${formatNumber(row.threshold, row.value ?? undefined, decimals)}`
}

/** `+0.0123 (baseline 0.8000)`, or `—` without a baseline. */
export function formatDelta(baseline: MetricRow['baseline'], decimals: number): string {
  if (baseline === undefined) return '—'
  return `${formatSigned(baseline.delta, decimals)} (baseline ${formatNumber(baseline.mean, undefined, decimals)})`
}

export function rowResult(row: Pick<MetricRow, 'pass' | 'assertions' | 'failedAssertions'>): string {
  if (row.assertions === 1) return row.pass ? 'pass' : 'FAIL'
  return row.pass ? `pass (${row.assertions} assertions)` : `FAIL (${row.failedAssertions} of ${row.assertions} assertions)`
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
  const d = decimalsFor(a)
  return [testTitle(a), a.metric + (a.isNot ? ' (.not)' : ''), formatValue(a.value, d, a.threshold), formatThreshold(a, d), a.outcome ? 'pass' : 'FAIL']
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
        : `${COMPARATOR_SIGN[first.comparator] ?? '≥'} ${formatNumber(thresholds[0] as number, undefined, d)}…${formatNumber(thresholds.at(-1) as number, undefined, d)}`
    const worst = [...group].sort(worstFirst).slice(0, WORST_SHOWN)
    return [
      first.metric + (first.isNot ? ' (.not)' : ''),
      String(group.length),
      String(group.length - failed),
      String(failed),
      threshold,
      worst.map((a) => `${testTitle(a, 30)} ${formatValue(a.value, d, a.threshold)}${a.outcome ? '' : ' FAIL'}`).join(', '),
    ]
  })
}

/** A signed delta: `+0.0123`, `−0.0456`, `±0.0000`. */
export function formatSigned(delta: number | null, decimals: number): string {
  if (delta === null) return 'n/a'
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±'
  return `${sign}${formatNumber(Math.abs(delta), undefined, decimals)}`
}

/** One metric of a baseline comparison: names like `bleu`/`chrf` are on 0–100. */
export function baselineRow(b: BaselineComparison): string[] {
  const d = decimalsFor({ metric: b.metric, matcher: b.metric, value: b.current })
  const p = b.pValue === undefined ? '—' : b.pValue === null ? 'n/a' : formatNumber(b.pValue, undefined, 4)
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
  const s = report.summary
  if (s.assertions === 0) return ''
  const out: string[] = []
  const shard = report.shard ? ` · shard ${report.shard.index}/${report.shard.count} (partial: merge the shards for the full report)` : ''
  out.push(
    `rag-matchers: ${s.assertions} ${s.assertions === 1 ? 'assertion' : 'assertions'} in ${s.files} ${s.files === 1 ? 'file' : 'files'}, ` +
      `${s.passed} passed, ${s.failed} failed · ${s.evalSets} eval ${s.evalSets === 1 ? 'set' : 'sets'}${shard}`,
  )
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
      return [metricName(m), formatValue(m.value, d, m.threshold), formatThreshold(m, d), String(m.n), rowResult(m), ...(withBaseline ? [formatDelta(m.baseline, d)] : [])]
    })
    out.push(table([header, ...rows], { max: ALL }))
    if (set.baselines.length > 0) {
      out.push('  baseline comparisons:')
      out.push(table([['metric', 'baseline', 'current', 'Δ', 'p', 'status'], ...set.baselines.map(baselineRow)], { indent: '    ', max: ALL }))
    }
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
    if (file.assertions.length > GROUP_SINGLES_ABOVE) {
      out.push(`  ${file.assertions.length} assertions, grouped by metric (more than ${GROUP_SINGLES_ABOVE} in this file); each one is in rag-report.html and rag-report.json`)
      out.push(table([['metric', 'assertions', 'passed', 'failed', 'threshold', 'worst'], ...groupedSingleRows(file.assertions)], { max: ALL }))
      continue
    }
    out.push(table([['test', 'metric', 'value', 'threshold', 'result'], ...file.assertions.map(singleRow)], { max: ALL }))
  }
  return out.join('\n')
}
