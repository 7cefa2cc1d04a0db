/**
 * Byte-level helpers for the TREC readers. trec_eval works on C strings: fields split on `isspace` (C locale),
 * docnos compare with `strcmp` (unsigned bytes), scores go through `atof` and relevance through `atol`. We read
 * UTF-8 bytes and keep docnos as bytes so that every comparison is byte-for-byte what trec_eval does, and so that a
 * 250 MB run never becomes millions of JS strings.
 */

/** C-locale `isspace` minus `\n` (lines are split first): space, \t, \v, \f, \r. */
export function isBlank(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13 && c !== 10)
}

/** `strcmp` on two byte ranges of the same or different buffers: <0, 0, >0. */
export function compareBytes(a: Uint8Array, aStart: number, aEnd: number, b: Uint8Array, bStart: number, bEnd: number): number {
  const la = aEnd - aStart
  const lb = bEnd - bStart
  const n = la < lb ? la : lb
  for (let k = 0; k < n; k += 1) {
    const d = (a[aStart + k] as number) - (b[bStart + k] as number)
    if (d !== 0) return d
  }
  return la - lb
}

/** FNV-1a over a byte range: the docno hash; the run reader computes the same hash inline while it scans a docno. */
export function hashBytes(buf: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5
  for (let k = start; k < end; k += 1) h = Math.imul(h ^ (buf[k] as number), 16777619)
  return h
}

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8')

export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text)
}

/** Decode a byte range as UTF-8; short ASCII (every id we have seen) is built directly, without a native call. */
export function decodeUtf8(buf: Uint8Array, start: number, end: number): string {
  if (end - start <= 32) {
    let s = ''
    for (let k = start; k < end; k += 1) {
      const c = buf[k] as number
      if (c >= 0x80) return decoder.decode(buf.subarray(start, end))
      s += String.fromCharCode(c)
    }
    return s
  }
  return decoder.decode(buf.subarray(start, end))
}

/** Order two strings by their UTF-8 bytes (= `strcmp` on what trec_eval reads; JS `<` compares UTF-16 units). */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0
  const n = Math.min(a.length, b.length)
  for (let k = 0; k < n; k += 1) {
    const ca = a.codePointAt(k) as number
    const cb = b.codePointAt(k) as number
    if (ca !== cb) return ca - cb
    if (ca > 0xffff) k += 1
  }
  return a.length - b.length
}

// Powers of ten that are exact doubles: an integer mantissa below 2^53 divided by one of them is correctly rounded.
export const EXACT_POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

/**
 * C `atof` on a byte range: the longest prefix that strtod accepts (decimal with optional exponent, hex float,
 * inf/infinity/nan), 0 when there is none. Plain decimals with at most 15 significant digits take an exact fast path.
 */
export function atofBytes(buf: Uint8Array, start: number, end: number): number {
  let p = start
  while (p < end && isBlank(buf[p] as number)) p += 1
  scanPlainDecimal(buf, p, end)
  return Number.isNaN(plainDecimal.value) ? atofSlow(decodeUtf8(buf, start, end)) : plainDecimal.value
}

/**
 * Where {@link scanPlainDecimal} leaves the value it read. A reused slot rather than a returned pair: the run reader
 * scans one score per line, and an object per line would cost more than the conversion.
 */
export const plainDecimal = { value: 0 }

/**
 * `atof`'s exact fast path, shared by {@link atofBytes} and the run reader's hot loop: reads `[-+]digits[.digits]`
 * from `buf[p]` and returns the index after it. With 1 to 15 digits the value is `m / 10^k` (both exact doubles, so
 * correctly rounded) and goes to `plainDecimal.value`; NaN there (which no plain decimal gives) when there are no
 * digits, too many, or the text goes on into what this path does not read (an exponent, hex, a second `.`).
 */
export function scanPlainDecimal(buf: Uint8Array, p: number, end: number): number {
  let neg = false
  let c = buf[p]
  if (c === 45 || c === 43) {
    neg = c === 45
    p += 1
  }
  let m = 0
  let digits = 0
  let frac = -1
  for (; p < end; p += 1) {
    c = buf[p] as number
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48)
      digits += 1
      if (frac >= 0) frac += 1
    } else if (c === 46 && frac < 0) {
      frac = 0
    } else {
      break
    }
  }
  if (digits === 0 || digits > 15 || (p < end && isNumberTail(buf[p] as number))) {
    plainDecimal.value = Number.NaN
  } else {
    const v = frac > 0 ? m / (EXACT_POW10[frac] as number) : m
    plainDecimal.value = neg ? -v : v
  }
  return p
}

/** Characters after a plain decimal that could extend it into something the fast path does not handle. */
function isNumberTail(c: number): boolean {
  return c === 101 || c === 69 || c === 120 || c === 88 || (c >= 48 && c <= 57) || c === 46
}

const DECIMAL_PREFIX = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/
const HEX_PREFIX = /^([+-]?)0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+))(?:[pP]([+-]?\d+))?/
const SPECIAL_PREFIX = /^([+-]?)(inf(?:inity)?|nan(?:\([0-9A-Za-z_]*\))?)/i

/** The general `atof`, for what the fast path declines (exponents, long mantissas, hex, inf/nan, junk). */
export function atofSlow(text: string): number {
  const s = text.replace(/^[ \t\n\v\f\r]+/, '')
  const hex = HEX_PREFIX.exec(s)
  if (hex) {
    const [, sign, body = '', exp] = hex
    const dot = body.indexOf('.')
    const intPart = dot < 0 ? body : body.slice(0, dot)
    const fracPart = dot < 0 ? '' : body.slice(dot + 1)
    let v = 0
    for (const ch of intPart + fracPart) v = v * 16 + Number.parseInt(ch, 16)
    v *= 2 ** ((exp === undefined ? 0 : Number(exp)) - 4 * fracPart.length)
    return sign === '-' ? -v : v
  }
  const special = SPECIAL_PREFIX.exec(s)
  if (special) {
    const v = (special[2] as string).toLowerCase().startsWith('inf') ? Infinity : NaN
    return special[1] === '-' ? -v : v
  }
  const dec = DECIMAL_PREFIX.exec(s)
  return dec ? Number(dec[0]) : 0
}

/** C `atol` on a byte range: optional blanks and sign, then digits; 0 when there are none. */
export function atolBytes(buf: Uint8Array, start: number, end: number): number {
  let p = start
  while (p < end && isBlank(buf[p] as number)) p += 1
  let neg = false
  const c = buf[p]
  if (c === 45 || c === 43) {
    neg = c === 45
    p += 1
  }
  let v = 0
  for (; p < end; p += 1) {
    const d = (buf[p] as number) - 48
    if (d < 0 || d > 9) break
    v = v * 10 + d
  }
  return neg ? -v : v
}

/** `atol` on a JS string (command-line parameters). */
export function atol(text: string): number {
  const bytes = encodeUtf8(text)
  return atolBytes(bytes, 0, bytes.length)
}

/** `atof` on a JS string (command-line parameters). */
export function atof(text: string): number {
  return atofSlow(text)
}
