import { MetricInputError } from '../../../../src/errors.js'
import { rougeDefaultTokenize, rougeRawTokens, rougeStemToken } from '../../../../src/generation/tokenizers/rouge-default.js'

describe('rougeDefaultTokenize', () => {
  it('lower-cases and keeps only ASCII letter/digit runs', () => {
    expect(rougeDefaultTokenize('It was 28.4 BLEU (p<0.05), the U.S. model’s best.')).toEqual([
      'it',
      'was',
      '28',
      '4',
      'bleu',
      'p',
      '0',
      '05',
      'the',
      'u',
      's',
      'model',
      's',
      'best',
    ])
    expect(rougeDefaultTokenize("don't English-to-German")).toEqual(['don', 't', 'english', 'to', 'german'])
  })

  it('treats every non-ASCII letter or digit as a separator', () => {
    expect(rougeDefaultTokenize('café naïve')).toEqual(['caf', 'na', 've'])
    expect(rougeDefaultTokenize('机器学习 Ελληνικά عربى')).toEqual([])
    expect(rougeDefaultTokenize('１２３ 123')).toEqual(['123'])
  })

  it('applies Python lower-casing before the ASCII filter', () => {
    // U+212A KELVIN SIGN lower-cases to ASCII k; İ to i + U+0307 (a separator)
    expect(rougeDefaultTokenize('300\u212A')).toEqual(['300k'])
    expect(rougeDefaultTokenize('\u0130stanbul')).toEqual(['i', 'stanbul'])
  })

  it('stems only tokens longer than 3 characters, with NLTK Porter', () => {
    expect(rougeDefaultTokenize('the friends had a meeting', true)).toEqual(['the', 'friend', 'had', 'a', 'meet'])
    // 'ies' and 'was' are 3 characters: left alone; 'skies' is stemmed lower-cased, so the pool applies
    expect(rougeDefaultTokenize('ies was Skies dies', true)).toEqual(['ies', 'was', 'sky', 'die'])
    expect(rougeDefaultTokenize('ies was Skies dies')).toEqual(['ies', 'was', 'skies', 'dies'])
  })

  it('splits on every separator, newlines included', () => {
    expect(rougeDefaultTokenize('one\n Two \nthree')).toEqual(['one', 'two', 'three'])
    expect(rougeDefaultTokenize('a\rb\tc\u2028d')).toEqual(['a', 'b', 'c', 'd'])
  })

  it('gives no tokens for empty or separator-only text', () => {
    expect(rougeDefaultTokenize('')).toEqual([])
    expect(rougeDefaultTokenize(' \n\t.,;')).toEqual([])
    expect(rougeDefaultTokenize('', true)).toEqual([])
  })

  it('exposes its raw and stemming steps', () => {
    expect(rougeRawTokens('Meeting rooms')).toEqual(['meeting', 'rooms'])
    expect(rougeStemToken('meeting')).toBe('meet')
    expect(rougeStemToken('ran')).toBe('ran')
  })

  it('rejects bad arguments', () => {
    expect(() => rougeDefaultTokenize(null as unknown as string)).toThrow(MetricInputError)
    expect(() => rougeDefaultTokenize('x', 'yes' as unknown as boolean)).toThrow('rougeDefaultTokenize: Expected `stemmer` to be a boolean')
  })
})
