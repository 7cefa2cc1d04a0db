import fc from 'fast-check'
import { MetricInputError } from '../../../src/errors.js'
import {
  DEFAULT_ROUGE_TYPES,
  MISSED_TOKENS_LIMIT,
  lcsIndices,
  lcsLength,
  rougeL,
  rougeLsum,
  rougeN,
  rougeScore,
  rougeSignature,
  unionLcsIndices,
  type RougeType,
} from '../../../src/generation/rouge.js'
import { parseSignature } from '../../../src/signature.js'
import { VERSION } from '../../../src/version.js'

const prf = (precision: number, recall: number) => ({
  precision,
  recall,
  fmeasure: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0,
})

describe('rougeScore', () => {
  describe('hand-computed values', () => {
    // cand: the cat sat on the mat / ref: the cat is on the mat
    const result = rougeScore('The cat sat on the mat.', 'The cat is on the mat.')

    it('rouge1: clipped unigram overlap 5 of 6', () => {
      expect(result.rouge1?.details).toMatchObject({ ...prf(5 / 6, 5 / 6), candidateCount: 6, referenceCount: 6, matchCount: 5 })
      expect(result.rouge1?.value).toBe(result.rouge1?.details.fmeasure)
      expect(result.rouge1?.details.missedReferenceTokens).toEqual(['is'])
    })

    it('rouge2: 3 of 5 bigrams', () => {
      expect(result.rouge2?.details).toMatchObject({ ...prf(3 / 5, 3 / 5), candidateCount: 5, referenceCount: 5, matchCount: 3 })
      expect(result.rouge2?.details.missedReferenceTokens).toEqual(['cat is', 'is on'])
      expect(result.rouge2?.details.missedReferenceTokenCount).toBe(2)
    })

    it('rougeL: LCS "the cat on the mat"', () => {
      expect(result.rougeL?.details).toMatchObject({ ...prf(5 / 6, 5 / 6), matchCount: 5 })
      expect(result.rougeL?.details.missedReferenceTokens).toEqual(['is'])
    })

    it('rougeLsum equals rougeL on one line', () => {
      expect(result.rougeLsum?.value).toBe(result.rougeL?.value)
    })

    it('counts repeated n-grams only as often as the candidate has them', () => {
      const r = rougeScore('the the the', 'the the cat', { types: ['rouge1', 'rouge2'] })
      expect(r.rouge1?.details).toMatchObject(prf(2 / 3, 2 / 3))
      expect(r.rouge2?.details).toMatchObject(prf(1 / 2, 1 / 2))
      expect(r.rouge2?.details.missedReferenceTokens).toEqual(['the cat'])
    })

    it('precision is over the candidate, recall over the reference', () => {
      const r = rougeScore('testing', 'testing one two', { types: ['rouge1'] })
      expect(r.rouge1?.details).toMatchObject({ precision: 1, recall: 1 / 3, fmeasure: 0.5 })
    })
  })

  it("gives the issue's ROUGE-L F 0.8421052631578947 with and without stemming", () => {
    const reference = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
    const candidate = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'
    for (const stemmer of [true, false]) {
      const r = rougeScore(candidate, reference, { types: ['rougeL'], stemmer })
      expect(r.rougeL?.value).toBe(0.8421052631578947)
      expect(r.rougeL?.details).toMatchObject({ matchCount: 16, candidateCount: 19, referenceCount: 19 })
      expect(r.rougeL?.details.missedReferenceTokens).toEqual(['the', '28', '4'])
    }
  })

  it('stems only when asked (rouge-score default use_stemmer=False)', () => {
    expect(rougeScore('he runs', 'he running', { types: ['rouge1'] }).rouge1?.value).toBe(0.5)
    expect(rougeScore('he runs', 'he running', { types: ['rouge1'], stemmer: true }).rouge1?.value).toBe(1)
    expect(rougeScore('he runs', 'he running', { types: ['rouge1'], stemmer: true }).rouge1?.details.stemmer).toBe(true)
  })

  describe('multiple references', () => {
    it('keeps, per type, the reference with the highest F', () => {
      const r = rougeScore('text first', ['first text', 'first something'], { types: ['rouge1', 'rouge2', 'rougeL'] })
      expect(r.rouge1?.details.bestReferenceIndex).toBe(0)
      expect(r.rouge1?.value).toBe(1)
      expect(r.rouge2?.value).toBe(0)
      expect(r.rougeL?.value).toBe(0.5)
      expect(r.rougeL?.details.perReference).toEqual([prf(0.5, 0.5), prf(0.5, 0.5)])
    })

    it('takes the first reference on ties', () => {
      const r = rougeScore('a b c', ['a x y', 'b z w', 'a b c'], { types: ['rouge1'] })
      expect(r.rouge1?.details.bestReferenceIndex).toBe(2)
      const tie = rougeScore('a b c', ['b q r', 'a x y'], { types: ['rouge1'] })
      expect(tie.rouge1?.details.bestReferenceIndex).toBe(0)
    })

    it('can pick different references for different types', () => {
      const r = rougeScore('a b c d', ['d c b a', 'a b x y'], { types: ['rouge1', 'rouge2'] })
      expect(r.rouge1?.details.bestReferenceIndex).toBe(0)
      expect(r.rouge2?.details.bestReferenceIndex).toBe(1)
      expect(r.rouge2?.details.missedReferenceTokens).toEqual(['b x', 'x y'])
    })

    it('treats an empty reference as scoring 0', () => {
      const r = rougeScore('a b', ['', 'a c'], { types: ['rougeL'] })
      expect(r.rougeL?.details.perReference[0]).toEqual(prf(0, 0))
      expect(r.rougeL?.details.bestReferenceIndex).toBe(1)
    })
  })

  describe('rougeLsum', () => {
    it('splits on "\\n" only and unions the LCS of each reference line over candidate lines', () => {
      const r = rougeScore('w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5', 'w1 w2 w3 w4 w5', { types: ['rougeLsum', 'rougeL'] })
      expect(r.rougeLsum?.details).toMatchObject({ precision: 0.4, recall: 0.8, matchCount: 4 })
      expect(r.rougeLsum?.details.missedReferenceTokens).toEqual(['w4'])
      // the whole-text LCS w1 w2 w3 w5 happens to be as long here
      expect(r.rougeL?.details).toMatchObject({ precision: 0.4, recall: 0.8, matchCount: 4 })
    })

    it('sees sentence order only across "\\n" lines', () => {
      const swapped = rougeScore('Second sentence.\nFirst sentence.', 'First sentence.\nSecond sentence.', { types: ['rougeL', 'rougeLsum'] })
      expect(swapped.rougeLsum?.value).toBe(1)
      expect(swapped.rougeL?.value).toBe(0.5)
      // \r is a token separator, not a line break
      const cr = rougeScore('Second sentence.\rFirst sentence.', 'First sentence.\rSecond sentence.', { types: ['rougeLsum'] })
      expect(cr.rougeLsum?.value).toBe(0.5)
    })

    it('clips union hits by the token counts of both sides', () => {
      // both candidate lines' LCS with the reference line use the single 'a'
      const r = rougeScore('a\na', 'a', { types: ['rougeLsum'] })
      expect(r.rougeLsum?.details).toMatchObject({ precision: 0.5, recall: 1, matchCount: 1 })
    })

    it('records split:newline in its signature', () => {
      expect(rougeScore('a', 'a', { types: ['rougeLsum'] }).rougeLsum?.signature).toBe(`ROUGE-Lsum|tok:rouge-default|stem:no|split:newline|version:${VERSION}`)
    })
  })

  describe('degenerate inputs score 0, like rouge-score', () => {
    it.each([
      ['empty candidate', '', 'testing one two'],
      ['empty reference', 'testing one two', ''],
      ['both empty', '', ''],
      ['whitespace-only candidate', ' \n\t ', 'testing'],
      ['non-ASCII-only candidate', '机器学习', 'machine learning'],
      ['punctuation-only candidate', '/', 'w1 w2'],
    ])('%s', (_name, candidate, reference) => {
      const r = rougeScore(candidate, reference)
      for (const type of DEFAULT_ROUGE_TYPES) {
        expect(r[type]?.value, type).toBe(0)
        expect(r[type]?.details.precision, type).toBe(0)
        expect(r[type]?.details.recall, type).toBe(0)
        expect(Number.isNaN(r[type]?.value)).toBe(false)
      }
    })

    it('lists the reference tokens as missed when the candidate is empty', () => {
      const r = rougeScore('', 'testing one two')
      expect(r.rougeL?.details.missedReferenceTokens).toEqual(['testing', 'one', 'two'])
      expect(r.rougeLsum?.details.missedReferenceTokens).toEqual(['testing', 'one', 'two'])
      expect(r.rouge1?.details.missedReferenceTokenCount).toBe(3)
    })

    it('has no bigrams in a one-word text (P = 0 / max(0, 1))', () => {
      expect(rougeScore('testing', 'testing', { types: ['rouge2'] }).rouge2?.details).toMatchObject({
        ...prf(0, 0),
        candidateCount: 0,
        referenceCount: 0,
      })
    })
  })

  it('bounds the missed-token list and still counts every miss', () => {
    const reference = Array.from({ length: 50 }, (_, i) => `w${i}`).join(' ')
    const r = rougeScore('w0', reference, { types: ['rougeL'] })
    expect(r.rougeL?.details.missedReferenceTokens.length).toBe(MISSED_TOKENS_LIMIT)
    expect(r.rougeL?.details.missedReferenceTokens[0]).toBe('w1')
    expect(r.rougeL?.details.missedReferenceTokenCount).toBe(49)
  })

  it('computes the four rouge-score types by default, and rouge3–rouge9 on request', () => {
    expect(Object.keys(rougeScore('a b c', 'a b c'))).toEqual(['rouge1', 'rouge2', 'rougeL', 'rougeLsum'])
    const r = rougeScore('a b c d', 'a b c x', { types: ['rouge3', 'rouge9'] })
    expect(r.rouge3?.details).toMatchObject(prf(1 / 2, 1 / 2))
    expect(r.rouge3?.metric).toBe('ROUGE-3')
    expect(r.rouge9?.value).toBe(0)
  })

  it('names metrics and signatures after the settings', () => {
    const r = rougeScore('a', 'a', { stemmer: true })
    expect(r.rouge1?.metric).toBe('ROUGE-1')
    expect(r.rouge2?.metric).toBe('ROUGE-2')
    expect(r.rougeL?.metric).toBe('ROUGE-L')
    expect(r.rougeLsum?.metric).toBe('ROUGE-Lsum')
    expect(r.rougeL?.signature).toBe(`ROUGE-L|tok:rouge-default|stem:yes|version:${VERSION}`)
    expect(rougeSignature('rouge1', false)).toBe(`ROUGE-1|tok:rouge-default|stem:no|version:${VERSION}`)
    expect(parseSignature(r.rougeLsum!.signature).entries.get('split')).toBe('newline')
  })

  it('stays correct after its shared token table is cleared', () => {
    // more distinct tokens than the table keeps: the next call starts a fresh table
    const huge = Array.from({ length: 210_000 }, (_, i) => `t${i}`).join(' ')
    expect(rougeScore('t5 t7', huge, { types: ['rouge1'] }).rouge1?.details.matchCount).toBe(2)
    const after = rougeScore('The cat sat on the mat.', 'The cat is on the mat.', { types: ['rouge2', 'rougeL'] })
    expect(after.rouge2?.details).toMatchObject(prf(3 / 5, 3 / 5))
    expect(after.rougeL?.details.missedReferenceTokens).toEqual(['is'])
  })

  describe('argument errors', () => {
    it.each([
      ['a non-string candidate', () => rougeScore(1 as unknown as string, 'x'), 'rougeScore: Expected `candidate` to be a string, got `1` (number)'],
      ['an empty reference list', () => rougeScore('x', []), 'Expected `references` to be a string or a non-empty array of strings, got `[]` (array)'],
      ['a non-string reference', () => rougeScore('x', ['a', 2 as unknown as string]), 'Expected `references[1]` to be a string, got `2` (number)'],
      ['references of the wrong type', () => rougeScore('x', 5 as unknown as string), 'Expected `references` to be a string or a non-empty array of strings'],
      ['an unknown type', () => rougeScore('x', 'x', { types: ['rougeX' as RougeType] }), "Expected `options.types[0]` to be one of 'rouge1'"],
      ['rouge0', () => rougeScore('x', 'x', { types: ['rouge1', 'rouge0' as RougeType] }), 'Expected `options.types[1]`'],
      ['rouge10', () => rougeScore('x', 'x', { types: ['rouge10' as RougeType] }), 'Expected `options.types[0]`'],
      ['an empty type list', () => rougeScore('x', 'x', { types: [] }), 'Expected `options.types` to be a non-empty array of ROUGE types'],
      ['a non-boolean stemmer', () => rougeScore('x', 'x', { stemmer: 'yes' as unknown as boolean }), 'Expected `options.stemmer` to be a boolean'],
      ['null options', () => rougeScore('x', 'x', null as unknown as object), 'Expected `options` to be an object'],
    ])('rejects %s', (_name, call, message) => {
      expect(call).toThrow(MetricInputError)
      expect(call).toThrow(message)
    })
  })

  describe('properties', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/)
    const separator = fc.constantFrom(' ', '  ', ', ', '. ', '\n', ' - ', '\t')
    const asciiText = fc
      .tuple(fc.array(word, { minLength: 1, maxLength: 25 }), fc.array(separator, { minLength: 25, maxLength: 25 }))
      .map(([words, seps]) => words.map((w, i) => (i === 0 ? w : `${seps[i - 1]}${w}`)).join(''))
    const anyText = fc.oneof(asciiText, fc.string({ maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 30 }))

    it('keeps every P, R and F in [0, 1]', () => {
      fc.assert(
        fc.property(anyText, fc.array(anyText, { minLength: 1, maxLength: 3 }), fc.boolean(), (candidate, references, stemmer) => {
          const r = rougeScore(candidate, references, { types: ['rouge1', 'rouge2', 'rouge3', 'rougeL', 'rougeLsum'], stemmer })
          for (const score of Object.values(r)) {
            for (const v of [score.value, score.details.precision, score.details.recall, score.details.fmeasure]) {
              expect(v).toBeGreaterThanOrEqual(0)
              expect(v).toBeLessThanOrEqual(1)
            }
          }
        }),
        { seed: 20250101, numRuns: 300 },
      )
    })

    it('gives F = 1 for identical non-empty ASCII text', () => {
      fc.assert(
        fc.property(asciiText, fc.boolean(), (text, stemmer) => {
          const r = rougeScore(text, text, { types: ['rouge1', 'rougeL', 'rougeLsum'], stemmer })
          expect(r.rouge1?.value).toBe(1)
          expect(r.rougeL?.value).toBe(1)
          expect(r.rougeLsum?.value).toBe(1)
        }),
        { seed: 7, numRuns: 200 },
      )
    })

    it('swapping candidate and reference swaps P and R', () => {
      fc.assert(
        fc.property(asciiText, asciiText, (a, b) => {
          const ab = rougeScore(a, b, { types: ['rouge1', 'rouge2', 'rougeL'] })
          const ba = rougeScore(b, a, { types: ['rouge1', 'rouge2', 'rougeL'] })
          for (const type of ['rouge1', 'rouge2', 'rougeL'] as const) {
            expect(ab[type]?.details.precision).toBe(ba[type]?.details.recall)
            expect(ab[type]?.details.recall).toBe(ba[type]?.details.precision)
          }
        }),
        { seed: 11, numRuns: 200 },
      )
    })

    it('rougeLsum equals rougeL when neither text has a newline', () => {
      const oneLine = asciiText.map((t) => t.replace(/\n/g, ' '))
      fc.assert(
        fc.property(oneLine, oneLine, (a, b) => {
          const r = rougeScore(a, b, { types: ['rougeL', 'rougeLsum'] })
          expect(r.rougeLsum?.details).toMatchObject(prf(r.rougeL!.details.precision, r.rougeL!.details.recall))
        }),
        { seed: 13, numRuns: 200 },
      )
    })

    it('the kernels agree with rougeScore on its tokens', () => {
      fc.assert(
        fc.property(asciiText, asciiText, (a, b) => {
          const tok = (s: string) => s.toLowerCase().match(/[a-z0-9]+/g) ?? []
          const r = rougeScore(a, b, { types: ['rouge2', 'rougeL'] })
          expect(rougeN(tok(a), tok(b), 2)).toEqual(prf(r.rouge2!.details.precision, r.rouge2!.details.recall))
          expect(rougeL(tok(a), tok(b)).fmeasure).toBe(r.rougeL?.value)
          expect(lcsLength(tok(a), tok(b))).toBe(r.rougeL?.details.matchCount)
        }),
        { seed: 17, numRuns: 100 },
      )
    })
  })
})

