/**
 * numpy's `SeedSequence` (numpy/random/bit_generator.pyx), the part `np.random.default_rng(seed)`
 * uses: the seed's 32-bit words are hashed into a 4-word pool, and `generate_state` hashes the pool
 * out into as many words as the bit generator needs.
 *
 * Why a port: sacrebleu draws its bootstrap and approximate-randomization samples from
 * `default_rng(seed)`; parity with its confidence intervals and p-values needs numpy's exact
 * stream, starting here. All arithmetic is uint32 (`Math.imul` + `>>> 0`), which is exact.
 */
import { imul } from '../../math-bindings.js'

const POOL_SIZE = 4
const INIT_A = 0x43b0d7e5
const MULT_A = 0x931e8875
const INIT_B = 0x8b51f9dd
const MULT_B = 0x58f38ded
const MIX_MULT_L = 0xca01f9dd
const MIX_MULT_R = 0x4973f715
const XSHIFT = 16

/**
 * A seed's 32-bit words, least significant first (numpy `_int_to_uint32_array`: 0 is one word `[0]`).
 * @throws RangeError for a negative or non-integer seed (callers validate first)
 */
export function seedWords(seed: number | bigint): number[] {
  let n = typeof seed === 'bigint' ? seed : BigInt(seed)
  if (n < 0n) throw new RangeError('seed must be non-negative')
  if (n === 0n) return [0]
  const words: number[] = []
  while (n > 0n) {
    words.push(Number(n & 0xffffffffn))
    n >>= 32n
  }
  return words
}

/** The mixed 4-word pool of `SeedSequence(entropy)` (no spawn key): numpy `mix_entropy`. */
export function seedSequencePool(entropy: readonly number[]): Uint32Array {
  const pool = new Uint32Array(POOL_SIZE)
  let hashConst = INIT_A
  // numpy's hashmix: the hash constant advances on every call, so the call order matters
  const hashmix = (value: number): number => {
    value = (value ^ hashConst) >>> 0
    hashConst = imul(hashConst, MULT_A) >>> 0
    value = imul(value, hashConst) >>> 0
    return (value ^ (value >>> XSHIFT)) >>> 0
  }
  const mix = (x: number, y: number): number => {
    const result = (imul(MIX_MULT_L, x) - imul(MIX_MULT_R, y)) >>> 0
    return (result ^ (result >>> XSHIFT)) >>> 0
  }
  for (let i = 0; i < POOL_SIZE; i++) pool[i] = hashmix(i < entropy.length ? entropy[i]! : 0)
  // every pool word affects every other, so late seed bits reach early state bits
  for (let src = 0; src < POOL_SIZE; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) if (src !== dst) pool[dst] = mix(pool[dst]!, hashmix(pool[src]!))
  }
  for (let src = POOL_SIZE; src < entropy.length; src++) {
    for (let dst = 0; dst < POOL_SIZE; dst++) pool[dst] = mix(pool[dst]!, hashmix(entropy[src]!))
  }
  return pool
}

/** `SeedSequence.generate_state(nWords, np.uint32)`: the pool hashed out cyclically. */
export function generateState32(pool: Uint32Array, nWords: number): Uint32Array {
  const out = new Uint32Array(nWords)
  let hashConst = INIT_B
  for (let i = 0; i < nWords; i++) {
    let value = (pool[i % pool.length]! ^ hashConst) >>> 0
    hashConst = imul(hashConst, MULT_B) >>> 0
    value = imul(value, hashConst) >>> 0
    out[i] = (value ^ (value >>> XSHIFT)) >>> 0
  }
  return out
}

/** `SeedSequence.generate_state(nWords, np.uint64)`: pairs of 32-bit words read as little-endian uint64. */
export function generateState64(pool: Uint32Array, nWords: number): bigint[] {
  const words = generateState32(pool, 2 * nWords)
  const out: bigint[] = []
  for (let i = 0; i < nWords; i++) out.push((BigInt(words[2 * i + 1]!) << 32n) | BigInt(words[2 * i]!))
  return out
}
