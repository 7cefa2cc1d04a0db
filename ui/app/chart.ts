/**
 * One metric across runs as a uPlot line chart: the value per run (x is the run's position, so runs a
 * week apart do not leave gaps), the threshold line, the baseline the row was compared with, and the
 * runs where the metric or the run failed as red points. Hovering shows run, commit and value;
 * clicking opens the run. A table of the same points (with links) follows for keyboard and screen
 * reader users, filled when opened so 20 charts × 1,000 runs do not build 20,000 rows up front.
 */
import uPlot from 'uplot'
import type { UiMetricSeries, UiSeriesPoint } from '../../src/ui/api-types.js'
import { h, link, route, scrollBox } from './dom.js'
import { num, shortCommit, signed, when } from './format.js'

const COLORS = { value: '#0550ae', threshold: '#a40e26', baseline: '#6e40c9', failed: '#cf222e', band: 'rgba(110, 64, 201, 0.18)' }

function pointText(metric: UiMetricSeries, p: UiSeriesPoint): string {
  const parts = [`run ${p.runId}`]
  if (p.commit) parts.push(`commit ${shortCommit(p.commit)}`)
  if (p.branch) parts.push(`on ${p.branch}`)
  parts.push(`${metric.metric} ${num(p.value, metric.decimals)}`)
  if (p.delta !== undefined) parts.push(`${signed(p.delta, metric.decimals)} ${p.status ?? ''}`.trim())
  if (p.band !== undefined) parts.push(`interval ${num(p.band[0], metric.decimals)} to ${num(p.band[1], metric.decimals)}`)
  if (!p.pass) parts.push('below threshold')
  if (!p.runPass) parts.push('run failed')
  return parts.join(' · ')
}

function valuesTable(metric: UiMetricSeries, points: readonly UiSeriesPoint[]): HTMLElement {
  const body = h('tbody')
  for (const p of [...points].reverse()) {
    body.appendChild(
      h(
        'tr',
        {},
        h('td', {}, link(route('run', p.runId), p.runId)),
        h('td', {}, when(p.endedAt)),
        h('td', {}, shortCommit(p.commit)),
        h('td', {}, p.branch ?? ''),
        h('td', { className: 'num' }, num(p.value, metric.decimals)),
        h('td', { className: 'num' }, p.delta === undefined ? '' : signed(p.delta, metric.decimals)),
        h('td', {}, p.status ?? ''),
        h('td', {}, p.pass ? 'pass' : 'fail'),
      ),
    )
  }
  const head = h('thead', {}, h('tr', {}, ...['run', 'ended', 'commit', 'branch', 'value', 'change', 'status', 'result'].map((t) => h('th', { scope: 'col' }, t))))
  return scrollBox(`${metric.metric} values`, h('table', { className: 'values' }, head, body))
}

/** A figure with the chart of one metric over `points` (already filtered by branch). */
export function metricChart(metric: UiMetricSeries, points: readonly UiSeriesPoint[], width: number, onOpen: (runId: string) => void): HTMLElement {
  const tip = h('div', { className: 'tip', role: 'status', 'aria-live': 'off' })
  const plot = h('div', { className: 'plot' })
  const details = h('details', { className: 'values' }, h('summary', {}, `values of ${points.length} runs`))
  details.addEventListener('toggle', () => {
    if (details.open && details.childElementCount === 1) details.appendChild(valuesTable(metric, points))
  })
  const figure = h(
    'figure',
    { className: 'chart', 'data-metric': metric.metric, 'data-points': points.length },
    h(
      'figcaption',
      {},
      metric.metric,
      h(
        'span',
        { className: 'muted' },
        ` (${metric.direction} is better)${points.every((p) => p.value === null) ? ': no value in any run shown (n/a: errored or undefined)' : ''}`,
      ),
    ),
    plot,
    tip,
    details,
  )
  const x = points.map((_, i) => i)
  const values = points.map((p) => p.value)
  const series: uPlot.Series[] = [{}, { label: metric.metric, stroke: COLORS.value, width: 2, points: { size: 6, fill: COLORS.value } }]
  const data: (number | null)[][] = [x, values]
  if (points.some((p) => p.threshold !== undefined)) {
    series.push({ label: 'threshold', stroke: COLORS.threshold, width: 1.5, dash: [6, 4], points: { show: false } })
    data.push(points.map((p) => p.threshold ?? null))
  }
  // the band first, under the lines: two edge series (not drawn) and a fill between them
  const bands: uPlot.Band[] = []
  if (points.some((p) => p.band !== undefined)) {
    const high = series.length
    series.push({ label: 'interval high', stroke: 'transparent', width: 0, points: { show: false } })
    data.push(points.map((p) => p.band?.[1] ?? null))
    series.push({ label: 'interval low', stroke: 'transparent', width: 0, points: { show: false } })
    data.push(points.map((p) => p.band?.[0] ?? null))
    bands.push({ series: [high, high + 1], fill: COLORS.band })
    figure.setAttribute('data-band', String(points.filter((p) => p.band !== undefined).length))
  }
  if (points.some((p) => p.baseline !== undefined)) {
    series.push({ label: 'baseline', stroke: COLORS.baseline, width: 1.5, dash: [2, 3], points: { show: false } })
    data.push(points.map((p) => p.baseline ?? null))
  }
  // red dot: the metric failed its threshold in that run; red ring: the metric passed but the run failed
  series.push({ label: 'metric failed', stroke: 'transparent', width: 0, points: { show: true, size: 10, fill: COLORS.failed, stroke: COLORS.failed } })
  data.push(points.map((p) => (!p.pass ? p.value : null)))
  series.push({ label: 'run failed', stroke: 'transparent', width: 0, points: { show: true, size: 12, width: 2, fill: '#fff', stroke: COLORS.failed } })
  data.push(points.map((p) => (p.pass && !p.runPass ? p.value : null)))
  const dateOf = (i: number) => {
    const p = points[i]
    if (!Number.isInteger(i) || p === undefined) return ''
    return when(p.endedAt).slice(5, 16)
  }
  const opts: uPlot.Options = {
    width,
    height: 220,
    legend: { show: false },
    padding: [12, 48, 0, 8],
    scales: { x: { time: false } },
    // whole-number steps only: a split between two runs has no date to show
    axes: [{ values: (_u, splits) => splits.map(dateOf), incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000] }, {}],
    cursor: { points: { size: 10 } },
    series,
    bands,
    hooks: {
      setCursor: [
        (u) => {
          const i = u.cursor.idx
          const p = i === null || i === undefined ? undefined : points[i]
          tip.textContent = p ? pointText(metric, p) : ''
        },
      ],
    },
  }
  const chart = new uPlot(opts, data as uPlot.AlignedData, plot)
  chart.over.addEventListener('click', () => {
    const i = chart.cursor.idx
    const p = i === null || i === undefined ? undefined : points[i]
    if (p) onOpen(p.runId)
  })
  chart.over.setAttribute('title', 'click a point to open its run')
  return figure
}
