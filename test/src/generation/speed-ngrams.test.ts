/*
 * Differential tests of the fast paths behind BLEU and chrF throughput: dense n-gram ids, reusable
 * span buffers with tokenizer-computed hashes, the one-pass 13a fast paths, and the counting kernels,
 * each against the straightforward computation on random inputs (fixed seeds, so failures replay).
 */
import fc from 'fast-check'
import { bleuStats, corpusBleu, sentenceBleu, UNMATCHED_NGRAMS_PER_ORDER } from '../../../src/generation/bleu.js'
import { chrfStats } from '../../../src/generation/chrf.js'
import { CodePointInterner, DenseNgrams, Interner, SpanInterner } from '../../../src/generation/ngrams.js'
import { getBleuTokenizer, tokenize13a, type BleuTokenizerName } from '../../../src/generation/tokenizers/index.js'
import { spans13a } from '../../../src/generation/tokenizers/tokenizer-13a.js'
import { SpanBuffer, spanHash, spanTokens, type TokenSpans } from '../../../src/generation/tokenizers/spans.js'
import { pyRstrip, pySplit } from '../../../src/text/python-string.js'

const RUNS = { seed: 20240611, numRuns: 300 }

/** Text made of pieces that exercise every 13a rule and both fast paths (plain words, runs inside tokens). */
const PIECES = ['a', 'bc', 'Zé', "it's", 'x', '0', '7', '.', ',', '-', '(', '&', '$', ' ', '  ', '\t', '\n', '\u00a0', '\u3000', '😀', '\u0085', 'ü']
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 24 }).map((parts) => parts.join(''))

/** Dense first-appearance ids of token sequences (what the interners produce). */
function denseIds(seqs: readonly (readonly number[])[]): { ids: number[][]; vocab: number } {
  const interner = new Interner<number>()
  return { ids: seqs.map((s) => interner.intern(s)), vocab: interner.size }
}

describe('DenseNgrams', () => {
  // vocabulary padding 0 uses the direct pair table; 70 000 forces the hashed one
  it.each([0, 70_000])('numbers n-grams exactly as their token strings, by first appearance (vocabulary + %i)', (padding) => {
    const grams = new DenseNgrams()
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 14 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 6 }), (raw, maxOrder) => {
        const { ids, vocab } = denseIds(raw)
        grams.reset(1)
        for (const seq of ids) grams.appendIds(seq)
        grams.start(vocab + padding)
        for (let n = 1; n <= maxOrder; n++) {
          if (n > 1) grams.advance()
          expect(grams.order).toBe(n)
          const idOf = new Map<string, number>()
          const firstSeq = new Map<string, number>()
          ids.forEach((seq, s) => {
            expect(grams.length(s)).toBe(Math.max(0, seq.length - n + 1))
            for (let i = 0; i + n <= seq.length; i++) {
              const gram = seq.slice(i, i + n).join(',')
              const id = grams.keys[grams.from(s) + i]!
              // ids are 0, 1, 2… in order of first appearance
              if (!idOf.has(gram)) {
                expect(id).toBe(idOf.size)
                idOf.set(gram, id)
                firstSeq.set(gram, s)
              }
              expect(id).toBe(idOf.get(gram))
              // below distinctBefore(s) exactly when first met in an earlier sequence
              expect(id < grams.distinctBefore(s)).toBe(firstSeq.get(gram)! < s)
            }
          })
          expect(grams.size).toBe(idOf.size)
          expect(grams.distinctBefore(ids.length)).toBe(idOf.size)
        }
      }),
      RUNS,
    )
  })

  it.each([0, 70_000])('advanceMatching numbers as advance does and counts Σ min of the two sequences (vocabulary + %i)', (padding) => {
    const fused = new DenseNgrams()
    const plain = new DenseNgrams()
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 16 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 16 }),
        fc.integer({ min: 1, max: 6 }),
        (a, b, maxOrder) => {
          const { ids, vocab } = denseIds([a, b])
          for (const grams of [fused, plain]) {
            grams.reset(1)
            for (const seq of ids) grams.appendIds(seq)
            grams.start(vocab + padding)
          }
          for (let n = 1; n <= maxOrder; n++) {
            const matches = n > 1 ? fused.advanceMatching() : fused.matches()
            if (n > 1) plain.advance()
            let expected = 0
            const counts = ngramCounts(ids[1]!.map(String), n)
            for (const [g, c] of ngramCounts(ids[0]!.map(String), n)) expected += Math.min(c, counts.get(g) ?? 0)
            expect(matches).toBe(expected)
            expect(plain.matches()).toBe(expected)
            expect([...fused.keys.subarray(0, a.length + b.length)]).toEqual([...plain.keys.subarray(0, a.length + b.length)])
            expect([fused.size, fused.distinctBefore(1), fused.distinctBefore(2)]).toEqual([plain.size, plain.distinctBefore(1), plain.distinctBefore(2)])
          }
        },
      ),
      RUNS,
    )
  })

  it('grows its buffers and gives back an unused tail', () => {
    const grams = new DenseNgrams()
    grams.reset(2)
    const long = Array.from({ length: 1000 }, (_, i) => i % 7)
    grams.appendIds(long)
    const at = grams.append(10)
    grams.tokens[at] = 1
    grams.tokens[at + 1] = 2
    grams.shrinkLast(2)
    grams.start(7)
    expect(grams.length(1)).toBe(2)
    grams.advance()
    expect(grams.length(0)).toBe(999)
    expect(grams.length(1)).toBe(1)
    // (1, 2) also occurs in the long sequence: an earlier id
    expect(grams.keys[grams.from(1)]).toBe(grams.keys[1])
  })
})

