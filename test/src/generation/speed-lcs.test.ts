// rouge-score's LCS path for sentence-sized pairs comes from bit-parallel rows (lcsPathRows, the JS path where
// WebAssembly is missing or a pair is over the kernel's size); the straightforward path it must reproduce exactly is
// the plain DP table walk (lcs-oracle.ts).
import { describe, expect, test } from 'vitest'
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { lcsPathOf, lcsPathRows } from '../../../src/generation/lcs.js'
import { oraclePath } from './lcs-oracle.js'

/** The oracle's path appended to `out`, as the kernels append. */
function lcsPathTable(ref: Int32Array, can: Int32Array, out: number[]): void {
  out.push(...oraclePath([...ref], [...can]))
}

function ids(rand: () => number, length: number, vocab: number): Int32Array {
  return Int32Array.from({ length }, () => Math.floor(rand() * vocab))
}

describe('lcsPathRows against the DP table', () => {
  test.each([
    [1, 2000, 40, 3],
    [2, 2000, 40, 12],
    [3, 500, 100, 30],
    [4, 100, 300, 8],
  ])('seed %i: %i random pairs up to %i ids, vocabulary %i', (seed, count, maxLength, vocab) => {
    const rand = random(seed)
    for (let c = 0; c < count; c++) {
      // lengths around the 32-bit word boundaries included
      const ref = ids(rand, Math.floor(rand() * (maxLength + 1)), vocab)
      const can = ids(rand, rand() < 0.2 ? 31 + Math.floor(rand() * 3) : Math.floor(rand() * (maxLength + 1)), vocab)
      const want = [5]
      const got = [5]
      lcsPathTable(ref, can, want)
      lcsPathRows(ref, can, got)
      expect({ ref: [...ref], can: [...can], path: got }).toEqual({ ref: [...ref], can: [...can], path: want })
    }
  })

  test("a candidate of over 4,096 ids (rows built by scanning instead of per-token masks), and ids above the candidate's", () => {
    const rand = random(6)
    for (const [rows, cols, vocab] of [
      [3, 4097, 5],
      [40, 5000, 60],
      [200, 4200, 9],
      [30, 4096, 7],
    ] as const) {
      const ref = ids(rand, rows, vocab + 3)
      const can = ids(rand, cols, vocab)
      const want: number[] = []
      const got: number[] = []
      lcsPathTable(ref, can, want)
      lcsPathRows(ref, can, got)
      expect(got).toEqual(want)
    }
  })

  test('the dispatch (the WebAssembly kernel where it fits) agrees on sentence-sized pairs; empty sides give no path', () => {
    const rand = random(5)
    const ref = ids(rand, 45, 10)
    const can = ids(rand, 38, 10)
    const want: number[] = []
    const got: number[] = []
    lcsPathTable(ref, can, want)
    lcsPathOf(ref, can, got)
    expect(got).toEqual(want)
    const none: number[] = []
    lcsPathRows(new Int32Array(0), can, none)
    lcsPathRows(ref, new Int32Array(0), none)
    expect(none).toEqual([])
  })
})
