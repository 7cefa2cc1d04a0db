import { relative } from 'node:path'
import { MetricInputError } from '../src/errors.js'
import { baselinePathFor, BaselineFileError, readBaselineFile, writeBaselineEntry, type BaselineEntry, type BaselineMetric } from '../src/eval-set/baseline-file.js'
import {
  compareRuns,
  type CaseCoverage,
  type MetricComparison,
  type MetricRun,
  type MetricValues,
  type RunComparison,
  type SignificanceTest,
} from '../src/eval-set/compare-runs.js'
import { describeRevisionChange, identitySignature } from '../src/eval-set/metric-revisions.js'
import { computeMetric, metricKind, metricRunOf, metricScale, type MetricSpec } from '../src/eval-set/metrics.js'
import { firstHole, holeProblem } from '../src/dense-array.js'
import { optionsProblem, unknownKeyProblem } from '../src/options.js'
import { isCiEnvironment } from '../src/eval-set/run-eval-set.js'
import type { EvalCase } from '../src/eval-case.js'
import { caseLabel, caseReferences } from '../src/eval-case.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { buildMessage, formatNumber, list, table, terminalSafe } from './message.js'
import { asMetricSpec, differenceOf, labelOf, reportLabelOf, resolveMetricSpecs, retrievedHaveScores, signatureLines, type BaselineMetricSpec } from './baseline-metrics.js'
import { declareMatcher } from './declare.js'
import { refuseBlankReferences } from './generation-received.js'
import { denseCases, matcherError } from './validate.js'

/** What a baseline write reports (see {@link MetricBaselineOptions.onWrite}). */
export interface BaselineWriteInfo {
  readonly file: string
  readonly name: string
  readonly metrics: readonly string[]
  readonly cases: number
  /** `'new'`: the entry or some of its metrics did not exist; `'update'`: rewritten under `RAG_MATCHERS_UPDATE_BASELINES`. */
  readonly reason: 'new' | 'update'
}

export interface MetricBaselineOptions {
  /**
   * Registry names (`recall@k`, `precision@k`, `ndcg@k`, `mrr`, `hit@k`, `map@k`, `sentenceBleu`,
   * `sentenceChrf`, `rouge1`, `rouge2`, `rougeL`, `rougeLsum`, `meteor`, `ter`; `bleu`/`chrf` are the
   * older names of the mean sentence scores), or a name with the options its matcher takes:
   * `{ metric: 'ndcg@3', order: 'score', gain: 'exponential' }`, `{ metric: 'sentenceBleu', tokenize: 'intl' }`.
   * The options are part of each metric's signature; values stored with other settings are not compared.
   */
  readonly metrics: readonly MetricSpec[]
  /** Smallest drop that can fail, as a fraction of the metric's full scale (0.02 = 2 BLEU points). @default 0.02 */
  readonly tolerance?: number | Readonly<Record<string, number>>
  /** Significance level of the one-sided test. @default 0.05 */
  readonly alpha?: number
  /**
   * `'bootstrap'`, `'permutation'` (sign-flip), or `'none'`: a tolerance-only gate, for sets too small
   * for a test to reach `alpha` (any drop beyond the tolerance fails). @default 'bootstrap'
   */
  readonly test?: SignificanceTest
  /**
   * `'equal'`: the run's case ids must be the baseline's (added or removed cases fail, listed, until
   * the baseline is updated); `'shared'`: compare only the cases in both (still fails when none are shared). @default 'equal'
   */
  readonly cases?: CaseCoverage
  /** Also fail on `dropped (not significant)` (a drop beyond the tolerance the test cannot tell from noise). @default false */
  readonly failOnDrop?: boolean
  /**
   * Per-case gate: fail when more than this many cases regressed on any metric (a case regresses when
   * its own value drops by more than the tolerance), even when the mean's drop is not significant or
   * the mean held. `0`: no case may regress. Absent: off (the regressed cases are still listed).
   */
  readonly maxRegressedCases?: number
  /** @default 10_000 */
  readonly resamples?: number
  /** @default 42 */
  readonly seed?: number
  /** The test file the baseline belongs to, when the runner does not give one (`this.testPath`). */
  readonly file?: string
  /** Folder of the baseline files. @default '<test file folder>/__rag_baselines__' */
  readonly dir?: string
  /** Called when a baseline is written; by default a line goes to `console.info`. */
  readonly onWrite?: (info: BaselineWriteInfo) => void
}

/** Typed signatures of the eval-set matchers. */
export interface EvalSetMatchers<R = unknown> {
  /**
   * Per-case metric values of the received run hold against the stored baseline `name`
   * (`__rag_baselines__/<test file>.json`): fails on a significant drop beyond `tolerance`, on more
   * regressed cases than `maxRegressedCases`, on changed signatures, and (in CI) on a missing
   * baseline. Rewritten only under `RAG_MATCHERS_UPDATE_BASELINES=1`. See `toMatchMetricBaseline`.
   */
  toMatchMetricBaseline(name: string, options: MetricBaselineOptions): R
}

/** The part of the matcher state that says whether snapshots may be written (Jest and Vitest both have it). */
interface BaselineMatcherContext extends MatcherContext {
  readonly snapshotState?: { readonly _updateSnapshot?: unknown }
}

const MATCHER = 'toMatchMetricBaseline'
/** Rows of dropped cases shown per regressed metric (a message may list several metrics). */
const WORST_CASES = 5
const ARGS = 'name, options'
/** The switch that rewrites existing baselines (`-u` does not). */
export const UPDATE_BASELINES_ENV = 'RAG_MATCHERS_UPDATE_BASELINES'
/** Entries of `meta.extra.regressedCases` kept per metric (the record keeps ≤ 4000 characters of extra). */
const META_CASES_PER_METRIC = 10

/**
 * `RAG_MATCHERS_UPDATE_BASELINES`: unset or empty → `'off'`; `1` or `true` → `'on'` (refused in CI);
 * `force` → `'force'` (also in CI). Any other value is a Matcher error naming the variable.
 */
