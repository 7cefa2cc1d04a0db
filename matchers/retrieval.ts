import {
  averagePrecision,
  hitRateAtK,
  ndcgAtK,
  precisionAtK,
  recallAtK,
  reciprocalRank,
  type NdcgOptions,
  type RankingDetails,
  type RetrievalCase,
  type RetrievalOptions,
  type RetrievalScore,
} from '../src/retrieval/index.js'
import type { FailedCasesMode } from './message.js'
import type { MatcherContext, MatcherResult } from './context.js'
import {
  failedCasesMode,
  failedCasesSignature,
  formatNumber,
  list,
  MAX_ROWS,
  partialSetResult,
  table,
  thresholdResult,
  withoutFailedCases,
  FAILED_CASES_OPTION,
} from './message.js'
import { readRetrievalReceived } from './retrieval-received.js'
import { expandRetrievalSteps, stepsSignature, STEPS_OPTION, withoutSteps, type StepsMode } from './agent-steps.js'
import { atLeast, declareMatcher, isBoolean, oneOf, type ArgSpec, type FormSpec, type MatcherDeclaration, type OptionSpec } from './declare.js'
import { isEvalSet } from './generation-received.js'
import { matcherError, requirePositiveInteger, requireThreshold } from './validate.js'

/** Options of the retrieval matchers for an eval set: the core's, and what a failed case does (refused for one query). */
export type RetrievalSetOptions<O = RetrievalOptions> = O & {
  /** What a case whose pipeline failed does: `'fail'` (default) fails the assertion either way, `'zero'` scores it 0, `'skip'` leaves it out. Eval sets only. */
  readonly failedCases?: FailedCasesMode
  /** A case with an agent's retrieval steps (`steps: [{ query, retrieved }]`): score their union (default), each step, or the last. */
  readonly steps?: StepsMode
}

/** Typed signatures of the retrieval matchers; thresholds are on 0–1 and mean ≥. */
export interface RetrievalMatchers<R = unknown> {
  /** Precision@k (hits in top k / k) ≥ `min`; for an eval set, the mean over queries. */
  toHavePrecisionAtK(k: number, min: number, options?: RetrievalSetOptions): R
  /** Recall@k (hits in top k / |relevant|) ≥ `min`; for an eval set, the mean over queries. */
  toHaveRecallAtK(k: number, min: number, options?: RetrievalSetOptions): R
  /** Reciprocal rank of the first relevant id ≥ `min`; for an eval set, MRR. */
  toHaveMrrAbove(min: number, options?: RetrievalSetOptions): R
  /** nDCG@k ≥ `min` (linear gain by default); for an eval set, the mean over queries. */
  toHaveNdcgAtK(k: number, min: number, options?: RetrievalSetOptions<NdcgOptions>): R
  /** Average precision cut at k (trec_eval `map_cut_k`) ≥ `min`; for an eval set, MAP@k. */
  toHaveMapAtK(k: number, min: number, options?: RetrievalSetOptions): R
  /** A relevant id within the top k; for an eval set, in every query. */
  toHitWithin(k: number, options?: RetrievalSetOptions): R
  /** Hit rate@k ≥ `min`: for one query 0 or 1; for an eval set the share of queries with a hit. */
  toHaveHitRateAtK(k: number, min: number, options?: RetrievalSetOptions): R
}

interface Spec {
  readonly matcher: string
  readonly args: string
  readonly compute: (c: RetrievalCase, k: number | undefined, options: NdcgOptions) => RetrievalScore
  readonly k: boolean
}

