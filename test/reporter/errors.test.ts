// An honest verdict (issue #26): every rag-matchers assertion that ran is in the report, including the ones
// whose matcher threw, and a report is written whatever happened in the run. Both reporters, end to end:
// the error fixtures (test/fixtures/reporter-suite/errors) run by Vitest and by Jest in child processes.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RagReport } from '../../src/report/model.js'
import { bundleJestReporter, errorsFixture, readReport, runJest, runVitest, type Run } from './fixture-runs.js'

const SLOW = 180_000
let tmp: string
const runs: Record<string, { run: Run; report: RagReport; md: string; html: string }> = {}

function read(out: string, run: Run) {
  return { run, report: readReport(out), md: readFileSync(join(out, 'rag-report.md'), 'utf8'), html: readFileSync(join(out, 'rag-report.html'), 'utf8') }
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rag-reporter-errors-'))
  const jestReporter = bundleJestReporter(tmp)
  for (const [name, filter] of [
    ['thrown', ['thrown']],
    ['broken', ['pipeline', 'load']],
  ] as const) {
    const vOut = join(tmp, `vitest-${name}`)
    runs[`vitest-${name}`] = read(vOut, runVitest([...filter], vOut, join(tmp, 'cache'), errorsFixture))
    const jOut = join(tmp, `jest-${name}`)
    runs[`jest-${name}`] = read(jOut, runJest([filter.join('|')], jestReporter, jOut, join(tmp, 'jest-cache'), {}, errorsFixture))
  }
}, SLOW)

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

