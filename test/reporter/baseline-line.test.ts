// The chart's baseline line (docs/reporter.md): a metric row gets the baseline mean of the set's baseline
// comparison computed with the same settings, and never one computed with other settings.
import { buildReport, type ReportAssertion } from '../../src/report/model.js'
import { renderHtml } from '../../src/report/html.js'
import { assertionMaker } from './assertions.js'

const a = assertionMaker({ describe: ['qa'], test: 't', fullName: 'qa > t' })
const ids = ['q1', 'q2', 'q3']

function recallRow(signature: string): ReportAssertion {
  return a({
    matcher: 'toHaveRecallAtK',
    metric: 'mean R@3',
    value: 2 / 3,
    threshold: 0.5,
    signature,
    perCase: ids.map((id, i) => ({ id, value: i === 0 ? 0 : 1, pass: i !== 0 })),
    setSize: 3,
    cases: ids.map((id) => ({ id })),
  })
}

function baselineAssertion(signature: string): ReportAssertion {
  return a({
    matcher: 'toMatchMetricBaseline',
    metric: 'baseline "qa" (recall@3)',
    value: 0,
    perCase: ids.map((id) => ({ id, value: 1, pass: true })),
    setSize: 3,
    extra: { metrics: [{ metric: 'mean recall@3', baseline: 1, current: 2 / 3, delta: -1 / 3, status: 'dropped (not significant)', signature }] },
  })
}

describe('the baseline line', () => {
  it('comes from the baseline metric with the same settings, versions aside', () => {
    const report = buildReport([recallRow('R|k:3|empty:zero|dup:first|order:given|version:0.1.0'), baselineAssertion('R|k:3|empty:zero|dup:first|order:given|rev:1')], {
      runner: 'vitest',
    })
    const row = report.evalSets[0]?.metrics.find((m) => m.matcher === 'toHaveRecallAtK')
    expect(row?.baseline?.mean).toBe(1)
    expect(row?.baseline?.delta).toBeCloseTo(-1 / 3, 12)
    const html = renderHtml(report)
    expect(html).toContain('class="baseline"')
    expect(html).toContain('baseline mean 1.0000')
  })

  it('is not drawn from a baseline computed with other settings', () => {
    const report = buildReport([recallRow('R|k:3|empty:zero|dup:first|order:score|version:0.1.0'), baselineAssertion('R|k:3|empty:zero|dup:first|order:given|rev:1')], {
      runner: 'vitest',
    })
    const row = report.evalSets[0]?.metrics.find((m) => m.matcher === 'toHaveRecallAtK')
    expect(row?.baseline).toBeUndefined()
    expect(renderHtml(report)).not.toContain('class="baseline"')
  })
})
