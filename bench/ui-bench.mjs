#!/usr/bin/env node
// History UI benchmark: a store of RUNS runs × SETS eval sets × METRICS metrics × CASES cases, served by
// `rag-matchers ui` (the built CLI), and the time headless Chromium (/usr/bin/chromium) takes to show
// the runs page, one eval set's charts (one chart per metric, one point per run), the newest run and its
// comparison, cold (the first load after the server started) and warm (median of the next reloads, each a
// new document: the server's caches are warm, the page's is not). The server reads the index and the
// newest runs page when it starts (UiResources.prepare), so the runs page's first load finds them ready
// when the browser comes up after it, as with `rag-matchers ui --open`. Each page also prints when the app
// asked for its data, when the data was in and when the page was drawn. After `npm run build`.
//
//   node bench/ui-bench.mjs [--runs 1000] [--sets 10] [--metrics 20] [--cases 10] [--full 1] [--repeat 5] [--store PATH]
//
// --cases is per run for the first RUNS − FULL runs; the last FULL runs have 1,000 cases (their run page is
// timed too: 1,000 cases per set, shown 50 at a time). The scale, every run full size, is
// `--cases 1000 --full 1000 --store /tmp/ui-scale/history.sqlite`: appending it took about an hour on 2
// shared cores (3.9 GB); with --store the runs are appended once and the file is reused.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { openHistory } from '../dist/src/history/public.js'
import { buildReport } from '../dist/src/report/public.js'
import { buildUi } from '../scripts/build-ui.mjs'
import { median } from './median.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const RUNS = opt('runs', 1000)
const SETS = opt('sets', 10)
const METRICS = opt('metrics', 20)
const CASES = opt('cases', 10)
const FULL = opt('full', 1)
const REPEAT = opt('repeat', 5)
// --store PATH: use (and keep) this SQLite file; runs are appended only when it holds none
const given = args.includes('--store') ? args[args.indexOf('--store') + 1] : undefined

function report(seed, cases) {
  const assertions = []
  for (let s = 0; s < SETS; s++) {
    for (let m = 0; m < METRICS; m++) {
      const perCase = Array.from({ length: cases }, (_, i) => {
        const value = ((seed * 7919 + s * 31 + m * 17 + i * 13) % 1000) / 1000
        return { id: `case-${i}`, value, pass: value >= 0.1 }
      })
      const value = perCase.reduce((a, c) => a + c.value, 0) / cases
      assertions.push({
        file: `test/set-${s}.test.ts`,
        describe: [],
        test: `metric ${m}`,
        fullName: `metric ${m}`,
        testIndex: m,
        index: 0,
        matcher: 'toHaveRecallAtK',
        metric: `mean metric-${m}`,
        value,
        threshold: 0.1,
        comparator: '>=',
        pass: value >= 0.1,
        isNot: false,
        outcome: value >= 0.1,
        signature: `metric-${m}|k:10|version:0.1.0`,
        scale: 1,
        set: `set-${s}`,
        setSize: cases,
        perCase,
        ...(m === 0
          ? { cases: perCase.map((c, i) => ({ id: c.id, question: `question ${i}?`, answer: `answer ${i} in run ${seed}`, retrieved: [`d${i}`, `d${i + 1}`] })) }
          : {}),
      })
    }
  }
  return buildReport(assertions, { runner: 'vitest', createdAt: new Date(Date.UTC(2026, 0, 1) + seed * 60_000) })
}

