// The rate view (#30) in a real headless Chromium (Debian's /usr/bin/chromium, as ui.browser.test.ts), over a
// history recorded by a real run of the human-eval example's judge suite (test/ui/human-eval-history.ts) and
// served with the example's rubric (examples/human-eval/rubric.json): two raters rate the eight answers with
// the mouse, a third with the keyboard only; the ratings are stored; the agreement appears on the open pages
// without a reload; the export read back through the agreement API gives the page's kappa and alpha to the
// last digit, and they equal the agreement of the committed ratings.jsonl the raters copied; the judge's
// agreement with them is humanAlignment's. Also: the run page's trials cell, hostile texts shown as text, no
// rater / fewer than two raters / a set the run lacks as messages (never NaN), no console error, and axe-core
// finds no serious violation. Screenshots go to a temp folder (printed).
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { launchChromium } from '../helpers/chromium.js'
import type { Browser, Page } from 'playwright-core'
import { compareReports } from '../../cli/compare.js'
import { agreementReport } from '../../src/agreement/report.js'
import { humanAlignment } from '../../src/agreement/human-alignment.js'
import { loadRatings, parseRatings, type ScoreRating } from '../../src/agreement/ratings.js'
import { readRatings } from '../../src/history/ratings.js'
import { recordedTrials } from '../../src/report/trials.js'
import { HistoryStore } from '../../src/history/store.js'
import { UiResources } from '../../src/ui/resources.js'
import { loadRubric, parseRubric } from '../../src/ui/rubric.js'
import { startUiServer, type RunningUi } from '../../src/ui/server.js'
import { exportUi } from '../../src/ui/export.js'
import { route } from '../../ui/app/dom.js'
import { builtApp } from './app-build.js'
import { makeHistory, REGRESSING, SCRIPT, type FixtureHistory } from './history-fixture.js'
import { recordHumanEvalRun, type ExampleHistory } from './human-eval-history.js'

const repo = join(import.meta.dirname, '..', '..')
const SHOTS = join(tmpdir(), 'rag-matchers-ui-rate-shots')
const AXE = join(repo, 'node_modules', 'axe-core', 'axe.min.js')
const SET = 'judge trials: correctness of the recorded answers'
const CASES = ['heads', 'bleu-en-de', 'bleu-en-fr', 'd-model', 'd-ff', 'layers', 'hardware', 'train-time']

let browser: Browser
let example: ExampleHistory
let resources: UiResources
let ui: RunningUi
let runId: string
let committed: ScoreRating[]
const errors: string[] = []

