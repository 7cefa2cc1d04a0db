/**
 * numpy's PCG64 bit generator (pcg64.h/pcg64.pyx, the generator behind `np.random.default_rng`):
 * a 128-bit LCG with the XSL-RR output function, seeded through {@link seedSequencePool}.
 *
 * Why a port: sacrebleu's resampling indices come from this exact stream (see seed-sequence.ts).
 * The state is a BigInt reduced mod 2^128 after each step: exactness first; one step costs well
 * under a microsecond, and a 1,000 × 200 bootstrap needs 100,000 of them.
 */
import { generateState64, seedSequencePool } from './seed-sequence.js'

const MASK64 = (1n << 64n) - 1n
const MULTIPLIER = 0x2360ed051fc65da44385df649fccf645n

/** PCG64 with numpy's 32-bit carry-over (`next32` hands out both halves of one 64-bit output). */
export class Pcg64 {
  #state: bigint
  readonly #inc: bigint
  #hasUint32 = false
  #uinteger = 0

  /** numpy `pcg_setseq_128_srandom_r(initstate, initseq)`. */
  constructor(initState: bigint, initSeq: bigint) {
    this.#inc = BigInt.asUintN(128, (initSeq << 1n) | 1n)
    this.#state = 0n
    this.#step()
    this.#state = BigInt.asUintN(128, this.#state + BigInt.asUintN(128, initState))
    this.#step()
  }

  /** `PCG64(SeedSequence(entropy))`: state words 0–1 seed the state, 2–3 the stream. */
  static fromEntropy(entropy: readonly number[]): Pcg64 {
    const [s0, s1, s2, s3] = generateState64(seedSequencePool(entropy), 4) as [bigint, bigint, bigint, bigint]
    return new Pcg64((s0 << 64n) | s1, (s2 << 64n) | s3)
  }

  /** The 128-bit state and increment, as numpy's `bit_generator.state['state']` reports them. */
  get state(): { readonly state: bigint; readonly inc: bigint } {
    return { state: this.#state, inc: this.#inc }
  }

  #step(): void {
    this.#state = BigInt.asUintN(128, this.#state * MULTIPLIER + this.#inc)
  }

  /** The next 64-bit output as two uint32 halves `[lo, hi]` (avoids a BigInt per draw). */
  #next64Halves(): [number, number] {
    this.#step()
    const s = this.#state
    const x = (s >> 64n) ^ (s & MASK64)
    const rot = Number(s >> 122n)
    const lo = Number(x & 0xffffffffn)
    const hi = Number(x >> 32n)
    if (rot === 0) return [lo, hi]
    // rotate the 64-bit word right by rot, on its 32-bit halves
    let a = lo
    let b = hi
    let r = rot
    if (r >= 32) {
      ;[a, b] = [b, a]
      r -= 32
    }
    if (r === 0) return [a >>> 0, b >>> 0]
    return [((a >>> r) | (b << (32 - r))) >>> 0, ((b >>> r) | (a << (32 - r))) >>> 0]
  }

  /** numpy `pcg64_next64` (`random_raw`). */
  next64(): bigint {
    const [lo, hi] = this.#next64Halves()
    return (BigInt(hi) << 32n) | BigInt(lo)
  }

  /** numpy `pcg64_next32`: the low half of a fresh 64-bit output; the high half is kept for the next call. */
  next32(): number {
    if (this.#hasUint32) {
      this.#hasUint32 = false
      return this.#uinteger
    }
    const [lo, hi] = this.#next64Halves()
    this.#hasUint32 = true
    this.#uinteger = hi
    return lo
  }
}
