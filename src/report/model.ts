/**
 * The rag-report data model: recorded assertions in, a grouped report out. Shared by the Vitest
 * reporter, the Jest reporter and `mergeReports`, so all three produce the same document.
 *
 * No metric is recomputed here: a metric row's value is the matcher's own value when one assertion
 * produced it, and otherwise the mean of the union of the recorded per-case values (the same
 * arithmetic mean the set matchers report, taken over more cases). The schema is documented in
 * docs/reporter.md; `schemaVersion` changes whenever a field changes meaning or is removed.
 */
import { VERSION } from '../version.js'
import { performanceRows } from './performance.js'
import type { RecordedAssertion, RecordedCaseText, RecordedComparator } from './record.js'

/** The `schemaVersion` of rag-report.json written by this version. */
export const REPORT_SCHEMA_VERSION = 1

/** The fields a report assertion takes over from its record unchanged. */
type RecordedFields =
  | 'matcher'
  | 'metric'
  | 'value'
  | 'threshold'
  | 'comparator'
  | 'pass'
  | 'isNot'
  | 'outcome'
  | 'signature'
  | 'scale'
  | 'set'
  | 'setSize'
  | 'perCase'
  | 'perCaseTotal'
  | 'baseline'
  | 'cases'
  | 'extra'
  | 'direction'
  | 'status'
  | 'error'
  | 'case'

/** One assertion in the report: the record plus where it ran, in a runner-independent form. */
export interface ReportAssertion extends Pick<RecordedAssertion, RecordedFields> {
  /** Test file, relative to the project root, `/`-separated. */
  readonly file: string
  /** Enclosing describe blocks, outermost first. */
  readonly describe: readonly string[]
  readonly test: string
  readonly fullName: string
  /** Position of the test in its file and of the assertion in its test: the canonical order. */
  readonly testIndex: number
  readonly index: number
}

export interface CaseValue {
  readonly id: string
  readonly value: number | null
  readonly pass?: boolean
}

/**
 * Model tokens that judge assertions reported in `meta.extra.usage` (OpenAI `usage`, Ollama
 * `prompt_eval_count`/`eval_count`), summed. `calls` counts model requests made; replies replayed from
 * the judge cache are not spent and are not counted here.
 */
export interface JudgeUsage {
  readonly promptTokens: number
  readonly completionTokens: number
  readonly calls: number
}

/** One metric of an eval set: one or more assertions with the same matcher, signature, threshold and `.not`. */
export interface MetricRow {
  readonly key: string
  /** Display label: the matcher's metric label without the "over N answers" count. */
  readonly metric: string
  readonly matcher: string
  readonly signature: string
  readonly threshold?: number
  readonly comparator: RecordedComparator
  readonly isNot: boolean
  /** Full scale of the metric, when the assertions recorded it. */
  readonly scale?: number
  /**
   * `mean`: the matcher's mean, or the mean of the union of per-case values for several assertions;
   * `weighted-mean`: some assertion's per-case list was cut, so Σ(value·n)/Σn over assertions;
   * `set-level`: a score of the whole set without per-case values (corpus BLEU/chrF, a baseline
   * comparison); shown as recorded and never pooled with another assertion.
   */
  readonly aggregate: 'mean' | 'weighted-mean' | 'set-level'
  readonly value: number | null
  /** Cases behind the value. */
  readonly n: number
  /** Assertions behind the row; 0 for a measured row (latency, tokens, cost: src/report/performance.ts). */
  readonly assertions: number
  /** Assertions that did not pass, errored ones included. */
  readonly failedAssertions: number
  /** Assertions whose matcher threw (status `error`); also counted in `failedAssertions`. */
  readonly errored: number
  /** Why assertions of the row failed, when they said: thrown errors, and a judge's `extra.error` (at most 5, each once). */
  readonly causes?: readonly string[]
  /** Model tokens the row's judge assertions reported (`extra.usage`), summed; absent when none did. */
  readonly usage?: JudgeUsage
  /** Every assertion in the row passed. */
  readonly pass: boolean
  /** `ci`: the bootstrap interval of `delta` the set's baseline comparison computed (at its `confidence`), when it did. */
  readonly baseline?: { readonly mean: number; readonly delta: number; readonly ci?: readonly [number, number]; readonly confidence?: number }
  /** Per-case values (after de-duplication), for the chart; absent for set-level rows. */
  readonly values?: readonly CaseValue[]
  /** Ids of cases below the threshold (not listed for `.not` rows, where "below" is the goal). */
  readonly failingCases: readonly string[]
}

