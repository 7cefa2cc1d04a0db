/**
 * Trials for judge-backed assertions (issue #30): how many, where the count comes from, the trial
 * statistics of an assertion (src/judge/trials.ts), and the two gates on them.
 *
 * The count, first that is set: the matcher's `repeat`, the `trials` of the received eval set (a
 * `describeEvalSet` block's), `configure({ trials })`, the `RAG_MATCHERS_TRIALS` environment variable; else 1.
 * Trial t asks the judge with seed `seed + t − 1`, so each trial is its own replay-cache entry.
 *
 * Gates:
 * - `minPassRate`: the verdict. Passes when the share of case × trial verdicts (value ≥ min) reaches it,
 *   instead of comparing the mean with `min`; `.not` flips it like any threshold.
 * - `maxFlipRate`: a trust precondition, not a verdict. When more than this share of the cases changed
 *   verdict between trials, the judge cannot decide the assertion, so it FAILS with or without `.not`
 *   (a flipping judge must not make a negative assertion pass either).
 */
import { trialStatistics, type TrialCase, type TrialStatistics } from '../src/judge/trials.js'
import { MAX_REPEAT } from '../src/judge/index.js'
import { getConfig } from './config.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { buildMessage, formatNumber, list, MAX_ROWS, table, terminalSafe, thresholdHeadline } from './message.js'
import { matcherError, requireThreshold } from './validate.js'

/** The environment variable that sets the trials of every judge-backed assertion (`configure({ trials })` wins). */
export const TRIALS_ENV = 'RAG_MATCHERS_TRIALS'

/** Where an assertion's trial count came from, as its message and record say. */
export type TrialsSource = 'repeat' | 'eval set' | 'configure' | 'RAG_MATCHERS_TRIALS' | 'default'

export interface Trials {
  readonly n: number
  readonly source: TrialsSource
}

/** The trial options a judge matcher takes. */
export interface TrialGateOptions {
  /** Pass when at least this share (0–1) of the case × trial verdicts is ≥ min, instead of comparing the mean. */
  minPassRate?: number
  /** Fail, with or without `.not`, when more than this share (0–1) of the cases changed verdict between trials. Needs ≥ 2 trials. */
  maxFlipRate?: number
}

const isTrialCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= MAX_REPEAT

/** The trial count for one assertion (see the module comment for the order). */
export function resolveTrials(ctx: MatcherContext, matcher: string, args: string, repeat: number | undefined, received?: unknown): Trials {
  if (repeat !== undefined) return { n: repeat, source: 'repeat' }
  // A describeEvalSet run (its handle, or its cases array, which carries `trials` as a non-enumerable property).
  const fromSet = received !== null && typeof received === 'object' ? (received as { trials?: unknown }).trials : undefined
  if (fromSet !== undefined) {
    if (!isTrialCount(fromSet)) matcherError(ctx, matcher, args, `the eval set's trials must be an integer from 1 to ${MAX_REPEAT}`, fromSet)
    return { n: fromSet, source: 'eval set' }
  }
  const configured = getConfig().trials
  if (configured !== undefined) {
    if (!isTrialCount(configured)) matcherError(ctx, matcher, args, `configure({ trials }) must be an integer from 1 to ${MAX_REPEAT}`, configured)
    return { n: configured, source: 'configure' }
  }
  const env = process.env[TRIALS_ENV]
  if (env !== undefined && env.trim() !== '') {
    const n = /^\s*\d+\s*$/.test(env) ? Number(env) : Number.NaN
    if (!isTrialCount(n)) matcherError(ctx, matcher, args, `the environment variable ${TRIALS_ENV} must be an integer from 1 to ${MAX_REPEAT}`, env)
    return { n, source: TRIALS_ENV }
  }
  return { n: 1, source: 'default' }
}