function updateSwitch(ctx: MatcherContext): 'off' | 'on' | 'force' {
  const raw = process.env[UPDATE_BASELINES_ENV]
  if (raw === undefined || raw === '') return 'off'
  if (raw === '1' || raw === 'true') return 'on'
  if (raw === 'force') return 'force'
  return matcherError(
    ctx,
    MATCHER,
    ARGS,
    `the environment variable ${UPDATE_BASELINES_ENV} must be unset or empty (compare), 1 or true (rewrite the baselines; refused in CI) or force (rewrite, also in CI); got ${JSON.stringify(raw)}`,
  )
}

function decimalsFor(metric: string): number {
  return metricScale(metric) === 100 ? 2 : 4
}

function fmt(metric: string, value: number): string {
  return formatNumber(value, undefined, decimalsFor(metric))
}

function signed(metric: string, value: number): string {
  const text = fmt(metric, value)
  return value > 0 ? `+${text}` : text
}

function formatP(p: number): string {
  if (!Number.isFinite(p)) return String(p)
  return p < 0.0001 ? p.toExponential(1) : p.toFixed(4)
}

function readCases(ctx: MatcherContext, received: unknown): readonly EvalCase[] {
  const cases = Array.isArray(received)
    ? received
    : received !== null && typeof received === 'object' && Array.isArray((received as { cases?: unknown }).cases)
      ? (received as { cases: unknown[] }).cases
      : matcherError(ctx, MATCHER, ARGS, 'received value must be an eval run (`{ cases }`, e.g. from runEvalSet or describeEvalSet) or an array of cases', received)
  if (cases.length === 0) matcherError(ctx, MATCHER, ARGS, 'received eval set must contain at least one case', received)
  denseCases(ctx, MATCHER, ARGS, cases).forEach((c, i) => {
    if (c === null || typeof c !== 'object') matcherError(ctx, MATCHER, ARGS, `received case [${i}] must be an object`, c)
  })
  return cases as readonly EvalCase[]
}

/**
 * The checks the metric matchers make on their input, so a baseline never stores what they refuse:
 * holes in `retrieved`, `relevant` or `references`, a ground truth without a relevant id (unless the
 * metric is given `allowEmptyRelevant: true`), a blank reference. Both directions; names the case and field.
 */
function checkCaseInputs(ctx: MatcherContext, cases: readonly EvalCase[], specs: readonly BaselineMetricSpec[]): void {
  const retrieval = specs.filter((s) => metricKind(s.name) === 'retrieval')
  const generation = specs.some((s) => metricKind(s.name) === 'generation')
  cases.forEach((c, i) => {
    if (c.error !== undefined && c.error !== null) return
    const where = (field: string) => `received[${i}] (case ${caseLabel(c, i)}): ${field}`
    if (retrieval.length > 0) {
      for (const field of ['retrieved', 'relevant'] as const) {
        const value = c[field]
        if (Array.isArray(value)) {
          const hole = firstHole(value)
          if (hole >= 0) matcherError(ctx, MATCHER, ARGS, `${where(holeProblem(field, hole))}; every entry must be an id`)
        }
      }
      for (const spec of retrieval) {
        if (spec.options.allowEmptyRelevant === true) continue
        try {
          computeMetric(spec.name, c, { ...spec.options, allowEmptyRelevant: false })
        } catch (error) {
          if (!(error instanceof MetricInputError)) throw error
          // the other input errors (a missing field, a bad option value) are named by metricRunOf as before
          if (error.argument === 'relevant') matcherError(ctx, MATCHER, ARGS, `${where('relevant')} (${spec.name}) must be ${error.expected}`, error.received)
        }
      }
    }
    if (generation) {
      const refs = caseReferences(c)
      if (refs === undefined) return // metricRunOf names the missing field
      const hole = firstHole(refs)
      if (hole >= 0) matcherError(ctx, MATCHER, ARGS, `${where(holeProblem('references', hole))}; every reference must be a string`)
      refs.forEach((r, j) => {
        if (typeof r !== 'string') matcherError(ctx, MATCHER, ARGS, `${where(`references[${j}]`)} must be a string`, r)
      })
      refuseBlankReferences(ctx, MATCHER, ARGS, refs, (j) => where(Array.isArray(c.references) ? `references[${j}]` : 'reference'))
    }
  })
}

interface Resolved {
  /** The metric names (baseline keys), in the order given. */
  readonly metrics: string[]
  readonly specs: readonly BaselineMetricSpec[]
  readonly tolerance: MetricBaselineOptions['tolerance']
  readonly alpha: number
  readonly test: SignificanceTest
  readonly resamples: number
  readonly seed: number
  readonly cases: CaseCoverage
  readonly failOnDrop: boolean
  readonly maxRegressedCases: number | undefined
}

const isCaseCount = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v >= 0

