// The WebAssembly LCS path (src/generation/lcs-kernel.wat), which lcsPathOf uses for sentence-sized pairs (ROUGE-L,
// ROUGE-Lsum), against the plain DP table walk (lcs-oracle.ts).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../scripts/wasm-source.mjs'
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { lcsPathOf } from '../../../src/generation/lcs.js'
import { KERNEL_MAX_CELLS, KERNEL_MAX_SIDE, LcsKernel } from '../../../src/generation/lcs-kernel.js'
import { oraclePath } from './lcs-oracle.js'

const here = new URL('../../../src/generation/', import.meta.url)

describe('LCS kernel', () => {
  it('lcs-kernel-wasm.ts is what lcs-kernel.wat assembles to', async () => {
    const kernel = KERNELS.find((k: { wat: string }) => k.wat.endsWith('/lcs-kernel.wat'))!
    const wat = readFileSync(new URL('lcs-kernel.wat', here), 'utf8')
    expect(readFileSync(new URL('lcs-kernel-wasm.ts', here), 'utf8')).toBe(kernelSource(kernel, await assembleKernel(wat)))
  })

  const ids = (rand: () => number, length: number, vocab: number) => Int32Array.from({ length }, () => Math.floor(rand() * vocab))
  const viaDispatch = (ref: Int32Array, can: Int32Array) => {
    const out = [9]
    lcsPathOf(ref, can, out)
    return out.slice(1)
  }

  it("gives the DP table walk's path on random pairs, lengths at the 32-bit word and 4-wide steps included", () => {
    const rand = random(11)
    for (let c = 0; c < 3000; c++) {
      const rows = rand() < 0.3 ? 29 + Math.floor(rand() * 8) : Math.floor(rand() * 90)
      const cols = rand() < 0.3 ? 29 + Math.floor(rand() * 8) : 1 + Math.floor(rand() * 90)
      const vocab = 1 + Math.floor(rand() * 20)
      const ref = ids(rand, rows, vocab + 2)
      const can = ids(rand, cols, vocab)
      expect(viaDispatch(ref, can)).toEqual(oraclePath([...ref], [...can]))
    }
  })

  it('at the edges of what fits, and past them (the JS kernels)', () => {
    const rand = random(12)
    expect(LcsKernel.fits(KERNEL_MAX_SIDE, KERNEL_MAX_CELLS / KERNEL_MAX_SIDE)).toBe(true)
    expect(LcsKernel.fits(KERNEL_MAX_SIDE + 1, 1)).toBe(false)
    for (const [rows, cols] of [
      [KERNEL_MAX_SIDE, KERNEL_MAX_CELLS / KERNEL_MAX_SIDE],
      [KERNEL_MAX_CELLS / KERNEL_MAX_SIDE, KERNEL_MAX_SIDE],
      [1, KERNEL_MAX_SIDE],
      [KERNEL_MAX_SIDE, 1],
      [513, 513],
      [KERNEL_MAX_SIDE + 1, 3],
    ] as const) {
      const ref = ids(rand, rows, 7)
      const can = ids(rand, cols, 7)
      expect(viaDispatch(ref, can)).toEqual(oraclePath([...ref], [...can]))
    }
  })

  it('leaves nothing behind: a long pair then a short one', () => {
    const kernel = LcsKernel.create()!
    const rand = random(13)
    const long = ids(rand, 400, 3)
    kernel.path(long, ids(rand, 500, 3))
    const ref = Int32Array.from([1, 2, 3, 4, 5])
    const can = Int32Array.from([2, 5, 3, 4])
    const n = kernel.path(ref, can)
    expect([...kernel.out.subarray(0, n)]).toEqual([1, 2, 3])
  })
})
