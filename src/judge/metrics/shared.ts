import { MetricInputError } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import { checkOptionKeys } from '../../options.js'
import { buildSignature, type SignatureValue } from '../../signature.js'
import { JudgeError } from '../errors.js'
import { renderPrompt, type PromptSection } from '../prompt.js'
import { stepTag, templateTag, type JudgeTemplate } from '../templates/template.js'
import type { JsonSchema, Judge, JudgeReply } from '../types.js'

/** A context passage as given by the caller: its text, or `{ id, text }` (ids show up in details and messages). */
export type ContextInput = string | { readonly id?: string; readonly text: string }

export interface JudgeContext {
  /** The caller's id, or the 0-based position as a string. */
  readonly id: string
  /** 0-based position in the caller's list. */
  readonly index: number
  readonly text: string
}

/** How a metric treats an input with nothing to judge (an answer without claims, a reference without statements). */
export type EmptyPolicy = 'vacuous' | 'nan'

/** Options every judge metric accepts. */
export interface JudgeMetricOptions {
  /**
   * Self-consistency: run the whole metric `repeat` times with seeds `judge.seed + i` (recorded), report the
   * mean as the value and the per-run values, min, max and population standard deviation in
   * `details.consistency`. Only meaningful with a temperature above 0: at temperature 0 the runs usually agree.
   * An integer from 1 to 100 (`MAX_REPEAT`): more is refused, not run.
   * @default 1
   */
  readonly repeat?: number
}

/** The keys of {@link JudgeMetricOptions}: what answerRelevance and contextPrecision accept (the other metrics add their own). */
export const JUDGE_METRIC_OPTION_KEYS = keysOf<JudgeMetricOptions>()('repeat')

/** Per-run spread of a repeated metric. */
export interface Consistency {
  readonly n: number
  readonly seeds: readonly number[]
  readonly values: readonly number[]
  readonly mean: number
  readonly min: number
  readonly max: number
  /** Population standard deviation (divides by n). */
  readonly stdev: number
}

/** Judge calls behind a score: how many, how many were served by the cache, and their cache keys. */
export interface CallStats {
  readonly total: number
  readonly cached: number
  readonly keys: readonly string[]
  /**
   * Tokens the server reported for the replies obtained live (`calls`: the model requests made, repair
   * retries included), and apart from them (`cached`) what the replayed replies had recorded. Absent when
   * no reply carried token counts (a function judge, an old cache entry).
   */
  readonly usage?: JudgeUsage
}

/** Token counts of an assertion's judge calls, as `meta.extra.usage` records them. */
export interface JudgeUsage {
  readonly promptTokens: number
  readonly completionTokens: number
  /** Model requests made (each attempt of a live reply; replayed replies are not requests). */
  readonly calls: number
  /** What the replies served from the cache had recorded; not spent by this run. */
  readonly cached?: { readonly promptTokens: number; readonly completionTokens: number; readonly calls: number }
}

/** Sums the usage of several call stats (e.g. the cases of an eval set); undefined when none has any. */
export function sumUsage(usages: ReadonlyArray<JudgeUsage | undefined>): JudgeUsage | undefined {
  const present = usages.filter((u): u is JudgeUsage => u !== undefined)
  if (present.length === 0) return undefined
  const sum = (f: (u: JudgeUsage) => number) => present.reduce((a, u) => a + f(u), 0)
  const cachedCalls = sum((u) => u.cached?.calls ?? 0)
  return {
    promptTokens: sum((u) => u.promptTokens),
    completionTokens: sum((u) => u.completionTokens),
    calls: sum((u) => u.calls),
    ...(cachedCalls === 0
      ? {}
      : { cached: { promptTokens: sum((u) => u.cached?.promptTokens ?? 0), completionTokens: sum((u) => u.cached?.completionTokens ?? 0), calls: cachedCalls } }),
  }
}

