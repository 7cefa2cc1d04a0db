import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { readOptions } from '../options.js'
import { denseArray } from '../dense-array.js'
import type { Id } from './types.js'

export interface SubstringOptions {
  /** @default false */
  readonly caseSensitive?: boolean
}

/** The keys of {@link SubstringOptions}: what relevantBySubstring accepts. */
export const SUBSTRING_OPTION_KEYS = keysOf<SubstringOptions>()('caseSensitive')

/**
 * Ground truth from a keyword: the ids of the chunks whose text contains `keyword`.
 * Case-insensitive by default (both sides lower-cased with `toLowerCase`). Ids keep their type.
 *
 * @example relevantBySubstring([{ id: 'c1', text: 'h = 8 heads' }, { id: 'c2', text: 'BLEU' }], 'H = 8') // Set { 'c1' }
 */
export function relevantBySubstring(chunks: ReadonlyArray<{ readonly id: Id; readonly text: string }>, keyword: string, options: SubstringOptions = {}): Set<Id> {
  if (!Array.isArray(chunks)) throw new MetricInputError('relevantBySubstring', 'chunks', 'an array of `{ id, text }`', chunks)
  if (typeof keyword !== 'string' || keyword.length === 0) {
    throw new MetricInputError('relevantBySubstring', 'keyword', 'a non-empty string', keyword)
  }
  const caseSensitive = readOptions<SubstringOptions>('relevantBySubstring', options, SUBSTRING_OPTION_KEYS).caseSensitive ?? false
  const needle = caseSensitive ? keyword : keyword.toLowerCase()
  const out = new Set<Id>()
  denseArray('relevantBySubstring', 'chunks', chunks, 'an object `{ id, text }` with a string text').forEach((chunk, i) => {
    if (chunk === null || typeof chunk !== 'object' || typeof chunk.text !== 'string') {
      throw new MetricInputError('relevantBySubstring', `chunks[${i}]`, 'an object `{ id, text }` with a string text', chunk)
    }
    const text = caseSensitive ? chunk.text : chunk.text.toLowerCase()
    if (text.includes(needle)) out.add(chunk.id)
  })
  return out
}