/** The gates after the trial count is known: each a number from 0 to 1; `maxFlipRate` needs two trials to mean anything. */
export function readGates(ctx: MatcherContext, matcher: string, args: string, options: TrialGateOptions & { passRate?: number }, trials: Trials): TrialGateOptions {
  const gates: TrialGateOptions = {}
  if (options.minPassRate !== undefined) {
    if (options.passRate !== undefined)
      matcherError(ctx, matcher, args, 'options.passRate and options.minPassRate are the same gate; give one (minPassRate)', options.passRate)
    gates.minPassRate = requireThreshold(ctx, matcher, args, 'options.minPassRate', options.minPassRate)
  }
  if (options.maxFlipRate !== undefined) {
    gates.maxFlipRate = requireThreshold(ctx, matcher, args, 'options.maxFlipRate', options.maxFlipRate)
    // With one trial nothing can flip: a gate that cannot fail would be a silent pass.
    if (trials.n < 2) {
      matcherError(
        ctx,
        matcher,
        args,
        `options.maxFlipRate needs at least 2 trials, and this assertion has 1 (${trials.source}); set configure({ trials }), ${TRIALS_ENV}, describeEvalSet's trials or { repeat }`,
        options.maxFlipRate,
      )
    }
  }
  return gates
}

/** Whether an assertion reports trial statistics: more than one trial, or a gate to decide. */
export function wantsTrials(trials: Trials, gates: TrialGateOptions): boolean {
  return trials.n > 1 || gates.minPassRate !== undefined || gates.maxFlipRate !== undefined
}

/** The per-trial values of a judged score: its runs (with repeat) or its one value. */
export function trialValues(score: { readonly value: number; readonly details: { readonly consistency?: { readonly values: readonly number[] } } }): readonly number[] {
  return score.details.consistency?.values ?? [score.value]
}

/** Trial statistics of the judged cases against `min` (src/judge/trials.ts). */
export function statisticsOf(cases: readonly TrialCase[], min: number): TrialStatistics {
  return trialStatistics(cases, min)
}

/** What `meta.extra.trials` records: every number of the statistics (NaN as null with its reason), and the gates. */
export function trialsRecord(stats: TrialStatistics, trials: Trials, gates: TrialGateOptions, seed: number): Record<string, unknown> {
  const agreement = (a: TrialStatistics['fleissKappa']) => (Number.isNaN(a.value) ? { value: null, reason: a.reason ?? 'undefined' } : { value: a.value })
  return {
    n: stats.trials,
    source: trials.source,
    seeds: [seed, seed + stats.trials - 1],
    cases: stats.cases,
    mean: stats.mean,
    min: stats.min,
    max: stats.max,
    passRate: stats.passRate,
    flipRate: stats.flipRate,
    flipped: stats.flipped.slice(0, MAX_ROWS).map((c) => c.id),
    fleissKappa: agreement(stats.fleissKappa),
    krippendorffAlpha: agreement(stats.krippendorffAlpha),
    ...(gates.minPassRate === undefined ? {} : { minPassRate: gates.minPassRate }),
    ...(gates.maxFlipRate === undefined ? {} : { maxFlipRate: gates.maxFlipRate }),
  }
}

const show = (x: number) => formatNumber(x)
const agreementText = (a: TrialStatistics['fleissKappa']) => (Number.isNaN(a.value) ? `undefined (${terminalSafe(a.reason ?? '0/0')})` : show(a.value))

/** The trials block of a message: the numbers, then the cases that flipped with their per-trial values. */
export function trialsSection(stats: TrialStatistics, trials: Trials, seed: number): string {
  const source = trials.source === 'default' ? '' : `, from ${trials.source}`
  const lines = [
    `trials: ${stats.trials} (seeds ${seed}…${seed + stats.trials - 1}${source}) over ${stats.cases} ${stats.cases === 1 ? 'case' : 'cases'}`,
    `  mean ${show(stats.mean)}, min ${show(stats.min)}, max ${show(stats.max)} (per-trial means: ${list(stats.trialMeans.map(show), 10)})`,
    `  pass rate ${show(stats.passRate)} (verdicts ≥ ${show(stats.threshold)}), flip rate ${show(stats.flipRate)} (${stats.flipped.length} of ${stats.cases} ${stats.cases === 1 ? 'case' : 'cases'} changed verdict)`,
    `  self-consistency: Fleiss' kappa over verdicts ${agreementText(stats.fleissKappa)}, Krippendorff's alpha over scores ${agreementText(stats.krippendorffAlpha)}`,
  ]
  if (stats.flipped.length > 0) {
    const rows = stats.flipped.map((c) => [c.id, c.values.map((v) => `${show(v)}${v >= stats.threshold ? '✓' : '✗'}`).join(' ')])
    lines.push(`cases whose verdict flipped (value per trial, ✓ ≥ ${show(stats.threshold)}):\n${table(rows, { total: stats.flipped.length })}`)
  }
  return lines.join('\n')
}

