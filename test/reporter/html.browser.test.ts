// rag-report.html in a real headless Chromium (Debian's, installed by .ci/install-chromium): it renders,
// has one bar per case in each chart, makes no request, and no answer text can run a script: the
// text is escaped, and the page's Content-Security-Policy blocks scripts even if an escape were missed.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { launchChromium } from '../helpers/chromium.js'
import type { Browser } from 'playwright-core'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import * as generation from '../../matchers/generation.js'
import { toRecord } from '../../matchers/record.js'
import { renderHtml } from '../../src/report/html.js'
import { buildReport, fromRecord, type RagReport, type ReportAssertion } from '../../src/report/model.js'
import * as retrieval from '../../matchers/retrieval.js'
import { repo } from './fixture-runs.js'

const OUT = join(repo, 'artifacts', 'rag-report-browser')

const SCRIPT = '<script>window.__pwned=1</script>'
const ATTR = '"><img src=x onerror="window.__pwned=2">'

const cases = [
  {
    id: 'q1',
    question: 'How long does the battery last?',
    answer: 'About ten hours.',
    reference: 'The battery lasts ten hours.',
    retrieved: ['battery', 'display'],
    relevant: ['battery'],
  },
  {
    id: 'q2',
    question: `Inject ${SCRIPT}`,
    answer: `${SCRIPT} The screen is replaced by support.`,
    reference: 'Support replaces screens.',
    retrieved: ['display', 'support'],
    relevant: ['support'],
  },
  {
    id: ATTR,
    question: 'Does it have Bluetooth?',
    answer: `${ATTR} Yes, Bluetooth 5.3.`,
    reference: 'It has Bluetooth 5.3.',
    retrieved: ['wireless', 'pairing'],
    relevant: ['bluetooth'],
  },
  { id: 'q4', question: 'What is the warranty?', answer: 'Two years.', reference: 'The warranty is two years.', retrieved: ['warranty'], relevant: ['warranty'] },
]

const utils = { matcherHint: () => '', printReceived: String, printExpected: String }
const ctx = { isNot: false, promise: '', utils } as MatcherContext

/** The real pipeline: matcher → record (as Vitest/Jest would store it) → report → HTML. */
function report(): RagReport {
  const results: Array<[string, MatcherResult]> = [
    ['toHaveRecallAtK', retrieval.toHaveRecallAtK.call(ctx, cases, 2, 0.5)],
    ['toHaveMrrAbove', retrieval.toHaveMrrAbove.call(ctx, cases, 0.5)],
    ['toScoreRougeLAbove', generation.toScoreRougeLAbove.call(ctx, cases, 0.3)],
    ['toHitWithin', retrieval.toHitWithin.call(ctx, cases[0], 1)],
  ]
  const assertions: ReportAssertion[] = results.map(([name, r], index) =>
    fromRecord(toRecord(ctx, name, name === 'toHitWithin' ? cases[0] : cases, r.pass, r.meta!), {
      file: `test/${SCRIPT}.test.ts`,
      describe: [`answers ${ATTR}`],
      test: ATTR,
      fullName: `answers ${ATTR} > ${SCRIPT}`,
      testIndex: 0,
      index,
    }),
  )
  return buildReport(assertions, { runner: 'vitest' })
}

let browser: Browser | undefined

/** Launched by the first test; each test FAILS (never skips) when Chromium is not installed. */
async function launch(): Promise<Browser> {
  browser ??= await launchChromium()
  return browser
}

afterAll(async () => {
  await browser?.close()
})

async function open(html: string, name: string) {
  const browser = await launch()
  mkdirSync(OUT, { recursive: true })
  const file = join(OUT, name)
  writeFileSync(file, html)
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const requests: string[] = []
  const blocked: string[] = []
  page.on('request', (r) => requests.push(r.url()))
  page.on('requestfailed', (r) => blocked.push(`${r.url()} ${r.failure()?.errorText ?? ''}`))
  await page.goto(pathToFileURL(file).href)
  return { page, requests, blocked, url: pathToFileURL(file).href }
}

describe('rag-report.html in headless Chromium', () => {
  it('renders the eval set, one chart per metric with one bar per case, and takes a screenshot', async () => {
    const r = report()
    const { page, requests, blocked, url } = await open(renderHtml(r), 'rag-report.html')
    try {
      expect(await page.title()).toBe('rag-matchers report')
      expect(await page.locator('h1').innerText()).toBe('rag-matchers report')
      const set = r.evalSets[0]!
      const charted = set.metrics.filter((m) => m.values !== undefined)
      expect(charted).toHaveLength(3)
      expect(await page.locator('figure.chart').count()).toBe(3)
      for (const m of charted) {
        const chart = page.locator('figure.chart').filter({ hasText: m.metric }).first()
        expect(await chart.locator('rect.bar').count()).toBe(cases.length)
        expect(await chart.locator('line.threshold').count()).toBe(1)
        expect(await chart.locator('rect.bar.fail').count()).toBe(m.failingCases.length)
      }
      expect(await page.locator('table.cases tr.case').count()).toBe(cases.length)
      expect(await page.locator('table.assertions tr').count()).toBe(2) // header + the single-case assertion
      // The SVG is laid out (not just present in the DOM).
      const box = await page.locator('figure.chart svg').first().boundingBox()
      expect(box?.width).toBeGreaterThan(100)
      await page.screenshot({ path: join(repo, 'artifacts', 'rag-report.png'), fullPage: true })
      expect(requests).toEqual([url])
      expect(blocked).toEqual([])
    } finally {
      await page.close()
    }
  }, 60_000)

  it('shows injected answers, ids and names as text and runs none of them', async () => {
    const { page } = await open(renderHtml(report()), 'rag-report.html')
    try {
      expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
      expect(await page.locator('script').count()).toBe(0)
      expect(await page.locator('img').count()).toBe(0)
      const text = await page.locator('body').innerText()
      expect(text).toContain(`${SCRIPT} The screen is replaced by support.`)
      expect(text).toContain(`${ATTR} Yes, Bluetooth 5.3.`)
      expect(text).toContain(`test/${SCRIPT}.test.ts`)
      // An attribute value with quotes stays one attribute value.
      expect(await page.locator('tr.case').nth(2).getAttribute('data-case')).toBe(ATTR)
    } finally {
      await page.close()
    }
  }, 60_000)

  it('blocks a script that got past escaping, through its Content-Security-Policy', async () => {
    const html = renderHtml(report())
    const smuggled = '<script>window.__pwned=3</script><img src=x onerror="window.__pwned=4"><svg onload="window.__pwned=5"></svg>'
    const withCsp = html.replace('<main>', `<main>${smuggled}`)
    const withoutCsp = withCsp.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
    expect(withoutCsp).not.toBe(withCsp)

    // Control: without the policy the smuggled markup runs, so the check below can fail.
    const control = await open(withoutCsp, 'control-without-csp.html')
    try {
      await control.page.waitForFunction(() => (window as { __pwned?: unknown }).__pwned !== undefined, undefined, { timeout: 10_000 })
    } finally {
      await control.page.close()
    }

    const guarded = await open(withCsp, 'smuggled-with-csp.html')
    try {
      await guarded.page.waitForTimeout(300)
      expect(await guarded.page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined()
      // The smuggled <img> is attempted and refused by the policy ("csp"); nothing else loads.
      const img = new URL('x', guarded.url).href
      expect(guarded.requests).toEqual([guarded.url, img])
      expect(guarded.blocked).toEqual([`${img} csp`])
    } finally {
      await guarded.page.close()
    }
  }, 60_000)
})
