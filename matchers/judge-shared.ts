/**
 * The machinery every judge matcher shares (one answer and eval-set forms): options, the judge with its
 * default cache folder, the result when nothing could be computed, and message pieces.
 */
import { dirname, isAbsolute, resolve } from 'node:path'
import { MetricInputError } from '../src/errors.js'
import {
  DEFAULT_JUDGE_CACHE_DIR,
  judgeCache,
  JudgeError,
  MAX_REPEAT,
  repeatPassRate,
  type Consistency,
  type ContextInput,
  type Judge,
  type JudgeDetailsBase,
  type JudgeUsage,
} from '../src/judge/index.js'
import type { Score } from '../src/score.js'
import { getConfig } from './config.js'
import type { MatcherContext, MatcherResult } from './context.js'
import type { EmptyMatcherOptions, JudgeMatcherOptions, RelevanceMatcherOptions } from './judge-options.js'
import { buildMessage, formatNumber, list, quote, table, terminalSafe, thresholdHeadline } from './message.js'
import { decide, readGates, resolveTrials, statisticsOf, trialValues, wantsTrials, type Trials } from './judge-trials.js'
import { denseUserArray, matcherError, requireThreshold } from './validate.js'

export type AnyScore = Score<JudgeDetailsBase & { note?: string; empty?: boolean }>

/** A matcher's own option fields and what each must be, checked (when set) after the common ones, in this order. */
export type OptionKinds<O> = { readonly [K in Exclude<keyof O, keyof JudgeMatcherOptions>]?: 'string' | 'contexts' }

/** What a judge matcher says about itself, in its one-answer form (Spec) and its eval-set form (SetSpec). */
export interface SpecBase<O extends JudgeMatcherOptions> {
  readonly matcher: string
  readonly args: string
  /** Metric name in the headline, e.g. `groundedness`. */
  readonly label: string
  /** The `min` argument as received; checked after the matcher's own arguments, before the options. */
  readonly min: unknown
  /** Appended to the message when `min` is out of range. */
  readonly minHint?: string
  /** The options argument as received; the common fields are checked, then those in `optionKinds`. */
  readonly options: unknown
  readonly optionKinds?: OptionKinds<O>
  /** The metric takes `{ empty }`: a score with `details.empty` fails unless `empty: 'pass'`. */
  readonly emptyOption?: boolean
}

export interface Spec<S extends AnyScore, O extends JudgeMatcherOptions> extends SpecBase<O> {
  readonly compute: (judge: Judge, options: O | undefined) => Promise<S>
  readonly breakdown: (score: S) => ReadonlyArray<string | undefined>
  /** Headline label override (pairwise explains its scale). */
  readonly headlineLabel?: string
}

// Matcher-layer state on globalThis (shared by the ESM and CJS copies, like config.ts): judges derived
// from cache-less judges, one per cache folder, so each folder's in-flight requests are shared.
const STATE = Symbol.for('rag-matchers.judge-state')
type State = WeakMap<Judge, Map<string, Judge>>
function derived(): State {
  const g = globalThis as { [STATE]?: State }
  g[STATE] ??= new WeakMap()
  return g[STATE]
}

export const HOW_TO_CONFIGURE =
  'Configure one in a setup file:\n' +
  "  import { configure } from 'rag-matchers/matchers'\n" +
  "  import { ollamaJudge, judgeCache } from 'rag-matchers'\n" +
  "  configure({ judge: ollamaJudge({ model: 'llama3.1:8b', host: process.env.OLLAMA_HOST }) })\n" +
  'or pass { judge } in the matcher options. Recorded replies (judgeCache, mode replay) let CI run without a model.'

export function isJudge(value: unknown): value is Judge {
  return value !== null && typeof value === 'object' && typeof (value as Judge).ask === 'function' && typeof (value as Judge).model === 'string'
}

