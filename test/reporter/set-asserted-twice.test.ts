// Issue #13: a set asserted by several tests is one set in the report, its cases once each, and the
// report names the tests that asserted it. Built from real matcher records (toRecord), as the runners do.
import { toRecord } from '../../src/report/record.js'
import { buildReport, fromRecord, type ReportAssertion } from '../../src/report/model.js'
import { renderHtml } from '../../src/report/html.js'
import { renderTable } from '../../src/report/table.js'
import { allMatchers } from '../../matchers/all.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'

const ctx: MatcherContext = {
  isNot: false,
  utils: { matcherHint: (name) => name, printReceived: String, printExpected: String },
}

/** Runs a matcher and returns its report assertion, as a reporter would see it from test `test` (position `testIndex`). */
function asserted(matcher: keyof typeof allMatchers, received: unknown, args: unknown[], test: string, testIndex: number): ReportAssertion {
  const result = allMatchers[matcher].call(ctx, received, ...args) as MatcherResult
  const record = toRecord(ctx, matcher, received, result.pass, result.meta!)
  return fromRecord(record, { file: 'test/qa.test.ts', describe: ['qa'], test, fullName: `qa > ${test}`, testIndex, index: 1 })
}

// No ids and no questions: the report can only label the cases #1, #2, #3.
const idless = [
  { retrieved: ['a', 'b'], relevant: ['a'] },
  { retrieved: ['c', 'a'], relevant: ['a'] },
  { retrieved: ['x'], relevant: ['a'] },
]
const withIds = [
  { id: 'q1', answer: 'the cat sat', reference: 'the cat sat' },
  { id: 'q2', answer: 'a dog ran', reference: 'the cat sat' },
  { id: 'q3', answer: 'the cat ran', reference: 'the cat sat' },
]

describe('a set asserted by two tests', () => {
  it('is one set of 3 cases (not 6) when its cases have no ids', () => {
    const report = buildReport([asserted('toHaveRecallAtK', idless, [2, 0.5], 'recall', 0), asserted('toHaveMrrAbove', idless, [0.3], 'mrr', 1)], { runner: 'vitest' })
    expect(report.evalSets).toHaveLength(1)
    const set = report.evalSets[0]!
    expect(set.cases.map((c) => c.id)).toEqual(['#1', '#2', '#3'])
    expect(set.tests).toEqual(['qa > recall', 'qa > mrr'])
    expect(set.metrics.map((m) => m.n)).toEqual([3, 3])
    // The JSON lists each case once, with its value in both metric rows.
    const json = JSON.parse(JSON.stringify(report)) as typeof report
    expect(json.evalSets[0]!.cases).toHaveLength(3)
    expect(Object.keys(json.evalSets[0]!.cases[1]!.values)).toHaveLength(2)
  })
  it('is one set when its cases have ids, and the table and HTML name both tests', () => {
    const report = buildReport([asserted('toScoreRougeAbove', withIds, [0.2], 'rouge', 0), asserted('toScoreRougeAbove', withIds, [0.2], 'rouge again', 1)], {
      runner: 'vitest',
    })
    expect(report.evalSets[0]!.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3'])
    expect(report.evalSets[0]!.metrics[0]).toMatchObject({ n: 3, assertions: 2 })
    expect(renderTable(report)).toContain('asserted by 2 tests: qa > rouge, qa > rouge again')
    expect(renderTable(report)).toContain('3 cases')
    expect(renderHtml(report)).toContain('asserted by 2 tests: qa &gt; rouge · qa &gt; rouge again')
  })
  it('keeps two different id-less sets of one describe block apart', () => {
    const other = idless.map((c) => ({ ...c, retrieved: [...c.retrieved, 'z'] }))
    const report = buildReport([asserted('toHaveRecallAtK', idless, [2, 0.5], 'first set', 0), asserted('toHaveRecallAtK', other, [2, 0.5], 'second set', 1)], {
      runner: 'vitest',
    })
    expect(report.evalSets[0]!.cases).toHaveLength(6)
  })
})
