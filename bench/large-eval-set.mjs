#!/usr/bin/env node
// Large eval sets through a real test run: N synthetic cases through five retrieval matchers, BLEU and
// ROUGE-L (set forms), a baseline gate, and the rag-matchers reporter (terminal table, JSON, HTML,
// Markdown), under Vitest and under Jest, each in a fresh process as a user's CI runs it.
//
//   npm run build && node bench/large-eval-set.mjs [--sizes 1000,10000,100000] [--runners vitest,jest]
//                                                  [--ours DIR] [--json FILE] [--keep]
//
// For every size and runner: one untimed run writes the baseline (RAG_MATCHERS_UPDATE_BASELINES=1), then
// the timed run gates against it. Reported: wall time of the whole `vitest run` / `jest` process, the peak
// resident memory of its largest process (GNU time's %M: the worker holding the cases), the
// sizes of the written reports, and the machine's load. Runners alternate size by size. Growth is read from
// the ratio of consecutive sizes: ≈10× per 10× cases is linear. Speed is measured here, never asserted in
// tests.
//
// The suite uses the built package (dist/, or --ours) through a temporary project whose node_modules links to
// this repository's, so the figures are those of the shipped code.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { generatePairs, mulberry32 } from './gen-generation.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..')
const argv = process.argv.slice(2)
const option = (name, fallback) => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : fallback
}
const sizes = option('--sizes', '1000,10000,100000').split(',').map(Number)
if (sizes.some((n) => !Number.isInteger(n) || n < 10)) {
  console.error('bench: --sizes takes integers ≥ 10, comma-separated')
  process.exit(2)
}
const runners = option('--runners', 'vitest,jest').split(',')
if (runners.length === 0 || runners.some((r) => r !== 'vitest' && r !== 'jest')) {
  console.error('bench: --runners takes vitest, jest or both')
  process.exit(2)
}
const ours = resolve(option('--ours', join(root, 'dist')))
for (const f of ['runners/vitest.js', 'runners/reporter.js', 'runners/jest.cjs', 'runners/jest-reporter.cjs']) {
  if (!existsSync(join(ours, f))) {
    console.error(`bench: ${join(ours, f)} is missing; run \`npm run build\` first (or pass --ours DIR)`)
    process.exit(2)
  }
}
const jsonOut = option('--json')
const keep = argv.includes('--keep')

/** N cases: 10 retrieved ids from a pool of 2,000 documents, 1–3 relevant; answer and reference are the bench's generation pairs. */
function makeCases(n) {
  const rand = mulberry32(20261205)
  const pairs = generatePairs(n)
  const cases = []
  for (let i = 0; i < n; i++) {
    const relevant = new Set()
    const nRel = 1 + Math.floor(rand() * 3)
    while (relevant.size < nRel) relevant.add(`d${Math.floor(rand() * 2000)}`)
    const retrieved = new Set()
    for (const r of relevant) if (rand() < 0.7) retrieved.add(r)
    while (retrieved.size < 10) retrieved.add(`d${Math.floor(rand() * 2000)}`)
    const order = [...retrieved].sort(() => rand() - 0.5)
    const { hypothesis, reference } = pairs[i]
    cases.push({ id: `q${i}`, question: `question ${i}`, retrieved: order, relevant: [...relevant], answer: hypothesis, reference })
  }
  return cases
}

// The thresholds sit below what the synthetic set scores, so the gates pass and the run is the normal one.
const SUITE = `import { readFileSync } from 'node:fs'
const cases = JSON.parse(readFileSync(process.env.BENCH_CASES, 'utf8'))

describe('large eval set', () => {
  it('retrieval', () => {
    expect(cases).toHaveRecallAtK(10, 0.5)
    expect(cases).toHavePrecisionAtK(10, 0.05)
    expect(cases).toHaveNdcgAtK(10, 0.3)
    expect(cases).toHaveMrrAbove(0.2)
    expect(cases).toHaveHitRateAtK(10, 0.5)
  })
  it('generation', () => {
    expect(cases).toScoreBleuAbove(10)
    expect(cases).toScoreRougeLAbove(0.3)
  })
  it('baseline', () => {
    expect(cases).toMatchMetricBaseline('large', { metrics: ['recall@10', 'ndcg@10', 'sentenceBleu', 'rougeL'] })
  })
})
`

function makeProject(dir) {
  mkdirSync(join(dir, 'suite'), { recursive: true })
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir')
  writeFileSync(join(dir, 'suite', 'large.test.mjs'), SUITE)
  writeFileSync(join(dir, 'suite', 'large.test.cjs'), `require('./large-jest.js')\n`)
  writeFileSync(join(dir, 'setup-vitest.mjs'), `import ${JSON.stringify(join(ours, 'runners/vitest.js'))}\n`)
  writeFileSync(join(dir, 'setup-jest.cjs'), `require(${JSON.stringify(join(ours, 'runners/jest.cjs'))})\n`)
  // Jest without a transform runs CommonJS: the same suite, with require instead of import.
  writeFileSync(join(dir, 'suite', 'large-jest.js'), SUITE.replace("import { readFileSync } from 'node:fs'", "const { readFileSync } = require('node:fs')"))
  writeFileSync(
    join(dir, 'vitest.config.mjs'),
    `export default {
  cacheDir: ${JSON.stringify(join(dir, '.vite'))},
  test: {
    globals: true,
    root: ${JSON.stringify(dir)},
    include: ['suite/large.test.mjs'],
    setupFiles: [${JSON.stringify(join(dir, 'setup-vitest.mjs'))}],
    testTimeout: 0,
    reporters: [[${JSON.stringify(join(ours, 'runners/reporter.js'))}, { outputDir: process.env.BENCH_OUT }]],
  },
}
`,
  )
  writeFileSync(
    join(dir, 'jest.config.cjs'),
    `module.exports = {
  rootDir: ${JSON.stringify(dir)},
  testEnvironment: 'node',
  testMatch: ['<rootDir>/suite/large.test.cjs'],
  setupFilesAfterEnv: [${JSON.stringify(join(dir, 'setup-jest.cjs'))}],
  transform: {},
  testTimeout: 0,
  cacheDirectory: ${JSON.stringify(join(dir, '.jest'))},
  reporters: [[${JSON.stringify(join(ours, 'runners/jest-reporter.cjs'))}, { outputDir: process.env.BENCH_OUT }]],
}
`,
  )
}

