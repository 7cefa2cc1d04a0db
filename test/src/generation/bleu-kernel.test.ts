// BLEU's WebAssembly kernel (src/generation/bleu-kernel.wat) against the JS path it replaces for 13a segments:
// bleuStats / sentenceBleu / corpusBleu take the kernel, bleuSegments keeps the JS tokenizer and counters, so the
// two must give the same statistics and the same scores bit for bit on anything.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../scripts/wasm-source.mjs'
import { bleuSegments, bleuStats, corpusBleu, sentenceBleu, type BleuOptions, type BleuScore } from '../../../src/generation/bleu.js'
import { BleuKernel, KERNEL_MAX_UNITS } from '../../../src/generation/bleu-kernel.js'

const here = new URL('../../../src/generation/', import.meta.url)

/** The statistics the JS path counted for one segment, in bleuStats' layout. */
function jsStats(score: BleuScore): number[] {
  const d = score.details
  return [d.sysLen, d.refLen, ...d.counts, ...d.totals]
}

function viaJs(candidate: string, refs: readonly string[], options: BleuOptions = {}): { stats: number[]; score: BleuScore } {
  const score = bleuSegments([candidate], [refs], options).segments[0]!
  return { stats: jsStats(score), score }
}

// every class 13a tells apart, the rewrites before it, and non-ASCII (whitespace, letters, digits, astral)
const PIECES = [
  'a',
  'Z',
  'ab',
  'the',
  '0',
  '7',
  '.',
  ',',
  '-',
  ' ',
  '  ',
  '\n',
  '-\n',
  '%',
  '(',
  ')',
  "'",
  '&',
  '&amp;',
  '&lt;',
  '&quot;',
  '<skipped>',
  '$',
  '/',
  ':',
  '\t',
  '\u00a0',
  '\u0085',
  '\u1680',
  '\u2003',
  '\u200a',
  '\u2028',
  '\u202f',
  '\u205f',
  '\u3000',
  '\u200b',
  '\u001c',
  'é',
  'É',
  'ß',
  '😀',
  '٣',
  '。',
  '中文',
  '_',
  '~',
  '"',
]
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((parts) => parts.join(''))

describe('BLEU kernel', () => {
  it('compiles in this runtime, so the tests below compare it and not the JS path with itself', () => {
    expect(BleuKernel.get()).not.toBeNull()
  })

  it('bleu-kernel-wasm.ts is what bleu-kernel.wat assembles to', async () => {
    const kernel = KERNELS.find((k) => k.constant === 'BLEU_KERNEL_WASM')!
    const wat = readFileSync(new URL('bleu-kernel.wat', here), 'utf8')
    expect(readFileSync(new URL('bleu-kernel-wasm.ts', here), 'utf8')).toBe(kernelSource(kernel, await assembleKernel(wat)))
  })

  it('counts random segments exactly as the JS path does (1-3 references, orders 1-6, lowercase or not)', () => {
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), (candidate, refs, maxNgramOrder, lowercase) => {
        const options = { maxNgramOrder, lowercase }
        const js = viaJs(candidate, refs, options)
        expect(bleuStats(candidate, refs, options)).toEqual(js.stats)
        expect(sentenceBleu(candidate, refs, options).value).toBe(js.score.value)
      }),
      { numRuns: 5_000 },
    )
  })

  it('counts segments built from shared words, where most n-grams match, as the JS path does', () => {
    const words = ['the', 'cat', 'sat', 'on', 'mat', '.', ',', '3.5', 'U.S.', 'it-', '42-year', '(a)', "don't", 'É', '😀']
    const sentence = fc.array(fc.constantFrom(...words), { maxLength: 40 }).map((w) => w.join(' '))
    fc.assert(
      fc.property(sentence, fc.array(sentence, { minLength: 1, maxLength: 4 }), (candidate, refs) => {
        expect(bleuStats(candidate, refs)).toEqual(viaJs(candidate, refs).stats)
      }),
      { numRuns: 3_000 },
    )
  })

  it("gives arbitrary UTF-16 (lone surrogates too, which take the JS path) the JS path's counts", () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), (candidate, ref) => {
        expect(bleuStats(candidate, ref)).toEqual(viaJs(candidate, [ref]).stats)
      }),
      { numRuns: 3_000 },
    )
    // two different lone surrogates would both be U+FFFD in UTF-8: they must stay different tokens
    expect(bleuStats('\ud800 x', '\udc00 x')).toEqual([2, 2, 1, 0, 0, 0, 2, 1, 0, 0])
    expect(bleuStats('\ud800 x', '\ud800 x')).toEqual([2, 2, 2, 1, 0, 0, 2, 1, 0, 0])
  })

  it('hands a segment too large for its memory to the JS path, with the same result', () => {
    const long = Array.from({ length: KERNEL_MAX_UNITS / 6 }, (_, i) => `w${i % 997} x`).join(' ')
    expect(long.length).toBeGreaterThan(KERNEL_MAX_UNITS)
    const candidate = long.slice(0, long.length / 2)
    expect(bleuStats(candidate, long, { maxTokens: 1e6 })).toEqual(viaJs(candidate, [long], { maxTokens: 1e6 }).stats)
  })

  it('grows its memory for a long segment and still counts short ones right afterwards', () => {
    const long = Array.from({ length: 20_000 }, (_, i) => `t${i % 1009}.`).join(' ')
    expect(bleuStats(long, long.slice(3000))).toEqual(viaJs(long, [long.slice(3000)]).stats)
    expect(bleuStats('the cat sat', 'the cat sat down')).toEqual([3, 4, 3, 2, 1, 0, 3, 2, 1, 0])
  })

  it('checks the token limit candidate first, then each reference, as the JS path does', () => {
    const big = 'a '.repeat(40)
    expect(() => sentenceBleu(big, 'a', { maxTokens: 10 })).toThrowError(/sentenceBleu|BLEU/)
    const message = (fn: () => unknown) => {
      try {
        fn()
      } catch (e) {
        return (e as Error).message
      }
      return 'no error'
    }
    const kernelMessage = message(() => sentenceBleu('a b', ['a', big], { maxTokens: 10 }))
    const jsMessage = message(() => bleuSegments(['a b'], [['a', big]], { maxTokens: 10 }))
    expect(kernelMessage).toContain('at most 10 tokens long')
    expect(kernelMessage).toBe(jsMessage)
    expect(message(() => sentenceBleu(big, ['a', 'b'.repeat(3)], { maxTokens: 10 }))).toContain('{"tokens":40}')
  })

  it("gives corpusBleu the JS path's corpus score on random corpora (its unmatched n-grams included)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 30 }), (pairs) => {
        const hyps = pairs.map(([h]) => h)
        const refs = pairs.map(([, r]) => r)
        const js = bleuSegments(
          hyps,
          refs.map((r) => [r]),
        ).corpus
        const kernel = corpusBleu(hyps, [refs])
        expect(kernel.value).toBe(js.value)
        expect(kernel.details).toEqual(js.details)
      }),
      { numRuns: 500 },
    )
  })
})