/** What the assertion decides on, for {@link decide}. */
export interface TrialsOutcome {
  readonly matcher: string
  readonly args: string
  /** The metric's label in headlines, e.g. `groundedness` or `mean groundedness over 8 cases`. */
  readonly label: string
  readonly min: number
  readonly signature: string
  readonly seed: number
  /** The message sections of the plain result (breakdown, judge line). */
  readonly sections: () => ReadonlyArray<string | undefined>
}

/**
 * The assertion's result with trials: the plain result (the mean against `min`) with the trials block
 * and `extra.trials`; with `minPassRate`, the pass rate decides; above `maxFlipRate`, a failure in both
 * directions naming the cases that flipped.
 */
export function decide(ctx: MatcherContext, plain: MatcherResult, o: TrialsOutcome, stats: TrialStatistics, trials: Trials, gates: TrialGateOptions): MatcherResult {
  const record = trialsRecord(stats, trials, gates, o.seed)
  const section = () => trialsSection(stats, trials, o.seed)
  const meta = plain.meta
  if (gates.maxFlipRate !== undefined && stats.flipRate > gates.maxFlipRate) {
    const reason =
      `the judge changed its verdict between trials in ${stats.flipped.length} of ${stats.cases} ${stats.cases === 1 ? 'case' : 'cases'}: ` +
      `flip rate ${show(stats.flipRate)} > maxFlipRate ${show(gates.maxFlipRate)}, so its verdict cannot be trusted`
    return {
      // Never a pass: with `.not` the runner flips `pass`, so report the result that fails either way.
      pass: ctx.isNot === true,
      message: () =>
        buildMessage(ctx, {
          matcher: o.matcher,
          args: o.args,
          headline: `${reason} and the assertion fails${ctx.isNot === true ? ' (also with .not)' : ''}.`,
          signature: o.signature,
          sections: [section(), 'Lower the judge temperature, sharpen the rubric, or raise maxFlipRate if this much noise is acceptable.', ...o.sections()],
        }),
      ...(meta === undefined ? {} : { meta: { ...meta, pass: false, extra: { ...meta.extra, error: reason, trials: record } } }),
    }
  }
  if (gates.minPassRate !== undefined) {
    const pass = stats.passRate >= gates.minPassRate
    const cells = `${stats.cases === 1 ? '' : `${stats.cases} cases × `}${stats.trials} ${stats.trials === 1 ? 'trial' : 'trials'}`
    return {
      pass,
      message: () =>
        buildMessage(ctx, {
          matcher: o.matcher,
          args: o.args,
          headline: thresholdHeadline(ctx, { label: `pass rate of ${o.label} ≥ ${show(o.min)} over ${cells}`, value: stats.passRate, min: gates.minPassRate as number }),
          signature: o.signature,
          sections: [section(), ...o.sections()],
        }),
      ...(meta === undefined ? {} : { meta: { ...meta, pass, extra: { ...meta.extra, trials: record } } }),
    }
  }
  return {
    ...plain,
    // The plain message with the trials block after it: the mean against min still decides.
    message: () => `${plain.message()}\n\n${section()}`,
    ...(meta === undefined ? {} : { meta: { ...meta, extra: { ...meta.extra, trials: record } } }),
  }
}
