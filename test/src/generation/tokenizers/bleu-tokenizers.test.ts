import fc from 'fast-check'
import { MetricInputError } from '../../../../src/errors.js'
import {
  BLEU_TOKENIZER_NAMES,
  getBleuTokenizer,
  tokenize13a,
  tokenizeChar,
  tokenizeIntl,
  tokenizeNone,
  type BleuTokenizerName,
} from '../../../../src/generation/tokenizers/index.js'
import { spans13a, tokens13a } from '../../../../src/generation/tokenizers/tokenizer-13a.js'
import { PIECES_13A } from './pieces-13a.js'
import { intlCategory } from '../../../../src/generation/tokenizers/tokenizer-intl.js'
import { isPyWhitespaceUnit, spanTokens, whitespaceSpans } from '../../../../src/generation/tokenizers/spans.js'
import { pyIsSpace, pyIsSpaceCode, pySplit } from '../../../../src/text/python-string.js'
import { loadFixture } from '../../../parity/fixtures/load.js'

describe('13a tokenizer', () => {
  // the examples of the golden README §5a (sacrebleu 2.6.0 outputs)
  it.each([
    ["It was 28.4 BLEU (p<0.05), the U.S. model's best.", "It was 28.4 BLEU ( p < 0.05 ) , the U . S . model's best ."],
    ['x[i]=y{j}+z; $5 at 3:45 1,000.50 10-20', 'x [ i ] = y { j } + z ; $ 5 at 3 : 45 1,000.50 10 - 20'],
    ['“Attention,” it’s 92.4 % — done…', '“Attention , ” it’s 92.4 % — done…'],
  ])('%j', (input, expected) => {
    expect(tokenize13a(input)).toBe(expected)
    expect(tokens13a(input)).toEqual(expected.split(' '))
  })

  it('removes <skipped> and "-\\n", turns newlines into spaces and unescapes entities sequentially', () => {
    expect(tokenize13a('a <skipped> b')).toBe('a b')
    expect(tokenize13a('line-\nbreak and\nnext')).toBe('linebreak and next')
    expect(tokenize13a('&amp;lt; &quot;x&quot; &gt;')).toBe('< " x " >')
  })

  it('splits . and , unless between digits on that side, and - after a digit', () => {
    expect(tokenize13a('3.14, 1,5 a.b 5-6 a-b')).toBe('3.14 , 1,5 a . b 5 - 6 a-b')
    // a leading period follows the padding space, a non-digit, so it splits off even before a digit
    expect(tokenize13a('.5 5. ..')).toBe('. 5 5 . . .')
  })

  it('treats only Python whitespace as separators (U+0085 and U+001C split; U+FEFF does not)', () => {
    expect(tokenize13a('a\u0085b\u001cc\u2028d')).toBe('a b c d')
    expect(tokenize13a('a\uFEFFb')).toBe('a\uFEFFb')
  })

  it('gives the same tokens in its one-pass form as the four regex passes (random strings)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES_13A), { maxLength: 14 }), (parts) => {
        const text = parts.join('')
        expect(tokens13a(text).join(' ')).toBe(tokenize13a(text))
      }),
      { numRuns: 20_000 },
    )
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (text) => {
        expect(tokens13a(text).join(' ')).toBe(tokenize13a(text))
      }),
      { numRuns: 5_000 },
    )
  })

  it('reports spans into the rewritten line', () => {
    const spans = spans13a('a &amp; b.')
    expect(spans.source).toBe('a & b.')
    expect(spanTokens(spans)).toEqual(['a', '&', 'b', '.'])
  })
})