function run(ctx: MatcherContext, spec: Spec, received: unknown, k: number | undefined, min: number, options: NdcgOptions = {}): MatcherResult {
  const { matcher, args } = spec
  if (spec.k) requirePositiveInteger(ctx, matcher, args, 'k', k)
  requireThreshold(ctx, matcher, args, 'min', min)
  if (options !== undefined && (options === null || typeof options !== 'object')) matcherError(ctx, matcher, args, 'options must be an object', options)
  const stepsMode: StepsMode = (options as { steps?: StepsMode }).steps ?? 'union'
  const expanded = expandRetrievalSteps(ctx, matcher, args, received, stepsMode)
  const withSteps = (signature: string) => (expanded.used ? stepsSignature(signature, stepsMode) : signature)
  const input = readRetrievalReceived(ctx, matcher, args, expanded.received)
  const mode = failedCasesMode(options)
  options = withoutSteps(withoutFailedCases(options))
  // An assertion over an empty ground truth proves nothing: refused unless the user opts in.
  options = { ...options, allowEmptyRelevant: options.allowEmptyRelevant ?? false }

  if (input.kind === 'case') {
    const score = computeSingle(ctx, spec, input.case, k, options)
    return thresholdResult(ctx, {
      matcher,
      args,
      label: score.metric,
      value: score.value,
      min,
      signature: withSteps(score.signature),
      sections: () => caseBreakdown(score.details, k, spec.matcher === 'toHaveMrrAbove'),
    })
  }

  const scores = input.cases.map((c, i) => computeCase(ctx, spec, c, `received[${input.indices[i] as number}] (${input.labels[i] as string})`, k, options))
  const scored = input.cases.length
  // 'zero': a failed case counts as a query that found nothing
  const zeros = mode === 'zero' ? input.failed.length : 0
  const n = scored + zeros
  const value = n === 0 ? 0 : scores.reduce((s, x) => s + x.value, 0) / n
  const perCase = scores.map((s, i) => ({ id: input.labels[i] as string, value: s.value, pass: s.value >= min, details: s.details as RankingDetails | undefined }))
  if (mode === 'zero') for (const f of input.failed) perCase.push({ id: f.id, value: 0, pass: 0 >= min, details: undefined })
  const first = scores[0] ?? spec.compute(EMPTY_CASE, k, { ...options, allowEmptyRelevant: true })
  const metric = spec.matcher === 'toHaveMrrAbove' ? 'MRR' : `mean ${first.metric}`
  const signature = withSteps(failedCasesSignature(first.signature, mode, input.failed.length))
  const skipped =
    input.failed.length === 0 || mode === 'fail' ? '' : mode === 'skip' ? ` (${input.failed.length} failed left out)` : ` (${input.failed.length} failed scored 0)`
  return partialSetResult(ctx, {
    matcher,
    args,
    label: `${metric} over ${n} ${n === 1 ? 'query' : 'queries'}${skipped}`,
    metric,
    value,
    min,
    signature,
    sections: () => [setBreakdown(perCase, min, k, ctx.isNot === true), orderNote(scores.filter((s) => s.details.scoresOutOfOrder).length, scores.length)],
    perCase,
    failed: input.failed,
    total: input.total,
    mode,
    what: 'ranking',
    scored: n,
  })
}

/** A query with nothing retrieved, for the metric name and signature when every case failed. */
const EMPTY_CASE: RetrievalCase = { retrieved: [], relevant: [] }

/** One case of a set; a core input error names the case, since `retrieved[3]` alone does not say which query. */
function computeCase(ctx: MatcherContext, spec: Spec, c: RetrievalCase, where: string, k: number | undefined, options: NdcgOptions): RetrievalScore {
  try {
    return spec.compute(c, k, options)
  } catch (error) {
    // By name: the ESM and CJS copies of the core each have their own MetricInputError class.
    if ((error as Error | undefined)?.name === 'MetricInputError') matcherError(ctx, spec.matcher, spec.args, `${where}: ${(error as Error).message}${unanswerableHint(c)}`)
    throw error
  }
}

/** One received case: the core's own errors pass through as they are, an unanswerable question's get the hint. */
function computeSingle(ctx: MatcherContext, spec: Spec, c: RetrievalCase, k: number | undefined, options: NdcgOptions): RetrievalScore {
  try {
    return spec.compute(c, k, options)
  } catch (error) {
    const hint = unanswerableHint(c)
    if ((error as Error | undefined)?.name === 'MetricInputError' && hint !== '') matcherError(ctx, spec.matcher, spec.args, `${(error as Error).message}${hint}`)
    throw error
  }
}

/**
 * A generated unanswerable question (rag-matchers/testset, `kind: 'unanswerable'`) has `relevant: []` by
 * design: the corpus holds no answer. Its refusal says where such an item belongs instead.
 */
function unanswerableHint(c: RetrievalCase): string {
  if ((c as { kind?: unknown }).kind !== 'unanswerable') return ''
  return (
    ". This case is an unanswerable question (kind 'unanswerable'): the corpus holds no answer, so it has no relevant chunk by design. " +
    "Leave such items out of retrieval assertions (filter on `kind !== 'unanswerable'`) and assert that the answer is a refusal instead (docs/testset.md)"
  )
}

