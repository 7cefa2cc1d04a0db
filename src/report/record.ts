/**
 * The recorded-assertion schema: what the rag-matchers reporters read of each matcher result. The
 * reporters never recompute a metric; everything they show is a matcher's `meta`, made JSON-safe and
 * bounded here. Delivering records (Vitest task meta, the Jest channel files) is the matcher layer's
 * job (matchers/record.ts); this module is runner-neutral.
 */
import { caseLabel } from '../eval-case.js'

/** Env var naming the folder of the Jest channel files; set by the Jest reporter. */
export const RESULTS_DIR_ENV = 'RAG_MATCHERS_RESULTS_DIR'
/** The key under Vitest's `task.meta`. */
export const TASK_META_KEY = 'ragMatchers'
/** Version of one recorded line / meta entry (not of the report file, which has its own `schemaVersion`). */
export const RECORD_VERSION = 1

/** Bounds that keep one record small enough for Vitest's RPC and the channel files. */
export const RECORD_LIMITS = {
  /** perCase entries kept per assertion; `perCaseTotal` keeps the true count when cut. */
  perCase: 1_000,
  /** captured case texts per assertion. */
  cases: 1_000,
  /** characters kept of a question, answer or reference. */
  text: 500,
  /** retrieved ids kept per case. */
  retrieved: 10,
  /** characters of the JSON of `meta.extra` kept (dropped whole when larger). */
  extra: 4_000,
  /** characters kept of the message of an error a matcher threw. */
  error: 2_000,
} as const

/** The comparison a matcher made: `>=`/`<` for higher-is-better metrics, `<=`/`>` for lower-is-better ones (TER). */
export type RecordedComparator = '>=' | '<' | '<=' | '>'

const COMPARATORS: readonly RecordedComparator[] = ['>=', '<', '<=', '>']

/** One case value of a set assertion. `null` is a value that is undefined by definition (NaN). */
export interface RecordedCaseValue {
  readonly id: string
  readonly value: number | null
  readonly pass?: boolean
  /** The id is a positional label (`#3`): the case had neither `id` nor `question`. */
  readonly positional?: boolean
}

/** Text of one case of a received eval set, for the report's question table. All fields bounded. */
export interface RecordedCaseText {
  readonly id: string
  readonly question?: string
  readonly answer?: string
  readonly reference?: string
  readonly retrieved?: readonly string[]
  /** The expected relevant ids (ground truth), first 10: an array/Set of ids, or the keys of a record/Map of grades. */
  readonly relevant?: readonly string[]
  readonly error?: string
  /** The case's latency in ms (`timing.ms`, which runEvalSet records), when it has one. */
  readonly ms?: number
  /** The case's tokens (`usage`, one entry or one per model call: totalTokens, else inputTokens + outputTokens), when every entry reports them. */
  readonly tokens?: number
  /** The id is a positional label (`#3`): the case had neither `id` nor `question`. */
  readonly positional?: boolean
}

/** Who ran the assertion. Vitest fills `describe` from the task; Jest only knows `fullName` (the reporter resolves it). */
export interface RecordedTest {
  readonly name?: string
  readonly fullName?: string
  readonly file?: string
  readonly describe?: readonly string[]
}

/**
 * One recorded assertion: the matcher's meta made JSON-safe and bounded, plus how the assertion ended.
 * `pass` is the metric comparison (never flipped); `outcome` is the assertion's result, `pass !== isNot`.
 */
export interface RecordedAssertion {
  readonly v: typeof RECORD_VERSION
  readonly matcher: string
  readonly metric: string
  readonly value: number | null
  readonly threshold?: number
  readonly comparator: RecordedComparator
  /** `lower` when lower values are better (TER; comparator `<=`, `.not` `>`); absent means higher is better. */
  readonly direction?: 'lower'
  readonly pass: boolean
  /**
   * `error`: the matcher threw (a Matcher error such as a case with bad ground truth, or a rejected promise)
   * instead of returning a result. Such an assertion has `value: null`, `pass: false`, `outcome: false`
   * and the error's message in `error`. Absent for an assertion that returned a result.
   */
  readonly status?: 'error'
  /** The message of the error the matcher threw (status `error`), without colours, bounded. */
  readonly error?: string
  /** The received value was one case (not an eval set): its id and texts, so a loop over cases shows which case. */
  readonly case?: RecordedCaseText
  readonly signature: string
  /** Full scale of the metric from the matcher's declaration; absent in records of older versions. */
  readonly scale?: number
  readonly isNot: boolean
  readonly outcome: boolean
  readonly perCase?: readonly RecordedCaseValue[]
  /** Number of perCase entries before the cut at {@link RECORD_LIMITS}.perCase. */
  readonly perCaseTotal?: number
  /** The received value was an eval set (an array of cases or `{ cases }`), with this many cases. */
  readonly setSize?: number
  /** Eval set name: `meta.set`, `meta.extra.set`, or the `name` of a received `{ name, cases }`. */
  readonly set?: string
  readonly baseline?: { readonly mean: number; readonly delta: number }
  readonly cases?: readonly RecordedCaseText[]
  readonly extra?: Record<string, unknown>
  readonly test?: RecordedTest
  /** Vitest retry and repeat counters at the time of the assertion (the reporter keeps the last try). */
  readonly attempt?: number
  readonly repeat?: number
  /** Jest channel: order of the line within its worker, and the worker's pid. */
  readonly seq?: number
  readonly pid?: number
}

