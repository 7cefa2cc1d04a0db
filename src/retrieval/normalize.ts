import { HOLE, MetricInputError } from '../errors.js'
import { firstHole } from '../dense-array.js'
import { rankRetrieved, readOrder } from './order.js'
import type { DuplicatePolicy, Id, Relevance, RetrievalCase, RetrievalOrder, RetrievedItem } from './types.js'

/** A ranking reduced to what the kernels need: string ids in rank order and a grade per judged id. */
export interface NormalizedCase {
  /** Ranked ids after the duplicate policy is applied. */
  readonly ids: readonly string[]
  /** Grade per judged id (binary relevance gives grade 1). */
  readonly grades: ReadonlyMap<string, number>
  /** Number of ids with grade > 0. */
  readonly relevantCount: number
  /** Duplicate ids found in the input (first-occurrence policy drops them). */
  readonly duplicateIds: readonly string[]
  readonly duplicates: DuplicatePolicy
  /** How `retrieved` was ranked (see {@link RetrievalOrder}). */
  readonly order: RetrievalOrder
  /** Ranked as given although some finite score is higher than the one ranked before it. */
  readonly scoresOutOfOrder: boolean
}

function isId(value: unknown): value is Id {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
}

function itemId(fn: string, item: RetrievedItem, index: number): string {
  if (isId(item)) return String(item)
  if (item !== null && typeof item === 'object' && isId((item as { id?: unknown }).id)) return String(item.id)
  throw new MetricInputError(fn, `retrieved[${index}]`, 'an id (string or number) or an object with an `id`', item)
}

/** Grades from any accepted relevance shape. */
export function normalizeRelevance(fn: string, relevant: Relevance | undefined): Map<string, number> {
  const grades = new Map<string, number>()
  if (relevant === undefined || relevant === null) {
    throw new MetricInputError(fn, 'relevant', 'an iterable of ids or a record/map of id → grade', relevant)
  }
  if (typeof relevant === 'string') {
    throw new MetricInputError(fn, 'relevant', 'an iterable of ids or a record/map of id → grade, not a single string', relevant)
  }
  if (relevant instanceof Map) {
    for (const [id, grade] of relevant) setGrade(fn, grades, id, grade)
    return grades
  }
  if (typeof (relevant as Iterable<Id>)[Symbol.iterator] === 'function') {
    // for…of yields `undefined` for a hole: name it as a hole, as `retrieved` does.
    const hole = Array.isArray(relevant) ? firstHole(relevant) : -1
    if (hole >= 0) throw new MetricInputError(fn, `relevant[${hole}]`, 'an id (string or number)', HOLE)
    let index = 0
    for (const id of relevant as Iterable<unknown>) {
      if (!isId(id)) throw new MetricInputError(fn, `relevant[${index}]`, 'an id (string or number)', id)
      grades.set(String(id), 1)
      index += 1
    }
    return grades
  }
  if (typeof relevant === 'object') {
    for (const [id, grade] of Object.entries(relevant as Record<string, unknown>)) setGrade(fn, grades, id, grade)
    return grades
  }
  throw new MetricInputError(fn, 'relevant', 'an iterable of ids or a record/map of id → grade', relevant)
}

function setGrade(fn: string, grades: Map<string, number>, id: unknown, grade: unknown): void {
  if (!isId(id)) throw new MetricInputError(fn, 'relevant', 'ids that are strings or numbers', id)
  if (typeof grade !== 'number' || !Number.isFinite(grade)) {
    throw new MetricInputError(fn, `relevant[${JSON.stringify(String(id))}]`, 'a finite grade', grade)
  }
  grades.set(String(id), grade)
}

export function normalizeCase(fn: string, input: RetrievalCase, duplicates: DuplicatePolicy = 'first', order?: RetrievalOrder): NormalizedCase {
  if (input === null || typeof input !== 'object') {
    throw new MetricInputError(fn, 'input', 'a case `{ retrieved, relevant }`', input)
  }
  if (!Array.isArray(input.retrieved)) {
    throw new MetricInputError(fn, 'retrieved', 'an array of ids or `{ id }` objects', input.retrieved)
  }
  const hole = firstHole(input.retrieved)
  if (hole >= 0) throw new MetricInputError(fn, `retrieved[${hole}]`, 'an id (string or number) or an object with an `id`', HOLE)
  if (duplicates !== 'first' && duplicates !== 'literal' && duplicates !== 'error') {
    throw new MetricInputError(fn, 'duplicates', "one of 'first', 'literal', 'error'", duplicates)
  }
  const grades = normalizeRelevance(fn, input.relevant)
  const rankOrder = readOrder(fn, order)
  const ranked = rankRetrieved(
    fn,
    input.retrieved,
    input.retrieved.map((item, index) => itemId(fn, item, index)),
    rankOrder,
  )
  const seen = new Set<string>()
  const duplicateIds: string[] = []
  const ids: string[] = []
  ranked.items.forEach((item, index) => {
    const id = itemId(fn, item, index)
    if (seen.has(id)) {
      duplicateIds.push(id)
      if (duplicates === 'error') {
        throw new MetricInputError(fn, 'retrieved', `ids without duplicates (duplicates: 'error'); "${id}" appears again at rank ${index + 1}`, id)
      }
      if (duplicates === 'first') return
    }
    seen.add(id)
    ids.push(id)
  })
  let relevantCount = 0
  for (const grade of grades.values()) if (grade > 0) relevantCount += 1
  return { ids, grades, relevantCount, duplicateIds, duplicates, order: rankOrder, scoresOutOfOrder: ranked.scoresOutOfOrder }
}