/** Said when scores disagree with the array order that ranked them, so ignored scores are never silent. */
function orderNote(outOfOrder: number, of: number): string | undefined {
  if (outOfOrder === 0) return undefined
  const which = of === 1 ? 'the retrieved scores are' : `in ${outOfOrder} of ${of} queries the retrieved scores are`
  return `ranked as given (order: 'given'), but ${which} not in descending order; pass { order: 'score' } to rank by score as trec_eval does`
}

function caseBreakdown(d: RankingDetails, k: number | undefined, wholeList: boolean): Array<string | undefined> {
  const rows = d.topK.map((r) => [`#${r.rank}`, r.id, `rel ${r.grade}`, r.relevant ? `+${formatNumber(r.contribution)}` : ''])
  const byScore = d.order === 'score' ? ' (ranked by score)' : ''
  const heading = wholeList ? `ranking${byScore} (first ${Math.min(MAX_ROWS, d.topK.length)} of ${d.topK.length}):` : `top ${k} retrieved${byScore}:`
  const ranks = rows.length > 0 ? `${heading}\n${table(rows, { total: wholeList ? d.topK.length : rows.length })}` : 'nothing was retrieved'
  const missed =
    d.missed.length > 0
      ? `missed relevant (${d.missed.length} of ${d.relevantCount}): ${list(d.missed.map((m) => (m.grade === 1 ? m.id : `${m.id} (rel ${m.grade})`)))}`
      : d.relevantCount === 0
        ? 'no relevant ids in the ground truth'
        : undefined
  const first = wholeList
    ? d.firstRelevantRank === null
      ? 'no relevant id anywhere in the ranking'
      : `first relevant id at rank ${d.firstRelevantRank}`
    : `hits in top ${k}: ${d.hits} of ${d.relevantCount} relevant`
  const dups = d.duplicateIds.length > 0 ? `duplicate ids in retrieved: ${list([...new Set(d.duplicateIds)])}` : undefined
  return [ranks, [missed, first, dups].filter(Boolean).join('\n'), orderNote(d.scoresOutOfOrder ? 1 : 0, 1)]
}

function setBreakdown(
  perCase: ReadonlyArray<{ id: string; value: number; pass: boolean; details: RankingDetails | undefined }>,
  min: number,
  k: number | undefined,
  isNot: boolean,
): string {
  if (isNot) {
    // Under .not the queries at or above min made the assertion fail: list those, best first.
    const above = perCase
      .map((c, i) => ({ ...c, i }))
      .filter((c) => c.pass)
      .sort((a, b) => b.value - a.value || a.i - b.i)
    return `queries at or above ${formatNumber(min)}: ${above.length} of ${perCase.length} (highest first)\n${table(above.map((c) => [c.id, formatNumber(c.value, min)]))}`
  }
  // Worst first, then by position, so the order is stable across runs.
  const ordered = perCase.map((c, i) => ({ ...c, i })).sort((a, b) => a.value - b.value || a.i - b.i)
  const below = ordered.filter((c) => !c.pass).length
  const rows = ordered.map((c) => [
    c.id,
    formatNumber(c.value, min),
    c.details === undefined
      ? 'pipeline failed (scored 0)'
      : c.details.missed.length > 0
        ? `missed: ${list(
            c.details.missed.map((m) => m.id),
            5,
          )}`
        : k !== undefined && c.details.hits === 0
          ? 'no hit'
          : '',
  ])
  return `queries below ${formatNumber(min)}: ${below} of ${perCase.length} (lowest first)\n${table(rows)}`
}

const SPECS = {
  precision: { matcher: 'toHavePrecisionAtK', args: 'k, min', compute: (c, k, o) => precisionAtK(c, k as number, o), k: true },
  recall: { matcher: 'toHaveRecallAtK', args: 'k, min', compute: (c, k, o) => recallAtK(c, k as number, o), k: true },
  mrr: { matcher: 'toHaveMrrAbove', args: 'min', compute: (c, _k, o) => reciprocalRank(c, o), k: false },
  ndcg: { matcher: 'toHaveNdcgAtK', args: 'k, min', compute: (c, k, o) => ndcgAtK(c, k as number, o), k: true },
  map: { matcher: 'toHaveMapAtK', args: 'k, min', compute: (c, k, o) => averagePrecision(c, k as number, o), k: true },
  hitRate: { matcher: 'toHaveHitRateAtK', args: 'k, min', compute: (c, k, o) => hitRateAtK(c, k as number, o), k: true },
} satisfies Record<string, Spec>