const bin = (name) => join(root, 'node_modules', '.bin', name)

/** One runner process; wall ms, the peak RSS (MiB) of its largest process, exit status. */
function runOnce(runner, dir, env) {
  // GNU time's %M is the largest resident set among the process and its waited-for descendants (wait4's
  // rusage): the worker that holds the cases, whichever process that is.
  const args = runner === 'vitest' ? [bin('vitest'), 'run', '--config', join(dir, 'vitest.config.mjs')] : [bin('jest'), '--config', join(dir, 'jest.config.cjs'), '--ci=false']
  const timeFile = join(dir, 'time.txt')
  const t0 = process.hrtime.bigint()
  const r = spawnSync('/usr/bin/time', ['-f', '%M', '-o', timeFile, process.execPath, ...args], {
    cwd: dir,
    env: { ...process.env, CI: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  })
  const ms = Number(process.hrtime.bigint() - t0) / 1e6
  const maxRssKiB = Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop())
  return { ms, status: r.status, maxRssKiB, tail: (r.stdout.toString() + r.stderr.toString()).slice(-3000) }
}

function reportSizes(out) {
  const sizes = {}
  if (!existsSync(out)) return sizes
  for (const f of readdirSync(out)) sizes[f] = statSync(join(out, f)).size
  return sizes
}

const results = []
const work = mkdtempSync(join(tmpdir(), 'rag-large-set-'))
try {
  console.log(`large eval sets: ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}, sizes ${sizes.join(', ')}, runners ${runners.join(', ')}`)
  for (const [si, n] of sizes.entries()) {
    const casesFile = join(work, `cases-${n}.json`)
    writeFileSync(casesFile, JSON.stringify(makeCases(n)))
    // Alternate which runner goes first, size by size.
    const order = si % 2 === 0 ? runners : [...runners].reverse()
    for (const runner of order) {
      const dir = join(work, `${runner}-${n}`)
      makeProject(dir)
      const env = { BENCH_CASES: casesFile, BENCH_OUT: join(dir, 'report') }
      const setup = runOnce(runner, dir, { ...env, RAG_MATCHERS_UPDATE_BASELINES: '1' })
      if (setup.status !== 0) throw new Error(`${runner} ${n}: the baseline run failed (exit ${setup.status}):\n${setup.tail}`)
      rmSync(env.BENCH_OUT, { recursive: true, force: true })
      const load = loadavg()[0]
      const run = runOnce(runner, dir, env)
      if (run.status !== 0) throw new Error(`${runner} ${n}: the timed run failed (exit ${run.status}):\n${run.tail}`)
      const row = {
        runner,
        cases: n,
        wallMs: Math.round(run.ms),
        peakRssMiB: Math.round(run.maxRssKiB / 1024),
        load: Number(load.toFixed(2)),
        reports: reportSizes(env.BENCH_OUT),
      }
      results.push(row)
      const r = row.reports
      const kb = (f) => (r[f] === undefined ? '–' : `${(r[f] / 1024).toFixed(0)} kB`)
      console.log(
        `${runner.padEnd(6)} ${String(n).padStart(7)} cases: ${(row.wallMs / 1000).toFixed(2)} s, peak ${row.peakRssMiB} MiB, json ${kb('rag-report.json')}, html ${kb('rag-report.html')}, md ${kb('rag-report.md')} (load ${row.load})`,
      )
    }
  }
  console.log('\n| runner | cases | wall | peak RSS | rag-report.json | rag-report.html | rag-report.md | growth of wall vs previous size |')
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const runner of runners) {
    const rows = results.filter((r) => r.runner === runner)
    rows.forEach((row, i) => {
      const prev = rows[i - 1]
      const growth = prev ? `${(row.wallMs / prev.wallMs).toFixed(1)}× for ${(row.cases / prev.cases).toFixed(0)}× cases` : '–'
      const kb = (f) => (row.reports[f] === undefined ? '–' : `${(row.reports[f] / 1024).toFixed(0)} kB`)
      console.log(
        `| ${runner} | ${row.cases.toLocaleString('en-US')} | ${(row.wallMs / 1000).toFixed(2)} s | ${row.peakRssMiB} MiB | ${kb('rag-report.json')} | ${kb('rag-report.html')} | ${kb('rag-report.md')} | ${growth} |`,
      )
    })
  }
  if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ date: new Date().toISOString(), cores: cpus().length, results }, null, 2))
} finally {
  if (keep) console.log(`kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
