#!/usr/bin/env node
// Run-history benchmark (not a timed test): append runs of SETS eval sets × METRICS metrics × CASES cases to a
// history store and time `trend` (metricSeries) over RUNS runs. Prints times and the store's size.
//
//   npm run build && node bench/history-bench.mjs [--target PATH|URL] [--sets 10] [--metrics 20] [--cases 1000] [--full 3] [--runs 1000] [--trend-cases 1000]
//
// --target is the store (a SQLite path, sqlite:PATH or postgres://…), opened as openHistory(target, { write: true });
// it must hold no runs yet, and is left in place afterwards. Default: a SQLite file in a temp folder, removed at the end.
//
// --full runs are appended at the full size and timed one by one (target: < 1 s each). The store is then filled
// to --runs runs for the trend, at --trend-cases cases per metric (default: --cases; lower it to keep the file
// small: trend reads one metric row per run, so its time depends on the number of runs and metric rows, not on
// the cases). Target: trend over 1,000 runs < 200 ms.
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openHistory } from '../dist/src/history/public.js'
import { buildReport } from '../dist/src/report/public.js'
import { median } from './median.mjs'

const args = process.argv.slice(2)
const text = (name) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const opt = (name, fallback) => {
  const v = text(name)
  return v !== undefined ? Number(v) : fallback
}
const SETS = opt('sets', 10)
const METRICS = opt('metrics', 20)
const CASES = opt('cases', 1000)
const FULL = opt('full', 3)
const RUNS = opt('runs', 1000)
const TREND_CASES = opt('trend-cases', CASES)

function report(seed, cases) {
  const assertions = []
  for (let s = 0; s < SETS; s++) {
    for (let m = 0; m < METRICS; m++) {
      const perCase = Array.from({ length: cases }, (_, i) => ({ id: `case-${i}`, value: ((seed * 7919 + s * 31 + m * 17 + i * 13) % 1000) / 1000, pass: true }))
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
        threshold: 0,
        comparator: '>=',
        pass: true,
        isNot: false,
        outcome: true,
        signature: `metric-${m}|k:10|version:0.1.0`,
        scale: 1,
        set: `set-${s}`,
        setSize: cases,
        perCase,
        ...(m === 0
          ? { cases: perCase.map((c, i) => ({ id: c.id, question: `question ${i}?`, answer: `answer ${i} in run ${seed}`, retrieved: [`d${i}`, `d${i + 1}`, `d${i + 2}`] })) }
          : {}),
      })
    }
  }
  return buildReport(assertions, { runner: 'vitest', createdAt: new Date(Date.UTC(2026, 0, 1) + seed * 60_000) })
}

const given = text('target')
const dir = given === undefined ? mkdtempSync(join(tmpdir(), 'rag-history-bench-')) : undefined
const target = given ?? join(dir, 'history.sqlite')
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`
const fileSize = (path) => {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}
/** Bytes the store takes: the SQLite file (after a checkpoint) and its WAL, or PostgreSQL's tables with their indexes and TOAST in the current schema. */
async function storeSize(store) {
  if (store.backend.kind === 'sqlite') {
    // Pages still in the WAL are copies of pages the file will hold: checkpoint first, so the size is the data's.
    await store.backend.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    return fileSize(store.location) + fileSize(`${store.location}-wal`)
  }
  const rows = await store.backend.all(
    `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE c.relkind = 'r' AND s.nspname = current_schema()`,
  )
  return Number(rows[0]?.n ?? 0)
}
try {
  const store = await openHistory(target, { write: true })
  if ((await store.listRuns({ last: 1 })).length > 0) throw new Error(`--target ${store.location} already holds runs: give an empty store`)
  console.log(
    `history bench: ${SETS} sets × ${METRICS} metrics × ${CASES} cases per run (${SETS * METRICS * CASES} case values), ${store.backend.kind} (${store.backend.binding ?? store.location}), Node ${process.version}`,
  )
  const size = () => storeSize(store)
  const appendTimes = []
  // CPU time of this process too: on a shared machine the wall clock also counts other processes' turns.
  const appendCpu = []
  for (let i = 0; i < FULL; i++) {
    const r = report(i, CASES)
    const t0 = performance.now()
    const c0 = process.cpuUsage()
    await store.append(r, { source: 'vitest' })
    appendTimes.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    appendCpu.push((c.user + c.system) / 1000)
  }
  const fullSize = await size()
  console.log(
    `append (full size, one transaction): ${appendTimes.map((t) => `${t.toFixed(0)} ms`).join(', ')} (median ${median(appendTimes).toFixed(0)} ms, CPU median ${median(appendCpu).toFixed(0)} ms); store ${mb(fullSize)} after ${FULL} runs (${mb(fullSize / Math.max(1, FULL))} per run)`,
  )
  const t1 = performance.now()
  for (let i = FULL; i < RUNS; i++) await store.append(report(i, TREND_CASES), { source: 'vitest' })
  console.log(
    `filled to ${RUNS} runs (${TREND_CASES} cases per metric after the first ${FULL}) in ${((performance.now() - t1) / 1000).toFixed(1)} s; store ${mb(await size())}`,
  )
  await store.close()
  const reader = await openHistory(target)
  const trendTimes = []
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    const series = await reader.metricSeries(`set-${Math.min(7, SETS - 1)}`, `mean metric-${Math.min(13, METRICS - 1)}`)
    trendTimes.push(performance.now() - t0)
    if (series.points.length !== RUNS) throw new Error(`trend: ${series.points.length} points, expected ${RUNS}`)
  }
  console.log(`trend over ${RUNS} runs: ${trendTimes.map((t) => `${t.toFixed(1)} ms`).join(', ')} (first is cold; median ${median(trendTimes).toFixed(1)} ms)`)
  await reader.close()
} finally {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
}
