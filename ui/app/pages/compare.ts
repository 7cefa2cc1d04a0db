/**
 * Two runs compared as `rag-matchers compare` compares them (paired test per metric, status words), the
 * cases that regressed and improved, their retrieved lists side by side and a word diff of the answers.
 */
import type { UiCaseChange, UiCompare, UiCompareSet, UiIndex, UiRunList } from '../../../src/ui/api-types.js'
import { NotFoundError, load, mode } from '../data.js'
import { h, link, longText, route, scrollBox } from '../dom.js'
import { num, pValue, shortCommit, signed, statusClass, when } from '../format.js'
import { retrievedList } from '../case-table.js'
import { wordDiff } from '../word-diff.js'

type ListedRun = UiRunList['runs'][number]

function runLabel(r: ListedRun): string {
  return `${r.id} · ${when(r.endedAt)}${r.branch ? ` · ${r.branch}` : ''}${r.commit ? ` · ${shortCommit(r.commit)}` : ''}`
}

function picker(id: string, label: string, runs: readonly ListedRun[], selected: string): [HTMLLabelElement, HTMLSelectElement] {
  const select = h('select', { id }, ...runs.map((r) => h('option', { value: r.id, selected: r.id === selected }, runLabel(r))))
  return [h('label', { for: id }, label), select]
}

function answerDiff(before: string, after: string): HTMLElement {
  const p = h('p', { className: 'diff' })
  for (const part of wordDiff(before, after)) {
    if (part.op === 'same') p.appendChild(document.createTextNode(part.text))
    else p.appendChild(h(part.op, { 'aria-label': part.op === 'del' ? 'removed' : 'added' }, part.text))
  }
  return p
}

function caseChange(c: UiCaseChange, base: string, next: string): HTMLElement {
  const answerBefore = c.baseCase?.answer ?? ''
  const answerAfter = c.nextCase?.answer ?? ''
  return h(
    'li',
    { className: 'case-change', 'data-case': c.id },
    h(
      'div',
      { className: 'case-head' },
      link(route('case', c.set, c.id), longText(c.id, 80)),
      ` ${c.metric}: ${num(c.base, c.decimals)} → ${num(c.next, c.decimals)} (${signed(c.delta, c.decimals)})`,
    ),
    (c.nextCase?.question ?? c.baseCase?.question) ? h('p', { className: 'question' }, 'Question: ', longText(c.nextCase?.question ?? c.baseCase?.question ?? '')) : null,
    h(
      'div',
      { className: 'side-by-side' },
      h('div', {}, h('h4', {}, `retrieved in ${base}`), retrievedList(c.baseCase?.retrieved, c.baseCase?.relevant)),
      h('div', {}, h('h4', {}, `retrieved in ${next}`), retrievedList(c.nextCase?.retrieved, c.nextCase?.relevant)),
    ),
    answerBefore !== '' || answerAfter !== '' ? h('div', {}, h('h4', {}, 'answer (word diff)'), answerDiff(answerBefore, answerAfter)) : null,
  )
}