function resolveOptions(ctx: MatcherContext, name: unknown, options: unknown): Resolved {
  if (typeof name !== 'string' || name.trim().length === 0) matcherError(ctx, MATCHER, ARGS, 'name must be a non-empty string naming the baseline entry (not blank)', name)
  if (options === null || typeof options !== 'object') matcherError(ctx, MATCHER, ARGS, 'options must be an object with `metrics`', options)
  const o = options as MetricBaselineOptions
  const specs = resolveMetricSpecs(ctx, o.metrics)
  const tolerance = o.tolerance ?? 0.02
  const badTolerance = (t: unknown) => typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 1
  if (typeof tolerance === 'number' ? badTolerance(tolerance) : tolerance === null || typeof tolerance !== 'object' || Object.values(tolerance).some(badTolerance)) {
    matcherError(ctx, MATCHER, ARGS, 'options.tolerance must be a number from 0 to 1 (a fraction of the metric scale), or a record of metric → such a number', tolerance)
  }
  if (typeof tolerance === 'object') {
    // a Map, a class instance or inherited keys would pass the value check above with no value read, and the
    // default tolerance would be used in silence: the one options rule (src/options.ts) applies to the record too
    const shape = optionsProblem(tolerance, 'options.tolerance')
    if (shape !== undefined) matcherError(ctx, MATCHER, ARGS, `${shape.problem} (a record of metric → tolerance)`, tolerance)
    const names = specs.map((s) => s.name)
    for (const key of Object.keys(tolerance)) {
      if (!names.includes(key)) {
        matcherError(
          ctx,
          MATCHER,
          ARGS,
          `options.tolerance: ${unknownKeyProblem(key, names, 'metric')}; its keys must be metrics of options.metrics (${names.join(', ')})`,
          tolerance,
        )
      }
    }
  }
  const alpha = o.alpha ?? 0.05
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) matcherError(ctx, MATCHER, ARGS, 'options.alpha must be a number strictly between 0 and 1', alpha)
  const test = o.test ?? 'bootstrap'
  if (test !== 'bootstrap' && test !== 'permutation' && test !== 'none') matcherError(ctx, MATCHER, ARGS, "options.test must be 'bootstrap', 'permutation' or 'none'", test)
  const cases = o.cases ?? 'equal'
  if (cases !== 'equal' && cases !== 'shared') matcherError(ctx, MATCHER, ARGS, "options.cases must be 'equal' or 'shared'", cases)
  const failOnDrop = o.failOnDrop ?? false
  if (typeof failOnDrop !== 'boolean') matcherError(ctx, MATCHER, ARGS, 'options.failOnDrop must be a boolean', failOnDrop)
  const maxRegressedCases = o.maxRegressedCases
  if (maxRegressedCases !== undefined && !isCaseCount(maxRegressedCases))
    matcherError(ctx, MATCHER, ARGS, 'options.maxRegressedCases must be an integer ≥ 0', maxRegressedCases)
  const resamples = o.resamples ?? 10_000
  if (!Number.isInteger(resamples) || resamples < 1) matcherError(ctx, MATCHER, ARGS, 'options.resamples must be a positive integer', resamples)
  const seed = o.seed ?? 42
  if (!Number.isInteger(seed)) matcherError(ctx, MATCHER, ARGS, 'options.seed must be an integer', seed)
  for (const key of ['file', 'dir'] as const) {
    if (o[key] !== undefined && (typeof o[key] !== 'string' || o[key].length === 0)) matcherError(ctx, MATCHER, ARGS, `options.${key} must be a non-empty path`, o[key])
  }
  if (o.onWrite !== undefined && typeof o.onWrite !== 'function') matcherError(ctx, MATCHER, ARGS, 'options.onWrite must be a function', o.onWrite)
  return { metrics: specs.map((s) => s.name), specs, tolerance, alpha, test, resamples, seed, cases, failOnDrop, maxRegressedCases }
}

function pick(run: BaselineEntry, metrics: readonly string[]): BaselineEntry {
  const out: Record<string, BaselineMetric> = Object.create(null) as Record<string, BaselineMetric>
  for (const m of metrics) {
    const mv = run.metrics[m]
    if (mv !== undefined) out[m] = mv
  }
  return { metrics: out }
}

/** What a baseline stores: the identity signature (settings + `rev`, no package version) and the measure's name with its settings. */
function asBaselineEntry(run: MetricRun, specs: readonly BaselineMetricSpec[]): BaselineEntry {
  const out: Record<string, BaselineMetric> = Object.create(null) as Record<string, BaselineMetric>
  for (const [m, mv] of Object.entries(run.metrics) as Array<[string, MetricValues]>) {
    // a lower-is-better metric (TER) keeps its flag for compareRuns; the file stores only measure, signature and values
    const lower = (mv as { higherIsBetter?: unknown }).higherIsBetter === false ? { higherIsBetter: false } : {}
    out[m] = { measure: reportLabelOf(specs, m), signature: identitySignature(mv.signature), values: mv.values, ...lower }
  }
  return { metrics: out }
}

function display(file: string): string {
  const rel = relative(process.cwd(), file)
  return rel.length > 0 && !rel.startsWith('..') ? rel : file
}

