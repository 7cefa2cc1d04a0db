// numpy 1.24 `default_rng(seed)` parity, one field of the golden `rng_draws` at a time: SeedSequence
// pool, generate_state, PCG64 initial state, raw output, bounded integers, booleans and the
// carry-over of the 32-bit half between calls. Fixture provenance: test/parity/fixtures/PROVENANCE.md.
import { fillBooleans, fillBounded } from '../../../../src/generation/significance/bounded.js'
import { Pcg64 } from '../../../../src/generation/significance/pcg64.js'
import { defaultRng, type DrawMatrix } from '../../../../src/generation/significance/random.js'
import { generateState64, seedSequencePool, seedWords } from '../../../../src/generation/significance/seed-sequence.js'
import { loadFixture } from '../../../parity/fixtures/load.js'

interface RngDraws {
  seed: number
  seedsequence_pool_uint32: number[]
  seedsequence_generate_state_4_uint64: string[]
  pcg64_initial_state: { state: string; inc: string }
  random_raw_20: string[]
  integers_0_100_size20: number[]
  choice_100_size20_replace: number[]
  choice_7_size20_replace: number[]
  choice_60_size_3x5_replace: number[][]
  integers_2_size_2x40_bool: number[][]
  sequence_bool_3x5_then_choice_10_2x5: { bool: number[][]; choice: number[][] }
}

const draws = loadFixture<{ rng_draws: RngDraws[] }>('sacrebleu-extra/significance.json').rng_draws

function rowsOf(m: DrawMatrix<Uint32Array | Uint8Array>): number[][] {
  return Array.from({ length: m.rows }, (_, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols)))
}

describe.each(draws)('numpy default_rng($seed)', (d) => {
  test('SeedSequence mixes the seed into numpy’s 4-word pool', () => {
    expect(Array.from(seedSequencePool(seedWords(d.seed)))).toEqual(d.seedsequence_pool_uint32)
  })

  test('generate_state(4, uint64) equals numpy’s words', () => {
    const pool = Uint32Array.from(d.seedsequence_pool_uint32)
    expect(generateState64(pool, 4).map(String)).toEqual(d.seedsequence_generate_state_4_uint64)
  })

  test('PCG64 starts from numpy’s initial state and increment', () => {
    const { state, inc } = Pcg64.fromEntropy(seedWords(d.seed)).state
    expect({ state: String(state), inc: String(inc) }).toEqual(d.pcg64_initial_state)
  })

  test('random_raw(20) equals numpy’s 64-bit outputs', () => {
    const g = Pcg64.fromEntropy(seedWords(d.seed))
    expect(Array.from({ length: 20 }, () => String(g.next64()))).toEqual(d.random_raw_20)
  })

  test('integers(0, 100, 20) and choice(100, 20) draw numpy’s Lemire integers', () => {
    const g = Pcg64.fromEntropy(seedWords(d.seed))
    expect(Array.from(fillBounded(g, 100, new Uint32Array(20)))).toEqual(d.integers_0_100_size20)
    expect(Array.from(defaultRng(d.seed).choice(100, 1, 20).data)).toEqual(d.choice_100_size20_replace)
  })

  test('choice(7, 20) and choice(60, (3, 5)) equal numpy', () => {
    expect(Array.from(defaultRng(d.seed).choice(7, 1, 20).data)).toEqual(d.choice_7_size20_replace)
    expect(rowsOf(defaultRng(d.seed).choice(60, 3, 5))).toEqual(d.choice_60_size_3x5_replace)
  })

  test('integers(2, (2, 40), dtype=bool) takes 32 bits per next32, LSB first', () => {
    expect(rowsOf(defaultRng(d.seed).booleans(2, 40))).toEqual(d.integers_2_size_2x40_bool)
  })

  test('a bool draw then a choice draw share the 32-bit carry-over, as in sacrebleu’s AR test', () => {
    const rng = defaultRng(d.seed)
    expect(rowsOf(rng.booleans(3, 5))).toEqual(d.sequence_bool_3x5_then_choice_10_2x5.bool)
    expect(rowsOf(rng.choice(10, 2, 5))).toEqual(d.sequence_bool_3x5_then_choice_10_2x5.choice)
  })
})

describe('bounded draws: edge cases', () => {
  test('choice(1, …) is all zeros and consumes no output (numpy’s rng == 0 branch)', () => {
    const a = Pcg64.fromEntropy([5])
    const b = Pcg64.fromEntropy([5])
    expect(Array.from(fillBounded(a, 1, new Uint32Array(4)))).toEqual([0, 0, 0, 0])
    expect(a.next64()).toBe(b.next64())
  })

  test('draws stay below n for a range near 2^32 (exact 64-bit products)', () => {
    const g = Pcg64.fromEntropy([9])
    const n = 4294967295
    const out = fillBounded(g, n, new Uint32Array(1000))
    expect(out.every((x) => x < n)).toBe(true)
    expect(new Set(out).size).toBeGreaterThan(990)
  })

  test('a fresh bool fill starts a fresh 32-bit word', () => {
    const a = Pcg64.fromEntropy([3])
    const b = Pcg64.fromEntropy([3])
    fillBooleans(a, new Uint8Array(1))
    fillBooleans(a, new Uint8Array(1))
    b.next32()
    b.next32()
    expect(a.next32()).toBe(b.next32())
  })

  test('seedWords splits big seeds into 32-bit words, least significant first', () => {
    expect(seedWords(0)).toEqual([0])
    expect(seedWords(2 ** 32 + 7)).toEqual([7, 1])
    expect(seedWords(12345n)).toEqual([12345])
    expect(() => seedWords(-1)).toThrow(RangeError)
  })

  test('an unseeded generator draws from OS entropy (two differ)', () => {
    expect(defaultRng(null).bitGenerator.next64()).not.toBe(defaultRng(null).bitGenerator.next64())
  })
})
