// ROUGE's WebAssembly kernels: the tokenizer (src/generation/rouge-kernel.wat), which rougeScore uses for ASCII
// texts, against rougeDefaultTokenize (the regex way), and the LCS path (src/generation/lcs-kernel.wat), which
// lcsPathOf uses for sentence-sized pairs, against the plain DP table walk (lcs-oracle.ts).
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../scripts/wasm-source.mjs'
import { mulberry32 as random } from '../../../src/eval-set/statistics.js'
import { lcsPathOf } from '../../../src/generation/lcs.js'
import { KERNEL_MAX_CELLS, KERNEL_MAX_SIDE, LcsKernel } from '../../../src/generation/lcs-kernel.js'
import { rougeScore } from '../../../src/generation/rouge.js'
import { KERNEL_MAX_UNITS, RougeKernel } from '../../../src/generation/rouge-kernel.js'
import { rougeDefaultTokenize, rougeStemToken } from '../../../src/generation/tokenizers/rouge-default.js'
import { oraclePath } from './lcs-oracle.js'

const here = new URL('../../../src/generation/', import.meta.url)

/** A kernel with its own vocabulary: ids back to token text, and how often resolve was asked. */
function kernelWithVocabulary(slotBits?: number) {
  const tokens: string[] = []
  const ids = new Map<string, number>()
  let resolved = 0
  const kernel = RougeKernel.create((run, stemmer) => {
    resolved++
    const token = stemmer ? rougeStemToken(run) : run
    if (token === '') return -1
    let id = ids.get(token)
    if (id === undefined) {
      id = tokens.length
      ids.set(token, id)
      tokens.push(token)
    }
    return id
  }, slotBits)
  if (kernel === null) throw new Error('no WebAssembly in this runtime')
  const tokenize = (text: string, stemmer: boolean): string[] | null => {
    const n = kernel.tokens(text, stemmer)
    return n < 0 ? null : [...kernel.out.subarray(0, n)].map((id) => tokens[id] as string)
  }
  return { kernel, tokenize, resolvedCount: () => resolved }
}

// ASCII pieces: both cases, digits, runs shorter and longer than the 8 bytes a table slot holds and than the 16 of a
// SIMD step, separators of every kind, and runs the stemmer changes or empties
const PIECES = [
  'a',
  'Z',
  'q',
  '0',
  '9',
  'The',
  'FRIENDS',
  'meeting',
  'running',
  'abcdefgh',
  'abcdefghi',
  'abcdefghj',
  'ABCDEFGHIJKLMNOPQ',
  'abcdefghijklmnopr',
  'x1y2z3w4v5u6t7s8r9',
  ' ',
  '  ',
  '.',
  ',',
  '-',
  '_',
  '@',
  '[',
  '`',
  '{',
  '\t',
  '\n',
  '\u007f',
  '\u0000',
  'ies',
  'sses',
  'eed',
  'generalizations',
]
const ascii = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''))

