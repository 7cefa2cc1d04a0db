/**
 * Rank order of retrieved lists. trec_eval's ranking rule lives here once: the TREC evaluator sorts run
 * lines with it and `order: 'score'` ranks retrieved items with it, so the two agree on every tie.
 */
import { MetricInputError } from '../errors.js'
import { compareUtf8 } from './trec/bytes.js'
import type { RetrievalOrder, RetrievedItem } from './types.js'

/**
 * trec_eval 10's comparator: higher score first; equal scores by docno DESCENDING (`comp_sim_docno`:
 * `strcmp(p2, p1)`). Scores that compare neither greater nor less (NaN) fall through to the docno, as in C.
 *
 * @param score the score of an element
 * @param compareDocno docno order of two elements, ascending (`strcmp(a, b)`); the tie rule reverses it
 * @example
 * const ids = ['a', 'b', 'c']
 * const scores = [1, 5, 5]
 * ;[0, 1, 2].sort(trecRankOrder((i) => scores[i], (a, b) => compareUtf8(ids[a], ids[b]))) // [2, 1, 0]
 */
export function trecRankOrder<T>(score: (x: T) => number, compareDocno: (a: T, b: T) => number): (a: T, b: T) => number {
  return (a, b) => {
    const sa = score(a)
    const sb = score(b)
    if (sa > sb) return -1
    if (sa < sb) return 1
    return compareDocno(b, a)
  }
}

/** The `order` option, defaulted and checked. */
export function readOrder(fn: string, order: unknown): RetrievalOrder {
  if (order === undefined) return 'given'
  if (order !== 'given' && order !== 'score') throw new MetricInputError(fn, 'options.order', "'given' or 'score'", order)
  return order
}

/** A retrieved list in rank order, and whether a `'given'` list carries scores that disagree with it. */
export interface RankedItems {
  readonly items: readonly RetrievedItem[]
  /** `order: 'given'` and some finite score is higher than the one ranked before it (the scores were ignored). */
  readonly scoresOutOfOrder: boolean
}

function scoreOf(item: RetrievedItem): unknown {
  return item !== null && typeof item === 'object' ? (item as { score?: unknown }).score : undefined
}

/**
 * Ranks `retrieved` by `order`. `'score'` needs a finite `score` on every item and sorts with
 * {@link trecRankOrder} over the ids' string forms; `ids` are the items' ids, already validated.
 */
export function rankRetrieved(fn: string, retrieved: readonly RetrievedItem[], ids: readonly string[], order: RetrievalOrder): RankedItems {
  if (order === 'given') {
    let previous: number | undefined
    for (const item of retrieved) {
      const score = scoreOf(item)
      if (typeof score !== 'number' || !Number.isFinite(score)) continue
      if (previous !== undefined && score > previous) return { items: retrieved, scoresOutOfOrder: true }
      previous = score
    }
    return { items: retrieved, scoresOutOfOrder: false }
  }
  const scores = retrieved.map((item, index) => {
    const score = scoreOf(item)
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      const where = item !== null && typeof item === 'object' ? `retrieved[${index}].score` : `retrieved[${index}]`
      throw new MetricInputError(fn, where, "an object with a finite `score` (order: 'score' ranks by score)", score === undefined ? item : score)
    }
    return score
  })
  const positions = retrieved.map((_, index) => index)
  positions.sort(
    trecRankOrder(
      (i) => scores[i] as number,
      (a, b) => compareUtf8(ids[a] as string, ids[b] as string),
    ),
  )
  return { items: positions.map((i) => retrieved[i] as RetrievedItem), scoresOutOfOrder: false }
}
