/**
 * The history app: hash routes (each page has a URL that can be shared and reloaded, and the server
 * serves one page), the navigation, and the live update: while the page is open it asks the server for
 * the newest run id every POLL_MS, and when a run lands it re-draws a page that lists runs and says so.
 *
 *   #/                     runs (#/runs/N: page N+1)
 *   #/set/NAME?branch=B    an eval set over time
 *   #/run/ID               one run
 *   #/compare/BASE/NEW     two runs (#/compare: the newest run and its default base)
 *   #/case/SET/ID          one case over time
 *   #/rate/RUN/SET?rater=R[&vs=OTHER]   rate a run's answers (server started with --rate); vs: pairwise
 */
import type { UiIndex } from '../../src/ui/api-types.js'
import { clearCache, latest, load, mode, NotFoundError } from './data.js'
import { clear, h, link, route } from './dom.js'
import { renderCase } from './pages/case.js'
import { renderCompare } from './pages/compare.js'
import { renderRun } from './pages/run.js'
import { renderRuns } from './pages/runs.js'
import { renderSet } from './pages/set.js'
import { renderRate } from './pages/rate.js'
import { clearTick, tick } from './tick.js'
import { pageResource, parseRoute, type Route } from './route.js'

const POLL_MS = 2000

const main = document.getElementById('main') as HTMLElement
const nav = document.getElementById('nav') as HTMLElement
const live = document.getElementById('live') as HTMLElement
const footer = document.getElementById('footer') as HTMLElement
let drawing = 0
let known: string | null | undefined

function drawNav(index: UiIndex | undefined): void {
  clear(nav)
  const list = h('ul', {}, h('li', {}, link('#/', 'Runs')), h('li', {}, link('#/compare', 'Compare')), h('li', {}, link('#/rate', 'Rate')))
  if (index && index.sets.length > 0) {
    list.appendChild(h('li', { className: 'sets-label' }, 'Eval sets:'))
    for (const s of index.sets) list.appendChild(h('li', {}, link(route('set', s.name), s.name)))
  }
  nav.appendChild(list)
}

function message(title: string, text: string, ...more: Node[]): void {
  main.appendChild(h('h1', { tabindex: -1 }, title))
  main.appendChild(h('p', {}, text))
  for (const n of more) main.appendChild(n)
}

async function renderPage(r: Route, index: UiIndex): Promise<string> {
  switch (r.page) {
    case 'runs':
      return renderRuns(main, index, Math.max(0, Number.parseInt(r.parts[0] ?? '0', 10) || 0))
    case 'set':
      if (r.parts[0] === undefined) break
      return renderSet(main, index, r.parts[0], r.query.get('branch') ?? undefined)
    case 'run':
      if (r.parts[0] === undefined) break
      return renderRun(main, r.parts[0])
    case 'compare':
      return renderCompare(main, index, r.parts.length >= 2 ? r.parts[0] : undefined, r.parts.length >= 2 ? r.parts[1] : r.parts[0])
    case 'case':
      if (r.parts[0] === undefined || r.parts[1] === undefined) break
      return renderCase(main, r.parts[0], r.parts[1])
    case 'rate':
      return renderRate(main, index, r.parts[0], r.parts[1], r.query)
  }
  throw new NotFoundError(`there is no page at ${location.hash}`)
}

/**
 * Starts loading the page's own resource while the index loads (both are needed before anything is drawn):
 * one round trip instead of two in a row. A failure is left to the page's own load of it (load() caches
 * the promise, and forgets it when it fails).
 */
function prefetch(r: Route): void {
  const name = pageResource(r)
  if (name !== undefined) load(name).catch(() => undefined)
}

/** Draws the page of the current hash; `moveFocus` after navigation (not after a live update). */
async function render(moveFocus: boolean): Promise<void> {
  const mine = ++drawing
  const r = parseRoute(location.hash)
  prefetch(r)
  let index: UiIndex
  try {
    index = await load<UiIndex>('index')
  } catch (error) {
    clear(main)
    message('The history cannot be read', error instanceof Error ? error.message : String(error))
    return
  }
  if (mine !== drawing) return
  known ??= index.latest
  drawNav(index)
  footer.textContent = `History: ${index.store} · ${index.runs} runs${mode === 'static' ? ' · static export' : ' · updates live'}`
  const scrollY = window.scrollY
  clearTick()
  const target = main
  clear(target)
  target.setAttribute('aria-busy', 'true')
  let title = 'rag-matchers history'
  try {
    if (index.state === 'empty') message('No runs yet', index.message ?? 'No run has been recorded yet.')
    else if (index.state === 'error') message('The history cannot be read', index.message ?? '')
    else title = await renderPage(r, index)
  } catch (error) {
    if (mine !== drawing) return
    clear(target)
    if (error instanceof NotFoundError) {
      message('Not found', error.message, h('p', {}, link('#/', 'Back to the runs')))
      title = 'Not found'
    } else {
      message('Something went wrong', error instanceof Error ? error.message : String(error))
      title = 'Error'
    }
  }
  if (mine !== drawing) return
  target.removeAttribute('aria-busy')
  document.title = `${title} · rag-matchers history`
  if (moveFocus) (main.querySelector('h1') as HTMLElement | null)?.focus()
  else window.scrollTo(0, scrollY)
}

/** Pages that list runs redraw when one lands; a page of one run or one comparison says so and offers a link. */
const LIVE_PAGES = new Set(['runs', 'set', 'case'])

async function poll(): Promise<void> {
  try {
    const now = await latest()
    if (known !== undefined && now.latest !== known && now.latest !== null) {
      known = now.latest
      clearCache()
      const page = parseRoute(location.hash).page
      clear(live)
      live.append(`New run ${now.latest} recorded. `, link(route('run', now.latest), 'Open it'))
      if (LIVE_PAGES.has(page) || main.querySelector('h1')?.textContent === 'No runs yet') await render(false)
      else await load<UiIndex>('index').then(drawNav)
    } else if (known === undefined) known = now.latest
    await tick()
  } catch {
    // the server stopped: keep the page as it is, try again later
  }
}

window.addEventListener('hashchange', () => void render(true))
void render(false)
if (mode === 'server') setInterval(() => void poll(), POLL_MS)