beforeAll(async () => {
  example = recordHumanEvalRun()
  resources = new UiResources({
    target: { kind: 'sqlite', path: example.store },
    root: example.dir,
    mode: 'server',
    compareReports,
    rubric: loadRubric(join(repo, 'examples', 'human-eval', 'rubric.json')),
  })
  ui = await startUiServer({ resources, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
  const store = await HistoryStore.open({ kind: 'sqlite', path: example.store }, { root: example.dir, write: false })
  runId = (await store.listRuns())[0]!.id
  await store.close()
  committed = (await loadRatings(join(repo, 'examples', 'human-eval', 'ratings.jsonl'))).scores.filter((s) => s.dimension === 'correctness')
  browser = await launchChromium()
  mkdirSync(SHOTS, { recursive: true })
  console.log(`rate view screenshots: ${SHOTS}`)
}, 240_000)

afterAll(async () => {
  await browser?.close()
  await ui?.close()
  await resources?.close()
})

/** Opens `hash` on `base`; console errors and page errors go to `errors` (checked by the last test). */
async function open(hash: string, base = ui.url): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`${hash}: ${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => errors.push(`${hash}: pageerror: ${e.message}`))
  await page.goto(`${base}${hash}`)
  await page.waitForFunction(() => document.querySelector('main h1') !== null && document.querySelector('main[aria-busy]') === null)
  return page
}

const rateHash = (rater: string, run = runId, set = SET) => `${route('rate', run, set)}${rater === '' ? '' : `?rater=${encodeURIComponent(rater)}`}`
const scoreOf = (rater: string, item: string) => committed.find((s) => s.rater === rater && s.item === item)?.score as number

/** The value a statistic cell of the agreement table holds (its data-value: the server's number, unrounded). */
async function statistic(page: Page, dimension: string, name: string): Promise<number> {
  const text = await page.locator(`tr[data-dimension="${dimension}"] [data-statistic="${name}"]`).first().getAttribute('data-value')
  return Number(text)
}

/** Clicks `rater`'s committed correctness score on every case and waits until each is saved. */
async function rateByMouse(page: Page, rater: string): Promise<void> {
  for (const id of CASES) {
    const group = page.locator(`section.rate-case[data-case="${id}"] .rate-group[data-dimension="correctness"]`)
    await group.locator(`button[data-value="${scoreOf(rater, id)}"]`).click()
    await group.locator('.rate-status', { hasText: 'saved' }).waitFor()
  }
}

async function axe(page: Page): Promise<Array<{ id: string; impact: string; nodes: number }>> {
  await page.evaluate(readFileSync(AXE, 'utf8'))
  return page.evaluate(async () => {
    const r = await (
      window as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }
    ).axe.run(document, { resultTypes: ['violations'] })
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }))
  })
}

describe('the rate view in headless Chromium, over a real run of the human-eval example', () => {
  it('two raters rate the eight answers; the agreement appears live; the export gives the page’s kappa through the agreement API', async () => {
    const ana = await open(rateHash('ana'))
    expect(await ana.locator('section.rate-case').evaluateAll((els) => els.map((e) => e.getAttribute('data-case')))).toEqual(CASES)
    // the rubric's text and the example's question, contexts and answer
    expect(await ana.locator('main').innerText()).toContain("Does the answer state the reference's facts")
    expect(await ana.locator('section.rate-case[data-case="heads"] .question').innerText()).toMatch(/attention heads/i)
    // the reference on request
    const ref = ana.locator('section.rate-case[data-case="heads"] p.reference')
    expect(await ref.isHidden()).toBe(true)
    await ana.locator('section.rate-case[data-case="heads"] button.show-ref').click()
    expect(await ref.isVisible()).toBe(true)
    await rateByMouse(ana, 'ana')
    // one rater: a message, not a number
    await ana.locator('tr[data-dimension="correctness"] .needs-raters', { hasText: 'only ana so far' }).waitFor()
    expect(await ana.locator('main').innerText()).not.toContain('NaN')

    const ben = await open(rateHash('ben'))
    await rateByMouse(ben, 'ben')
    // ana's page, left open, shows the new agreement without a reload (the app's poll)
    await ana.evaluate(() => ((window as { __same?: boolean }).__same = true))
    await ana.locator('.rated-count', { hasText: '16 ratings by 2 raters' }).waitFor({ timeout: 15_000 })
    expect(await ana.evaluate(() => (window as { __same?: boolean }).__same)).toBe(true)
    const pageKappa = await statistic(ana, 'correctness', 'cohen')
    await ana.locator('.agreement-panel').scrollIntoViewIfNeeded()
    await ana.screenshot({ path: join(SHOTS, 'rate-two-raters.png'), fullPage: false })

    // stored: 8 ratings each
    const store = await HistoryStore.open({ kind: 'sqlite', path: example.store }, { root: example.dir, write: false })
    const stored = await readRatings(store, { runId, set: SET })
    await store.close()
    expect(stored.map((r) => `${r.rater}:${r.caseId}:${r.score}`).sort()).toEqual(['ana', 'ben'].flatMap((r) => CASES.map((id) => `${r}:${id}:${scoreOf(r, id)}`)).sort())

    // the export link, downloaded by the page, read back through the agreement API
    const href = (await ana.locator('#export-ratings').getAttribute('href')) as string
    const jsonl = await ana.evaluate(async (h) => (await fetch(h)).text(), href)
    const exported = parseRatings(jsonl, { format: 'jsonl', source: 'export.jsonl' }).scores
    const api = agreementReport(exported, { level: 'ordinal' }).details.dimensions[0]!
    expect(api.pairwiseKappa[0]!.raters).toEqual(['ana', 'ben'])
    expect(pageKappa).toBe(api.pairwiseKappa[0]!.value)
    // and the same as the committed ratings the raters copied
    const file = agreementReport(committed.filter((s) => s.rater !== 'chen')).details.dimensions[0]!
    expect(pageKappa).toBe(file.pairwiseKappa[0]!.value)
    expect(await ana.locator('tr[data-dimension="correctness"] [data-statistic="cohen"]').innerText()).toContain(pageKappa.toFixed(4))
    console.log(`page Cohen's kappa (ana–ben, correctness) ${pageKappa}; agreement API on the export ${api.pairwiseKappa[0]!.value}`)

    // the judge against the raters: humanAlignment on the run's verdicts (1 + 4 × the trials' mean, rounded) and the export
    const reader = await HistoryStore.open({ kind: 'sqlite', path: example.store }, { root: example.dir, write: false })
    const row = (await reader.readRun(runId)).evalSets[0]!.metrics.find((m) => m.metric === 'mean rubric score')!
    await reader.close()
    const judged = row.values!.map((v) => ({ item: v.id, score: Math.round(1 + 4 * (v.value as number)) }))
    const alignment = humanAlignment(judged, { scores: exported, comparisons: [] }, { dimension: 'correctness' }).details
    expect(await statistic(ana, 'correctness', 'judge-kappa')).toBe(alignment.kappa.value)
    await ana.close()
    await ben.close()
  }, 180_000)

  it('rates with the keyboard only: Tab to the first buttons, then number keys; a third rater brings Fleiss and Krippendorff', async () => {
    const page = await open(rateHash('chen'))
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    for (let i = 0; i < 60 && !(await page.evaluate(() => document.activeElement?.closest('.rate-group') !== null)); i++) await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.closest('.rate-group')?.getAttribute('data-dimension'))).toBe('correctness')
    const groups = page.locator('.rate-group')
    for (const [i, id] of CASES.entries()) {
      for (const [j, key] of [String(scoreOf('chen', id)), '3'].entries()) {
        await page.keyboard.press(key)
        const at = 2 * i + j
        await groups.nth(at).locator('.rate-status', { hasText: 'saved' }).waitFor()
        // focus moves on to the next dimension (the next case after its last one)
        if (at + 1 < CASES.length * 2)
          await page.waitForFunction((n) => document.activeElement === document.querySelectorAll('.rate-group')[n]?.querySelector('button'), at + 1)
      }
    }
    // Tab then Enter presses a button too: helpfulness of the last case becomes 4
    const last = groups.nth(CASES.length * 2 - 1)
    await last.locator('button').first().focus()
    for (let k = 0; k < 3; k++) await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await last.locator('.rate-status', { hasText: 'saved: 4' }).waitFor()
    expect(await last.locator('button[aria-pressed="true"]').innerText()).toBe('4')

    await page.locator('.rated-count', { hasText: '32 ratings by 3 raters' }).waitFor({ timeout: 15_000 })
    const alpha = await statistic(page, 'correctness', 'krippendorff')
    const fleiss = await statistic(page, 'correctness', 'fleiss')
    // the three raters copied ratings.jsonl's correctness: the page shows that file's alpha (0.749) and Fleiss' kappa
    const file = agreementReport(committed).details.dimensions[0]!
    expect(alpha).toBe(file.krippendorffAlpha.value)
    expect(fleiss).toBe(file.fleissKappa.value)
    expect(alpha.toFixed(3)).toBe('0.749')
    // helpfulness: one rater so far
    expect(await page.locator('tr[data-dimension="helpfulness"] .needs-raters').innerText()).toContain('only chen so far')
    const href = (await page.locator('#export-ratings').getAttribute('href')) as string
    const back = agreementReport(
      parseRatings(await page.evaluate(async (h) => (await fetch(h)).text(), href), { format: 'jsonl' }).scores.filter((s) => s.dimension === 'correctness'),
      {
        level: 'ordinal',
      },
    ).details.dimensions[0]!
    expect(alpha).toBe(back.krippendorffAlpha.value)
    console.log(`page Krippendorff's alpha (3 raters, correctness) ${alpha}; agreement API on the export ${back.krippendorffAlpha.value}; Fleiss ${fleiss}`)
    await page.screenshot({ path: join(SHOTS, 'rate-three-raters.png'), fullPage: true })
    await page.close()
  }, 120_000)

  it('says what is wrong instead of rating: no rater id, a set the run does not have', async () => {
    const page = await open(rateHash(''))
    expect(await page.locator('main p.error[role="alert"]').innerText()).toContain('No rater id')
    const group = page.locator('section.rate-case[data-case="heads"] .rate-group[data-dimension="correctness"]')
    await group.locator('button[data-value="5"]').click()
    expect(await group.locator('.rate-status[role="alert"]').innerText()).toContain('Enter your rater id')
    await page.screenshot({ path: join(SHOTS, 'rate-no-rater.png'), fullPage: false })
    await page.goto(`${ui.url}${rateHash('ana', runId, 'no such set')}`)
    await page.waitForFunction(() => document.querySelector('main h1')?.textContent === 'Not found')
    expect(await page.locator('main').innerText()).toContain(`has no eval set with key`)
    await page.close()
    // the 404 of that resource is the page's own request
    errors.splice(0, errors.length, ...errors.filter((e) => !e.includes('404')))
  }, 60_000)

  it('shows the judge’s trials on the run page: trials × cases, pass rate, flip rate, min–max', async () => {
    const store = await HistoryStore.open({ kind: 'sqlite', path: example.store }, { root: example.dir, write: false })
    const report = await store.readRun(runId)
    await store.close()
    // the row's first assertion run with trials, as recorded (the example: 5 trials, no flip, 35 of 40 verdicts pass)
    const t = recordedTrials(report.assertions.find((a) => recordedTrials(a) !== undefined)!)!
    expect([t.n, t.cases, t.flipRate, t.passRate]).toEqual([5, 8, 0, 0.875])
    const page = await open(route('run', runId))
    const cell = page.locator('table.metrics td.trials').first()
    expect(await cell.innerText()).toBe(`5 × 8 · pass 0.88 · flip 0.00 · ${t.min.toFixed(2)}–${t.max.toFixed(2)}`)
    await page.screenshot({ path: join(SHOTS, 'run-trials.png'), fullPage: false })
    await page.close()
  }, 60_000)

  it('the rate page has no serious axe-core violation, and no page logged an error', async () => {
    const page = await open(rateHash('ana'))
    const violations = await axe(page)
    console.log(`axe on the rate page: ${violations.length === 0 ? 'no violations' : violations.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join(', ')}`)
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([])
    const pickers = await open('#/rate')
    expect(await pickers.locator('#rate-run').inputValue()).toBe(runId)
    // the other run's picker is for the pairwise mode only
    expect(await pickers.locator('#rate-vs').isVisible()).toBe(false)
    await pickers.locator('#rate-mode').selectOption('pairwise')
    expect(await pickers.locator('#rate-vs').isVisible()).toBe(true)
    expect(await axe(pickers).then((v) => v.filter((x) => x.impact === 'serious' || x.impact === 'critical'))).toEqual([])
    await pickers.screenshot({ path: join(SHOTS, 'rate-pickers.png'), fullPage: false })
    await page.close()
    await pickers.close()
    expect(errors).toEqual([])
  }, 60_000)
})

