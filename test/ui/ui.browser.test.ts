// The history UI in a real headless Chromium (Debian's /usr/bin/chromium, as test/reporter/html.browser.test.ts),
// served over a history built from real runs of a small suite (test/ui/history-fixture.ts): every page
// loads with no console error, the chart has one point per run and a click opens the run, the compare
// page lists the case made to regress, a run appended while the page is open appears without a reload,
// Tab reaches every control, axe-core finds no serious or critical violation, and no text from a run
// can run a script. Screenshots go to artifacts/ui/ (gitignored).
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { launchChromium } from '../helpers/chromium.js'
import type { Browser, Page } from 'playwright-core'
import { compareReports } from '../../cli/compare.js'
import { UiResources } from '../../src/ui/resources.js'
import { startUiServer, type RunningUi } from '../../src/ui/server.js'
import { exportUi } from '../../src/ui/export.js'
import { route } from '../../ui/app/dom.js'
import { backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'
import { builtApp } from './app-build.js'
import { appendRun, HOSTILE_SET, JS_URL, makeHistory, REGRESSING, SCRIPT, type FixtureHistory, type FixtureRun } from './history-fixture.js'

const repo = join(import.meta.dirname, '..', '..')
const SHOTS = join(repo, 'artifacts', 'ui')
const AXE = join(repo, 'node_modules', 'axe-core', 'axe.min.js')

let browser: Browser
let ui: RunningUi
let resources: UiResources
let history: FixtureHistory

beforeAll(async () => {
  history = await makeHistory()
  resources = new UiResources({ target: history.target, root: history.dir, mode: 'server', compareReports })
  ui = await startUiServer({ resources, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
  browser = await launchChromium()
  mkdirSync(SHOTS, { recursive: true })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await ui?.close()
  await resources?.close()
})

interface Opened {
  page: Page
  errors: string[]
  requests: string[]
}

/** Opens `hash` and waits until the page has drawn its heading; collects console errors, page errors and requests. */
async function open(hash: string, base = ui.url): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const errors: string[] = []
  const requests: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`))
  page.on('request', (r) => requests.push(r.url()))
  await page.goto(`${base}${hash}`)
  await page.waitForFunction(() => document.querySelector('main h1') !== null && document.querySelector('main[aria-busy]') === null)
  return { page, errors, requests }
}

/** Every control a keyboard user must reach on the page. */
async function controls(page: Page): Promise<number> {
  return page.evaluate(() => {
    const all = [...document.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), select, input, summary, [tabindex="0"]')]
    all.forEach((el, i) => el.setAttribute('data-kb', String(i)))
    return all.filter((el) => el.checkVisibility()).length
  })
}

/** Tabs through the page and returns the data-kb marks of the controls reached. */
async function tabThrough(page: Page, presses: number): Promise<Set<string>> {
  const reached = new Set<string>()
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab')
    const mark = await page.evaluate(() => document.activeElement?.getAttribute('data-kb') ?? null)
    if (mark !== null) reached.add(mark)
  }
  return reached
}

async function axe(page: Page): Promise<Array<{ id: string; impact: string; nodes: number; help: string }>> {
  // evaluated through the DevTools protocol, which the page's policy (no inline script) does not govern
  await page.evaluate(readFileSync(AXE, 'utf8'))
  return page.evaluate(async () => {
    const result = await (
      window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[]; help: string }> }> } }
    ).axe.run(document, {
      resultTypes: ['violations'],
    })
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }))
  })
}

const serious = (v: Array<{ impact: string }>) => v.filter((x) => x.impact === 'serious' || x.impact === 'critical')

describe('rag-matchers ui in headless Chromium', () => {
  const pages = () => {
    const [r0, r1, r2] = history.runs as [FixtureRun, FixtureRun, FixtureRun]
    return [
      { name: 'runs', hash: '#/', heading: 'Runs' },
      { name: 'set', hash: route('set', 'qa'), heading: 'Eval set qa over time' },
      { name: 'run', hash: route('run', r2.id), heading: `Run ${r2.id} fail` },
      { name: 'compare', hash: route('compare', r1.id, r2.id), heading: 'Compare two runs' },
      { name: 'case', hash: route('case', 'qa', REGRESSING), heading: `Case ${REGRESSING} over time` },
      { name: 'hostile-set', hash: route('set', HOSTILE_SET), heading: `Eval set ${HOSTILE_SET} over time` },
      { name: 'not-found', hash: route('run', 'ffffffffffff'), heading: 'Not found' },
      { name: 'first-run', hash: route('run', r0.id), heading: `Run ${r0.id} pass` },
    ]
  }

  it('loads every page with no console error, no request off the machine and no script from the data, and takes screenshots', async () => {
    for (const p of pages()) {
      const { page, errors, requests } = await open(p.hash)
      try {
        expect({ page: p.name, heading: await page.locator('main h1').innerText() }).toEqual({ page: p.name, heading: p.heading })
        // a 404 from the API is the not-found page's own request; nothing else may fail
        expect({ page: p.name, errors: errors.filter((e) => !(p.name === 'not-found' && e.includes('404'))) }).toEqual({ page: p.name, errors: [] })
        expect(requests.every((u) => u.startsWith(ui.url) || u.startsWith('data:'))).toBe(true)
        expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
        expect(await page.locator('img').count()).toBe(0)
        // the app and boot.js (the early requests), nothing from the data
        expect(await page.locator('script').evaluateAll((els) => els.map((e) => e.getAttribute('src')))).toEqual(['boot.js', 'app.js'])
        expect(await page.locator('a[href^="javascript:"]').count()).toBe(0)
        // boot.js asked for the index and the page's data once: the app took its answers instead of asking again
        const api = requests.filter((u) => u.startsWith(`${ui.url}api/`) && !u.endsWith('/api/latest'))
        expect({ page: p.name, twice: api.filter((u, i) => api.indexOf(u) !== i) }).toEqual({ page: p.name, twice: [] })
        expect(api).toContain(`${ui.url}api/index`)
        await page.screenshot({ path: join(SHOTS, `${p.name}.png`), fullPage: true })
        // the first screen of the set's charts (the README's picture: docs/img/ui-set.png is a copy)
        if (p.name === 'set') await page.screenshot({ path: join(SHOTS, 'set-first-screen.png') })
      } finally {
        await page.close()
      }
    }
  }, 120_000)

  it('shows markup, javascript: URLs and long strings from the runs as text', async () => {
    const r2 = history.runs[2]!
    const { page } = await open(route('run', r2.id))
    try {
      const text = await page.locator('main').innerText()
      expect(text).toContain(REGRESSING)
      expect(text).toContain('</script><script>window.__pwned=2</script>')
      expect(text).toContain(JS_URL)
      // a very long text (the recorder keeps 500 characters of a question, 2,000 of an error) is cut at 200, with a button that shows all of it
      const longest = (t: string) => Math.max(...(t.match(/x+/g) ?? ['']).map((m) => m.length))
      expect(longest(text)).toBeLessThanOrEqual(200)
      const more = page.getByRole('button', { name: /^show all \d+ characters$/ })
      expect(await more.count()).toBeGreaterThan(0)
      await more.first().click()
      expect(longest(await page.locator('main').innerText())).toBeGreaterThan(200)
      // the case id link is an app route, whatever the id says
      const href = await page.locator(`tr[data-case="${JS_URL}"] a`).first().getAttribute('href')
      expect(href).toBe(route('case', 'qa', JS_URL))
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
    } finally {
      await page.close()
    }
  }, 60_000)

  it('draws one point per run in each chart, filters by branch, and opens the run of a clicked point', async () => {
    const { page } = await open(route('set', 'qa'))
    try {
      const charts = page.locator('figure.chart')
      // one point per run that measured the metric: every run for the three set metrics, the feature-branch run for the judge
      const points = await charts.evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-metric'), e.getAttribute('data-points')])))
      const all = String(history.runs.length)
      expect(points).toEqual({ 'mean R@2': all, MRR: all, 'mean ROUGE-L F': all, 'metrics regressed vs baseline "qa"': all, toBeFaithful: '1' })
      // the baseline assertion's bootstrap interval, drawn as a band in every run that computed one (all of them here)
      expect(await charts.evaluateAll((els) => els.map((e) => [e.getAttribute('data-metric'), e.getAttribute('data-band')]))).toEqual([
        ['mean R@2', all],
        ['MRR', all],
        ['mean ROUGE-L F', null],
        ['metrics regressed vs baseline "qa"', null],
        ['toBeFaithful', null],
      ])
      const recall = page.locator('figure.chart[data-metric="mean R@2"]')
      await recall.locator('summary').click()
      // the table is built on the details' toggle event, which fires after the click resolves
      await expect.poll(() => recall.locator('table.values tbody tr').count()).toBe(history.runs.length)
      // hover the second run: the tooltip names it; click: its run opens
      const over = recall.locator('.u-over')
      const box = (await over.boundingBox())!
      const x = box.x + box.width * (1 / (history.runs.length - 1))
      await page.mouse.move(x, box.y + box.height / 2)
      await expect.poll(() => recall.locator('.tip').innerText()).toContain(`run ${history.runs[1]!.id}`)
      await expect.poll(() => recall.locator('.tip').innerText()).toContain(`commit ${history.runs[1]!.commit.slice(0, 8)}`)
      // run 1 equals the baseline in recall: the interval of its change is [0, 0] around the baseline mean 1
      await expect.poll(() => recall.locator('.tip').innerText()).toContain('interval 1.0000 to 1.0000')
      // the feature-branch run, where recall dropped: an interval below the baseline mean 1
      await page.mouse.move(box.x + box.width * 0.99, box.y + box.height / 2)
      await expect.poll(() => recall.locator('.tip').innerText()).toMatch(/interval 0\.\d{4} to 1\.0000/)
      await page.mouse.click(x, box.y + box.height / 2)
      await page.waitForFunction((id) => location.hash === `#/run/${id}` && document.querySelector('main h1')?.textContent?.includes(id), history.runs[1]!.id)
      // the branch filter keeps main's runs only, and its URL reloads to the same filter
      await page.goto(`${ui.url}${route('set', 'qa')}?branch=main`)
      await page.waitForFunction(() => document.querySelectorAll('figure.chart').length > 0)
      expect(await page.locator('figure.chart[data-metric="mean R@2"]').getAttribute('data-points')).toBe('2')
      expect(await page.locator('#branch').inputValue()).toBe('main')
    } finally {
      await page.close()
    }
  }, 60_000)

  it('compares two runs: the paired test per metric, and the case that was made to regress with both retrieved lists and a word diff', async () => {
    const [, r1, r2] = history.runs as [FixtureRun, FixtureRun, FixtureRun]
    // #/compare/NEW picks the default base: feat/x has no earlier run, so the newest main run before it
    const { page } = await open(route('compare', r2.id))
    try {
      expect(await page.locator('#base-run').inputValue()).toBe(r1.id)
      const regressed = page.locator('ol.case-changes.regressed > li')
      expect(await regressed.count()).toBeGreaterThan(0)
      const ids = await regressed.evaluateAll((els) => els.map((e) => e.getAttribute('data-case')))
      expect(new Set(ids)).toEqual(new Set([REGRESSING]))
      const first = regressed.first()
      expect(await first.locator('.side-by-side ol.retrieved').count()).toBe(2)
      expect(await first.locator('.side-by-side li.relevant').innerText()).toContain('support')
      expect(await first.locator('p.diff del').first().innerText()).toContain('support.')
      expect(await first.locator('p.diff ins').first().innerText()).toContain('shop.')
      const table = await page.locator('table.compare').first().innerText()
      expect(table).toMatch(/mean R@2\s+1\.0000\s+0\.8333\s+−0\.1667/)
      expect(table).toContain('dropped (not significant)')
      expect(table).toMatch(/p-value/)
    } finally {
      await page.close()
    }
  }, 60_000)

  it('links the first run on a branch to a comparison with the newest main run before it', async () => {
    const [r0, r1, r2] = history.runs as [FixtureRun, FixtureRun, FixtureRun]
    const { page, errors } = await open('#/')
    try {
      const links = await page
        .locator('table.runs tbody tr')
        .evaluateAll((rows) =>
          rows.map((r) => [
            r.getAttribute('data-run'),
            r.querySelector('td:last-child a')?.textContent ?? null,
            r.querySelector('td:last-child a')?.getAttribute('href') ?? null,
          ]),
        )
      expect(links).toEqual([
        [r2.id, 'compare with main', route('compare', r1.id, r2.id)],
        [r1.id, 'compare', route('compare', r0.id, r1.id)],
        [r0.id, null, null],
      ])
      await page.locator(`tr[data-run="${r2.id}"] td:last-child a`).click()
      await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Compare two runs' && !document.querySelector('main[aria-busy]'))
      expect(await page.locator('#base-run').inputValue()).toBe(r1.id)
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  }, 60_000)

  it('shows a run recorded while the page is open (vitest --watch) without a reload', async () => {
    const { page, errors } = await open('#/')
    try {
      await page.evaluate(() => ((window as { __sameDocument?: boolean }).__sameDocument = true))
      const before = await page.locator('table.runs tbody tr').count()
      const added = await appendRun(history.target, 3, 'main')
      await page.waitForSelector(`table.runs tr[data-run="${added.id}"]`, { timeout: 15_000 })
      expect(await page.locator('table.runs tbody tr').count()).toBe(before + 1)
      expect(await page.locator('#live').innerText()).toContain(`New run ${added.id} recorded.`)
      expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
      // newest first: the new run is the first row
      expect(await page.locator('table.runs tbody tr').first().getAttribute('data-run')).toBe(added.id)
      history.runs.push(added)
      await page.screenshot({ path: join(SHOTS, 'runs-after-watch.png'), fullPage: true })
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  }, 60_000)

  it('reaches every control with the keyboard, and axe-core finds no serious or critical violation', async () => {
    const report: string[] = []
    for (const p of pages()) {
      const { page } = await open(p.hash)
      try {
        const count = await controls(page)
        const reached = await tabThrough(page, count + 5)
        const visible = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('[data-kb]')].filter((el) => el.checkVisibility()).map((el) => el.getAttribute('data-kb')),
        )
        expect({ page: p.name, missed: visible.filter((m) => !reached.has(m as string)) }).toEqual({ page: p.name, missed: [] })
        const violations = await axe(page)
        report.push(`${p.name}: ${count} controls; axe ${violations.length === 0 ? 'no violations' : violations.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join(', ')}`)
        expect({ page: p.name, serious: serious(violations) }).toEqual({ page: p.name, serious: [] })
      } finally {
        await page.close()
      }
    }
    console.log(report.join('\n'))
  }, 180_000)

  it('works as a static export opened from disk (file://), with no server', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'rag-ui-site-')), 'site')
    const exporting = new UiResources({ target: history.target, root: history.dir, mode: 'static', compareReports })
    await exportUi(exporting, await builtApp(), dir)
    await exporting.close()
    const base = pathToFileURL(join(dir, 'index.html')).href
    const last = history.runs[history.runs.length - 1]!
    for (const [name, hash, heading] of [
      ['export-runs', '#/', 'Runs'],
      ['export-set', route('set', 'qa'), 'Eval set qa over time'],
      ['export-run', route('run', last.id), `Run ${last.id} pass`],
      ['export-compare', route('compare', history.runs[2]!.id), 'Compare two runs'],
      ['export-case', route('case', 'qa', REGRESSING), `Case ${REGRESSING} over time`],
    ] as const) {
      const { page, errors, requests } = await open(hash, base)
      try {
        expect({ name, heading: await page.locator('main h1').innerText() }).toEqual({ name, heading })
        expect({ name, errors }).toEqual({ name, errors: [] })
        expect(requests.every((u) => u.startsWith('file://') || u.startsWith('data:'))).toBe(true)
        expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
        if (name === 'export-set') expect(await page.locator('figure.chart').first().getAttribute('data-points')).toBe(String(history.runs.length))
        if (name === 'export-compare') expect(await page.locator(`ol.case-changes.regressed > li[data-case="${REGRESSING.replace(/"/g, '\\"')}"]`).count()).toBeGreaterThan(0)
        if (name === 'export-runs') await page.screenshot({ path: join(SHOTS, 'export-runs.png'), fullPage: true })
      } finally {
        await page.close()
      }
    }
  }, 120_000)

  it('shows how to record the first run when the store is empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-ui-none-'))
    const empty = new UiResources({ target: { kind: 'sqlite', path: join(dir, 'history.sqlite') }, root: dir, mode: 'server', compareReports })
    const server = await startUiServer({ resources: empty, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
    try {
      const { page, errors } = await open('#/', server.url)
      expect(await page.locator('main h1').innerText()).toBe('No runs yet')
      expect(await page.locator('main').innerText()).toContain('npm run example')
      await page.screenshot({ path: join(SHOTS, 'empty.png'), fullPage: true })
      // the first run lands: the page shows it
      const first = await appendRun(join(dir, 'history.sqlite'), 0, 'main')
      await page.waitForSelector(`table.runs tr[data-run="${first.id}"]`, { timeout: 15_000 })
      expect(errors).toEqual([])
      await page.close()
    } finally {
      await server.close()
      await empty.close()
    }
  }, 60_000)
})

