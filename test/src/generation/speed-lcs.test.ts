// rouge-score's LCS path for sentence-sized pairs comes from bit-parallel rows (lcsPathRows); the
// straightforward path it must reproduce exactly is the plain DP table walk (lcsPathTable).
import { describe, expect, test } from 'vitest'
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { lcsPathOf, lcsPathRows } from '../../../src/generation/lcs.js'

/** rouge-score's `_lcs_table` + `_backtrack_norec`, written plainly with the full table: indices into `ref`. */
function lcsPathTable(ref: Int32Array, can: Int32Array, out: number[]): void {
  const cols = can.length + 1
  const t = new Int32Array((ref.length + 1) * cols)
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= can.length; j++) {
      t[i * cols + j] = ref[i - 1] === can[j - 1] ? t[(i - 1) * cols + j - 1]! + 1 : Math.max(t[(i - 1) * cols + j]!, t[i * cols + j - 1]!)
    }
  }
  const path: number[] = []
  let i = ref.length
  let j = can.length
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      path.push(i - 1)
      i--
      j--
    } else if (t[i * cols + j - 1]! > t[(i - 1) * cols + j]!) {
      j--
    } else {
      i--
    }
  }
  out.push(...path.reverse())
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

  test('the dispatch uses it on sentence-sized pairs; empty sides give no path', () => {
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
