/**
 * JSON as Python's `json.dumps(value, indent=N, ensure_ascii=False)` writes it, for the sacrebleu 2.x output
 * shapes: floats are written with Python's `repr` (`65.0`, `9.999000099990002e-05`), where `JSON.stringify` writes
 * `65` and `0.00009999000099990002`. Everything else (strings, nesting, `", "`/`": "` separators) is the same.
 */

/** A value to write: numbers are Python floats. */
export type PyJson = string | number | boolean | null | readonly PyJson[] | { readonly [key: string]: PyJson }

/**
 * Python's `repr(float)`: the shortest round-trip digits (as JavaScript's), fixed notation for exponents -4 to 15
 * and always a fractional part there, scientific (`1e-05`, `1.5e+16`) outside.
 *
 * @example
 * pyFloatRepr(65) // → '65.0'
 * pyFloatRepr(9.999000099990002e-5) // → '9.999000099990002e-05'
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN'
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity'
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  const [mantissa = '', exp = '0'] = x.toExponential().split('e')
  const sign = mantissa.startsWith('-') ? '-' : ''
  const digits = mantissa.replace('-', '').replace('.', '')
  const e = Number(exp)
  if (e < -4 || e >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits
    return `${sign}${m}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`
  const intPart = digits.slice(0, e + 1).padEnd(e + 1, '0')
  const frac = digits.slice(e + 1)
  return `${sign}${intPart}.${frac === '' ? '0' : frac}`
}

/**
 * `json.dumps(value, indent=indent, ensure_ascii=False)`.
 *
 * @example
 * pyJsonDumps({ name: 'BLEU', score: 20 }, 1) // → '{\n "name": "BLEU",\n "score": 20.0\n}'
 */
export function pyJsonDumps(value: PyJson, indent: number, level = 0): string {
  if (value === null) return 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return pyFloatRepr(value)
  if (typeof value === 'string') return JSON.stringify(value)
  const inner = `\n${' '.repeat(indent * (level + 1))}`
  const outer = `\n${' '.repeat(indent * level)}`
  if (Array.isArray(value)) {
    const list = value as readonly PyJson[]
    if (list.length === 0) return '[]'
    return `[${list.map((v) => inner + pyJsonDumps(v, indent, level + 1)).join(',')}${outer}]`
  }
  const entries = Object.entries(value as { readonly [key: string]: PyJson })
  if (entries.length === 0) return '{}'
  return `{${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pyJsonDumps(v, indent, level + 1)}`).join(',')}${outer}}`
}
