/**
 * The rate view (`rag-matchers ui --rate`): a named rater scores each case of a run's eval set on the
 * rubric the server was given, or (pairwise, `?vs=OTHER`) picks the better of two runs' answers to the
 * same question, shown blind in an order drawn per case and recorded. Inter-rater and judge-vs-human
 * agreement (computed by the server with the agreement core) are re-read on every poll of the live update.
 *
 * Keyboard: Tab and Enter/Space press any button; inside a dimension's buttons the keys 1–5 (pass/fail:
 * p, f) rate it and move to the next one; pairwise 1 = first answer, 2 = second, 3 or t = tie.
 */
import type { UiDimensionAgreement, UiIndex, UiRate, UiRateCase, UiRating, UiRatings, UiRunList, UiStatistic } from '../../../src/ui/api-types.js'
import type { RubricDimension } from '../../../src/ui/rubric.js'
import { keyOf } from '../../../src/ui/keys.js'
import { retrievedList } from '../case-table.js'
import { load } from '../data.js'
import { append, clear, downloadLink, h, longText, route } from '../dom.js'
import { shortCommit, when } from '../format.js'
import { onTick, tick } from '../tick.js'

const RATE_PATH = 'api/rate'

/** `#/rate/RUN/SET?rater=R&vs=OTHER` */
function rateRoute(run: string, set: string, rater: string, vs: string | undefined): string {
  const q = new URLSearchParams()
  if (rater !== '') q.set('rater', rater)
  if (vs !== undefined && vs !== '') q.set('vs', vs)
  const text = q.toString()
  return `${route('rate', run, set)}${text === '' ? '' : `?${text}`}`
}

const labelled = (id: string, label: string, control: HTMLElement) => h('span', { className: 'field' }, h('label', { for: id }, label), ' ', control)

function option(value: string, text: string, selected: boolean): HTMLOptionElement {
  const o = h('option', {}, text)
  o.value = value
  o.selected = selected
  return o
}

/** The pickers: run, eval set, mode (and the other run), rater; "Start" opens the view's URL. */
function pickers(index: UiIndex, runs: UiRunList, run: string | undefined, set: string | undefined, rater: string, vs: string | undefined): HTMLElement {
  const runText = (r: UiRunList['runs'][number]) => `${r.id} · ${when(r.endedAt)}${r.branch ? ` · ${r.branch}` : ''}${r.commit ? ` · ${shortCommit(r.commit)}` : ''}`
  const runSel = h('select', { id: 'rate-run' }, ...runs.runs.map((r) => option(r.id, runText(r), r.id === (run ?? runs.runs[0]?.id))))
  const setSel = h('select', { id: 'rate-set' }, ...index.sets.map((s) => option(s.name, s.name, s.name === (set ?? index.sets[0]?.name))))
  const modeSel = h('select', { id: 'rate-mode' }, option('rubric', 'rate on the rubric', vs === undefined), option('pairwise', 'pairwise: two runs, blind', vs !== undefined))
  const otherSel = h('select', { id: 'rate-vs' }, ...runs.runs.map((r) => option(r.id, runText(r), r.id === vs)))
  const otherField = labelled('rate-vs', 'against run', otherSel)
  const raterInput = h('input', { id: 'rate-rater', type: 'text', autocomplete: 'off', maxlength: 80 })
  raterInput.value = rater
  const showOther = () => (otherField.hidden = modeSel.value !== 'pairwise')
  showOther()
  modeSel.addEventListener('change', showOther)
  const start = h('button', { type: 'button', id: 'rate-start' }, 'Start rating')
  const go = () => {
    const pairwise = modeSel.value === 'pairwise'
    location.hash = rateRoute(runSel.value, setSel.value, raterInput.value.trim(), pairwise ? otherSel.value : undefined)
  }
  start.addEventListener('click', go)
  raterInput.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') go()
  })
  return h(
    'div',
    { className: 'controls rate-pickers' },
    labelled('rate-run', 'Run', runSel),
    labelled('rate-set', 'Eval set', setSel),
    labelled('rate-mode', 'Mode', modeSel),
    otherField,
    labelled('rate-rater', 'Your rater id', raterInput),
    start,
  )
}

const KEYS_HELP =
  'Keyboard: Tab moves between buttons, Enter or Space presses one. On a dimension’s buttons the number keys 1–5 rate it (p = pass, f = fail) and move on to the next; in pairwise mode 1 picks the first answer, 2 the second, 3 or t a tie.'

