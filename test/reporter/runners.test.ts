// Both reporters end to end: the fixture suite run by Vitest and by Jest in child processes, whole and
// in three shards. Checks the printed table, rag-report.json, rag-report.html, that the two runners
// agree, that a run without rag-matchers assertions writes nothing, and that merged shards give
// exactly the unsharded numbers (means from the union of per-case values).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mergeReportFiles } from '../../src/report/merge.js'
import type { RagReport } from '../../src/report/model.js'
import { bundleJestReporter, numbers, readReport, runJest, runVitest, type Run } from './fixture-runs.js'

const SLOW = 180_000
let tmp: string
let cache: string
let jestReporter: string
let vitestRun: Run
let vitestReport: RagReport
let jestRun: Run
let jestReport: RagReport

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rag-reporter-runs-'))
  cache = join(tmp, 'cache')
  jestReporter = bundleJestReporter(tmp)
  vitestRun = runVitest([], join(tmp, 'vitest'), cache)
  vitestReport = readReport(join(tmp, 'vitest'))
  // Two workers and an empty cache (no timings), so Jest does not run the files in band.
  jestRun = runJest(['--maxWorkers=2'], jestReporter, join(tmp, 'jest'), join(tmp, 'jest-cache'), { RAG_FIXTURE_PIDS: join(tmp, 'jest-pids.txt') })
  jestReport = readReport(join(tmp, 'jest'))
}, SLOW)

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

