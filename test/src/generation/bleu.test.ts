import fc from 'fast-check'
import { MetricInputError } from '../../../src/errors.js'
import { bleuFromStats, bleuStats, corpusBleu, sentenceBleu, UNMATCHED_NGRAMS_PER_ORDER, type BleuOptions } from '../../../src/generation/bleu.js'
import { parseSignature } from '../../../src/signature.js'
import { VERSION } from '../../../src/version.js'

const REFERENCE = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
const CANDIDATE = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'

function relClose(a: number, b: number, tol = 1e-9): boolean {
  return a === b || Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b))
}

describe('sentenceBleu', () => {
  it("gives the issue's example value (sacrebleu 76.24658586234858)", () => {
    const score = sentenceBleu(CANDIDATE, REFERENCE)
    expect(relClose(score.value, 76.24658586234858)).toBe(true)
    expect(score.metric).toBe('BLEU')
    expect(score.details.counts).toEqual([15, 13, 11, 9])
    expect(score.details.totals).toEqual([17, 16, 15, 14])
    expect(score.details.sysLen).toBe(17)
    expect(score.details.refLen).toBe(17)
    expect(score.details.ratio).toBe(1)
    expect(score.details.bp).toBe(1)
  })

  it('accepts one reference as a string or in an array', () => {
    expect(sentenceBleu(CANDIDATE, [REFERENCE]).value).toBe(sentenceBleu(CANDIDATE, REFERENCE).value)
  })

  it("prints sacrebleu's signature keys in sacrebleu's order", () => {
    expect(sentenceBleu(CANDIDATE, REFERENCE).signature).toBe(`BLEU|nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp|version:${VERSION}`)
    expect(sentenceBleu(CANDIDATE, [REFERENCE, 'x'], { tokenize: 'intl', lowercase: true, smooth: 'floor' }).signature).toBe(
      `BLEU|nrefs:2|case:lc|eff:yes|tok:intl|smooth:floor[0.10]|version:${VERSION}`,
    )
    expect(sentenceBleu(CANDIDATE, REFERENCE, { smooth: 'add-k', smoothValue: 2, effectiveOrder: false, maxNgramOrder: 2 }).signature).toBe(
      `BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:add-k[2.00]|ngram:2|version:${VERSION}`,
    )
    expect(parseSignature(sentenceBleu('a', 'a', { tokenize: 'char' }).signature).entries.get('tok')).toBe('char')
  })

  it('takes the reference length closest to the candidate, the shorter one on a tie', () => {
    expect(sentenceBleu('a b c d', ['a b c d e f', 'a b c']).details.refLen).toBe(3)
    expect(sentenceBleu('a b c d', ['a b c d e', 'a b c']).details.refLen).toBe(3)
    expect(sentenceBleu('a b c d', ['a b c', 'a b c d e']).details.refLen).toBe(3)
    expect(sentenceBleu('a b c d', ['a b c d e', 'x']).details.refLen).toBe(5)
  })

  it('clips each n-gram by its maximum count over the references', () => {
    const score = sentenceBleu('the the the the', ['the cat', 'the the mat'])
    expect(score.details.counts[0]).toBe(2)
    expect(score.details.totals[0]).toBe(4)
  })

  it('follows sacrebleu on the edge cases', () => {
    // no match of any order: 0 even with smoothing; bp is still reported
    const none = sentenceBleu('x y', 'a b c d', { smooth: 'floor' })
    expect(none.value).toBe(0)
    expect(none.details.precisions).toEqual([0, 0, 0, 0])
    expect(none.details.bp).toBeCloseTo(Math.exp(1 - 4 / 2), 15)
    // empty candidate: no tokens, bp 0
    const empty = sentenceBleu('', 'a b')
    expect(empty.value).toBe(0)
    expect(empty.details.bp).toBe(0)
    expect(empty.details.sysLen).toBe(0)
    // an empty reference is a real reference of length 0
    expect(sentenceBleu('a b', ['', 'a b']).details.refLen).toBe(2)
    expect(sentenceBleu('a', ['']).details.refLen).toBe(0)
    // trailing whitespace (Python rstrip) does not matter; "-\n" before rstrip does
    expect(sentenceBleu('a b c d \u2028\u0085 ', 'a b c d').value).toBe(sentenceBleu('a b c d', 'a b c d').value)
    // (rstrip first: 'well-\n' keeps its hyphen; the tokenizer alone would delete '-\n')
    expect(sentenceBleu('well-\n', 'well-').details.counts).toEqual([1, 0, 0, 0])
    expect(sentenceBleu('well-\n', 'well-').details.sysLen).toBe(1)
  })

  it('lowercases with Python str.lower() when asked', () => {
    expect(sentenceBleu('THE CAT SAT DOWN', 'the cat sat down', { lowercase: true }).details.counts).toEqual([4, 3, 2, 1])
    expect(sentenceBleu('THE CAT SAT DOWN', 'the cat sat down').value).toBe(0)
    // KELVIN SIGN lowercases to ASCII k, as in Python
    expect(sentenceBleu('\u212A', 'k', { lowercase: true }).details.counts[0]).toBe(1)
  })

  it('smooths zero counts as sacrebleu does', () => {
    const stats = bleuStats('a b c d', 'a b x d')
    expect(stats).toEqual([4, 4, 3, 1, 0, 0, 4, 3, 2, 1])
    const exp = sentenceBleu('a b c d', 'a b x d').details.precisions
    expect(exp).toEqual([75, 100 / 3, 100 / (2 * 2), 100 / (4 * 1)])
    expect(sentenceBleu('a b c d', 'a b x d', { smooth: 'floor' }).details.precisions).toEqual([75, 100 / 3, (100 * 0.1) / 2, (100 * 0.1) / 1])
    const addK = sentenceBleu('a b c d', 'a b x d', { smooth: 'add-k' }).details
    expect(addK.counts).toEqual([3, 2, 1, 1])
    expect(addK.totals).toEqual([4, 4, 3, 2])
    expect(sentenceBleu('a b c d', 'a b x d', { smooth: 'none' }).value).toBe(0)
  })

  it('averages only the orders that have n-grams with effective order', () => {
    expect(relClose(sentenceBleu('a b', 'a b').value, 100)).toBe(true)
    expect(sentenceBleu('a b', 'a b', { effectiveOrder: false }).value).toBe(0)
  })

  it('supports other maximum n-gram orders', () => {
    const s = sentenceBleu('a b c d e f', 'a b c d e f', { maxNgramOrder: 6 })
    expect(s.details.counts).toEqual([6, 5, 4, 3, 2, 1])
    expect(relClose(s.value, 100)).toBe(true)
    expect(sentenceBleu('a b c', 'a b d', { maxNgramOrder: 1 }).details.precisions).toEqual([(100 * 2) / 3])
  })

  it('lists candidate n-grams that are in no reference, at most 5 per order', () => {
    const score = sentenceBleu('the cat sat on the mat', 'the dog sat on the rug')
    expect(score.details.unmatchedNgrams).toEqual([
      ['cat', 'mat'],
      ['the cat', 'cat sat', 'the mat'],
      ['the cat sat', 'cat sat on', 'on the mat'],
      ['the cat sat on', 'cat sat on the', 'sat on the mat'],
    ])
    // repeated n-grams are listed once; clipped n-grams that do occur in a reference are not listed
    expect(sentenceBleu('x x y y a', 'a').details.unmatchedNgrams[0]).toEqual(['x', 'y'])
    expect(sentenceBleu('a a a', 'a').details.unmatchedNgrams[0]).toEqual([])
    const many = sentenceBleu('q w e r t y u i o p', 'z')
    expect(many.details.unmatchedNgrams.map((l) => l.length)).toEqual([5, 5, 5, 5])
    expect(UNMATCHED_NGRAMS_PER_ORDER).toBe(5)
    // JSON keeps them
    expect(JSON.parse(JSON.stringify(score)).details.unmatchedNgrams[0]).toEqual(['cat', 'mat'])
  })

  it('throws MetricInputError naming the argument', () => {
    expect(() => sentenceBleu(42 as unknown as string, 'a')).toThrow(/sentenceBleu: Expected `candidate` to be a string, got `42` \(number\)/)
    expect(() => sentenceBleu('a', [])).toThrow(/Expected `references` to be a string or a non-empty array of strings/)
    expect(() => sentenceBleu('a', ['b', 3 as unknown as string])).toThrow(/Expected `references\[1\]` to be a string/)
    expect(() => sentenceBleu('a', null as unknown as string)).toThrow(MetricInputError)
    const bad: Array<[BleuOptions, RegExp]> = [
      [{ tokenize: 'ja-mecab' as never }, /`options.tokenize` to be one of '13a', 'intl', 'char', 'none', 'zh'/],
      [{ smooth: 'add-one' as never }, /`options.smooth`/],
      [{ smoothValue: -1 }, /`options.smoothValue`/],
      [{ smoothValue: Number.NaN }, /`options.smoothValue`/],
      [{ lowercase: 'yes' as never }, /`options.lowercase`/],
      [{ effectiveOrder: 1 as never }, /`options.effectiveOrder`/],
      [{ maxNgramOrder: 0 }, /`options.maxNgramOrder`/],
      [{ maxNgramOrder: 2.5 }, /`options.maxNgramOrder`/],
    ]
    for (const [options, message] of bad) expect(() => sentenceBleu('a', 'a', options)).toThrow(message)
    expect(() => sentenceBleu('a', 'a', 'fast' as never)).toThrow(/`options` to be an options object/)
  })
})

