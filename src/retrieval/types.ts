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
 * - `'literal'`: every position counts, so a relevant id listed twice is two hits (the spec's formulas, transcribed
 *   literally). Where that pushes recall, AP or nDCG above 1 the ranking is refused with a MetricInputError, since a
 *   value off the 0–1 scale would make every threshold meaningless; precision, hit rate and RR never exceed 1.
 * - `'error'`: refuse the ranking, as trec_eval refuses a run with a duplicate docno in a topic.
 */
export type DuplicatePolicy = 'first' | 'literal' | 'error'

/**
 * How `retrieved` is ranked.
 * - `'given'` (default): array order is rank order; scores are carried along but never reorder anything.
 * - `'score'`: by `score`, highest first, ties by id descending (UTF-8 byte order), the rule trec_eval 10
 *   applies to a run file, so the numbers match `rag-matchers trec` on the same ranking. Every item must be
 *   an object with a finite `score`; the first that is not is refused, naming its position.
 * `order:score` is recorded in the signature. The default (`order:given`) is left out of it, so signatures and
 * baselines recorded before this option stay valid; when it ignores scores that disagree with the array order,
 * the matchers' failure messages say so.
 */
export type RetrievalOrder = 'given' | 'score'

export interface RetrievalOptions {
  readonly duplicates?: DuplicatePolicy
  /**
   * `'given'` ranks `retrieved` in array order; `'score'` ranks it by `score` (highest first, ties by id
   * descending, as trec_eval does). See {@link RetrievalOrder}.
   * @default 'given'
   */
  readonly order?: RetrievalOrder
  /**
   * A ground truth with no relevant id (empty, or every grade ≤ 0). `true`: the query scores 0 on every
   * metric and counts in a set's mean, as trec_eval scores a judged topic with no relevant document
   * (num_rel 0). `false`: refused with a MetricInputError, since nothing can be found. The core
   * functions default to `true`; the matchers default to `false`, because an assertion over an empty
   * ground truth proves nothing.
   * @default true (core functions), false (matchers)
   */
  readonly allowEmptyRelevant?: boolean
}
