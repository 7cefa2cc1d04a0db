/** A document id as users have them: strings or numbers. Ids are compared by their string form. */
export type Id = string | number

/** One retrieved item: a bare id, or an object with an id (score and text are carried along for messages). */
export type RetrievedItem = Id | { readonly id: Id; readonly score?: number; readonly text?: string }

/**
 * Ground truth: an iterable of ids (binary relevance) or a map of id → grade (graded relevance;
 * grade > 0 is relevant, grade ≤ 0 is judged non-relevant).
 */
export type Relevance = Iterable<Id> | Readonly<Record<string, number>> | ReadonlyMap<Id, number>

/** What every retrieval metric takes: one query's ranking and its ground truth. */
export interface RetrievalCase {
  readonly retrieved: readonly RetrievedItem[]
  readonly relevant: Relevance
}

/**
 * What a duplicate id in `retrieved` does.
 * - `'first'` (default): only the first occurrence counts; later ones are skipped and do not take a rank.
 * - `'literal'`: every position counts, so a relevant id listed twice is two hits (recall can exceed 1).
 * - `'error'`: refuse the ranking, as trec_eval refuses a run with a duplicate docno in a topic.
 */
export type DuplicatePolicy = 'first' | 'literal' | 'error'

export interface RetrievalOptions {
  readonly duplicates?: DuplicatePolicy
}
