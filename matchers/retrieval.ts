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
  type RetrievalScore,
} from '../src/index.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { formatNumber, list, MAX_ROWS, table, thresholdResult } from './message.js'
import { readRetrievalReceived } from './retrieval-received.js'
import { matcherError, requirePositiveInteger, requireThreshold } from './validate.js'

/** Typed signatures of the retrieval matchers; thresholds are on 0–1 and mean ≥. */
export interface RetrievalMatchers<R = unknown> {
  /** Precision@k (hits in top k / k) ≥ `min`; for an eval set, the mean over queries. */
  toHavePrecisionAtK(k: number, min: number): R
  /** Recall@k (hits in top k / |relevant|) ≥ `min`; for an eval set, the mean over queries. */
  toHaveRecallAtK(k: number, min: number): R
  /** Reciprocal rank of the first relevant id ≥ `min`; for an eval set, MRR. */
  toHaveMrrAbove(min: number): R
  /** nDCG@k ≥ `min` (linear gain by default); for an eval set, the mean over queries. */
  toHaveNdcgAtK(k: number, min: number, options?: Pick<NdcgOptions, 'gain' | 'duplicates'>): R
  /** Average precision cut at k (trec_eval `map_cut_k`) ≥ `min`; for an eval set, MAP@k. */
  toHaveMapAtK(k: number, min: number): R
  /** A relevant id within the top k; for an eval set, in every query. */
  toHitWithin(k: number): R
  /** Hit rate@k ≥ `min`: for one query 0 or 1; for an eval set the share of queries with a hit. */
  toHaveHitRateAtK(k: number, min: number): R
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
  const input = readRetrievalReceived(ctx, matcher, args, received)

  if (input.kind === 'case') {
    const score = spec.compute(input.case, k, options)
    return thresholdResult(ctx, {
      matcher,
      args,
      label: score.metric,
      value: score.value,
      min,
      signature: score.signature,
      sections: () => caseBreakdown(score.details, k, spec.matcher === 'toHaveMrrAbove'),
    })
  }

  const scores = input.cases.map((c) => spec.compute(c, k, options))
  const value = scores.reduce((s, x) => s + x.value, 0) / scores.length
  const first = scores[0] as RetrievalScore
  const perCase = scores.map((s, i) => ({ id: input.labels[i] as string, value: s.value, pass: s.value >= min, details: s.details }))
  const metric = spec.matcher === 'toHaveMrrAbove' ? 'MRR' : `mean ${first.metric}`
  return thresholdResult(ctx, {
    matcher,
    args,
    label: `${metric} over ${scores.length} ${scores.length === 1 ? 'query' : 'queries'}`,
    metric,
    value,
    min,
    signature: first.signature,
    sections: () => [setBreakdown(perCase, min, k)],
    perCase,
  })
}

function caseBreakdown(d: RankingDetails, k: number | undefined, wholeList: boolean): string[] {
  const rows = d.topK.map((r) => [`#${r.rank}`, r.id, `rel ${r.grade}`, r.relevant ? `+${formatNumber(r.contribution)}` : ''])
  const heading = wholeList ? `ranking (first ${Math.min(MAX_ROWS, d.topK.length)} of ${d.topK.length}):` : `top ${k} retrieved:`
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
  return [ranks, [missed, first, dups].filter(Boolean).join('\n')]
}

function setBreakdown(perCase: ReadonlyArray<{ id: string; value: number; pass: boolean; details: RankingDetails }>, min: number, k: number | undefined): string {
  // Worst first, then by position, so the order is stable across runs.
  const ordered = perCase.map((c, i) => ({ ...c, i })).sort((a, b) => a.value - b.value || a.i - b.i)
  const below = ordered.filter((c) => !c.pass).length
  const rows = ordered.map((c) => [
    c.id,
    formatNumber(c.value, min),
    c.details.missed.length > 0 ? `missed: ${list(c.details.missed.map((m) => m.id), 5)}` : k !== undefined && c.details.hits === 0 ? 'no hit' : '',
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

export function toHavePrecisionAtK(this: MatcherContext, received: unknown, k: number, min: number): MatcherResult {
  return run(this, SPECS.precision, received, k, min)
}

export function toHaveRecallAtK(this: MatcherContext, received: unknown, k: number, min: number): MatcherResult {
  return run(this, SPECS.recall, received, k, min)
}

export function toHaveMrrAbove(this: MatcherContext, received: unknown, min: number): MatcherResult {
  return run(this, SPECS.mrr, received, undefined, min)
}

export function toHaveNdcgAtK(this: MatcherContext, received: unknown, k: number, min: number, options?: NdcgOptions): MatcherResult {
  return run(this, SPECS.ndcg, received, k, min, options ?? {})
}

export function toHaveMapAtK(this: MatcherContext, received: unknown, k: number, min: number): MatcherResult {
  return run(this, SPECS.map, received, k, min)
}

export function toHaveHitRateAtK(this: MatcherContext, received: unknown, k: number, min: number): MatcherResult {
  return run(this, SPECS.hitRate, received, k, min)
}

/** A hit in the top k: for one query hit rate 1; for a set, every query must hit (mean hit rate 1). */
export function toHitWithin(this: MatcherContext, received: unknown, k: number): MatcherResult {
  const spec: Spec = { ...SPECS.hitRate, matcher: 'toHitWithin', args: 'k' }
  return run(this, spec, received, k, 1)
}
