import { relative } from 'node:path'
import { MetricInputError } from '../src/errors.js'
import { baselinePathFor, BaselineFileError, readBaselineFile, writeBaselineEntry, type BaselineEntry } from '../src/eval-set/baseline-file.js'
import { compareRuns, type MetricComparison, type MetricRun, type MetricValues, type RunComparison, type SignificanceTest } from '../src/eval-set/compare-runs.js'
import { isMetricName, METRIC_NAMES, metricRunOf, metricScale } from '../src/eval-set/metrics.js'
import { isCiEnvironment } from '../src/eval-set/run-eval-set.js'
import type { EvalCase } from '../src/eval-case.js'
import { caseLabel } from '../src/eval-case.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { buildMessage, formatNumber, list, table } from './message.js'
import { declareMatcher } from './declare.js'
import { matcherError } from './validate.js'

/** What a baseline write reports (see {@link MetricBaselineOptions.onWrite}). */
export interface BaselineWriteInfo {
  readonly file: string
  readonly name: string
  readonly metrics: readonly string[]
  readonly cases: number
  /** `'new'`: the entry or some of its metrics did not exist; `'update'`: rewritten under `-u`. */
  readonly reason: 'new' | 'update'
}

export interface MetricBaselineOptions {
  /** Metric names of the registry: `recall@k`, `precision@k`, `ndcg@k`, `mrr`, `hit@k`, `map@k`, `bleu`, `chrf`, `rouge1`, `rouge2`, `rougeL`, `rougeLsum`, `meteor`. */
  readonly metrics: readonly string[]
  /** Smallest drop that can fail, as a fraction of the metric's full scale (0.02 = 2 BLEU points). @default 0.02 */
  readonly tolerance?: number | Readonly<Record<string, number>>
  /** Significance level of the one-sided test. @default 0.05 */
  readonly alpha?: number
  /** @default 'bootstrap' */
  readonly test?: SignificanceTest
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
   * (`__rag_baselines__/<test file>.json`): fails on a significant drop beyond `tolerance`, on
   * changed signatures, and (in CI) on a missing baseline. See `toMatchMetricBaseline`.
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
  cases.forEach((c, i) => {
    if (c === null || typeof c !== 'object') matcherError(ctx, MATCHER, ARGS, `received case [${i}] must be an object`, c)
  })
  return cases as readonly EvalCase[]
}

interface Resolved {
  readonly metrics: string[]
  readonly tolerance: MetricBaselineOptions['tolerance']
  readonly alpha: number
  readonly test: SignificanceTest
  readonly resamples: number
  readonly seed: number
}

function resolveOptions(ctx: MatcherContext, name: unknown, options: unknown): Resolved {
  if (typeof name !== 'string' || name.length === 0) matcherError(ctx, MATCHER, ARGS, 'name must be a non-empty string naming the baseline entry', name)
  if (options === null || typeof options !== 'object') matcherError(ctx, MATCHER, ARGS, 'options must be an object with `metrics`', options)
  const o = options as MetricBaselineOptions
  if (!Array.isArray(o.metrics) || o.metrics.length === 0) matcherError(ctx, MATCHER, ARGS, 'options.metrics must be a non-empty array of metric names', o.metrics)
  for (const m of o.metrics) {
    if (!isMetricName(m)) matcherError(ctx, MATCHER, ARGS, `options.metrics has an unknown metric; known: ${METRIC_NAMES.join(', ')} (k a positive integer)`, m)
  }
  const tolerance = o.tolerance ?? 0.02
  const badTolerance = (t: unknown) => typeof t !== 'number' || !Number.isFinite(t) || t < 0 || t > 1
  if (typeof tolerance === 'number' ? badTolerance(tolerance) : tolerance === null || typeof tolerance !== 'object' || Object.values(tolerance).some(badTolerance)) {
    matcherError(ctx, MATCHER, ARGS, 'options.tolerance must be a number from 0 to 1 (a fraction of the metric scale), or a record of metric → such a number', tolerance)
  }
  const alpha = o.alpha ?? 0.05
  if (typeof alpha !== 'number' || !(alpha > 0 && alpha < 1)) matcherError(ctx, MATCHER, ARGS, 'options.alpha must be a number strictly between 0 and 1', alpha)
  const test = o.test ?? 'bootstrap'
  if (test !== 'bootstrap' && test !== 'permutation') matcherError(ctx, MATCHER, ARGS, "options.test must be 'bootstrap' or 'permutation'", test)
  const resamples = o.resamples ?? 10_000
  if (!Number.isInteger(resamples) || resamples < 1) matcherError(ctx, MATCHER, ARGS, 'options.resamples must be a positive integer', resamples)
  const seed = o.seed ?? 42
  if (!Number.isInteger(seed)) matcherError(ctx, MATCHER, ARGS, 'options.seed must be an integer', seed)
  for (const key of ['file', 'dir'] as const) {
    if (o[key] !== undefined && (typeof o[key] !== 'string' || o[key].length === 0)) matcherError(ctx, MATCHER, ARGS, `options.${key} must be a non-empty path`, o[key])
  }
  if (o.onWrite !== undefined && typeof o.onWrite !== 'function') matcherError(ctx, MATCHER, ARGS, 'options.onWrite must be a function', o.onWrite)
  return { metrics: [...new Set(o.metrics)], tolerance, alpha, test, resamples, seed }
}

