/**
 * The cases of one eval set in one run: sortable, filterable, worst first, and shown a page of rows at a
 * time, so a set of 1,000+ cases builds 50 rows, not 1,000.
 */
import type { UiRunCase, UiRunSet } from '../../src/ui/api-types.js'
import { clear, h, link, longText, route, scrollBox } from './dom.js'
import { num } from './format.js'
import { decimalsOf } from './metric-text.js'

export const ROWS_PER_PAGE = 50

type SortKey = { kind: 'worst' } | { kind: 'id' } | { kind: 'metric'; column: number }

/** A list of retrieved ids with the relevant ones marked (✓ and bold, not colour alone). */
export function retrievedList(retrieved: readonly string[] | undefined, relevant: readonly string[] | undefined): HTMLElement {
  if (!retrieved || retrieved.length === 0) return h('span', { className: 'muted' }, '—')
  const rel = new Set(relevant ?? [])
  return h(
    'ol',
    { className: 'retrieved' },
    ...retrieved.map((id) =>
      rel.has(id) ? h('li', { className: 'relevant' }, h('span', { className: 'mark', 'aria-label': 'relevant' }, '✓ '), longText(id, 80)) : h('li', {}, longText(id, 80)),
    ),
  )
}

/** The case's value in a column; a case without one sorts last. */
function valueAt(c: UiRunCase, column: number): number {
  const v = c.values[column]
  return v === null || v === undefined ? Number.POSITIVE_INFINITY : v
}

export function caseTable(set: UiRunSet, idPrefix: string): HTMLElement {
  const metrics = set.columns.map((key) => set.metrics.find((m) => m.key === key) as UiRunSet['metrics'][number])
  let sort: SortKey = { kind: 'worst' }
  let ascending = true
  let filter = ''
  let failingOnly = false
  let page = 0

  const input = h('input', { type: 'search', id: `${idPrefix}-filter`, placeholder: 'id, question, answer…' })
  const failing = h('input', { type: 'checkbox', id: `${idPrefix}-failing` })
  const status = h('p', { className: 'muted', role: 'status' })
  const table = h('table', { className: 'cases' })
  const pager = h('div', { className: 'pager' })
  const root = h(
    'div',
    { className: 'case-table' },
    h('p', { className: 'controls' }, h('label', { for: input.id }, 'Filter cases '), input, ' ', failing, h('label', { for: failing.id }, ' failing only')),
    status,
    scrollBox(`cases of ${set.name}`, table),
    pager,
  )

  const rows = (): UiRunCase[] => {
    const needle = filter.toLowerCase()
    let list = set.cases.filter((c) => {
      if (failingOnly && c.failing.length === 0) return false
      if (needle === '') return true
      return [c.id, c.question, c.answer, c.reference, ...(c.retrieved ?? [])].some((t) => t !== undefined && t.toLowerCase().includes(needle))
    })
    const column = sort.kind === 'metric' ? sort.column : 0
    const compare =
      sort.kind === 'id'
        ? (a: UiRunCase, b: UiRunCase) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
        : sort.kind === 'metric'
          ? (a: UiRunCase, b: UiRunCase) => valueAt(a, column) - valueAt(b, column)
          : (a: UiRunCase, b: UiRunCase) => b.failing.length - a.failing.length || valueAt(a, 0) - valueAt(b, 0)
    list = [...list].sort(compare)
    return ascending ? list : list.reverse()
  }

  const sortButton = (label: string, key: SortKey) => {
    const active = JSON.stringify(key) === JSON.stringify(sort)
    const th = h('th', { scope: 'col', 'aria-sort': active ? (ascending ? 'ascending' : 'descending') : undefined })
    const button = h('button', { type: 'button', className: 'sort' }, label, active ? (ascending ? ' ▲' : ' ▼') : '')
    button.addEventListener('click', () => {
      if (JSON.stringify(key) === JSON.stringify(sort)) ascending = !ascending
      else {
        sort = key
        ascending = true
      }
      page = 0
      draw()
      ;(table.querySelector(`th[aria-sort] button`) as HTMLButtonElement | null)?.focus()
    })
    th.appendChild(button)
    return th
  }

  const draw = () => {
    const list = rows()
    const pages = Math.max(1, Math.ceil(list.length / ROWS_PER_PAGE))
    page = Math.min(page, pages - 1)
    const shown = list.slice(page * ROWS_PER_PAGE, (page + 1) * ROWS_PER_PAGE)
    clear(table)
    table.appendChild(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          sortButton('case', { kind: 'id' }),
          h('th', { scope: 'col' }, 'question'),
          h('th', { scope: 'col' }, 'retrieved (✓ relevant)'),
          h('th', { scope: 'col' }, 'answer'),
          h('th', { scope: 'col' }, 'reference'),
          ...metrics.map((m, i) => sortButton(m.metric, { kind: 'metric', column: i })),
          sortButton('failing (worst first)', { kind: 'worst' }),
        ),
      ),
    )
    const body = h('tbody')
    for (const c of shown) {
      body.appendChild(
        h(
          'tr',
          { className: c.failing.length > 0 ? 'case failing' : 'case', 'data-case': c.id },
          h('td', {}, link(route('case', set.name, c.id), longText(c.id, 60))),
          h('td', {}, longText(c.question ?? '')),
          h('td', {}, retrievedList(c.retrieved, c.relevant)),
          h('td', {}, longText(c.answer ?? ''), c.error ? h('div', { className: 'error' }, 'error: ', longText(c.error)) : null),
          h('td', {}, longText(c.reference ?? '')),
          ...metrics.map((m, i) => {
            const failed = c.passes[i] === false
            return h('td', { className: `num${failed ? ' fail' : ''}` }, num(c.values[i], decimalsOf(m)), failed ? ' ✗' : '')
          }),
          h('td', {}, c.failing.join(', ')),
        ),
      )
    }
    table.appendChild(body)
    status.textContent =
      list.length === 0
        ? 'No case matches.'
        : `Cases ${page * ROWS_PER_PAGE + 1}–${page * ROWS_PER_PAGE + shown.length} of ${list.length}${list.length < set.cases.length ? ` (filtered from ${set.cases.length})` : ''}.`
    clear(pager)
    if (pages > 1) {
      const prev = h('button', { type: 'button', disabled: page === 0 }, '← previous cases')
      const next = h('button', { type: 'button', disabled: page + 1 >= pages }, 'next cases →')
      prev.addEventListener('click', () => {
        page--
        draw()
        prev.focus()
      })
      next.addEventListener('click', () => {
        page++
        draw()
        ;(pager.querySelector('button:not([disabled])') as HTMLButtonElement | null)?.focus()
      })
      pager.append(prev, ` page ${page + 1} of ${pages} `, next)
    }
  }
  input.addEventListener('input', () => {
    filter = input.value
    page = 0
    draw()
  })
  failing.addEventListener('change', () => {
    failingOnly = failing.checked
    page = 0
    draw()
  })
  draw()
  return root
}
