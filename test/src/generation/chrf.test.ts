import fc from 'fast-check'
import { MetricInputError } from '../../../src/errors.js'
import { chrfFromStats, chrfStats, corpusChrf, sentenceChrf, type ChrfOptions } from '../../../src/generation/chrf.js'
import { VERSION } from '../../../src/version.js'

const REFERENCE = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
const CANDIDATE = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'

function relClose(a: number, b: number, tol = 1e-9): boolean {
  return a === b || Math.abs(a - b) <= tol * Math.max(Math.abs(a), Math.abs(b))
}

describe('sentenceChrf', () => {
  it("gives the issue's example value (sacrebleu 88.90607187878506)", () => {
    const score = sentenceChrf(CANDIDATE, REFERENCE)
    expect(relClose(score.value, 88.90607187878506)).toBe(true)
    expect(score.metric).toBe('chrF2')
    expect(score.signature).toBe(`chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:${VERSION}`)
    expect(score.details.bestReference).toBe(0)
    expect(score.details.orders).toHaveLength(6)
    expect(score.details.effectiveOrder).toBe(6)
  })

  it('names chrF++ and the other settings like sacrebleu', () => {
    const pp = sentenceChrf(CANDIDATE, REFERENCE, { wordOrder: 2 })
    expect(relClose(pp.value, 87.86690297378766)).toBe(true)
    expect(pp.metric).toBe('chrF2++')
    expect(pp.signature).toBe(`chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:${VERSION}`)
    expect(pp.details.orders.map((o) => `${o.kind}${o.n}`)).toEqual(['char1', 'char2', 'char3', 'char4', 'char5', 'char6', 'word1', 'word2'])
    const other = sentenceChrf(CANDIDATE, [REFERENCE, 'x'], { beta: 3, epsSmoothing: true, lowercase: true, keepWhitespace: true, charOrder: 4, wordOrder: 1 })
    expect(other.metric).toBe('chrF3+')
    expect(other.signature).toBe(`chrF3+|nrefs:2|case:lc|eff:no|nc:4|nw:1|space:yes|version:${VERSION}`)
  })

  it('removes Python whitespace only and counts code points', () => {
    // U+0085, U+2028 and U+001C are Python whitespace; U+FEFF is not (JS \s would say the opposite)
    expect(chrfStats('a\u0085b\u2028c\u001cd', 'abcd')).toEqual(chrfStats('abcd', 'abcd'))
    expect(chrfStats('a\uFEFFb', 'ab', { charOrder: 1 })).toEqual([3, 2, 2])
    // an emoji is one character
    expect(chrfStats('😀', '😀', { charOrder: 2 })).toEqual([1, 1, 1, 0, 0, 0])
    // keepWhitespace keeps every character
    expect(chrfStats('a b', 'a b', { charOrder: 1, keepWhitespace: true })).toEqual([3, 3, 3])
  })

  it("splits one ASCII punctuation character off a word's end, else off its start (chrF++ words)", () => {
    // words of '(hi) x.' are '(hi', ')', 'x', '.'; of 'hi x' are 'hi', 'x'
    const stats = chrfStats('(hi) x.', 'hi x', { charOrder: 0, wordOrder: 1 })
    expect(stats).toEqual([4, 2, 1])
    expect(chrfStats('(hi', 'hi', { charOrder: 0, wordOrder: 1 })).toEqual([2, 1, 1])
    // a lone astral character is one character long, so it is not split
    expect(chrfStats('😀', '😀', { charOrder: 0, wordOrder: 1 })).toEqual([1, 1, 1])
  })

  it('does not count candidate n-grams of an order the reference lacks', () => {
    expect(chrfStats('abcdef', 'ab', { charOrder: 3 })).toEqual([6, 2, 2, 5, 1, 1, 0, 0, 0])
  })

  it('keeps the reference with the highest F, the first on ties', () => {
    const score = sentenceChrf('the cat sat', ['a dog ran', 'the cat sat', 'the cat sat'])
    expect(score.details.bestReference).toBe(1)
    expect(relClose(score.value, 100)).toBe(true)
    expect(sentenceChrf('abc', ['xyz', 'uvw']).details.bestReference).toBe(0)
  })

  it('lowercases with Python str.lower() when asked', () => {
    expect(relClose(sentenceChrf('HELLO WORLD', 'hello world', { lowercase: true }).value, 100)).toBe(true)
    expect(sentenceChrf('HELLO', 'hello').value).toBe(0)
  })

  it('throws MetricInputError naming the argument', () => {
    expect(() => sentenceChrf(null as unknown as string, 'a')).toThrow(/sentenceChrf: Expected `candidate` to be a string, got `null`/)
    expect(() => sentenceChrf('a', [])).toThrow(/`references` to be a string or a non-empty array of strings/)
    expect(() => sentenceChrf('a', [undefined as unknown as string])).toThrow(/`references\[0\]` to be a string/)
    const bad: Array<[ChrfOptions, RegExp]> = [
      [{ charOrder: -1 }, /`options.charOrder`/],
      [{ charOrder: 1.5 }, /`options.charOrder`/],
      [{ wordOrder: 'two' as never }, /`options.wordOrder`/],
      [{ charOrder: 0, wordOrder: 0 }, /`options.charOrder` to be positive when wordOrder is 0/],
      [{ beta: -2 }, /`options.beta`/],
      [{ epsSmoothing: 1 as never }, /`options.epsSmoothing`/],
      [{ lowercase: 'no' as never }, /`options.lowercase`/],
      [{ keepWhitespace: null as never }, /`options.keepWhitespace`/],
    ]
    for (const [options, message] of bad) expect(() => sentenceChrf('a', 'a', options)).toThrow(message)
    expect(() => chrfFromStats([1, 2])).toThrow(/chrfFromStats: Expected `stats` to be an array of 18/)
    expect(() => chrfFromStats([1, 1, 1], { charOrder: 1, nrefs: 'some' as never })).toThrow(MetricInputError)
  })
})

