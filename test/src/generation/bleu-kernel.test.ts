// BLEU's WebAssembly kernel (src/generation/bleu-kernel.wat), which counts 13a segments for bleuStats, sentenceBleu,
// corpusBleu and bleuSegments, against an oracle written here the plain way: tokenize13a (the four regex passes, not
// the one-pass scanner both paths follow), Python's rstrip and lower, and n-gram counts in Maps. Segments the kernel
// hands back (a lone surrogate, too large) take the JS path and must agree with the oracle too.
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { assembleKernel, kernelSource, KERNELS } from '../../../scripts/wasm-source.mjs'
import { bleuFromStats, bleuSegments, bleuStats, corpusBleu, sentenceBleu } from '../../../src/generation/bleu.js'
import { BleuKernel, KERNEL_MAX_UNITS } from '../../../src/generation/bleu-kernel.js'
import { tokenize13a } from '../../../src/generation/tokenizers/tokenizer-13a.js'
import { isPyWhitespaceUnit } from '../../../src/generation/tokenizers/spans.js'
import { pyLower } from '../../../src/text/python-lower.js'
import { PIECES_13A } from './tokenizers/pieces-13a.js'

const here = new URL('../../../src/generation/', import.meta.url)

interface OracleOptions {
  readonly maxNgramOrder?: number
  readonly lowercase?: boolean
}

