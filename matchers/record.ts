/**
 * Recording matcher results for the rag-matchers reporters (`rag-matchers/reporter` for Vitest,
 * `rag-matchers/jest-reporter` for Jest). The reporters never recompute a metric: everything they
 * show comes from the `meta` each matcher already returns, captured here right after the matcher ran.
 *
 * Where a result goes:
 * - Vitest (≥ 4.1 gives matchers `this.task`, the running test): appended to `task.meta.ragMatchers`.
 *   Vitest sends `task.meta` to reporters, also through `--reporter=blob` / `--merge-reports`.
 * - Jest (no task object): one JSON line per result, appended to `<RAG_MATCHERS_RESULTS_DIR>/<pid>-<thread>.jsonl`.
 *   The Jest reporter sets that variable in its constructor, which runs before Jest forks its workers,
 *   so the workers inherit it. Without the variable (no rag-matchers reporter configured) nothing is written.
 *   Vitest falls back to this channel too when `this.task` is missing.
 */
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { caseLabel } from '../src/retrieval/retrieval-metrics.js'
import type { MatcherContext, MatcherMeta, MatcherResult } from './context.js'

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
} as const

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
  readonly error?: string
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
  readonly comparator: '>=' | '<'
  readonly pass: boolean
  readonly signature: string
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

type AnyMatcher = (this: MatcherContext, received: unknown, ...args: never[]) => MatcherResult | Promise<MatcherResult>

/**
 * Wraps every matcher so that, after it ran (sync or async), its `meta` is recorded for the reporters.
 * The wrapped function returns exactly what the matcher returned (a sync result stays sync, so
 * asymmetric use keeps working) and never changes `pass` or the message.
 *
 * Only direct assertions are recorded: runners give those a `promise` field in the matcher state
 * (`''`, `'resolves'` or `'rejects'`); an asymmetric matcher (`expect.toHaveNdcgAtK(…)` inside
 * `toEqual`) gets no such field, and may be called any number of times, so it is not recorded.
 * A matcher that throws (misuse) records nothing. Recording never throws into the test.
 *
 * @example
 * export const allMatchers = withRecording({ toHitWithin: retrieval.toHitWithin })
 */
export function withRecording<T extends Record<string, AnyMatcher>>(matchers: T): T {
  const out: Record<string, AnyMatcher> = {}
  for (const [name, fn] of Object.entries(matchers)) {
    const wrapped = function (this: MatcherContext, received: unknown, ...args: never[]): MatcherResult | Promise<MatcherResult> {
      const result = fn.call(this, received, ...args)
      if (!isDirectAssertion(this)) return result
      if (isPromiseLike(result)) {
        return result.then((r) => {
          safeRecord(this, name, received, r)
          return r
        })
      }
      safeRecord(this, name, received, result)
      return result
    }
    Object.defineProperty(wrapped, 'name', { value: fn.name || name })
    out[name] = wrapped
  }
  return out as T
}

function isDirectAssertion(ctx: MatcherContext | undefined): boolean {
  return ctx !== undefined && ctx !== null && typeof ctx.promise === 'string'
}

function isPromiseLike(value: unknown): value is Promise<MatcherResult> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function'
}

function safeRecord(ctx: MatcherContext, name: string, received: unknown, result: MatcherResult): void {
  try {
    const meta = result?.meta
    if (meta === undefined || meta === null) return
    deliver(ctx, toRecord(ctx, name, received, result.pass, meta))
  } catch {
    // A reporter aid must never fail or change a test.
  }
}

interface VitestTaskLike {
  type?: string
  name?: string
  fullTestName?: string
  meta: Record<string, unknown>
  suite?: { name?: string; suite?: unknown } | undefined
  file?: { filepath?: string }
  result?: { retryCount?: number; repeatCount?: number }
}

function asTask(task: unknown): VitestTaskLike | undefined {
  if (task === null || typeof task !== 'object') return undefined
  const t = task as VitestTaskLike
  return t.meta !== null && typeof t.meta === 'object' ? t : undefined
}

let seq = 0