/** The options object: the common fields first, then the matcher's own `kinds`. */
export function readOptions<O extends JudgeMatcherOptions>(ctx: MatcherContext, matcher: string, args: string, options: unknown, kinds: OptionKinds<O> = {}): O | undefined {
  if (options === undefined) return undefined
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    matcherError(ctx, matcher, args, 'options must be an object such as { judge, repeat, passRate }', options)
  const o = options as O
  if (o.judge !== undefined && !isJudge(o.judge)) matcherError(ctx, matcher, args, 'options.judge must be a judge such as ollamaJudge({ model })', o.judge)
  if (o.repeat !== undefined && !(Number.isSafeInteger(o.repeat) && o.repeat > 0 && o.repeat <= MAX_REPEAT)) {
    matcherError(ctx, matcher, args, `options.repeat must be a positive integer ≤ ${MAX_REPEAT} (each run is a full set of judge calls)`, o.repeat)
  }
  if (o.passRate !== undefined) requireThreshold(ctx, matcher, args, 'options.passRate', o.passRate)
  for (const [key, kind] of Object.entries(kinds)) {
    const value = (o as Record<string, unknown>)[key]
    if (value === undefined) continue
    if (kind === 'string') requireText(ctx, matcher, args, `options.${key}`, value)
    else requireContexts(ctx, matcher, args, `options.${key}`, value)
  }
  return o
}

/** The core metric's options: `repeat` when set, then each of `keys` that is defined. */
export function metricOptions<O extends JudgeMatcherOptions, K extends keyof O>(o: O | undefined, keys: readonly K[] = []): { repeat?: number } & Partial<Pick<O, K>> {
  const picked: Partial<O> = o?.repeat ? ({ repeat: o.repeat } as Partial<O>) : {}
  for (const key of keys) if (o?.[key] !== undefined) picked[key] = o[key]
  return picked
}

/** The core's options for answer relevance: `empty: 'pass'` scores an answer without statements 1 (`empty:vacuous`). */
export function relevanceOptions(o: RelevanceMatcherOptions | undefined): { repeat?: number; onEmpty?: 'vacuous' } {
  return { ...metricOptions(o), ...(o?.empty === 'pass' ? { onEmpty: 'vacuous' as const } : {}) }
}

/** The judge to use, with the default cache folder applied when it has no cache of its own. */
export function resolveJudge(ctx: MatcherContext, matcher: string, args: string, options: JudgeMatcherOptions | undefined): Judge | undefined {
  const config = getConfig()
  const judge = options?.judge ?? config.judge
  if (judge === undefined) return undefined
  if (!isJudge(judge)) matcherError(ctx, matcher, args, 'the judge set with configure({ judge }) is not a judge such as ollamaJudge({ model })', judge)
  if (judge.cache !== undefined || typeof judge.withCache !== 'function') return judge
  const folder = config.judgeCacheDir ?? DEFAULT_JUDGE_CACHE_DIR
  const base = typeof ctx.testPath === 'string' && ctx.testPath !== '' ? dirname(ctx.testPath) : process.cwd()
  const dir = isAbsolute(folder) ? folder : resolve(base, folder)
  const byDir = derived().get(judge) ?? new Map<string, Judge>()
  derived().set(judge, byDir)
  let cached = byDir.get(dir)
  if (cached === undefined) {
    cached = judge.withCache(judgeCache({ dir }))
    byDir.set(dir, cached)
  }
  return cached
}

/** The result when no number could be computed: the assertion fails in BOTH directions. */
export function uncomputable(
  ctx: MatcherContext,
  spec: { matcher: string; args: string; label: string },
  reason: string,
  extra: ReadonlyArray<string | undefined> = [],
  signature?: string,
): MatcherResult {
  return {
    // Never a pass: with `.not` the runner flips `pass`, so report the result that fails either way.
    pass: ctx.isNot === true,
    message: () =>
      buildMessage(ctx, {
        matcher: spec.matcher,
        args: spec.args,
        headline: `${spec.label} could not be computed, so the assertion fails.`,
        ...(signature ? { signature } : {}),
        sections: [reason, ...extra],
      }),
    meta: {
      matcher: spec.matcher,
      metric: spec.label,
      value: Number.NaN,
      comparator: ctx.isNot ? '<' : '>=',
      pass: false,
      signature: signature ?? '',
      extra: { error: reason },
    },
  }
}

