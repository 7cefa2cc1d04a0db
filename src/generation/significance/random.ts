/**
 * A small facade over the numpy port: `defaultRng(seed)` behaves like `np.random.default_rng(seed)`
 * for the two draws sacrebleu's significance tests make. Internal: parity is the only reason it
 * exists (see seed-sequence.ts); it is not a general-purpose generator.
 */
import { Pcg64 } from './pcg64.js'
import { fillBooleans, fillBounded } from './bounded.js'
import { seedWords } from './seed-sequence.js'

/** A row-major matrix of draws. */
export interface DrawMatrix<T extends Uint32Array | Uint8Array> {
  readonly rows: number
  readonly cols: number
  /** `data[r * cols + c]`. */
  readonly data: T
}

export interface NumpyRng {
  /** `rng.choice(n, size=(rows, cols), replace=True)` (= `rng.integers(0, n, size)`). */
  choice(n: number, rows: number, cols: number): DrawMatrix<Uint32Array>
  /** `rng.integers(2, size=(rows, cols), dtype=bool)` as 0/1. */
  booleans(rows: number, cols: number): DrawMatrix<Uint8Array>
  /** The underlying bit generator (for tests of the raw stream). */
  readonly bitGenerator: Pcg64
}

/**
 * `np.random.default_rng(seed)`: PCG64 seeded through SeedSequence. `null` = unseeded: 128 bits of
 * OS entropy, as numpy's `SeedSequence(None)` (via `crypto.getRandomValues`).
 */
export function defaultRng(seed: number | bigint | null): NumpyRng {
  const entropy = seed === null ? osEntropyWords() : seedWords(seed)
  const bitGenerator = Pcg64.fromEntropy(entropy)
  return {
    bitGenerator,
    choice(n, rows, cols) {
      return { rows, cols, data: fillBounded(bitGenerator, n, new Uint32Array(rows * cols)) }
    },
    booleans(rows, cols) {
      return { rows, cols, data: fillBooleans(bitGenerator, new Uint8Array(rows * cols)) }
    },
  }
}

function osEntropyWords(): number[] {
  const words = new Uint32Array(4)
  globalThis.crypto.getRandomValues(words)
  // numpy turns its 128-bit integer into words, dropping leading zero words
  const out = Array.from(words)
  while (out.length > 1 && out[out.length - 1] === 0) out.pop()
  return out
}
