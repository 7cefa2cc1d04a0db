import fc from 'fast-check'
import { MetricInputError } from '../../../../src/errors.js'
import { PORTER_MODES, porterStem, porterStemNltkUncached, type PorterMode } from '../../../../src/generation/stemmers/porter.js'

describe('porterStem', () => {
  // NLTK 3.8 outputs (nltk / original / martin), from the golden porter_vocab notes.
  it.each([
    ['skies', 'sky', 'ski', 'ski'],
    ['dying', 'die', 'dy', 'dy'],
    ['news', 'news', 'new', 'new'],
    ['enjoy', 'enjoy', 'enjoi', 'enjoi'],
    ['fly', 'fli', 'fly', 'fly'],
    ['hopefully', 'hope', 'hopefulli', 'hopefulli'],
    ['geology', 'geolog', 'geologi', 'geologi'],
    ['analogy', 'analog', 'analogi', 'analog'],
    ['conditionally', 'condit', 'condition', 'condition'],
    ['is', 'is', 'i', 'is'],
    ['s', 's', '', 's'],
    ['permissibly', 'permiss', 'permissibli', 'permiss'],
  ])('%s → %s / %s / %s (nltk / original / martin)', (word, nltk, original, martin) => {
    expect(porterStem(word)).toBe(nltk)
    expect(porterStem(word, 'nltk')).toBe(nltk)
    expect(porterStem(word, 'original')).toBe(original)
    expect(porterStem(word, 'martin')).toBe(martin)
  })

  it.each([
    ['caresses', 'caress'],
    ['ponies', 'poni'],
    ['dies', 'die'],
    ['died', 'die'],
    ['spied', 'spi'],
    ['agreed', 'agre'],
    ['hopping', 'hop'],
    ['falling', 'fall'],
    ['filing', 'file'],
    ['relational', 'relat'],
    ['generalization', 'gener'],
    ['running', 'run'],
  ])('nltk: %s → %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem)
  })

  it('checks the irregular forms on the word as given, before lower-casing', () => {
    expect(porterStem('skies')).toBe('sky')
    expect(porterStem('Skies')).toBe('ski')
    expect(porterStem('SKIES')).toBe('ski')
    expect(porterStem('Dying')).toBe('dy')
  })

  it('lower-cases short words without stemming them, except in the original algorithm', () => {
    expect(porterStem('As')).toBe('as')
    expect(porterStem('As', 'martin')).toBe('as')
    expect(porterStem('As', 'original')).toBe('a')
    expect(porterStem('')).toBe('')
    expect(porterStem('', 'original')).toBe('')
  })

  it('keeps the case with lowercase: false (NLTK to_lowercase=False)', () => {
    expect(porterStem('I', 'nltk', { lowercase: false })).toBe('I')
    expect(porterStem('Github', 'nltk', { lowercase: false })).toBe('Github')
    expect(porterStem('Github')).toBe('github')
    expect(porterStem('RUNNING', 'nltk', { lowercase: false })).toBe('RUNNING')
  })

  it('counts code points, not UTF-16 units, as Python does', () => {
    // 2 code points (3 UTF-16 units): a short word, returned unstemmed
    expect(porterStem('\u{1F600}s')).toBe('\u{1F600}s')
    expect(porterStem('\u{1F600}s', 'original')).toBe('\u{1F600}')
    // a doubled supplementary-plane consonant is undoubled like 'abbing' → 'ab'
    expect(porterStem('abbing')).toBe('ab')
    expect(porterStem('a\u{1F600}\u{1F600}ing')).toBe('a\u{1F600}')
    // two different emoji sharing a high surrogate are not a double consonant
    expect(porterStem('a\u{1F600}\u{1F601}ing')).toBe('a\u{1F600}\u{1F601}')
  })

  it('treats digits, punctuation and non-ASCII letters as consonants', () => {
    expect(porterStem('28.4')).toBe('28.4')
    expect(porterStem('task.')).toBe('task.')
    expect(porterStem('cafés')).toBe('café')
  })

  it('is deterministic whatever the memo holds', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.constantFrom<PorterMode>(...PORTER_MODES), (word, mode) => {
        const first = porterStem(word, mode)
        expect(porterStem(word, mode)).toBe(first)
        expect(typeof first).toBe('string')
      }),
      { seed: 4242, numRuns: 300 },
    )
  })

  // every rule that appends letters (at → ate, *o → +e, eed → ee) first removed a longer suffix
  it('never lengthens a lower-case ASCII word', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{0,14}$/), fc.constantFrom<PorterMode>(...PORTER_MODES), (word, mode) => {
        expect(porterStem(word, mode).length).toBeLessThanOrEqual(word.length)
      }),
      { seed: 4243, numRuns: 500 },
    )
  })

  it('rejects bad arguments', () => {
    expect(() => porterStem(42 as unknown as string)).toThrow(MetricInputError)
    expect(() => porterStem(42 as unknown as string)).toThrow('porterStem: Expected `word` to be a string, got `42` (number)')
    expect(() => porterStem('word', 'lancaster' as PorterMode)).toThrow("Expected `mode` to be one of 'nltk', 'original', 'martin'")
    expect(() => porterStem('word', 'nltk', { lowercase: 'no' as unknown as boolean })).toThrow('Expected `options.lowercase` to be a boolean')
    expect(() => porterStem('word', 'toString' as PorterMode)).toThrow('Expected `mode` to be one of')
    expect(() => porterStem('word', 'nltk', null as unknown as object)).toThrow('Expected `options` to be an object')
  })
})

describe('porterStemNltkUncached (METEOR: no checks, no memo, a lower-case ASCII shortcut)', () => {
  it('equals porterStem(word) on irregular, short, upper-case, non-ASCII and ordinary words', () => {
    for (const word of [
      'skies',
      'Skies',
      'dying',
      'news',
      'is',
      'a',
      '',
      'running',
      'RUNNING',
      'hopefully',
      'café',
      'naïvely',
      '\u{1F600}s',
      'généralement',
      'relational',
      'a*ding',
    ]) {
      expect(porterStemNltkUncached(word)).toBe(porterStem(word))
    }
  })

  it('equals porterStem(word) on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.stringMatching(/^[a-zA-Z*.'-]{0,12}$/), fc.string({ maxLength: 12 })), (word) => {
        expect(porterStemNltkUncached(word)).toBe(porterStem(word))
      }),
      { numRuns: 2000 },
    )
  })
})