function pick(run: MetricRun, metrics: readonly string[]): MetricRun {
  const out: Record<string, MetricValues> = Object.create(null) as Record<string, MetricValues>
  for (const m of metrics) {
    const mv = run.metrics[m]
    if (mv !== undefined) out[m] = mv
  }
  return { metrics: out }
}

function display(file: string): string {
  const rel = relative(process.cwd(), file)
  return rel.length > 0 && !rel.startsWith('..') ? rel : file
}

const UPDATE_HINT = 'If the change is intended, update the baseline: run the tests with -u (vitest -u / jest -u) and commit the file.'

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

function summaryTable(comparison: RunComparison): string {
  const confidence = Math.round(comparison.options.confidence * 100)
  const header = ['metric', 'baseline', 'current', 'delta', `${confidence}% CI`, 'p', 'tolerance', '']
  const rows = comparison.metrics.map((m) => [
    m.metric,
    fmt(m.metric, m.baselineMean),
    fmt(m.metric, m.currentMean),
    signed(m.metric, m.delta),
    `[${fmt(m.metric, m.ci[0])}, ${fmt(m.metric, m.ci[1])}]`,
    formatP(m.pValue),
    fmt(m.metric, m.tolerance),
    m.regressed ? 'REGRESSED' : m.status === 'ok' ? 'ok' : m.status,
  ])
  return table([header, ...rows], { max: rows.length + 1 })
}

function worstCases(m: MetricComparison): string | undefined {
  const dropped = m.perCase.filter((c) => c.delta < 0)
  if (dropped.length === 0) return undefined
  const rows = dropped.map((c) => [c.id, `${fmt(m.metric, c.baseline)} → ${fmt(m.metric, c.current)}`, `(${signed(m.metric, c.delta)})`])
  return `cases that dropped most in ${m.metric} (${dropped.length} of ${m.n} dropped):\n${table(rows, { max: WORST_CASES })}`
}

function onlyInOneRun(comparison: RunComparison): string | undefined {
  const lines = [
    comparison.onlyInBaseline.length > 0
      ? `cases only in the baseline (${comparison.onlyInBaseline.length}, not compared): ${list([...comparison.onlyInBaseline])}`
      : undefined,
    comparison.onlyInCurrent.length > 0 ? `cases only in this run (${comparison.onlyInCurrent.length}, not compared): ${list([...comparison.onlyInCurrent])}` : undefined,
  ].filter(Boolean)
  return lines.length > 0 ? lines.join('\n') : undefined
}

