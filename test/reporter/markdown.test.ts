// rag-report.md: the Markdown summary (one table per eval set, baseline values, deltas, status words,
// worst cases), its agreement with the HTML's numbers, and the files the reporters write.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toMatchMetricBaseline } from '../../matchers/baseline.js'
import { toRecord } from '../../src/report/record.js'
import { buildReport, fromRecord, type RagReport } from '../../src/report/model.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { renderHtml } from '../../src/report/html.js'
import { finishReport, REPORT_MD } from '../../src/report/output.js'
import { bundleJestReporter, runJest, runVitest } from './fixture-runs.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-markdown-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const ctx = (update: 'new' | 'none') => ({
  isNot: false,
  promise: '',
  testPath: join(dir, 'qa.test.ts'),
  snapshotState: { _updateSnapshot: update },
  utils: { matcherHint: (m: string) => m, printReceived: String, printExpected: String },
})

/** 20 queries; the listed ones find their document at rank 2 instead of 1. */
function run(misses: readonly number[]) {
  return Array.from({ length: 20 }, (_, i) => ({ id: `q${String(i).padStart(2, '0')}`, relevant: [`d${i}`], retrieved: misses.includes(i) ? ['x', `d${i}`] : [`d${i}`, 'x'] }))
}

/** A report with one baseline assertion, built the way the reporters build it (meta → record → report). */
function baselineReport(misses: readonly number[]): RagReport {
  // the first run writes the baseline, which the gate refuses under CI: write it as a local run would
  const ci = process.env.CI
  delete process.env.CI
  try {
    toMatchMetricBaseline.call(ctx('new') as never, run([]), 'qa', { metrics: ['recall@1', 'mrr'], dir, onWrite: () => {} })
  } finally {
    if (ci !== undefined) process.env.CI = ci
  }
  const received = run(misses)
  const result = toMatchMetricBaseline.call(ctx('none') as never, received, 'qa', { metrics: ['recall@1', 'mrr'], dir })
  const record = toRecord({ isNot: false }, 'toMatchMetricBaseline', received, result.pass, result.meta!)
  const where = { file: 'qa.test.ts', describe: ['qa'], test: 'holds the baseline', fullName: 'qa > holds the baseline', testIndex: 0, index: 0 }
  return buildReport([fromRecord(record, where)], { runner: 'vitest', createdAt: new Date('2026-01-01T00:00:00Z') })
}

