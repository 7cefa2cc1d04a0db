/**
 * rag-report.html: ONE self-contained file (inline CSS and SVG, no script, no network). Every piece
 * of text that came from a test run (answers, questions, ids, signatures, test names, file names) goes
 * through {@link escapeHtml}, in element content and in attribute values alike. The page also carries
 * a Content-Security-Policy that allows no script at all, so a missed escape still cannot run code.
 */
import { causeOf, type CaseRow, type EvalSetSection, type MetricRow, type RagReport, type ReportAssertion, type RunFailure } from './model.js'
import {
  assertionResult,
  baselineRow,
  causeLines,
  decimalsFor,
  formatDelta,
  formatRegressed,
  formatSigned,
  formatThreshold,
  formatValue,
  metricName,
  rowResult,
  setAssertions,
  thresholdText,
  valueText,
  verdictText,
} from './table.js'
import { trialLines } from './trials.js'

/** The page's policy: nothing may load or run; only the inline stylesheet applies. */
export const REPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' }

/**
 * Escapes text for HTML element content AND quoted attribute values: `& < > " ' \``. Anything that is
 * not a string is converted with `String` first.
 *
 * @example
 * escapeHtml('"><img src=x onerror="alert(1)">') // '&quot;&gt;&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
 */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"'`]/g, (ch) => ESCAPES[ch] as string)
}

const STYLE = `
:root { color-scheme: light; --pass: #1a7f37; --fail: #cf222e; --muted: #57606a; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0; padding: 24px; color: #1f2328; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; } h3 { font-size: 15px; margin: 16px 0 6px; }
.muted { color: var(--muted); } .pass { color: var(--pass); font-weight: 600; } .fail { color: var(--fail); font-weight: 600; }
table { border-collapse: collapse; margin: 8px 0 16px; width: 100%; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.text { max-width: 360px; white-space: pre-wrap; overflow-wrap: anywhere; }
code, .sig { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure.chart { margin: 0; border: 1px solid var(--line); border-radius: 6px; padding: 8px; }
figure.chart figcaption { font-weight: 600; margin-bottom: 4px; }
svg .bar.pass { fill: #4ac26b; } svg .bar.fail { fill: #ff8182; } svg .bar.na { fill: #afb8c1; }
svg .threshold { stroke: var(--fail); stroke-width: 1.5; stroke-dasharray: 5 3; }
svg .baseline { stroke: #0969da; stroke-width: 1.5; stroke-dasharray: 2 2; }
svg .axis { stroke: #8c959f; stroke-width: 1; } svg text { font: 10px system-ui, sans-serif; fill: #57606a; }
section.eval-set, section.singles { border-top: 2px solid var(--line); }
`

const CHART = { width: 640, height: 180, left: 40, right: 10, top: 10, bottom: 24 }

/** Top of the y axis: 1 for 0–1 metrics, 100 for BLEU/chrF, else the largest value. */
function axisMax(values: readonly number[], threshold: number | undefined): number {
  const top = Math.max(0, threshold ?? 0, ...values)
  if (top <= 1) return 1
  if (top <= 100) return 100
  return top
}

