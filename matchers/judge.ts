import { dirname, isAbsolute, resolve } from 'node:path'
import { MetricInputError } from '../src/errors.js'
import {
  answerRelevance,
  completeness,
  contextRecall,
  contextUtilization,
  DEFAULT_JUDGE_CACHE_DIR,
  groundedness,
  judgeCache,
  JudgeError,
  pairwiseJudge,
  repeatPassRate,
  rubricScore,
  type CompletenessSource,
  type Consistency,
  type ContextInput,
  type EmptyPolicy,
  type Judge,
  type JudgeDetailsBase,
  type Rubric,
} from '../src/judge/index.js'
import type { Score } from '../src/score.js'
import { getConfig } from './config.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { buildMessage, formatNumber, list, quote, table, thresholdHeadline } from './message.js'
import { atLeast, declareMatcher, oneOf, type ArgSpec, type OptionSpec } from './declare.js'
import { matcherError, requireThreshold } from './validate.js'

/** Options every judge matcher takes. */
export interface JudgeMatcherOptions {
  /**
   * The judge. Defaults to `configure({ judge })`. A judge without a cache of its own records to
   * `configure({ judgeCacheDir })`, default `__rag_judge_cache__/` next to the test file (commit it; give
   * the judge an explicit `judgeCache({ dir, mode })` to choose another folder or mode, e.g. `replay` in CI).
   */
  judge?: Judge
  /** Self-consistency: run the metric `repeat` times with seeds `seed … seed+repeat-1`. @default 1 */
  repeat?: number
  /**
   * With `repeat`: pass when at least this share of the runs (0–1) scores ≥ `min`, instead of
   * comparing the mean with `min`.
   */
  passRate?: number
}

/** For metrics over a list the judge extracts (claims, key points, statements), which may come back empty. */
export interface EmptyMatcherOptions {
  /**
   * Nothing to judge (an empty answer, or the judge finds no claim / key point / statement):
   * `'fail'` (default) fails the assertion, with or without `.not`, saying what is missing;
   * `'pass'` accepts it as vacuously true (score 1), so the positive form passes and `.not` fails.
   * @default 'fail'
   */
  empty?: 'fail' | 'pass'
}

export interface CompleteMatcherOptions extends QuestionMatcherOptions, EmptyMatcherOptions {}

export interface ContextRecallMatcherOptions extends JudgeMatcherOptions, EmptyMatcherOptions {}

export interface GroundedMatcherOptions extends JudgeMatcherOptions, EmptyMatcherOptions {
  /** An answer without claims: `'vacuous'` (default) scores 1, `'nan'` makes the assertion fail as not computable. */
  onEmpty?: EmptyPolicy
}

export interface QuestionMatcherOptions extends JudgeMatcherOptions {
  /** The user's question, shown to the judge. */
  question?: string
}

export interface RubricMatcherOptions extends JudgeMatcherOptions {
  question?: string
  contexts?: readonly ContextInput[]
  reference?: string
}

export interface PreferenceMatcherOptions extends JudgeMatcherOptions {
  /** The question both answers respond to. */
  question: string
  /** What "better" means, shown to the judge. */
  criteria?: string
}

