/** One case across runs: its metric values, and what it retrieved and answered each time. */
import type { UiCaseSeries } from '../../../src/ui/api-types.js'
import { keyOf } from '../../../src/ui/keys.js'
import { load } from '../data.js'
import { h, link, longText, route, scrollBox } from '../dom.js'
import { num, shortCommit, when } from '../format.js'
import { retrievedList } from '../case-table.js'

export async function renderCase(main: HTMLElement, set: string, caseId: string): Promise<string> {
  const data = await load<UiCaseSeries>(`case/${keyOf(set)}/${keyOf(caseId)}`)
  main.appendChild(h('h1', { tabindex: -1 }, 'Case ', h('q', {}, longText(data.caseId, 120)), ' over time'))
  const question = [...data.points].reverse().find((p) => p.question !== undefined)?.question
  main.appendChild(
    h('p', {}, 'Eval set ', link(route('set', data.set), data.set), question !== undefined ? ' · question: ' : '', question !== undefined ? longText(question) : null),
  )
  const head = h('thead', {}, h('tr', {}, ...['run', 'ended', 'commit', 'branch', ...data.metrics, 'failing', 'retrieved', 'answer'].map((t) => h('th', { scope: 'col' }, t))))
  const body = h('tbody')
  for (const p of [...data.points].reverse()) {
    body.appendChild(
      h(
        'tr',
        { 'data-run': p.runId },
        h('td', {}, link(route('run', p.runId), p.runId, { className: 'mono' })),
        h('td', {}, when(p.endedAt)),
        h('td', { className: 'mono' }, shortCommit(p.commit)),
        h('td', {}, p.branch ?? ''),
        ...data.metrics.map((m) => h('td', { className: 'num' }, num(p.values[m]))),
        h('td', {}, p.failing.join(', ')),
        h('td', {}, retrievedList(p.retrieved, p.relevant)),
        h('td', {}, longText(p.answer ?? '')),
      ),
    )
  }
  main.appendChild(h('p', { className: 'muted' }, `${data.points.length} runs, newest first.`))
  main.appendChild(scrollBox(`case ${data.caseId} across runs`, h('table', { className: 'case-runs' }, head, body)))
  return `Case ${data.caseId}`
}