describe('the rate view with hostile texts, and without --rate', () => {
  let hostile: FixtureHistory
  let rated: UiResources
  let server: RunningUi
  let plain: UiResources
  let plainServer: RunningUi

  beforeAll(async () => {
    hostile = await makeHistory()
    const rubric = parseRubric({
      title: `Hostile ${SCRIPT}`,
      dimensions: [{ name: `dim ${SCRIPT}`, scale: 'pass-fail', text: 'javascript:window.__pwned=9 <img src=x onerror="window.__pwned=8">', labels: { pass: '<b>ok</b>' } }],
    })
    rated = new UiResources({ target: hostile.target, root: hostile.dir, mode: 'server', compareReports, rubric })
    server = await startUiServer({ resources: rated, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
    plain = new UiResources({ target: hostile.target, root: hostile.dir, mode: 'server', compareReports })
    plainServer = await startUiServer({ resources: plain, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
  }, 120_000)

  afterAll(async () => {
    await server?.close()
    await rated?.close()
    await plainServer?.close()
    await plain?.close()
  })

  it('shows every text from the run, the rubric and a rater id as text; pairwise shows two answers blind', async () => {
    const [r1, r2] = [hostile.runs[1]!.id, hostile.runs[2]!.id]
    const rater = `<img src=x onerror="window.__pwned=7">`
    const page = await open(`${route('rate', r2, 'qa')}?rater=${encodeURIComponent(rater)}`, server.url)
    const group = page.locator(`section.rate-case[data-case="${REGRESSING.replace(/"/g, '\\"')}"] .rate-group`)
    await group.locator('button[data-value="pass"]').click()
    await group.locator('.rate-status', { hasText: 'saved' }).waitFor()
    await page.locator('tr[data-dimension] td', { hasText: rater }).first().waitFor({ timeout: 15_000 })
    const text = await page.locator('main').innerText()
    for (const t of [REGRESSING, `Hostile ${SCRIPT}`, 'javascript:window.__pwned=9', '<b>ok</b>', rater]) expect(text).toContain(t)
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
    expect(await page.locator('main img, main b').count()).toBe(0)
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0)
    expect(await page.locator('script').count()).toBe(2) // boot.js and app.js
    await page.screenshot({ path: join(SHOTS, 'rate-hostile.png'), fullPage: false })

    await page.goto(`${server.url}${route('rate', r2, 'qa')}?rater=ana&vs=${r1}`)
    await page.waitForFunction(() => document.querySelector('main h1') !== null && document.querySelector('.rate-case .side-by-side') !== null)
    const first = page.locator('section.rate-case').first()
    expect(await first.locator('.side h3').allInnerTexts()).toEqual(['Answer 1', 'Answer 2'])
    // blind: no run id in a case, and the order drawn is recorded with the rating
    expect(await first.innerText()).not.toContain(r1)
    const shown = (await first.getAttribute('data-shown-first')) as 'a' | 'b'
    await first.locator('button[data-value="first"]').click()
    await first.locator('.rate-status', { hasText: 'saved' }).waitFor()
    const store = await HistoryStore.open(hostile.target, { root: hostile.dir, write: false })
    const pairs = await readRatings(store, { runId: r2, set: 'qa', otherRunId: r1 })
    await store.close()
    expect(pairs.map((p) => [p.rater, p.choice, p.shownFirst])).toEqual([['ana', shown, shown === 'a' ? r2 : r1]])
    await page.screenshot({ path: join(SHOTS, 'rate-pairwise.png'), fullPage: false })
    await page.close()
  }, 90_000)

  it('a static export says it has no rating', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'rag-ui-rate-site-')), 'site')
    const exporting = new UiResources({
      target: hostile.target,
      root: hostile.dir,
      mode: 'static',
      compareReports,
      rubric: parseRubric({ dimensions: [{ name: 'a', scale: '1-5', text: 't' }] }),
    })
    await exportUi(exporting, await builtApp(), dir)
    await exporting.close()
    const page = await open('#/rate', pathToFileURL(join(dir, 'index.html')).href)
    expect(await page.locator('main p.notice').innerText()).toContain('This is a static export: it has no rating')
    expect(await page.locator('.rate-group').count()).toBe(0)
    await page.screenshot({ path: join(SHOTS, 'export-rate.png'), fullPage: false })
    await page.close()
  }, 60_000)

  it('a server without --rate says how to turn rating on', async () => {
    const page = await open('#/rate', plainServer.url)
    expect(await page.locator('main p.notice').innerText()).toContain('rag-matchers ui --rate')
    expect(await page.locator('.rate-group').count()).toBe(0)
    await page.close()
    expect(errors).toEqual([])
  }, 60_000)
})