/**
 * Typed signatures of the LLM-judge matchers. All are async: `await` them. Thresholds are on 0–1 and
 * mean ≥ (`.not`: <). A judge that cannot answer (server down, model missing, malformed replies, a replay
 * cache miss) makes the assertion FAIL, with or without `.not`, with a message that says what to do.
 * (`R` is unused: async matchers return `Promise<void>` in every runner.)
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface JudgeMatchers<R = unknown> {
  /**
   * Groundedness (faithfulness) of the received answer in `contexts` ≥ `min` (default 1: every claim
   * supported). On failure, lists the unsupported claims with the judge's reasons, contradicted first.
   * @example await expect(answer).toBeGroundedIn(retrievedChunks)
   * @example await expect(answer).toBeGroundedIn(retrievedChunks, 0.8, { repeat: 3, passRate: 1 })
   */
  toBeGroundedIn(contexts: readonly ContextInput[], min?: number, options?: GroundedMatcherOptions): Promise<void>
  toBeGroundedIn(contexts: readonly ContextInput[], options: GroundedMatcherOptions): Promise<void>
  /**
   * Completeness of the received answer against a reference answer or the contexts ≥ `min` (share of
   * key points covered). On failure, lists the missing key points.
   * @example await expect(answer).toBeCompleteGiven({ reference: 'Paris, on the Seine.' }, 1)
   */
  toBeCompleteGiven(source: CompletenessSource, min: number, options?: CompleteMatcherOptions): Promise<void>
  /**
   * Context utilization of the received answer ≥ `min` (share of the chunks it draws on). With
   * `{ question }`, unused chunks are split into relevant (ignored-good) and irrelevant (ignored-noise).
   * @example await expect(answer).toUtilizeContext(chunks, 0.5, { question })
   */
  toUtilizeContext(contexts: readonly ContextInput[], min: number, options?: QuestionMatcherOptions): Promise<void>
  /**
   * Context recall of the received retrieved contexts ≥ `min`: the share of the reference answer's
   * statements they account for. On failure, lists the statements retrieval missed.
   * @example await expect(retrievedChunks).toHaveContextRecall(referenceAnswer, 0.9)
   */
  toHaveContextRecall(reference: string, min: number, options?: ContextRecallMatcherOptions): Promise<void>
  /**
   * Answer relevance of the received answer to `question` ≥ `min` (share of its statements that address it).
   * @example await expect(answer).toBeRelevantTo('What is the capital of France?', 0.8)
   */
  toBeRelevantTo(question: string, min: number, options?: JudgeMatcherOptions): Promise<void>
  /**
   * Rubric score of the received answer, normalised to 0–1 ((raw − lo)/(hi − lo), default scale 1–5), ≥ `min`.
   * @example await expect(answer).toSatisfyRubric({ id: 'cites', criteria: 'Cites its sources.' }, 0.75)
   */
  toSatisfyRubric(rubric: string | Rubric, min: number, options?: RubricMatcherOptions): Promise<void>
  /**
   * The judge prefers the received answer over `otherAnswer` for `question`, asked in both orders; a
   * disagreement between the orders is a tie, which does not pass.
   * @example await expect(newAnswer).toBePreferredOver(oldAnswer, { question })
   */
  toBePreferredOver(otherAnswer: string, options: PreferenceMatcherOptions): Promise<void>
}

type AnyScore = Score<JudgeDetailsBase & { note?: string; empty?: boolean }>

/** A matcher's own option fields and what each must be, checked (when set) after the common ones, in this order. */
type OptionKinds<O> = { readonly [K in Exclude<keyof O, keyof JudgeMatcherOptions>]?: 'string' | 'contexts' }

