/**
 * The `metrics` of `toMatchMetricBaseline`: registry names or `{ metric, ...options }` with the same
 * options the matchers take, checked strictly (an unknown option names the metric and the nearest
 * valid key), and the labels and signature lines the baseline messages show.
 */
import { signatureDifferenceText, type MetricComparison } from '../src/eval-set/compare-runs.js'
import { measureLabel, measureWithSettings } from '../src/eval-set/measure-names.js'
import { identitySignature } from '../src/eval-set/metric-revisions.js'
import { isMetricName, METRIC_NAMES, metricOptionKeys, type MetricSpec } from '../src/eval-set/metrics.js'
import { firstHole, holeProblem } from '../src/dense-array.js'
import { optionsProblem, unknownKeyProblem } from '../src/options.js'
import type { MatcherContext } from './context.js'
import { terminalSafe } from './message.js'
import { matcherError } from './validate.js'

/** One metric of the assertion: its registry name (the key in the baseline file) and its options. */
export interface BaselineMetricSpec {
  readonly name: string
  readonly options: Readonly<Record<string, unknown>>
  /**
   * The label states the ranking (`order:given`) even when it is the default: set when the run's
   * retrieved items carry scores, which a matcher's `{ order: 'score' }` would rank otherwise.
   */
  readonly statesOrder?: boolean
}

/** Whether some case ranks retrieved items that carry a `score` (so `order` changes the numbers). */
export function retrievedHaveScores(cases: readonly unknown[]): boolean {
  return cases.some((c) => {
    const retrieved = (c as { retrieved?: unknown } | null)?.retrieved
    return Array.isArray(retrieved) && retrieved.some((r) => r !== null && typeof r === 'object' && (r as { score?: unknown }).score !== undefined)
  })
}

const MATCHER = 'toMatchMetricBaseline'
const ARGS = 'name, options'

const NOT_PER_CASE: Readonly<Record<string, string>> = {
  corpusBleu: 'sentenceBleu',
  corpusChrf: 'sentenceChrf',
}

const sameOptions = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean => JSON.stringify(a) === JSON.stringify(b)

/**
 * Checks `options.metrics` and returns one spec per metric. A repeated metric, a name
 * the registry does not know, an option its core function does not take, or one metric listed with
 * two different settings (one baseline key holds one setting) is a Matcher error.
 */
export function resolveMetricSpecs(ctx: MatcherContext, metrics: unknown): BaselineMetricSpec[] {
  if (!Array.isArray(metrics) || metrics.length === 0) {
    matcherError(
      ctx,
      MATCHER,
      ARGS,
      "options.metrics must be a non-empty array of metric names or { metric, ...options } (e.g. { metric: 'ndcg@3', order: 'score' })",
      metrics,
    )
  }
  // forEach would skip a hole and track one metric fewer than listed
  const hole = firstHole(metrics as unknown[])
  if (hole >= 0) matcherError(ctx, MATCHER, ARGS, `${holeProblem('options.metrics', hole)}; every entry must be a metric name or { metric, ...options }`)
  const out: BaselineMetricSpec[] = []
  ;(metrics as unknown[]).forEach((entry, i) => {
    const at = `options.metrics[${i}]`
    let name: unknown = entry
    let options: Record<string, unknown> = {}
    if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
      // the one options rule (src/options.ts): a Map, a class instance, inherited, symbol or non-enumerable keys are refused,
      // never half-read by the destructuring below
      const shape = optionsProblem(entry, at)
      if (shape !== undefined) matcherError(ctx, MATCHER, ARGS, shape.problem, entry)
      const { metric, ...rest } = entry as { metric?: unknown }
      name = metric
      options = rest
    } else if (typeof entry !== 'string') {
      matcherError(ctx, MATCHER, ARGS, `${at} must be a metric name or { metric, ...options }`, entry)
    }
    if (typeof name === 'string' && Object.prototype.hasOwnProperty.call(NOT_PER_CASE, name)) {
      const instead = NOT_PER_CASE[name] as string
      matcherError(
        ctx,
        MATCHER,
        ARGS,
        `${at}: ${name} is a corpus score (what the set matchers compute): it sums n-gram statistics over the set, so there are no per-case values for the paired test. Track '${instead}' (the mean of per-answer scores, a different number, labelled as such), or compare two rag-report.json files with rag-matchers compare`,
        name,
      )
    }
    if (!isMetricName(name)) {
      matcherError(ctx, MATCHER, ARGS, `${at}${entry === name ? '' : '.metric'} is not a known metric; known: ${METRIC_NAMES.join(', ')} (k a positive integer)`, name)
    }
    const known = metricOptionKeys(name)
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) {
        const takes = known.length === 0 ? 'it takes no options' : `${name} takes ${known.join(', ')}`
        matcherError(ctx, MATCHER, ARGS, `${at} (${name}): ${unknownKeyProblem(key, known)} (${takes})`, options[key])
      }
    }
    const previous = out.findIndex((s) => s.name === name)
    if (previous < 0) out.push({ name, options })
    else if (sameOptions((out[previous] as BaselineMetricSpec).options, options)) {
      matcherError(ctx, MATCHER, ARGS, `${at}: ${name} is listed twice (also options.metrics[${previous}]); list each metric once`, entry)
    } else {
      matcherError(
        ctx,
        MATCHER,
        ARGS,
        `${at}: ${name} is listed twice with different options; one baseline entry keeps one setting per metric (use another baseline name for the other setting)`,
        entry,
      )
    }
  })
  return out
}

/** The spec as `metricRunOf` takes it. */
export function asMetricSpec(s: BaselineMetricSpec): MetricSpec {
  return Object.keys(s.options).length === 0 ? s.name : ({ metric: s.name, ...s.options } as MetricSpec)
}

/** The measure, its key and settings: `mean nDCG@3 (ndcg@3 order:score gain:exponential)`. */
export function labelOf(specs: readonly BaselineMetricSpec[], metric: string): string {
  const spec = specs.find((s) => s.name === metric)
  return measureLabel(metric, spec?.options ?? {}, spec?.statesOrder === true)
}

/** The measure and its settings as the reports show it (`mean nDCG@3 [order:score]`). */
export function reportLabelOf(specs: readonly BaselineMetricSpec[], metric: string): string {
  const spec = specs.find((s) => s.name === metric)
  return measureWithSettings(metric, spec?.options ?? {}, spec?.statesOrder === true)
}

/** `order:given → order:score` for an incomparable metric (empty for the others). */
export function differenceOf(m: MetricComparison): string {
  return signatureDifferenceText(m.signatureDifferences ?? [])
}

/** One line per metric: its label and the identity signature its current values carry (the baseline's too when they differ). */
export function signatureLines(specs: readonly BaselineMetricSpec[], metrics: readonly MetricComparison[]): string {
  const rows = metrics.map((m) => {
    const current = m.currentSignature === undefined ? '—' : identitySignature(m.currentSignature)
    const base = m.baselineSignature === undefined ? undefined : identitySignature(m.baselineSignature)
    // the baseline's signature comes from a file that may have been edited by hand
    const line = `  ${labelOf(specs, m.metric)}: ${terminalSafe(current)}`
    return base !== undefined && base !== current ? `${line}\n    baseline: ${terminalSafe(base)}` : line
  })
  return `signatures (every setting that changes the numbers, and the metric's revision):\n${rows.join('\n')}`
}