/** The usage of a list of replies, split into live and replayed. */
function usageOf(replies: readonly JudgeReply[]): JudgeUsage | undefined {
  if (!replies.some((r) => r.usage !== undefined)) return undefined
  const live = replies.filter((r) => !r.cached)
  const replayed = replies.filter((r) => r.cached && r.usage !== undefined)
  const tokens = (rs: readonly JudgeReply[], f: 'promptTokens' | 'completionTokens') => rs.reduce((a, r) => a + (r.usage?.[f] ?? 0), 0)
  return {
    promptTokens: tokens(live, 'promptTokens'),
    completionTokens: tokens(live, 'completionTokens'),
    calls: live.reduce((a, r) => a + r.attempts, 0),
    ...(replayed.length === 0
      ? {}
      : { cached: { promptTokens: tokens(replayed, 'promptTokens'), completionTokens: tokens(replayed, 'completionTokens'), calls: replayed.length } }),
  }
}

/** What every judge metric's details carry besides its per-item breakdown. */
export interface JudgeDetailsBase {
  readonly model: string
  readonly temperature: number
  readonly seed: number
  readonly calls: CallStats
  /** Present when `repeat > 1`; the per-item breakdown describes the first run (seed = `judge.seed`). */
  readonly consistency?: Consistency
}

export function assertJudge(fn: string, judge: unknown): asserts judge is Judge {
  const j = judge as Partial<Judge> | null
  if (j === null || typeof j !== 'object' || typeof j.ask !== 'function' || typeof j.model !== 'string') {
    throw new MetricInputError(fn, 'judge', 'a Judge (e.g. from ollamaJudge())', judge)
  }
}

export function assertText(fn: string, argument: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new MetricInputError(fn, argument, 'a string', value)
}

/**
 * A text the judge is asked about (a question, a reference, criteria): a string with something in it.
 * A blank one (empty or whitespace only) is refused before any call: the judge would make up a verdict
 * about nothing.
 */
export function assertNonBlank(fn: string, argument: string, value: unknown): asserts value is string {
  assertText(fn, argument, value)
  if (value.trim() === '') throw new MetricInputError(fn, argument, 'a non-blank string (not empty or whitespace only)', value)
}

/** The most runs `repeat` may ask for: each run is one or more judge calls, and every run's details are kept. */
export const MAX_REPEAT = 100

/** Checks `options` (an object, no key outside `knownKeys`, when given) and returns `options.repeat`. */
export function readRepeat(fn: string, options: JudgeMetricOptions | undefined, knownKeys?: readonly string[]): number {
  if (options !== undefined && (options === null || typeof options !== 'object')) throw new MetricInputError(fn, 'options', 'an object', options)
  if (knownKeys !== undefined) checkOptionKeys(fn, options, knownKeys)
  const repeat = options?.repeat ?? 1
  if (!Number.isSafeInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT) throw new MetricInputError(fn, 'options.repeat', `a positive integer ≤ ${MAX_REPEAT}`, repeat)
  return repeat
}

/**
 * The judge, then `options` (its keys against the metric's `knownKeys`) and `options.repeat`: the checks every
 * metric makes after its own inputs. Returns `repeat`.
 */
export function readJudgeAndRepeat(fn: string, judge: unknown, options: JudgeMetricOptions | undefined, knownKeys: readonly string[]): number {
  assertJudge(fn, judge)
  return readRepeat(fn, options, knownKeys)
}

/** An optional text option: `undefined` stays `undefined`, anything else must be a non-blank string. */
export function optionalText(fn: string, argument: string, value: unknown): string | undefined {
  if (value !== undefined) assertNonBlank(fn, argument, value)
  return value
}

export function readEmptyPolicy(fn: string, value: unknown): EmptyPolicy {
  const policy = value ?? 'vacuous'
  if (policy !== 'vacuous' && policy !== 'nan') throw new MetricInputError(fn, 'options.onEmpty', "'vacuous' or 'nan'", value)
  return policy
}