const ms = (n) => `${Math.round(n)} ms`
const dir = given === undefined ? mkdtempSync(join(tmpdir(), 'rag-ui-bench-')) : undefined
const path = given ?? join(dir, 'history.sqlite')
let server
let browser
try {
  const store = await openHistory(path, { write: true })
  const t0 = performance.now()
  // a store given with --store is filled up to RUNS runs (resumable: building the full scale takes a while)
  const stored = (await store.counts()).runs
  for (let i = stored; i < RUNS; i++) {
    if (i > stored && i % 50 === 0) console.log(`  ${i} runs appended (${ms(performance.now() - t0)})`)
    const branch = i % 10 === 9 ? 'feature' : 'main'
    await store.append(report(i, i >= RUNS - FULL ? 1000 : CASES), {
      source: 'vitest',
      environment: { git: { commit: (0x100000 + i).toString(16).padEnd(40, '0'), branch, subject: `run ${i}` } },
    })
  }
  await store.close()
  console.log(
    `ui bench: ${RUNS} runs × ${SETS} sets × ${METRICS} metrics (${CASES} cases per set; the last ${FULL} run(s) 1,000) appended in ${ms(performance.now() - t0)}; Node ${process.version}`,
  )

  // other builds may have cleaned dist/ meanwhile: the app is rebuilt (1 s); the server reads it once at start
  await buildUi()
  server = spawn(process.execPath, [join(root, 'bin/rag-matchers.mjs'), 'ui', '--port', '0', '--history', path], { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise((resolve, reject) => {
    let out = ''
    server.stdout.on('data', (c) => {
      out += c
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out)
      if (m) resolve(m[1])
    })
    server.on('exit', (code) => reject(new Error(`rag-matchers ui exited with ${code}`)))
  })
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
  const errors = []
  page.on('pageerror', (e) => errors.push(e.message))

  /** Navigation start of a fresh document → the page's content drawn (`ready` true in the page). */
  async function time(hash, ready) {
    // a new document each time: the app's own cache and a same-document hash change would hide the load
    await page.goto('about:blank')
    const started = performance.now()
    await page.goto(`${url}${hash}`)
    await page.waitForFunction(ready, undefined, { timeout: 120_000 }).catch(async (error) => {
      throw new Error(`${hash} did not draw: ${error.message}; the page shows: ${(await page.locator('main').innerText()).slice(0, 300)}`)
    })
    // where the time went, from the page's own clock: the app asking for its data, the data in, drawn
    const split = await page.evaluate(() => {
      const api = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/') && !e.name.endsWith('/api/latest'))
      return { asked: Math.min(...api.map((e) => e.startTime)), data: Math.max(...api.map((e) => e.responseEnd)), drawn: performance.now() }
    })
    splits.push(split)
    return performance.now() - started
  }
  const splits = []
  const newest = (await (await fetch(`${url}api/latest`)).json()).latest
  const pages = [
    [
      'runs page (50 of 1,000 runs, 200 metric changes each)',
      '#/',
      () => document.querySelectorAll('table.runs tbody tr').length > 0 && !document.querySelector('main[aria-busy]'),
    ],
    [
      `set charts (${METRICS} uPlot charts × ${RUNS} points)`,
      '#/set/set-0',
      () => document.querySelectorAll('figure.chart canvas').length > 0 && !document.querySelector('main[aria-busy]'),
    ],
    ['run page (newest run)', `#/run/${newest}`, () => document.querySelectorAll('table.cases tbody tr').length > 0 && !document.querySelector('main[aria-busy]')],
    [
      'compare page (newest run vs its default base, 10 sets × 20 metrics × 1,000 paired cases, 10,000 resamples each)',
      `#/compare/${newest}`,
      () => document.querySelectorAll('table.compare tbody tr').length > 0 && !document.querySelector('main[aria-busy]'),
    ],
  ]
  for (const [label, hash, ready] of pages) {
    splits.length = 0
    const cold = await time(hash, ready)
    const warm = []
    for (let i = 0; i < REPEAT; i++) warm.push(await time(hash, ready))
    const at = (s) => `app asked ${ms(s.asked)}, data in ${ms(s.data)}, drawn ${ms(s.drawn)}`
    console.log(`  ${label}: in the page (from navigation start): cold ${at(splits[0])}; warm ${splits.slice(1).map(at).join('; ')}`)
    const extra = await page.evaluate(() => ({
      charts: document.querySelectorAll('figure.chart').length,
      points: document.querySelector('figure.chart')?.getAttribute('data-points'),
      rows: document.querySelectorAll('main tbody tr').length,
    }))
    console.log(`  ${label}: cold ${ms(cold)}, warm median ${ms(median(warm))} (${REPEAT} reloads; ${JSON.stringify(extra)})`)
  }
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`)
} finally {
  await browser?.close()
  server?.kill('SIGTERM')
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
}