export async function run<S extends AnyScore, O extends JudgeMatcherOptions = JudgeMatcherOptions>(ctx: MatcherContext, spec: Spec<S, O>): Promise<MatcherResult> {
  const { matcher, args } = spec
  const min = requireThreshold(ctx, matcher, args, 'min', spec.min, [0, 1], spec.minHint)
  const options = readOptions(ctx, matcher, args, spec.options, spec.optionKinds)
  const trials = resolveTrials(ctx, matcher, args, options?.repeat)
  const gates = readGates(ctx, matcher, args, options ?? {}, trials)
  const judge = resolveJudge(ctx, matcher, args, options)
  if (judge === undefined) return uncomputable(ctx, spec, 'No judge is configured.', [HOW_TO_CONFIGURE])

  let score: S
  try {
    score = await spec.compute(judge, withTrials(options, trials))
  } catch (error) {
    // Compare by name too: the ESM and CJS copies of the core each have their own classes.
    const name = (error as Error | undefined)?.name
    // a judge's error and note may quote its reply or the input: one line, escaped whole
    if (error instanceof JudgeError || name === 'JudgeError') return uncomputable(ctx, spec, terminalSafe((error as Error).message), [judgeLine(judge)])
    if (error instanceof MetricInputError || name === 'MetricInputError') matcherError(ctx, matcher, args, (error as Error).message)
    throw error
  }
  if (Number.isNaN(score.value)) {
    return uncomputable(ctx, spec, terminalSafe(score.details.note ?? `${spec.label} is undefined for this input`), [judgeLine(judge, score.details)], score.signature)
  }
  // A vacuous score (nothing to judge) proves nothing: it fails unless the user accepts it.
  if (spec.emptyOption === true && score.details.empty === true && (options as EmptyMatcherOptions | undefined)?.empty !== 'pass') {
    const why = (score.details.note ?? 'there is nothing to judge').replace(/: [^:]*\(empty:\w+\)$/, '')
    return uncomputable(
      ctx,
      spec,
      `${terminalSafe(why)}, so there is nothing to judge. Pass { empty: 'pass' } to accept it as vacuously true (score 1).`,
      [judgeLine(judge, score.details)],
      score.signature,
    )
  }

  const passRate = options?.passRate
  const rate = repeatPassRate(score, min)
  const pass = passRate === undefined ? score.value >= min : rate >= passRate
  const runs = score.details.consistency?.n ?? 1
  const showTrials = wantsTrials(trials, gates)
  const plain: MatcherResult = {
    pass,
    message: () =>
      buildMessage(ctx, {
        matcher,
        args,
        headline:
          passRate === undefined
            ? thresholdHeadline(ctx, { label: spec.headlineLabel ?? spec.label, value: score.value, min })
            : thresholdHeadline(ctx, { label: `share of ${runs} run${runs === 1 ? '' : 's'} with ${spec.label} ≥ ${formatNumber(min)}`, value: rate, min: passRate }),
        signature: score.signature,
        sections: [...spec.breakdown(score), consistencyLine(score.details.consistency, min, passRate === undefined ? undefined : rate), judgeLine(judge, score.details)],
      }),
    meta: {
      matcher,
      metric: spec.label,
      value: score.value,
      threshold: min,
      comparator: ctx.isNot ? '<' : '>=',
      pass,
      signature: score.signature,
      extra: {
        calls: score.details.calls.total,
        cached: score.details.calls.cached,
        ...(score.details.calls.usage === undefined ? {} : { usage: score.details.calls.usage }),
        ...(passRate === undefined ? {} : { passRate, rate }),
      },
    },
  }
  if (!showTrials) return plain
  const stats = statisticsOf([{ id: 'answer', values: trialValues(score) }], min)
  const sections = () => [...spec.breakdown(score), judgeLine(judge, score.details)]
  return decide(ctx, plain, { matcher, args, label: spec.label, min, signature: score.signature, seed: judge.seed, sections }, stats, trials, gates)
}

/** The options the metric runs with: `repeat` set to the trial count when the matcher's own `repeat` is not given. */
export function withTrials<O extends JudgeMatcherOptions>(options: O | undefined, trials: Trials): O | undefined {
  if (trials.n === 1 || options?.repeat !== undefined) return options
  return { ...options, repeat: trials.n } as O
}