/** A path as a shell argument. */
function shellArg(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`
}

/** How to rewrite the baseline on purpose (the commands name the test file). */
function updateHint(testFile: string, why = 'If the change is intended'): string {
  const t = shellArg(display(testFile))
  return [
    `${why}, update the baseline on purpose and commit the file:`,
    `  ${UPDATE_BASELINES_ENV}=1 npx vitest run ${t}`,
    `  ${UPDATE_BASELINES_ENV}=1 npx jest ${t}`,
    '(-u updates snapshots only; it never rewrites a metric baseline.)',
  ].join('\n')
}

function failedCasesSection(cases: readonly EvalCase[]): string | undefined {
  const failed = cases.map((c, i) => ({ c, i })).filter(({ c }) => c.error !== undefined && c.error !== null)
  if (failed.length === 0) return undefined
  const rows = failed.map(({ c, i }) => {
    const e = c.error as { name?: unknown; message?: unknown }
    const what = typeof e.message === 'string' ? `${typeof e.name === 'string' ? `${e.name}: ` : ''}${e.message}` : String(c.error)
    return [caseLabel(c, i), what.replace(/\r?\n/g, ' ⏎ ')]
  })
  return `${failed.length} of ${cases.length} cases failed in the pipeline:\n${table(rows)}`
}

/** The status word of a metric as the message shows it: an incomparable one says which keys differ. */
function statusWord(m: MetricComparison): string {
  return m.status === 'incomparable' ? `not comparable: ${differenceOf(m)}` : m.status
}

/** The status as `meta.extra.metrics[].status` records it for the reports (`incomparable: order:given → order:score`, which the HTML marks). */
function recordedStatus(m: MetricComparison): string {
  return m.status === 'incomparable' ? `incomparable: ${differenceOf(m)}` : m.status
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null)

function formatDecimals(metric: string, value: number): string {
  return Number.isFinite(value) ? fmt(metric, value) : 'n/a'
}

function summaryTable(comparison: RunComparison, specs: readonly BaselineMetricSpec[]): string {
  const confidence = Math.round(comparison.options.confidence * 100)
  const header = ['measure', 'baseline', 'current', 'delta', `${confidence}% CI`, 'p', 'tolerance', 'status']
  const rows = comparison.metrics.map((m) => [
    labelOf(specs, m.metric) + (m.higherIsBetter ? '' : ' (lower is better)'),
    formatDecimals(m.metric, m.baselineMean),
    formatDecimals(m.metric, m.currentMean),
    Number.isFinite(m.delta) ? signed(m.metric, m.delta) : 'n/a',
    Number.isFinite(m.ci[0]) ? `[${fmt(m.metric, m.ci[0])}, ${fmt(m.metric, m.ci[1])}]` : 'n/a',
    comparison.options.test === 'none' || !Number.isFinite(m.pValue) ? '—' : formatP(m.pValue),
    fmt(m.metric, m.tolerance),
    statusWord(m),
  ])
  return table([header, ...rows], { max: rows.length + 1 })
}

/** The cases that moved most for the worse (the good direction decides), at most `max`. */
function droppedCases(m: MetricComparison, max = WORST_CASES): MetricComparison['perCase'] {
  const worse = m.perCase.filter((c) => (m.higherIsBetter ? c.delta < 0 : c.delta > 0))
  return worse.slice(0, max)
}

/** Per metric, the cases that regressed on their own (dropped by more than the tolerance), worst first, bounded. */
function regressedCasesSection(comparison: RunComparison, specs: readonly BaselineMetricSpec[]): string | undefined {
  const parts = comparison.metrics
    .filter((m) => m.regressedCases.length > 0)
    .map((m) => {
      const rows = m.regressedCases.map((c) => [c.id, m.metric, `${fmt(m.metric, c.baseline)} → ${fmt(m.metric, c.current)}`, `(${signed(m.metric, c.delta)})`])
      const by = m.tolerance > 0 ? ` by more than the tolerance ${fmt(m.metric, m.tolerance)}` : ''
      return `cases that regressed in ${labelOf(specs, m.metric)} (${m.regressedCases.length} of ${m.n} dropped${by}), worst first:\n${table(rows, { max: WORST_CASES })}`
    })
  return parts.length > 0 ? parts.join('\n') : undefined
}

function coverageLine(comparison: RunComparison): string {
  const c = comparison.coverage
  return `cases: ${c.added.length} added, ${c.removed.length} removed, ${c.compared} compared (cases: '${c.mode}')`
}

function coverageSection(comparison: RunComparison): string | undefined {
  const c = comparison.coverage
  const lines = [
    c.removed.length > 0 ? `cases in the baseline but not in this run (${c.removed.length}): ${list([...c.removed])}` : undefined,
    c.added.length > 0 ? `cases in this run but not in the baseline (${c.added.length}): ${list([...c.added])}` : undefined,
  ].filter(Boolean)
  return lines.length > 0 ? lines.join('\n') : undefined
}

function revisionOrSetting(m: MetricComparison, d: { key: string; a: string | undefined; b: string | undefined }): string {
  if (d.key === 'rev') return `    ${terminalSafe(describeRevisionChange(m.currentSignature?.split('|')[0] ?? m.metric, d.a, d.b))}`
  // the baseline's side comes from a file that may have been edited by hand
  return `    ${terminalSafe(d.key)}: ${terminalSafe(d.a ?? '(absent)')} in the baseline, ${terminalSafe(d.b ?? '(absent)')} now`
}

function signatureSection(comparison: RunComparison, specs: readonly BaselineMetricSpec[]): string {
  return comparison.metrics
    .filter((m) => m.status === 'incomparable')
    .map((m) => {
      const changes = (m.signatureDifferences ?? []).map((d) => revisionOrSetting(m, d))
      const revision = (m.signatureDifferences ?? []).some((d) => d.key === 'rev')
      return [
        `  ${labelOf(specs, m.metric)}: ${revision ? "the metric's implementation changed" : 'computed with different settings'} (${terminalSafe(differenceOf(m))})`,
        ...changes,
        `    baseline signature: ${terminalSafe(String(m.baselineSignature))}`,
        `    current signature:  ${terminalSafe(identitySignature(m.currentSignature ?? ''))}`,
      ].join('\n')
    })
    .join('\n')
}

function testName(test: SignificanceTest): string {
  return test === 'bootstrap' ? 'paired bootstrap' : test === 'permutation' ? 'sign-flip permutation test' : 'tolerance-only gate (no significance test)'
}

/**
 * `expect(run).toMatchMetricBaseline(name, { metrics, tolerance = 0.02, alpha = 0.05 })`: a
 * regression gate against stored per-case metric values, like a snapshot but with statistics.
 *
 * - The baseline lives in `__rag_baselines__/<test file name>.json` next to the test file (the runner's
 *   `this.testPath`; pass `{ file }` if yours gives none, or `{ dir }` to use another folder), entry
 *   `name`, one value per case and metric plus each metric's signature.
 * - Missing entry (or metric): written, and the assertion passes, with a note on `console.info`.
 *   In CI (`CI` set) or with `--ci` (snapshot update state `'none'`), a missing baseline FAILS instead.
 * - `RAG_MATCHERS_UPDATE_BASELINES=1` (or `true`) rewrites the entry's metrics and passes; in CI it
 *   fails instead (a rewrite there is thrown away, and a forgotten variable would switch the gate off)
 *   unless the value is `force`. Any other non-empty value is a Matcher error. `-u` (snapshot update
 *   state `'all'`, `this.snapshotState._updateSnapshot`) never rewrites an existing baseline, so
 *   updating an unrelated snapshot cannot accept a metric regression; it still writes missing ones.
 * - Otherwise each metric is compared with {@link compareRuns}, and the check fails when:
 *   - a metric `regressed` (drop beyond `tolerance·scale` with one-sided `p < alpha`), listing old/new
 *     means, delta, interval, p-value, status and the cases that dropped most;
 *   - the identity changed: a setting (named, old and new value) or the metric's implementation
 *     revision (named, with its changelog line). The package version is not part of the identity, and
 *     0.1.0 baselines (`version:0.1.0`) compare by the settings they record;
 *   - the cases differ from the baseline's (`cases: 'equal'`, default), listing added and removed ids;
 *     with `cases: 'shared'` only when no case is shared. Every message says how many were added,
 *     removed and compared;
 *   - the test cannot fail: its smallest attainable p on the run's cases is not below `alpha` (the
 *     sign-flip test on 4 or fewer cases), unless `test: 'none'` chose a tolerance-only gate;
 *   - `dropped (not significant)` with `failOnDrop: true`. By default it passes (it is shown in the
 *     message and the reports): failing on drops the test cannot tell from noise makes a gate flaky;
 *   - `maxRegressedCases: n` and more than `n` cases of a metric regressed on their own (their value
 *     dropped by more than the tolerance), whatever the mean did.
 * - Every comparing message lists, per metric, the cases that regressed on their own (worst first,
 *   5 shown); `meta.extra.regressedCases` carries them for the reports.
 * - A run with failed cases fails (a baseline needs every case). `.not` is not supported.
 *
 * Entries are merged, never pruned: other entries and other metrics of the same entry are kept.
 *
 * @example
 * describeEvalSet('qa', { dataset: 'eval/qa.json', pipeline }, (run) => {
 *   it('holds the baseline', () => {
 *     expect(run).toMatchMetricBaseline('qa', { metrics: ['recall@3', 'ndcg@3', 'bleu', 'rougeL'] })
 *   })
 * })
 */
export function toMatchMetricBaseline(this: MatcherContext, received: unknown, name: string, options: MetricBaselineOptions): MatcherResult {
  const ctx = this as BaselineMatcherContext
  // the options first: a wrong option is named with and without .not
  const resolved = resolveOptions(ctx, name, options)
  // the inputs next: what the metric matchers refuse is refused here too, with and without .not
  const cases = readCases(ctx, received)
  checkCaseInputs(ctx, cases, resolved.specs)
  if (ctx.isNot) matcherError(ctx, MATCHER, ARGS, '.not.toMatchMetricBaseline is not supported: a baseline either holds or regressed')
  const updateBaselines = updateSwitch(ctx)
  const opts = options
  // retrieved items with scores: every label states its ranking, so it never reads like a matcher's `order: 'score'` row
  const statesOrder = retrievedHaveScores(cases)
  const o = statesOrder ? { ...resolved, specs: resolved.specs.map((s) => ({ ...s, statesOrder })) } : resolved
  const testFile = opts.file ?? ctx.testPath
  if (typeof testFile !== 'string' || testFile.length === 0) {
    matcherError(ctx, MATCHER, ARGS, 'the runner gave no test file path (this.testPath); pass { file: __filename } or { file: fileURLToPath(import.meta.url) }')
  }
  const file = baselinePathFor(testFile, opts.dir)
  const message = (headline: string, sections: Array<string | undefined>) => () =>
    buildMessage(ctx, { matcher: MATCHER, args: ARGS, headline, sections: [...sections, `baseline file: ${terminalSafe(display(file))}`] })
  // For reporters: value = number of regressed metrics, which must stay below 1.
  const meta = (pass: boolean, extra: Record<string, unknown>, regressedCount = pass ? 0 : 1) => ({
    matcher: MATCHER,
    metric: `metrics regressed vs baseline "${name}"`,
    value: regressedCount,
    threshold: 1,
    comparator: '<' as const,
    pass,
    signature: '',
    extra,
  })

  const failedSection = failedCasesSection(cases)
  if (failedSection !== undefined) {
    return {
      pass: false,
      message: message(`Baseline "${name}": the run cannot be compared because some cases have no result.`, [failedSection]),
      meta: meta(false, { file, failed: true }),
    }
  }

  let current: BaselineEntry
  try {
    current = asBaselineEntry(metricRunOf(cases, o.specs.map(asMetricSpec)), o.specs)
  } catch (error) {
    if (error instanceof MetricInputError) matcherError(ctx, MATCHER, ARGS, error.message)
    throw error
  }
  const caseCount = cases.length
  // the runner's snapshot update state: 'all' is -u, 'none' is --ci; -u never rewrites a baseline
  const snapshotUpdate = ctx.snapshotState?._updateSnapshot
  const ci = isCiEnvironment()
  const announce = (metrics: readonly string[], reason: BaselineWriteInfo['reason']) => {
    const info: BaselineWriteInfo = { file, name, metrics, cases: caseCount, reason }
    if (opts.onWrite) opts.onWrite(info)
    else console.info(`rag-matchers: ${reason === 'update' ? 'updated' : 'wrote'} baseline "${name}" (${metrics.join(', ')} × ${caseCount} cases) in ${display(file)}`)
  }

  // a write that fails names the file and the system's own cause (EROFS, EACCES, ENOTDIR…), never a guess
  const write = (entry: BaselineEntry) => {
    try {
      writeBaselineEntry(file, name, entry, { merge: true })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (typeof code !== 'string') throw error
      matcherError(ctx, MATCHER, ARGS, `baseline "${name}" cannot be written to ${display(file)}: ${code} (${(error as Error).message})`)
    }
  }

  if (updateBaselines !== 'off') {
    if (ci && updateBaselines !== 'force') {
      return {
        pass: false,
        message: message(`Baseline "${name}" was not rewritten: ${UPDATE_BASELINES_ENV} is set, and CI is set.`, [
          `(the CI variable is ${JSON.stringify(process.env.CI)}; rag-matchers reads CI as set unless it is empty, 0 or false)`,
          [
            'In CI a rewritten baseline is usually thrown away with the job, and a variable left in a CI',
            'configuration would turn the gate off for every later run. Update the baseline locally and commit',
            `it; to rewrite it in CI on purpose (a job that commits the result), set ${UPDATE_BASELINES_ENV}=force.`,
          ].join('\n'),
        ]),
        meta: meta(false, { file, refused: 'update in CI' }),
      }
    }
    write(current)
    announce(o.metrics, 'update')
    return {
      pass: true,
      message: message(`Baseline "${name}" was rewritten (${UPDATE_BASELINES_ENV}).`, []),
      meta: meta(true, { file, written: o.metrics }),
    }
  }

  let stored: BaselineEntry | undefined
  try {
    stored = readBaselineFile(file)?.entries[name]
  } catch (error) {
    if (error instanceof BaselineFileError) matcherError(ctx, MATCHER, ARGS, `baseline "${name}" cannot be read: ${error.message}`)
    const code = (error as NodeJS.ErrnoException).code
    if (typeof code === 'string') matcherError(ctx, MATCHER, ARGS, `baseline "${name}" cannot be read from ${display(file)}: ${code} (${(error as Error).message})`)
    throw error
  }
  // a hand-edited file: another metric's values under this key (its signature names another measure)
  for (const m of o.metrics) {
    const sm = stored?.metrics[m]
    const cm = current.metrics[m]
    if (sm === undefined || cm === undefined || sm.unsigned === true) continue
    const storedHead = identitySignature(sm.signature).split('|')[0]
    const currentHead = identitySignature(cm.signature).split('|')[0]
    if (storedHead !== currentHead) {
      matcherError(
        ctx,
        MATCHER,
        ARGS,
        `baseline file ${display(file)}, entry "${name}", metric ${m}: its signature ${JSON.stringify(sm.signature)} is not ${m}'s (${currentHead}); the values under this key belong to another measure. Fix the file or rewrite the entry with ${UPDATE_BASELINES_ENV}=1`,
      )
    }
  }
  const missing = o.metrics.filter((m) => stored?.metrics[m] === undefined)
  if (missing.length > 0) {
    if (ci || snapshotUpdate === 'none') {
      const ciValue = process.env.CI
      const why = ci
        ? 'CI is set'
        : ciValue !== undefined
          ? `the runner does not write snapshots (--ci; Jest turns it on for any CI variable other than 'false', here CI=${JSON.stringify(ciValue)}, which rag-matchers itself reads as not CI)`
          : 'the runner does not write snapshots (--ci)'
      const what = stored === undefined ? `No baseline "${name}"` : `Baseline "${name}" has no values for ${missing.join(', ')}`
      return {
        pass: false,
        message: message(`${what}, and baselines are not written here because ${why}.`, [
          ci ? `(the CI variable is ${JSON.stringify(ciValue)}; rag-matchers reads CI as set unless it is empty, 0 or false)` : undefined,
          `Run the tests locally to write it, then commit ${display(file)}. (${UPDATE_BASELINES_ENV}=1 writes it under --ci too; in CI it takes ${UPDATE_BASELINES_ENV}=force.)`,
        ]),
        meta: meta(false, { file, missing }),
      }
    }
    write(pick(current, missing))
    announce(missing, 'new')
  }
  const present = o.metrics.filter((m) => !missing.includes(m))
  if (present.length === 0) {
    return { pass: true, message: message(`Baseline "${name}" was written (first run).`, []), meta: meta(true, { file, written: missing }) }
  }

  // a metric stored without a signature was computed with the default settings (the only ones there were)
  const unsigned = present.filter((m) => (stored as BaselineEntry).metrics[m]?.unsigned === true)
  let storedPicked = pick(stored as BaselineEntry, present)
  if (unsigned.length > 0) {
    let defaults: BaselineEntry
    try {
      defaults = asBaselineEntry(metricRunOf(cases, unsigned), [])
    } catch (error) {
      if (error instanceof MetricInputError) matcherError(ctx, MATCHER, ARGS, error.message)
      throw error
    }
    const filled: Record<string, BaselineMetric> = Object.create(null) as Record<string, BaselineMetric>
    for (const [m, mv] of Object.entries(storedPicked.metrics)) {
      filled[m] = mv.unsigned === true ? { ...mv, signature: (defaults.metrics[m] as BaselineMetric).signature } : mv
    }
    storedPicked = { metrics: filled }
  }
  const unsignedNote =
    unsigned.length > 0
      ? `${unsigned.join(', ')}: stored without a signature (an older or hand-written file), so taken as computed with the default settings; ${UPDATE_BASELINES_ENV}=1 stores the signature.`
      : undefined
  const comparison = compareRuns(storedPicked, pick(current, present), {
    tolerance: o.tolerance,
    alpha: o.alpha,
    test: o.test,
    resamples: o.resamples,
    seed: o.seed,
    cases: o.cases,
    failOnDrop: o.failOnDrop,
    ...(o.maxRegressedCases !== undefined ? { maxRegressedCases: o.maxRegressedCases } : {}),
  })
  const settings =
    o.test === 'none'
      ? `${testName(o.test)}: a metric regresses when it drops by more than its tolerance`
      : `${testName(o.test)}, ${o.resamples} resamples, seed ${o.seed}; a metric regresses when it drops by more than its tolerance with one-sided p < ${o.alpha}`
  const fullExtra = {
    file,
    entry: name,
    test: o.test,
    alpha: o.alpha,
    confidence: comparison.options.confidence,
    metrics: comparison.metrics.map((m) => ({
      metric: reportLabelOf(o.specs, m.metric),
      key: m.metric,
      status: recordedStatus(m),
      ...(m.currentSignature !== undefined ? { signature: identitySignature(m.currentSignature) } : {}),
      ...(m.status === 'incomparable' && m.baselineSignature !== undefined ? { baselineSignature: identitySignature(m.baselineSignature) } : {}),
      // not compared (incomparable, no common cases): null, never NaN
      baseline: finiteOrNull(m.baselineMean),
      current: finiteOrNull(m.currentMean),
      delta: finiteOrNull(m.delta),
      // the bootstrap interval of the change (current − baseline), for the history UI's band; absent when none was computed
      ...(Number.isFinite(m.ci[0]) && Number.isFinite(m.ci[1]) ? { ci: [m.ci[0], m.ci[1]] } : {}),
      pValue: finiteOrNull(m.pValue),
      tolerance: m.tolerance,
      n: m.n,
      regressedCases: m.regressedCases.length,
      ...(m.higherIsBetter ? {} : { higherIsBetter: false }),
      // the worst cases of a drop, for the Markdown summary (bounded: the record keeps ≤ 4000 characters of extra)
      ...(m.status === 'regressed' || m.status === 'dropped (not significant)'
        ? { worst: droppedCases(m, 3).map((c) => ({ id: c.id.slice(0, 40), baseline: c.baseline, current: c.current, delta: c.delta })) }
        : {}),
    })),
    coverage: { mode: comparison.coverage.mode, added: comparison.coverage.added.length, removed: comparison.coverage.removed.length, compared: comparison.coverage.compared },
    onlyInBaseline: comparison.onlyInBaseline.length,
    onlyInCurrent: comparison.onlyInCurrent.length,
    ...(o.maxRegressedCases !== undefined ? { maxRegressedCases: o.maxRegressedCases } : {}),
  }
  // the cases that regressed on their own, per metric worst first (metric: the measure, as in `metrics`)
  const regressedCases = comparison.metrics.flatMap((m) =>
    m.regressedCases
      .slice(0, META_CASES_PER_METRIC)
      .map((c) => ({ case: c.id.slice(0, 40), metric: reportLabelOf(o.specs, m.metric), key: m.metric, baseline: c.baseline, current: c.current, delta: c.delta })),
  )
  const totalRegressedCases = comparison.metrics.reduce((s, m) => s + m.regressedCases.length, 0)
  // the reporters keep at most RECORD_LIMITS.extra (4000) characters of extra and drop a larger one whole:
  // give up regressed cases from the end, then the worst cases, before the per-metric table
  const withCases = (kept: number, metrics: ReadonlyArray<Record<string, unknown>> = fullExtra.metrics) => ({
    ...fullExtra,
    metrics,
    regressedCases: regressedCases.slice(0, kept),
    ...(totalRegressedCases > kept ? { regressedCasesOmitted: totalRegressedCases - kept } : {}),
  })
  const fits = (e: unknown) => JSON.stringify(e).length <= 3_900
  let kept = regressedCases.length
  while (kept > 0 && !fits(withCases(kept))) kept -= 1
  const extra = fits(withCases(kept))
    ? withCases(kept)
    : withCases(
        0,
        fullExtra.metrics.map(({ worst: _worst, ...rest }: { worst?: unknown }) => rest),
      )
  const failures = comparison.metrics.filter((m) => m.failed).length

  if (comparison.incomparable.length > 0) {
    const revision = comparison.metrics.some((m) => m.status === 'incomparable' && (m.signatureDifferences ?? []).some((d) => d.key === 'rev'))
    const changed = comparison.metrics.filter((m) => m.status === 'incomparable').map((m) => `${labelOf(o.specs, m.metric)} (${differenceOf(m)})`)
    return {
      pass: false,
      message: message(
        `Baseline "${name}" cannot be compared: ${changed.join(', ')} ${changed.length === 1 ? 'was' : 'were'} computed with different settings${revision ? ' or another implementation revision' : ''} than the baseline.`,
        [
          summaryTable(comparison, o.specs),
          signatureSection(comparison, o.specs),
          `Values computed with other settings${revision ? ' or by a revised implementation' : ''} are not comparable, so neither a regression nor an improvement is reported.\n${updateHint(testFile, 'If the new settings are intended')}`,
          unsignedNote,
          coverageLine(comparison),
        ],
      ),
      meta: meta(false, extra, failures),
    }
  }

  if (!comparison.coverage.ok) {
    const c = comparison.coverage
    const headline =
      c.mode === 'equal'
        ? `Baseline "${name}": the run's cases are not the baseline's (${c.added.length} added, ${c.removed.length} removed, ${c.compared} compared), so its mean is not comparable.`
        : `Baseline "${name}": no case of the run is in the baseline (${c.added.length} added, ${c.removed.length} removed, 0 compared).`
    return {
      pass: false,
      message: message(headline, [
        coverageSection(comparison),
        comparison.metrics.some((m) => m.n > 0) ? `on the ${c.compared} shared cases:\n${summaryTable(comparison, o.specs)}` : undefined,
        regressedCasesSection(comparison, o.specs),
        unsignedNote,
        c.mode === 'equal'
          ? `${updateHint(testFile, 'If the eval set changed on purpose')}\nTo compare only the cases in both, pass { cases: 'shared' }.`
          : updateHint(testFile, 'If the eval set changed on purpose'),
      ]),
      meta: meta(false, extra, Math.max(1, failures)),
    }
  }

  if (comparison.power.underpowered) {
    const p = comparison.power
    const fewest = Math.min(...comparison.metrics.filter((m) => m.n > 0).map((m) => m.n))
    return {
      pass: false,
      message: message(
        `Baseline "${name}": the ${testName(o.test)} cannot fail on ${fewest} ${fewest === 1 ? 'case' : 'cases'}: its smallest attainable p is ${formatP(p.minAttainableP)}, not below alpha ${o.alpha}.`,
        [
          summaryTable(comparison, o.specs),
          regressedCasesSection(comparison, o.specs),
          [
            'A gate that cannot fail passes every drop. Either:',
            p.casesNeeded !== undefined
              ? `  - add cases: the ${testName(o.test)} can reach p < ${o.alpha} from ${p.casesNeeded} cases (${o.resamples} resamples);`
              : undefined,
            o.test === 'permutation' ? "  - use test: 'bootstrap' (its smallest p is 1/(resamples + 1), but it is unreliable on very few cases);" : undefined,
            o.test === 'bootstrap' ? '  - raise resamples;' : undefined,
            "  - or choose a tolerance-only gate explicitly: test: 'none' (any drop beyond the tolerance fails).",
          ]
            .filter(Boolean)
            .join('\n'),
          coverageLine(comparison),
        ],
      ),
      meta: meta(false, extra, Math.max(1, failures)),
    }
  }

  const failed = comparison.metrics.filter((m) => m.failed)
  const dropped = comparison.metrics.filter((m) => m.status === 'dropped (not significant)')
  const pass = failed.length === 0
  const describe = (m: MetricComparison) =>
    `${labelOf(o.specs, m.metric)} ${fmt(m.metric, m.baselineMean)} → ${fmt(m.metric, m.currentMean)} (${signed(m.metric, m.delta)}${o.test === 'none' ? '' : `, p = ${formatP(m.pValue)}`})`
  const nCases = (n: number) => `${n} ${n === 1 ? 'case' : 'cases'}`
  const why = (m: MetricComparison) =>
    `${m.regressed ? describe(m) : `${describe(m)} ${statusWord(m)}`}${m.tooManyRegressedCases ? `, ${nCases(m.regressedCases.length)} regressed (more than maxRegressedCases: ${o.maxRegressedCases})` : ''}`
  const lone = comparison.metrics.reduce((s, m) => s + m.regressedCases.length, 0)
  const loneNote = lone > 0 ? ` ${lone === 1 ? '1 case regressed on its own' : `${lone} per-case regressions`} (listed below).` : ''
  const headline = pass
    ? dropped.length > 0
      ? `Baseline "${name}" holds, but ${dropped.map(describe).join('; ')} dropped beyond the tolerance without being significant (${settings}).${loneNote}`
      : `Baseline "${name}" holds: no metric dropped significantly (${settings}).${loneNote}`
    : `Baseline "${name}": ${failed.length} of ${comparison.metrics.length} metrics ${failed.every((m) => m.regressed) ? 'regressed' : 'failed'}: ${failed.map(why).join('; ')}`
  const strictness = [
    o.failOnDrop ? 'failOnDrop: a drop beyond the tolerance fails even when not significant' : undefined,
    o.maxRegressedCases !== undefined ? `maxRegressedCases ${o.maxRegressedCases}: more cases than that dropping by more than the tolerance fail a metric` : undefined,
  ].filter(Boolean)
  return {
    pass,
    message: message(headline, [
      summaryTable(comparison, o.specs),
      regressedCasesSection(comparison, o.specs),
      signatureLines(o.specs, comparison.metrics),
      unsignedNote,
      coverageLine(comparison),
      coverageSection(comparison),
      pass ? undefined : `${settings}${strictness.map((t) => `; ${t}`).join('')}.\n${updateHint(testFile)}`,
    ]),
    meta: meta(pass, extra, failed.length),
  }
}