describe('corpusChrf', () => {
  it('sums the best-reference statistics of the segments, then computes one F', () => {
    const hyps = ['the cat sat on the mat', 'a quick brown fox', 'hello']
    const streams = [
      ['a dog', 'the quick brown fox', 'goodbye'],
      ['the cat sat on the mat!', null, 'hello there'],
    ]
    const sums = new Array<number>(18).fill(0)
    hyps.forEach((h, i) => {
      const refs = streams.map((s) => s[i]).filter((r): r is string => r !== null)
      chrfStats(h, refs).forEach((x, j) => (sums[j]! += x))
    })
    const corpus = corpusChrf(hyps, streams)
    expect(corpus.value).toBe(chrfFromStats(sums).value)
    expect(corpus.details.stats).toEqual(sums)
    expect(corpus.details.bestReferences).toEqual([1, 0, 1])
    expect(corpus.signature).toBe(`chrF2|nrefs:var|case:mixed|eff:yes|nc:6|nw:0|space:no|version:${VERSION}`)
  })

  it("equals sacrebleu's own keep-whitespace test (67.34816062977241)", () => {
    const score = corpusChrf(
      ['Die Beziehung zwischen Obama und Netanjahu ist nicht gerade freundlich.'],
      [['Das Verhältnis zwischen Obama und Netanyahu ist nicht gerade freundschaftlich.']],
      { beta: 3, keepWhitespace: true },
    )
    expect(relClose(score.value, 67.34816062977241)).toBe(true)
  })

  it('throws MetricInputError for malformed streams', () => {
    expect(() => corpusChrf(['a'], [['a', 'b']])).toThrow(/corpusChrf: Expected `referenceStreams\[0\]` to be an array of 1 entries/)
    expect(() => corpusChrf(['a'], [[null]])).toThrow(/at least one non-null reference/)
  })
})

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.array(fc.constantFrom('the', 'cat', 'a', '(x)', 'y.', ',', ' ', '\u2028', 'é', '😀', 'ΣΑΣ'), { maxLength: 12 }).map((p) => p.join(' ')),
)
const options: fc.Arbitrary<ChrfOptions> = fc.record(
  {
    charOrder: fc.integer({ min: 1, max: 6 }),
    wordOrder: fc.integer({ min: 0, max: 2 }),
    beta: fc.constantFrom(1, 2, 3),
    epsSmoothing: fc.boolean(),
    lowercase: fc.boolean(),
    keepWhitespace: fc.boolean(),
  },
  { requiredKeys: [] },
)

describe('chrF properties', () => {
  it('scores a text with a non-whitespace character against itself 100 (without ε smoothing)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim().length > 0),
        (s) => {
          expect(relClose(sentenceChrf(s, s).value, 100)).toBe(true)
        },
      ),
    )
  })

  it('stays within [0, 100]; corpus chrF of one segment equals sentence chrF', () => {
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 3 }), options, (cand, refs, opts) => {
        const s = sentenceChrf(cand, refs, opts)
        expect(s.value).toBeGreaterThanOrEqual(0)
        expect(s.value).toBeLessThanOrEqual(100 + 1e-9)
        const c = corpusChrf(
          [cand],
          refs.map((r) => [r]),
          opts,
        )
        expect(c.value).toBe(s.value)
        expect(c.details.bestReferences).toEqual([s.details.bestReference])
      }),
      { numRuns: 300 },
    )
  })
})