export function toHavePrecisionAtK(this: MatcherContext, received: unknown, k: number, min: number, options?: RetrievalSetOptions): MatcherResult {
  return run(this, SPECS.precision, received, k, min, options ?? {})
}

export function toHaveRecallAtK(this: MatcherContext, received: unknown, k: number, min: number, options?: RetrievalSetOptions): MatcherResult {
  return run(this, SPECS.recall, received, k, min, options ?? {})
}

export function toHaveMrrAbove(this: MatcherContext, received: unknown, min: number, options?: RetrievalSetOptions): MatcherResult {
  return run(this, SPECS.mrr, received, undefined, min, options ?? {})
}

export function toHaveNdcgAtK(this: MatcherContext, received: unknown, k: number, min: number, options?: RetrievalSetOptions<NdcgOptions>): MatcherResult {
  return run(this, SPECS.ndcg, received, k, min, options ?? {})
}

export function toHaveMapAtK(this: MatcherContext, received: unknown, k: number, min: number, options?: RetrievalSetOptions): MatcherResult {
  return run(this, SPECS.map, received, k, min, options ?? {})
}

export function toHaveHitRateAtK(this: MatcherContext, received: unknown, k: number, min: number, options?: RetrievalSetOptions): MatcherResult {
  return run(this, SPECS.hitRate, received, k, min, options ?? {})
}

/** A hit in the top k: for one query hit rate 1; for a set, every query must hit (mean hit rate 1). */
export function toHitWithin(this: MatcherContext, received: unknown, k: number, options?: RetrievalSetOptions): MatcherResult {
  const spec: Spec = { ...SPECS.hitRate, matcher: 'toHitWithin', args: 'k' }
  return run(this, spec, received, k, 1, options ?? {})
}

// ---------------------------------------------------------------- declarations

const RECEIVED_CASE = 'one retrieval case `{ retrieved, relevant }`'
const RECEIVED_SET = 'an eval set: an array of cases, `{ cases }`, or a describeEvalSet run'

const K: ArgSpec = { name: 'k', type: 'number', doc: 'Cut-off: the first k retrieved ids count (a positive integer).' }
const MIN: ArgSpec = { name: 'min', type: 'number', doc: 'Threshold on 0–1; the assertion passes when the value is ≥ min.' }
const DUPLICATES: OptionSpec = {
  type: "'first' | 'literal' | 'error'",
  default: "'first'",
  doc: "A repeated id counts at its first position only (`'first'`), at every position (`'literal'`), or is refused like trec_eval (`'error'`). Shown in the signature as `dup:`.",
  check: oneOf('first', 'literal', 'error'),
}
const ALLOW_EMPTY_RELEVANT: OptionSpec = {
  type: 'a boolean',
  default: 'false',
  doc: "Accept a ground truth with no relevant id (empty, or every grade ≤ 0): the query then scores 0 and counts in a set's mean, as trec_eval scores a judged topic with no relevant document. By default such a query is a Matcher error, because nothing can be found.",
  check: isBoolean,
}
const ORDER: OptionSpec = {
  type: "'given' | 'score'",
  default: "'given'",
  doc: "How `retrieved` is ranked: array order (`'given'`), or by each item's `score`, highest first, ties by id descending as trec_eval does (`'score'`; every item needs a finite `score`). Shown in the signature as `order:score`; the default adds nothing to it.",
  check: oneOf('given', 'score'),
}
const RETRIEVAL_OPTIONS = { duplicates: DUPLICATES, allowEmptyRelevant: ALLOW_EMPTY_RELEVANT, order: ORDER, steps: STEPS_OPTION } as const
const NDCG_OPTIONS = {
  duplicates: DUPLICATES,
  allowEmptyRelevant: ALLOW_EMPTY_RELEVANT,
  order: ORDER,
  steps: STEPS_OPTION,
  gain: {
    type: "'linear' | 'exponential'",
    default: "'linear'",
    doc: 'How a grade becomes a gain: the grade itself (trec_eval `ndcg_cut`) or 2^grade − 1.',
    check: oneOf('linear', 'exponential'),
  },
} as const

/** A retrieval matcher: sync, one query or an eval set with the same arguments and options. */
function retrievalMatcher<const N extends string>(
  d: Pick<MatcherDeclaration<N>, 'name' | 'summary' | 'metric' | 'example' | 'failing' | 'compute'> & {
    args: readonly ArgSpec[]
    options: Readonly<Record<string, OptionSpec>>
  },
): MatcherDeclaration<N> {
  const { args, options, ...rest } = d
  const forms: FormSpec[] = [
    { received: RECEIVED_SET, when: isEvalSet, args, options: { ...options, failedCases: FAILED_CASES_OPTION } },
    { received: RECEIVED_CASE, args, options },
  ]
  return declareMatcher({ ...rest, async: false, family: 'retrieval', forms })
}