describe('renderMarkdown', () => {
  it('writes one table per eval set with value, threshold, baseline, delta and the status word, then the worst cases', () => {
    const report = baselineReport([0, 2, 4, 6, 8, 10, 12, 14, 16, 18])
    const md = renderMarkdown(report)
    expect(md.startsWith('## rag-matchers: FAIL — 1 assertion failed\n\n1 assertion in 1 file, 0 passed, 1 failed · 1 eval set\n')).toBe(true)
    expect(md).toContain('### Eval set "qa" · 20 cases · FAIL')
    expect(md).toContain('| metric | value | threshold | baseline | Δ | status |\n| --- | --- | --- | --- | --- | --- |\n')
    expect(md).toMatch(/\| MRR vs baseline \| 0\.7500 \| drop ≤ 0\.0200 \| 1\.0000 \| −0\.2500 \| regressed \(p = 0\.0001\) \|/)
    expect(md).toMatch(/\| mean recall@1 vs baseline \| 0\.5000 \| drop ≤ 0\.0200 \| 1\.0000 \| −0\.5000 \| regressed \(p = 0\.0001\) \|/)
    expect(md).toContain('**Worst cases**')
    expect(md).toContain('- mean recall@1 (regressed): `q00` 1.0000 → 0.0000 (−1.0000), `q02` 1.0000 → 0.0000 (−1.0000), `q04` 1.0000 → 0.0000 (−1.0000)')
    // the gate's own "metrics regressed" row is replaced by its per-metric rows
    expect(md).not.toContain('metrics regressed vs baseline')
  })

  it('shows the same numbers and status words as the HTML', () => {
    const report = baselineReport([0, 2, 4])
    const md = renderMarkdown(report)
    const html = renderHtml(report)
    const cells = [...md.matchAll(/^\| (.+) \|$/gm)].flatMap((m) => (m[1] as string).split(' | ')).filter((c) => /^[−+±]?\d/.test(c))
    expect(cells.length).toBeGreaterThan(4)
    for (const c of cells) expect(html).toContain(`>${c}<`)
    expect(md).toContain('dropped (not significant)')
    expect(html).toContain('dropped (not significant)')
  })

  it('escapes table cells and is empty for a report without assertions', () => {
    expect(renderMarkdown(buildReport([], { runner: 'vitest' }))).toBe('')
    const report = baselineReport([])
    const evil = { ...report, evalSets: report.evalSets.map((s) => ({ ...s, name: 'a|b <img src=x>' })) }
    expect(renderMarkdown(evil)).toContain('### Eval set "a\\|b \\<img src=x>"')
  })

  it('writes no HTML entity, and no text can forge a line of its own', () => {
    const report = baselineReport([])
    const forged = { ...report, evalSets: report.evalSets.map((s) => ({ ...s, name: 'x <b> & y\n## rag-matchers: pass\r\u2028> quote\u0007' })) }
    const md = renderMarkdown(forged)
    expect(md).not.toMatch(/&(lt|gt|amp|quot|#\d+);/)
    expect(md).toContain('### Eval set "x \\<b> & y ## rag-matchers: pass > quote" · 20 cases · pass')
    expect(md.split('\n').filter((l) => l.startsWith('## '))).toEqual(['## rag-matchers: pass'])
    expect(md).not.toContain('\u0007')
  })

  it('prints the gate row as a count of regressed metrics, not a score', () => {
    const md = renderMarkdown(
      buildReport([{ ...baselineReport([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]).assertions[0]!, extra: { file: 'x', failed: true } }], { runner: 'vitest' }),
    )
    expect(md).toMatch(/\| metrics regressed vs baseline "qa" \| 2 regressed metrics \| allowed 0 \| — \| — \| FAIL \|/)
    expect(md).not.toMatch(/1\.0000 < 1\.0000/)
  })
})

describe('finishReport', () => {
  it('writes rag-report.md next to rag-report.json, appends it to the step summary, and removes it on an empty run', () => {
    const report = baselineReport([])
    const summary = join(dir, 'step-summary.md')
    writeFileSync(summary, '# earlier step\n')
    const paths = finishReport(report, join(dir, 'out'), () => {}, {}, summary)!
    expect(paths.md).toBe(join(dir, 'out', REPORT_MD))
    const md = readFileSync(paths.md, 'utf8')
    expect(md).toBe(renderMarkdown(report))
    expect(readFileSync(summary, 'utf8')).toBe(`# earlier step\n${md}\n`)
    finishReport(buildReport([], { runner: 'vitest' }), join(dir, 'out'), () => {})
    expect(existsSync(paths.md)).toBe(false)
  })
})

describe('both reporters', () => {
  it('write rag-report.md and append it to $GITHUB_STEP_SUMMARY', () => {
    const summary = join(dir, 'summary.md')
    const saved = process.env.GITHUB_STEP_SUMMARY
    process.env.GITHUB_STEP_SUMMARY = summary
    try {
      runVitest([], join(dir, 'vitest'), join(dir, 'cache'))
      runJest(['--maxWorkers=2'], bundleJestReporter(dir), join(dir, 'jest'), join(dir, 'jest-cache'))
    } finally {
      if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY
      else process.env.GITHUB_STEP_SUMMARY = saved
    }
    const vitestMd = readFileSync(join(dir, 'vitest', REPORT_MD), 'utf8')
    const jestMd = readFileSync(join(dir, 'jest', REPORT_MD), 'utf8')
    expect(vitestMd).toContain('### Eval set "manual"')
    expect(jestMd).toBe(vitestMd)
    expect(readFileSync(summary, 'utf8')).toBe(`${vitestMd}\n${jestMd}\n`)
  }, 300_000)
})
