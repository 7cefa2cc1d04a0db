/**
 * The terminal summary the reporters print after a run: per eval set a metric table (value,
 * threshold, result, baseline delta when one exists) with the failing cases underneath, then the
 * single-case assertions per test file. Plain text, no colours, so it reads the same in CI logs.
 */
import { formatNumber, list, table } from '../text/format.js'
import type { BaselineComparison, MetricRow, RagReport, ReportAssertion } from './model.js'

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

/** `≥ 0.8000` or, under `.not`, `< 0.8000`. */
export function formatThreshold(row: { threshold?: number; comparator: '>=' | '<'; value: number | null }, decimals: number): string {
  if (row.threshold === undefined) return '—'
  return `${row.comparator === '<' ? '<' : '≥'} ${formatNumber(row.threshold, row.value ?? undefined, decimals)}`
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
        out.push(`    ${m.metric} < ${formatValue(m.threshold, d)}: ${list(m.failingCases.map((id) => `${id} ${formatValue(byId.get(id), d, m.threshold)}`))}`)
      }
    }
  }
  for (const file of report.singles) {
    out.push('', `Assertions in ${file.file} · ${file.pass ? 'pass' : 'FAIL'}`)
    out.push(table([['test', 'metric', 'value', 'threshold', 'result'], ...file.assertions.map(singleRow)], { max: ALL }))
  }
  return out.join('\n')
}