// ---------------------------------------------------------------- declarations

export const baselineDeclarations = [
  declareMatcher({
    name: 'toMatchMetricBaseline',
    async: false,
    family: 'eval-set',
    summary:
      'Per-case metric values of the run hold against the stored baseline `name` (`__rag_baselines__/<test file>.json`): fails on a significant drop beyond `tolerance`, on more regressed cases than `maxRegressedCases`, on changed settings or metric revisions, on added or removed cases, on a test too weak to reach `alpha`, and (in CI) on a missing baseline. Every message lists the cases that regressed. `RAG_MATCHERS_UPDATE_BASELINES=1` rewrites it (refused in CI unless `force`); `-u` does not. `.not` is refused.',
    forms: [
      {
        received: 'an eval run: `{ cases }` (runEvalSet, describeEvalSet) or an array of cases',
        args: [{ name: 'name', type: 'string', doc: 'The entry in the baseline file.' }],
        optionsRequired: true,
        options: {
          metrics: {
            type: 'a non-empty array of metric names or { metric, ...options }',
            doc: "Registry names: `recall@k`, `precision@k`, `ndcg@k`, `mrr`, `hit@k`, `map@k`, `sentenceBleu`, `sentenceChrf` (means of sentence scores, not the corpus scores of the set matchers; `bleu`/`chrf` are their older names), `rouge1`, `rouge2`, `rougeL`, `rougeLsum`, `meteor`, `ter`; or `{ metric, ...options }` with the options the matcher takes (`{ metric: 'ndcg@3', order: 'score' }`), checked strictly. The options are in each metric's signature: values stored with other settings are refused, not compared.",
          },
          tolerance: {
            type: 'a number 0–1 or a record metric → number',
            default: '0.02',
            doc: "Smallest drop that can fail, as a fraction of the metric's full scale (0.02 = 2 BLEU points).",
          },
          alpha: { type: 'a number in (0, 1)', default: '0.05', doc: 'Significance level of the one-sided test.' },
          test: {
            type: "'bootstrap' | 'permutation' | 'none'",
            default: "'bootstrap'",
            doc: "Paired bootstrap, sign-flip permutation test, or `'none'`: a tolerance-only gate. A test whose smallest attainable p on the run's cases is not below `alpha` fails the check.",
          },
          cases: {
            type: "'equal' | 'shared'",
            default: "'equal'",
            doc: "`'equal'`: the case ids must be the baseline's (added/removed cases fail); `'shared'`: compare the shared cases only (none shared fails).",
          },
          failOnDrop: { type: 'a boolean', default: 'false', doc: 'Also fail on `dropped (not significant)`.' },
          maxRegressedCases: {
            type: 'an integer ≥ 0',
            doc: 'Per-case gate: fail when more than this many cases regressed on any metric (a case regresses when its own value drops by more than the tolerance), even when the mean held or its drop is not significant. Absent: off; the regressed cases are listed either way.',
            check: isCaseCount,
          },
          resamples: { type: 'a positive integer', default: '10000', doc: 'Resamples of the test.' },
          seed: { type: 'an integer', default: '42', doc: 'Seed of the resampling.' },
          file: { type: 'a path', doc: 'The test file the baseline belongs to, when the runner gives none.' },
          dir: { type: 'a path', default: "'<test file folder>/__rag_baselines__'", doc: 'Folder of the baseline files.' },
          onWrite: { type: 'a function', doc: 'Called when a baseline is written (default: a line on console.info).' },
        },
      },
    ],
    metric: { name: 'metrics regressed vs baseline', scale: 1, direction: 'lower', comparator: '<' },
    example: "expect(run).toMatchMetricBaseline('qa', { metrics: ['recall@3', { metric: 'ndcg@3', order: 'score' }, 'sentenceBleu'] })",
    failing: {
      received: [
        { id: 'q1', retrieved: ['a'], relevant: ['a'] },
        { id: 'q2', error: new Error('pipeline timed out after 60000 ms') },
      ],
      args: ['qa', { metrics: ['recall@3'], file: '/project/test/qa.test.ts' }],
    },
    compute: toMatchMetricBaseline,
  }),
] as const
