// Runs under Vitest AND Jest (globals only): cases read from an OTLP/HTTP JSON trace export
// (test/fixtures/otel/agent-traces.otlp.json, two traces) asserted with the agent, retrieval and budget
// matchers, with and without .not.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fromOtlpJsonTraces } from '../../src/adapters/otel-trace.js'
import { failureOf } from '../helpers/failure.js'

const traces = fromOtlpJsonTraces(readFileSync(join(__dirname, '..', 'fixtures', 'otel', 'agent-traces.otlp.json'), 'utf8'))
const [first, second] = traces.map((t, i) => ({ id: `t${i + 1}`, ...t, relevant: ['attention-p2', 'architecture-p2'], expectedToolCalls: [{ name: 'search' }] }))
const prices = { 'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 }, 'gpt-4o-mini-2024-07-18': { inputPerMillion: 0.15, outputPerMillion: 0.6 } }

describe('cases read from an OTLP JSON trace export', () => {
  it('tool calls: the execute_tool span with its arguments', () => {
    expect(first).toCallTool({ name: 'search', args: { query: 'attention heads' } })
    expect(first).not.toCallTool({ name: 'search', args: { query: 'model dimension' } })
    expect(second).toCallNoTools()
    expect([first, second]).not.toHaveToolCallF1(0.75) // t2 made no call: F1 0, the mean 0.5
    expect([first, second]).toHaveToolCallF1(0.5)
  })
  it('retrieval: the retriever spans as steps', () => {
    expect(first).toHaveRecallAtK(2, 0.5) // attention-p4, attention-p2
    expect(second).toHaveMrrAbove(1)
    expect(first).not.toHaveMrrAbove(0.75) // RR 0.5
  })
  it('latency and usage: span durations and token counts under a budget', () => {
    expect([first, second]).toStayWithinBudget({ maxMs: 1250, totalTokens: 1443, prices })
    expect([first, second]).not.toStayWithinBudget({ p50Ms: 900 }) // 600 and 1250 ms: p50 925
    expect(failureOf(() => expect([first, second]).toStayWithinBudget({ maxMs: 1000 }))).toMatch(/max latency \(ms\)\s+1250\.0\s+> 1000\.0\s+OVER\s+case t1/)
  })
})