function deliver(ctx: MatcherContext, record: RecordedAssertion): void {
  const task = asTask(ctx.task)
  if (task !== undefined) {
    const existing = task.meta[TASK_META_KEY]
    // A new array each time: Vitest copies suite meta into test meta shallowly, so never push into one we did not create.
    task.meta[TASK_META_KEY] = [...(Array.isArray(existing) ? existing : []), {
      ...record,
      test: { name: task.name, fullName: task.fullTestName, file: task.file?.filepath ?? ctx.testPath, describe: describePath(task) },
      attempt: task.result?.retryCount ?? 0,
      repeat: task.result?.repeatCount ?? 0,
    }]
    return
  }
  const dir = process.env[RESULTS_DIR_ENV]
  if (dir === undefined || dir === '') return
  const line = { ...record, test: { fullName: ctx.currentTestName, file: ctx.testPath }, seq: seq++, pid: process.pid }
  appendFileSync(join(dir, `${process.pid}-${threadId}.jsonl`), `${JSON.stringify(line)}\n`)
}

function describePath(task: VitestTaskLike): string[] {
  const names: string[] = []
  let suite = task.suite as { name?: string; suite?: unknown; type?: string; filepath?: string } | undefined
  // The file itself is the outermost suite in Vitest (it has a `filepath`); stop there.
  while (suite !== undefined && suite !== null && suite.filepath === undefined) {
    if (typeof suite.name === 'string' && suite.name !== '') names.unshift(suite.name)
    suite = suite.suite as typeof suite
  }
  return names
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

function setName(meta: MatcherMeta, received: unknown): string | undefined {
  const fromMeta = (meta as { set?: unknown }).set ?? meta.extra?.set
  if (typeof fromMeta === 'string' && fromMeta !== '') return fromMeta
  if (received !== null && typeof received === 'object' && !Array.isArray(received) && Array.isArray((received as { cases?: unknown }).cases)) {
    const name = (received as { name?: unknown }).name
    if (typeof name === 'string' && name !== '') return name
  }
  return undefined
}

function baselineOf(meta: MatcherMeta): RecordedAssertion['baseline'] {
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
  const o = c as { id?: unknown; question?: unknown; answer?: unknown; reference?: unknown; references?: unknown; retrieved?: unknown; error?: unknown }
  const reference = typeof o.reference === 'string' ? o.reference : Array.isArray(o.references) ? o.references.find((r) => typeof r === 'string') : undefined
  const retrieved = Array.isArray(o.retrieved)
    ? o.retrieved.slice(0, RECORD_LIMITS.retrieved).map((r) => text(typeof r === 'object' && r !== null ? String((r as { id?: unknown }).id) : String(r), 200) as string)
    : undefined
  const error = o.error === undefined || o.error === null ? undefined : text(String((o.error as { message?: unknown }).message ?? o.error))
  const out: { -readonly [K in keyof RecordedCaseText]: RecordedCaseText[K] } = { id: text(id, 200) as string }
  const question = text(o.question)
  const answer = text(o.answer)
  const ref = text(reference)
  if (question !== undefined) out.question = question
  if (answer !== undefined) out.answer = answer
  if (ref !== undefined) out.reference = ref
  if (retrieved !== undefined) out.retrieved = retrieved
  if (error !== undefined) out.error = error
  if (!hasExplicitId(c)) out.positional = true
  return out
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
export function toRecord(ctx: Pick<MatcherContext, 'isNot'>, matcher: string, received: unknown, pass: boolean, meta: MatcherMeta): RecordedAssertion {
  const isNot = ctx.isNot === true
  const cases = receivedCases(received)
  const explicitIds = cases?.map(hasExplicitId)
  const record: { -readonly [K in keyof RecordedAssertion]: RecordedAssertion[K] } = {
    v: RECORD_VERSION,
    matcher: meta.matcher ?? matcher,
    metric: String(meta.metric),
    value: finite(meta.value),
    comparator: meta.comparator === '<' ? '<' : '>=',
    pass: meta.pass === undefined ? pass : meta.pass === true,
    signature: String(meta.signature ?? ''),
    isNot,
    outcome: pass !== isNot,
  }
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
  }
  const set = setName(meta, received)
  if (set !== undefined) record.set = text(set, 200) as string
  const baseline = baselineOf(meta)
  if (baseline !== undefined) record.baseline = baseline
  const extra = jsonSafeExtra(meta.extra)
  if (extra !== undefined) record.extra = extra
  return record
}