export function normalizeContexts(fn: string, argument: string, contexts: unknown, allowEmpty: boolean): JudgeContext[] {
  if (!Array.isArray(contexts)) throw new MetricInputError(fn, argument, 'an array of strings or { id, text } objects', contexts)
  if (!allowEmpty && contexts.length === 0) throw new MetricInputError(fn, argument, 'a non-empty array of contexts', contexts)
  const seen = new Set<string>()
  return contexts.map((context: unknown, index) => {
    let id = String(index)
    let text: unknown = context
    if (context !== null && typeof context === 'object') {
      const c = context as { id?: unknown; text?: unknown }
      if (c.id !== undefined) {
        if (typeof c.id !== 'string') throw new MetricInputError(fn, `${argument}[${index}].id`, 'a string', c.id)
        id = c.id
      }
      text = c.text
    }
    if (typeof text !== 'string') throw new MetricInputError(fn, `${argument}[${index}]`, 'a string or { id?: string, text: string }', context)
    // Duplicate ids would make "unused chunk ids" ambiguous.
    if (seen.has(id)) throw new MetricInputError(fn, `${argument}[${index}].id`, 'unique', id)
    seen.add(id)
    return { id, index, text }
  })
}

/** `CONTEXT 1` … sections; the judge sees 1-based numbers, details use 0-based indices. */
export function contextSections(contexts: readonly JudgeContext[]): PromptSection[] {
  return contexts.map((c, i) => ({ label: `CONTEXT ${i + 1}`, text: c.text }))
}

/** `[{ label, text }]` when the optional text is given, else `[]` (spread into a prompt's sections). */
export function optionalSection(label: string, text: string | undefined): PromptSection[] {
  return text === undefined ? [] : [{ label, text }]
}

/** Counts the calls a metric makes and which were cache hits. */
export class CallRecorder {
  private readonly replies: JudgeReply[] = []
  constructor(readonly judge: Judge) {}

  async ask<T>(
    template: JudgeTemplate,
    step: string,
    sections: readonly PromptSection[],
    seed: number,
    check?: (value: T) => readonly string[],
    schema?: JsonSchema,
  ): Promise<T> {
    const s = (template.steps as Record<string, { instructions: string; reminder: string; schema: JsonSchema }>)[step]
    if (s === undefined) throw new Error(`unknown template step ${template.id}.${step}`)
    const prompt = renderPrompt(s.instructions, sections, s.reminder)
    const reply = await this.judge.ask<T>({
      template: stepTag(template, step),
      system: template.system,
      prompt: prompt.text,
      schema: schema ?? s.schema,
      seed,
      ...(check === undefined ? {} : { check: check as (value: unknown) => readonly string[] }),
    })
    this.replies.push(reply)
    return reply.value
  }

  stats(): CallStats {
    const usage = usageOf(this.replies)
    return {
      total: this.replies.length,
      cached: this.replies.filter((r) => r.cached).length,
      keys: this.replies.map((r) => r.key),
      ...(usage === undefined ? {} : { usage }),
    }
  }
}

/**
 * `Judge|metric:<template id>@<hash8>|model:<tag>|temp:<t>|seed:<s>|ctx:<num_ctx>|repeat:<n>|…extras…|version:X`.
 * `ctx` appears only when set and `repeat` only when above 1.
 */
export function judgeSignature(template: JudgeTemplate, judge: Judge, repeat: number, extras: ReadonlyArray<readonly [string, SignatureValue]> = []): string {
  return buildSignature('Judge', [
    ['metric', templateTag(template)],
    ['model', judge.model],
    ['temp', judge.temperature],
    ['seed', judge.seed],
    ['ctx', judge.numCtx],
    // Backend, host and structured-output mode for judges that declare them (OpenAI-compatible, function).
    ...(judge.signatureExtras ?? []),
    ['repeat', repeat > 1 ? repeat : undefined],
    ...extras,
  ])
}

export interface RunResult<D> {
  readonly value: number
  readonly details: D
}

/**
 * Runs `once` for seeds `judge.seed + 0 … repeat-1` (concurrently; the judge bounds the requests) and
 * returns the first run's details with the mean value. NaN runs make the mean NaN, on purpose.
 */
