// The trace reader against the real OpenTelemetry SDK: spans made by a BasicTracerProvider and collected by
// InMemorySpanExporter (fixed start and end times, so durations are exact), and an OTLP/HTTP JSON export
// fixture (test/fixtures/otel/agent-traces.otlp.json, two traces in the OTLP/JSON encoding: int64 as
// strings, attributes as key/AnyValue). Vitest only.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { context, trace, type Attributes, type Span } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { describe, expect, it } from 'vitest'
import { fromOtelSpans, fromOtelTraces, fromOtlpJson, fromOtlpJsonTraces } from '../../../src/adapters/otel-trace.js'
import { MetricInputError } from '../../../src/errors.js'

const T0 = 1_764_936_000_000 // ms since the epoch

function tracing() {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const tracer = provider.getTracer('rag-matchers-test')
  /** A span from `start` to `end` ms after T0, under `parent`. */
  const span = (name: string, start: number, end: number, attributes: Attributes, parent?: Span): Span => {
    const ctx = parent === undefined ? context.active() : trace.setSpan(context.active(), parent)
    const s = tracer.startSpan(name, { startTime: T0 + start, attributes }, ctx)
    s.end(T0 + end)
    return s
  }
  /** A parent that ends after its children were made. */
  const open = (name: string, start: number, attributes: Attributes, parent?: Span): Span => {
    const ctx = parent === undefined ? context.active() : trace.setSpan(context.active(), parent)
    return tracer.startSpan(name, { startTime: T0 + start, attributes }, ctx)
  }
  /** A parent in another process (a propagated context): its spans share its trace, the parent is not among them. */
  const remote = trace.wrapSpanContext({ traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 1, isRemote: true })
  return { exporter, span, open, remote }
}

const chat = (model: string, input: number, output: number): Attributes => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.request.model': model,
  'gen_ai.usage.input_tokens': input,
  'gen_ai.usage.output_tokens': output,
})
const tool = (name: string, args: string, id: string): Attributes => ({
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': name,
  'gen_ai.tool.call.arguments': args,
  'gen_ai.tool.call.id': id,
})