function statText(s: UiStatistic | undefined): string {
  if (s === undefined) return 'n/a'
  return s.value === null ? `undefined (${s.reason ?? 'no reason given'})` : s.value.toFixed(4)
}

/** The agreement table: one row per dimension, never NaN (a statistic that is undefined says why). */
function agreementTable(list: readonly UiDimensionAgreement[]): HTMLElement {
  const body = h('tbody')
  for (const d of list) {
    const inter = h('td', { className: 'inter' })
    if (d.message !== undefined) append(inter, h('span', { className: 'muted needs-raters' }, d.message))
    else if (d.fleiss !== undefined || d.krippendorff !== undefined) {
      append(
        inter,
        h('div', { 'data-statistic': 'fleiss', 'data-value': d.fleiss?.value ?? '' }, `Fleiss’ κ ${statText(d.fleiss)} (${d.fleiss?.items ?? 0} cases all rated)`),
        h(
          'div',
          { 'data-statistic': 'krippendorff', 'data-value': d.krippendorff?.value ?? '' },
          `Krippendorff’s α ${statText(d.krippendorff)} (${d.krippendorff?.level ?? ''})`,
        ),
      )
    }
    if (d.message === undefined && d.cohen !== undefined && (d.fleiss === undefined || d.cohen.length <= 3)) {
      for (const c of d.cohen) {
        append(
          inter,
          h(
            'div',
            { 'data-statistic': 'cohen', 'data-raters': c.raters.join('\u0000'), 'data-value': c.value ?? '' },
            `Cohen’s κ ${statText(c)} (${c.raters.join(' – ')}, ${c.items} cases)`,
          ),
        )
      }
    }
    const judge = h('td', { className: 'judge' })
    if (d.judge === undefined) append(judge, h('span', { className: 'muted' }, 'no judge named in the rubric'))
    else if (d.judge.message !== undefined) append(judge, h('span', { className: 'muted' }, `${d.judge.metric}: ${d.judge.message}`))
    else {
      append(
        judge,
        h(
          'div',
          { 'data-statistic': 'judge-kappa', 'data-value': d.judge.kappa?.value ?? '' },
          `${d.judge.metric}: κ ${statText(d.judge.kappa)} over ${d.judge.n ?? 0} cases`,
        ),
        d.judge.spearman !== undefined ? h('div', {}, `Spearman ρ ${statText(d.judge.spearman)}`) : null,
      )
    }
    body.appendChild(
      h(
        'tr',
        { 'data-dimension': d.dimension },
        h('th', { scope: 'row' }, d.dimension),
        h('td', {}, d.raters.join(', ') || '—'),
        h('td', { className: 'num' }, `${d.items}`),
        inter,
        judge,
      ),
    )
  }
  return h(
    'table',
    { className: 'agreement' },
    h('thead', {}, h('tr', {}, ...['dimension', 'raters', 'cases rated', 'inter-rater agreement', 'judge vs raters'].map((t) => h('th', { scope: 'col' }, t)))),
    body,
  )
}

interface Ctx {
  readonly data: UiRate
  readonly rater: string
  readonly other?: UiRate
  /** The rater's own ratings, by `case\0dimension`. */
  readonly mine: Map<string, UiRating>
}

const mineKey = (caseId: string, dimension: string) => `${caseId}\u0000${dimension}`

/** Sends one rating; resolves to an error message, or undefined when it was stored. */
async function send(body: Record<string, unknown>): Promise<string | undefined> {
  try {
    const res = await fetch(RATE_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Rag-Matchers': 'rate' },
      body: JSON.stringify(body),
      cache: 'no-store',
    })
    if (res.ok) return undefined
    const answer = (await res.json().catch(() => ({}))) as { error?: string }
    return answer.error ?? `the server answered ${res.status}`
  } catch (error) {
    return `the rating was not sent: ${error instanceof Error ? error.message : String(error)}`
  }
}

/** Moves focus to the first button of the next rating group after `group`. */
function focusNext(group: HTMLElement): void {
  const groups = [...document.querySelectorAll<HTMLElement>('.rate-group')]
  const next = groups[groups.indexOf(group) + 1]
  next?.querySelector<HTMLButtonElement>('button')?.focus()
}

