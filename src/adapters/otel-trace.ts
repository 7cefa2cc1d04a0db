/**
 * OpenTelemetry traces → an agent case: the tool calls, retrieval steps, token usage and latency that the
 * spans of one trace record, read by the OpenTelemetry GenAI semantic conventions (`gen_ai.*`, status
 * Development as of semantic-conventions 1.41 and the GenAI conventions repository) and by OpenInference
 * (`openinference.span.kind`). Which attribute is read for what is listed in docs/agents.md ("Traces").
 * Types only: `@opentelemetry/*` is never loaded at run time.
 */
import { MetricInputError } from '../errors.js'
import { isPlainObject } from '../options.js'
import type { TokenUsage } from '../agent/budget.js'
import type { RetrievalStep } from '../agent/retrieval-steps.js'
import type { RetrievedItem } from '../retrieval/types.js'
import { adaptedCall, usageEntry, type AdaptedToolCall, type AgentOutput } from './agent-output.js'
import { spanLabel, spansFromOtlpJson, spansFromReadable, type OtlpTraceJsonLike, type ReadableSpanLike, type TraceSpan } from './otel-spans.js'

export type { OtlpAnyValue, OtlpSpanLike, OtlpTraceJsonLike, ReadableSpanLike } from './otel-spans.js'

/** What a trace becomes: an agent output plus its retrieval steps, its trace id and its duration. */
export interface TraceOutput extends AgentOutput {
  readonly traceId: string
  /** One per retrieval span, in start order; absent when the trace has none (a case with `steps: []` is refused by the retrieval matchers). */
  readonly steps?: RetrievalStep[]
  /** The trace's duration: its root span's, or from the first start to the last end when it has several roots. runEvalSet replaces it with its own time of the case. */
  readonly timing: { readonly ms: number }
}

export interface TraceReadOptions {
  /** Which trace to read when the spans hold several. */
  readonly traceId?: string
  /**
   * A model-call span without token counts: `'error'` (default) refuses it, naming the span, since a budget
   * over the trace would silently leave that call out; `'skip'` reads the trace without it.
   */
  readonly missingUsage?: 'error' | 'skip'
}

/** `gen_ai.operation.name` values of a model call (inference span). */
export const GEN_AI_MODEL_OPERATIONS = ['chat', 'text_completion', 'generate_content'] as const

type SpanKind = 'model' | 'tool' | 'retrieval'
type Convention = 'gen_ai' | 'openinference'

/** What a span is, by `gen_ai.operation.name`, else `openinference.span.kind`; undefined for any other span (agents, HTTP, embeddings). */
function kindOf(fn: string, span: TraceSpan): { kind: SpanKind; convention: Convention } | undefined {
  const a = span.attributes
  const op = a['gen_ai.operation.name']
  if (op !== undefined) {
    if (typeof op !== 'string') throw new MetricInputError(fn, `${spanLabel(span)}.attributes["gen_ai.operation.name"]`, 'a string', op)
    if ((GEN_AI_MODEL_OPERATIONS as readonly string[]).includes(op)) return { kind: 'model', convention: 'gen_ai' }
    if (op === 'execute_tool') return { kind: 'tool', convention: 'gen_ai' }
    if (op === 'retrieval') return { kind: 'retrieval', convention: 'gen_ai' }
    return undefined
  }
  const oi = a['openinference.span.kind']
  if (typeof oi !== 'string') return undefined
  switch (oi.toUpperCase()) {
    case 'LLM':
      return { kind: 'model', convention: 'openinference' }
    case 'TOOL':
      return { kind: 'tool', convention: 'openinference' }
    case 'RETRIEVER':
      return { kind: 'retrieval', convention: 'openinference' }
    default:
      return undefined
  }
}

function attrAt(span: TraceSpan, key: string): string {
  return `${spanLabel(span)}.attributes[${JSON.stringify(key)}]`
}