describe.each(['vitest', 'jest'])('%s reporter: a matcher that throws', (runner) => {
  const get = () => runs[`${runner}-thrown`] as (typeof runs)[string]

  it('is recorded as an errored assertion, and the report says FAIL', () => {
    const { run, report } = get()
    expect(run.status).toBe(1)
    expect(report.summary).toMatchObject({ assertions: 2, passed: 1, failed: 1, errored: 1, evalSets: 1 })
    expect(report.verdict).toEqual({ status: 'fail', reasons: ['1 assertion errored'] })
    const errored = report.assertions.find((a) => a.status === 'error')
    expect(errored).toMatchObject({ matcher: 'toHaveRecallAtK', value: null, pass: false, outcome: false, set: 'nimbus-qa' })
    expect(errored?.error).toContain('relevant must be an array/Set of ids')
    expect(errored?.error).not.toContain('\u001b')
    const set = report.evalSets[0]
    expect(set).toMatchObject({ name: 'nimbus-qa', pass: false })
    expect(set?.metrics.find((m) => m.errored === 1)).toMatchObject({ pass: false, failedAssertions: 1, causes: [errored?.error] })
    // the ground truth is shown beside what was retrieved
    expect(set?.cases.find((c) => c.id === 'q1')).toMatchObject({ retrieved: ['battery', 'charging', 'display'], relevant: ['battery'] })
  })

  it('prints the count of errored assertions, the verdict and the error in the table', () => {
    const out = get().run.stdout
    expect(out).toContain('rag-matchers: 2 assertions in 1 file, 1 passed, 1 failed (1 errored) · 1 eval set\nverdict: FAIL — 1 assertion errored')
    expect(out).toMatch(/Eval set "nimbus-qa" \(thrown\.errors\.ts\) · 6 cases · FAIL/)
    expect(out).toMatch(/ {2}toHaveRecallAtK +n\/a +— +3 +ERROR/)
    expect(out).toContain('    recall@3 with a case whose ground truth is broken (error): ')
  })

  it('shows the error in rag-report.md and rag-report.html, and the Markdown has no HTML entity', () => {
    const { md, html } = get()
    expect(md.startsWith('## rag-matchers: FAIL — 1 assertion errored\n\n2 assertions in 1 file, 1 passed, 1 failed (1 errored) · 1 eval set\n')).toBe(true)
    expect(md).toContain('### Eval set "nimbus-qa" · 6 cases · FAIL')
    expect(md).toContain('| toHaveRecallAtK | n/a | — | — | — | ERROR |')
    expect(md).toMatch(/\*\*Why\*\*\n\n- recall@3 with a case whose ground truth is broken \(error\): .*relevant must be an array\/Set of ids/)
    expect(md).not.toMatch(/&(lt|gt|amp|quot|#\d+);/)
    expect(html).toContain('<p class="verdict fail">FAIL — 1 assertion errored</p>')
    expect(html).toMatch(/<li class="fail">recall@3 with a case whose ground truth is broken \(error\): [^<]*relevant must be an array\/Set of ids/)
    expect(html).toContain('<th>expected relevant</th>')
  })
})

describe.each(['vitest', 'jest'])('%s reporter: a describeEvalSet that cannot run, a file that fails to load', (runner) => {
  const get = () => runs[`${runner}-broken`] as (typeof runs)[string]

  it('still writes rag-report.json, .md and .html, saying FAIL with the causes', () => {
    const { run, report, md, html } = get()
    expect(run.status).toBe(1)
    expect(report.summary).toMatchObject({ assertions: 0, failed: 0 })
    expect(report.verdict.status).toBe('fail')
    const failures = [...(report.run?.failedOutside ?? []), ...(report.run?.fileErrors ?? [])]
    expect(failures.find((f) => f.file === 'load.errors.ts')?.error).toContain('fixture: this file fails to load')
    // Vitest skips the tests of a block whose beforeAll threw and reports the hook's error on the suite;
    // Jest fails each test of the block with the hook's error. Either way the cause is in the report.
    expect(failures.find((f) => f.file === 'pipeline.errors.ts')?.error).toContain('pipeline down: the index is not reachable')
    for (const f of failures) expect(f.error).not.toMatch(/\n\s+at /)
    expect(md).toMatch(/^## rag-matchers: FAIL — /)
    expect(md).toContain('fixture: this file fails to load')
    expect(md).toContain('pipeline down: the index is not reachable')
    expect(html).toContain('<section class="run-failures">')
    expect(html).toContain('pipeline down: the index is not reachable')
    expect(run.stdout).toMatch(/verdict: FAIL — /)
  })
})

describe('a set assertion that failed because cases failed in the pipeline', () => {
  it('is recorded (also when no case could be scored) and names the cases and their errors as its cause', async () => {
    const { allMatchers } = await import('../../runners/matchers.js')
    const { buildReport, fromRecord } = await import('../../src/report/model.js')
    const { toRecord } = await import('../../src/report/record.js')
    const { renderTable } = await import('../../src/report/table.js')
    const { renderMarkdown } = await import('../../src/report/markdown.js')
    const ctx = { isNot: false, promise: '', utils: { matcherHint: (m: string) => m, printReceived: String, printExpected: String } }
    const some = [
      { id: 'q1', retrieved: ['d1'], relevant: ['d1'] },
      { id: 'q2', error: { name: 'Error', message: 'vector DB timeout (503)' } },
    ]
    const all = [{ id: 'q9', error: { name: 'Error', message: 'index offline' } }]
    for (const [cases, cause] of [
      [some, '1 case failed in the pipeline: q2 (vector DB timeout (503))'],
      [all, '1 case failed in the pipeline: q9 (index offline)'],
    ] as const) {
      const result = allMatchers.toHaveRecallAtK.call(ctx as never, cases, 1, 0.5) as { pass: boolean; meta?: Record<string, unknown> }
      expect(result.pass).toBe(false)
      expect(result.meta).toBeDefined()
      // As the reporters do: the meta recorded (value NaN → null), then placed in its test.
      const record = toRecord(ctx, 'toHaveRecallAtK', cases, result.pass, result.meta as never)
      const where = { file: 't.test.ts', describe: ['qa'], test: 'recall', fullName: 'qa recall', testIndex: 0, index: 0 }
      const report = buildReport([fromRecord(record, where)], { runner: 'vitest' })
      expect(report.verdict.status).toBe('fail')
      expect(renderTable(report)).toContain(cause)
      expect(renderMarkdown(report)).toContain(cause)
    }
  })
})
