// Judge token usage (`meta.extra.usage`, recorded by the judge matchers) summed per metric row and per run, and shown.
import { buildReport, type ReportAssertion } from '../../src/report/model.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { renderHtml } from '../../src/report/html.js'
import { renderTable } from '../../src/report/table.js'
import { assertionMaker } from './assertions.js'

const a = assertionMaker({ describe: ['judged'], test: 't', fullName: 'judged > t' })
const judged = (usage: unknown, over: Partial<ReportAssertion> = {}): ReportAssertion =>
  a({ matcher: 'toBeGroundedIn', metric: 'groundedness', value: 1, threshold: 0.8, extra: { usage }, ...over })

describe('judge usage in the report', () => {
  it('sums every assertion that reported tokens, per row and for the run', () => {
    const report = buildReport(
      [
        judged({ promptTokens: 420, completionTokens: 40, calls: 2 }),
        judged({ promptTokens: 420, completionTokens: 40, calls: 2, cached: { promptTokens: 9, completionTokens: 9, calls: 1 } }),
        a({ value: 1 }),
      ],
      { runner: 'vitest' },
    )
    expect(report.summary.judgeUsage).toEqual({ promptTokens: 840, completionTokens: 80, calls: 4 })
    const text = renderTable(report)
    expect(text).toContain('judge tokens: 840 prompt + 80 completion in 4 model requests')
    expect(renderMarkdown(report)).toContain('judge tokens: 840 prompt + 80 completion in 4 model requests')
    expect(renderHtml(report)).toContain('judge tokens: 840 prompt + 80 completion in 4 model requests')
  })

  it('has no usage when no assertion reported any, and skips malformed entries', () => {
    const none = buildReport([a({ value: 1 })], { runner: 'jest' })
    expect(none.summary.judgeUsage).toBeUndefined()
    expect(renderTable(none)).not.toContain('judge tokens')
    const bad = buildReport([judged({ promptTokens: -1, completionTokens: 2, calls: 1 }), judged('many'), judged({ promptTokens: 1.5, completionTokens: 0, calls: 1 })], {
      runner: 'jest',
    })
    expect(bad.summary.judgeUsage).toBeUndefined()
  })
})
