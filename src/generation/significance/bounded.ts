/**
 * numpy's bounded integer draws (numpy/random/src/distributions/distributions.c), as
 * `Generator.integers(0, n)` and `Generator.choice(n, replace=True)` (which numpy routes to the same
 * fill) and `Generator.integers(2, dtype=bool)` perform them. Why a port: see seed-sequence.ts.
 */
import type { Pcg64 } from './pcg64.js'

const TWO_32 = 4294967296

/**
 * `random_bounded_uint64_fill` for a range below 2^32 − 1, Lemire's nearly divisionless method
 * (`buffered_bounded_lemire_uint32`): `m = next32 · n`, rejected while its low word is below
 * `(2^32 − n) mod n`; the draw is the high word. `n = 1` consumes nothing (numpy's `rng == 0`).
 */
export function fillBounded(bitgen: Pcg64, n: number, out: Uint32Array): Uint32Array {
  if (!Number.isInteger(n) || n < 1 || n >= TWO_32) throw new RangeError('n must be an integer in [1, 2^32)')
  if (n === 1) return out.fill(0)
  const threshold = (TWO_32 - n) % n
  for (let i = 0; i < out.length; i++) {
    let [lo, hi] = mulWide(bitgen.next32(), n)
    if (lo < n) {
      while (lo < threshold) [lo, hi] = mulWide(bitgen.next32(), n)
    }
    out[i] = hi
  }
  return out
}

/**
 * `random_bounded_bool_fill` with range 1: one `next32` per 32 values, bits taken LSB first; the
 * buffer lives for one call only (a fresh call starts a fresh word).
 */
export function fillBooleans(bitgen: Pcg64, out: Uint8Array): Uint8Array {
  let buf = 0
  let left = 0
  for (let i = 0; i < out.length; i++) {
    if (left === 0) {
      buf = bitgen.next32()
      left = 31
    } else {
      buf >>>= 1
      left--
    }
    out[i] = buf & 1
  }
  return out
}

/** The exact 64-bit product of two uint32 values as `[low word, high word]` (a double holds only 53 bits). */
function mulWide(x: number, n: number): [number, number] {
  const a = (x >>> 16) * n // < 2^48: exact
  const b = (x & 0xffff) * n // < 2^48: exact
  const aLow = a % 65536
  const mid = aLow * 65536 + b // < 2^49: exact
  return [mid % TWO_32, Math.floor(a / 65536) + Math.floor(mid / TWO_32)]
}
