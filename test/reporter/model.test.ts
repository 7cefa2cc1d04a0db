// The report model (grouping, pooled means, schema) and mergeReports, on hand-made assertions.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mergeReportFiles, mergeReports } from '../../src/report/merge.js'
import { MERGE_USAGE, run as runMergeCommand, runMergeReportsCli } from '../../cli/merge-reports.js'
import { collectJestAssertions } from '../../runners/jest-reporter.js'
import type { RecordedAssertion } from '../../matchers/record.js'
import { buildReport, metricLabel, REPORT_SCHEMA_VERSION, type RagReport, type ReportAssertion } from '../../src/report/model.js'
import RagMatchersJestReporter from '../../runners/jest-reporter.js'
import RagMatchersReporter, { collectVitestAssertions } from '../../runners/reporter.js'
import { assertionMaker } from './assertions.js'

const FIXED = new Date('2025-01-02T03:04:05.000Z')

const a = assertionMaker({ describe: ['set A'], test: 't', fullName: 'set A > t' })

function setAssertion(ids: string[], values: number[], over: Partial<ReportAssertion> = {}): ReportAssertion {
  const perCase = ids.map((id, i) => ({ id, value: values[i] as number, pass: (values[i] as number) >= (over.threshold ?? 0.4) }))
  const value = values.reduce((s, v) => s + v, 0) / values.length
  return a({ value, perCase, setSize: ids.length, cases: ids.map((id) => ({ id, question: `question ${id}` })), ...over })
}