describe('corpusBleu', () => {
  const hyps = ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.']
  const streams = [
    ['The dog bit the man.', 'It was not unexpected.', 'The man bit him first.'],
    ['The dog had bit the man.', 'No one was surprised.', 'The man had bitten the dog.'],
  ]

  it("equals sacrebleu's corpus_bleu on its own test (48.530827009929865)", () => {
    const score = corpusBleu(hyps, streams)
    expect(relClose(score.value, 48.530827009929865)).toBe(true)
    expect(score.signature).toBe(`BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:${VERSION}`)
  })

  it('is the BLEU of the summed statistics', () => {
    const sums = new Array<number>(10).fill(0)
    hyps.forEach((h, i) => {
      const stats = bleuStats(
        h,
        streams.map((s) => s[i]!),
      )
      stats.forEach((x, j) => (sums[j]! += x))
    })
    expect(bleuFromStats(sums).value).toBe(corpusBleu(hyps, streams).value)
    expect(bleuFromStats(sums, { nrefs: 2 }).signature).toBe(corpusBleu(hyps, streams).signature)
  })

  it('drops null references and reports a varying reference count as nrefs:var', () => {
    const score = corpusBleu(
      ['a b c d', 'e f g h'],
      [
        ['a b c d', 'e f g h'],
        ['a b c x', null],
      ],
    )
    expect(parseSignature(score.signature).entries.get('nrefs')).toBe('var')
    expect(score.details.counts).toEqual([8, 6, 4, 2])
    expect(corpusBleu(['a b c d'], [['a b c d'], [null]]).value).toBe(corpusBleu(['a b c d'], [['a b c d']]).value)
  })

  it('collects unmatched n-grams across segments, distinct by text', () => {
    const score = corpusBleu(['a x', 'b x', 'c y'], [['a', 'b', 'c']])
    expect(score.details.unmatchedNgrams[0]).toEqual(['x', 'y'])
    expect(score.details.unmatchedNgrams[1]).toEqual(['a x', 'b x', 'c y'])
  })

  it('throws MetricInputError naming the argument', () => {
    expect(() => corpusBleu([], [[]])).toThrow(/corpusBleu: Expected `candidates` to be a non-empty array of strings/)
    expect(() => corpusBleu(['a', 1 as unknown as string], [['a', 'b']])).toThrow(/`candidates\[1\]` to be a string/)
    expect(() => corpusBleu(['a'], [])).toThrow(/`referenceStreams` to be a non-empty array/)
    expect(() => corpusBleu(['a', 'b'], [['a']])).toThrow(/`referenceStreams\[0\]` to be an array of 2 entries/)
    expect(() => corpusBleu(['a'], [[3 as unknown as string]])).toThrow(/`referenceStreams\[0\]\[0\]` to be a string or null/)
    expect(() => corpusBleu(['a', 'b'], [['a', null]])).toThrow(/`referenceStreams\[\*\]\[1\]` to be at least one non-null reference/)
  })
})