/** sacrebleu's preprocessing (lower, rstrip) and 13a tokens, the regex way. */
function oracleTokens(text: string, lowercase: boolean): string[] {
  const t = lowercase ? pyLower(text) : text
  let end = t.length
  while (end > 0 && isPyWhitespaceUnit(t.charCodeAt(end - 1))) end--
  const joined = tokenize13a(t.slice(0, end))
  return joined === '' ? [] : joined.split(' ')
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>()
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = JSON.stringify(tokens.slice(i, i + n))
    counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

/** `[sysLen, refLen, correct_1…N, total_1…N]` as sacrebleu's `_extract_corpus_statistics` defines them. */
function oracleStats(candidate: string, refs: readonly string[], options: OracleOptions = {}): number[] {
  const N = options.maxNgramOrder ?? 4
  const lowercase = options.lowercase ?? false
  const hyp = oracleTokens(candidate, lowercase)
  const refTokens = refs.map((r) => oracleTokens(r, lowercase))
  // the closest reference length, the shorter one on a tie
  let refLen = -1
  for (const r of refTokens) {
    const d = Math.abs(r.length - hyp.length)
    const best = Math.abs(refLen - hyp.length)
    if (refLen < 0 || d < best || (d === best && r.length < refLen)) refLen = r.length
  }
  const correct: number[] = []
  const total: number[] = []
  for (let n = 1; n <= N; n++) {
    const maxRef = new Map<string, number>()
    for (const r of refTokens) for (const [g, c] of ngramCounts(r, n)) maxRef.set(g, Math.max(maxRef.get(g) ?? 0, c))
    let matched = 0
    for (const [g, c] of ngramCounts(hyp, n)) matched += Math.min(c, maxRef.get(g) ?? 0)
    correct.push(matched)
    total.push(Math.max(0, hyp.length - n + 1))
  }
  return [hyp.length, refLen, ...correct, ...total]
}

// the tokenizer tests' pieces, plus longer words, runs of spaces and the rest of Python's non-ASCII whitespace
const PIECES = [...PIECES_13A, 'ab', 'the', '  ', '\u1680', '\u2003', '\u200a', '\u2028', '\u202f', '\u205f', '\u3000', '\u200b', '\u001c', 'É', 'ß', '中文']
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((parts) => parts.join(''))

describe('BLEU kernel', () => {
  it('compiles in this runtime, so the tests below check it and not only the JS path', () => {
    expect(BleuKernel.get()).not.toBeNull()
  })

  it('bleu-kernel-wasm.ts is what bleu-kernel.wat assembles to', async () => {
    const kernel = KERNELS.find((k) => k.constant === 'BLEU_KERNEL_WASM')!
    const wat = readFileSync(new URL('bleu-kernel.wat', here), 'utf8')
    expect(readFileSync(new URL('bleu-kernel-wasm.ts', here), 'utf8')).toBe(kernelSource(kernel, await assembleKernel(wat)))
  })

  it('counts random segments as the oracle does (1-3 references, orders 1-6, lowercase or not)', () => {
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 6 }), fc.boolean(), (candidate, refs, maxNgramOrder, lowercase) => {
        const options = { maxNgramOrder, lowercase }
        const expected = oracleStats(candidate, refs, options)
        expect(bleuStats(candidate, refs, options)).toEqual(expected)
        expect(sentenceBleu(candidate, refs, options).value).toBe(bleuFromStats(expected, { ...options, effectiveOrder: true }).value)
      }),
      { numRuns: 5_000 },
    )
  })

  it('counts segments built from shared words, where most n-grams match, as the oracle does', () => {
    const words = ['the', 'cat', 'sat', 'on', 'mat', '.', ',', '3.5', 'U.S.', 'it-', '42-year', '(a)', "don't", 'É', '😀']
    const sentence = fc.array(fc.constantFrom(...words), { maxLength: 40 }).map((w) => w.join(' '))
    fc.assert(
      fc.property(sentence, fc.array(sentence, { minLength: 1, maxLength: 4 }), (candidate, refs) => {
        expect(bleuStats(candidate, refs)).toEqual(oracleStats(candidate, refs))
      }),
      { numRuns: 3_000 },
    )
  })

  it('counts arbitrary UTF-16 as the oracle does (a lone surrogate takes the JS path)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), (candidate, ref) => {
        expect(bleuStats(candidate, ref)).toEqual(oracleStats(candidate, [ref]))
      }),
      { numRuns: 3_000 },
    )
    // two different lone surrogates would both be U+FFFD in UTF-8: they must stay different tokens
    expect(bleuStats('\ud800 x', '\udc00 x')).toEqual([2, 2, 1, 0, 0, 0, 2, 1, 0, 0])
    expect(bleuStats('\ud800 x', '\ud800 x')).toEqual([2, 2, 2, 1, 0, 0, 2, 1, 0, 0])
  })

  it("hands a segment too large for its memory to the JS path, with the oracle's counts", () => {
    const long = Array.from({ length: KERNEL_MAX_UNITS / 6 }, (_, i) => `w${i % 997} x`).join(' ')
    expect(long.length).toBeGreaterThan(KERNEL_MAX_UNITS)
    const candidate = long.slice(0, long.length / 2)
    expect(bleuStats(candidate, long, { maxTokens: 1e6 })).toEqual(oracleStats(candidate, [long]))
  })

  it('grows its memory for a long segment and still counts short ones right afterwards', () => {
    const long = Array.from({ length: 8_000 }, (_, i) => `t${i % 1009}.`).join(' ')
    expect(bleuStats(long, long.slice(3000))).toEqual(oracleStats(long, [long.slice(3000)]))
    expect(bleuStats('the cat sat', 'the cat sat down')).toEqual([3, 4, 3, 2, 1, 0, 3, 2, 1, 0])
  })

  it('checks the token limit candidate first, then each reference, as the JS path does', () => {
    const big = 'a '.repeat(40)
    const message = (fn: () => unknown) => {
      try {
        fn()
      } catch (e) {
        return (e as Error).message
      }
      return 'no error'
    }
    // bleuSegments' first segment takes the JS path (its corpus's unmatched n-grams are still being noted)
    const kernelMessage = message(() => sentenceBleu('a b', ['a', big], { maxTokens: 10 }))
    expect(kernelMessage).toContain('at most 10 tokens long')
    expect(kernelMessage).toBe(message(() => bleuSegments(['a b'], [['a', big]], { maxTokens: 10 })))
    const candidateFirst = message(() => sentenceBleu(big, ['a', 'b '.repeat(50)], { maxTokens: 10 }))
    expect(candidateFirst).toContain('{"tokens":40}')
    expect(candidateFirst).toBe(message(() => bleuSegments([big], [['a', 'b '.repeat(50)]], { maxTokens: 10 })))
  })

  it("gives corpusBleu and bleuSegments the oracle's corpus statistics, and each other's unmatched n-grams", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 30 }), (pairs) => {
        const hyps = pairs.map(([h]) => h)
        const refs = pairs.map(([, r]) => r)
        const sums = new Array<number>(10).fill(0)
        pairs.forEach(([h, r]) => oracleStats(h, [r]).forEach((x, j) => (sums[j]! += x)))
        const corpus = corpusBleu(hyps, [refs])
        const d = corpus.details
        expect([d.sysLen, d.refLen, ...d.counts, ...d.totals]).toEqual(sums)
        expect(corpus.value).toBe(bleuFromStats(sums).value)
        const segments = bleuSegments(
          hyps,
          refs.map((r) => [r]),
        )
        expect(segments.corpus.value).toBe(corpus.value)
        expect(segments.corpus.details.unmatchedNgrams).toEqual(d.unmatchedNgrams)
        segments.segments.forEach((segment, i) => {
          const one = sentenceBleu(hyps[i]!, refs[i]!)
          expect(segment.value).toBe(one.value)
          expect(segment.details.unmatchedNgrams).toEqual(one.details.unmatchedNgrams)
        })
      }),
      { numRuns: 300 },
    )
  })
})