/** A case of an eval set in the report: its recorded texts and its value in each metric row. */
export interface CaseRow extends Omit<RecordedCaseText, 'positional'> {
  /** Metric row key → the case's value in that row. */
  readonly values: Readonly<Record<string, CaseValue>>
  /** Labels of the metric rows in which this case is below the threshold. */
  readonly failing: readonly string[]
}

/**
 * One metric of a baseline comparison, as `toMatchMetricBaseline` reports it in `meta.extra.metrics`
 * (baseline mean, current mean, delta, one-sided p-value, status). Shown as recorded.
 */
export interface BaselineComparison {
  /** The assertion that compared (its metric label, e.g. `baseline "qa" (recall@3, bleu)`). */
  readonly assertion: string
  readonly fullName: string
  readonly metric: string
  readonly baseline: number | null
  readonly current: number | null
  readonly delta: number | null
  readonly pValue?: number | null
  /** The bootstrap interval of `delta` the comparison computed, and its level (0.95), when it computed one. */
  readonly ci?: readonly [number, number]
  readonly confidence?: number
  readonly status?: string
  readonly n?: number
  /** The gate's tolerance in the metric's units. */
  readonly tolerance?: number
  /** The cases that dropped most, for a `regressed` or `dropped (not significant)` metric (at most 3). */
  readonly worst?: ReadonlyArray<{ readonly id: string; readonly baseline: number; readonly current: number; readonly delta: number }>
  /** The metric's signature as the baseline assertion computed it (its settings), when it recorded one. */
  readonly signature?: string
}

/** One case that regressed against the baseline, as a baseline assertion recorded it in `extra.regressedCases`. */
export interface RegressedCase {
  readonly case: string
  readonly metric: string
  readonly baseline: number | null
  readonly current: number | null
}

export interface EvalSetSection {
  readonly key: string
  readonly name: string
  /** `set`: named by `meta.set` or `{ name, cases }`; `describe`: grouped by file and describe blocks. */
  readonly source: 'set' | 'describe'
  readonly files: readonly string[]
  /** The tests that asserted this set (full names, canonical order, each once). */
  readonly tests: readonly string[]
  readonly pass: boolean
  readonly metrics: readonly MetricRow[]
  /** Per-metric baseline comparisons recorded by baseline assertions on this set (may be empty). */
  readonly baselines: readonly BaselineComparison[]
  /** Per-case regressions a baseline assertion recorded in `extra.regressedCases` (at most 50), when it did. */
  readonly regressedCases?: readonly RegressedCase[]
  readonly cases: readonly CaseRow[]
}

export interface FileSection {
  readonly file: string
  readonly pass: boolean
  readonly assertions: readonly ReportAssertion[]
}

export interface RagReport {
  readonly schemaVersion: typeof REPORT_SCHEMA_VERSION
  readonly generator: { readonly name: 'rag-matchers'; readonly version: string }
  readonly runner: 'vitest' | 'jest' | 'merged'
  readonly createdAt: string
  /** Set when the run was one shard (`--shard=index/count`): the report is partial. */
  readonly shard?: { readonly index: number; readonly count: number }
  /** For a merged report: how many reports went in. */
  readonly mergedFrom?: number
  readonly summary: {
    readonly assertions: number
    readonly passed: number
    /** Assertions that did not pass, errored ones included. */
    readonly failed: number
    /** Assertions whose matcher threw (status `error`); also counted in `failed`. */
    readonly errored: number
    readonly evalSets: number
    readonly files: number
    /** Model tokens the run's judge assertions reported, summed; absent when none did. */
    readonly judgeUsage?: JudgeUsage
  }
  /**
   * The run's verdict: `fail` when any recorded assertion failed or errored, when the runner reported a
   * failed test without a failed rag-matchers assertion, or when a file or hook failed to run. Never `pass`
   * for a run in which something failed. `reasons` says why, in words (empty for `pass`).
   */
  readonly verdict: { readonly status: 'pass' | 'fail'; readonly reasons: readonly string[] }
  /** What the runner reported beyond the rag-matchers assertions; absent when the reporter did not know (a hand-built report). */
  readonly run?: RunOutcome
  readonly evalSets: readonly EvalSetSection[]
  /** Single-case assertions (no eval set), per test file. */
  readonly singles: readonly FileSection[]
  /** Every assertion in canonical order; the source of truth that `mergeReports` regroups. */
  readonly assertions: readonly ReportAssertion[]
}