function signatureSection(comparison: RunComparison): string {
  return comparison.metrics
    .filter((m) => m.status === 'incomparable')
    .map((m) => {
      const changes = (m.signatureDifferences ?? []).map((d) => `    ${d.key}: ${d.a ?? '(absent)'} in the baseline, ${d.b ?? '(absent)'} now`)
      return [
        `  ${m.metric}: computed with different settings`,
        ...changes,
        `    baseline signature: ${m.baselineSignature}`,
        `    current signature:  ${m.currentSignature}`,
      ].join('\n')
    })
    .join('\n')
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
 * - `-u` (snapshot update state `'all'`, which Vitest and Jest both expose as
 *   `this.snapshotState._updateSnapshot`) rewrites the entry's metrics and passes.
 * - Otherwise each metric is compared with {@link compareRuns}: it fails when a metric regressed
 *   (`delta < −tolerance·scale` and one-sided `p < alpha`), listing old/new means, delta, interval,
 *   p-value, the cases that dropped most and the cases present in one run only; it refuses (fails)
 *   when a metric's signature changed, naming the setting, its old and new values, and `-u`.
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
  if (ctx.isNot) matcherError(ctx, MATCHER, ARGS, '.not.toMatchMetricBaseline is not supported: a baseline either holds or regressed')
  const o = resolveOptions(ctx, name, options)
  const opts = options
  const cases = readCases(ctx, received)
  const testFile = opts.file ?? ctx.testPath
  if (typeof testFile !== 'string' || testFile.length === 0) {
    matcherError(ctx, MATCHER, ARGS, 'the runner gave no test file path (this.testPath); pass { file: __filename } or { file: fileURLToPath(import.meta.url) }')
  }
  const file = baselinePathFor(testFile, opts.dir)
  const message = (headline: string, sections: Array<string | undefined>) => () =>
    buildMessage(ctx, { matcher: MATCHER, args: ARGS, headline, sections: [...sections, `baseline file: ${display(file)}`] })
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

  let current: MetricRun
  try {
    current = metricRunOf(cases, o.metrics)
  } catch (error) {
    if (error instanceof MetricInputError) matcherError(ctx, MATCHER, ARGS, error.message)
    throw error
  }
  const caseCount = cases.length
  const update = ctx.snapshotState?._updateSnapshot
  const ci = isCiEnvironment()
  const announce = (metrics: readonly string[], reason: BaselineWriteInfo['reason']) => {
    const info: BaselineWriteInfo = { file, name, metrics, cases: caseCount, reason }
    if (opts.onWrite) opts.onWrite(info)
    else console.info(`rag-matchers: ${reason === 'update' ? 'updated' : 'wrote'} baseline "${name}" (${metrics.join(', ')} × ${caseCount} cases) in ${display(file)}`)
  }

  if (update === 'all') {
    writeBaselineEntry(file, name, current, { merge: true })
    announce(o.metrics, 'update')
    return { pass: true, message: message(`Baseline "${name}" was rewritten (-u).`, []), meta: meta(true, { file, written: o.metrics }) }
  }

  let stored: BaselineEntry | undefined
  try {
    stored = readBaselineFile(file)?.entries[name]
  } catch (error) {
    if (error instanceof BaselineFileError) return { pass: false, message: message(`Baseline "${name}" cannot be read.`, [error.message]), meta: meta(false, { file }) }
    throw error
  }
  const missing = o.metrics.filter((m) => stored?.metrics[m] === undefined)
  if (missing.length > 0) {
    if (ci || update === 'none') {
      const why = ci ? 'CI is set' : 'the runner does not write snapshots (--ci)'
      const what = stored === undefined ? `No baseline "${name}"` : `Baseline "${name}" has no values for ${missing.join(', ')}`
      return {
        pass: false,
        message: message(`${what}, and baselines are not written here because ${why}.`, [`Run the tests locally (or with -u) to write it, then commit ${display(file)}.`]),
        meta: meta(false, { file, missing }),
      }
    }
    writeBaselineEntry(file, name, pick(current, missing), { merge: true })
    announce(missing, 'new')
  }
  const present = o.metrics.filter((m) => !missing.includes(m))
  if (present.length === 0) {
    return { pass: true, message: message(`Baseline "${name}" was written (first run).`, []), meta: meta(true, { file, written: missing }) }
  }

  const comparison = compareRuns(pick(stored as BaselineEntry, present), pick(current, present), {
    tolerance: o.tolerance,
    alpha: o.alpha,
    test: o.test,
    resamples: o.resamples,
    seed: o.seed,
  })
  const settings = `${o.test === 'bootstrap' ? 'paired bootstrap' : 'sign-flip permutation test'}, ${o.resamples} resamples, seed ${o.seed}; a metric regresses when it drops by more than its tolerance with one-sided p < ${o.alpha}`
  const extra = {
    file,
    metrics: comparison.metrics.map((m) => ({
      metric: m.metric,
      status: m.status,
      baseline: m.baselineMean,
      current: m.currentMean,
      delta: m.delta,
      pValue: m.pValue,
      n: m.n,
    })),
    onlyInBaseline: comparison.onlyInBaseline.length,
    onlyInCurrent: comparison.onlyInCurrent.length,
  }

  if (comparison.incomparable.length > 0) {
    return {
      pass: false,
      message: message(
        `Baseline "${name}" cannot be compared: ${comparison.incomparable.join(', ')} ${comparison.incomparable.length === 1 ? 'was' : 'were'} computed with different settings than the baseline.`,
        [
          signatureSection(comparison),
          'Values computed with other settings (or another rag-matchers version) are not comparable. If the new settings are intended, update the baseline with -u (vitest -u / jest -u).',
        ],
      ),
      meta: meta(false, extra),
    }
  }

  const regressed = comparison.metrics.filter((m) => m.regressed)
  const pass = regressed.length === 0
  const headline = pass
    ? `Baseline "${name}" holds: no metric dropped significantly (${settings}).`
    : `Baseline "${name}": ${regressed.length} of ${comparison.metrics.length} metrics regressed: ${regressed
        .map((m) => `${m.metric} ${fmt(m.metric, m.baselineMean)} → ${fmt(m.metric, m.currentMean)} (${signed(m.metric, m.delta)}, p = ${formatP(m.pValue)})`)
        .join('; ')}`
  return {
    pass,
    message: message(headline, [summaryTable(comparison), ...regressed.map(worstCases), onlyInOneRun(comparison), pass ? undefined : `${settings}.\n${UPDATE_HINT}`]),
    meta: meta(pass, extra, regressed.length),
  }
}