function setSection(s: UiCompareSet, data: UiCompare, i: number): HTMLElement {
  const section = h('section', { className: 'compare-set', 'aria-labelledby': `cmp-${i}` })
  section.appendChild(
    h('h2', { id: `cmp-${i}` }, 'Eval set ', link(route('set', s.name), s.name), ' ', h('span', { className: s.failed ? 'fail' : 'pass' }, s.failed ? 'fails' : 'passes')),
  )
  const head = h(
    'thead',
    {},
    h('tr', {}, ...['metric', 'base', 'new', 'delta', '95 % interval', 'p-value', 'status', 'cases', 'regressed cases'].map((t) => h('th', { scope: 'col' }, t))),
  )
  const body = h('tbody')
  for (const m of s.metrics) {
    body.appendChild(
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, m.metric),
        h('td', { className: 'num' }, num(m.baseMean, m.decimals)),
        h('td', { className: 'num' }, num(m.nextMean, m.decimals)),
        h('td', { className: 'num' }, signed(m.delta, m.decimals)),
        h('td', { className: 'num' }, m.ci[0] === null ? 'n/a' : `[${signed(m.ci[0], m.decimals)}, ${signed(m.ci[1], m.decimals)}]`),
        h('td', { className: 'num' }, pValue(m.pValue)),
        h('td', {}, h('span', { className: `status ${statusClass(m.status)}` }, m.status)),
        h('td', { className: 'num' }, m.n),
        h('td', { className: 'num' }, m.regressedCases),
      ),
    )
  }
  for (const u of s.unpaired) {
    body.appendChild(
      h(
        'tr',
        {},
        h('th', { scope: 'row' }, u.metric),
        h('td', { className: 'num' }, num(u.base, u.decimals)),
        h('td', { className: 'num' }, num(u.next, u.decimals)),
        h('td', { colspan: 6 }, u.why),
      ),
    )
  }
  section.appendChild(scrollBox(`comparison of ${s.name}`, h('table', { className: 'compare' }, head, body)))
  section.appendChild(h('h3', {}, `Cases that regressed (${s.regressed.length}${s.cut ? '+' : ''})`))
  section.appendChild(
    s.regressed.length === 0
      ? h('p', { className: 'muted' }, 'No case dropped by more than the tolerance.')
      : h('ol', { className: 'case-changes regressed' }, ...s.regressed.map((c) => caseChange(c, data.base.id, data.next.id))),
  )
  const improved = h('details', {}, h('summary', {}, `Cases that improved (${s.improved.length}${s.cut ? '+' : ''})`))
  improved.appendChild(
    s.improved.length === 0
      ? h('p', { className: 'muted' }, 'No case rose by more than the tolerance.')
      : h('ol', { className: 'case-changes improved' }, ...s.improved.map((c) => caseChange(c, data.base.id, data.next.id))),
  )
  section.appendChild(improved)
  return section
}

export async function renderCompare(main: HTMLElement, index: UiIndex, baseRef: string | undefined, nextRef: string | undefined): Promise<string> {
  // every run for the pickers, and each run's default base, in one small resource (not the runs pages)
  const { runs } = await load<UiRunList>('runlist')
  const next = nextRef ?? index.latest ?? undefined
  if (next === undefined) throw new NotFoundError('no run to compare')
  let base = baseRef
  if (base === undefined) {
    const listed = runs.find((r) => r.id === next || r.id.startsWith(next))
    if (listed === undefined) throw new NotFoundError(`no run ${next} in the history`)
    base = listed.compareWith
  }
  main.appendChild(h('h1', { tabindex: -1 }, 'Compare two runs'))
  const [bl, bs] = picker('base-run', 'Base run ', runs, base ?? '')
  const [nl, ns] = picker('next-run', 'New run ', runs, next)
  const go = h('button', { type: 'button' }, 'Compare')
  go.addEventListener('click', () => (location.hash = route('compare', bs.value, ns.value)))
  main.appendChild(h('p', { className: 'controls' }, bl, bs, ' ', nl, ns, ' ', go))
  if (base === undefined) {
    main.appendChild(h('p', {}, 'This is the first run: pick a base run to compare it with.'))
    return 'Compare'
  }
  let data: UiCompare
  try {
    data = await load<UiCompare>(`compare/${base}/${next}`)
  } catch (error) {
    if (error instanceof NotFoundError && mode === 'static') {
      main.appendChild(
        h('p', { role: 'alert' }, 'This export holds each run compared with its previous run only. To compare any two runs, run ', h('code', {}, 'npx rag-matchers ui'), '.'),
      )
      return 'Compare'
    }
    throw error
  }
  main.appendChild(
    h(
      'p',
      {},
      'Base ',
      link(route('run', data.base.id), data.base.id),
      ` (${when(data.base.endedAt)}), new `,
      link(route('run', data.next.id), data.next.id),
      ` (${when(data.next.endedAt)}): `,
      h('span', { className: data.failed ? 'fail' : 'pass' }, data.failed ? 'the comparison fails' : 'the comparison passes'),
      ` (one-sided paired ${data.test} test, α = ${data.alpha}, tolerance 2 % of scale, the cases both runs have).`,
    ),
  )
  if (data.notComparable.length > 0) main.appendChild(h('ul', { className: 'reasons' }, ...data.notComparable.map((t) => h('li', {}, longText(t)))))
  if (data.onlyInBase.length + data.onlyInNew.length > 0) {
    main.appendChild(
      h('p', { className: 'muted' }, `Eval sets in one run only: ${[...data.onlyInBase.map((s) => `${s} (base)`), ...data.onlyInNew.map((s) => `${s} (new)`)].join(', ')}`),
    )
  }
  data.sets.forEach((s, i) => main.appendChild(setSection(s, data, i)))
  return `Compare ${data.base.id} → ${data.next.id}`
}
