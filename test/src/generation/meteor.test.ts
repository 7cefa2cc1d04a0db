import fc from 'fast-check'
import { meteorScore, pythonPow, singleMeteorScore } from '../../../src/generation/meteor.js'
import { MetricInputError } from '../../../src/errors.js'
import { parseSignature } from '../../../src/signature.js'
import { VERSION } from '../../../src/version.js'

const ISSUE_REFERENCE = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
const ISSUE_CANDIDATE = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'

const pairsOf = (s: ReturnType<typeof meteorScore>) => s.details.matches.pairs.map((p) => [p.candidate, p.reference, p.stage])

describe('meteorScore', () => {
  it("gives the issue's example 0.8737244897959183", () => {
    const score = meteorScore(ISSUE_CANDIDATE, ISSUE_REFERENCE)
    expect(score.metric).toBe('METEOR')
    expect(score.value).toBe(0.8737244897959183)
    const d = score.details
    expect(d).toMatchObject({
      candidateLength: 16,
      referenceLength: 16,
      chunks: 2,
      bestReferenceIndex: 0,
      referenceScores: [0.8737244897959183],
      unmatchedCandidate: ['their', '41.0'],
      unmatchedReference: ['the', '28.4'],
    })
    expect(d.matches).toMatchObject({ exact: 14, stem: 0, synonym: 0 })
    expect(d.precision).toBe(14 / 16)
    expect(d.recall).toBe(14 / 16)
    expect(d.fragmentation).toBe(2 / 14)
    expect(d.penalty).toBeCloseTo(0.5 * (2 / 14) ** 3, 15)
    expect(score.value).toBe((1 - d.penalty) * d.fmean)
  })

  it('records every setting in the signature', () => {
    expect(meteorScore('a', 'a').signature).toBe(`METEOR|pre:lower|stem:porter|syn:wordnet-3.0|alpha:0.9|beta:3|gamma:0.5|version:${VERSION}`)
    const sig = parseSignature(meteorScore('a', 'a', { synonyms: false, stemmer: false, alpha: 0.5, beta: 2, gamma: 0.25 }).signature)
    expect(Object.fromEntries(sig.entries)).toEqual({
      pre: 'lower',
      stem: 'none',
      syn: 'none',
      alpha: '0.5',
      beta: '2',
      gamma: '0.25',
      version: VERSION,
    })
  })

  it('splits on Python whitespace, keeps punctuation attached and lower-cases like str.lower()', () => {
    // U+0085 and U+001F separate words in Python, U+FEFF does not
    expect(meteorScore('a\u0085b\u001fc', ['a', 'b', 'c']).details.candidateLength).toBe(3)
    expect(meteorScore('a\uFEFFb', 'x').details.candidateLength).toBe(1)
    expect(meteorScore('the task.', 'the task').details.matches.exact).toBe(1)
    // KELVIN SIGN lower-cases to k; final sigma is decided per token, as NLTK lower-cases each token
    expect(meteorScore('\u212A', 'k').details.matches.exact).toBe(1)
    expect(meteorScore('ΟΔΟΣ', 'οδος').details.matches.exact).toBe(1)
    expect(meteorScore('ΟΔΟΣ', 'οδοσ').details.matches.exact).toBe(0)
    expect(meteorScore('The CAT', [['the', 'cat']]).value).toBe(meteorScore('the cat', 'THE Cat').value)
  })

  it('aligns each candidate word, from last to first, with the last free equal reference word', () => {
    // i=2 'the' takes ref 1, i=1 'cat' ref 2, i=0 'the' ref 0
    const s = meteorScore('the cat the', 'the the cat')
    expect(pairsOf(s)).toEqual([
      [0, 0, 'exact'],
      [1, 2, 'exact'],
      [2, 1, 'exact'],
    ])
    expect(s.details.chunks).toBe(3)
  })

  it('matches Porter stems after exact words, then WordNet synonyms of the stems', () => {
    const s = meteorScore('he runs a fast service', 'he running a quick service')
    expect(s.details.matches).toMatchObject({ exact: 3, stem: 1, synonym: 1 })
    expect(pairsOf(s)).toEqual([
      [0, 0, 'exact'],
      [1, 1, 'stem'],
      [2, 2, 'exact'],
      [3, 3, 'synonym'],
      [4, 4, 'exact'],
    ])
    expect(s.details.matches.pairs[1]).toMatchObject({ candidateToken: 'runs', referenceToken: 'running' })
    expect(s.details.chunks).toBe(1)
  })

  it('finds no synonym for large/big after stemming, but does with the stemmer off', () => {
    expect(meteorScore('a large house', 'a big house').details.matches.synonym).toBe(0)
    expect(meteorScore('a large house', 'a big house', { stemmer: false }).details.matches.synonym).toBe(1)
    expect(meteorScore('a fast car', 'a quick car', { synonyms: false }).details.matches.synonym).toBe(0)
  })

  it("consults only the candidate word's synonyms", () => {
    // went → go through verb.exc, so 'go' is in the set of 'went'; 'went' is in no synset of 'go'
    expect(meteorScore('went', 'go').details.matches.synonym).toBe(1)
    expect(meteorScore('go', 'went').details.matches.synonym).toBe(0)
    expect(meteorScore('better', 'good').details.matches.synonym).toBe(1)
    expect(meteorScore('good', 'better').details.matches.synonym).toBe(0)
  })

  it('takes the maximum over references, reporting the first best one', () => {
    const s = meteorScore('the cat sat', ['a dog ran', 'the cat sat', 'the cat sat'])
    expect(s.details.bestReferenceIndex).toBe(1)
    expect(s.details.referenceScores).toEqual([0, s.value, s.value])
    expect(s.value).toBe(singleMeteorScore('the cat sat', 'the cat sat').value)
    // token-array references
    expect(meteorScore(['the', 'cat'], [['a'], ['the', 'cat']]).details.bestReferenceIndex).toBe(1)
  })

  it('scores 0 with chunks 0 for empty sides or no match (NLTK ZeroDivisionError → 0.0)', () => {
    for (const [c, r] of [
      ['', 'a b'],
      ['a b', ''],
      ['', ''],
      ['   ', 'a'],
      ['x y', 'a b'],
    ]) {
      const s = meteorScore(c as string, r as string)
      expect(s.value).toBe(0)
      expect(s.details).toMatchObject({ chunks: 0, fmean: 0, penalty: 0, fragmentation: 0 })
      expect(Number.isNaN(s.details.precision) || Number.isNaN(s.details.recall)).toBe(false)
    }
  })

  it('applies alpha, beta and gamma as in the formula', () => {
    // 3 of 4 candidate words match 3 of 5 reference words in 2 chunks
    const c = 'a b c z'
    const r = 'a b y c w'
    const P = 3 / 4
    const R = 3 / 5
    for (const [alpha, beta, gamma] of [
      [0.9, 3, 0.5],
      [0.5, 1, 0],
      [0, 2, 1],
      [1, 3, 0.5],
    ] as const) {
      const s = meteorScore(c, r, { alpha, beta, gamma })
      expect(s.details.chunks).toBe(2)
      const fmean = (P * R) / (alpha * P + (1 - alpha) * R)
      expect(s.value).toBeCloseTo((1 - gamma * (2 / 3) ** beta) * fmean, 14)
    }
  })

  it('bounds the unmatched token lists', () => {
    const words = Array.from({ length: 100 }, (_, i) => `w${i}`)
    const s = meteorScore(words, 'nothing in common')
    expect(s.details.unmatchedCandidate).toHaveLength(25)
    expect(s.details.unmatchedReference).toEqual(['nothing', 'in', 'common'])
  })

  it('gives the same result for long texts (hash matching) as the pairwise rule implies', () => {
    // 120 × 120 words takes the O(H+R) path; each word repeated 3 times to exercise "last free" order
    const base = Array.from({ length: 40 }, (_, i) => `t${i}`)
    const candidate = [...base, ...base, ...base]
    const reference = [...base, ...base, ...base].reverse()
    const s = meteorScore(candidate, [reference])
    expect(s.details.matches.exact).toBe(120)
    // candidate i (from last) takes the last free equal reference position: mirrored pairs
    for (const p of s.details.matches.pairs) {
      expect(reference[p.reference]).toBe(candidate[p.candidate])
    }
    const lastT39 = s.details.matches.pairs.find((p) => p.candidate === 119)
    expect(lastT39?.reference).toBe(80) // reversed: t39 sits at 0, 40, 80; the last is taken first
  })

  it('rejects bad arguments with MetricInputError', () => {
    expect(() => meteorScore('a', [])).toThrow('meteorScore: Expected `references` to be at least one reference')
    expect(() => meteorScore(5 as never, 'a')).toThrow(MetricInputError)
    expect(() => meteorScore(['a', 3] as never, 'a')).toThrow('meteorScore: Expected `candidate[1]` to be a token string')
    expect(() => meteorScore('a', [['a'], 7] as never)).toThrow('`references[1]`')
    expect(() => meteorScore('a', 'a', { alpha: 2 })).toThrow('`options.alpha` to be a number in [0, 1]')
    expect(() => meteorScore('a', 'a', { beta: Number.NaN })).toThrow('`options.beta`')
    expect(() => meteorScore('a', 'a', { gamma: -1 })).toThrow('`options.gamma`')
    expect(() => meteorScore('a', 'a', { synonyms: 'yes' as never })).toThrow('`options.synonyms` to be a boolean')
    expect(() => singleMeteorScore('a', 3 as never)).toThrow('singleMeteorScore: Expected `reference`')
  })

  it('keeps its invariants on random inputs', () => {
    const vocabulary = ['the', 'The', 'cat', 'cats', 'sat', 'sits', 'fast', 'quick', 'big', 'large', 'on', 'mat', 'a', 'task.', 'run', 'running']
    const sentence = fc.array(fc.constantFrom(...vocabulary), { maxLength: 12 })
    fc.assert(
      fc.property(sentence, fc.array(sentence, { minLength: 1, maxLength: 3 }), (c, refs) => {
        const s = meteorScore(c, refs)
        expect(s.value).toBeGreaterThanOrEqual(0)
        expect(s.value).toBeLessThanOrEqual(1)
        expect(s.value).toBe(Math.max(...s.details.referenceScores))
        expect(
          meteorScore(
            c.join(' '),
            refs.map((r) => r.join(' ')),
          ).value,
        ).toBe(s.value)
        const { pairs } = s.details.matches
        const m = pairs.length
        expect(m).toBe(s.details.matches.exact + s.details.matches.stem + s.details.matches.synonym)
        expect(new Set(pairs.map((p) => p.reference)).size).toBe(m)
        for (let k = 1; k < m; k++) expect((pairs[k] as { candidate: number }).candidate).toBeGreaterThan((pairs[k - 1] as { candidate: number }).candidate)
        expect(s.details.chunks).toBeLessThanOrEqual(m)
        if (m > 0) expect(s.details.chunks).toBeGreaterThan(0)
      }),
      { numRuns: 300, seed: 20250101 },
    )
  })
})

describe('pythonPow', () => {
  it('returns the correctly rounded integer power where V8 ** is one ulp off (values from CPython 3.11)', () => {
    expect(pythonPow(3 / 13, 3)).toBe(0.012289485662266729)
    // V8's ** gives 0.01228948566226673, 0.5787037037037037, 0.07233796296296297, 0.09831588529813384 here
    expect(pythonPow(5 / 6, 3)).toBe(0.5787037037037038)
    expect(pythonPow(5 / 12, 3)).toBe(0.07233796296296298)
    expect(pythonPow(6 / 13, 3)).toBe(0.09831588529813383)
    expect(pythonPow(7 / 9, 3)).toBe(0.4705075445816187)
    expect(pythonPow(2 / 14, 3)).toBe(0.0029154518950437313)
    expect(pythonPow(0.5, 3)).toBe(0.125)
    expect(pythonPow(1, 3)).toBe(1)
    expect(pythonPow(0, 3)).toBe(0)
    expect(pythonPow(0.3, 2.5)).toBe(0.3 ** 2.5)
  })
})