describe('bleuFromStats', () => {
  it("is sacrebleu's compute_bleu (its test_scoring vector)", () => {
    expect(relClose(bleuFromStats([11, 11, 9, 7, 5, 3, 10, 8, 6, 4], { smooth: 'none' }).value, 83.75922397086269)).toBe(true)
    expect(bleuFromStats([11, 11, 9, 7, 5, 3, 10, 8, 6, 4]).details.unmatchedNgrams).toEqual([[], [], [], []])
  })

  it('validates the vector against maxNgramOrder', () => {
    expect(() => bleuFromStats([1, 1, 1, 1])).toThrow(/bleuFromStats: Expected `stats` to be an array of 10 non-negative finite numbers/)
    expect(relClose(bleuFromStats([1, 1, 1, 1], { maxNgramOrder: 1 }).value, 100)).toBe(true)
    expect(() => bleuFromStats([1, 1, 1, -1], { maxNgramOrder: 1 })).toThrow(MetricInputError)
    expect(() => bleuFromStats([1, 1, 1, 1], { maxNgramOrder: 1, nrefs: 0 })).toThrow(/`options.nrefs`/)
  })
})

// ---------------------------------------------------------------------------------------------

const word = fc.stringMatching(/^[A-Za-z]{1,8}$/)
const sentence = (min: number) => fc.array(word, { minLength: min, maxLength: 30 }).map((ws) => ws.join(' '))
const anyText = fc.oneof(
  sentence(0),
  fc.string({ maxLength: 60 }),
  fc.array(fc.constantFrom('a', 'b', 'the', '.', ',', '5', '-', '(', ')', '&amp;', ' ', '\n', 'é', '😀', '日本'), { maxLength: 25 }).map((p) => p.join('')),
)
const options: fc.Arbitrary<BleuOptions> = fc.record(
  {
    tokenize: fc.constantFrom('13a', 'intl', 'char', 'none'),
    smooth: fc.constantFrom('exp', 'floor', 'add-k', 'none'),
    lowercase: fc.boolean(),
    effectiveOrder: fc.boolean(),
    maxNgramOrder: fc.integer({ min: 1, max: 6 }),
  },
  { requiredKeys: [] },
)