describe('ROUGE tokenizer kernel', () => {
  for (const name of ['rouge-kernel', 'lcs-kernel']) {
    it(`${name}-wasm.ts is what ${name}.wat assembles to`, async () => {
      const kernel = KERNELS.find((k: { wat: string }) => k.wat.endsWith(`/${name}.wat`))!
      const wat = readFileSync(new URL(`${name}.wat`, here), 'utf8')
      expect(readFileSync(new URL(`${name}-wasm.ts`, here), 'utf8')).toBe(kernelSource(kernel, await assembleKernel(wat)))
    })
  }

  it('gives the tokens rougeDefaultTokenize gives, stemmed or not, on random ASCII text', () => {
    const { tokenize } = kernelWithVocabulary()
    fc.assert(
      fc.property(ascii, fc.boolean(), (text, stemmer) => {
        expect(tokenize(text, stemmer)).toEqual(rougeDefaultTokenize(text, stemmer))
      }),
      { numRuns: 3000 },
    )
  })

  it('gives them on every ASCII string, runs ending exactly at 16-byte steps included', () => {
    const { tokenize } = kernelWithVocabulary()
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 80 }), fc.boolean(), (text, stemmer) => {
        expect(tokenize(text, stemmer)).toEqual(rougeDefaultTokenize(text, stemmer))
      }),
      { numRuns: 3000 },
    )
    // runs that share their first 8 bytes (what a table slot holds) and their length
    expect(tokenize('abcdefghi abcdefghj abcdefghi abcdefghjk abcdefghik', false)).toEqual(['abcdefghi', 'abcdefghj', 'abcdefghi', 'abcdefghjk', 'abcdefghik'])
    for (const length of [15, 16, 17, 31, 32, 33, 64]) {
      const run = 'Ab9'.repeat(30).slice(0, length)
      expect(tokenize(run, false)).toEqual([run.toLowerCase()])
      expect(tokenize(`x ${run}`, false)).toEqual(['x', run.toLowerCase()])
    }
  })

  it("tells apart runs that share a slot's first 8 bytes and their length (a table of 32 slots, so runs collide)", () => {
    const { tokenize } = kernelWithVocabulary(5)
    const run = fc.constantFrom('abcdefghi', 'abcdefghj', 'abcdefghk', 'abcdefgh', 'abcdefgi', 'abcdefghijklmnopq', 'abcdefghijklmnopr', 'a', 'b', 'ab', '1')
    // at most 31 bytes: the 16 runs such a table holds always fit after a reset
    const short = fc
      .array(run, { maxLength: 3 })
      .map((runs) => runs.join(' '))
      .filter((text) => text.length <= 31)
    fc.assert(
      fc.property(short, (text) => {
        expect(tokenize(text, false)).toEqual(rougeDefaultTokenize(text, false))
      }),
      { numRuns: 3000 },
    )
  })

  it("asks for a run's id once per stemmer setting, and keeps the two settings apart", () => {
    const { tokenize, resolvedCount } = kernelWithVocabulary()
    expect(tokenize('Meetings meetings MEETINGS', false)).toEqual(['meetings', 'meetings', 'meetings'])
    expect(resolvedCount()).toBe(1)
    expect(tokenize('meetings', true)).toEqual(['meet'])
    expect(tokenize('meetings', false)).toEqual(['meetings'])
    expect(resolvedCount()).toBe(2)
  })

  it('starts its table over when it fills, with the same tokens after', () => {
    const { tokenize, resolvedCount } = kernelWithVocabulary()
    // 10,000 distinct runs per text (under 60,000 bytes): the table (65,536 runs) starts over before the fifth, which
    // might not fit after the first four
    const words = (from: number) => Array.from({ length: 10_000 }, (_, i) => `w${(from + i).toString(36)}`)
    const texts = [0, 1, 2, 3, 4].map((k) => words(10_000 * k))
    for (const text of texts) expect(tokenize(text.join(' '), false)).toEqual(text)
    expect(resolvedCount()).toBe(50_000)
    // the first text's runs were forgotten: asked for again; the fifth's were not
    expect(tokenize(texts[0]!.slice(0, 10).join(' '), false)).toEqual(texts[0]!.slice(0, 10))
    expect(resolvedCount()).toBe(50_010)
    expect(tokenize(texts[4]!.slice(0, 10).join(' '), false)).toEqual(texts[4]!.slice(0, 10))
    expect(resolvedCount()).toBe(50_010)
  })

  it('hands back non-ASCII text, lone surrogates and texts over its size (rougeScore then tokenizes in JS)', () => {
    const { tokenize } = kernelWithVocabulary()
    expect(tokenize('café', false)).toBeNull()
    expect(tokenize('a\ud800b', false)).toBeNull()
    expect(tokenize('İstanbul', false)).toBeNull()
    expect(tokenize('a'.repeat(KERNEL_MAX_UNITS + 1), false)).toBeNull()
    expect(tokenize('a '.repeat(KERNEL_MAX_UNITS / 2), false)).toHaveLength(KERNEL_MAX_UNITS / 2)
    // through rougeScore, both paths give the same score
    const ascii = 'The friends had a meeting about running.'
    expect(rougeScore(`${ascii} café`, 'friends meeting caf', { types: ['rougeL'], stemmer: true }).rougeL?.details).toEqual(
      rougeScore(`${ascii} caf`, 'friends meeting caf', { types: ['rougeL'], stemmer: true }).rougeL?.details,
    )
  })
})

describe('LCS kernel', () => {
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
