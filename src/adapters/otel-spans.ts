/**
 * OpenTelemetry spans in one plain form, from the two places they come from: the SDK's finished spans
 * (`ReadableSpan` from an in-process exporter such as `InMemorySpanExporter`) and an OTLP/HTTP JSON trace
 * export (`resourceSpans[].scopeSpans[].spans[]`, attributes as `{ key, value: AnyValue }`). Types only:
 * nothing from `@opentelemetry/*` is loaded at run time; both shapes are read structurally.
 */
import { MetricInputError } from '../errors.js'
import { arrayAt, objectAt } from './agent-output.js'

/** The part of an SDK `ReadableSpan` that is read (`@opentelemetry/sdk-trace-base` 1.x and 2.x). */
export interface ReadableSpanLike {
  readonly name: string
  spanContext(): { readonly traceId: string; readonly spanId: string }
  /** SDK 2.x. */
  readonly parentSpanContext?: { readonly spanId: string } | undefined
  /** SDK 1.x. */
  readonly parentSpanId?: string | undefined
  /** `[seconds, nanoseconds]` since the epoch. */
  readonly startTime: readonly [number, number]
  readonly endTime: readonly [number, number]
  readonly attributes: Readonly<Record<string, unknown>>
}

/** An OTLP JSON `AnyValue`: one of its fields is set. */
export interface OtlpAnyValue {
  readonly stringValue?: string
  readonly boolValue?: boolean
  /** int64: a JSON string in the OTLP/JSON encoding, a number from some writers. */
  readonly intValue?: string | number
  readonly doubleValue?: number | string
  readonly arrayValue?: { readonly values?: readonly OtlpAnyValue[] }
  readonly kvlistValue?: { readonly values?: ReadonlyArray<{ readonly key: string; readonly value?: OtlpAnyValue }> }
  readonly bytesValue?: string
}

/** One span of an OTLP JSON export. */
export interface OtlpSpanLike {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  /** uint64 nanoseconds since the epoch: a JSON string in the OTLP/JSON encoding, or a number. */
  readonly startTimeUnixNano: string | number
  readonly endTimeUnixNano: string | number
  readonly attributes?: ReadonlyArray<{ readonly key: string; readonly value?: OtlpAnyValue }>
}

/** An OTLP/HTTP JSON trace export (`ExportTraceServiceRequest`), as written by the OTLP file and HTTP exporters. */
export interface OtlpTraceJsonLike {
  readonly resourceSpans: ReadonlyArray<{
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: readonly OtlpSpanLike[] }>
  }>
}

/** A span as the trace reader uses it. Times are nanoseconds since the epoch (bigint: exact for any uint64). */
export interface TraceSpan {
  readonly name: string
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly startNs: bigint
  readonly endNs: bigint
  readonly attributes: Readonly<Record<string, unknown>>
  /** Position in the input: breaks ties between spans that started at the same time. */
  readonly index: number
}

/** How a message names a span: `span "execute_tool search" (span id 00f067aa0ba902b7)`. */
export function spanLabel(span: { readonly name: unknown; readonly spanId: unknown }): string {
  const name = typeof span.name === 'string' ? JSON.stringify(span.name) : '(no name)'
  return `span ${name} (span id ${typeof span.spanId === 'string' && span.spanId !== '' ? span.spanId : 'missing'})`
}

const NS_PER_S = 1_000_000_000n

function hrTimeNs(fn: string, where: string, value: unknown): bigint {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 0)) {
    throw new MetricInputError(fn, where, 'an HrTime `[seconds, nanoseconds]` (integers ≥ 0)', value)
  }
  return BigInt(value[0] as number) * NS_PER_S + BigInt(value[1] as number)
}

function unixNano(fn: string, where: string, value: unknown): bigint {
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value)
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  throw new MetricInputError(fn, where, 'nanoseconds since the epoch (a string of digits, as OTLP/JSON writes uint64, or a safe integer)', value)
}

