/**
 * Holes in user arrays. `['a', , 'b']` has no element at index 1, and the array methods disagree on it:
 * `forEach`, `map`, `filter`, `reduce`, `some` and `Object.keys` skip it (so ranks shift up and a mean
 * divides by a length that counted it), while `for…of`, spread and `Array.from` yield `undefined`. A hole
 * is refused like `undefined`, naming its position, in ONE place: every reader of a user array calls
 * {@link firstHole} (or {@link denseArray}) before any array method touches it.
 *
 * @example
 * firstHole(['a', , 'b']) // 1
 * denseArray('recallAtK', 'retrieved', ['a', , 'b'])
 * // MetricInputError: recallAtK: Expected `retrieved[1]` to be an element, got a hole (an empty slot in a sparse array)
 */
import { HOLE, MetricInputError } from './errors.js'

export { HOLE }

/** How messages name a hole: `retrieved[1] is a hole (an empty slot in a sparse array)`. */
export const HOLE_TEXT = 'a hole (an empty slot in a sparse array)'

/** The index of the first hole in `array` (checked with `i in array` for every index), or -1. */
export function firstHole(array: ArrayLike<unknown>): number {
  for (let i = 0; i < array.length; i += 1) if (!(i in array)) return i
  return -1
}

/** `retrieved[1] is a hole (an empty slot in a sparse array)`: the sentence a matcher error uses. */
export function holeProblem(where: string, index: number): string {
  return `${where}[${index}] is ${HOLE_TEXT}`
}

/**
 * `array` copied without holes, or a {@link MetricInputError} naming the first hole:
 * ``fn: Expected `argument[i]` to be <expected>, got a hole (an empty slot in a sparse array)``.
 * A non-array is returned as it is (the caller's own type check decides).
 */
export function denseArray<T>(fn: string, argument: string, array: readonly T[], expected = 'an element'): T[] {
  const hole = firstHole(array)
  if (hole >= 0) throw new MetricInputError(fn, `${argument}[${hole}]`, expected, HOLE)
  return Array.from(array)
}

/**
 * The same check for callers with their own error (a Matcher error): `onHole(index)` must throw.
 *
 * @example denseOr(cases, (i) => matcherError(ctx, name, args, holeProblem('received', i)))
 */
export function denseOr<T>(array: readonly T[], onHole: (index: number) => never): T[] {
  const hole = firstHole(array)
  if (hole >= 0) onHole(hole)
  return Array.from(array)
}