/** A failed test or a file/hook failure, as the runner reported it. */
export interface RunFailure {
  /** Test file, relative to the project root, `/`-separated. */
  readonly file: string
  /** The test's full name (`describe > … > test`); absent for a file that failed to load or a failed hook. */
  readonly test?: string
  /** The first error message, without colours, bounded. */
  readonly error?: string
}

/** The runner's view of the run: tests and failures the rag-matchers assertions do not show. */
export interface RunOutcome {
  /** Tests the runner ran (skipped ones excluded). */
  readonly tests: number
  /** Tests that failed, for any reason. */
  readonly failedTests: number
  /** Failed tests in which no rag-matchers assertion failed or errored (a plain `expect`, a pipeline error, a hook). */
  readonly failedOutside: readonly RunFailure[]
  /** Files that failed to load, suites whose hooks failed, errors outside any test. */
  readonly fileErrors: readonly RunFailure[]
}

export interface BuildReportOptions {
  readonly runner: RagReport['runner']
  /** The runner's view of the run (failed tests, files that failed to load), for the verdict. */
  readonly run?: RunOutcome
  readonly shard?: { index: number; count: number }
  readonly mergedFrom?: number
  /** Defaults to now; tests pass a fixed date. */
  readonly createdAt?: Date
}

/** Canonical order: file, then test position, then assertion position. Sharded and unsharded runs agree on it. */
export function compareAssertions(a: ReportAssertion, b: ReportAssertion): number {
  return (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.testIndex - b.testIndex || a.index - b.index
}

export function isSetAssertion(a: ReportAssertion): boolean {
  return a.perCase !== undefined || a.setSize !== undefined
}

/**
 * The metric label without its case count, which differs between the parts of a split set.
 *
 * @example
 * metricLabel('mean ROUGE-L F over 5 answers') // 'mean ROUGE-L F'
 */
export function metricLabel(metric: string): string {
  return metric.replace(/\s+over\s+\d+\s+(answers?|quer(y|ies)|cases?|questions?|pairs?|items?)$/i, '')
}

function groupKey(a: ReportAssertion): { key: string; name: string; source: 'set' | 'describe' } {
  if (a.set !== undefined) return { key: `set:${a.set}`, name: a.set, source: 'set' }
  const path = a.describe.join(' › ')
  return { key: `describe:${a.file}::${path}`, name: path === '' ? a.file : path, source: 'describe' }
}

/**
 * Identity of a case across assertions: its id. A positional label (`#3`) is no identity on its own, so it
 * is joined with the case's recorded texts: the same set asserted by several tests is then one set with
 * each case once, while two different id-less sets in one describe block stay apart. Without texts, the
 * label counts within its test only.
 */
function caseKey(a: ReportAssertion, c: { id: string; positional?: boolean }, text?: RecordedCaseText): string {
  if (c.positional !== true) return c.id
  if (text === undefined || text.id !== c.id) return `${a.file}\u0000${a.fullName}\u0000${c.id}`
  return `${c.id}\u0000${JSON.stringify([text.question, text.answer, text.reference, text.retrieved])}`
}

/** The recorded text of the i-th per-case entry, when the assertion recorded the set's texts in order. */
function textAt(a: ReportAssertion, i: number): RecordedCaseText | undefined {
  return a.cases !== undefined && a.perCase !== undefined && a.cases.length === a.perCase.length ? a.cases[i] : undefined
}

function rowKey(a: ReportAssertion): string {
  const base = `${a.matcher}|${a.signature}|${a.threshold ?? ''}|${a.isNot ? 'not' : ''}`
  // A set-level score (corpus BLEU) cannot be pooled with another one: it keeps a row of its own.
  return a.perCase === undefined ? `${base}|${a.file}|${a.testIndex}|${a.index}` : base
}

/**
 * Why an assertion failed, when it said so: the message of the error its matcher threw, or a judge's
 * `extra.error` (a replay miss, an unreachable judge). Undefined otherwise.
 *
 * @example
 * causeOf({ ...assertion, status: 'error', error: 'relevant must be an array' }) // 'relevant must be an array'
 */
export function causeOf(a: Pick<ReportAssertion, 'error' | 'extra'>): string | undefined {
  if (typeof a.error === 'string' && a.error !== '') return a.error
  const e = a.extra?.error
  if (typeof e === 'string' && e !== '') return e
  if (e !== null && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string') return (e as { message: string }).message
  return failedCasesCause(a.extra)
}

/** `2 cases failed in the pipeline: q2 (vector DB timeout (503)), q7 (…)`, from a set assertion's `extra.failedCases`. */
function failedCasesCause(extra: Record<string, unknown> | undefined): string | undefined {
  const list = extra?.failedCases
  if (!Array.isArray(list)) return undefined
  const named = list.flatMap((c) => {
    const { id, error } = (c ?? {}) as { id?: unknown; error?: unknown }
    return typeof id === 'string' ? [typeof error === 'string' && error !== '' ? `${id} (${error})` : id] : []
  })
  if (named.length === 0) return undefined
  const count = typeof extra?.failedCaseCount === 'number' && extra.failedCaseCount > named.length ? extra.failedCaseCount : named.length
  const shown = named.slice(0, 5)
  const rest = count - shown.length
  return `${plural(count, 'case')} failed in the pipeline: ${shown.join(', ')}${rest > 0 ? `, and ${rest} more` : ''}`
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

/**
 * The verdict of a run, in words: `fail` when an assertion failed or errored, a test failed outside the
 * rag-matchers assertions, or a file or hook failed to run.
 *
 * @example
 * verdictOf({ assertions: 2, passed: 1, failed: 1, errored: 1 }).reasons // ['1 assertion errored']
 */
export function verdictOf(summary: Pick<RagReport['summary'], 'failed' | 'errored'>, run?: RunOutcome): RagReport['verdict'] {
  const reasons: string[] = []
  const failedOnly = summary.failed - summary.errored
  if (failedOnly > 0) reasons.push(`${plural(failedOnly, 'assertion')} failed`)
  if (summary.errored > 0) reasons.push(`${plural(summary.errored, 'assertion')} errored`)
  if (run !== undefined && run.failedOutside.length > 0) reasons.push(`${plural(run.failedOutside.length, 'test')} failed outside rag-matchers assertions`)
  if (run !== undefined && run.fileErrors.length > 0) {
    const n = run.fileErrors.length
    reasons.push(`${n} ${n === 1 ? 'file or hook' : 'files or hooks'} failed to run`)
  }
  return { status: reasons.length === 0 ? 'pass' : 'fail', reasons }
}

function mean(values: ReadonlyArray<number | null>): number | null {
  if (values.length === 0) return null
  let sum = 0
  for (const v of values) {
    if (v === null) return null
    sum += v
  }
  return sum / values.length
}

function rowBaseline(parts: readonly ReportAssertion[], value: number | null): MetricRow['baseline'] {
  if (parts.length === 1) return parts[0]?.baseline
  const baselines = parts.map((p) => p.baseline)
  const first = baselines[0]
  if (first === undefined || value === null || baselines.some((b) => b === undefined || b.mean !== first.mean)) return undefined
  return { mean: first.mean, delta: value - first.mean }
}

/** The sum of the `extra.usage` the assertions recorded (`{ promptTokens, completionTokens, calls }`); malformed entries are skipped. */
export function sumUsage(assertions: readonly Pick<ReportAssertion, 'extra'>[]): JudgeUsage | undefined {
  let promptTokens = 0
  let completionTokens = 0
  let calls = 0
  let any = false
  for (const a of assertions) {
    const u = a.extra?.usage as { promptTokens?: unknown; completionTokens?: unknown; calls?: unknown } | undefined
    if (u === null || typeof u !== 'object') continue
    const counts = [u.promptTokens, u.completionTokens, u.calls]
    if (!counts.every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0)) continue
    promptTokens += u.promptTokens as number
    completionTokens += u.completionTokens as number
    calls += u.calls as number
    any = true
  }
  return any ? { promptTokens, completionTokens, calls } : undefined
}

function buildRow(key: string, parts: readonly ReportAssertion[]): { row: MetricRow; keys: string[] } {
  const first = parts[0] as ReportAssertion
  const failedAssertions = parts.filter((p) => !p.outcome).length
  const errored = parts.filter((p) => p.status === 'error').length
  const causes = [...new Set(parts.filter((p) => !p.outcome).flatMap((p) => causeOf(p) ?? []))].slice(0, 5)
  const usage = sumUsage(parts)
  const common = {
    key,
    metric: metricLabel(first.metric),
    matcher: first.matcher,
    signature: first.signature,
    ...(first.threshold !== undefined ? { threshold: first.threshold } : {}),
    comparator: first.comparator,
    isNot: first.isNot,
    ...(first.scale !== undefined ? { scale: first.scale } : {}),
    assertions: parts.length,
    failedAssertions,
    errored,
    ...(causes.length > 0 ? { causes } : {}),
    ...(usage !== undefined ? { usage } : {}),
    pass: failedAssertions === 0,
  }
  if (first.perCase === undefined) {
    const row: MetricRow = {
      ...common,
      aggregate: 'set-level',
      value: first.value,
      n: first.setSize ?? 0,
      failingCases: [],
      ...(first.baseline ? { baseline: first.baseline } : {}),
    }
    return { row, keys: [] }
  }
  // Union of per-case values in canonical order; a case already given by an earlier assertion is skipped
  // (the same set asserted twice counts once), duplicates inside one assertion are kept as the matcher kept them.
  const values: CaseValue[] = []
  const keys: string[] = []
  const seen = new Set<string>()
  for (const part of parts) {
    const local = new Set<string>()
    for (const [i, c] of (part.perCase ?? []).entries()) {
      const k = caseKey(part, c, textAt(part, i))
      if (seen.has(k) && !local.has(k)) continue
      local.add(k)
      values.push({ id: c.id, value: c.value, ...(c.pass !== undefined ? { pass: c.pass } : {}) })
      keys.push(k)
    }
    for (const k of local) seen.add(k)
  }
  const cut = parts.some((p) => p.perCaseTotal !== undefined)
  let value: number | null
  let n: number
  let aggregate: MetricRow['aggregate'] = 'mean'
  if (parts.length === 1) {
    value = first.value
    n = first.perCaseTotal ?? first.perCase.length
  } else if (cut) {
    aggregate = 'weighted-mean'
    n = parts.reduce((s, p) => s + (p.perCaseTotal ?? p.perCase?.length ?? 0), 0)
    value = parts.some((p) => p.value === null) ? null : parts.reduce((s, p) => s + (p.value as number) * (p.perCaseTotal ?? p.perCase?.length ?? 0), 0) / n
  } else {
    value = mean(values.map((v) => v.value))
    n = values.length
  }
  const failingCases = first.isNot ? [] : values.filter((v) => v.pass === false).map((v) => v.id)
  const baseline = rowBaseline(parts, value)
  const row: MetricRow = { ...common, aggregate, value, n, values, failingCases, ...(baseline ? { baseline } : {}) }
  return { row, keys }
}

/** Adds `item` to the list under `key`; a Map keeps its keys in first-seen order, which the report relies on. */
function append<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const list = groups.get(key)
  if (list) list.push(item)
  else groups.set(key, [item])
}

function buildEvalSet(key: string, name: string, source: 'set' | 'describe', parts: readonly ReportAssertion[]): EvalSetSection {
  const rows = new Map<string, ReportAssertion[]>()
  for (const p of parts) append(rows, rowKey(p), p)
  const metrics: MetricRow[] = []
  const caseRows = new Map<string, { text: RecordedCaseText | undefined; values: Record<string, CaseValue>; failing: string[]; id: string }>()
  const ensureCase = (k: string, id: string) => {
    let row = caseRows.get(k)
    if (!row) {
      row = { text: undefined, values: {}, failing: [], id }
      caseRows.set(k, row)
    }
    return row
  }
  // Case texts first, in canonical order, so the question table follows the set's own order.
  for (const p of parts) {
    for (const text of p.cases ?? []) ensureCase(caseKey(p, text, text), text.id).text ??= text
  }
  for (const [k, list] of rows) {
    const { row, keys } = buildRow(k, list)
    metrics.push(row)
    row.values?.forEach((v, i) => {
      const c = ensureCase(keys[i] as string, v.id)
      if (c.values[k] === undefined) c.values[k] = v
      if (!row.isNot && v.pass === false && !c.failing.includes(row.metric)) c.failing.push(row.metric)
    })
  }
  const cases: CaseRow[] = [...caseRows.values()].map(({ id, text, values, failing }) => ({
    id,
    ...(text?.question !== undefined ? { question: text.question } : {}),
    ...(text?.answer !== undefined ? { answer: text.answer } : {}),
    ...(text?.reference !== undefined ? { reference: text.reference } : {}),
    ...(text?.retrieved !== undefined ? { retrieved: text.retrieved } : {}),
    ...(text?.relevant !== undefined ? { relevant: text.relevant } : {}),
    ...(text?.error !== undefined ? { error: text.error } : {}),
    values,
    failing,
  }))
  const regressed = parts.flatMap(regressedCasesOf).slice(0, 50)
  const baselines = parts.flatMap(baselineComparisons)
  // Latency, tokens and cost (measured rows, issue #31) after the asserted metrics, from each case once.
  metrics.push(
    ...performanceRows(
      [...caseRows.values()].flatMap((c) => (c.text === undefined ? [] : [c.text])),
      parts,
    ),
  )
  return {
    key,
    name,
    source,
    files: [...new Set(parts.map((p) => p.file))],
    tests: [...new Set(parts.map((p) => p.fullName))],
    pass: metrics.every((m) => m.pass),
    metrics: metrics.map((m) => withBaselineLine(m, baselines)),
    baselines,
    ...(regressed.length > 0 ? { regressedCases: regressed } : {}),
    cases,
  }
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

function worstOf(list: readonly unknown[]): NonNullable<BaselineComparison['worst']> {
  const out: Array<{ id: string; baseline: number; current: number; delta: number }> = []
  for (const w of list.slice(0, 10)) {
    if (w === null || typeof w !== 'object') continue
    const { id, baseline, current, delta } = w as Record<string, unknown>
    const b = numberOrNull(baseline)
    const c = numberOrNull(current)
    const d = numberOrNull(delta)
    if (typeof id === 'string' && b !== null && c !== null && d !== null) out.push({ id, baseline: b, current: c, delta: d })
  }
  return out
}

/** `meta.extra.regressedCases` of a baseline assertion: `[{ case, metric, baseline, current }]`; malformed entries are skipped. */
function regressedCasesOf(a: ReportAssertion): RegressedCase[] {
  const list = a.extra?.regressedCases
  if (!Array.isArray(list)) return []
  const out: RegressedCase[] = []
  for (const r of list) {
    if (r === null || typeof r !== 'object') continue
    const e = r as Record<string, unknown>
    const id = typeof e.case === 'string' || typeof e.case === 'number' ? String(e.case) : typeof e.id === 'string' ? e.id : undefined
    if (id === undefined || typeof e.metric !== 'string') continue
    out.push({ case: id, metric: e.metric, baseline: numberOrNull(e.baseline), current: numberOrNull(e.current) })
  }
  return out
}

/** `[low, high]`: two finite numbers in order; anything else (a hand-edited report) is no interval. */
function intervalOf(v: unknown): readonly [number, number] | undefined {
  if (!Array.isArray(v) || v.length !== 2) return undefined
  const [low, high] = v as unknown[]
  return typeof low === 'number' && typeof high === 'number' && Number.isFinite(low) && Number.isFinite(high) && low <= high ? [low, high] : undefined
}

/** `meta.extra.metrics` of a baseline assertion: `[{ metric, baseline, current, delta, pValue, status, n }]`. */
function baselineComparisons(a: ReportAssertion): BaselineComparison[] {
  const list = a.extra?.metrics
  if (!Array.isArray(list)) return []
  const out: BaselineComparison[] = []
  for (const m of list) {
    if (m === null || typeof m !== 'object') continue
    const e = m as Record<string, unknown>
    if (typeof e.metric !== 'string' || !('baseline' in e) || !('current' in e)) continue
    out.push({
      assertion: a.metric,
      fullName: a.fullName,
      metric: e.metric,
      baseline: numberOrNull(e.baseline),
      current: numberOrNull(e.current),
      delta: numberOrNull(e.delta),
      ...('pValue' in e ? { pValue: numberOrNull(e.pValue) } : {}),
      ...(intervalOf(e.ci) !== undefined ? { ci: intervalOf(e.ci) as [number, number] } : {}),
      ...(intervalOf(e.ci) !== undefined && typeof a.extra?.confidence === 'number' ? { confidence: a.extra.confidence } : {}),
      ...(typeof e.status === 'string' ? { status: e.status } : {}),
      ...(typeof e.n === 'number' ? { n: e.n } : {}),
      ...(numberOrNull(e.tolerance) !== null ? { tolerance: e.tolerance as number } : {}),
      ...(Array.isArray(e.worst) ? { worst: worstOf(e.worst) } : {}),
      ...(typeof e.signature === 'string' ? { signature: e.signature } : {}),
    })
  }
  return out
}

/**
 * A signature without its version entries (`version:`, the package; `rev:`, the metric revision) and the
 * eval-set-only `failed:` choice: what says whether a matcher's row and a baseline metric computed the same number.
 */
function comparableSignature(signature: string): string {
  return signature
    .split('|')
    .filter((part) => !/^(version|rev|failed):/.test(part))
    .join('|')
}

/**
 * The metric row's baseline line: the set's baseline comparison computed with the same settings (same
 * signature but for versions) and a finite baseline mean. Labels are not compared (`mean R@3` vs
 * `recall@3`), and a row never gets a baseline computed with other settings.
 */
function withBaselineLine(row: MetricRow, baselines: readonly BaselineComparison[]): MetricRow {
  if (row.baseline !== undefined || row.value === null) return row
  const want = comparableSignature(row.signature)
  const match = baselines.find((b) => b.signature !== undefined && b.baseline !== null && comparableSignature(b.signature) === want)
  if (match === undefined || match.baseline === null) return row
  return {
    ...row,
    baseline: {
      mean: match.baseline,
      delta: row.value - match.baseline,
      ...(match.ci !== undefined ? { ci: match.ci } : {}),
      ...(match.ci !== undefined && match.confidence !== undefined ? { confidence: match.confidence } : {}),
    },
  }
}

/**
 * Groups assertions into eval sets and per-file single-case sections.
 *
 * Grouping key of an eval set (an assertion with `perCase`, or whose received value was an eval set):
 * its `set` name when it has one (`meta.set`, `meta.extra.set`, or `{ name, cases }` received), which
 * pools assertions across files and shards; otherwise the test file plus its describe-block path.
 * Inside a set, one metric row per (matcher, signature, threshold, `.not`). Everything is in the
 * canonical order of {@link compareAssertions}, so a sharded-then-merged run yields the same numbers
 * as an unsharded run, bit for bit.
 *
 * @example
 * buildReport([], { runner: 'vitest' }).summary.assertions // 0
 */
export function buildReport(assertions: readonly ReportAssertion[], options: BuildReportOptions): RagReport {
  const ordered = [...assertions].sort(compareAssertions)
  const sets = new Map<string, { name: string; source: 'set' | 'describe'; parts: ReportAssertion[] }>()
  const singles = new Map<string, ReportAssertion[]>()
  for (const a of ordered) {
    if (isSetAssertion(a)) {
      const g = groupKey(a)
      const entry = sets.get(g.key)
      if (entry) entry.parts.push(a)
      else sets.set(g.key, { name: g.name, source: g.source, parts: [a] })
    } else {
      append(singles, a.file, a)
    }
  }
  const evalSets = [...sets.entries()].map(([key, g]) => buildEvalSet(key, g.name, g.source, g.parts))
  const passed = ordered.filter((a) => a.outcome).length
  const summary = {
    assertions: ordered.length,
    passed,
    failed: ordered.length - passed,
    errored: ordered.filter((a) => a.status === 'error').length,
    evalSets: evalSets.length,
    files: new Set(ordered.map((a) => a.file)).size,
  }
  const usage = sumUsage(ordered)
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    generator: { name: 'rag-matchers', version: VERSION },
    runner: options.runner,
    createdAt: (options.createdAt ?? new Date()).toISOString(),
    ...(options.shard ? { shard: { index: options.shard.index, count: options.shard.count } } : {}),
    ...(options.mergedFrom !== undefined ? { mergedFrom: options.mergedFrom } : {}),
    summary: usage !== undefined ? { ...summary, judgeUsage: usage } : summary,
    verdict: verdictOf(summary, options.run),
    ...(options.run !== undefined ? { run: options.run } : {}),
    evalSets,
    singles: [...singles.entries()].map(([file, list]) => ({ file, pass: list.every((a) => a.outcome), assertions: list })),
    assertions: ordered,
  }
}

/** The report fields of a recorded assertion, given where it ran. Unknown record versions are refused by the caller. */
export function fromRecord(
  record: RecordedAssertion,
  where: { file: string; describe: readonly string[]; test: string; fullName: string; testIndex: number; index: number },
): ReportAssertion {
  return {
    file: where.file,
    describe: [...where.describe],
    test: where.test,
    fullName: where.fullName,
    testIndex: where.testIndex,
    index: where.index,
    matcher: record.matcher,
    metric: record.metric,
    value: record.value,
    ...(record.threshold !== undefined ? { threshold: record.threshold } : {}),
    comparator: record.comparator,
    pass: record.pass,
    isNot: record.isNot,
    outcome: record.outcome,
    signature: record.signature,
    ...(record.scale !== undefined ? { scale: record.scale } : {}),
    ...(record.set !== undefined ? { set: record.set } : {}),
    ...(record.setSize !== undefined ? { setSize: record.setSize } : {}),
    ...(record.perCase !== undefined ? { perCase: record.perCase } : {}),
    ...(record.perCaseTotal !== undefined ? { perCaseTotal: record.perCaseTotal } : {}),
    ...(record.baseline !== undefined ? { baseline: record.baseline } : {}),
    ...(record.cases !== undefined ? { cases: record.cases } : {}),
    ...(record.extra !== undefined ? { extra: record.extra } : {}),
    // lower is better (TER): `rag-matchers compare` tests such a metric in its good direction
    ...(record.direction === 'lower' ? { direction: 'lower' as const } : {}),
    ...(record.status === 'error' ? { status: 'error' as const, error: record.error ?? 'unknown error' } : {}),
    ...(record.case !== undefined ? { case: record.case } : {}),
  }
}

/** Is this a record this version can read (a JSON line or a `task.meta` entry)? */
export function isRecord(value: unknown): value is RecordedAssertion {
  if (value === null || typeof value !== 'object') return false
  const r = value as Partial<RecordedAssertion>
  return r.v === 1 && typeof r.matcher === 'string' && typeof r.metric === 'string' && typeof r.outcome === 'boolean'
}