describe('CodePointInterner', () => {
  it('gives the same ids as a Map-based interner, BMP and astral, across resets', () => {
    const fast = new CodePointInterner()
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0x61, 0x62, 0x20, 0xe9, 0x4e2d, 0xffff, 0x1f600, 0x10ffff), { maxLength: 20 }), (codes) => {
        const slow = new Interner<number>()
        fast.reset()
        expect(codes.map((c) => fast.id(c))).toEqual(slow.intern(codes))
        expect(fast.size).toBe(slow.size)
      }),
      RUNS,
    )
  })
})

describe('span buffers and tokenizer hashes', () => {
  const names: BleuTokenizerName[] = ['13a', 'intl', 'char', 'none', 'zh']

  it.each(names)('%s: a reused buffer gives the same spans as a fresh one, each hash is spanHash', (name) => {
    const tokenizer = getBleuTokenizer(name)
    const buffer = new SpanBuffer()
    fc.assert(
      fc.property(text, text, (first, second) => {
        tokenizer.spans(first, buffer) // leaves longer or shorter content behind
        const reused = tokenizer.spans(second, buffer)
        const fresh = tokenizer.spans(second)
        expect(spanTokens(reused)).toEqual(spanTokens(fresh))
        expect(spanTokens(fresh)).toEqual(tokenizer.tokens(second))
        for (const spans of [reused, fresh]) {
          if (spans.hashes === undefined) continue
          for (let t = 0; t < spans.count; t++) expect(spans.hashes[t]).toBe(spanHash(spans.source, spans.starts[t]!, spans.ends[t]!))
        }
      }),
      RUNS,
    )
  })

  it('13a: the one-pass scanner with its fast paths equals the regex passes', () => {
    fc.assert(
      fc.property(text, (line) => {
        expect(spanTokens(spans13a(line)).join(' ')).toBe(tokenize13a(line))
      }),
      { ...RUNS, numRuns: 2000 },
    )
  })

  it('SpanInterner gives the same ids with tokenizer hashes as without', () => {
    const withHashes = new SpanInterner()
    const without = new SpanInterner()
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 4 }), (texts) => {
        const spans = texts.map((t) => spans13a(t))
        const bare: TokenSpans[] = spans.map(({ source, starts, ends, count }) => ({ source, starts, ends, count }))
        const total = spans.reduce((sum, s) => sum + s.count, 0)
        withHashes.reset(total)
        without.reset(total)
        const a = new Int32Array(total)
        const b = new Int32Array(total)
        let at = 0
        spans.forEach((s, k) => {
          withHashes.internInto(s, a, at)
          without.internInto(bare[k]!, b, at)
          at += s.count
        })
        expect([...a]).toEqual([...b])
        expect(spans.flatMap((s) => without.intern(s))).toEqual([...b])
      }),
      RUNS,
    )
  })
})

/** BLEU statistics the obvious way: token strings, n-gram strings, Maps. */
function naiveBleuStats(hyp: string, refs: readonly string[], maxOrder: number): number[] {
  const tokenize = (s: string): string[] => pySplit(tokenize13a(pyRstrip(s)))
  const h = tokenize(hyp)
  const rs = refs.map(tokenize)
  let refLen = -1
  for (const r of rs) {
    const d = Math.abs(r.length - h.length)
    if (refLen < 0 || d < Math.abs(refLen - h.length) || (d === Math.abs(refLen - h.length) && r.length < refLen)) refLen = r.length
  }
  const stats = [h.length, refLen]
  const correct: number[] = []
  const total: number[] = []
  for (let n = 1; n <= maxOrder; n++) {
    const hypCounts = ngramCounts(h, n)
    const refMax = new Map<string, number>()
    for (const r of rs) for (const [g, c] of ngramCounts(r, n)) refMax.set(g, Math.max(refMax.get(g) ?? 0, c))
    let matches = 0
    for (const [g, c] of hypCounts) matches += Math.min(c, refMax.get(g) ?? 0)
    correct.push(matches)
    total.push(Math.max(0, h.length - n + 1))
  }
  return [...stats, ...correct, ...total]
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>()
  for (let i = 0; i + n <= tokens.length; i++) {
    const g = tokens.slice(i, i + n).join(' ')
    counts.set(g, (counts.get(g) ?? 0) + 1)
  }
  return counts
}