// ---------------------------------------------------------------- declarations

export const baselineDeclarations = [
  declareMatcher({
    name: 'toMatchMetricBaseline',
    async: false,
    family: 'eval-set',
    summary:
      'Per-case metric values of the run hold against the stored baseline `name` (`__rag_baselines__/<test file>.json`): fails on a significant drop beyond `tolerance`, on changed signatures, and (in CI) on a missing baseline; `-u` rewrites it. `.not` is refused.',
    forms: [
      {
        received: 'an eval run: `{ cases }` (runEvalSet, describeEvalSet) or an array of cases',
        args: [{ name: 'name', type: 'string', doc: 'The entry in the baseline file.' }],
        optionsRequired: true,
        options: {
          metrics: {
            type: 'a non-empty array of metric names',
            doc: 'Registry names: `recall@k`, `precision@k`, `ndcg@k`, `mrr`, `hit@k`, `map@k`, `bleu`, `chrf`, `rouge1`, `rouge2`, `rougeL`, `rougeLsum`, `meteor`.',
          },
          tolerance: {
            type: 'a number 0–1 or a record metric → number',
            default: '0.02',
            doc: "Smallest drop that can fail, as a fraction of the metric's full scale (0.02 = 2 BLEU points).",
          },
          alpha: { type: 'a number in (0, 1)', default: '0.05', doc: 'Significance level of the one-sided test.' },
          test: { type: "'bootstrap' | 'permutation'", default: "'bootstrap'", doc: 'Paired bootstrap or sign-flip permutation test.' },
          resamples: { type: 'a positive integer', default: '10000', doc: 'Resamples of the test.' },
          seed: { type: 'an integer', default: '42', doc: 'Seed of the resampling.' },
          file: { type: 'a path', doc: 'The test file the baseline belongs to, when the runner gives none.' },
          dir: { type: 'a path', default: "'<test file folder>/__rag_baselines__'", doc: 'Folder of the baseline files.' },
          onWrite: { type: 'a function', doc: 'Called when a baseline is written (default: a line on console.info).' },
        },
      },
    ],
    metric: { name: 'metrics regressed vs baseline', scale: 1, direction: 'lower', comparator: '<' },
    example: "expect(run).toMatchMetricBaseline('qa', { metrics: ['recall@3', 'ndcg@3', 'bleu'] })",
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