describe('buildReport', () => {
  it('has the documented top-level schema', () => {
    const report = buildReport([setAssertion(['q1', 'q2'], [1, 0]), a({ file: 'test/b.test.ts', describe: [] })], { runner: 'vitest', createdAt: FIXED })
    expect(Object.keys(report)).toEqual(['schemaVersion', 'generator', 'runner', 'createdAt', 'summary', 'verdict', 'evalSets', 'singles', 'assertions'])
    expect(report.schemaVersion).toBe(REPORT_SCHEMA_VERSION)
    expect(report.generator.name).toBe('rag-matchers')
    expect(report.createdAt).toBe('2025-01-02T03:04:05.000Z')
    expect(report.summary).toEqual({ assertions: 2, passed: 2, failed: 0, errored: 0, evalSets: 1, files: 2 })
    expect(report.verdict).toEqual({ status: 'pass', reasons: [] })
    expect(Object.keys(report.evalSets[0] ?? {})).toEqual(['key', 'name', 'source', 'files', 'tests', 'pass', 'metrics', 'baselines', 'cases'])
    expect(report.singles).toHaveLength(1)
    expect(JSON.parse(JSON.stringify(report))).toEqual(report)
  })

  it('groups unnamed sets by file and describe path, named sets by name across files', () => {
    const report = buildReport(
      [
        setAssertion(['q1'], [1], { file: 'test/a.test.ts', describe: ['A'] }),
        setAssertion(['q2'], [1], { file: 'test/a.test.ts', describe: ['B'] }),
        setAssertion(['q3'], [1], { file: 'test/b.test.ts', describe: ['A'] }),
        setAssertion(['n1'], [1], { file: 'test/a.test.ts', set: 'named' }),
        setAssertion(['n2'], [0], { file: 'test/c.test.ts', set: 'named' }),
      ],
      { runner: 'jest' },
    )
    expect(report.evalSets.map((s) => [s.source, s.name, s.files])).toEqual([
      ['describe', 'A', ['test/a.test.ts']],
      ['describe', 'B', ['test/a.test.ts']],
      ['set', 'named', ['test/a.test.ts', 'test/c.test.ts']],
      ['describe', 'A', ['test/b.test.ts']],
    ])
    const named = report.evalSets.find((s) => s.source === 'set')
    expect(named?.metrics).toHaveLength(1)
    expect(named?.metrics[0]).toMatchObject({ value: 0.5, n: 2, assertions: 2, aggregate: 'mean' })
  })

  it('pools a metric over several assertions as the mean of the union of per-case values, not the mean of means', () => {
    const parts = [setAssertion(['q1', 'q2', 'q3'], [1, 1, 1], { set: 's', testIndex: 0 }), setAssertion(['q4'], [0], { set: 's', testIndex: 1 })]
    const [row] = buildReport(parts, { runner: 'vitest' }).evalSets[0]?.metrics ?? []
    expect(row?.value).toBe(0.75) // mean of means would be 0.5
    expect(row?.n).toBe(4)
    expect(row?.values?.map((v) => v.id)).toEqual(['q1', 'q2', 'q3', 'q4'])
    expect(row?.failingCases).toEqual(['q4'])
  })

  it('uses the matcher value itself for a single assertion', () => {
    const one = setAssertion(['q1', 'q2', 'q3'], [0.1, 0.2, 0.3])
    const [row] = buildReport([one], { runner: 'vitest' }).evalSets[0]?.metrics ?? []
    expect(row?.value).toBe(one.value)
  })

  it('counts a case asserted twice once, and keeps positional labels apart per test', () => {
    const twice = [setAssertion(['q1', 'q2'], [1, 0], { set: 's' }), setAssertion(['q1', 'q2', 'q3'], [1, 0, 1], { set: 's', testIndex: 1 })]
    const [row] = buildReport(twice, { runner: 'vitest' }).evalSets[0]?.metrics ?? []
    expect(row?.n).toBe(3)
    expect(row?.value).toBeCloseTo(2 / 3, 15)

    const positional = (testIndex: number, value: number) =>
      a({ set: 'p', testIndex, fullName: `t${testIndex}`, value, setSize: 1, perCase: [{ id: '#1', value, pass: true, positional: true }] })
    const [prow] = buildReport([positional(0, 1), positional(1, 0)], { runner: 'vitest' }).evalSets[0]?.metrics ?? []
    expect(prow?.n).toBe(2)
    expect(prow?.value).toBe(0.5)
  })

  it('falls back to a weighted mean, flagged, when a per-case list was cut', () => {
    const big = a({ set: 's', value: 0.9, perCase: [{ id: 'q1', value: 0.9 }], perCaseTotal: 3000, setSize: 3000 })
    const small = a({ set: 's', testIndex: 1, value: 0.5, perCase: [{ id: 'z1', value: 0.5 }], setSize: 1000 })
    const [row] = buildReport([big, small], { runner: 'vitest' }).evalSets[0]?.metrics ?? []
    expect(row?.aggregate).toBe('weighted-mean')
    expect(row?.n).toBe(3001)
    expect(row?.value).toBeCloseTo((0.9 * 3000 + 0.5 * 1) / 3001, 12)
  })

  it('keeps set-level scores such as corpus BLEU (no perCase) as rows of their own', () => {
    const corpus = (testIndex: number) =>
      a({ set: 's', matcher: 'toScoreBleuAbove', metric: 'BLEU', value: 40 + testIndex, threshold: 10, testIndex, setSize: 3, signature: 'BLEU|version:0' })
    const rows = buildReport([corpus(0), corpus(1)], { runner: 'vitest' }).evalSets[0]?.metrics ?? []
    expect(rows.map((r) => [r.aggregate, r.value, r.n])).toEqual([
      ['set-level', 40, 3],
      ['set-level', 41, 3],
    ])
  })

  it('keeps rows apart by threshold and .not, and lists no failing cases for .not rows', () => {
    const rows =
      buildReport(
        [
          setAssertion(['q1'], [0], { threshold: 0.4 }),
          setAssertion(['q1'], [0], { threshold: 0.6 }),
          setAssertion(['q1'], [0], { isNot: true, comparator: '<', pass: false, outcome: true }),
        ],
        { runner: 'vitest' },
      ).evalSets[0]?.metrics ?? []
    expect(rows).toHaveLength(3)
    expect(rows.map((r) => r.failingCases)).toEqual([['q1'], ['q1'], []])
  })

  it('carries the baseline of one assertion, and of several only when they agree', () => {
    const withBase = (mean: number, testIndex: number) => setAssertion(['q' + testIndex], [0.8], { set: 's', testIndex, baseline: { mean, delta: 0.8 - mean } })
    expect(buildReport([withBase(0.7, 0)], { runner: 'vitest' }).evalSets[0]?.metrics[0]?.baseline).toEqual({ mean: 0.7, delta: 0.8 - 0.7 })
    expect(buildReport([withBase(0.7, 0), withBase(0.7, 1)], { runner: 'vitest' }).evalSets[0]?.metrics[0]?.baseline).toEqual({ mean: 0.7, delta: 0.8 - 0.7 })
    expect(buildReport([withBase(0.7, 0), withBase(0.6, 1)], { runner: 'vitest' }).evalSets[0]?.metrics[0]?.baseline).toBeUndefined()
    expect(buildReport([setAssertion(['q'], [1])], { runner: 'vitest' }).evalSets[0]?.metrics[0]?.baseline).toBeUndefined()
  })

  it('builds the question table from the captured case texts and per-metric values', () => {
    const recall = setAssertion(['q1', 'q2'], [1, 0])
    const ndcg = setAssertion(['q1', 'q2'], [0.9, 0.1], { matcher: 'toHaveNdcgAtK', metric: 'mean nDCG@3', signature: 'nDCG|version:0' })
    const set = buildReport([recall, ndcg], { runner: 'vitest' }).evalSets[0]
    expect(set?.cases.map((c) => [c.id, c.question, Object.keys(c.values).length, c.failing])).toEqual([
      ['q1', 'question q1', 2, []],
      ['q2', 'question q2', 2, ['mean R@3', 'mean nDCG@3']],
    ])
  })

  it('lists the per-metric comparisons of a baseline assertion (meta.extra.metrics) as recorded', () => {
    const baseline = a({
      matcher: 'toMatchMetricBaseline',
      metric: 'baseline "qa" (recall@3, bleu)',
      value: 1,
      threshold: 1,
      comparator: '<',
      pass: false,
      outcome: false,
      setSize: 2,
      signature: '',
      extra: {
        file: '/x/__rag_baselines__/a.test.ts.json',
        metrics: [
          { metric: 'recall@3', status: 'regressed', baseline: 0.9, current: 0.6, delta: -0.3, pValue: 0.01, n: 2 },
          { metric: 'bleu', status: 'ok', baseline: 30, current: 31, delta: 1, pValue: null, n: 2 },
          { nonsense: true },
        ],
      },
    })
    const set = buildReport([setAssertion(['q1', 'q2'], [1, 0]), baseline], { runner: 'vitest' }).evalSets[0]
    expect(set?.baselines).toEqual([
      {
        assertion: 'baseline "qa" (recall@3, bleu)',
        fullName: 'set A > t',
        metric: 'recall@3',
        baseline: 0.9,
        current: 0.6,
        delta: -0.3,
        pValue: 0.01,
        status: 'regressed',
        n: 2,
      },
      { assertion: 'baseline "qa" (recall@3, bleu)', fullName: 'set A > t', metric: 'bleu', baseline: 30, current: 31, delta: 1, pValue: null, status: 'ok', n: 2 },
    ])
    expect(set?.metrics.find((m) => m.matcher === 'toMatchMetricBaseline')).toMatchObject({ aggregate: 'set-level', pass: false })
    expect(set?.pass).toBe(false)
  })

  it('strips the case count from metric labels', () => {
    expect(metricLabel('mean ROUGE-L F over 5 answers')).toBe('mean ROUGE-L F')
    expect(metricLabel('mean nDCG@3 over 1 query')).toBe('mean nDCG@3')
    expect(metricLabel('MRR')).toBe('MRR')
  })

  it('counts failed assertions', () => {
    const report = buildReport([a({ outcome: false, pass: false }), a()], { runner: 'vitest' })
    expect(report.summary).toMatchObject({ assertions: 2, passed: 1, failed: 1 })
    expect(report.singles[0]?.pass).toBe(false)
  })
})

