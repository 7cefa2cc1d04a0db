// Latency, tokens and cost in the report (issue #31): per-case `timing.ms` and `usage` captured in the
// recorded case texts, the set's measured rows (latency_p50/p95/max_ms, tokens_total, cost_total from the
// budget matcher's price table) in the terminal table, Markdown, HTML and JSON, and in the history store as
// metric rows (a real SQLite file) with direction `lower`.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toStayWithinBudget } from '../../matchers/agent-budget.js'
import { HistoryStore } from '../../src/history/store.js'
import { renderHtml } from '../../src/report/html.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { buildReport, fromRecord, type ReportAssertion } from '../../src/report/model.js'
import { performanceRows } from '../../src/report/performance.js'
import { toRecord, type AssertionMeta } from '../../src/report/record.js'
import { renderTable } from '../../src/report/table.js'
import { matcherContext } from '../helpers/matcher-context.js'

const cases = [
  {
    id: 'q1',
    question: 'A?',
    timing: { ms: 120 },
    usage: [
      { inputTokens: 900, outputTokens: 100, model: 'm' },
      { totalTokens: 50, inputTokens: 40, outputTokens: 10, model: 'm' },
    ],
  },
  { id: 'q2', question: 'B?', timing: { ms: 80 }, usage: { inputTokens: 300, outputTokens: 20, model: 'm' } },
  { id: 'q3', question: 'C?', timing: { ms: 400 }, usage: { inputTokens: 1, model: 'm' } }, // no output count: its tokens are unknown
  { id: 'q4', question: 'D?', timing: { ms: 200 } },
]
const prices = { m: { inputPerMillion: 2, outputPerMillion: 8 } }

const where = (index: number) => ({ file: 'test/agent.test.ts', describe: ['agent'], test: 't', fullName: 'agent > t', testIndex: 0, index })

function budgetAssertion(received: unknown, limits: Parameters<typeof toStayWithinBudget>[1], index: number): ReportAssertion {
  const ctx = matcherContext(false)
  const result = toStayWithinBudget.call(ctx, received, limits)
  return fromRecord(toRecord(ctx, 'toStayWithinBudget', received, result.pass, result.meta as AssertionMeta), where(index))
}

describe('latency, tokens and cost of an eval set', () => {
  it('records each case’s ms and tokens (only when every usage entry reports them)', () => {
    const record = toRecord({ isNot: false }, 'toStayWithinBudget', cases, true, { matcher: 'x', metric: 'm', value: 1, comparator: '<=', pass: true, signature: 's' })
    expect(record.cases?.map((c) => [c.id, c.ms, c.tokens])).toEqual([
      ['q1', 120, 1050],
      ['q2', 80, 320],
      ['q3', 400, undefined],
      ['q4', 200, undefined],
    ])
  })

  it('gives the set measured rows: type-7 latency quantiles, total tokens, and the cost the budget priced', () => {
    const priced = cases.slice(0, 2)
    const report = buildReport([budgetAssertion(priced, { maxMs: 1000, prices }, 1), budgetAssertion(cases, { p95Ms: 1000 }, 2)], { runner: 'vitest' })
    const rows = report.evalSets[0]?.metrics.filter((m) => m.matcher === 'measured') ?? []
    // ms 80, 120, 200, 400: p50 = 120 + 0.5 · 80 = 160; p95: h = 2.85, 200 + 0.85 · 200 = 370
    // cost: q1 (940 · 2 + 110 · 8) / 10⁶ = 0.00276, q2 (300 · 2 + 20 · 8) / 10⁶ = 0.00076
    expect(rows.map((r) => [r.metric, r.value, r.n, r.comparator, r.assertions, r.pass])).toEqual([
      ['latency_p50_ms', 160, 4, '<=', 0, true],
      ['latency_p95_ms', expect.closeTo(370, 9), 4, '<=', 0, true],
      ['latency_max_ms', 400, 4, '<=', 0, true],
      ['tokens_total', 1370, 2, '<=', 0, true],
      ['cost_total', expect.closeTo(0.00352, 12), 2, '<=', 0, true],
    ])
    expect(rows[1]?.signature).toMatch(/^Latency\|stat:p95\|pct:type7\|unit:ms\|version:/)
    expect(report.evalSets[0]?.pass).toBe(true)

    const table = renderTable(report)
    expect(table).toMatch(/latency_p95_ms\s+370\.0\s+—\s+4\s+measured/)
    expect(table).toMatch(/tokens_total\s+1370\s+—\s+2\s+measured/)
    expect(table).toMatch(/cost_total\s+0\.003520\s+—\s+2\s+measured/)
    expect(renderMarkdown(report)).toContain('| latency_max_ms | 400.0 | — | — | — | measured |')
    expect(renderHtml(report)).toContain('latency_p50_ms')
    expect(JSON.parse(JSON.stringify(report)).evalSets[0].metrics.map((m: { metric: string }) => m.metric)).toContain('cost_total')
  })

  it('has no measured rows for a set without timing, usage or a price table', () => {
    expect(performanceRows([{}, {}], [])).toEqual([])
  })

  it('prices the run whenever the budget matcher is given prices, and refuses a model missing from them', () => {
    const ctx = matcherContext(false)
    expect(toStayWithinBudget.call(ctx, cases.slice(0, 2), { maxMs: 1000, prices }).meta?.extra).toEqual({ totalCost: expect.closeTo(0.00352, 12) })
    expect(toStayWithinBudget.call(ctx, cases.slice(0, 2), { maxMs: 1000 }).meta?.extra).toBeUndefined()
    expect(() => toStayWithinBudget.call(ctx, cases.slice(0, 2), { maxMs: 1000, prices: { other: prices.m } })).toThrow(/the price of model "m", which case q1 used/)
  })

  it('stores the measured rows in the history store as metric rows, lower is better', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-perf-'))
    try {
      const store = await HistoryStore.open({ kind: 'sqlite', path: join(dir, 'history.sqlite') }, { root: dir, write: true })
      const runs = [100, 300]
      for (const [i, ms] of runs.entries()) {
        const run = cases.slice(0, 2).map((c) => ({ ...c, timing: { ms: ms + i } }))
        const report = buildReport([budgetAssertion({ name: 'agent', cases: run }, { maxMs: 1000, prices }, 1)], {
          runner: 'vitest',
          createdAt: new Date(Date.UTC(2026, 0, i + 1)),
        })
        await store.append(report, { source: 'import' })
        expect(await store.readRun('last')).toEqual(report)
      }
      const series = await store.metricSeries('agent', 'latency_p95_ms')
      expect(series.points.map((p) => [p.value, p.direction])).toEqual([
        [100, 'lower'],
        [301, 'lower'],
      ])
      expect(series.points[1]?.status).toBe('regressed')
      expect((await store.metricSeries('agent', 'cost_total')).points.map((p) => p.value)).toEqual([expect.closeTo(0.00352, 12), expect.closeTo(0.00352, 12)])
      await store.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