describe('ROUGE kernels on token lists', () => {
  it('rougeN / rougeL / rougeLsum take any tokens compared with ===', () => {
    expect(rougeN(['testing', 'one'], ['testing', 'one', 'two'], 2)).toEqual(prf(1, 0.5))
    expect(rougeL(['testing', 'two'], ['testing', 'one', 'two'])).toEqual(prf(1, 2 / 3))
    expect(
      rougeLsum(
        [
          [1, 2, 6, 7, 8],
          [1, 3, 8, 9, 5],
        ],
        [[1, 2, 3, 4, 5]],
      ),
    ).toEqual(prf(0.4, 0.8))
    expect(rougeL([], [1])).toEqual(prf(0, 0))
    expect(rougeLsum([], [[1]])).toEqual(prf(0, 0))
    expect(rougeLsum([[]], [[1]])).toEqual(prf(0, 0))
  })

  it("lcsIndices follows rouge-score's backtracking tie-break", () => {
    expect(lcsIndices([1, 2, 3, 4, 5], [2, 5, 3, 4])).toEqual([1, 2, 3])
    // two LCS of length 1: ['a'] and ['b']; moving up on ties keeps the earlier reference token
    expect(lcsIndices(['a', 'b'], ['b', 'a'])).toEqual([0])
    expect(lcsIndices([1, 2], [3])).toEqual([])
  })

  it('unionLcsIndices unions the per-line LCS indices', () => {
    expect(
      unionLcsIndices(
        [1, 2, 3, 4, 5],
        [
          [1, 2, 6, 7, 8],
          [1, 3, 8, 9, 5],
        ],
      ),
    ).toEqual([0, 1, 2, 4])
    expect(unionLcsIndices([1, 2], [])).toEqual([])
  })

  it('rejects bad arguments', () => {
    expect(() => rougeN([1], [1], 0)).toThrow('rougeN: Expected `n` to be a positive integer, got `0` (number)')
    expect(() => rougeN('ab' as unknown as string[], [], 1)).toThrow('Expected `candidateTokens` to be an array of tokens')
    expect(() => rougeL([], null as unknown as string[])).toThrow('Expected `referenceTokens` to be an array of tokens')
    expect(() => rougeLsum([['a'], 'b' as unknown as string[]], [])).toThrow('Expected `candidateLines[1]` to be an array of tokens')
    expect(() => lcsLength(1 as unknown as number[], [])).toThrow(MetricInputError)
    expect(() => lcsIndices([], {} as unknown as number[])).toThrow(MetricInputError)
    expect(() => unionLcsIndices([], 'x' as unknown as number[][])).toThrow(MetricInputError)
  })
})