describe('an honest verdict', () => {
  const errored = (over: Partial<ReportAssertion> = {}) =>
    a({ value: null, pass: false, outcome: false, status: 'error', error: 'case q2 (received[1]): relevant must be an array', signature: '', threshold: undefined, ...over })

  it('counts an errored assertion as failed and errored, its set does not pass, and the verdict says why', () => {
    const report = buildReport([setAssertion(['q1', 'q2'], [1, 1], { set: 'nimbus-qa' }), errored({ set: 'nimbus-qa', setSize: 2, index: 5 })], { runner: 'vitest' })
    expect(report.summary).toMatchObject({ assertions: 2, passed: 1, failed: 1, errored: 1, evalSets: 1 })
    expect(report.evalSets[0]?.pass).toBe(false)
    expect(report.evalSets[0]?.metrics.find((m) => m.errored === 1)).toMatchObject({
      pass: false,
      failedAssertions: 1,
      causes: ['case q2 (received[1]): relevant must be an array'],
    })
    expect(report.verdict).toEqual({ status: 'fail', reasons: ['1 assertion errored'] })
  })

  it('never says pass when the runner reported failed tests or files outside the rag-matchers assertions', () => {
    const run = {
      tests: 4,
      failedTests: 2,
      failedOutside: [
        { file: 'test/a.test.ts', test: 'x > y', error: 'expected 1 to be 2' },
        { file: 'test/a.test.ts', test: 'x > z' },
      ],
      fileErrors: [{ file: 'test/b.test.ts', error: 'cannot find module' }],
    }
    const report = buildReport([a()], { runner: 'jest', run })
    expect(report.summary.failed).toBe(0)
    expect(report.verdict).toEqual({ status: 'fail', reasons: ['2 tests failed outside rag-matchers assertions', '1 file or hook failed to run'] })
    expect(report.run).toEqual(run)
    // a report of a run in which nothing recorded but something failed is still a report
    expect(buildReport([], { runner: 'vitest', run }).verdict.status).toBe('fail')
    expect(buildReport([], { runner: 'vitest', run: { tests: 1, failedTests: 0, failedOutside: [], fileErrors: [] } }).verdict.status).toBe('pass')
  })

  it('takes the cause of a judge miss from extra.error, and regressed cases from a baseline assertion', () => {
    const judge = a({
      matcher: 'toBeFaithful',
      metric: 'faithfulness',
      value: null,
      pass: false,
      outcome: false,
      extra: { error: 'replay miss: no recorded verdict for key 3f2a' },
    })
    const gate = a({
      matcher: 'toMatchMetricBaseline',
      metric: 'metrics regressed vs baseline "qa"',
      value: 1,
      threshold: 1,
      comparator: '<',
      pass: false,
      outcome: false,
      setSize: 2,
      index: 9,
      extra: { regressedCases: [{ case: 'q05', metric: 'recall@3', baseline: 1, current: 0 }, { bad: true }] },
    })
    const report = buildReport([judge, gate], { runner: 'vitest' })
    expect(report.singles[0]?.assertions[0]?.extra?.error).toBe('replay miss: no recorded verdict for key 3f2a')
    expect(report.evalSets[0]?.regressedCases).toEqual([{ case: 'q05', metric: 'recall@3', baseline: 1, current: 0 }])
  })

  it("merges the runners' outcomes of the shards", () => {
    const one = buildReport([a()], { runner: 'jest', run: { tests: 1, failedTests: 1, failedOutside: [{ file: 'f', test: 't' }], fileErrors: [] } })
    const two = buildReport([a({ file: 'test/z.test.ts' })], { runner: 'jest', run: { tests: 2, failedTests: 0, failedOutside: [], fileErrors: [{ file: 'g', error: 'e' }] } })
    const merged = mergeReports([one, two])
    expect(merged.run).toEqual({ tests: 3, failedTests: 1, failedOutside: [{ file: 'f', test: 't' }], fileErrors: [{ file: 'g', error: 'e' }] })
    expect(merged.verdict.status).toBe('fail')
    // reports written before the verdict existed merge as before
    const { run: _run, verdict: _verdict, ...old } = buildReport([a()], { runner: 'jest' })
    expect(mergeReports([old]).verdict).toEqual({ status: 'pass', reasons: [] })
  })
})