function checkTimes(fn: string, label: string, startNs: bigint, endNs: bigint): void {
  // A span that has not ended (end 0 in OTLP, or before its start) has no duration to report.
  if (endNs < startNs) throw new MetricInputError(fn, `${label} end time`, `at or after its start time (${startNs} ns)`, `${endNs} ns`)
}

function idAt(fn: string, where: string, value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new MetricInputError(fn, where, `the ${what} (a non-empty hex string)`, value)
  return value
}

/**
 * Finished SDK spans (`exporter.getFinishedSpans()`) in the reader's form.
 *
 * @throws MetricInputError naming the span, for a value that is not a span, a missing span or trace id,
 *   times that are not HrTime, or an end before the start (a span that never ended)
 */
export function spansFromReadable(fn: string, spans: readonly ReadableSpanLike[]): TraceSpan[] {
  const list = arrayAt(fn, 'spans', spans, 'an array of finished spans (ReadableSpan, e.g. from InMemorySpanExporter.getFinishedSpans())')
  return list.map((raw, index) => {
    const s = objectAt(fn, `spans[${index}]`, raw, 'a finished span (ReadableSpan)')
    if (typeof s.spanContext !== 'function') throw new MetricInputError(fn, `spans[${index}].spanContext`, 'a function (a ReadableSpan)', s.spanContext)
    const ctx = objectAt(fn, `spans[${index}].spanContext()`, (s.spanContext as () => unknown).call(s), 'a span context `{ traceId, spanId }`')
    const partial = { name: s.name, spanId: ctx.spanId }
    const label = `spans[${index}] (${spanLabel(partial)})`
    if (typeof s.name !== 'string') throw new MetricInputError(fn, `${label}.name`, 'the span name (a string)', s.name)
    const spanId = idAt(fn, `${label}.spanContext().spanId`, ctx.spanId, 'span id')
    const traceId = idAt(fn, `${label}.spanContext().traceId`, ctx.traceId, 'trace id')
    const parent = (s.parentSpanContext as { spanId?: unknown } | undefined)?.spanId ?? s.parentSpanId
    const startNs = hrTimeNs(fn, `${label}.startTime`, s.startTime)
    const endNs = hrTimeNs(fn, `${label}.endTime`, s.endTime)
    checkTimes(fn, label, startNs, endNs)
    const attributes = objectAt(fn, `${label}.attributes`, s.attributes, 'the span attributes (an object)')
    return { name: s.name, traceId, spanId, ...(typeof parent === 'string' && parent !== '' ? { parentSpanId: parent } : {}), startNs, endNs, attributes, index }
  })
}

/** An OTLP JSON AnyValue as a plain value: int64 as a number, arrays and key/value lists unpacked. */
function anyValue(fn: string, where: string, value: unknown): unknown {
  if (value === undefined || value === null) return undefined
  const v = objectAt(fn, where, value, 'an OTLP AnyValue `{ stringValue | intValue | doubleValue | boolValue | arrayValue | kvlistValue }`')
  if ('stringValue' in v) return v.stringValue
  if ('boolValue' in v) return v.boolValue
  if ('intValue' in v) {
    const n = typeof v.intValue === 'string' && /^-?\d+$/.test(v.intValue) ? Number(v.intValue) : v.intValue
    if (typeof n !== 'number' || !Number.isInteger(n)) throw new MetricInputError(fn, `${where}.intValue`, 'an int64 (a string of digits or an integer)', v.intValue)
    return n
  }
  // OTLP/JSON writes the non-finite doubles as the strings "NaN", "Infinity" and "-Infinity".
  if ('doubleValue' in v) return typeof v.doubleValue === 'string' ? Number(v.doubleValue) : v.doubleValue
  if ('arrayValue' in v) {
    const values = (v.arrayValue as { values?: unknown } | undefined)?.values ?? []
    return arrayAt(fn, `${where}.arrayValue.values`, values, 'an array of AnyValues').map((x, i) => anyValue(fn, `${where}.arrayValue.values[${i}]`, x))
  }
  if ('kvlistValue' in v) {
    const values = (v.kvlistValue as { values?: unknown } | undefined)?.values ?? []
    return Object.fromEntries(
      arrayAt(fn, `${where}.kvlistValue.values`, values, 'an array of `{ key, value }`').map((kv, i) => {
        const e = objectAt(fn, `${where}.kvlistValue.values[${i}]`, kv, '`{ key, value }`')
        return [String(e.key), anyValue(fn, `${where}.kvlistValue.values[${i}].value`, e.value)]
      }),
    )
  }
  if ('bytesValue' in v) return v.bytesValue
  return undefined
}

