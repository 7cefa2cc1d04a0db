/** One run: where it ran, its verdict, and per eval set the metric table and every case. */
import type { UiRun, UiRunMetric, UiRunSet, UiTrials } from '../../../src/ui/api-types.js'
import { load } from '../data.js'
import { h, link, longText, route, scrollBox } from '../dom.js'
import { duration, num, shortCommit, signed, when } from '../format.js'
import { caseTable } from '../case-table.js'
import { decimalsOf, thresholdOf } from '../metric-text.js'

/** A judge row run with trials: `5 × 8 · pass 0.88 · flip 0.00 · 0.75–1.00` (the run page keeps it to one cell). */
function trialsCell(t: UiTrials): HTMLElement {
  return h(
    'td',
    { className: 'trials', title: `${t.n} trials of ${t.cases} cases: pass rate, flip rate (cases whose verdict changed between trials), lowest and highest trial mean` },
    `${t.n} × ${t.cases} · pass ${t.passRate.toFixed(2)} · flip ${t.flipRate.toFixed(2)} · ${t.min.toFixed(2)}–${t.max.toFixed(2)}`,
  )
}

function metricTable(set: UiRunSet): HTMLElement {
  // the trials column only where some row of the set ran with trials
  const withTrials = set.metrics.some((m) => m.trials !== undefined)
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      ...['metric', 'value', 'threshold', 'result', 'cases', 'failing cases', 'vs baseline', ...(withTrials ? ['trials'] : []), 'why it failed'].map((t) =>
        h('th', { scope: 'col' }, t),
      ),
    ),
  )
  const row = (m: UiRunMetric) =>
    h(
      'tr',
      {},
      h('th', { scope: 'row' }, m.metric, m.isNot ? ' (.not)' : ''),
      h('td', { className: 'num' }, num(m.value, decimalsOf(m))),
      h('td', { className: 'num' }, thresholdOf(m)),
      h('td', {}, h('span', { className: m.pass ? 'pass' : 'fail' }, m.pass ? 'pass' : 'fail')),
      h('td', { className: 'num' }, m.n),
      h('td', { className: 'num' }, m.failingCount),
      h('td', { className: 'num' }, m.baseline ? `${signed(m.baseline.delta, decimalsOf(m))} (from ${num(m.baseline.mean, decimalsOf(m))})` : ''),
      withTrials ? (m.trials !== undefined ? trialsCell(m.trials) : h('td', {}, '')) : null,
      h('td', {}, ...(m.causes ?? []).map((c) => h('div', { className: 'error' }, longText(c)))),
    )
  return scrollBox(`metrics of ${set.name}`, h('table', { className: 'metrics' }, head, h('tbody', {}, ...set.metrics.map(row))))
}

export async function renderRun(main: HTMLElement, id: string): Promise<string> {
  const data = await load<UiRun>(`run/${id}`)
  const r = data.summary
  main.appendChild(
    h('h1', { tabindex: -1 }, 'Run ', h('span', { className: 'mono' }, r.id), ' ', h('span', { className: r.verdict.status === 'pass' ? 'pass' : 'fail' }, r.verdict.status)),
  )
  const facts: Array<[string, Node | string]> = [
    ['commit', `${shortCommit(r.git?.commit)}${r.git?.dirty ? ' (dirty)' : ''}`],
    ['branch', r.git?.branch ?? r.ci?.ref ?? ''],
    ['subject', r.git?.subject ?? ''],
    ['ended', when(r.endedAt)],
    ['duration', duration(r.durationMs)],
    ['runner', `${r.runner}${r.runnerVersion ? ` ${r.runnerVersion}` : ''}${r.shard ? ` (shard ${r.shard.index}/${r.shard.count})` : ''}`],
    ['assertions', `${r.summary.passed} passed, ${r.summary.failed} failed${r.summary.errored > 0 ? ` (${r.summary.errored} errored)` : ''} of ${r.summary.assertions}`],
  ]
  main.appendChild(h('dl', { className: 'facts' }, ...facts.filter(([, v]) => v !== '').flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])))
  if (r.verdict.reasons.length > 0) main.appendChild(h('ul', { className: 'reasons' }, ...r.verdict.reasons.map((t) => h('li', {}, longText(t)))))
  const nav = h('p', { className: 'controls' })
  if (data.compareWith)
    nav.appendChild(
      link(route('compare', data.compareWith, r.id), `Compare with ${data.compareWith}${data.previous === data.compareWith ? ' (previous run on this branch)' : ''}`),
    )
  else nav.appendChild(h('span', { className: 'muted' }, 'The first run: nothing to compare with.'))
  main.appendChild(nav)
  data.sets.forEach((set, i) => {
    const section = h('section', { className: 'eval-set', 'aria-labelledby': `set-${i}` })
    section.appendChild(
      h('h2', { id: `set-${i}` }, 'Eval set ', link(route('set', set.name), set.name), ' ', h('span', { className: set.pass ? 'pass' : 'fail' }, set.pass ? 'pass' : 'fail')),
    )
    section.appendChild(metricTable(set))
    if (set.cases.length > 0) {
      section.appendChild(h('h3', {}, `Cases (${set.cases.length})`))
      section.appendChild(caseTable(set, `set-${i}`))
    }
    main.appendChild(section)
  })
  if (data.singles.length > 0) {
    main.appendChild(h('h2', {}, 'Single-case assertions'))
    const body = h('tbody')
    for (const f of data.singles) {
      for (const a of f.assertions) {
        body.appendChild(
          h(
            'tr',
            {},
            h('td', {}, longText(f.file, 80)),
            h('td', {}, longText(a.fullName, 120)),
            h('td', {}, a.metric),
            h('td', { className: 'num' }, num(a.value)),
            h('td', {}, a.outcome ? 'pass' : 'fail'),
          ),
        )
      }
    }
    const head = h('thead', {}, h('tr', {}, ...['file', 'test', 'metric', 'value', 'result'].map((t) => h('th', { scope: 'col' }, t))))
    main.appendChild(scrollBox('single-case assertions', h('table', {}, head, body)))
  }
  return `Run ${r.id}`
}