describe('mergeReports', () => {
  const all = [
    setAssertion(['q1', 'q2'], [0.1, 0.7], { set: 's', file: 'test/a.test.ts' }),
    setAssertion(['q3'], [0.3], { set: 's', file: 'test/b.test.ts' }),
    setAssertion(['q4', 'q5', 'q6'], [0.2, 0.9, 0.4], { set: 's', file: 'test/c.test.ts' }),
    a({ file: 'test/b.test.ts', testIndex: 2 }),
  ]
  const shard = (files: string[]) =>
    buildReport(
      all.filter((x) => files.includes(x.file)),
      { runner: 'jest', shard: { index: 1, count: 2 } },
    )

  it('gives the unsharded numbers (union of per-case values), bit for bit', () => {
    const merged = mergeReports([shard(['test/c.test.ts']), shard(['test/a.test.ts', 'test/b.test.ts'])], { createdAt: FIXED })
    const full = buildReport(all, { runner: 'jest', createdAt: FIXED })
    expect(merged.evalSets).toEqual(full.evalSets)
    expect(merged.assertions).toEqual(full.assertions)
    expect(merged.summary).toEqual(full.summary)
    expect(merged).toMatchObject({ runner: 'merged', mergedFrom: 2 })
    expect(merged.shard).toBeUndefined()
    const sum = [0.1, 0.7, 0.3, 0.2, 0.9, 0.4].reduce((s, v) => s + v, 0)
    expect(merged.evalSets[0]?.metrics[0]?.value).toBe(sum / 6)
  })

  it('keeps an assertion present in two reports once', () => {
    const r = shard(['test/a.test.ts'])
    expect(mergeReports([r, r]).summary.assertions).toBe(r.summary.assertions)
  })

  it('refuses an empty list and reports of another schema version', () => {
    expect(() => mergeReports([])).toThrow('mergeReports: Expected `reports` to be a non-empty array')
    expect(() => mergeReports([{ schemaVersion: 99, assertions: [] }])).toThrow('mergeReports: Expected `reports[0].schemaVersion` to be 1')
    expect(() => mergeReports(['x'])).toThrow('mergeReports: Expected `reports[0]` to be a rag-report object')
  })

  it('reads files and names the one it cannot read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-merge-test-'))
    try {
      writeFileSync(join(dir, 'one.json'), JSON.stringify(shard(['test/a.test.ts'])))
      writeFileSync(join(dir, 'bad.json'), '{ not json')
      expect(mergeReportFiles([join(dir, 'one.json')]).summary.assertions).toBe(1)
      expect(() => mergeReportFiles([join(dir, 'one.json'), join(dir, 'bad.json')])).toThrow(/`files\[1\]` to be a JSON file/)
      expect(() => mergeReportFiles([join(dir, 'missing.json')])).toThrow(/`files\[0\]` to be a readable file/)
      expect(() => mergeReportFiles([])).toThrow(/non-empty array of paths/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('rag-matchers merge-reports (runMergeReportsCli)', () => {
  it('merges every rag-report.json under the folders given and writes both files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-merge-cli-'))
    try {
      const parts: RagReport[] = [
        buildReport([setAssertion(['q1'], [1], { set: 's', file: 'test/a.test.ts' })], { runner: 'jest' }),
        buildReport([setAssertion(['q2'], [0], { set: 's', file: 'test/b.test.ts' })], { runner: 'jest' }),
      ]
      parts.forEach((p, i) => {
        const shardDir = join(dir, 'shards', `shard-${i + 1}`)
        rmSync(shardDir, { recursive: true, force: true })
        mkdirSync(shardDir, { recursive: true })
        writeFileSync(join(shardDir, 'rag-report.json'), JSON.stringify(p))
      })
      const logs: string[] = []
      const errors: string[] = []
      const code = runMergeReportsCli(['--output-dir', 'out', 'shards'], { log: (t) => logs.push(t), error: (t) => errors.push(t), cwd: dir })
      expect(errors).toEqual([])
      expect(code).toBe(0)
      const merged = JSON.parse(readFileSync(join(dir, 'out', 'rag-report.json'), 'utf8')) as RagReport
      expect(merged.evalSets[0]?.metrics[0]).toMatchObject({ value: 0.5, n: 2 })
      expect(logs.join('\n')).toContain('merged 2 reports')
      expect(logs.join('\n')).toContain(join(dir, 'out', 'rag-report.html'))

      const none: string[] = []
      expect(runMergeReportsCli(['empty-folder-that-does-not-exist'], { log: () => {}, error: (t) => none.push(t), cwd: dir })).toBe(2)
      expect(none.join('')).toMatch(/readable file/)
      expect(runMergeReportsCli(['--bogus'], { log: () => {}, error: (t) => none.push(t), cwd: dir })).toBe(1)
      expect(runMergeReportsCli(['--output-dir'], { log: () => {}, error: (t) => none.push(t), cwd: dir })).toBe(1)
      expect(runMergeReportsCli([], { log: () => {}, error: (t) => none.push(t), cwd: dir })).toBe(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('merge-reports as a rag-matchers CLI command (run(argv, io))', () => {
  it('writes to the io streams and returns the exit code', async () => {
    const out: string[] = []
    const err: string[] = []
    const io = { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } }
    expect(await runMergeCommand(['--help'], io)).toBe(0)
    expect(out.join('')).toBe(`${MERGE_USAGE}\n`)
    expect(await runMergeCommand(['--nope'], io)).toBe(1)
    expect(err.join('')).toContain('unknown option --nope')
  })
})

describe('collecting records', () => {
  const rec = (over: Partial<RecordedAssertion>): RecordedAssertion => ({
    v: 1,
    matcher: 'toHitWithin',
    metric: 'HitRate@3',
    value: 1,
    threshold: 1,
    comparator: '>=',
    pass: true,
    signature: 'Hit|version:0',
    isNot: false,
    outcome: true,
    ...over,
  })

  it('Vitest: reads testCase.meta(), keeps the last retry of each repeat, relative file paths', () => {
    const test = (name: string, records: RecordedAssertion[], parent: unknown) => ({ name, fullName: `S > ${name}`, parent, meta: () => ({ ragMatchers: records }) })
    const module = { type: 'module' }
    const suite = { type: 'suite', name: 'S', parent: module }
    const testModule = {
      moduleId: '/project/test/x.test.ts',
      children: {
        *allTests() {
          yield test('flaky', [rec({ attempt: 0, outcome: false }), rec({ attempt: 1, metric: 'second try' })], suite)
          yield test('plain', [], suite)
          yield test('other', [rec({ metric: 'm1' }), { not: 'a record' } as never, rec({ metric: 'm2' })], suite)
        },
      },
    }
    const out = collectVitestAssertions([testModule as never], '/project')
    expect(out.map((x) => [x.file, x.describe, x.test, x.testIndex, x.index, x.metric])).toEqual([
      ['test/x.test.ts', ['S'], 'flaky', 0, 0, 'second try'],
      ['test/x.test.ts', ['S'], 'other', 2, 0, 'm1'],
      ['test/x.test.ts', ['S'], 'other', 2, 1, 'm2'],
    ])
  })

  it('Jest: matches channel lines to test results by full name, in worker order', () => {
    const results = {
      testResults: [
        {
          testFilePath: '/project/test/y.test.ts',
          testResults: [
            { fullName: 'D first', title: 'first', ancestorTitles: ['D'] },
            { fullName: 'D second', title: 'second', ancestorTitles: ['D'] },
          ],
        },
      ],
    }
    const lines = [
      rec({ metric: 'b', seq: 5, pid: 1, test: { fullName: 'D second', file: '/project/test/y.test.ts' } }),
      rec({ metric: 'a', seq: 4, pid: 1, test: { fullName: 'D first', file: '/project/test/y.test.ts' } }),
      rec({ metric: 'c', seq: 6, pid: 1, test: { fullName: 'D second', file: '/project/test/y.test.ts' } }),
      rec({ metric: 'hook', seq: 7, pid: 1, test: { file: '/project/test/y.test.ts' } }),
    ]
    const out = collectJestAssertions(lines, results, '/project')
    expect(out.map((x) => [x.file, x.describe, x.test, x.fullName, x.testIndex, x.index, x.metric])).toEqual([
      ['test/y.test.ts', ['D'], 'first', 'D > first', 0, 0, 'a'],
      ['test/y.test.ts', ['D'], 'second', 'D > second', 1, 0, 'b'],
      ['test/y.test.ts', ['D'], 'second', 'D > second', 1, 1, 'c'],
      ['test/y.test.ts', [], '(outside a test)', '(outside a test)', 2, 0, 'hook'],
    ])
  })
})

describe('reporter options', () => {
  it('refuse a bad outputDir or table option, naming it', () => {
    expect(() => new RagMatchersReporter({ outputDir: '' })).toThrow('RagMatchersReporter: Expected `options.outputDir` to be a non-empty path string, got `""` (string)')
    expect(() => new RagMatchersReporter({ table: 'yes' } as never)).toThrow('RagMatchersReporter: Expected `options.table` to be a boolean')
    expect(() => new RagMatchersJestReporter({ rootDir: '/x' }, 'dir' as never)).toThrow('RagMatchersJestReporter: Expected `options` to be an object')
  })
})