/** One bar per case (a case without a value gets an empty grey bar), plus the threshold and baseline lines. */
export function renderChart(row: MetricRow): string {
  const values = row.values ?? []
  const d = decimalsFor(row)
  const numbers = values.map((v) => v.value).filter((v): v is number => v !== null)
  const max = axisMax(numbers, row.threshold)
  const min = Math.min(0, ...numbers)
  const plotW = CHART.width - CHART.left - CHART.right
  const plotH = CHART.height - CHART.top - CHART.bottom
  const y = (v: number) => CHART.top + plotH - ((v - min) / (max - min || 1)) * plotH
  const slot = plotW / Math.max(1, values.length)
  const barW = Math.max(1, slot * 0.8)
  const zero = y(0)
  const parts: string[] = []
  parts.push(`<line class="axis" x1="${CHART.left}" y1="${zero}" x2="${CHART.width - CHART.right}" y2="${zero}"/>`)
  parts.push(`<line class="axis" x1="${CHART.left}" y1="${CHART.top}" x2="${CHART.left}" y2="${CHART.top + plotH}"/>`)
  parts.push(`<text x="${CHART.left - 4}" y="${y(max) + 4}" text-anchor="end">${escapeHtml(formatValue(max, d > 2 ? 1 : 0))}</text>`)
  parts.push(`<text x="${CHART.left - 4}" y="${y(min) + 4}" text-anchor="end">${escapeHtml(formatValue(min, d > 2 ? 1 : 0))}</text>`)
  values.forEach((v, i) => {
    const x = CHART.left + i * slot + (slot - barW) / 2
    const state = v.value === null ? 'na' : v.pass === false ? 'fail' : 'pass'
    // Bars grow from 0 (up, or down for a negative value such as a kappa); a zero still gets a sliver so a
    // failing case at 0 is visible. The exact value is in the tooltip and in the table.
    let top = zero
    let h = 0
    if (v.value !== null) {
      const vy = y(v.value)
      h = Math.max(1.5, Math.abs(zero - vy))
      top = v.value >= 0 ? zero - h : zero
    }
    const tip = `${v.id}: ${formatValue(v.value, d, row.threshold)}`
    parts.push(
      `<rect class="bar ${state}" data-case="${escapeHtml(v.id)}" x="${x.toFixed(2)}" y="${top.toFixed(2)}" width="${barW.toFixed(2)}" height="${h.toFixed(2)}"><title>${escapeHtml(tip)}</title></rect>`,
    )
    if (values.length <= 24) {
      const label = v.id.length > 10 ? `${v.id.slice(0, 9)}…` : v.id
      parts.push(`<text x="${(x + barW / 2).toFixed(2)}" y="${CHART.height - 8}" text-anchor="middle">${escapeHtml(label)}</text>`)
    }
  })
  if (row.threshold !== undefined) {
    parts.push(
      `<line class="threshold" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${y(row.threshold).toFixed(2)}" y2="${y(row.threshold).toFixed(2)}"><title>${escapeHtml(`threshold ${formatThreshold(row, d)}`)}</title></line>`,
    )
  }
  if (row.baseline !== undefined) {
    const by = y(row.baseline.mean).toFixed(2)
    parts.push(
      `<line class="baseline" x1="${CHART.left}" x2="${CHART.width - CHART.right}" y1="${by}" y2="${by}"><title>${escapeHtml(`baseline mean ${formatValue(row.baseline.mean, d)}`)}</title></line>`,
    )
  }
  const label = `${row.metric}: one bar per case, threshold line`
  return (
    `<figure class="chart" data-metric="${escapeHtml(row.key)}"><figcaption>${escapeHtml(row.metric)}${row.isNot ? ' (.not)' : ''}</figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeHtml(label)}" width="${CHART.width}" height="${CHART.height}" viewBox="0 0 ${CHART.width} ${CHART.height}">${parts.join('')}</svg></figure>`
  )
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

function resultCell(pass: boolean, text: string): string {
  return `<td class="${pass ? 'pass' : 'fail'}">${escapeHtml(text)}</td>`
}

/** A list of why assertions failed (thrown errors, judge misses), or '' when none said. */
function whyList(lines: readonly string[]): string {
  if (lines.length === 0) return ''
  return `<div class="why"><h3>Why</h3><ul>${lines.map((l) => `<li class="fail">${escapeHtml(l)}</li>`).join('')}</ul></div>`
}

/** The trials of the judge assertions (one line each, src/report/trials.ts), or '' when none ran with trials. */
function trialsList(lines: readonly string[]): string {
  if (lines.length === 0) return ''
  return `<div class="trials"><h3>Trials</h3><ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul></div>`
}

/** The pass/FAIL badge after a section heading (eval sets and per-file singles alike). */
function resultBadge(pass: boolean): string {
  return `<span class="${pass ? 'pass' : 'fail'}">${pass ? 'pass' : 'FAIL'}</span>`
}

function metricsTable(set: EvalSetSection): string {
  const withBaseline = set.metrics.some((m) => m.baseline !== undefined)
  const head = `<tr><th>metric</th><th>value</th><th>threshold</th><th>n</th><th>result</th>${withBaseline ? '<th>Δ baseline</th>' : ''}<th>signature</th></tr>`
  const rows = set.metrics.map((m) => {
    const d = decimalsFor(m)
    return (
      `<tr data-metric="${escapeHtml(m.key)}"><td>${escapeHtml(metricName(m))}</td><td class="num">${escapeHtml(valueText(m))}</td>` +
      `<td class="num">${escapeHtml(thresholdText(m))}</td><td class="num">${m.n}</td>${resultCell(m.pass, rowResult(m))}` +
      `${withBaseline ? `<td class="num">${escapeHtml(formatDelta(m.baseline, d))}</td>` : ''}<td><code class="sig">${escapeHtml(m.signature)}</code></td></tr>`
    )
  })
  return `<table class="metrics">${head}${rows.join('')}</table>`
}

function baselinesTable(set: EvalSetSection): string {
  if (set.baselines.length === 0) return ''
  const rows = set.baselines.map((b) => {
    const cells = baselineRow(b)
    const bad = b.status !== undefined && /regress|incomparable/i.test(b.status)
    return `<tr><td>${escapeHtml(b.fullName)}</td>${cells.map((c, i) => `<td class="${i === 0 ? '' : 'num'}${i === 5 && bad ? ' fail' : ''}">${escapeHtml(c)}</td>`).join('')}</tr>`
  })
  const worst = set.baselines.flatMap((b) => {
    if (b.worst === undefined || b.worst.length === 0) return []
    const d = decimalsFor({ metric: b.metric, matcher: b.metric, value: b.current })
    return [`${b.metric}: ${b.worst.map((c) => `${c.id} ${formatValue(c.baseline, d)} → ${formatValue(c.current, d)} (${formatSigned(c.delta, d)})`).join(', ')}`]
  })
  return (
    `<h3>Baseline comparisons</h3><table class="baselines"><tr><th>test</th><th>metric</th><th>baseline</th><th>current</th><th>Δ</th><th>p</th><th>status</th></tr>${rows.join('')}</table>` +
    (worst.length > 0 ? `<p class="worst">Cases that dropped most: ${worst.map(escapeHtml).join(' · ')}</p>` : '')
  )
}

function regressedCases(set: EvalSetSection): string {
  if (set.regressedCases === undefined || set.regressedCases.length === 0) return ''
  return `<h3>Regressed cases</h3><ul class="regressed">${set.regressedCases.map((r) => `<li><code>${escapeHtml(formatRegressed(r))}</code></li>`).join('')}</ul>`
}

function casesTable(set: EvalSetSection): string {
  if (set.cases.length === 0) return ''
  const charted = set.metrics.filter((m) => m.values !== undefined)
  const has = (pick: (c: CaseRow) => unknown) => set.cases.some((c) => pick(c) !== undefined)
  const columns: Array<{ head: string; cell: (c: CaseRow) => string }> = [{ head: 'id', cell: (c) => `<td><code>${escapeHtml(c.id)}</code></td>` }]
  if (has((c) => c.question)) columns.push({ head: 'question', cell: (c) => `<td class="text">${escapeHtml(c.question ?? '')}</td>` })
  if (has((c) => c.answer)) columns.push({ head: 'answer', cell: (c) => `<td class="text">${escapeHtml(c.answer ?? '')}</td>` })
  if (has((c) => c.reference)) columns.push({ head: 'reference', cell: (c) => `<td class="text">${escapeHtml(c.reference ?? '')}</td>` })
  if (has((c) => c.retrieved)) columns.push({ head: 'retrieved (first 10)', cell: (c) => `<td class="text"><code>${escapeHtml((c.retrieved ?? []).join(', '))}</code></td>` })
  if (has((c) => c.relevant)) columns.push({ head: 'expected relevant', cell: (c) => `<td class="text"><code>${escapeHtml((c.relevant ?? []).join(', '))}</code></td>` })
  if (has((c) => c.error)) columns.push({ head: 'error', cell: (c) => `<td class="text fail">${escapeHtml(c.error ?? '')}</td>` })
  for (const m of charted) {
    const d = decimalsFor(m)
    columns.push({
      head: `${m.metric}${m.isNot ? ' (.not)' : ''}`,
      cell: (c) => {
        const v = c.values[m.key]
        if (v === undefined) return '<td class="num muted">—</td>'
        return `<td class="num${v.pass === false && !m.isNot ? ' fail' : ''}">${escapeHtml(formatValue(v.value, d, m.threshold))}</td>`
      },
    })
  }
  columns.push({ head: 'failing checks', cell: (c) => `<td class="${c.failing.length > 0 ? 'fail' : 'muted'}">${escapeHtml(c.failing.join(', ') || '—')}</td>` })
  const head = `<tr>${columns.map((c) => `<th>${escapeHtml(c.head)}</th>`).join('')}</tr>`
  const rows = set.cases.map(
    (c) => `<tr class="case${c.failing.length > 0 ? ' failing' : ''}" data-case="${escapeHtml(c.id)}">${columns.map((col) => col.cell(c)).join('')}</tr>`,
  )
  return `<h3>Questions</h3><table class="cases">${head}${rows.join('')}</table>`
}

function evalSetSection(report: RagReport, set: EvalSetSection): string {
  const charts = set.metrics.filter((m) => m.values !== undefined && m.values.length > 0).map(renderChart)
  const where = set.files.map((f) => `<code>${escapeHtml(f)}</code>`).join(', ')
  return (
    `<section class="eval-set" data-set="${escapeHtml(set.key)}"><h2>Eval set: ${escapeHtml(set.name)} ${resultBadge(set.pass)}</h2>` +
    `<p class="muted">${plural(set.cases.length, 'case')} · ${where}${set.source === 'set' ? ' · named set' : ''}</p>` +
    (set.tests.length > 1 ? `<p class="muted tests">asserted by ${plural(set.tests.length, 'test')}: ${set.tests.map(escapeHtml).join(' · ')}</p>` : '') +
    metricsTable(set) +
    whyList(causeLines(setAssertions(report, set))) +
    trialsList(trialLines(setAssertions(report, set))) +
    baselinesTable(set) +
    regressedCases(set) +
    (charts.length > 0 ? `<div class="charts">${charts.join('')}</div>` : '') +
    casesTable(set) +
    `</section>`
  )
}

function singleRow(a: ReportAssertion): string {
  const cause = a.outcome ? undefined : causeOf(a)
  const c = a.case
  const caseCell =
    c === undefined
      ? '<td class="muted">—</td>'
      : `<td class="text"><code>${escapeHtml(c.id || '—')}</code>` +
        (c.retrieved !== undefined ? `<br><span class="muted">retrieved:</span> <code>${escapeHtml(c.retrieved.join(', '))}</code>` : '') +
        (c.relevant !== undefined ? `<br><span class="muted">expected:</span> <code>${escapeHtml(c.relevant.join(', '))}</code>` : '') +
        '</td>'
  return (
    `<tr${a.status === 'error' ? ' class="errored"' : ''}><td>${escapeHtml(a.fullName)}</td>${caseCell}<td><code>${escapeHtml(a.matcher)}</code></td><td>${escapeHtml(a.metric)}${a.isNot ? ' (.not)' : ''}</td>` +
    `<td class="num">${escapeHtml(valueText(a))}</td><td class="num">${escapeHtml(thresholdText(a))}</td>` +
    `${resultCell(a.outcome, assertionResult(a))}<td class="text${cause === undefined ? ' muted' : ' fail'}">${escapeHtml(cause ?? '—')}</td><td><code class="sig">${escapeHtml(a.signature)}</code></td></tr>`
  )
}

function failureRows(list: readonly RunFailure[]): string {
  return list
    .map((f) => `<tr><td><code>${escapeHtml(f.file)}</code></td><td>${escapeHtml(f.test ?? '—')}</td><td class="text fail">${escapeHtml(f.error ?? '—')}</td></tr>`)
    .join('')
}

/** Tests that failed without a failed rag-matchers assertion, and files or hooks that failed to run. */
function runFailures(report: RagReport): string {
  const run = report.run
  if (run === undefined || (run.failedOutside.length === 0 && run.fileErrors.length === 0)) return ''
  const head = '<tr><th>file</th><th>test</th><th>error</th></tr>'
  return (
    `<section class="run-failures"><h2>Failures outside rag-matchers assertions <span class="fail">FAIL</span></h2>` +
    (run.failedOutside.length > 0
      ? `<h3>${plural(run.failedOutside.length, 'failed test')}</h3><table class="failed-tests">${head}${failureRows(run.failedOutside)}</table>`
      : '') +
    (run.fileErrors.length > 0 ? `<h3>Files or hooks that failed to run</h3><table class="file-errors">${head}${failureRows(run.fileErrors)}</table>` : '') +
    '</section>'
  )
}

/**
 * Renders the whole report as one HTML document: per eval set a metric table, a bar chart per metric
 * across the cases (one bar per case, a dashed threshold line, a dotted baseline line when there is
 * one) and a table of questions; then tables of single-case assertions per file.
 *
 * @example
 * writeFileSync('rag-report.html', renderHtml(report))
 */
export function renderHtml(report: RagReport): string {
  const s = report.summary
  const shard = report.shard ? ` · shard ${report.shard.index}/${report.shard.count} (partial)` : ''
  const merged = report.mergedFrom !== undefined ? ` · merged from ${report.mergedFrom} reports` : ''
  const verdictPass = (report.verdict?.status ?? (s.failed === 0 ? 'pass' : 'fail')) === 'pass'
  const body =
    (s.assertions === 0
      ? '<p class="muted">No rag-matchers assertion ran.</p>'
      : report.evalSets.map((set) => evalSetSection(report, set)).join('') +
        report.singles
          .map(
            (f) =>
              `<section class="singles" data-file="${escapeHtml(f.file)}"><h2>Assertions in <code>${escapeHtml(f.file)}</code> ${resultBadge(f.pass)}</h2>` +
              `<table class="assertions"><tr><th>test</th><th>case</th><th>matcher</th><th>metric</th><th>value</th><th>threshold</th><th>result</th><th>why</th><th>signature</th></tr>${f.assertions.map(singleRow).join('')}</table>${trialsList(trialLines(f.assertions))}</section>`,
          )
          .join('')) + runFailures(report)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(REPORT_CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="rag-matchers ${escapeHtml(report.generator.version)}">
<title>rag-matchers report</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>rag-matchers report</h1>
<p class="verdict ${verdictPass ? 'pass' : 'fail'}">${escapeHtml(verdictText(report))}</p>
<p class="summary">${plural(s.assertions, 'assertion')} in ${plural(s.files, 'file')} · <span class="pass">${s.passed} passed</span> · <span class="${s.failed > 0 ? 'fail' : 'muted'}">${s.failed} failed</span>${(s.errored ?? 0) > 0 ? ` <span class="fail">(${s.errored} errored)</span>` : ''} · ${plural(s.evalSets, 'eval set')}${s.judgeUsage !== undefined ? ` · judge tokens: ${s.judgeUsage.promptTokens} prompt + ${s.judgeUsage.completionTokens} completion in ${plural(s.judgeUsage.calls, 'model request')}` : ''} · ${escapeHtml(report.runner)}${escapeHtml(shard)}${escapeHtml(merged)} · ${escapeHtml(report.createdAt)}</p></header>
<main>${body}</main>
</body>
</html>
`
}