/**
 * The spans of an OTLP/HTTP JSON trace export (an object, or its JSON text) in the reader's form, in the
 * order the file lists them.
 *
 * @throws MetricInputError naming the span (its path in the file, name and span id), for text that is not
 *   JSON, a document without `resourceSpans`, a span without ids, or times that are not uint64 nanoseconds
 */
export function spansFromOtlpJson(fn: string, document: OtlpTraceJsonLike | string): TraceSpan[] {
  let doc: unknown = document
  if (typeof document === 'string') {
    try {
      doc = JSON.parse(document)
    } catch (error) {
      throw new MetricInputError(fn, 'document', `OTLP JSON text (${(error as Error).message})`, `${document.slice(0, 80)}${document.length > 80 ? '…' : ''}`)
    }
  }
  const root = objectAt(fn, 'document', doc, 'an OTLP JSON trace export `{ resourceSpans: [...] }`')
  const out: TraceSpan[] = []
  arrayAt(fn, 'document.resourceSpans', root.resourceSpans, 'an array of `{ scopeSpans }` (an OTLP JSON trace export)').forEach((rs, r) => {
    const resource = objectAt(fn, `resourceSpans[${r}]`, rs, '`{ resource, scopeSpans }`')
    arrayAt(fn, `resourceSpans[${r}].scopeSpans`, resource.scopeSpans ?? [], 'an array of `{ scope, spans }`').forEach((ss, s) => {
      const scope = objectAt(fn, `resourceSpans[${r}].scopeSpans[${s}]`, ss, '`{ scope, spans }`')
      arrayAt(fn, `resourceSpans[${r}].scopeSpans[${s}].spans`, scope.spans ?? [], 'an array of spans').forEach((sp, k) => {
        const at = `resourceSpans[${r}].scopeSpans[${s}].spans[${k}]`
        const span = objectAt(fn, at, sp, 'an OTLP span')
        const label = `${at} (${spanLabel({ name: span.name, spanId: span.spanId })})`
        if (typeof span.name !== 'string') throw new MetricInputError(fn, `${label}.name`, 'the span name (a string)', span.name)
        const spanId = idAt(fn, `${label}.spanId`, span.spanId, 'span id')
        const traceId = idAt(fn, `${label}.traceId`, span.traceId, 'trace id')
        const startNs = unixNano(fn, `${label}.startTimeUnixNano`, span.startTimeUnixNano)
        const endNs = unixNano(fn, `${label}.endTimeUnixNano`, span.endTimeUnixNano)
        checkTimes(fn, label, startNs, endNs)
        const attributes: Record<string, unknown> = {}
        arrayAt(fn, `${label}.attributes`, span.attributes ?? [], 'an array of `{ key, value }`').forEach((kv, a) => {
          const e = objectAt(fn, `${label}.attributes[${a}]`, kv, 'an attribute `{ key, value }`')
          if (typeof e.key !== 'string') throw new MetricInputError(fn, `${label}.attributes[${a}].key`, 'the attribute key (a string)', e.key)
          attributes[e.key] = anyValue(fn, `${label}.attributes[${a}].value`, e.value)
        })
        const parent = span.parentSpanId
        out.push({
          name: span.name,
          traceId,
          spanId,
          ...(typeof parent === 'string' && parent !== '' ? { parentSpanId: parent } : {}),
          startNs,
          endNs,
          attributes,
          index: out.length,
        })
      })
    })
  })
  return out
}