describe('fromOtelSpans (BasicTracerProvider + InMemorySpanExporter)', () => {
  it('reads an agent trace: model calls as usage, tool executions as calls with their step, retriever spans as steps, the root span as latency', () => {
    const { exporter, span, open } = tracing()
    const agent = open('invoke_agent qa', 0, { 'gen_ai.operation.name': 'invoke_agent' })
    span('chat small', 5, 300, { ...chat('small', 400, 30), 'gen_ai.response.model': 'small-2026-01' }, agent)
    // two tools for the same model message: both answer model call 0
    const t1 = open('execute_tool search', 310, tool('search', '{"query":"attention heads"}', 'c1'), agent)
    span(
      'retrieve',
      312,
      330,
      {
        'openinference.span.kind': 'RETRIEVER',
        'input.value': 'attention heads',
        'retrieval.documents.0.document.id': 'attention-p4',
        'retrieval.documents.0.document.score': 7.25,
        'retrieval.documents.1.document.id': 'attention-p2',
      },
      t1,
    )
    t1.end(T0 + 340)
    span('execute_tool lookup', 311, 320, tool('lookup', '{"id":7}', 'c2'), agent)
    span('chat small', 350, 900, chat('small', 700, 40), agent)
    span('execute_tool search', 905, 990, tool('search', '{"query":"model dimension"}', 'c3'), agent)
    span(
      'retrieval',
      910,
      980,
      {
        'gen_ai.operation.name': 'retrieval',
        'gen_ai.retrieval.query.text': 'model dimension',
        'gen_ai.retrieval.documents': JSON.stringify([{ id: 'architecture-p2', score: 0.9 }]),
      },
      agent,
    )
    span('chat small', 1000, 1400, chat('small', 900, 20), agent)
    span('POST /v1/chat', 1000, 1390, { 'http.request.method': 'POST' }, agent) // not a GenAI span: ignored
    agent.end(T0 + 1500)

    const out = fromOtelSpans(exporter.getFinishedSpans())
    expect(out.traceId).toBe(agent.spanContext().traceId)
    expect(out.toolCalls).toEqual([
      { name: 'search', args: { query: 'attention heads' }, step: 0, id: 'c1' },
      { name: 'lookup', args: { id: 7 }, step: 0, id: 'c2' },
      { name: 'search', args: { query: 'model dimension' }, step: 1, id: 'c3' },
    ])
    expect(out.usage).toEqual([
      { inputTokens: 400, outputTokens: 30, model: 'small-2026-01' },
      { inputTokens: 700, outputTokens: 40, model: 'small' },
      { inputTokens: 900, outputTokens: 20, model: 'small' },
    ])
    expect(out.steps).toEqual([
      { query: 'attention heads', retrieved: [{ id: 'attention-p4', score: 7.25 }, 'attention-p2'] },
      { query: 'model dimension', retrieved: [{ id: 'architecture-p2', score: 0.9 }] },
    ])
    expect(out.timing).toEqual({ ms: 1500 })

    // The output is a case the agent and retrieval matchers take as it is.
    const agentCase = { id: 'q1', ...out, relevant: ['attention-p2', 'architecture-p2'], expectedToolCalls: [{ name: 'search' }, { name: 'lookup' }, { name: 'search' }] }
    expect(agentCase).toCallTool({ name: 'search', args: { query: 'model dimension' } })
    expect(agentCase).toCallTools(['search', 'lookup', 'search'], { order: 'exact' }) // calls of step 0 in any order
    expect(agentCase).toCallTools(['lookup', 'search', 'search'], { order: 'exact' })
    expect(agentCase).toHaveRecallAtK(3, 1) // union: attention-p4, attention-p2, architecture-p2
    expect(agentCase).not.toHaveMrrAbove(1)
    expect(agentCase).toHaveMrrAbove(1, { steps: 'last' })
    expect([{ ...agentCase, timing: out.timing }]).toStayWithinBudget({ maxMs: 1500, totalTokens: 2090 })
    expect([{ ...agentCase, timing: out.timing }]).not.toStayWithinBudget({ maxMs: 1499 })
  })

  it('reads OpenInference LLM and TOOL spans; a trace without retrievals has no steps', () => {
    const { exporter, span, remote } = tracing()
    span(
      'llm',
      0,
      100,
      { 'openinference.span.kind': 'LLM', 'llm.model_name': 'gpt-x', 'llm.token_count.prompt': 50, 'llm.token_count.completion': 5, 'llm.token_count.total': 55 },
      remote,
    )
    span('tool', 120, 130, { 'openinference.span.kind': 'TOOL', 'tool.name': 'calculator', 'input.value': '{"expression":"2+2"}' }, remote)
    const out = fromOtelSpans(exporter.getFinishedSpans())
    expect(out.toolCalls).toEqual([{ name: 'calculator', args: { expression: '2+2' }, step: 0 }])
    expect(out.usage).toEqual([{ inputTokens: 50, outputTokens: 5, totalTokens: 55, model: 'gpt-x' }])
    expect(out).not.toHaveProperty('steps')
    // two roots (their parent is remote): from the first start to the last end
    expect(out.timing).toEqual({ ms: 130 })
  })

  it('keeps a tool run before any model call without a step, and arguments the model sent unparseable as an invalid call', () => {
    const { exporter, span, remote } = tracing()
    span('execute_tool warmup', 0, 5, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'warmup' }, remote)
    span('chat', 10, 20, chat('m', 1, 1), remote)
    span('execute_tool search', 30, 40, tool('search', '{"query":', 'c9'), remote)
    expect(fromOtelSpans(exporter.getFinishedSpans()).toolCalls).toEqual([
      { name: 'warmup', args: {} },
      { name: 'search', args: {}, step: 0, id: 'c9', invalid: true, rawArgs: '{"query":' },
    ])
  })

  it('splits spans of several traces with fromOtelTraces, or picks one by traceId', () => {
    const { exporter, span } = tracing()
    const a = span('chat', 0, 10, chat('m', 10, 1))
    const b = span('chat', 20, 50, chat('m', 20, 2))
    const spans = exporter.getFinishedSpans()
    const all = fromOtelTraces(spans)
    expect(all.map((t) => [t.traceId, t.usage[0]?.inputTokens, t.timing.ms])).toEqual([
      [a.spanContext().traceId, 10, 10],
      [b.spanContext().traceId, 20, 30],
    ])
    expect(fromOtelSpans(spans, { traceId: b.spanContext().traceId }).usage).toEqual([{ inputTokens: 20, outputTokens: 2, model: 'm' }])
    expect(() => fromOtelSpans(spans)).toThrow(/fromOtelSpans: Expected `spans` to be the spans of one trace \(these hold 2: .*pass options\.traceId/)
    expect(() => fromOtelSpans(spans, { traceId: 'nope' })).toThrow(/Expected `options.traceId` to be the id of a trace in the spans/)
  })

  it('refuses spans with missing attributes, naming the span (name and span id)', () => {
    const { exporter, span } = tracing()
    const noName = span('execute_tool ?', 0, 5, { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.call.arguments': '{}' })
    const id = noName.spanContext().spanId
    expect(() => fromOtelSpans(exporter.getFinishedSpans())).toThrow(
      `fromOtelSpans: Expected \`span "execute_tool ?" (span id ${id}).attributes["gen_ai.tool.name"]\` to be the tool name (a non-empty string), got \`undefined\``,
    )

    const usage = tracing()
    const bare = usage.span('chat m', 0, 5, { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm' })
    expect(() => fromOtelSpans(usage.exporter.getFinishedSpans())).toThrow(
      new RegExp(`span "chat m" \\(span id ${bare.spanContext().spanId}\\)\\.attributes\` to be the token counts of a model call`),
    )
    expect(fromOtelSpans(usage.exporter.getFinishedSpans(), { missingUsage: 'skip' }).usage).toEqual([])
    expect(() => fromOtelSpans(usage.exporter.getFinishedSpans(), { missingUsage: 'drop' as never })).toThrow("Expected `options.missingUsage` to be 'error' or 'skip'")

    const gap = tracing()
    gap.span('retrieve', 0, 5, { 'openinference.span.kind': 'RETRIEVER', 'retrieval.documents.0.document.id': 'a', 'retrieval.documents.2.document.id': 'c' })
    expect(() => fromOtelSpans(gap.exporter.getFinishedSpans())).toThrow(/attributes\["retrieval\.documents\.1\.document\.id"\]` to be the id of document 1/)

    const noDocs = tracing()
    noDocs.span('retrieval', 0, 5, { 'gen_ai.operation.name': 'retrieval', 'gen_ai.retrieval.query.text': 'q' })
    expect(() => fromOtelSpans(noDocs.exporter.getFinishedSpans())).toThrow(/attributes\["gen_ai\.retrieval\.documents"\]` to be the retrieved documents .*opt-in/)

    const badCount = tracing()
    badCount.span('chat', 0, 5, { ...chat('m', 1, 1), 'gen_ai.usage.input_tokens': -3 })
    expect(() => fromOtelSpans(badCount.exporter.getFinishedSpans())).toThrow(/attributes\["gen_ai\.usage\.input_tokens"\]` to be a token count/)

    const badOp = tracing()
    badOp.span('x', 0, 5, { 'gen_ai.operation.name': 3 })
    expect(() => fromOtelSpans(badOp.exporter.getFinishedSpans())).toThrow(MetricInputError)
  })

  it('refuses what is not a list of finished spans', () => {
    expect(() => fromOtelSpans({} as never)).toThrow('fromOtelSpans: Expected `spans` to be an array of finished spans')
    expect(() => fromOtelSpans([{ name: 'x' }] as never)).toThrow('Expected `spans[0].spanContext` to be a function (a ReadableSpan)')
    const { exporter, open } = tracing()
    open('never ended', 0, {})
    expect(exporter.getFinishedSpans()).toEqual([])
  })
})

describe('fromOtlpJson (OTLP/HTTP JSON export)', () => {
  const text = readFileSync(join(__dirname, '..', '..', 'fixtures', 'otel', 'agent-traces.otlp.json'), 'utf8')

  it('reads each trace of the file: int64 as strings or numbers, OpenInference and GenAI retrievals', () => {
    const [first, second] = fromOtlpJsonTraces(text)
    expect(first).toEqual({
      traceId: '5b8efff798038103d269b633813fc60c',
      toolCalls: [{ name: 'search', args: { query: 'attention heads' }, step: 0, id: 'call_1' }],
      usage: [
        { inputTokens: 412, outputTokens: 23, model: 'gpt-4o-mini-2024-07-18' },
        { inputTokens: 655, outputTokens: 41, model: 'gpt-4o-mini' },
      ],
      steps: [
        {
          query: 'attention heads',
          retrieved: [
            { id: 'attention-p4', score: 7.25 },
            { id: 'attention-p2', score: 5.5 },
          ],
        },
      ],
      timing: { ms: 1250 },
    })
    expect(second).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      toolCalls: [],
      usage: [{ inputTokens: 300, outputTokens: 12, model: 'gpt-4o-mini' }],
      steps: [
        {
          query: 'model dimension',
          retrieved: [
            { id: 'architecture-p2', score: 0.91 },
            { id: 'training-p1', score: 0.42 },
          ],
        },
      ],
      timing: { ms: 600 },
    })
    expect(fromOtlpJson(JSON.parse(text) as never, { traceId: '0af7651916cd43dd8448eb211c80319c' })).toEqual(second)
  })

  it('prices the file with the budget matcher, and names the model missing from the table', () => {
    const cases = fromOtlpJsonTraces(text).map((t) => ({ id: t.traceId.slice(0, 6), ...t }))
    const prices = { 'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 }, 'gpt-4o-mini-2024-07-18': { inputPerMillion: 0.15, outputPerMillion: 0.6 } }
    expect(cases).toStayWithinBudget({ p95Ms: 1250, totalTokens: 1443, totalCost: 0.001, prices })
    expect(cases).not.toStayWithinBudget({ totalTokens: 1442 })
    expect(() => expect(cases).toStayWithinBudget({ totalCost: 1, prices: { 'gpt-4o-mini': prices['gpt-4o-mini'] } })).toThrow(
      /the price of model "gpt-4o-mini-2024-07-18", which case 5b8eff used/,
    )
  })

  it('refuses a file that is not an OTLP trace export, naming the span', () => {
    expect(() => fromOtlpJson('{"resourceSpans": [')).toThrow(/fromOtlpJson: Expected `document` to be OTLP JSON text/)
    expect(() => fromOtlpJson({} as never)).toThrow('Expected `document.resourceSpans` to be an array of `{ scopeSpans }`')
    const doc = JSON.parse(text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }> }
    const span = doc.resourceSpans[0]!.scopeSpans[0]!.spans[2]!
    span.attributes = (span.attributes as Array<{ key: string }>).filter((a) => a.key !== 'gen_ai.tool.name')
    expect(() => fromOtlpJsonTraces(doc as never)).toThrow(
      'fromOtlpJsonTraces: Expected `span "execute_tool search" (span id eee19b7ec3c1b176).attributes["gen_ai.tool.name"]` to be the tool name (a non-empty string), got `undefined`',
    )
    span.endTimeUnixNano = '0'
    expect(() => fromOtlpJsonTraces(doc as never)).toThrow(
      /Expected `resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[2\] \(span "execute_tool search" \(span id eee19b7ec3c1b176\)\) end time` to be at or after its start time/,
    )
    span.startTimeUnixNano = 1.5
    expect(() => fromOtlpJsonTraces(doc as never)).toThrow(/startTimeUnixNano` to be nanoseconds since the epoch/)
  })
})
