/** Runs, newest first: where each ran, its result, and per eval set how each metric moved since the previous run on its branch. */
import type { MetricChange, UiIndex, UiRunRow, UiRunsPage } from '../../../src/ui/api-types.js'
import { load } from '../data.js'
import { h, link, route, scrollBox } from '../dom.js'
import { duration, num, shortCommit, signed, statusClass, when } from '../format.js'

/** Sets with at most this many metrics show every metric; larger ones show the metrics that moved and a count of the rest. */
const ALL_METRICS_UP_TO = 6
/** Of a larger set, the metrics shown by name: the worst changes (regressed first). */
const SHOWN_OF_LARGE_SET = 3
const WORST_FIRST = ['regressed', 'dropped (not significant)', 'improved']

function changeChip(c: MetricChange): HTMLElement {
  const moved = c.delta === undefined ? 'first run on this branch' : `${signed(c.delta, c.decimals)} ${c.status ?? ''}`.trim()
  return h(
    'li',
    { className: `chip ${statusClass(c.status)}` },
    h('span', { className: 'metric' }, c.metric),
    ' ',
    num(c.value, c.decimals),
    ' ',
    h('span', { className: 'moved' }, `(${moved})`),
  )
}

function changesCell(row: UiRunRow, index: UiIndex): HTMLElement {
  const cell = h('td', { className: 'changes' })
  const bySet = new Map<string, MetricChange[]>()
  for (const c of row.changes) bySet.set(c.set, [...(bySet.get(c.set) ?? []), c])
  for (const [set, changes] of bySet) {
    const key = index.sets.find((s) => s.name === set)
    // a large set: the counts per status word, and the few metrics that moved most in the bad direction
    const counts = new Map<string, number>()
    for (const c of changes) counts.set(c.status ?? 'first run on this branch', (counts.get(c.status ?? 'first run on this branch') ?? 0) + 1)
    const rank = (c: MetricChange) => WORST_FIRST.indexOf(c.status ?? '')
    const shown =
      changes.length <= ALL_METRICS_UP_TO
        ? changes
        : changes
            .filter((c) => rank(c) >= 0)
            .sort((a, b) => rank(a) - rank(b))
            .slice(0, SHOWN_OF_LARGE_SET)
    const rest = changes.length - shown.length
    const summary = changes.length <= ALL_METRICS_UP_TO ? null : h('div', { className: 'counts' }, [...counts].map(([status, n]) => `${n} ${status}`).join(' · '))
    cell.appendChild(
      h(
        'div',
        { className: 'set-changes' },
        key ? link(route('set', set), set) : set,
        summary,
        h('ul', { className: 'chips' }, ...shown.map(changeChip), rest > 0 ? h('li', { className: 'chip neutral' }, `${rest} more`) : null),
      ),
    )
  }
  return cell
}

/** This run against the previous one on its branch; the first run on a branch against the newest main run before it (UiRunRow.compareWith). */
function compareLink(row: UiRunRow): HTMLElement | string {
  const base = row.compareWith
  if (base === undefined) return ''
  if (base === row.previous) return link(route('compare', base, row.run.id), 'compare', { 'aria-label': `compare ${row.run.id} with ${base}, the previous run on its branch` })
  // the accessible name starts with the visible text (WCAG 2.5.3, axe label-content-name-mismatch)
  const text = row.compareBranch ? `compare with ${row.compareBranch}` : 'compare'
  return link(route('compare', base, row.run.id), text, { 'aria-label': `${text}: ${row.run.id}, the first run on its branch, against ${base}` })
}

function runRow(row: UiRunRow, index: UiIndex): HTMLElement {
  const r = row.run
  const s = r.summary
  return h(
    'tr',
    { 'data-run': r.id },
    h('td', {}, link(route('run', r.id), r.id, { className: 'mono' })),
    h(
      'td',
      {},
      h('span', { className: 'mono' }, shortCommit(r.git?.commit)),
      r.git?.dirty ? ' (dirty)' : '',
      r.git?.subject ? h('div', { className: 'subject' }, r.git.subject.slice(0, 120)) : null,
    ),
    h('td', {}, r.git?.branch ?? r.ci?.ref ?? ''),
    h('td', {}, when(r.endedAt)),
    h('td', { className: 'num' }, duration(r.durationMs)),
    h('td', { className: 'num' }, `${s.passed} / ${s.failed}`, s.errored > 0 ? ` (${s.errored} errored)` : ''),
    h('td', {}, h('span', { className: r.verdict.status === 'pass' ? 'pass' : 'fail' }, r.verdict.status)),
    changesCell(row, index),
    h('td', {}, compareLink(row)),
  )
}

export async function renderRuns(main: HTMLElement, index: UiIndex, page: number): Promise<string> {
  const data = await load<UiRunsPage>(`runs/${page}`)
  main.appendChild(h('h1', { tabindex: -1 }, 'Runs'))
  main.appendChild(
    h(
      'p',
      { className: 'muted' },
      `${data.total} runs, newest first. Changes are since the previous run on the same branch, with compare's status words (tolerance ${index.tolerance * 100} % of each metric's scale, no significance test: open compare for p-values).`,
    ),
  )
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      ...['run', 'commit', 'branch', 'ended', 'duration', 'passed / failed', 'verdict', 'change since previous run on the branch', 'compare'].map((t) =>
        h('th', { scope: 'col' }, t),
      ),
    ),
  )
  const body = h('tbody', {}, ...data.runs.map((r) => runRow(r, index)))
  main.appendChild(scrollBox('runs', h('table', { className: 'runs' }, head, body)))
  if (data.pages > 1) {
    main.appendChild(
      h(
        'nav',
        { className: 'pager', 'aria-label': 'runs pages' },
        page > 0 ? link(route('runs', String(page - 1)), '← newer') : null,
        ` page ${page + 1} of ${data.pages} `,
        page + 1 < data.pages ? link(route('runs', String(page + 1)), 'older →') : null,
      ),
    )
  }
  return 'Runs'
}
