import { assertPositiveInteger, MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature, type SignatureValue } from '../signature.js'
import { normalizeCase, type NormalizedCase } from './normalize.js'
import type { RetrievalCase, RetrievalOptions, RetrievalOrder } from './types.js'

/** One rank of the top k, as failure messages print it. */
export interface RankRow {
  readonly rank: number
  readonly id: string
  /** The grade from the ground truth; 0 for unjudged ids. */
  readonly grade: number
  readonly relevant: boolean
  /** What this rank added to the metric (gain / discount for nDCG, P@r for AP, 1 for a hit otherwise). */
  readonly contribution: number
}

/** What every retrieval score carries in `details`. */
export interface RankingDetails {
  readonly k: number | undefined
  /** The ranks up to k (the whole list when the metric has no cutoff), bounded to 100 rows. */
  readonly topK: readonly RankRow[]
  /** Relevant ids in the top k. */
  readonly hits: number
  /** Number of relevant ids (grade > 0) in the ground truth. */
  readonly relevantCount: number
  /** Relevant ids not in the top k, best grade first then by id. */
  readonly missed: ReadonlyArray<{ readonly id: string; readonly grade: number }>
  /** Rank of the first relevant id in the whole list, or null. */
  readonly firstRelevantRank: number | null
  /** Ids that appeared more than once in `retrieved`. */
  readonly duplicateIds: readonly string[]
  /** How `retrieved` was ranked: array order (`'given'`) or by score (`'score'`). */
  readonly order: RetrievalOrder
  /** Ranked as given although some item's score is higher than the one ranked before it (`order: 'score'` would reorder). */
  readonly scoresOutOfOrder: boolean
}

const MAX_ROWS = 100

/** The keys of {@link RetrievalOptions}: what precisionAtK, recallAtK, reciprocalRank, averagePrecision, rPrecision and hitRateAtK accept. */
export const RETRIEVAL_OPTION_KEYS = keysOf<RetrievalOptions>()('duplicates', 'allowEmptyRelevant', 'order')

/**
 * Shared prologue of every retrieval metric: validate, normalise, and count hits up to k.
 * With `knownKeys` (the metric's own option keys), an unknown option key is refused.
 */
export function prepare(fn: string, input: RetrievalCase, k: number | undefined, options: RetrievalOptions = {}, knownKeys?: readonly string[]) {
  if (k !== undefined) assertPositiveInteger(fn, 'k', k)
  if (knownKeys !== undefined) checkOptionKeys(fn, options, knownKeys)
  const norm = normalizeCase(fn, input, options.duplicates ?? 'first', options.order)
  refuseEmptyRelevant(fn, norm, options)
  return norm
}

/** With `allowEmptyRelevant: false`, a ground truth without a relevant id is refused (see {@link RetrievalOptions}). */
export function refuseEmptyRelevant(fn: string, norm: NormalizedCase, options: RetrievalOptions): void {
  const allow = options.allowEmptyRelevant
  if (allow !== undefined && typeof allow !== 'boolean') throw new MetricInputError(fn, 'options.allowEmptyRelevant', 'a boolean', allow)
  if (allow === false && norm.relevantCount === 0) {
    const judged = norm.grades.size === 0 ? 'it is empty' : `its ${norm.grades.size} judged id${norm.grades.size === 1 ? ' has' : 's have'} grade ≤ 0`
    throw new MetricInputError(fn, 'relevant', `a ground truth with at least one relevant id (${judged}; pass { allowEmptyRelevant: true } to score it 0 as trec_eval does)`, [
      ...norm.grades.keys(),
    ])
  }
}

export function isRelevant(norm: NormalizedCase, id: string): boolean {
  return (norm.grades.get(id) ?? 0) > 0
}

/** Rows and summary counts for the first `cut` ranks; `contribution(rank, id, hitsSoFar)` fills the contribution column. */
export function rankingDetails(
  norm: NormalizedCase,
  k: number | undefined,
  contribution: (rank: number, relevant: boolean, grade: number, hitsSoFar: number) => number,
): RankingDetails {
  const cut = k === undefined ? norm.ids.length : Math.min(k, norm.ids.length)
  const rows: RankRow[] = []
  let hits = 0
  const inTop = new Set<string>()
  for (let i = 0; i < cut; i += 1) {
    const id = norm.ids[i] as string
    const grade = norm.grades.get(id) ?? 0
    const relevant = grade > 0
    if (relevant) hits += 1
    inTop.add(id)
    if (rows.length < MAX_ROWS) rows.push({ rank: i + 1, id, grade, relevant, contribution: contribution(i + 1, relevant, grade, hits) })
  }
  const missed: Array<{ id: string; grade: number }> = []
  for (const [id, grade] of norm.grades) if (grade > 0 && !inTop.has(id)) missed.push({ id, grade })
  missed.sort((a, b) => b.grade - a.grade || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return {
    k,
    topK: rows,
    hits,
    relevantCount: norm.relevantCount,
    missed,
    firstRelevantRank: firstRelevantRank(norm),
    duplicateIds: norm.duplicateIds,
    order: norm.order,
    scoresOutOfOrder: norm.scoresOutOfOrder,
  }
}

export function firstRelevantRank(norm: NormalizedCase): number | null {
  for (let i = 0; i < norm.ids.length; i += 1) if (isRelevant(norm, norm.ids[i] as string)) return i + 1
  return null
}

/** Hits in the first k ranks (k may exceed the list). */
export function hitsAtK(norm: NormalizedCase, k: number): number {
  let hits = 0
  const cut = Math.min(k, norm.ids.length)
  for (let i = 0; i < cut; i += 1) if (isRelevant(norm, norm.ids[i] as string)) hits += 1
  return hits
}

export type RetrievalScore<D extends RankingDetails = RankingDetails> = Score<D>

export function retrievalScore<D extends RankingDetails>(
  metric: string,
  name: string,
  value: number,
  norm: NormalizedCase,
  entries: ReadonlyArray<readonly [string, SignatureValue]>,
  details: D,
): RetrievalScore<D> {
  // order:score only: the default leaves every signature recorded before the option unchanged
  return makeScore(metric, value, buildSignature(name, [...entries, ['dup', norm.duplicates], ['order', norm.order]]), details)
}