/** A token count attribute: absent, or an integer ≥ 0. */
function tokenCount(fn: string, span: TraceSpan, key: string): number | undefined {
  const v = span.attributes[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new MetricInputError(fn, attrAt(span, key), 'a token count (a finite number ≥ 0)', v)
  return v
}

const USAGE_KEYS: Record<Convention, { input: string; output: string; total?: string; models: readonly string[] }> = {
  gen_ai: { input: 'gen_ai.usage.input_tokens', output: 'gen_ai.usage.output_tokens', models: ['gen_ai.response.model', 'gen_ai.request.model'] },
  openinference: { input: 'llm.token_count.prompt', output: 'llm.token_count.completion', total: 'llm.token_count.total', models: ['llm.model_name'] },
}

function modelUsage(fn: string, span: TraceSpan, convention: Convention, missing: 'error' | 'skip'): TokenUsage | undefined {
  const keys = USAGE_KEYS[convention]
  const input = tokenCount(fn, span, keys.input)
  const output = tokenCount(fn, span, keys.output)
  const total = keys.total === undefined ? undefined : tokenCount(fn, span, keys.total)
  const model = keys.models.map((k) => span.attributes[k]).find((m) => typeof m === 'string' && m !== '')
  const entry = usageEntry(input, output, total, model)
  if (entry === undefined && missing === 'error') {
    throw new MetricInputError(
      fn,
      `${spanLabel(span)}.attributes`,
      `the token counts of a model call (\`${keys.input}\` and \`${keys.output}\`; options.missingUsage: 'skip' reads the trace without them)`,
      span.attributes,
    )
  }
  return entry
}

const TOOL_KEYS: Record<Convention, { name: string; args: string; id: string }> = {
  gen_ai: { name: 'gen_ai.tool.name', args: 'gen_ai.tool.call.arguments', id: 'gen_ai.tool.call.id' },
  openinference: { name: 'tool.name', args: 'input.value', id: 'tool_call.id' },
}

function toolCall(fn: string, span: TraceSpan, convention: Convention, step: number | undefined): AdaptedToolCall {
  const keys = TOOL_KEYS[convention]
  const name = span.attributes[keys.name]
  if (typeof name !== 'string' || name === '') throw new MetricInputError(fn, attrAt(span, keys.name), 'the tool name (a non-empty string)', name)
  const call = adaptedCall(fn, spanLabel(span), name, span.attributes[keys.args], step ?? 0, span.attributes[keys.id])
  if (step !== undefined) return call
  // A tool run before any model call has no step to share with others.
  const { step: _none, ...rest } = call
  return rest as AdaptedToolCall
}

function documentId(fn: string, where: string, id: unknown): string | number {
  if ((typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id))) return id
  throw new MetricInputError(fn, where, 'a document id (a non-empty string or a number)', id)
}

function retrievedItem(id: string | number, score: unknown): RetrievedItem {
  return typeof score === 'number' && Number.isFinite(score) ? { id, score } : id
}

const OI_DOC = /^retrieval\.documents\.(\d+)\.document\.([a-z_]+)$/

/** OpenInference RETRIEVER: `retrieval.documents.<i>.document.id` (and `.score`), `input.value` as the query. */
function openInferenceRetrieval(fn: string, span: TraceSpan): RetrievalStep {
  const byIndex = new Map<number, Record<string, unknown>>()
  for (const [key, value] of Object.entries(span.attributes)) {
    const m = OI_DOC.exec(key)
    if (m === null) continue
    const i = Number(m[1])
    const doc = byIndex.get(i) ?? {}
    doc[m[2] as string] = value
    byIndex.set(i, doc)
  }
  const retrieved: RetrievedItem[] = []
  for (let i = 0; i < byIndex.size; i++) {
    const doc = byIndex.get(i)
    const key = `retrieval.documents.${i}.document.id`
    // a gap (documents 0 and 2) would shift every later rank: name the missing one
    if (doc === undefined)
      throw new MetricInputError(fn, attrAt(span, key), `the id of document ${i} (the span has documents up to ${Math.max(...byIndex.keys())})`, undefined)
    retrieved.push(retrievedItem(documentId(fn, attrAt(span, key), doc.id), doc.score))
  }
  const query = span.attributes['input.value']
  return { retrieved, ...(typeof query === 'string' ? { query } : {}) }
}

