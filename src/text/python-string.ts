/**
 * Python `str` semantics that the references depend on and JavaScript does not share.
 *
 * Python whitespace (`str.split()` / `str.isspace()`) is U+0009–000D, U+001C–001F, U+0020, U+0085,
 * U+00A0, U+1680, U+2000–200A, U+2028, U+2029, U+202F, U+205F, U+3000. JS `\s` differs: it also
 * matches U+FEFF and misses U+001C–001F and U+0085. We therefore never use `\s` where parity matters.
 */
const PY_WS = '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'

export const PY_WHITESPACE_CLASS = `[${PY_WS}]`
const WS_RUN = new RegExp(`[${PY_WS}]+`, 'u')
const WS_ONE = new RegExp(`^[${PY_WS}]$`, 'u')
const TRAILING_WS = new RegExp(`[${PY_WS}]+$`, 'u')
const LEADING_WS = new RegExp(`^[${PY_WS}]+`, 'u')

/** `str.isspace()` for a single code point. */
export function pyIsSpace(ch: string): boolean {
  return WS_ONE.test(ch)
}

/** `str.split()` with no argument: split on runs of Python whitespace, dropping empty strings. */
export function pySplit(text: string): string[] {
  if (text.length === 0) return []
  const parts = text.split(WS_RUN)
  // split() leaves '' at either end when the text starts or ends with whitespace
  let start = 0
  let end = parts.length
  if (parts[0] === '') start = 1
  if (end > start && parts[end - 1] === '') end -= 1
  return start === 0 && end === parts.length ? parts : parts.slice(start, end)
}

/** `str.rstrip()` with no argument. */
export function pyRstrip(text: string): string {
  return text.replace(TRAILING_WS, '')
}

/** `str.strip()` with no argument. */
export function pyStrip(text: string): string {
  return text.replace(LEADING_WS, '').replace(TRAILING_WS, '')
}

/** The string as an array of code points (Python indexes code points, JS indexes UTF-16 units). */
export function codePoints(text: string): string[] {
  return Array.from(text)
}

/**
 * `str.isspace()` for one code point given as a number (the loops that walk char codes use this
 * instead of a regex test). Same set as {@link PY_WHITESPACE_CLASS}.
 */
export function pyIsSpaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f)
  if (code < 0x85) return false
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  )
}