/** Candidate n-grams in no reference, distinct, first appearance, at most 5 per order. */
function naiveUnmatched(hyp: string, refs: readonly string[], maxOrder: number): string[][] {
  const tokenize = (s: string): string[] => pySplit(tokenize13a(pyRstrip(s)))
  const h = tokenize(hyp)
  const rs = refs.map(tokenize)
  return Array.from({ length: maxOrder }, (_, k) => {
    const n = k + 1
    const inRefs = new Set(rs.flatMap((r) => [...ngramCounts(r, n).keys()]))
    const out: string[] = []
    for (const g of ngramCounts(h, n).keys()) if (!inRefs.has(g) && out.length < UNMATCHED_NGRAMS_PER_ORDER) out.push(g)
    return out
  })
}

// small vocabularies, so that n-grams repeat and match
const words = fc.array(fc.constantFrom('a', 'b', 'c', 'a.', '(b)', '1-2', 'c,', '3.5', ' ', '  '), { maxLength: 16 }).map((w) => w.join(' '))

describe('BLEU counting kernel', () => {
  it('equals the straightforward statistics and unmatched n-grams, one or several references', () => {
    fc.assert(
      fc.property(words, fc.array(words, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 6 }), (hyp, refs, maxOrder) => {
        expect(bleuStats(hyp, refs, { maxNgramOrder: maxOrder })).toEqual(naiveBleuStats(hyp, refs, maxOrder))
        expect(sentenceBleu(hyp, refs, { maxNgramOrder: maxOrder }).details.unmatchedNgrams).toEqual(naiveUnmatched(hyp, refs, maxOrder))
      }),
      RUNS,
    )
  })

  it('sums the same statistics over a corpus, with and without unmatched n-grams still to note', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(words, words), { minLength: 1, maxLength: 12 }), (segments) => {
        const score = corpusBleu(
          segments.map(([h]) => h),
          [segments.map(([, r]) => r)],
        )
        const sums = segments.map(([h, r]) => naiveBleuStats(h, [r], 4)).reduce((acc, st) => acc.map((x, k) => x + st[k]!))
        expect([score.details.sysLen, score.details.refLen, ...score.details.counts, ...score.details.totals]).toEqual(sums)
      }),
      RUNS,
    )
  })

  it('keeps a copy of the references for the unmatched n-grams it builds on first read', () => {
    const refs = ['the dog sat']
    const score = sentenceBleu('the cat sat', refs)
    refs[0] = 'the cat sat'
    expect(score.details.unmatchedNgrams[0]).toEqual(['cat'])
  })
})

/** chrF statistics the obvious way (sacrebleu's rules, written out). */
function naiveChrfStats(hyp: string, refs: readonly string[], charOrder: number, wordOrder: number, keepWhitespace: boolean): number[][] {
  const chars = (s: string): string[] => Array.from(s).filter((c) => keepWhitespace || pySplit(c).length > 0)
  const perRef = refs.map((ref) => {
    const stats: number[] = []
    const orders: Array<[string[], string[], number]> = []
    for (let n = 1; n <= charOrder; n++) orders.push([chars(hyp), chars(ref), n])
    for (let n = 1; n <= wordOrder; n++) orders.push([chrfWordsNaive(hyp), chrfWordsNaive(ref), n])
    for (const [h, r, n] of orders) {
      const hc = ngramCounts(h, n)
      const rc = ngramCounts(r, n)
      const hypCount = Math.max(0, h.length - n + 1)
      const refCount = Math.max(0, r.length - n + 1)
      let match = 0
      for (const [g, c] of hc) match += Math.min(c, rc.get(g) ?? 0)
      stats.push(refCount > 0 ? hypCount : 0, refCount, match)
    }
    return stats
  })
  return perRef
}

function chrfWordsNaive(s: string): string[] {
  const punct = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
  return pySplit(s).flatMap((w) => {
    if (Array.from(w).length === 1) return [w]
    if (punct.includes(w[w.length - 1]!)) return [w.slice(0, -1), w[w.length - 1]!]
    if (punct.includes(w[0]!)) return [w[0]!, w.slice(1)]
    return [w]
  })
}

describe('chrF counting kernel', () => {
  const chrfText = fc.array(fc.constantFrom('a', 'b', 'ab', ' ', '\u3000', '😀', 'é', '.', '(x'), { maxLength: 20 }).map((p) => p.join(''))
  it('keeps the statistics of one of the references, each equal to the straightforward count', () => {
    fc.assert(
      fc.property(
        chrfText,
        fc.array(chrfText, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 0, max: 2 }),
        fc.boolean(),
        (hyp, refs, charOrder, wordOrder, keepWhitespace) => {
          const stats = chrfStats(hyp, refs, { charOrder, wordOrder, keepWhitespace })
          const candidates = naiveChrfStats(hyp, refs, charOrder, wordOrder, keepWhitespace)
          expect(candidates).toContainEqual(stats)
          if (refs.length === 1) expect(stats).toEqual(candidates[0])
        },
      ),
      RUNS,
    )
  })
})