const good = { retrieved: ['d7', 'd2', 'd9'], relevant: { d2: 1, d4: 2, d5: 1 } }

export const retrievalDeclarations = [
  retrievalMatcher({
    name: 'toHavePrecisionAtK',
    summary: 'Precision@k (relevant ids in the top k / k) ≥ `min`; for an eval set, the mean over queries.',
    args: [K, MIN],
    options: RETRIEVAL_OPTIONS,
    metric: atLeast('P@k', { registry: 'precision@1' }),
    example: "expect({ retrieved: ['d2', 'd4', 'd9'], relevant: ['d2', 'd4'] }).toHavePrecisionAtK(3, 0.6)",
    failing: { received: good, args: [3, 0.5] },
    compute: toHavePrecisionAtK,
  }),
  retrievalMatcher({
    name: 'toHaveRecallAtK',
    summary: 'Recall@k (relevant ids in the top k / all relevant ids) ≥ `min`; for an eval set, the mean over queries.',
    args: [K, MIN],
    options: RETRIEVAL_OPTIONS,
    metric: atLeast('R@k', { registry: 'recall@1' }),
    example: 'expect(run).toHaveRecallAtK(3, 0.8)',
    failing: { received: good, args: [3, 0.5] },
    compute: toHaveRecallAtK,
  }),
  retrievalMatcher({
    name: 'toHaveMrrAbove',
    summary: 'Reciprocal rank of the first relevant id ≥ `min`; for an eval set, MRR (the mean).',
    args: [MIN],
    options: RETRIEVAL_OPTIONS,
    metric: atLeast('RR', { registry: 'mrr' }),
    example: "expect({ retrieved: ['x', 'a'], relevant: ['a'] }).toHaveMrrAbove(0.5)",
    failing: { received: good, args: [0.9] },
    compute: toHaveMrrAbove,
  }),
  retrievalMatcher({
    name: 'toHaveNdcgAtK',
    summary: 'nDCG@k ≥ `min` (trec_eval `ndcg_cut`; linear gain by default, graded relevance as `{ id: grade }`); for an eval set, the mean over queries.',
    args: [K, MIN],
    options: NDCG_OPTIONS,
    metric: atLeast('nDCG@k', { registry: 'ndcg@1' }),
    example: "expect({ retrieved: ['d3', 'd1'], relevant: { d1: 2, d3: 1 } }).toHaveNdcgAtK(2, 0.7, { gain: 'exponential' })",
    failing: { received: good, args: [3, 0.7] },
    compute: toHaveNdcgAtK,
  }),
  retrievalMatcher({
    name: 'toHaveMapAtK',
    summary: 'Average precision cut at k (trec_eval `map_cut_k`) ≥ `min`; for an eval set, MAP@k.',
    args: [K, MIN],
    options: RETRIEVAL_OPTIONS,
    metric: atLeast('AP@k', { registry: 'map@1' }),
    example: 'expect(run).toHaveMapAtK(10, 0.5)',
    failing: { received: good, args: [3, 0.5] },
    compute: toHaveMapAtK,
  }),
  retrievalMatcher({
    name: 'toHitWithin',
    summary: 'A relevant id within the top k; for an eval set, in every query (mean hit rate 1).',
    args: [K],
    options: RETRIEVAL_OPTIONS,
    metric: atLeast('Hit@k', { registry: 'hit@1' }),
    example: "expect({ retrieved: ['x', 'a'], relevant: ['a'] }).toHitWithin(2)",
    failing: { received: good, args: [1] },
    compute: toHitWithin,
  }),
  retrievalMatcher({
    name: 'toHaveHitRateAtK',
    summary: 'Hit rate@k ≥ `min`: for one query 0 or 1; for an eval set the share of queries with a relevant id in the top k.',
    args: [K, MIN],
    options: RETRIEVAL_OPTIONS,
    metric: atLeast('Hit@k', { registry: 'hit@1' }),
    example: 'expect(run).toHaveHitRateAtK(5, 0.9)',
    failing: { received: [good, { retrieved: ['a'], relevant: ['b'] }], args: [1, 0.9] },
    compute: toHaveHitRateAtK,
  }),
] as const
