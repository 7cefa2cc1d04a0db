import { closeSync, openSync, writeSync } from 'node:fs'

/** Pieces are gathered to about this many characters before each write. */
const FLUSH_AT = 1 << 20
/** Containers this deep or shallower are written piece by piece; deeper ones in one JSON.stringify call. */
const SPLIT_DEPTH = 4

/**
 * Writes `JSON.stringify(value, null, 2)` plus a newline to `path`, without building that string.
 *
 * A report of 100,000 cases is larger than the longest string V8 can hold (2^29 − 24 characters in Node
 * 20), so one `JSON.stringify` throws `RangeError: Invalid string length` there. The file written here
 * is byte-identical to the one-string form for plain JSON data (objects, arrays, strings, numbers,
 * booleans, null; `undefined` and functions dropped as JSON.stringify drops them), tested against it.
 */
export function writeJsonFile(path: string, value: unknown): void {
  const fd = openSync(path, 'w')
  try {
    let buffer = ''
    for (const piece of pieces(value, '', 0)) {
      buffer += piece
      if (buffer.length >= FLUSH_AT) {
        writeSync(fd, buffer)
        buffer = ''
      }
    }
    writeSync(fd, `${buffer}\n`)
  } finally {
    closeSync(fd)
  }
}

/** What JSON.stringify leaves out of an object and writes as null in an array. */
function isOmitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol'
}

function isSplittable(v: unknown): v is object {
  return v !== null && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function'
}

/** One value at nesting `indent`, as JSON.stringify(…, null, 2) prints it there. */
function leaf(v: unknown, indent: string): string {
  const text = JSON.stringify(v, null, 2) ?? 'null'
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`)
}

function* pieces(value: unknown, indent: string, depth: number): Generator<string> {
  if (!isSplittable(value) || depth > SPLIT_DEPTH) {
    yield leaf(value, indent)
    return
  }
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) {
      yield '[]'
      return
    }
    yield '[\n'
    for (let i = 0; i < value.length; i++) {
      yield inner
      const v: unknown = value[i]
      yield* pieces(isOmitted(v) ? null : v, inner, depth + 1)
      yield i < value.length - 1 ? ',\n' : '\n'
    }
    yield `${indent}]`
    return
  }
  const entries = Object.entries(value).filter(([, v]) => !isOmitted(v))
  if (entries.length === 0) {
    yield '{}'
    return
  }
  yield '{\n'
  for (let i = 0; i < entries.length; i++) {
    const [key, v] = entries[i] as [string, unknown]
    yield `${inner}${JSON.stringify(key)}: `
    yield* pieces(v, inner, depth + 1)
    yield i < entries.length - 1 ? ',\n' : '\n'
  }
  yield `${indent}}`
}