// The same app over a PostgreSQL store (a throw-away cluster, as test/history): the pages read the same resources.
describe.skipIf(skipBackend('postgres'))(backendTitle('rag-matchers ui in headless Chromium over a PostgreSQL store', 'postgres'), () => {
  const fx = storeFixture('postgres')
  let pgHistory: FixtureHistory
  let pgResources: UiResources
  let pgUi: RunningUi

  beforeAll(async () => {
    pgHistory = await makeHistory(await fx.fresh())
    pgResources = new UiResources({ target: pgHistory.target, root: pgHistory.dir, mode: 'server', compareReports })
    pgUi = await startUiServer({ resources: pgResources, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
  }, 60_000)

  afterAll(async () => {
    await pgUi?.close()
    await pgResources?.close()
  })

  it('loads the runs, set, run and compare pages with no console error', async () => {
    const [r0, r1, r2] = pgHistory.runs as [FixtureRun, FixtureRun, FixtureRun]
    for (const [name, hash, heading] of [
      ['runs', '#/', 'Runs'],
      ['set', route('set', 'qa'), 'Eval set qa over time'],
      ['run', route('run', r2.id), `Run ${r2.id} fail`],
      ['compare', route('compare', r1.id, r2.id), 'Compare two runs'],
    ] as const) {
      const { page, errors, requests } = await open(hash, pgUi.url)
      try {
        expect({ name, heading: await page.locator('main h1').innerText() }).toEqual({ name, heading })
        expect({ name, errors }).toEqual({ name, errors: [] })
        expect(requests.every((u) => u.startsWith(pgUi.url) || u.startsWith('data:'))).toBe(true)
        expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
        if (name === 'runs')
          expect(await page.locator('table.runs tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')))).toEqual([r2.id, r1.id, r0.id])
        if (name === 'set') expect(await page.locator('figure.chart[data-metric="mean R@2"]').getAttribute('data-points')).toBe('3')
        if (name === 'compare') expect(await page.locator(`ol.case-changes.regressed > li[data-case="${REGRESSING.replace(/"/g, '\\"')}"]`).count()).toBeGreaterThan(0)
        await page.screenshot({ path: join(SHOTS, `postgres-${name}.png`), fullPage: true })
      } finally {
        await page.close()
      }
    }
  }, 120_000)
})

void SCRIPT