/** What a matcher reports about one assertion; runners ignore what they do not know. */
export interface AssertionMeta {
  readonly matcher: string
  readonly metric: string
  readonly value: number
  readonly threshold?: number
  /** `>=` / `<` (`.not`) for higher-is-better metrics; `<=` / `>` (`.not`) for lower-is-better ones. */
  readonly comparator: RecordedComparator
  /** `'lower'` when lower values are better (TER); absent or `'higher'` otherwise. */
  readonly direction?: 'higher' | 'lower'
  readonly pass: boolean
  readonly signature: string
  readonly perCase?: ReadonlyArray<{ readonly id: string; readonly value: number; readonly pass?: boolean }>
  readonly extra?: Record<string, unknown>
}

function finite(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

function text(value: unknown, max: number = RECORD_LIMITS.text): string | undefined {
  if (typeof value !== 'string') return undefined
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`
}

const CASE_KEYS = ['id', 'question', 'answer', 'reference', 'references', 'retrieved', 'relevant', 'contexts', 'error']

/** An eval-set case (src/eval-case.ts) has at least one of its fields; a rating row or a number does not. */
function looksLikeCase(c: unknown): boolean {
  return c !== null && typeof c === 'object' && !Array.isArray(c) && CASE_KEYS.some((k) => k in c)
}

/** The cases of a received eval set (an array of cases or `{ cases }`); undefined for anything else. */
function receivedCases(received: unknown): unknown[] | undefined {
  const list = Array.isArray(received)
    ? received
    : received !== null && typeof received === 'object' && Array.isArray((received as { cases?: unknown }).cases)
      ? (received as { cases: unknown[] }).cases
      : undefined
  return list !== undefined && list.length > 0 && list.every(looksLikeCase) ? list : undefined
}

function setName(meta: AssertionMeta, received: unknown): string | undefined {
  const fromMeta = (meta as { set?: unknown }).set ?? meta.extra?.set
  if (typeof fromMeta === 'string' && fromMeta !== '') return fromMeta
  if (received !== null && typeof received === 'object' && !Array.isArray(received) && Array.isArray((received as { cases?: unknown }).cases)) {
    const name = (received as { name?: unknown }).name
    if (typeof name === 'string' && name !== '') return name
  }
  return undefined
}

function baselineOf(meta: AssertionMeta): RecordedAssertion['baseline'] {
  const b = ((meta as { baseline?: unknown }).baseline ?? meta.extra?.baseline) as { mean?: unknown; delta?: unknown } | undefined
  if (b === null || typeof b !== 'object') return undefined
  const mean = finite(b.mean)
  const delta = finite(b.delta)
  return mean === null || delta === null ? undefined : { mean, delta }
}

/** caseLabel uses `id`, then `question`, then the position; only the position is not an identity. */
function hasExplicitId(c: unknown): boolean {
  if (c === null || typeof c !== 'object') return false
  const { id, question } = c as { id?: unknown; question?: unknown }
  return typeof id === 'string' || typeof id === 'number' || typeof question === 'string'
}

function caseText(c: unknown, i: number): RecordedCaseText {
  const id = caseLabel(c, i)
  if (c === null || typeof c !== 'object') return { id, positional: true }
  const o = c as { id?: unknown; question?: unknown; answer?: unknown; reference?: unknown; references?: unknown; retrieved?: unknown; relevant?: unknown; error?: unknown }
  const reference = typeof o.reference === 'string' ? o.reference : Array.isArray(o.references) ? o.references.find((r) => typeof r === 'string') : undefined
  const retrieved = Array.isArray(o.retrieved)
    ? o.retrieved.slice(0, RECORD_LIMITS.retrieved).map((r) => text(typeof r === 'object' && r !== null ? String((r as { id?: unknown }).id) : String(r), 200) as string)
    : undefined
  const relevant = relevantIds(o.relevant)
  const error = o.error === undefined || o.error === null ? undefined : text(String((o.error as { message?: unknown }).message ?? o.error))
  const out: { -readonly [K in keyof RecordedCaseText]: RecordedCaseText[K] } = { id: text(id, 200) as string }
  const question = text(o.question)
  const answer = text(o.answer)
  const ref = text(reference)
  if (question !== undefined) out.question = question
  if (answer !== undefined) out.answer = answer
  if (ref !== undefined) out.reference = ref
  if (retrieved !== undefined) out.retrieved = retrieved
  if (relevant !== undefined) out.relevant = relevant
  if (error !== undefined) out.error = error
  const ms = finite((o as { timing?: { ms?: unknown } }).timing?.ms)
  if (ms !== null && ms >= 0) out.ms = ms
  const tokens = usageTokens((o as { usage?: unknown }).usage)
  if (tokens !== undefined) out.tokens = tokens
  if (!hasExplicitId(c)) out.positional = true
  return out
}

/**
 * Tokens of a case's `usage` (one entry or an array, one per model call): Σ totalTokens, else inputTokens +
 * outputTokens. Undefined when an entry reports neither: a partial sum would understate the case. Never
 * throws (a record is made of whatever the case holds; toStayWithinBudget is the check that refuses).
 */
function usageTokens(usage: unknown): number | undefined {
  if (usage === undefined || usage === null) return undefined
  const entries: unknown[] = Array.isArray(usage) ? usage : [usage]
  let sum = 0
  for (let i = 0; i < entries.length; i++) {
    const u = entries[i] as { totalTokens?: unknown; inputTokens?: unknown; outputTokens?: unknown } | null | undefined
    if (u === null || typeof u !== 'object') return undefined
    const total = finite(u.totalTokens) ?? (finite(u.inputTokens) !== null && finite(u.outputTokens) !== null ? (u.inputTokens as number) + (u.outputTokens as number) : null)
    if (total === null || total < 0) return undefined
    sum += total
  }
  return Number.isFinite(sum) ? sum : undefined
}

/** The first ids of a case's ground truth: an array or Set of ids (or `{ id }` objects), or the keys of a record/Map of grades. */
function relevantIds(value: unknown): string[] | undefined {
  let ids: unknown[]
  if (Array.isArray(value)) ids = value
  else if (value instanceof Set) ids = [...value]
  else if (value instanceof Map) ids = [...value.keys()]
  else if (value !== null && typeof value === 'object') ids = Object.keys(value)
  else return undefined
  return ids.slice(0, RECORD_LIMITS.retrieved).map((r) => text(typeof r === 'object' && r !== null ? String((r as { id?: unknown }).id) : String(r), 200) as string)
}

/** A single received case (not an eval set, not a number or a string): its id and texts. */
function singleCase(received: unknown): RecordedCaseText | undefined {
  if (!looksLikeCase(received)) return undefined
  const c = caseText(received, 0)
  // without an id or a question the positional label `#1` says nothing about which case it was
  if (c.positional === true) {
    const { id: _id, positional: _p, ...rest } = c
    return Object.keys(rest).length > 0 ? { id: '', ...rest } : undefined
  }
  return c
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

/** The message of a thrown value, without terminal colours, bounded. */
export function errorMessage(error: unknown): string {
  let message: string
  try {
    message = error instanceof Error ? `${error.message}` : typeof error === 'string' ? error : String((error as { message?: unknown })?.message ?? error)
  } catch {
    message = 'unknown error'
  }
  // a runner's formatted failure (Jest's failureMessages) carries the stack: keep the message, not machine paths
  const lines = message.replace(ANSI, '').split(/\r?\n/)
  const firstFrame = lines.findIndex((line) => /^\s+at\s/.test(line))
  const plain = (firstFrame >= 0 ? lines.slice(0, firstFrame) : lines).join('\n').trim() || (error instanceof Error ? error.name : 'unknown error')
  return text(plain, RECORD_LIMITS.error) as string
}

/**
 * The record of an assertion whose matcher threw instead of returning a result: status `error`, the error's
 * message, no value, failed. The received eval set's texts are kept as for any record, so the assertion still
 * lands in its eval set (which then does not pass).
 *
 * @example
 * toErrorRecord({ isNot: false }, 'toHaveRecallAtK', cases, new Error('case 2: relevant must be …')).status // 'error'
 */
export function toErrorRecord(ctx: { readonly isNot?: boolean }, matcher: string, received: unknown, error: unknown): RecordedAssertion {
  let cases: unknown[] | undefined
  try {
    cases = receivedCases(received)
  } catch {
    // a describeEvalSet handle whose set could not run throws on `.cases`: record the error alone
    cases = undefined
  }
  const record: { -readonly [K in keyof RecordedAssertion]: RecordedAssertion[K] } = {
    v: RECORD_VERSION,
    matcher,
    metric: matcher,
    value: null,
    comparator: ctx.isNot === true ? '<' : '>=',
    pass: false,
    status: 'error',
    error: errorMessage(error),
    signature: '',
    isNot: ctx.isNot === true,
    outcome: false,
  }
  if (cases !== undefined) {
    record.setSize = cases.length
    record.cases = cases.slice(0, RECORD_LIMITS.cases).map(caseText)
  } else {
    const one = singleCase(received)
    if (one !== undefined) record.case = one
  }
  if (cases !== undefined && received !== null && typeof received === 'object' && !Array.isArray(received) && Array.isArray((received as { cases?: unknown }).cases)) {
    const name = (received as { name?: unknown }).name
    if (typeof name === 'string' && name !== '') record.set = text(name, 200) as string
  }
  return record
}

function jsonSafeExtra(extra: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (extra === undefined || extra === null || typeof extra !== 'object') return undefined
  try {
    const json = JSON.stringify(extra)
    return json !== undefined && json.length <= RECORD_LIMITS.extra ? (JSON.parse(json) as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

/**
 * The JSON-safe, bounded record of one matcher result (exported for tests). Non-finite numbers become
 * `null`; perCase keeps `id`, `value`, `pass` only, cut at {@link RECORD_LIMITS}; case texts are captured
 * generically from a received eval set (array of cases or `{ cases }`), never per matcher.
 *
 * @example
 * toRecord({ isNot: true }, 'toHitWithin', oneCase, false, result.meta).outcome // true: `.not` and the metric failed
 */
export function toRecord(ctx: { readonly isNot?: boolean }, matcher: string, received: unknown, pass: boolean, meta: AssertionMeta): RecordedAssertion {
  const isNot = ctx.isNot === true
  const cases = receivedCases(received)
  const explicitIds = cases?.map(hasExplicitId)
  const record: { -readonly [K in keyof RecordedAssertion]: RecordedAssertion[K] } = {
    v: RECORD_VERSION,
    matcher: meta.matcher ?? matcher,
    metric: String(meta.metric),
    value: finite(meta.value),
    comparator: COMPARATORS.includes(meta.comparator) ? meta.comparator : '>=',
    pass: meta.pass === undefined ? pass : meta.pass === true,
    signature: String(meta.signature ?? ''),
    isNot,
    outcome: pass !== isNot,
  }
  if (meta.direction === 'lower') record.direction = 'lower'
  const threshold = finite(meta.threshold)
  if (threshold !== null) record.threshold = threshold
  if (Array.isArray(meta.perCase)) {
    record.perCase = meta.perCase.slice(0, RECORD_LIMITS.perCase).map((c, i) => {
      const entry: { id: string; value: number | null; pass?: boolean; positional?: boolean } = { id: text(String(c.id), 200) as string, value: finite(c.value) }
      if (typeof c.pass === 'boolean') entry.pass = c.pass
      if (explicitIds !== undefined && explicitIds.length === meta.perCase!.length && explicitIds[i] === false) entry.positional = true
      return entry
    })
    if (meta.perCase.length > RECORD_LIMITS.perCase) record.perCaseTotal = meta.perCase.length
  }
  if (cases !== undefined) {
    record.setSize = cases.length
    record.cases = cases.slice(0, RECORD_LIMITS.cases).map(caseText)
  } else if (!Array.isArray(meta.perCase)) {
    const one = singleCase(received)
    if (one !== undefined) record.case = one
  }
  const set = setName(meta, received)
  if (set !== undefined) record.set = text(set, 200) as string
  const baseline = baselineOf(meta)
  if (baseline !== undefined) record.baseline = baseline
  const extra = jsonSafeExtra(meta.extra)
  if (extra !== undefined) record.extra = extra
  return record
}
