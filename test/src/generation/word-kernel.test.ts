// The WebAssembly word kernel (src/generation/word-kernel.wat), which rougeScore and meteorScore use for ASCII texts:
// its ROUGE rule against rougeDefaultTokenize (the regex way), its Python split against a plain split and lower.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../scripts/wasm-source.mjs'
import { meteorScore } from '../../../src/generation/meteor.js'
import { rougeScore } from '../../../src/generation/rouge.js'
import { rougeDefaultTokenize, rougeStemToken } from '../../../src/generation/tokenizers/rouge-default.js'
import { KERNEL_MAX_UNITS, WordKernel, type WordRule } from '../../../src/generation/word-kernel.js'

const here = new URL('../../../src/generation/', import.meta.url)

/** A kernel with its own vocabulary: ids back to token text, and how often resolve was asked. */
function kernelWithVocabulary(slotBits?: number, rule: WordRule = 'alphanumeric-runs') {
  const tokens: string[] = []
  const ids = new Map<string, number>()
  let resolved = 0
  const kernel = WordKernel.create(
    rule,
    (run, setting) => {
      resolved++
      const token = setting === 1 ? rougeStemToken(run) : setting === 2 ? `${run}#2` : run
      if (token === '') return -1
      let id = ids.get(token)
      if (id === undefined) {
        id = tokens.length
        ids.set(token, id)
        tokens.push(token)
      }
      return id
    },
    slotBits,
  )
  if (kernel === null) throw new Error('no WebAssembly in this runtime')
  const tokenize = (text: string, stemmer: boolean): string[] | null => {
    const n = kernel.tokens(text, stemmer ? 1 : 0)
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

describe('word kernel, ROUGE rule', () => {
  for (const name of ['word-kernel']) {
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

  it('doubles its table as words come, keeping every id (each run is resolved once)', () => {
    const { tokenize, resolvedCount } = kernelWithVocabulary()
    // 1,500 distinct runs per text: the table starts with 4,096 slots (2,048 runs) and must double on the way
    const words = (from: number) => Array.from({ length: 1_500 }, (_, i) => `g${(from + i).toString(36)}`)
    const texts = [0, 1, 2, 3, 4, 5].map((k) => words(1_500 * k))
    for (const text of texts) expect(tokenize(text.join(' '), false)).toEqual(text)
    expect(resolvedCount()).toBe(9_000)
    // every run is still known after the doublings, under its first id
    for (const text of texts) expect(tokenize(text.join(' '), false)).toEqual(text)
    expect(resolvedCount()).toBe(9_000)
  })

  it('doubles only up to the size it was given, then starts over', () => {
    // at most 2^13 slots (4,096 runs), starting from 2^12; a text of 1,000 runs and 5,000 bytes might hold 2,500
    const { tokenize, resolvedCount } = kernelWithVocabulary(13)
    const words = (from: number) => Array.from({ length: 1_000 }, (_, i) => `c${(from + i).toString(36).padStart(3, '0')}`)
    const texts = [0, 1, 2].map((k) => words(1_000 * k))
    // the first doubles the table, the second still fits beside it, the third makes it start over
    for (const text of texts) expect(tokenize(text.join(' '), false)).toEqual(text)
    expect(resolvedCount()).toBe(3_000)
    expect(tokenize(texts[0]!.slice(0, 10).join(' '), false)).toEqual(texts[0]!.slice(0, 10))
    expect(resolvedCount()).toBe(3_010)
    expect(tokenize(texts[2]!.slice(0, 10).join(' '), false)).toEqual(texts[2]!.slice(0, 10))
    expect(resolvedCount()).toBe(3_010)
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

/** Python's `str.split()` on ASCII text: runs of units other than \t \n \v \f \r, U+001C-U+001F and space. */
function split(text: string): string[] {
  const whitespace = new Set(['\t', '\n', '\v', '\f', '\r', '\x1c', '\x1d', '\x1e', '\x1f', ' '])
  const words: string[] = []
  let word = ''
  for (const unit of text) {
    if (!whitespace.has(unit)) word += unit
    else if (word !== '') {
      words.push(word)
      word = ''
    }
  }
  if (word !== '') words.push(word)
  return words
}

describe('word kernel, Python split', () => {
  /** Python's `str.split()` and `str.lower()` on ASCII text, the plain way. */
  const pythonSplit = (text: string) => split(text).map((word) => word.toLowerCase())

  it('gives the words a plain split and lower give, on every ASCII string and on word-like text', () => {
    const { tokenize } = kernelWithVocabulary(undefined, 'python-split')
    fc.assert(
      fc.property(fc.oneof(ascii, fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)), maxLength: 80 })), (text) => {
        expect(tokenize(text, false)).toEqual(pythonSplit(text))
      }),
      { numRuns: 4000 },
    )
    expect(tokenize('\x1cA\x1dB\x1eC\x1fD\u000bE\u000cF\rG\u0000H\u007fI', false)).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g\u0000h\u007fi'])
    expect(tokenize('café', false)).toBeNull()
  })

  it('keeps an id per setting apart from the others', () => {
    const { kernel, tokenize } = kernelWithVocabulary(undefined, 'python-split')
    expect(tokenize('Hello, World!', false)).toEqual(['hello,', 'world!'])
    const n = kernel.tokens('hello, there', 2)
    expect(n).toBe(2)
  })

  it("meteorScore scores a text through it as it scores the text's words given as an array (the JS path)", () => {
    const words = [
      'It',
      'is',
      'a',
      'guide',
      'to',
      'action',
      'which',
      'ensures',
      'that',
      'the',
      'Military',
      'always',
      'obeys',
      'commands',
      'of',
      'party.',
      'running',
      'ran',
      'runs',
      'ABCDEFGHIJKLMNOPQ',
      'x,y',
    ]
    const separators = [' ', '  ', '\t', '\n', '\r\n', '\x1c']
    const text = fc
      .array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(...separators)), { minLength: 1, maxLength: 25 })
      .map((parts) => parts.map(([word, separator]) => word + separator).join(''))
    fc.assert(
      fc.property(text, text, (hypothesis, reference) => {
        expect(JSON.stringify(meteorScore(hypothesis, [reference]))).toBe(JSON.stringify(meteorScore(split(hypothesis), [split(reference)])))
      }),
      { numRuns: 500 },
    )
  })
})