interface Spec<S extends AnyScore, O extends JudgeMatcherOptions> {
  readonly matcher: string
  readonly args: string
  /** Metric name in the headline. */
  readonly label: string
  /** The `min` argument as received; `run` checks it after the matcher's own arguments, before the options. */
  readonly min: unknown
  /** Appended to the message when `min` is out of range. */
  readonly minHint?: string
  /** The options argument as received; `run` checks the common fields, then those in `optionKinds`. */
  readonly options: unknown
  readonly optionKinds?: OptionKinds<O>
  readonly compute: (judge: Judge, options: O | undefined) => Promise<S>
  readonly breakdown: (score: S) => ReadonlyArray<string | undefined>
  /** Headline label override (pairwise explains its scale). */
  readonly headlineLabel?: string
  /** The metric takes `{ empty }`: a score with `details.empty` fails unless `empty: 'pass'`. */
  readonly emptyOption?: boolean
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

const HOW_TO_CONFIGURE =
  'Configure one in a setup file:\n' +
  "  import { configure } from 'rag-matchers/matchers'\n" +
  "  import { ollamaJudge, judgeCache } from 'rag-matchers'\n" +
  "  configure({ judge: ollamaJudge({ model: 'llama3.1:8b', host: process.env.OLLAMA_HOST }) })\n" +
  'or pass { judge } in the matcher options. Recorded replies (judgeCache, mode replay) let CI run without a model.'

function isJudge(value: unknown): value is Judge {
  return value !== null && typeof value === 'object' && typeof (value as Judge).ask === 'function' && typeof (value as Judge).model === 'string'
}

/** The options object: the common fields first, then the matcher's own `kinds`. */
function readOptions<O extends JudgeMatcherOptions>(ctx: MatcherContext, matcher: string, args: string, options: unknown, kinds: OptionKinds<O> = {}): O | undefined {
  if (options === undefined) return undefined
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    matcherError(ctx, matcher, args, 'options must be an object such as { judge, repeat, passRate }', options)
  const o = options as O
  if (o.judge !== undefined && !isJudge(o.judge)) matcherError(ctx, matcher, args, 'options.judge must be a judge such as ollamaJudge({ model })', o.judge)
  if (o.repeat !== undefined && !(Number.isSafeInteger(o.repeat) && o.repeat > 0)) matcherError(ctx, matcher, args, 'options.repeat must be a positive integer', o.repeat)
  if (o.passRate !== undefined) requireThreshold(ctx, matcher, args, 'options.passRate', o.passRate)
  for (const [key, kind] of Object.entries(kinds)) {
    const value = (o as Record<string, unknown>)[key]
    if (value === undefined) continue
    if (kind === 'string') requireString(ctx, matcher, args, `options.${key}`, value)
    else requireContexts(ctx, matcher, args, `options.${key}`, value)
  }
  return o
}

/** The core metric's options: `repeat` when set, then each of `keys` that is defined. */
function metricOptions<O extends JudgeMatcherOptions, K extends keyof O>(o: O | undefined, keys: readonly K[] = []): { repeat?: number } & Partial<Pick<O, K>> {
  const picked: Partial<O> = o?.repeat ? ({ repeat: o.repeat } as Partial<O>) : {}
  for (const key of keys) if (o?.[key] !== undefined) picked[key] = o[key]
  return picked
}

/** The judge to use, with the default cache folder applied when it has no cache of its own. */
function resolveJudge(ctx: MatcherContext, matcher: string, args: string, options: JudgeMatcherOptions | undefined): Judge | undefined {
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
function uncomputable(
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

async function run<S extends AnyScore, O extends JudgeMatcherOptions = JudgeMatcherOptions>(ctx: MatcherContext, spec: Spec<S, O>): Promise<MatcherResult> {
  const { matcher, args } = spec
  const min = requireThreshold(ctx, matcher, args, 'min', spec.min, [0, 1], spec.minHint)
  const options = readOptions(ctx, matcher, args, spec.options, spec.optionKinds)
  const judge = resolveJudge(ctx, matcher, args, options)
  if (judge === undefined) return uncomputable(ctx, spec, 'No judge is configured.', [HOW_TO_CONFIGURE])

  let score: S
  try {
    score = await spec.compute(judge, options)
  } catch (error) {
    // Compare by name too: the ESM and CJS copies of the core each have their own classes.
    const name = (error as Error | undefined)?.name
    if (error instanceof JudgeError || name === 'JudgeError') return uncomputable(ctx, spec, (error as Error).message, [judgeLine(judge)])
    if (error instanceof MetricInputError || name === 'MetricInputError') matcherError(ctx, matcher, args, (error as Error).message)
    throw error
  }
  if (Number.isNaN(score.value)) {
    return uncomputable(ctx, spec, score.details.note ?? `${spec.label} is undefined for this input`, [judgeLine(judge, score.details)], score.signature)
  }
  // A vacuous score (nothing to judge) proves nothing: it fails unless the user accepts it.
  if (spec.emptyOption === true && score.details.empty === true && (options as EmptyMatcherOptions | undefined)?.empty !== 'pass') {
    const why = (score.details.note ?? 'there is nothing to judge').replace(/: [^:]*\(empty:\w+\)$/, '')
    return uncomputable(
      ctx,
      spec,
      `${why}, so there is nothing to judge. Pass { empty: 'pass' } to accept it as vacuously true (score 1).`,
      [judgeLine(judge, score.details)],
      score.signature,
    )
  }

  const passRate = options?.passRate
  const rate = repeatPassRate(score, min)
  const pass = passRate === undefined ? score.value >= min : rate >= passRate
  const runs = score.details.consistency?.n ?? 1
  return {
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
      extra: { calls: score.details.calls.total, cached: score.details.calls.cached, ...(passRate === undefined ? {} : { passRate, rate }) },
    },
  }
}

function consistencyLine(c: Consistency | undefined, min: number, rate: number | undefined): string | undefined {
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

function judgeLine(judge: Judge, details?: JudgeDetailsBase): string {
  const calls = details === undefined ? '' : `; ${details.calls.total} call${details.calls.total === 1 ? '' : 's'}, ${details.calls.cached} from cache`
  const cache = judge.cache === undefined ? '' : `; cache ${judge.cache.mode} ${judge.cache.dir}`
  return `judge: ${judge.id}, temperature ${judge.temperature}, seed ${judge.seed}${calls}${cache}`
}

function reasonCell(reason: string): string {
  return `— ${quote(reason, 100)}`
}

/** A listed item (claim, statement, key point) and the judge's reason. */
function itemRow(text: string, reason: string): string[] {
  return [quote(text, 80), reasonCell(reason)]
}

/** `allPassed` when no row failed, else `<heading> (<failed> of <total><order>):` over the table of failures. */
function failures(rows: ReadonlyArray<ReadonlyArray<string>>, total: number, allPassed: string, heading: string, order = ''): string {
  return rows.length === 0 ? allPassed : `${heading} (${rows.length} of ${total}${order}):\n${table(rows)}`
}

function requireAnswer(ctx: MatcherContext, matcher: string, args: string, received: unknown): string {
  if (typeof received !== 'string') matcherError(ctx, matcher, args, 'received value must be an answer string', received)
  return received
}

function requireString(ctx: MatcherContext, matcher: string, args: string, name: string, value: unknown): string {
  if (typeof value !== 'string') matcherError(ctx, matcher, args, `${name} must be a string`, value)
  return value
}

function requireContexts(ctx: MatcherContext, matcher: string, args: string, name: string, value: unknown): readonly ContextInput[] {
  const ok = Array.isArray(value) && value.every((c) => typeof c === 'string' || (c !== null && typeof c === 'object' && typeof (c as { text?: unknown }).text === 'string'))
  if (!ok) matcherError(ctx, matcher, args, `${name} must be an array of strings or { id?, text } chunks`, value)
  return value as readonly ContextInput[]
}

/** `await expect(answer).toBeGroundedIn(contexts, min = 1, options?)`. See {@link JudgeMatchers}. */
export async function toBeGroundedIn(this: MatcherContext, received: unknown, contexts: unknown, min?: unknown, options?: unknown): Promise<MatcherResult> {
  const matcher = 'toBeGroundedIn'
  const args = 'contexts, min'
  // `toBeGroundedIn(contexts, { judge })`: options in the place of min, min defaults to 1.
  if (min !== null && typeof min === 'object' && options === undefined) {
    options = min
    min = undefined
  }
  const answer = requireAnswer(this, matcher, args, received)
  const chunks = requireContexts(this, matcher, args, 'contexts', contexts)
  return run(this, {
    matcher,
    args,
    label: 'groundedness',
    emptyOption: true,
    min: min ?? 1,
    options,
    // A falsy onEmpty ('' too) means the core's default.
    compute: (judge, o: GroundedMatcherOptions | undefined) => groundedness(answer, chunks, judge, { ...metricOptions(o), ...(o?.onEmpty ? { onEmpty: o.onEmpty } : {}) }),
    breakdown: (score) => {
      const d = score.details
      if (d.empty) return [d.note]
      // Contradictions first: they are worse than gaps.
      const unsupported = [...d.claims.filter((c) => c.verdict === 'contradicted'), ...d.claims.filter((c) => c.verdict === 'not_found')]
      const rows = unsupported.map((c) => [
        c.verdict === 'contradicted' ? 'contradicted' : 'not found',
        quote(c.claim, 80),
        c.contextId === null ? '' : `(context ${c.contextId})`,
        reasonCell(c.reason),
      ])
      return [
        failures(rows, d.total, `all ${d.total} claims supported`, 'unsupported claims', ', contradicted first'),
        `supported: ${d.supported} of ${d.total}${d.note ? `; ${d.note}` : ''}`,
      ]
    },
  })
}

/** `await expect(answer).toBeCompleteGiven({ reference } | { contexts }, min, options?)`. */
export async function toBeCompleteGiven(this: MatcherContext, received: unknown, source: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  const matcher = 'toBeCompleteGiven'
  const args = 'source, min'
  const answer = requireAnswer(this, matcher, args, received)
  const s = source as { contexts?: unknown; reference?: unknown } | null
  if (s === null || typeof s !== 'object' || 'contexts' in s === 'reference' in s) {
    matcherError(this, matcher, args, 'source must be { reference: string } or { contexts: [...] } (exactly one)', source)
  }
  if ('reference' in s) requireString(this, matcher, args, 'source.reference', s.reference)
  else requireContexts(this, matcher, args, 'source.contexts', s.contexts)
  return run(this, {
    matcher,
    args,
    label: 'completeness',
    emptyOption: true,
    min,
    options,
    optionKinds: { question: 'string' },
    compute: (judge, o: QuestionMatcherOptions | undefined) => completeness(answer, source as CompletenessSource, judge, metricOptions(o, ['question'])),
    breakdown: (score) => {
      const d = score.details
      if (d.empty) return [d.note]
      const missing = d.points.filter((p) => p.verdict === 'missing')
      return [
        failures(
          missing.map((p) => itemRow(p.point, p.reason)),
          d.total,
          `all ${d.total} key points of the ${d.source} covered`,
          `missing key points of the ${d.source}`,
        ),
        `covered: ${d.covered} of ${d.total}`,
      ]
    },
  })
}

/** `await expect(answer).toUtilizeContext(contexts, min, { question }?)`. */
export async function toUtilizeContext(this: MatcherContext, received: unknown, contexts: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  const matcher = 'toUtilizeContext'
  const args = 'contexts, min'
  const answer = requireAnswer(this, matcher, args, received)
  const chunks = requireContexts(this, matcher, args, 'contexts', contexts)
  return run(this, {
    matcher,
    args,
    label: 'context utilization',
    min,
    options,
    optionKinds: { question: 'string' },
    compute: (judge, o: QuestionMatcherOptions | undefined) => contextUtilization(answer, chunks, judge, metricOptions(o, ['question'])),
    breakdown: (score) => {
      const d = score.details
      const byId = new Map(d.chunks.map((c) => [c.id, c]))
      // Relevant-but-ignored chunks first: those are what the answer should have used.
      const unused = [...d.unused].sort((a, b) => Number(b.relevant === true) - Number(a.relevant === true) || a.index - b.index)
      const rows = unused.map((u) => [
        u.id,
        u.relevant === undefined ? 'unused' : u.relevant ? 'relevant, ignored' : 'irrelevant, ignored',
        reasonCell(byId.get(u.id)?.reason ?? ''),
      ])
      return [
        failures(rows, d.total, `all ${d.total} chunks used`, 'unused chunks', d.ignoredRelevant ? ', relevant first' : ''),
        `used: ${d.used.length === 0 ? 'none' : list(d.used)}`,
      ]
    },
  })
}

/** `await expect(retrievedContexts).toHaveContextRecall(reference, min)`. */
export async function toHaveContextRecall(this: MatcherContext, received: unknown, reference: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  const matcher = 'toHaveContextRecall'
  const args = 'reference, min'
  const chunks = requireContexts(this, matcher, args, 'received value (the retrieved contexts)', received)
  const ref = requireString(this, matcher, args, 'reference', reference)
  return run(this, {
    matcher,
    args,
    label: 'context recall',
    emptyOption: true,
    min,
    options,
    compute: (judge, o) => contextRecall(ref, chunks, judge, metricOptions(o)),
    breakdown: (score) => {
      const d = score.details
      if (d.empty) return [d.note]
      const missing = d.statements.filter((s) => s.verdict === 'not_attributed')
      return [
        failures(
          missing.map((s) => itemRow(s.statement, s.reason)),
          d.total,
          `all ${d.total} reference statements found in the contexts`,
          'reference statements not found in the contexts',
        ),
        `attributed: ${d.attributed} of ${d.total}${d.note ? `; ${d.note}` : ''}`,
      ]
    },
  })
}

/** `await expect(answer).toBeRelevantTo(question, min)`. */
export async function toBeRelevantTo(this: MatcherContext, received: unknown, question: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  const matcher = 'toBeRelevantTo'
  const args = 'question, min'
  const answer = requireAnswer(this, matcher, args, received)
  const q = requireString(this, matcher, args, 'question', question)
  return run(this, {
    matcher,
    args,
    label: 'answer relevance',
    min,
    options,
    compute: (judge, o) => answerRelevance(q, answer, judge, metricOptions(o)),
    breakdown: (score) => {
      const d = score.details
      if (d.empty) return [d.note]
      const off = d.statements.filter((s) => !s.relevant)
      return [
        failures(
          off.map((s) => itemRow(s.statement, s.reason)),
          d.total,
          `all ${d.total} statements address the question`,
          'statements that do not address the question',
        ),
        `question: ${quote(q)}`,
      ]
    },
  })
}

/** `await expect(answer).toSatisfyRubric(rubric, min, options?)`. */
export async function toSatisfyRubric(this: MatcherContext, received: unknown, rubric: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  const matcher = 'toSatisfyRubric'
  const args = 'rubric, min'
  const answer = requireAnswer(this, matcher, args, received)
  if (typeof rubric !== 'string' && (rubric === null || typeof rubric !== 'object')) {
    matcherError(this, matcher, args, 'rubric must be a string or { criteria, scale?, levels?, id? }', rubric)
  }
  return run(this, {
    matcher,
    args,
    label: 'rubric score',
    min,
    minHint: ' (the rubric score normalised to 0–1)',
    options,
    optionKinds: { question: 'string', reference: 'string', contexts: 'contexts' },
    compute: (judge, o: RubricMatcherOptions | undefined) => rubricScore(answer, rubric as string | Rubric, judge, metricOptions(o, ['question', 'contexts', 'reference'])),
    breakdown: (score) => {
      const d = score.details
      return [`rubric ${d.rubricId}: raw score ${d.raw} on ${d.min}…${d.max}\nreason: ${quote(d.reason, 300)}`]
    },
  })
}

/** `await expect(answer).toBePreferredOver(otherAnswer, { question })`. */
export async function toBePreferredOver(this: MatcherContext, received: unknown, otherAnswer: unknown, options: unknown): Promise<MatcherResult> {
  const matcher = 'toBePreferredOver'
  const args = 'otherAnswer, { question }'
  const answer = requireAnswer(this, matcher, args, received)
  const other = requireString(this, matcher, args, 'otherAnswer', otherAnswer)
  if (options === null || typeof options !== 'object' || typeof (options as { question?: unknown }).question !== 'string') {
    matcherError(this, matcher, args, 'options must include the question both answers respond to: { question: string }', options)
  }
  const { question } = options as PreferenceMatcherOptions
  return run(this, {
    matcher,
    args,
    label: 'pairwise preference',
    headlineLabel: 'pairwise preference (1 received preferred, 0.5 tie, 0 other preferred)',
    min: 1,
    options,
    optionKinds: { criteria: 'string' },
    compute: (judge, o: PreferenceMatcherOptions | undefined) => pairwiseJudge(question, answer, other, judge, metricOptions(o, ['criteria'])),
    breakdown: (score) => {
      const d = score.details
      const name = (w: string) => (w === 'A' ? 'received' : w === 'B' ? 'other answer' : 'tie')
      const rows = d.verdicts.map((v) => [v.order === 'AB' ? 'received shown first:' : 'other shown first:', name(v.preferred), reasonCell(v.reason)])
      return [
        `winner: ${name(d.winner)}${d.consistent ? '' : ' (the two orders disagreed, so it counts as a tie; position bias?)'}\n${table(rows)}`,
        `question: ${quote(question)}\nreceived: ${quote(answer, 80)}\nother:    ${quote(other, 80)}`,
      ]
    },
  })
}

// ---------------------------------------------------------------- declarations

const JUDGE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  judge: {
    type: 'a Judge',
    default: 'configure({ judge })',
    doc: 'The judge, e.g. `ollamaJudge({ model })`; a judge without a cache of its own records to `__rag_judge_cache__/` next to the test file.',
  },
  repeat: { type: 'a positive integer', default: '1', doc: 'Self-consistency: run the metric `repeat` times with seeds `seed … seed+repeat−1`.' },
  passRate: { type: 'a number 0–1', doc: 'With `repeat`: pass when at least this share of the runs scores ≥ min, instead of comparing the mean.' },
}
const QUESTION: OptionSpec = { type: 'a string', doc: "The user's question, shown to the judge." }
const EMPTY: OptionSpec = {
  type: "'fail' | 'pass'",
  default: "'fail'",
  doc: "Nothing to judge (an empty text, or the judge extracts no item): `'fail'` fails the assertion, with or without `.not`, saying what is missing; `'pass'` accepts it as vacuously true (score 1).",
  check: oneOf('fail', 'pass'),
}
const ANSWER_RECEIVED = 'an answer string'
const MIN_JUDGE: ArgSpec = { name: 'min', type: 'number', doc: 'Threshold on 0–1; passes when the score is ≥ min.' }
const CONTEXTS: ArgSpec = { name: 'contexts', type: 'ContextInput[]', doc: 'The retrieved chunks: strings or `{ id?, text }`.' }
const judgeMetric = (name: string) => atLeast(name, { scale: 1 })

export const judgeDeclarations = [
  declareMatcher({
    name: 'toBeGroundedIn',
    async: true,
    family: 'judge',
    summary: "Groundedness (faithfulness) of the answer in `contexts` ≥ `min` (default 1: every claim supported); lists unsupported claims with the judge's reasons.",
    forms: [
      {
        received: ANSWER_RECEIVED,
        args: [CONTEXTS, { ...MIN_JUDGE, optional: true, doc: 'Threshold on 0–1. @default 1' }],
        options: {
          ...JUDGE_OPTIONS,
          empty: EMPTY,
          onEmpty: {
            type: "'vacuous' | 'nan'",
            default: "'vacuous'",
            doc: "With `empty: 'pass'`, an answer without claims scores 1 (`'vacuous'`) or fails as not computable (`'nan'`).",
          },
        },
      },
    ],
    metric: judgeMetric('groundedness'),
    example: 'await expect(answer).toBeGroundedIn(retrievedChunks, 0.8, { repeat: 3, passRate: 1 })',
    compute: toBeGroundedIn,
  }),
  declareMatcher({
    name: 'toBeCompleteGiven',
    async: true,
    family: 'judge',
    summary: 'Completeness of the answer against a reference answer or the contexts ≥ `min` (share of key points covered); lists the missing key points.',
    forms: [
      {
        received: ANSWER_RECEIVED,
        args: [{ name: 'source', type: '{ reference } | { contexts }', doc: 'Where the key points come from.' }, MIN_JUDGE],
        options: { ...JUDGE_OPTIONS, question: QUESTION, empty: EMPTY },
      },
    ],
    metric: judgeMetric('completeness'),
    example: "await expect(answer).toBeCompleteGiven({ reference: 'Paris, on the Seine.' }, 1)",
    compute: toBeCompleteGiven,
  }),
  declareMatcher({
    name: 'toUtilizeContext',
    async: true,
    family: 'judge',
    summary: 'Context utilization ≥ `min`: the share of the chunks the answer draws on; with `{ question }` unused chunks are split into relevant and noise.',
    forms: [{ received: ANSWER_RECEIVED, args: [CONTEXTS, MIN_JUDGE], options: { ...JUDGE_OPTIONS, question: QUESTION } }],
    metric: judgeMetric('context utilization'),
    example: 'await expect(answer).toUtilizeContext(chunks, 0.5, { question })',
    compute: toUtilizeContext,
  }),
  declareMatcher({
    name: 'toHaveContextRecall',
    async: true,
    family: 'judge',
    summary: "Context recall of the received retrieved contexts ≥ `min`: the share of the reference answer's statements they account for.",
    forms: [
      {
        received: 'the retrieved contexts (ContextInput[])',
        args: [{ name: 'reference', type: 'string', doc: 'The reference answer.' }, MIN_JUDGE],
        options: { ...JUDGE_OPTIONS, empty: EMPTY },
      },
    ],
    metric: judgeMetric('context recall'),
    example: 'await expect(retrievedChunks).toHaveContextRecall(referenceAnswer, 0.9)',
    compute: toHaveContextRecall,
  }),
  declareMatcher({
    name: 'toBeRelevantTo',
    async: true,
    family: 'judge',
    summary: 'Answer relevance to `question` ≥ `min`: the share of its statements that address the question.',
    forms: [{ received: ANSWER_RECEIVED, args: [{ name: 'question', type: 'string', doc: "The user's question." }, MIN_JUDGE], options: JUDGE_OPTIONS }],
    metric: judgeMetric('answer relevance'),
    example: "await expect(answer).toBeRelevantTo('What is the capital of France?', 0.8)",
    compute: toBeRelevantTo,
  }),
  declareMatcher({
    name: 'toSatisfyRubric',
    async: true,
    family: 'judge',
    summary: 'Rubric score normalised to 0–1 ((raw − lo)/(hi − lo), default scale 1–5) ≥ `min`.',
    forms: [
      {
        received: ANSWER_RECEIVED,
        args: [{ name: 'rubric', type: 'string | Rubric', doc: 'The criteria, or `{ id?, criteria, scale?, levels? }`.' }, MIN_JUDGE],
        options: {
          ...JUDGE_OPTIONS,
          question: QUESTION,
          contexts: { type: 'ContextInput[]', doc: 'Contexts shown to the judge.' },
          reference: { type: 'a string', doc: 'A reference answer shown to the judge.' },
        },
      },
    ],
    metric: judgeMetric('rubric score'),
    example: "await expect(answer).toSatisfyRubric({ id: 'cites', criteria: 'Cites its sources.' }, 0.75)",
    compute: toSatisfyRubric,
  }),
  declareMatcher({
    name: 'toBePreferredOver',
    async: true,
    family: 'judge',
    summary: 'The judge prefers the answer over `otherAnswer` for `question`, asked in both orders; a disagreement between the orders is a tie, which does not pass.',
    forms: [
      {
        received: ANSWER_RECEIVED,
        args: [{ name: 'otherAnswer', type: 'string', doc: 'The answer to beat.' }],
        options: {
          ...JUDGE_OPTIONS,
          question: { type: 'a string (required)', doc: 'The question both answers respond to.' },
          criteria: { type: 'a string', doc: 'What "better" means, shown to the judge.' },
        },
      },
    ],
    metric: judgeMetric('pairwise preference'),
    example: 'await expect(newAnswer).toBePreferredOver(oldAnswer, { question })',
    compute: toBePreferredOver,
  }),
] as const
