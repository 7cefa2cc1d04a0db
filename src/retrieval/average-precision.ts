import { averagePrecisionValue } from './kernels.js'
import { hitsAtK, prepare, RETRIEVAL_OPTION_KEYS, rankingDetails, retrievalScore, type RetrievalScore } from './ranking.js'
import type { RetrievalCase, RetrievalOptions } from './types.js'

/**
 * Average precision, optionally cut at k.
 *
 *   AP@k = Σ_{relevant ranks r ≤ k} P@r / |relevant|
 *
 * Divided by all relevant ids, so relevant ids that were not retrieved (or fall below k) count as 0:
 * trec_eval `map` (no k) and `map_cut_k`, ranx `map` / `map@k`. No relevant ids → 0.
 *
 * @example averagePrecision({ retrieved: ['a', 'b', 'c'], relevant: ['a', 'c'] }).value // (1 + 2/3) / 2 = 0.8333…
 */
export function averagePrecision(input: RetrievalCase, k?: number, options: RetrievalOptions = {}): RetrievalScore {
  const norm = prepare('averagePrecision', input, k, options, RETRIEVAL_OPTION_KEYS)
  const details = rankingDetails(norm, k, (rank, relevant, _grade, hitsSoFar) => (relevant ? hitsSoFar / rank : 0))
  const value = averagePrecisionValue(norm, k)
  const metric = k === undefined ? 'AP' : `AP@${k}`
  return retrievalScore(
    metric,
    'AP',
    value,
    norm,
    [
      ['k', k ?? 'none'],
      ['empty', 'zero'],
    ],
    details,
  )
}

/**
 * R-precision: precision at R, the number of relevant ids (trec_eval `Rprec`). 0 when R = 0.
 *
 * @example rPrecision({ retrieved: ['a', 'b', 'c'], relevant: ['b', 'c'] }).value // 0.5
 */
export function rPrecision(input: RetrievalCase, options: RetrievalOptions = {}): RetrievalScore {
  const norm = prepare('rPrecision', input, undefined, options, RETRIEVAL_OPTION_KEYS)
  const r = norm.relevantCount
  const value = r === 0 ? 0 : hitsAtK(norm, r) / r
  const details = rankingDetails(norm, Math.max(r, 1), (_rank, relevant) => (relevant ? 1 : 0))
  return retrievalScore('R-Prec', 'RPrec', value, norm, [['empty', 'zero']], details)
}
