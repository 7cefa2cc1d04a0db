/** An eval set over time: one chart per metric across runs, filtered by branch. */
import type { UiIndex, UiMetricSeries, UiSeriesPoint, UiSetSeries } from '../../../src/ui/api-types.js'
import { keyOf } from '../../../src/ui/keys.js'
import { NotFoundError, load } from '../data.js'
import { h, route } from '../dom.js'
import { metricChart } from '../chart.js'

/** The chart points of one metric from the resource's columns. */
function pointsOf(data: UiSetSeries, m: UiMetricSeries): UiSeriesPoint[] {
  return m.run.map((r, i) => {
    const run = data.runs[r] as UiSetSeries['runs'][number]
    const threshold = m.threshold[i]
    const delta = m.delta[i]
    const status = m.status[i]
    const baseline = m.baseline[i]
    const low = m.bandLow[i]
    const high = m.bandHigh[i]
    return {
      ...run,
      value: m.value[i] ?? null,
      pass: m.pass[i] === 1,
      ...(threshold !== null && threshold !== undefined ? { threshold } : {}),
      ...(delta !== null && delta !== undefined ? { delta } : {}),
      ...(status !== null && status !== undefined ? { status } : {}),
      ...(baseline !== null && baseline !== undefined ? { baseline } : {}),
      ...(low !== null && low !== undefined && high !== null && high !== undefined ? { band: [low, high] as const } : {}),
    }
  })
}

export async function renderSet(main: HTMLElement, index: UiIndex, name: string, branch: string | undefined): Promise<string> {
  if (!index.sets.some((s) => s.name === name)) throw new NotFoundError(`no eval set named "${name}" in the history`)
  const data = await load<UiSetSeries>(`set/${keyOf(name)}`)
  main.appendChild(h('h1', { tabindex: -1 }, 'Eval set ', h('q', {}, name), ' over time'))
  const select = h('select', { id: 'branch' }, h('option', { value: '' }, 'all branches'), ...index.branches.map((b) => h('option', { value: b, selected: b === branch }, b)))
  select.addEventListener('change', () => {
    location.hash = select.value === '' ? route('set', name) : `${route('set', name)}?branch=${encodeURIComponent(select.value)}`
  })
  main.appendChild(h('p', { className: 'controls' }, h('label', { for: 'branch' }, 'Branch '), select))
  main.appendChild(
    h(
      'p',
      { className: 'muted' },
      "One point per run. Red dot: the metric failed its threshold; red ring: the metric passed but the run failed. Dashed: threshold, dotted: baseline; shaded band: where a run's baseline assertion computed one, its bootstrap interval of the change against the baseline, drawn around the baseline mean. Hover a point for its run, click it to open the run.",
    ),
  )
  const width = Math.max(320, Math.min(1100, main.clientWidth - 32))
  // the charts are drawn into a detached container and attached once: 20 charts, one layout
  const charts = h('div', { className: 'charts' })
  for (const metric of data.metrics) {
    const all = pointsOf(data, metric)
    const points = branch === undefined ? all : all.filter((p) => p.branch === branch)
    charts.appendChild(metricChart(metric, points, width, (id) => (location.hash = route('run', id))))
  }
  main.appendChild(charts)
  return `${name} over time`
}