/** A group of buttons, one per choice; `keys` maps a key to a button index. */
function ratingGroup(
  label: string,
  choices: ReadonlyArray<{ value: string | number; text: string }>,
  keys: Readonly<Record<string, number>>,
  pressed: string | number | undefined,
  onRate: (value: string | number) => Promise<string | undefined>,
  dataset: Record<string, string>,
): HTMLElement {
  const status = h('span', { className: 'rate-status', role: 'status' })
  const buttons = choices.map((c) => h('button', { type: 'button', 'aria-pressed': c.value === pressed ? 'true' : 'false', 'data-value': String(c.value) }, c.text))
  const group = h('div', { className: 'rate-group', role: 'group', 'aria-label': label, ...dataset }, ...buttons, status)
  const rate = async (i: number, byKey: boolean) => {
    const choice = choices[i]
    if (!choice) return
    status.textContent = 'saving…'
    status.className = 'rate-status'
    const error = await onRate(choice.value)
    if (error !== undefined) {
      status.textContent = error
      status.className = 'rate-status error'
      status.setAttribute('role', 'alert')
      return
    }
    status.setAttribute('role', 'status')
    buttons.forEach((b, j) => b.setAttribute('aria-pressed', j === i ? 'true' : 'false'))
    status.textContent = `saved: ${choice.text}`
    if (byKey) focusNext(group)
    // the agreement panel now, not at the next poll
    void tick()
  }
  buttons.forEach((b, i) => b.addEventListener('click', () => void rate(i, false)))
  group.addEventListener('keydown', (e) => {
    const i = keys[e.key.toLowerCase()]
    if (i === undefined || e.ctrlKey || e.metaKey || e.altKey) return
    e.preventDefault()
    void rate(i, true)
  })
  return group
}

const SCALE_1_5 = [1, 2, 3, 4, 5]
const KEYS_1_5: Record<string, number> = { '1': 0, '2': 1, '3': 2, '4': 3, '5': 4 }

function dimensionChoices(d: RubricDimension): Array<{ value: string | number; text: string }> {
  if (d.scale === 'pass-fail') return ['pass', 'fail'].map((v) => ({ value: v, text: d.labels?.[v] !== undefined ? `${v} · ${d.labels[v]}` : v }))
  return SCALE_1_5.map((n) => ({ value: n, text: d.labels?.[String(n)] !== undefined ? `${n} · ${d.labels[String(n)]}` : String(n) }))
}

/** Question, retrieved ids and (on request) the reference of a case. */
function caseTexts(c: UiRateCase, idBase: string): HTMLElement[] {
  const out: HTMLElement[] = [h('p', { className: 'question' }, h('strong', {}, 'Question: '), longText(c.question ?? '(no question recorded)', 600))]
  if (c.reference !== undefined) {
    const ref = h('p', { className: 'reference', id: `${idBase}-ref`, hidden: true }, h('strong', {}, 'Reference: '), longText(c.reference, 600))
    const show = h('button', { type: 'button', className: 'show-ref', 'aria-expanded': 'false', 'aria-controls': `${idBase}-ref` }, 'Show the reference')
    show.addEventListener('click', () => {
      ref.hidden = !ref.hidden
      show.setAttribute('aria-expanded', String(!ref.hidden))
      show.textContent = ref.hidden ? 'Show the reference' : 'Hide the reference'
    })
    out.push(h('p', {}, show), ref)
  }
  return out
}

function directCase(ctx: Ctx, c: UiRateCase, i: number): HTMLElement {
  const idBase = `case-${i}`
  const section = h('section', { className: 'rate-case', 'data-case': c.id, 'aria-labelledby': `${idBase}-h` })
  section.appendChild(h('h2', { id: `${idBase}-h` }, `Case ${i + 1} of ${ctx.data.cases.length}: `, h('span', { className: 'mono' }, longText(c.id, 120))))
  append(section, ...caseTexts(c, idBase))
  section.appendChild(h('div', { className: 'contexts' }, h('strong', {}, 'Retrieved contexts (✓ relevant): '), retrievedList(c.retrieved, c.relevant)))
  section.appendChild(h('p', { className: 'answer' }, h('strong', {}, 'Answer: '), longText(c.answer ?? '(no answer recorded)', 2000)))
  for (const d of ctx.data.rubric.dimensions) {
    const keys = d.scale === 'pass-fail' ? { p: 0, f: 1 } : KEYS_1_5
    const mine = ctx.mine.get(mineKey(c.id, d.name))
    section.appendChild(h('p', { className: 'dimension-text' }, h('strong', {}, `${d.name}: `), d.text))
    section.appendChild(
      ratingGroup(
        `${d.name} of case ${i + 1}`,
        dimensionChoices(d),
        keys,
        mine?.score ?? mine?.choice,
        (value) =>
          ctx.rater === ''
            ? Promise.resolve('Enter your rater id above (and press Start rating) before you rate.')
            : send({ kind: 'score', run: ctx.data.run.id, set: ctx.data.set, case: c.id, rater: ctx.rater, dimension: d.name, score: value }),
        { 'data-dimension': d.name },
      ),
    )
  }
  return section
}