describe('BLEU properties', () => {
  it('scores a sentence of at least 4 tokens against itself 100', () => {
    fc.assert(
      fc.property(sentence(4), (s) => {
        expect(relClose(sentenceBleu(s, s).value, 100)).toBe(true)
        expect(relClose(sentenceBleu(s, [s, 'other words here']).value, 100)).toBe(true)
      }),
    )
  })

  it('stays within [0, 100] and reports consistent details', () => {
    fc.assert(
      fc.property(anyText, fc.array(anyText, { minLength: 1, maxLength: 3 }), options, (cand, refs, opts) => {
        const s = sentenceBleu(cand, refs, opts)
        expect(s.value).toBeGreaterThanOrEqual(0)
        expect(s.value).toBeLessThanOrEqual(100 + 1e-9)
        const d = s.details
        d.counts.forEach((c, i) => expect(c).toBeLessThanOrEqual(d.totals[i]!))
        expect(d.counts).toHaveLength(opts.maxNgramOrder ?? 4)
      }),
      { numRuns: 300 },
    )
  })

  it('corpus BLEU of one segment equals sentence BLEU with the same options', () => {
    fc.assert(
      fc.property(anyText, fc.array(anyText, { minLength: 1, maxLength: 3 }), options, fc.boolean(), (cand, refs, opts, eff) => {
        const o = { ...opts, effectiveOrder: eff }
        const sentence = sentenceBleu(cand, refs, o)
        const corpus = corpusBleu(
          [cand],
          refs.map((r) => [r]),
          o,
        )
        expect(corpus.value).toBe(sentence.value)
        expect(corpus.details.counts).toEqual(sentence.details.counts)
        expect(corpus.signature).toBe(sentence.signature)
      }),
      { numRuns: 300 },
    )
  })
})