export async function repeated<D>(
  judge: Judge,
  repeat: number,
  once: (seed: number) => Promise<RunResult<D>>,
): Promise<{ value: number; details: D; consistency?: Consistency }> {
  const seeds = Array.from({ length: repeat }, (_, i) => judge.seed + i)
  const runs = await Promise.all(
    seeds.map(async (seed, i) => {
      try {
        return await once(seed)
      } catch (error) {
        throw repeat === 1 ? error : namingTrial(error, i, repeat, seed)
      }
    }),
  )
  const first = runs[0] as RunResult<D>
  if (repeat === 1) return { value: first.value, details: first.details }
  const values = runs.map((r) => r.value)
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  const stdev = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length)
  return {
    value: mean,
    details: first.details,
    consistency: { n: repeat, seeds, values, mean, min: Math.min(...values), max: Math.max(...values), stdev },
  }
}

/**
 * A replay miss in a repeated run names its trial: with trials every seed is its own cache entry, and
 * "trial 3 of 5 (seed 44)" says which recording is missing. Other errors pass through unchanged.
 */
function namingTrial(error: unknown, index: number, repeat: number, seed: number): unknown {
  // By name too: a judge built from the other (ESM or CJS) copy of the package throws the other class.
  const e = error as Partial<JudgeError> | null
  if (e === null || typeof e !== 'object' || e.name !== 'JudgeError' || e.kind !== 'cache-miss') return error
  return new JudgeError('cache-miss', `Trial ${index + 1} of ${repeat} (seed ${seed}): ${String(e.message)}`, { ...e.info, trial: index + 1, trials: repeat, seed })
}

/**
 * Fraction of self-consistency runs whose value is ≥ `min`; for a score without repeats, 1 or 0.
 * NaN runs never pass.
 *
 * @example repeatPassRate({ value: 0.5, details: { consistency: { values: [1, 0.5, 0] } } }, 0.5) // 2/3
 */
export function repeatPassRate(score: { readonly value: number; readonly details: { readonly consistency?: Pick<Consistency, 'values'> } }, min: number): number {
  if (typeof min !== 'number' || Number.isNaN(min)) throw new MetricInputError('repeatPassRate', 'min', 'a number', min)
  const values = score.details.consistency?.values ?? [score.value]
  return values.filter((v) => v >= min).length / values.length
}

/**
 * Validates a list of numbered verdicts (`[{ claim: 1, … }, …]`): exactly the numbers 1…n, each once,
 * and `context` (when present) within 0…contexts. Returned problems are fed back to the model on retry.
 */
export function numberedProblems(items: ReadonlyArray<Record<string, unknown>>, numberKey: string, n: number, contextCount?: number): string[] {
  const problems: string[] = []
  if (items.length !== n) problems.push(`expected exactly ${n} verdict(s), one per ${numberKey}, got ${items.length}`)
  const seen = new Set<number>()
  for (const item of items) {
    const k = item[numberKey] as number
    if (k < 1 || k > n) problems.push(`${numberKey} ${k} does not exist (valid: 1…${n})`)
    else if (seen.has(k)) problems.push(`${numberKey} ${k} has more than one verdict`)
    seen.add(k)
    if (contextCount !== undefined && typeof item['context'] === 'number' && item['context'] > contextCount) {
      problems.push(`context ${item['context']} does not exist (valid: 1…${contextCount}, or 0)`)
    }
  }
  return problems
}

/** Sorts numbered verdicts by their number (the check guarantees 1…n, each once). */
export function byNumber<T extends Record<string, unknown>>(items: readonly T[], numberKey: string): T[] {
  return [...items].sort((a, b) => (a[numberKey] as number) - (b[numberKey] as number))
}

/** Maps the judge's 1-based passage number (0 = none) to the caller's context. */
export function contextRef(contexts: readonly JudgeContext[], n: number): { contextIndex: number | null; contextId: string | null } {
  const context = n >= 1 ? contexts[n - 1] : undefined
  return context === undefined ? { contextIndex: null, contextId: null } : { contextIndex: context.index, contextId: context.id }
}
