/**
 * Option key lists that cannot drift from their TypeScript interface.
 *
 * `keysOf<T>()('a', 'b')` returns the frozen tuple `['a', 'b']` and fails to COMPILE when a listed key is not a
 * key of `T` (a stale name) or when a key of `T` is not listed (a new option someone forgot to add). The
 * lists feed {@link checkOptionKeys} in the core and the matcher layer's checks of the same names.
 *
 * @example
 * export const NDCG_OPTION_KEYS = keysOf<NdcgOptions>()('duplicates', 'gain')
 * checkOptionKeys('ndcgAtK', options, NDCG_OPTION_KEYS)
 * keysOf<NdcgOptions>()('gain') // compile error: … 'missing option keys': "duplicates"
 */

/** Keys of `T` that `K` does not list. */
export type MissingOptionKeys<T, K extends readonly PropertyKey[]> = Exclude<keyof T, K[number]>

/** Nothing when `K` lists every key of `T`; otherwise a property no argument list has, naming what is missing. */
type CompletenessCheck<T, K extends readonly PropertyKey[]> = [MissingOptionKeys<T, K>] extends [never] ? unknown : { readonly 'missing option keys': MissingOptionKeys<T, K> }

/** See the module comment: `keysOf<Options>()(...every key of Options)`. */
export function keysOf<T extends object>() {
  return <const K extends readonly (keyof T & string)[]>(...keys: K & CompletenessCheck<T, K>): K => Object.freeze(keys) as unknown as K
}
