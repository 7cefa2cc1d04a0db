import { MetricInputError } from '../errors.js'
import type { Id, RetrievedItem } from '../retrieval/types.js'

/** One adapted result: the id the ground truth uses, the framework's score when it gave one, and the text for messages. */
export type AdaptedItem = Exclude<RetrievedItem, Id>

/** Where an adapter reads a result's id: a metadata key, or a function of the result and its position. */
export type IdSource<T> = string | ((result: T, index: number) => Id)

export const ID_EXPECTED = 'a metadata key (a non-empty string) or a function `(result, index) => id`'

function isUsableId(value: unknown): value is Id {
  return (typeof value === 'string' && value.length > 0) || (typeof value === 'number' && Number.isFinite(value))
}

/** Checks `options.id` once, before any result is read. */
export function checkIdSource(fn: string, id: unknown): void {
  if (typeof id === 'function') return
  if (typeof id !== 'string' || id.length === 0) throw new MetricInputError(fn, 'options.id', ID_EXPECTED, id)
}

/**
 * The id of the result at `where` (e.g. `docs[3]`): `metadata[key]`, or what the function returns. A missing id
 * (absent, null, empty string, not a string or finite number) is refused, naming the position and the key.
 */
export function readId<T>(fn: string, source: IdSource<T>, result: T, metadata: unknown, where: string, index: number): Id {
  if (typeof source === 'function') {
    const id = source(result, index)
    if (!isUsableId(id)) throw new MetricInputError(fn, `options.id(${where})`, 'to return an id (a non-empty string or a finite number)', id)
    return id
  }
  const value = metadata !== null && typeof metadata === 'object' ? (metadata as Record<string, unknown>)[source] : undefined
  if (!isUsableId(value)) {
    throw new MetricInputError(fn, `${where}.metadata[${JSON.stringify(source)}]`, `an id (a non-empty string or a finite number); options.id names this metadata key`, value)
  }
  return value
}

/** A score the framework gave: a finite number, or absent (`undefined`). */
export function readScore(fn: string, value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new MetricInputError(fn, where, 'a finite number (the similarity score)', value)
  return value
}