function pairwiseCase(ctx: Ctx, other: UiRate, c: UiRateCase, o: UiRateCase, i: number): HTMLElement {
  const idBase = `case-${i}`
  const a = ctx.data.run.id
  const b = other.run.id
  const mine = ctx.mine.get(mineKey(c.id, 'preference'))
  // blind: the order is drawn per case (kept as recorded once this rater has rated it)
  const shownFirst = mine?.shownFirst ?? (Math.random() < 0.5 ? a : b)
  const [first, second] = shownFirst === a ? [c, o] : [o, c]
  const section = h('section', { className: 'rate-case', 'data-case': c.id, 'data-shown-first': shownFirst === a ? 'a' : 'b', 'aria-labelledby': `${idBase}-h` })
  section.appendChild(h('h2', { id: `${idBase}-h` }, `Case ${i + 1}: `, h('span', { className: 'mono' }, longText(c.id, 120))))
  append(section, ...caseTexts(c, idBase))
  const side = (label: string, x: UiRateCase) =>
    h(
      'div',
      { className: 'side' },
      h('h3', {}, label),
      h('div', { className: 'contexts' }, h('strong', {}, 'Retrieved (✓ relevant): '), retrievedList(x.retrieved, x.relevant)),
      h('p', { className: 'answer' }, longText(x.answer ?? '(no answer recorded)', 2000)),
    )
  section.appendChild(h('div', { className: 'side-by-side' }, side('Answer 1', first), side('Answer 2', second)))
  section.appendChild(h('p', { className: 'dimension-text' }, ctx.data.rubric.pairwise.text))
  const winnerOf = (pick: string): string => (pick === 'tie' ? 'tie' : (pick === 'first') === (shownFirst === a) ? 'a' : 'b')
  const pressed = mine?.choice === undefined ? undefined : mine.choice === 'tie' ? 'tie' : (mine.choice === 'a') === (shownFirst === a) ? 'first' : 'second'
  section.appendChild(
    ratingGroup(
      `preference for case ${i + 1}`,
      [
        { value: 'first', text: '1 · Answer 1 is better' },
        { value: 'second', text: '2 · Answer 2 is better' },
        { value: 'tie', text: '3 · Tie' },
      ],
      { '1': 0, '2': 1, '3': 2, t: 2 },
      pressed,
      (value) =>
        ctx.rater === ''
          ? Promise.resolve('Enter your rater id above (and press Start rating) before you rate.')
          : send({ kind: 'pairwise', run: a, set: ctx.data.set, case: c.id, rater: ctx.rater, other: b, winner: winnerOf(String(value)), shownFirst }),
      { 'data-dimension': 'preference' },
    ),
  )
  return section
}