export function consistencyLine(c: Consistency | undefined, min: number, rate: number | undefined): string | undefined {
  if (c === undefined) return undefined
  const seeds = `${c.seeds[0]}…${c.seeds[c.seeds.length - 1]}`
  const values = list(c.values.map((v) => formatNumber(v)))
  const passing = c.values.filter((v) => v >= min).length
  return (
    `runs (seeds ${seeds}): ${values}\n` +
    `mean ${formatNumber(c.mean)}, min ${formatNumber(c.min)}, max ${formatNumber(c.max)}, sd ${formatNumber(c.stdev)}; ` +
    `${passing} of ${c.n} runs ≥ ${formatNumber(min)}${rate === undefined ? '' : ` (${formatNumber(rate)})`}`
  )
}

export function judgeLine(judge: Judge, details?: Pick<JudgeDetailsBase, 'calls'>): string {
  const calls = details === undefined ? '' : `; ${details.calls.total} call${details.calls.total === 1 ? '' : 's'}, ${details.calls.cached} from cache`
  // the judge is the user's object: its id, settings and cache folder are user text
  const cache = judge.cache === undefined ? '' : `; cache ${terminalSafe(String(judge.cache.mode))} ${terminalSafe(String(judge.cache.dir))}`
  const usage = details?.calls.usage === undefined ? '' : `\n${usageLine(details.calls.usage)}`
  return `judge: ${terminalSafe(String(judge.id))}, temperature ${terminalSafe(String(judge.temperature))}, seed ${terminalSafe(String(judge.seed))}${calls}${cache}${usage}`
}

/** `tokens: 120 prompt + 30 completion in 4 model requests (replayed from cache: …)`. */
export function usageLine(u: JudgeUsage): string {
  const n = (v: number) => v.toLocaleString('en-US')
  const replayed = u.cached === undefined ? '' : `; replayed from cache, not spent: ${n(u.cached.promptTokens)} prompt + ${n(u.cached.completionTokens)} completion`
  return `tokens: ${n(u.promptTokens)} prompt + ${n(u.completionTokens)} completion in ${u.calls} model request${u.calls === 1 ? '' : 's'}${replayed}`
}

export function reasonCell(reason: string): string {
  return `— ${quote(reason, 100)}`
}

/** A listed item (claim, statement, key point) and the judge's reason. */
export function itemRow(text: string, reason: string): string[] {
  return [quote(text, 80), reasonCell(reason)]
}

/** `allPassed` when no row failed, else `<heading> (<failed> of <total><order>):` over the table of failures. */
export function failures(rows: ReadonlyArray<ReadonlyArray<string>>, total: number, allPassed: string, heading: string, order = ''): string {
  return rows.length === 0 ? allPassed : `${heading} (${rows.length} of ${total}${order}):\n${table(rows)}`
}

export function requireAnswer(ctx: MatcherContext, matcher: string, args: string, received: unknown): string {
  if (typeof received !== 'string') matcherError(ctx, matcher, args, 'received value must be an answer string', received)
  return received
}

export function requireString(ctx: MatcherContext, matcher: string, args: string, name: string, value: unknown): string {
  if (typeof value !== 'string') matcherError(ctx, matcher, args, `${name} must be a string`, value)
  return value
}

/**
 * A text the judge is asked about (question, reference, criteria): a string that is not blank. A blank
 * one is a Matcher error naming the argument, before any judge call, with or without `.not`.
 */
export function requireText(ctx: MatcherContext, matcher: string, args: string, name: string, value: unknown): string {
  const text = requireString(ctx, matcher, args, name, value)
  if (text.trim() === '') {
    matcherError(ctx, matcher, args, `${name} is blank (${text.length === 0 ? 'empty' : 'whitespace only'}); the judge would be asked about nothing`, value)
  }
  return text
}

export function requireContexts(ctx: MatcherContext, matcher: string, args: string, name: string, value: unknown): readonly ContextInput[] {
  // `every` skips the holes of a sparse array; refuse them first, naming the position.
  if (Array.isArray(value)) denseUserArray(ctx, matcher, args, value, name, 'a string or an `{ id?, text }` chunk')
  const ok = Array.isArray(value) && value.every((c) => typeof c === 'string' || (c !== null && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string'))
  if (!ok) matcherError(ctx, matcher, args, `${name} must be an array of strings or { id?, text } chunks`, value)
  return value as readonly ContextInput[]
}
