/**
 * The binary columns of the history store: per-case values of a metric row as little-endian float64
 * (8 bytes a case, so a query can cut one case out with `substr(col, 8 * i + 1, 8)` on SQLite and
 * PostgreSQL alike), per-case pass flags as one byte a case, and JSON that is only ever read whole,
 * deflated with node:zlib.
 */
import { deflateSync, inflateSync } from 'node:zlib'

/** Pass flag bytes: the case failed, passed, or its entry had no `pass`. */
export const PASS_FALSE = 0
export const PASS_TRUE = 1
export const PASS_ABSENT = 2

/** A driver's BLOB value (a Buffer from better-sqlite3 and pg, a Uint8Array from node:sqlite) as a Uint8Array; undefined when it is none. */
export function asBytes(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array ? value : undefined
}

/**
 * A value as the report's JSON has it: a finite number, else null (JSON writes NaN and ±Infinity as
 * null), and 0 for -0 (JSON writes `0`), so a report and its JSON round trip pack to the same bytes.
 */
export function jsonNumber(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null
  return value === 0 ? 0 : value
}

/** `values` as little-endian float64s; null is stored as NaN (a JSON report has no NaN of its own). */
export function packFloat64(values: ArrayLike<number | null>): Uint8Array {
  const bytes = new Uint8Array(values.length * 8)
  const view = new DataView(bytes.buffer)
  for (let i = 0; i < values.length; i++) view.setFloat64(i * 8, values[i] ?? Number.NaN, true)
  return bytes
}

/** The i-th float64 of `bytes`, NaN read back as null. */
export function float64At(bytes: Uint8Array, i: number): number | null {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getFloat64(i * 8, true)
  return Number.isNaN(v) ? null : v
}

/** Every float64 of `bytes` (NaN as null). */
export function unpackFloat64(bytes: Uint8Array): Array<number | null> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Array<number | null>(bytes.byteLength >>> 3)
  for (let i = 0; i < out.length; i++) {
    const v = view.getFloat64(i * 8, true)
    out[i] = Number.isNaN(v) ? null : v
  }
  return out
}

/** Pass flags as bytes: true → 1, false → 0, absent → 2. */
export function passByte(pass: boolean | undefined): number {
  return pass === undefined ? PASS_ABSENT : pass ? PASS_TRUE : PASS_FALSE
}

export function passOf(byte: number | undefined): boolean | undefined {
  return byte === PASS_TRUE ? true : byte === PASS_FALSE ? false : undefined
}

/** JSON text deflated: for columns read whole (the report's skeleton, a row's case ids when they are not the set's). */
export function deflateJson(text: string): Uint8Array {
  return deflateSync(text)
}

export function inflateText(bytes: Uint8Array): string {
  return inflateSync(bytes).toString('utf8')
}

export function inflateJson<T = unknown>(bytes: Uint8Array): T {
  return JSON.parse(inflateText(bytes)) as T
}