/** The fixture has 4 files with rag assertions (3 parts + the failing gate) and 25 assertions. */
function checkReport(report: RagReport, runner: string) {
  expect(report).toMatchObject({ schemaVersion: 1, runner, summary: { assertions: 25, passed: 24, failed: 1, evalSets: 4, files: 4 } })
  const manual = report.evalSets.find((s) => s.name === 'manual')
  expect(manual).toMatchObject({ source: 'set', pass: false, files: ['gate.suite.ts', 'part-a.suite.ts', 'part-b.suite.ts', 'part-c.suite.ts'] })
  expect(manual?.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7', 'q8', 'q9'])
  const recall3 = manual?.metrics.find((m) => m.metric === 'mean R@3')
  expect(recall3).toMatchObject({ n: 9, assertions: 3, failedAssertions: 0, aggregate: 'mean' })
  // The pooled mean is the mean of the 9 per-case values the three assertions recorded.
  const perCase = report.assertions.filter((a) => a.set === 'manual' && a.matcher === 'toHaveRecallAtK' && a.threshold === 0.3).flatMap((a) => a.perCase ?? [])
  expect(perCase).toHaveLength(9)
  expect(recall3?.value).toBe(perCase.reduce((s, c) => s + (c.value as number), 0) / 9)
  const gate = manual?.metrics.find((m) => m.metric === 'mean R@1')
  expect(gate).toMatchObject({ pass: false, failedAssertions: 1 })
  expect(gate?.failingCases.length).toBeGreaterThan(0)
  // Case texts were captured from the received eval set.
  expect(manual?.cases.find((c) => c.id === 'q6')?.answer).toContain('<script>window.__pwned=1</script>')
  expect(report.singles.map((f) => [f.file, f.assertions.length])).toEqual([
    ['part-a.suite.ts', 2],
    ['part-b.suite.ts', 2],
    ['part-c.suite.ts', 2],
  ])
}

describe('Vitest reporter (rag-matchers/reporter)', () => {
  it('writes rag-report.json with the documented schema', () => {
    expect(vitestRun.status).toBe(1) // the gate fails on purpose
    checkReport(vitestReport, 'vitest')
  })

  it('prints the table and the HTML path', () => {
    const out = vitestRun.stdout
    expect(out).toContain('rag-matchers: 25 assertions in 4 files, 24 passed, 1 failed · 4 eval sets')
    expect(out).toMatch(/Eval set "manual" \(gate\.suite\.ts, part-a\.suite\.ts, part-b\.suite\.ts, part-c\.suite\.ts\) · 9 cases · FAIL/)
    expect(out).toMatch(/\n {2}mean R@3 +\d\.\d{4} +≥ 0\.3000 +9 +pass \(3 assertions\)\n/)
    expect(out).toMatch(/\n {2}mean R@1 +\d\.\d{4} +≥ 0\.9000 +3 +FAIL\n/)
    expect(out).toContain('  cases below the threshold:')
    expect(out).toContain(`rag-matchers report: ${join(tmp, 'vitest', 'rag-report.html')}`)
  })

  it('writes one self-contained rag-report.html with a chart per pooled metric', () => {
    const html = readFileSync(join(tmp, 'vitest', 'rag-report.html'), 'utf8')
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain('http-equiv="Content-Security-Policy"')
    expect(html).not.toMatch(/<script/i)
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;')
  })
})

describe('Jest reporter (rag-matchers/jest-reporter)', () => {
  it('writes the same report as the Vitest reporter from the channel files of its workers', () => {
    expect(jestRun.status).toBe(1)
    // The files ran in worker processes, not in the reporter's process: the channel env var was inherited.
    const pids = new Set(readFileSync(join(tmp, 'jest-pids.txt'), 'utf8').trim().split('\n').map(Number))
    expect(pids.size).toBeGreaterThanOrEqual(1)
    expect(pids.has(jestRun.pid)).toBe(false)
    checkReport(jestReport, 'jest')
    expect(numbers(jestReport)).toEqual(numbers(vitestReport))
  })

  it('prints the same table', () => {
    const table = (text: string) => text.slice(text.indexOf('rag-matchers: '), text.indexOf('\nrag-matchers report: '))
    expect(table(jestRun.stdout)).toBe(table(vitestRun.stdout))
    expect(jestRun.stdout).toContain(`rag-matchers report: ${join(tmp, 'jest', 'rag-report.html')}`)
  })
})

describe('a run without rag-matchers assertions', () => {
  it(
    'prints nothing from us and removes a stale report (Vitest)',
    () => {
      const out = join(tmp, 'plain-vitest')
      mkdirSync(out, { recursive: true })
      writeFileSync(join(out, 'rag-report.json'), '{"stale":true}')
      writeFileSync(join(out, 'rag-report.html'), 'stale')
      const r = runVitest(['plain'], out, cache)
      expect(r.status).toBe(0)
      expect(r.stdout + r.stderr).not.toContain('rag-matchers')
      expect(readdirSync(out)).toEqual([])
    },
    SLOW,
  )

  it(
    'prints nothing from us and writes no report (Jest)',
    () => {
      const out = join(tmp, 'plain-jest')
      const r = runJest(['plain'], jestReporter, out, cache)
      expect(r.status).toBe(0)
      expect(r.stdout + r.stderr).not.toContain('rag-matchers')
      expect(existsSync(join(out, 'rag-report.json'))).toBe(false)
    },
    SLOW,
  )
})

describe('sharding: merged shards give the unsharded report', () => {
  it(
    'Vitest: --shard=i/3 --reporter=blob, then --merge-reports with our reporter',
    () => {
      const blobs = join(tmp, 'blobs')
      for (let i = 1; i <= 3; i++) {
        const r = runVitest([`--shard=${i}/3`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${i}-3.json`)}`], join(tmp, `unused-${i}`), cache)
        expect(r.stderr).not.toMatch(/Error: .*rag/i)
      }
      expect(readdirSync(blobs).sort()).toEqual(['blob-1-3.json', 'blob-2-3.json', 'blob-3-3.json'])
      const merge = runVitest([`--merge-reports=${blobs}`], join(tmp, 'vitest-merged'), cache)
      expect(merge.stdout).toContain('rag-matchers: 25 assertions')
      const merged = readReport(join(tmp, 'vitest-merged'))
      expect(merged.shard).toBeUndefined()
      expect(numbers(merged)).toEqual(numbers(vitestReport))
      const means = (r: RagReport) => r.evalSets.flatMap((s) => s.metrics.map((m) => [s.name, m.metric, m.value]))
      expect(means(merged)).toEqual(means(vitestReport))
    },
    SLOW,
  )

  it(
    'Jest: --shard=i/3 writes partial reports; mergeReportFiles recomputes the pooled means',
    () => {
      const files: string[] = []
      const shardsWithManual: number[] = []
      for (let i = 1; i <= 3; i++) {
        const out = join(tmp, `jest-shard-${i}`)
        runJest([`--shard=${i}/3`], jestReporter, out, cache)
        if (!existsSync(join(out, 'rag-report.json'))) continue
        const part = readReport(out)
        expect(part.shard).toEqual({ index: i, count: 3 })
        if (part.evalSets.some((s) => s.name === 'manual')) shardsWithManual.push(i)
        files.push(join(out, 'rag-report.json'))
      }
      // The named set really is split across shards, so pooling is exercised.
      expect(shardsWithManual.length).toBeGreaterThanOrEqual(2)
      const merged = mergeReportFiles(files)
      expect(merged).toMatchObject({ runner: 'merged', mergedFrom: files.length })
      expect(numbers(merged)).toEqual(numbers(jestReport))
    },
    SLOW,
  )
})