/** GenAI `retrieval`: `gen_ai.retrieval.documents` (`[{ id, score }]`, structured or as JSON text), `gen_ai.retrieval.query.text`. */
function genAiRetrieval(fn: string, span: TraceSpan): RetrievalStep {
  const key = 'gen_ai.retrieval.documents'
  let docs = span.attributes[key]
  const expected = 'the retrieved documents `[{ id, score }]` (structured or JSON text; the attribute is opt-in content: enable its capture)'
  if (typeof docs === 'string') {
    try {
      docs = JSON.parse(docs)
    } catch {
      throw new MetricInputError(fn, attrAt(span, key), expected, docs)
    }
  }
  if (!Array.isArray(docs)) throw new MetricInputError(fn, attrAt(span, key), expected, docs)
  const retrieved = docs.map((d: unknown, i) => {
    if (!isPlainObject(d)) throw new MetricInputError(fn, `${attrAt(span, key)}[${i}]`, 'a document `{ id, score }`', d)
    return retrievedItem(documentId(fn, `${attrAt(span, key)}[${i}].id`, d.id), d.score)
  })
  const query = span.attributes['gen_ai.retrieval.query.text']
  return { retrieved, ...(typeof query === 'string' ? { query } : {}) }
}

function byStart(a: TraceSpan, b: TraceSpan): number {
  return a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : a.index - b.index
}

function traceDurationMs(spans: readonly TraceSpan[]): number {
  const ids = new Set(spans.map((s) => s.spanId))
  const roots = spans.filter((s) => s.parentSpanId === undefined || !ids.has(s.parentSpanId))
  if (roots.length === 1) {
    const root = roots[0] as TraceSpan
    return Number(root.endNs - root.startNs) / 1e6
  }
  const start = spans.reduce((m, s) => (s.startNs < m ? s.startNs : m), (spans[0] as TraceSpan).startNs)
  const end = spans.reduce((m, s) => (s.endNs > m ? s.endNs : m), (spans[0] as TraceSpan).endNs)
  return Number(end - start) / 1e6
}

function readMissingUsage(fn: string, options: TraceReadOptions | undefined): 'error' | 'skip' {
  const v = options?.missingUsage
  if (v === undefined || v === 'error' || v === 'skip') return v ?? 'error'
  throw new MetricInputError(fn, 'options.missingUsage', "'error' or 'skip'", v)
}

/** One trace's spans → the case fields. */
function readTrace(fn: string, traceId: string, spans: readonly TraceSpan[], missing: 'error' | 'skip'): TraceOutput {
  const ordered = [...spans].sort(byStart)
  const kinds = ordered.map((s) => ({ span: s, k: kindOf(fn, s) }))
  const modelEnds = kinds.filter((x) => x.k?.kind === 'model').map((x) => x.span.endNs)
  const toolCalls: AdaptedToolCall[] = []
  const usage: TokenUsage[] = []
  const steps: RetrievalStep[] = []
  for (const { span, k } of kinds) {
    if (k === undefined) continue
    if (k.kind === 'model') {
      const entry = modelUsage(fn, span, k.convention, missing)
      if (entry !== undefined) usage.push(entry)
    } else if (k.kind === 'tool') {
      // The model call a tool answers is the last one that ended before the tool started: tools run for the
      // same model message share its step (their order among themselves is not defined).
      const answered = modelEnds.filter((end) => end <= span.startNs).length
      toolCalls.push(toolCall(fn, span, k.convention, answered > 0 ? answered - 1 : undefined))
    } else {
      steps.push(k.convention === 'gen_ai' ? genAiRetrieval(fn, span) : openInferenceRetrieval(fn, span))
    }
  }
  return { traceId, toolCalls, usage, ...(steps.length > 0 ? { steps } : {}), timing: { ms: traceDurationMs(spans) } }
}

function groupByTrace(spans: readonly TraceSpan[]): Map<string, TraceSpan[]> {
  const groups = new Map<string, TraceSpan[]>()
  for (const s of spans) {
    const list = groups.get(s.traceId)
    if (list) list.push(s)
    else groups.set(s.traceId, [s])
  }
  return groups
}

function readOne(fn: string, spans: readonly TraceSpan[], options: TraceReadOptions | undefined): TraceOutput {
  if (options !== undefined && !isPlainObject(options)) throw new MetricInputError(fn, 'options', 'an object `{ traceId?, missingUsage? }`', options)
  const missing = readMissingUsage(fn, options)
  const groups = groupByTrace(spans)
  const wanted = options?.traceId
  if (wanted !== undefined) {
    const chosen = typeof wanted === 'string' ? groups.get(wanted) : undefined
    if (chosen === undefined) throw new MetricInputError(fn, 'options.traceId', `the id of a trace in the spans (${[...groups.keys()].join(', ') || 'none'})`, wanted)
    return readTrace(fn, wanted as string, chosen, missing)
  }
  if (groups.size !== 1) {
    throw new MetricInputError(
      fn,
      'spans',
      `the spans of one trace (these hold ${groups.size}: ${[...groups.keys()].slice(0, 5).join(', ')}${groups.size > 5 ? ', …' : ''}); pass options.traceId, or read each with the …Traces form`,
      `${spans.length} spans`,
    )
  }
  const [traceId, list] = [...groups.entries()][0] as [string, TraceSpan[]]
  return readTrace(fn, traceId, list, missing)
}

