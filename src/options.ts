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
 * A plain object: an object literal or `Object.create(null)`: its prototype is `Object.prototype` (of
 * this realm or another one, e.g. a Jest sandbox) or `null`. A Map, a class instance, an array, a
 * function or an object whose prototype is another object (`{ __proto__: { tokenize: 'char' } }`) is not.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value) as object | null
  if (proto === null || proto === Object.prototype) return true
  // Another realm's Object.prototype: itself without a prototype, with its own `constructor` named Object.
  if (Object.getPrototypeOf(proto) !== null || !Object.prototype.hasOwnProperty.call(proto, 'constructor')) return false
  const ctor = (proto as { constructor?: unknown }).constructor
  return typeof ctor === 'function' && ctor.name === 'Object'
}

/** How a value that is not a plain object is named in a message: `a Map`, `an array`, `a class instance (Foo)`. */
function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value !== 'object') return `a ${typeof value}`
  let proto: unknown
  try {
    proto = Object.getPrototypeOf(value)
  } catch {
    return 'an exotic object'
  }
  let name: unknown
  try {
    name = (proto as { constructor?: { name?: unknown } } | null)?.constructor?.name
  } catch {
    name = undefined
  }
  if (typeof name === 'string' && name !== '' && name !== 'Object') return `a ${name}`
  return 'an object that inherits from another object (its keys would be read from its prototype)'
}

/** What is wrong with an options object: the sentence for a Matcher error, and the `Expected … to be` phrase for a MetricInputError. */
export interface OptionsProblem {
  /** `options must be a plain object (an object literal), not a Map` */
  readonly problem: string
  /** `a plain object (an object literal), not a Map` */
  readonly expected: string
}

/**
 * What is wrong with an options object, or `undefined` when it is fine. Options are plain objects whose
 * keys are own, enumerable strings: anything else is a mistake that would be ignored or half-checked
 * (a Map's entries are not keys, an inherited or non-enumerable key is skipped by the key check but
 * read by the function, a symbol key is never read). `undefined` options are fine.
 *
 * @example optionsProblem(new Map([['duplicates', 'error']]))?.problem // 'options must be a plain object (an object literal), not a Map'
 */
export function optionsProblem(options: unknown, argument = 'options'): OptionsProblem | undefined {
  if (options === undefined) return undefined
  // Not an object at all: the wording every core function has always used (`Expected \`options\` to be an object`).
  if (options === null || typeof options !== 'object' || Array.isArray(options)) return { problem: `${argument} must be an object`, expected: 'an object' }
  if (!isPlainObject(options)) {
    const expected = `a plain object (an object literal), not ${kindOf(options)}`
    return { problem: `${argument} must be ${expected}`, expected }
  }
  // the common case in one step: every own key (symbols included) is an enumerable string key
  if (Reflect.ownKeys(options).length === Object.keys(options).length) return undefined
  const symbol = Object.getOwnPropertySymbols(options)[0]
  if (symbol !== undefined) {
    return { problem: `${argument} has a symbol key ${String(symbol)}; option keys must be strings`, expected: `an object with string keys only, not ${String(symbol)}` }
  }
  for (const key of Object.getOwnPropertyNames(options)) {
    if (!Object.prototype.propertyIsEnumerable.call(options, key)) {
      const why = `'${key}' is not enumerable (defined with Object.defineProperty); option keys must be own enumerable properties`
      return {
        problem: `${argument}.${key} is not enumerable (defined with Object.defineProperty); option keys must be own enumerable properties`,
        expected: `an object with own enumerable keys only (${why})`,
      }
    }
  }
  return undefined
}

/**
 * THE options reader: checks the object's shape ({@link optionsProblem}) and its keys, and returns a
 * snapshot of its own enumerable string keys (each getter read once), so what was checked is what is
 * used. `undefined` gives `{}`.
 *
 * @example readOptions('ndcgAtK', { gain: 'exponential' }, ['gain', 'duplicates']) // { gain: 'exponential' }
 * @throws MetricInputError for a non-plain object, a symbol or non-enumerable key, or a key outside `known`
 */
export function readOptions<T extends object = Record<string, unknown>>(fn: string, options: unknown, known: readonly string[], argument = 'options'): Partial<T> {
  if (options === undefined) return {}
  checkOptionKeys(fn, options, known, argument)
  // each getter read once: the check above reads a value only for its message
  const plain = options as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(plain)) out[key] = plain[key]
  return out as Partial<T>
}

/**
 * Throws {@link MetricInputError} when `options` is not a plain object with own enumerable string keys
 * (`undefined` is fine) or has a key outside `known`; `argument` names it in the message (default
 * `options`). The checks of {@link readOptions}, without its snapshot.
 *
 * @example checkOptionKeys('ndcgAtK', { gian: 'exponential' }, ['gain', 'duplicates'])
 * // MetricInputError: ndcgAtK: Expected `options.gian` to be not set (unknown option 'gian' — did you mean 'gain'?), got …
 */
export function checkOptionKeys(fn: string, options: unknown, known: readonly string[], argument = 'options'): void {
  if (options === undefined) return
  const shape = optionsProblem(options, argument)
  if (shape !== undefined) throw new MetricInputError(fn, argument, shape.expected, options)
  // no snapshot (readOptions adds one): this runs on every call of a metric
  const plain = options as Record<string, unknown>
  for (const key of Object.keys(plain)) {
    if (!known.includes(key)) throw new MetricInputError(fn, `${argument}.${key}`, `not set (${unknownKeyProblem(key, known)})`, plain[key])
  }
}
