/**
 * rag-report.md: the Markdown summary a reviewer reads in a pull request (GitHub's job summary,
 * `$GITHUB_STEP_SUMMARY`, or a GitLab artifact). One table per eval set: each metric with its value,
 * threshold, baseline value, delta and status, then the worst cases of each regression. The numbers
 * are formatted by the same functions as the terminal table and the HTML, so all three agree.
 */
import { causeOf, type BaselineComparison, type EvalSetSection, type MetricRow, type RagReport } from './model.js'
import {
  assertionLabel,
  assertionResult,
  baselineRow,
  causeLines,
  countsText,
  decimalsFor,
  formatRegressed,
  formatSigned,
  formatValue,
  hasContent,
  metricName,
  oneLine,
  rowResult,
  runFailureLines,
  setAssertions,
  thresholdText,
  valueText,
  verdictText,
} from './table.js'
import { trialLines } from './trials.js'

/**
 * Cell text: one line (control characters, line and paragraph separators become spaces, so no text can
 * forge a line of its own), `\`, `|` and `<` backslash-escaped, and a leading `>` (a quote). GitHub
 * renders inline HTML in Markdown; `\<` is CommonMark's own escape: the page shows `<`, and a
 * plain-text CI log shows `\<` rather than `&lt;`. No HTML entity is ever written.
 */
export function cell(text: string): string {
  return oneLine(text, 2_000)
    .replace(/[\\|<]/g, (ch) => `\\${ch}`)
    .replace(/^>/, '\\>')
}

function row(cells: readonly string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`
}

const HEADER = ['metric', 'value', 'threshold', 'baseline', 'Δ', 'status']

function metricRow(m: MetricRow): string[] {
  const d = decimalsFor(m)
  return [
    metricName(m),
    valueText(m),
    thresholdText(m),
    m.baseline === undefined ? '—' : formatValue(m.baseline.mean, d),
    m.baseline === undefined ? '—' : formatSigned(m.baseline.delta, d),
    rowResult(m),
  ]
}

/** A baseline comparison as a row: the gate's tolerance is its threshold, its status word the status. */
function comparisonRow(b: BaselineComparison): string[] {
  const [metric, baseline, current, delta, p, status] = baselineRow(b)
  const d = decimalsFor({ metric: b.metric, matcher: b.metric, value: b.current })
  const tolerance = b.tolerance === undefined ? '—' : `drop ≤ ${formatValue(b.tolerance, d)}`
  const pText = p === '—' || p === 'n/a' ? '' : ` (p = ${p})`
  return [`${metric} vs baseline`, current ?? '', tolerance, baseline ?? '', delta ?? '', `${status ?? '—'}${pText}`]
}

function worstCases(set: EvalSetSection): string[] {
  const out: string[] = []
  for (const b of set.baselines) {
    if (b.worst === undefined || b.worst.length === 0) continue
    if (b.status !== 'regressed' && b.status !== 'dropped (not significant)') continue
    const d = decimalsFor({ metric: b.metric, matcher: b.metric, value: b.current })
    const cases = b.worst.map((c) => `\`${c.id.replace(/`/g, "'")}\` ${formatValue(c.baseline, d)} → ${formatValue(c.current, d)} (${formatSigned(c.delta, d)})`)
    out.push(`- ${cell(b.metric)} (${b.status}): ${cell(cases.join(', '))}`)
  }
  for (const m of set.metrics) {
    if (m.failingCases.length === 0) continue
    const d = decimalsFor(m)
    const byId = new Map((m.values ?? []).map((v) => [v.id, v.value]))
    const shown = m.failingCases.slice(0, 5).map((id) => `\`${id.replace(/`/g, "'")}\` ${formatValue(byId.get(id), d, m.threshold)}`)
    const more = m.failingCases.length > 5 ? ` … and ${m.failingCases.length - 5} more` : ''
    out.push(`- ${cell(m.metric)} below ${formatValue(m.threshold, d)}: ${cell(shown.join(', '))}${more}`)
  }
  return out
}

/**
 * Renders the report as Markdown; '' for a report without assertions.
 *
 * @example
 * renderMarkdown(buildReport(assertions, { runner: 'vitest' })).startsWith('## rag-matchers') // true
 */
export function renderMarkdown(report: RagReport): string {
  if (!hasContent(report)) return ''
  const out: string[] = []
  const shard = report.shard ? ` · shard ${report.shard.index}/${report.shard.count} (partial: merge the shards for the full report)` : ''
  out.push(`## rag-matchers: ${cell(verdictText(report))}`, '', `${cell(countsText(report))}${shard}`)
  for (const set of report.evalSets) {
    const size = set.cases.length
    out.push('', `### Eval set "${cell(set.name)}" · ${size} ${size === 1 ? 'case' : 'cases'} · ${set.pass ? 'pass' : 'FAIL'}`, '')
    out.push(row(HEADER), `|${HEADER.map(() => ' --- ').join('|')}|`)
    // the baseline assertion's own row ("metrics regressed vs baseline") is replaced by its per-metric rows
    for (const m of set.metrics) if (!(m.matcher === 'toMatchMetricBaseline' && set.baselines.length > 0)) out.push(row(metricRow(m)))
    for (const b of set.baselines) out.push(row(comparisonRow(b)))
    const why = causeLines(setAssertions(report, set))
    if (why.length > 0) out.push('', '**Why**', '', ...why.map((line) => `- ${cell(line)}`))
    const trials = trialLines(setAssertions(report, set))
    if (trials.length > 0) out.push('', '**Trials**', '', ...trials.map((line) => `- ${cell(line)}`))
    const worst = worstCases(set)
    if (worst.length > 0) out.push('', '**Worst cases**', '', ...worst)
    if (set.regressedCases !== undefined && set.regressedCases.length > 0) {
      out.push('', '**Regressed cases**', '', ...set.regressedCases.slice(0, 20).map((r) => `- ${cell(formatRegressed(r))}`))
      if (set.regressedCases.length > 20) out.push(`- … and ${set.regressedCases.length - 20} more`)
    }
  }
  const failedSingles = report.singles.flatMap((f) => f.assertions.filter((a) => !a.outcome).map((a) => ({ file: f.file, a })))
  if (failedSingles.length > 0) {
    out.push(
      '',
      '### Failed single-case assertions',
      '',
      row(['file', 'test', 'metric', 'value', 'threshold', 'result', 'why']),
      '| --- | --- | --- | --- | --- | --- | --- |',
    )
    for (const { file, a } of failedSingles) {
      const why = causeOf(a)
      out.push(
        row([file, assertionLabel(a), a.metric + (a.isNot ? ' (.not)' : ''), valueText(a), thresholdText(a), assertionResult(a), why === undefined ? '—' : oneLine(why)]),
      )
    }
  }
  const singleTrials = trialLines(report.singles.flatMap((file) => file.assertions))
  if (singleTrials.length > 0) out.push('', '### Trials of single-case assertions', '', ...singleTrials.map((line) => `- ${cell(line)}`))
  const outside = runFailureLines(report)
  if (outside.length > 0) {
    out.push('', '### Failures outside rag-matchers assertions', '')
    for (const line of outside) out.push(...(line.startsWith('  ') ? [`- ${cell(line.trim())}`] : ['', `**${cell(line)}**`, '']))
  }
  return `${out.join('\n')}\n`
}
