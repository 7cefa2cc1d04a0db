/**
 * People's ratings of a run's cases (history schema 4, table `ratings`): what the UI's rate view writes
 * (`rag-matchers ui --rate`) and exports as the JSONL that the agreement API (`loadRatings`,
 * `agreementReport`) and `rag-matchers align` read.
 *
 * One row per (run, eval set, other run, dimension, case, rater). Saving is one upsert on that key, so a
 * rater who rates a case again replaces their earlier rating, and two raters rating at once each keep
 * theirs: no read-modify-write, nothing to lose between two requests (SQLite serialises writers with its
 * busy timeout, PostgreSQL makes each statement atomic).
 */
import type { HistoryStore } from './store.js'

/** The dimension name of a pairwise preference. */
export const PAIRWISE_DIMENSION = 'preference'

/** A rating to store: a direct one (`score` on a numeric scale, or `choice` pass/fail), or a pairwise preference (`otherRunId`, `choice` a/b/tie, `shownFirst`). */
export interface RatingInput {
  readonly runId: string
  readonly set: string
  readonly caseId: string
  readonly rater: string
  readonly dimension: string
  /** Pairwise: the run whose answer was compared with this run's (this run is `a`, that one `b`). */
  readonly otherRunId?: string
  readonly score?: number
  /** `pass`/`fail` for a pass/fail dimension; `a`/`b`/`tie` for a pairwise preference. */
  readonly choice?: string
  /** Pairwise: the run whose answer the page showed first (the order is randomised per case and rater). */
  readonly shownFirst?: string
}

export interface StoredRating extends RatingInput {
  /** ISO time of the (last) rating. */
  readonly ratedAt: string
}

/** Whether the store has the ratings table (a version 4 store; an older one opened read-only has none). */
export async function hasRatingsTable(store: HistoryStore): Promise<boolean> {
  return store.schemaVersion >= 4 && (await store.backend.hasTable('ratings'))
}

/** Stores one rating, replacing the same rater's earlier rating of the same case and dimension. */
export async function saveRating(store: HistoryStore, r: RatingInput, now: Date = new Date()): Promise<void> {
  await store.backend.run(
    `INSERT INTO ratings (run_id, set_name, case_id, rater, dimension, other_run_id, score, choice, shown_first, rated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (run_id, set_name, other_run_id, dimension, case_id, rater)
     DO UPDATE SET score = excluded.score, choice = excluded.choice, shown_first = excluded.shown_first, rated_at = excluded.rated_at`,
    [r.runId, r.set, r.caseId, r.rater, r.dimension, r.otherRunId ?? '', r.score ?? null, r.choice ?? null, r.shownFirst ?? null, now.toISOString()],
  )
}

/**
 * The ratings of run `runId`'s eval set `set`: direct ones (no `otherRunId`), or the pairwise ones against
 * `otherRunId`. Ordered by dimension, case, rater. Empty when the store has no ratings table yet.
 */
export async function readRatings(store: HistoryStore, where: { runId: string; set: string; otherRunId?: string }): Promise<StoredRating[]> {
  if (!(await hasRatingsTable(store))) return []
  const rows = await store.backend.all<Record<string, unknown>>(
    `SELECT run_id, set_name, case_id, rater, dimension, other_run_id, score, choice, shown_first, rated_at FROM ratings
     WHERE run_id = ? AND set_name = ? AND other_run_id = ? ORDER BY dimension, case_id, rater`,
    [where.runId, where.set, where.otherRunId ?? ''],
  )
  return rows.map((r) => ({
    runId: String(r.run_id),
    set: String(r.set_name),
    caseId: String(r.case_id),
    rater: String(r.rater),
    dimension: String(r.dimension),
    ...(r.other_run_id !== '' && r.other_run_id !== null ? { otherRunId: String(r.other_run_id) } : {}),
    ...(typeof r.score === 'number' ? { score: r.score } : {}),
    ...(typeof r.choice === 'string' ? { choice: r.choice } : {}),
    ...(typeof r.shown_first === 'string' ? { shownFirst: r.shown_first } : {}),
    ratedAt: String(r.rated_at),
  }))
}

/** Every rating in the store (all runs and sets), for `rag-matchers ui --export-ratings`. */
export async function allRatings(store: HistoryStore): Promise<StoredRating[]> {
  if (!(await hasRatingsTable(store))) return []
  const keys = await store.backend.all<{ run_id: string; set_name: string; other_run_id: string }>(
    `SELECT DISTINCT run_id, set_name, other_run_id FROM ratings ORDER BY run_id, set_name, other_run_id`,
  )
  const out: StoredRating[] = []
  for (const k of keys) out.push(...(await readRatings(store, { runId: String(k.run_id), set: String(k.set_name), otherRunId: String(k.other_run_id) })))
  return out
}

/**
 * One JSON object per rating, as the agreement API reads them (`parseRatings`, format jsonl): a direct
 * rating `{ item, rater, dimension, score }` (a number, or the label `pass`/`fail`), a pairwise one
 * `{ item, rater, a, b, winner }` with a and b the two run ids. `run`, `set`, `shownFirst` and `ratedAt`
 * ride along for provenance (the parser ignores keys it does not know).
 */
export function ratingsJsonl(ratings: readonly StoredRating[]): string {
  return ratings
    .map((r) => {
      const tail = { run: r.runId, set: r.set, ...(r.shownFirst !== undefined ? { shownFirst: r.shownFirst } : {}), ratedAt: r.ratedAt }
      if (r.otherRunId !== undefined) return JSON.stringify({ item: r.caseId, rater: r.rater, a: r.runId, b: r.otherRunId, winner: r.choice, ...tail })
      return JSON.stringify({ item: r.caseId, rater: r.rater, dimension: r.dimension, score: r.score ?? r.choice, ...tail })
    })
    .map((line) => `${line}\n`)
    .join('')
}
