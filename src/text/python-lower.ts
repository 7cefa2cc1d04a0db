/**
 * Python 3.11 `str.lower()` (Unicode 14.0) in JavaScript.
 *
 * `String.prototype.toLowerCase()` already does what Python does for full case mapping
 * (`İ` → `i` + U+0307, U+212A KELVIN SIGN → `k`, context-dependent final sigma), but V8's ICU
 * knows a newer Unicode. Comparing every code point between CPython 3.11 (Unicode 14.0) and
 * Node 20 (ICU 78, Unicode 17) leaves exactly the 55 upper-case letters below, added after
 * Unicode 14: Python leaves them unchanged, JS lowercases them. We lowercase the text around them.
 *
 * Splitting there keeps final sigma exact too: in Unicode 14 these code points are unassigned, so
 * they are neither cased nor case-ignorable, which is what a string boundary looks like to the
 * final-sigma rule.
 */
const NEWER_UPPERCASE = /[\u1C89\uA7CB\uA7CC\uA7CE\uA7D2\uA7D4\uA7DA\uA7DC\u{10D50}-\u{10D65}\u{16EA0}-\u{16EB8}]/u
const NEWER_UPPERCASE_SPLIT = new RegExp(`(${NEWER_UPPERCASE.source})`, 'u')

/** Whether `text` is ASCII without capitals, so that {@link pyLower} returns it unchanged. */
export function isLowerAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0x80 || (c >= 0x41 && c <= 0x5a)) return false
  }
  return true
}

/**
 * `str.lower()` as CPython 3.11 computes it.
 *
 * @example
 * pyLower('\u212A') // 'k'
 * pyLower('İ') // 'i\u0307'
 * pyLower('ΟΔΟΣ') // 'οδος' (final sigma)
 */
export function pyLower(text: string): string {
  // lower-case ASCII (most words METEOR and WordNet look up) is its own lower case: no regex test, no copy
  if (isLowerAscii(text)) return text
  if (!NEWER_UPPERCASE.test(text)) return text.toLowerCase()
  // split with a capture group: odd indices are the letters Python leaves as they are
  return text
    .split(NEWER_UPPERCASE_SPLIT)
    .map((part, i) => (i % 2 === 1 ? part : part.toLowerCase()))
    .join('')
}