describe('intl tokenizer', () => {
  it('follows the README examples', () => {
    expect(tokenizeIntl('&amp;')).toBe('& amp ;')
    expect(tokenizeIntl('it’s')).toBe('it ’ s')
    expect(tokenizeIntl('at 3:45')).toBe('at 3:45')
    expect(tokenizeIntl('it’s 3:45 &amp; 92%')).toBe('it ’ s 3:45 & amp ; 92%')
  })

  it('pads symbols and splits punctuation next to non-numbers', () => {
    expect(tokenizeIntl('x+y=z, 1.5 €3')).toBe('x + y = z , 1.5 € 3')
    expect(tokenizeIntl('日本語、テスト。')).toBe('日本語 、 テスト 。')
  })

  it('uses the Unicode 15.0 tables of sacrebleu, not the newer ones of the runtime', () => {
    // U+1F6DC (Unicode 15.0, So) is a symbol; U+2FFC (15.1) is unassigned for sacrebleu
    expect(tokenizeIntl('a\u{1F6DC}b')).toBe('a \u{1F6DC} b')
    expect(tokenizeIntl('a\u2FFCb')).toBe('a\u2FFCb')
    // U+1B4E (16.0, Po) is not punctuation for sacrebleu
    expect(tokenizeIntl('a\u1B4Eb')).toBe('a\u1B4Eb')
    // U+10D40/U+10D41 (16.0, Nd) are not numbers for sacrebleu: the period between them splits off
    expect(tokenizeIntl('\u{10D40}.\u{10D41}')).toBe('\u{10D40} . \u{10D41}')
    expect(tokenizeIntl('1.2')).toBe('1.2')
  })

  it('classifies every code point as Unicode 15.0 does (General_Category P, S, N)', () => {
    const table = loadFixture<{ P: Array<[number, number]>; S: Array<[number, number]>; N: Array<[number, number]> }>('unicode-15.0-gc-psn.json')
    const expected = new Uint8Array(0x110000)
    const codes = { P: 1, S: 2, N: 3 } as const
    for (const cat of ['P', 'S', 'N'] as const) {
      for (const [first, last] of table[cat]) expected.fill(codes[cat], first, last + 1)
    }
    const wrong: string[] = []
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      const cat = intlCategory(String.fromCodePoint(cp))
      const got = cat === null ? 0 : codes[cat]
      if (got !== expected[cp] && wrong.length < 20) wrong.push(`U+${cp.toString(16).toUpperCase()}: ${cat} vs ${expected[cp]}`)
    }
    expect(wrong).toEqual([])
  })
})

describe('char and none tokenizers', () => {
  it('char joins every code point with a space, whitespace included', () => {
    expect(tokenizeChar('ab c')).toBe('a b   c')
    expect(tokenizeChar('a😀b')).toBe('a 😀 b')
    expect(getBleuTokenizer('char').tokens('a😀 b\u2028c')).toEqual(['a', '😀', 'b', 'c'])
  })

  it('none is the identity; its tokens are Python split()', () => {
    expect(tokenizeNone(' Hello,  world.\u0085')).toBe(' Hello,  world.\u0085')
    expect(getBleuTokenizer('none').tokens(' Hello,  world.\u0085x')).toEqual(['Hello,', 'world.', 'x'])
  })
})

describe('getBleuTokenizer', () => {
  it('returns the four tokenizers, whose tokens and spans agree with splitting their output', () => {
    const text = 'The U.S. model’s 28.4-BLEU (p<0.05) — “great”… &amp; 日本語 😀\u00a0x'
    for (const name of BLEU_TOKENIZER_NAMES) {
      const t = getBleuTokenizer(name)
      expect(t.name).toBe(name)
      expect(t.tokens(text)).toEqual(pySplit(t.tokenize(text)))
      expect(spanTokens(t.spans(text))).toEqual(pySplit(t.tokenize(text)))
    }
  })

  it('whitespace spans equal pySplit on random strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\t', '\u0085', '\u00a0', '\u3000', '\u001d', '\uFEFF', '😀'), maxLength: 20 }), (text) => {
        expect(spanTokens(whitespaceSpans(text))).toEqual(pySplit(text))
      }),
    )
  })

  it('throws MetricInputError for an unknown name', () => {
    expect(() => getBleuTokenizer('ja-mecab' as BleuTokenizerName)).toThrow(MetricInputError)
    expect(() => getBleuTokenizer('ja-mecab' as BleuTokenizerName)).toThrow(
      /getBleuTokenizer: Expected `name` to be one of '13a', 'intl', 'char', 'none', 'zh', got `"ja-mecab"` \(string\)/,
    )
  })
})

describe('Python whitespace by code', () => {
  it('pyIsSpaceCode and isPyWhitespaceUnit agree with pyIsSpace on every BMP unit and a few astral code points', () => {
    const wrong: number[] = []
    for (let c = 0; c <= 0xffff; c++) {
      const expected = c >= 0xd800 && c <= 0xdfff ? false : pyIsSpace(String.fromCharCode(c))
      if (pyIsSpaceCode(c) !== expected || isPyWhitespaceUnit(c) !== expected) wrong.push(c)
    }
    expect(wrong).toEqual([])
    for (const c of [0x10000, 0x1f600, 0xe0020, 0x10ffff]) expect(pyIsSpaceCode(c)).toBe(false)
  })
})