export async function renderRate(main: HTMLElement, index: UiIndex, run: string | undefined, set: string | undefined, query: URLSearchParams): Promise<string> {
  main.appendChild(h('h1', { tabindex: -1 }, 'Rate answers'))
  if (index.mode === 'static') {
    main.appendChild(
      h(
        'p',
        { className: 'notice' },
        'This is a static export: it has no rating. Rating needs the server: run `npx rag-matchers ui --rate --rubric rubric.json` over the history store and open its Rate page.',
      ),
    )
    return 'Rate answers'
  }
  if (!index.rating) {
    main.appendChild(
      h('p', { className: 'notice' }, 'Rating is off on this server. Start it with `npx rag-matchers ui --rate --rubric rubric.json` (docs/ui.md describes the rubric).'),
    )
    return 'Rate answers'
  }
  const rater = (query.get('rater') ?? '').trim()
  const vs = query.get('vs') ?? undefined
  const runs = await load<UiRunList>('runlist')
  main.appendChild(pickers(index, runs, run, set, rater, vs))
  main.appendChild(h('p', { className: 'muted keys-help' }, KEYS_HELP))
  if (run === undefined || set === undefined) {
    main.appendChild(
      h(
        'p',
        {},
        'Pick a run, an eval set and a mode, enter your rater id, and press Start rating. Share the page’s address with the other raters (each enters their own id).',
      ),
    )
    return 'Rate answers'
  }
  if (!/^[0-9a-f]{1,64}$/.test(run) || (vs !== undefined && !/^[0-9a-f]{1,64}$/.test(vs))) {
    main.appendChild(h('p', { className: 'error', role: 'alert' }, 'A run id is a hexadecimal string: pick the run from the list.'))
    return 'Rate answers'
  }
  const setKey = keyOf(set)
  const data = await load<UiRate>(`rate/${run}/${setKey}`)
  const other = vs !== undefined ? await load<UiRate>(`rate/${vs}/${setKey}`) : undefined
  if (other !== undefined && other.run.id === data.run.id) {
    main.appendChild(h('p', { className: 'error', role: 'alert' }, 'Pairwise mode compares two different runs: pick another run to compare with.'))
    return 'Rate answers'
  }
  const ratingsName = `ratings/${data.run.id}/${setKey}${other !== undefined ? `/${other.run.id}` : ''}`
  const first = await load<UiRatings>(ratingsName)
  const mine = new Map(first.ratings.filter((r) => r.rater === rater).map((r) => [mineKey(r.caseId, r.dimension), r]))
  const ctx: Ctx = { data, rater, ...(other !== undefined ? { other } : {}), mine }

  if (data.rubric.title !== undefined) main.appendChild(h('p', { className: 'rubric-title' }, h('strong', {}, data.rubric.title)))
  main.appendChild(
    h(
      'p',
      {},
      other !== undefined ? 'Pairwise, blind: ' : 'Rating ',
      `eval set “${data.set}” of run `,
      h('span', { className: 'mono' }, data.run.id),
      other !== undefined ? ' against run ' : '',
      other !== undefined ? h('span', { className: 'mono' }, other.run.id) : '',
      rater !== '' ? ` as rater “${rater}”.` : '.',
    ),
  )
  if (rater === '') main.appendChild(h('p', { className: 'error', role: 'alert' }, 'No rater id: enter yours above and press Start rating, so that your ratings are yours.'))
  if (data.rubric.instructions !== undefined) main.appendChild(h('p', { className: 'instructions' }, data.rubric.instructions))

  const panel = h('section', { className: 'agreement-panel', 'aria-labelledby': 'agreement-h' })
  const panelBody = h('div', { 'aria-live': 'polite' })
  panel.appendChild(h('h2', { id: 'agreement-h' }, 'Agreement so far (updates live)'))
  panel.appendChild(panelBody)
  panel.appendChild(h('p', {}, downloadLink(`${ratingsName}.jsonl`, 'Download these ratings (JSONL for rag-matchers align and loadRatings)', { id: 'export-ratings' })))
  const drawAgreement = (r: UiRatings) => {
    clear(panelBody)
    const raters = new Set(r.ratings.map((x) => x.rater))
    panelBody.appendChild(h('p', { className: 'rated-count' }, `${r.ratings.length} ratings by ${raters.size} ${raters.size === 1 ? 'rater' : 'raters'}.`))
    panelBody.appendChild(h('div', { className: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'agreement' }, agreementTable(r.agreement)))
  }
  drawAgreement(first)
  main.appendChild(panel)

  const list = h('div', { className: 'rate-cases' })
  if (other !== undefined) {
    const others = new Map(other.cases.map((c) => [c.id, c]))
    const both = data.cases.filter((c) => others.has(c.id))
    if (both.length === 0) list.appendChild(h('p', {}, 'The two runs have no case of this eval set in common.'))
    both.forEach((c, i) => list.appendChild(pairwiseCase(ctx, other, c, others.get(c.id) as UiRateCase, i)))
  } else {
    data.cases.forEach((c, i) => list.appendChild(directCase(ctx, c, i)))
  }
  main.appendChild(list)
  onTick(async () => {
    const res = await fetch(`api/${ratingsName}`, { headers: { Accept: 'application/json' }, cache: 'no-store' })
    if (res.ok) drawAgreement((await res.json()) as UiRatings)
  })
  return `Rate ${data.set}`
}
