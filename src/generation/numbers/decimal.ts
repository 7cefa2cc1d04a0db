/**
 * Exact decimals for number comparison: value = (negative ? -1 : 1) × digits × 10^scale.
 * Parsing "28.40" into a double and comparing doubles would be fine for equality, but percent ↔
 * fraction (92.4 % = 0.924) and rounding (28.43 → 28.4) need exact base-10 arithmetic: in doubles
 * 92.4 / 100 is 0.9240000000000001.
 */
export interface Decimal {
  readonly negative: boolean
  readonly digits: bigint
  /** Power of ten of the last digit as WRITTEN: "28.40" → -2, "1.5 million" → 5. Never normalised. */
  readonly scale: number
}

/** Parse an unsigned digit string with an optional fraction (`"1000"`, `"28.40"`, `"5"` + `""`). */
export function decimalFrom(intPart: string, fracPart: string, negative: boolean): Decimal {
  const digits = BigInt(`${intPart === '' ? '0' : intPart}${fracPart}`)
  return { negative, digits, scale: fracPart.length === 0 ? 0 : -fracPart.length }
}

export function decimalFromBigInt(value: bigint): Decimal {
  return value < 0n ? { negative: true, digits: -value, scale: 0 } : { negative: false, digits: value, scale: 0 }
}

export function shift(d: Decimal, exponent: number): Decimal {
  return { ...d, scale: d.scale + exponent }
}

export function negate(d: Decimal): Decimal {
  return { ...d, negative: !d.negative }
}

/** Strip trailing zeros so equal values have equal (digits, scale); zero is positive. */
export function normalize(d: Decimal): Decimal {
  if (d.digits === 0n) return { negative: false, digits: 0n, scale: 0 }
  let digits = d.digits
  let scale = d.scale
  while (digits % 10n === 0n) {
    digits /= 10n
    scale += 1
  }
  return { negative: d.negative, digits, scale }
}

export function decimalEquals(a: Decimal, b: Decimal): boolean {
  const x = normalize(a)
  const y = normalize(b)
  return x.negative === y.negative && x.digits === y.digits && x.scale === y.scale
}

/** Round half away from zero to a multiple of 10^exponent (no-op when already that coarse). */
export function roundTo(d: Decimal, exponent: number): Decimal {
  if (d.scale >= exponent) return d
  const drop = BigInt(d.scale - exponent) * -1n
  const factor = 10n ** drop
  const quotient = d.digits / factor
  const remainder = d.digits % factor
  const rounded = remainder * 2n >= factor ? quotient + 1n : quotient
  return { negative: d.negative, digits: rounded, scale: exponent }
}

/** Plain decimal text without exponent: `-0.001`, `28.4`, `1500000`. */
export function toCanonical(d: Decimal): string {
  // String work rather than BigInt division: this runs for every mention.
  const raw = d.digits.toString()
  const trimmed = raw.replace(/0+$/, '')
  if (trimmed === '') return '0'
  const scale = d.scale + (raw.length - trimmed.length)
  const sign = d.negative ? '-' : ''
  if (scale >= 0) return sign + trimmed + '0'.repeat(scale)
  const point = trimmed.length + scale
  if (point > 0) return `${sign}${trimmed.slice(0, point)}.${trimmed.slice(point)}`
  return `${sign}0.${'0'.repeat(-point)}${trimmed}`
}

export function toNumber(d: Decimal): number {
  return Number(toCanonical(d))
}
