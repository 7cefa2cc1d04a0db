/**
 * The two means sacrebleu's confidence intervals use, reproduced exactly:
 * - `Score.estimate_ci` (corpus bootstrap) takes Python's `statistics.mean`, which sums exactly as
 *   fractions and rounds once; a plain left-to-right sum would differ in the last bits;
 * - `significance.estimate_ci` (paired tests) takes `np.mean`, numpy's pairwise summation divided
 *   by n, ported loop for loop so the rounding errors are numpy's.
 */

const SCRATCH = new DataView(new ArrayBuffer(8))

/** A finite double as `sign · mantissa · 2^exponent` with an integer mantissa. */
function decompose(x: number): { mantissa: bigint; exponent: number } {
  SCRATCH.setFloat64(0, x)
  const hi = SCRATCH.getUint32(0)
  const lo = SCRATCH.getUint32(4)
  const biased = (hi >>> 20) & 0x7ff
  let mantissa = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  let exponent: number
  if (biased === 0) {
    exponent = -1074
  } else {
    mantissa |= 1n << 52n
    exponent = biased - 1075
  }
  return { mantissa: hi >>> 31 ? -mantissa : mantissa, exponent }
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length
}

/** The double nearest to `num / den · 2^exp2` (ties to even), `den > 0`: one rounding, as Python's int true division. */
export function roundRatio(num: bigint, den: bigint, exp2: number): number {
  if (num === 0n) return 0
  const negative = num < 0n
  const n = negative ? -num : num
  // scale so that the quotient carries at least 55 bits: two guard bits beyond the 53 kept
  const shift = 55 - (bitLength(n) - bitLength(den))
  const scaledN = shift > 0 ? n << BigInt(shift) : n
  const scaledD = shift < 0 ? den << BigInt(-shift) : den
  let q = scaledN / scaledD
  const sticky = scaledN % scaledD !== 0n
  let e = exp2 - shift
  const bits = bitLength(q)
  // the leading bit's exponent decides how many bits fit (fewer for subnormals)
  const top = e + bits - 1
  const keep = top >= -1022 ? 53 : Math.max(0, 53 - (-1022 - top))
  const drop = bits - keep
  if (drop > 0) {
    const dropped = q & ((1n << BigInt(drop)) - 1n)
    const half = 1n << BigInt(drop - 1)
    q >>= BigInt(drop)
    if (dropped > half || (dropped === half && (sticky || (q & 1n) === 1n))) q += 1n
    e += drop
  }
  // q ≤ 2^53 is exact as a Number; scale by powers of two in steps that cannot overflow early
  let value = Number(q)
  while (e > 0) {
    const step = Math.min(e, 1000)
    value *= 2 ** step
    e -= step
  }
  while (e < 0) {
    const step = Math.max(e, -1000)
    value *= 2 ** step
    e -= step
  }
  return negative ? -value : value
}

/**
 * Python's `statistics.mean(values)` for finite doubles: the exact rational mean, correctly rounded.
 * @throws RangeError for an empty array or a non-finite value (callers validate first)
 */
export function exactMean(values: ArrayLike<number>): number {
  if (values.length === 0) throw new RangeError('mean of no values')
  const parts: Array<{ mantissa: bigint; exponent: number }> = []
  let minExponent = Number.POSITIVE_INFINITY
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!
    if (!Number.isFinite(x)) throw new RangeError('mean of a non-finite value')
    const part = decompose(x)
    parts.push(part)
    if (part.mantissa !== 0n && part.exponent < minExponent) minExponent = part.exponent
  }
  if (minExponent === Number.POSITIVE_INFINITY) return 0
  let sum = 0n
  for (const { mantissa, exponent } of parts) if (mantissa !== 0n) sum += mantissa << BigInt(exponent - minExponent)
  return roundRatio(sum, BigInt(values.length), minExponent)
}

/** numpy's block size below which a pairwise sum is an 8-way unrolled loop (`PW_BLOCKSIZE`). */
const PW_BLOCKSIZE = 128

/** numpy `DOUBLE_pairwise_sum` over `a[start, start + n)`. */
export function pairwiseSum(a: ArrayLike<number>, start = 0, n = a.length - start): number {
  if (n < 8) {
    // numpy starts this branch from -0.0 (so a sum of -0.0 stays -0.0); the reduction adds it to 0
    let res = -0
    for (let i = 0; i < n; i++) res += a[start + i]!
    return res
  }
  if (n <= PW_BLOCKSIZE) {
    const r = [a[start]!, a[start + 1]!, a[start + 2]!, a[start + 3]!, a[start + 4]!, a[start + 5]!, a[start + 6]!, a[start + 7]!]
    let i = 8
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j]! += a[start + i + j]!
    let res = r[0]! + r[1]! + (r[2]! + r[3]!) + (r[4]! + r[5]! + (r[6]! + r[7]!))
    for (; i < n; i++) res += a[start + i]!
    return res
  }
  let n2 = Math.floor(n / 2)
  n2 -= n2 % 8
  return pairwiseSum(a, start, n2) + pairwiseSum(a, start + n2, n - n2)
}

/** `np.mean` of a contiguous float64 array: the add reduction (identity 0 plus the pairwise sum) over n. */
export function numpyMean(values: ArrayLike<number>): number {
  return (0 + pairwiseSum(values)) / values.length
}
