/**
 * Thrown for bad arguments. The message follows one grammar everywhere:
 * ``ndcgAtK: Expected `k` to be a positive integer, got `0` (number)``.
 */
export class MetricInputError extends Error {
  override readonly name = 'MetricInputError'
  constructor(
    readonly fn: string,
    readonly argument: string,
    readonly expected: string,
    readonly received: unknown,
  ) {
    super(`${fn}: Expected \`${argument}\` to be ${expected}, got ${describeValue(received)}`)
  }
}

/**
 * Stands for the missing element of a sparse array (`['a', , 'b']`) where a received value is shown:
 * {@link describeValue} renders it as `a hole (an empty slot in a sparse array)`. See src/dense-array.ts.
 */
export const HOLE: unique symbol = Symbol('rag-matchers.hole')

/** A short, bounded rendering of a value and its type for error messages. */
export function describeValue(value: unknown): string {
  if (value === HOLE) return 'a hole (an empty slot in a sparse array)'
  if (value === null) return '`null`'
  if (value === undefined) return '`undefined`'
  if (Array.isArray(value)) return `\`${truncate(safeJson(value))}\` (array)`
  if (typeof value === 'string') return `\`${truncate(JSON.stringify(value))}\` (string)`
  if (typeof value === 'object') return `\`${truncate(safeJson(value))}\` (${constructorName(value)})`
  return `\`${String(value)}\` (${typeof value})`
}

/** The constructor's name (`Map`, `Object`), or `object`; never throws (a Proxy or a getter may). */
function constructorName(value: object): string {
  try {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name
    return typeof name === 'string' && name !== '' ? name : 'object'
  } catch {
    return 'object'
  }
}

function safeJson(value: unknown): string {
  try {
    // A bigint would make JSON.stringify throw; show it as written.
    return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ?? safeString(value)
  } catch {
    return safeString(value)
  }
}

/** String(value), which throws for a null-prototype object or a throwing toString; a message must never throw. */
function safeString(value: unknown): string {
  try {
    return String(value)
  } catch {
    return Object.prototype.toString.call(value)
  }
}

function truncate(text: string, max = 80): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

export function assertPositiveInteger(fn: string, argument: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new MetricInputError(fn, argument, 'a positive integer', value)
  }
}

export function assertFiniteNumber(fn: string, argument: string, value: unknown): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new MetricInputError(fn, argument, 'a finite number', value)
  }
}

export function assertString(fn: string, argument: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new MetricInputError(fn, argument, 'a string', value)
}