function readAll(fn: string, spans: readonly TraceSpan[], options: Omit<TraceReadOptions, 'traceId'> | undefined): TraceOutput[] {
  if (options !== undefined && !isPlainObject(options)) throw new MetricInputError(fn, 'options', 'an object `{ missingUsage? }`', options)
  const missing = readMissingUsage(fn, options)
  return [...groupByTrace(spans).entries()].map(([traceId, list]) => readTrace(fn, traceId, list, missing))
}

/**
 * The tool calls, retrieval steps, token usage and duration one trace records, from finished SDK spans
 * (`InMemorySpanExporter.getFinishedSpans()`). Spread it into a case or return it from a pipeline.
 *
 * - Model calls (`gen_ai.operation.name` chat, text_completion, generate_content; OpenInference `LLM`):
 *   one usage entry each, with `gen_ai.response.model` (else `gen_ai.request.model`) as its model.
 * - Tool executions (`execute_tool`; OpenInference `TOOL`): one call each, in start order, named by
 *   `gen_ai.tool.name`, with `gen_ai.tool.call.arguments` (an object or JSON text; absent: `{}`) and
 *   `gen_ai.tool.call.id`; its `step` is the model call it answers (the last one that ended before it started).
 * - Retrievals (`gen_ai.operation.name` retrieval; OpenInference `RETRIEVER`): one step each,
 *   `{ query, retrieved }`.
 * - `timing.ms`: the root span's duration (or first start to last end when the spans have several roots).
 *
 * @throws MetricInputError naming the span (name and span id), for a tool span without a name, a model
 *   call without token counts (unless `missingUsage: 'skip'`), a retrieval span without document ids, a
 *   token count that is not a number ≥ 0, spans of several traces without `traceId`, or a span that never ended
 * @example
 * const exporter = new InMemorySpanExporter()
 * // … run the agent with a tracer provider that exports to `exporter` …
 * const out = fromOtelSpans(exporter.getFinishedSpans())
 * expect(out).toCallTool({ name: 'search', args: { query: 'attention heads' } })
 */
export function fromOtelSpans(spans: readonly ReadableSpanLike[], options?: TraceReadOptions): TraceOutput {
  const FN = 'fromOtelSpans'
  return readOne(FN, spansFromReadable(FN, spans), options)
}

/** {@link fromOtelSpans} for every trace in the spans, one output per trace, in the order their first span came. */
export function fromOtelTraces(spans: readonly ReadableSpanLike[], options?: Omit<TraceReadOptions, 'traceId'>): TraceOutput[] {
  const FN = 'fromOtelTraces'
  return readAll(FN, spansFromReadable(FN, spans), options)
}

/**
 * {@link fromOtelSpans} for an OTLP/HTTP JSON trace export (the object, or its text as read from a file):
 * `resourceSpans[].scopeSpans[].spans[]` with attributes as `{ key, value: AnyValue }`.
 *
 * @example fromOtlpJson(readFileSync('traces/q1.json', 'utf8')).toolCalls // [{ name: 'search', args: { query: '…' }, step: 0, id: 'call_1' }]
 */
export function fromOtlpJson(document: OtlpTraceJsonLike | string, options?: TraceReadOptions): TraceOutput {
  const FN = 'fromOtlpJson'
  return readOne(FN, spansFromOtlpJson(FN, document), options)
}

/** {@link fromOtlpJson} for every trace in the export, one output per trace, in file order. */
export function fromOtlpJsonTraces(document: OtlpTraceJsonLike | string, options?: Omit<TraceReadOptions, 'traceId'>): TraceOutput[] {
  const FN = 'fromOtlpJsonTraces'
  return readAll(FN, spansFromOtlpJson(FN, document), options)
}
