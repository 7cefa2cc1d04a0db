/**
 * Strict option objects: a key a function does not know is a mistake (a typo such as `gian` for
 * `gain` would otherwise run with the default and pass), so it is refused and the nearest known key
 * is suggested. Shared by the core (MetricInputError) and the matcher layer (Matcher error).
 */
import { MetricInputError } from './errors.js'

/** Edit distance (insert, delete, substitute, swap of neighbours), for "did you mean" hints. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1
  const cols = b.length + 1
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min((d[i - 1] as number[])[j]! + 1, (d[i] as number[])[j - 1]! + 1, (d[i - 1] as number[])[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (d[i - 2] as number[])[j - 2]! + 1)
      ;(d[i] as number[])[j] = best
    }
  }
  return (d[a.length] as number[])[b.length] as number
}

/**
 * The known key closest to `key`, when it is close enough to be a likely typo (at most a third of
 * the longer name, at least 1 edit; case differences count as near).
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of known) {
    const distance = candidate.toLowerCase() === key.toLowerCase() ? 0.5 : editDistance(key, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  if (best === undefined) return undefined
  return bestDistance <= Math.max(1, Math.floor(Math.max(key.length, best.length) / 3)) ? best : undefined
}

/** `unknown option 'gian' — did you mean 'gain'?`, or with the known keys listed when none is near. */
export function unknownKeyProblem(key: string, known: readonly string[], what = 'option'): string {
  const near = nearestKey(key, known)
  if (near !== undefined) return `unknown ${what} '${key}' — did you mean '${near}'?`
  return known.length === 0 ? `unknown ${what} '${key}' (this takes no options)` : `unknown ${what} '${key}'; known: ${known.map((k) => `'${k}'`).join(', ')}`
}

/** The first own enumerable key of `options` that is not in `known`, if any. */
export function firstUnknownKey(options: object, known: readonly string[]): string | undefined {
  for (const key of Object.keys(options)) if (!known.includes(key)) return key
  return undefined
}

/**
 * Throws {@link MetricInputError} when `options` is not a plain object (`undefined` is fine) or has
 * a key outside `known`; `argument` names it in the message (default `options`).
 *
 * @example checkOptionKeys('ndcgAtK', { gian: 'exponential' }, ['gain', 'duplicates'])
 * // MetricInputError: ndcgAtK: Expected `options.gian` to be not set (unknown option 'gian' — did you mean 'gain'?), got …
 */
export function checkOptionKeys(fn: string, options: unknown, known: readonly string[], argument = 'options'): void {
  if (options === undefined) return
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new MetricInputError(fn, argument, 'an object', options)
  }
  const key = firstUnknownKey(options, known)
  if (key !== undefined) {
    throw new MetricInputError(fn, `${argument}.${key}`, `not set (${unknownKeyProblem(key, known)})`, (options as Record<string, unknown>)[key])
  }
}
