import { assertPositiveInteger, MetricInputError } from '../errors.js'
import { caseLabel } from '../eval-case.js'
import { averagePrecisionValue, hitRateValue, ndcgValue, precisionValue, readGain, recallValue, reciprocalRankValue } from './kernels.js'
import { NDCG_OPTION_KEYS, type NdcgOptions } from './ndcg.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { denseArray } from '../dense-array.js'
import type { NormalizedCase } from './normalize.js'
import { prepare } from './ranking.js'
import type { RetrievalCase } from './types.js'

export interface RetrievalMetrics {
  readonly precision: number
  readonly recall: number
  readonly reciprocalRank: number
  readonly ndcg: number
  readonly hitRate: number
}

/**
 * The five everyday retrieval numbers for one query in one call, as plain numbers.
 *
 * @example retrievalMetrics(['a', 'b', 'c'], ['b'], 3) // { precision: 1/3, recall: 1, reciprocalRank: 0.5, ndcg: 0.6309…, hitRate: 1 }
 */
export function retrievalMetrics(retrieved: RetrievalCase['retrieved'], relevant: RetrievalCase['relevant'], k: number, options: NdcgOptions = {}): RetrievalMetrics {
  checkOptionKeys('retrievalMetrics', options, NDCG_OPTION_KEYS)
  return metricsOf(normalizeFor('retrievalMetrics', { retrieved, relevant }, k, options), k, options, 'retrievalMetrics')
}

// One normalisation per case feeds every metric (the kernels hold the formulas).
function normalizeFor(fn: string, input: RetrievalCase, k: number, options: NdcgOptions): NormalizedCase {
  readGain(fn, options.gain)
  return prepare(fn, input, k, options)
}

function metricsOf(norm: NormalizedCase, k: number, options: NdcgOptions, fn: string): RetrievalMetrics {
  return {
    precision: precisionValue(norm, k),
    recall: recallValue(norm, k, fn, `recall@${k}`),
    reciprocalRank: reciprocalRankValue(norm),
    ndcg: ndcgValue(norm, k, options.gain ?? 'linear', fn, `nDCG@${k}`).value,
    hitRate: hitRateValue(norm, k),
  }
}

export interface PerQueryRetrieval extends RetrievalMetrics {
  /** The case's `id`, else its `question`, else its index as a string. */
  readonly id: string
  readonly averagePrecision: number
}

export interface RetrievalEvaluation {
  readonly k: number
  readonly perQuery: readonly PerQueryRetrieval[]
  /** Arithmetic means over queries; `map` is the mean of AP@k (trec_eval `map_cut_k`). */
  readonly mean: {
    readonly precision: number
    readonly recall: number
    readonly mrr: number
    readonly ndcg: number
    readonly hitRate: number
    readonly map: number
  }
}

export interface EvaluateRetrievalOptions extends NdcgOptions {
  readonly k: number
}

/** The keys of {@link EvaluateRetrievalOptions}. */
export const EVALUATE_RETRIEVAL_OPTION_KEYS = keysOf<EvaluateRetrievalOptions>()('k', ...NDCG_OPTION_KEYS)

/**
 * Per-query metrics and their means over an eval set.
 *
 * @example evaluateRetrieval([{ retrieved: ['a'], relevant: ['a'] }, { retrieved: ['b'], relevant: ['c'] }], { k: 1 }).mean.hitRate // 0.5
 */
export function evaluateRetrieval(cases: readonly RetrievalCase[], options: EvaluateRetrievalOptions): RetrievalEvaluation {
  if (!Array.isArray(cases)) throw new MetricInputError('evaluateRetrieval', 'cases', 'an array of `{ retrieved, relevant }` cases', cases)
  if (cases.length === 0) throw new MetricInputError('evaluateRetrieval', 'cases', 'a non-empty array (a mean over no queries is undefined)', cases)
  checkOptionKeys('evaluateRetrieval', options, EVALUATE_RETRIEVAL_OPTION_KEYS)
  const k = options?.k
  assertPositiveInteger('evaluateRetrieval', 'options.k', k)
  // `map` and `reduce` skip a hole while the mean divides by the full length: refused, naming it.
  const perQuery = denseArray('evaluateRetrieval', 'cases', cases, 'a case `{ retrieved, relevant }`').map((c, i) => {
    const norm = normalizeFor('evaluateRetrieval', c, k, options)
    return { id: caseLabel(c, i), ...metricsOf(norm, k, options, 'evaluateRetrieval'), averagePrecision: averagePrecisionValue(norm, k, 'evaluateRetrieval', `AP@${k}`) }
  })
  const mean = (pick: (q: PerQueryRetrieval) => number) => perQuery.reduce((s, q) => s + pick(q), 0) / perQuery.length
  return {
    k,
    perQuery,
    mean: {
      precision: mean((q) => q.precision),
      recall: mean((q) => q.recall),
      mrr: mean((q) => q.reciprocalRank),
      ndcg: mean((q) => q.ndcg),
      hitRate: mean((q) => q.hitRate),
      map: mean((q) => q.averagePrecision),
    },
  }
}
