// Issue #27: a reference's tokens under each metric's own tokenizer (what the matchers use to refuse
// a reference that is blank after tokenising), and the core functions on such references: they keep
// computing what the reference implementations compute (a finite score, never NaN).
import { sentenceBleu } from '../../../src/generation/bleu.js'
import { sentenceChrf } from '../../../src/generation/chrf.js'
import { meteorScore } from '../../../src/generation/meteor.js'
import {
  bleuReferenceCheck,
  chrfReferenceCheck,
  invisibleCodePoints,
  isVisibleToken,
  METEOR_REFERENCE_CHECK,
  ROUGE_REFERENCE_CHECK,
  terReferenceCheck,
} from '../../../src/generation/reference-tokens.js'
import { rougeScore } from '../../../src/generation/rouge.js'
import { sentenceTer } from '../../../src/generation/ter/ter.js'
import { tokensTercom } from '../../../src/generation/ter/tokenizer-tercom.js'
import { BLEU_TOKENIZER_NAMES, getBleuTokenizer } from '../../../src/generation/tokenizers/index.js'
import { pyRstrip, pySplit } from '../../../src/text/python-string.js'

const BLANK_FOR_ROUGE = ['東京は日本の首都です', 'Η Αθήνα', 'القاهرة', '🎉 🚀', '\u200b', '\u3164', '. , !', 'café'.slice(3)]

describe('reference token checks', () => {
  it('ROUGE: a token is a lower-cased a-z/0-9 run (Python lower() included)', () => {
    for (const text of BLANK_FOR_ROUGE) expect(ROUGE_REFERENCE_CHECK.hasToken(text)).toBe(false)
    for (const text of ['Tokyo', '東京 2024', '\u212a', 'İ']) expect(ROUGE_REFERENCE_CHECK.hasToken(text)).toBe(true)
  })

  it('invisible (default-ignorable) characters are no token; whitespace never is', () => {
    expect(isVisibleToken('\u200b\u200d\u2060\ufeff\u3164\u00ad')).toBe(false)
    expect(isVisibleToken('\u200ba')).toBe(true)
    expect(invisibleCodePoints('a\u200b \u3164\u3164')).toBe('U+200B, U+3164')
    for (const check of [
      bleuReferenceCheck('13a'),
      bleuReferenceCheck('char'),
      chrfReferenceCheck(false),
      chrfReferenceCheck(true),
      METEOR_REFERENCE_CHECK,
      terReferenceCheck({}),
    ]) {
      expect(check.hasToken('\u200b \u3164')).toBe(false)
      expect(check.hasToken('東京')).toBe(true)
      expect(check.hasToken('\u200bx')).toBe(true)
    }
  })

  it("BLEU uses the option's tokenizer (13a drops <skipped>), an unknown one falls back to 13a", () => {
    expect(bleuReferenceCheck('13a').hasToken('<skipped>')).toBe(false)
    expect(bleuReferenceCheck('none').hasToken('<skipped>')).toBe(true)
    expect(bleuReferenceCheck('bogus').tokenizer).toBe("sacrebleu's '13a' tokenizer")
  })

  it('TER: noPunct deletes punctuation (and CJK punctuation with asianSupport)', () => {
    expect(terReferenceCheck({ noPunct: true }).hasToken('. , ? ( )')).toBe(false)
    expect(terReferenceCheck({}).hasToken('. , ? ( )')).toBe(true)
    expect(terReferenceCheck({ noPunct: true }).hasToken('「。」')).toBe(true)
    expect(terReferenceCheck({ noPunct: true, asianSupport: true }).hasToken('。')).toBe(false)
  })
})

describe('the fast checks equal "a visible token" of the tokenizers themselves', () => {
  const TRICKY = [
    '',
    ' ',
    'a',
    '<skipped>',
    ' <skipped> \u200b ',
    '<ski<skipped>pped>',
    '-\n',
    '-\n-\n',
    'x-\n',
    '\u200b-\n\u200b',
    '&quot;',
    '\u0001\u007f',
    '\u001c\u001d',
    '\ufeff',
    '\u00ad\u034f',
    '\ud83d\ude80',
    '\udb40\udc20',
    '東京',
    '「。」',
    '\n-\n-',
    '. , ( )',
    'İ',
  ]
  it.each(TRICKY)('%j', (text) => {
    const visible = (tokens: readonly string[]) => tokens.some(isVisibleToken)
    for (const name of BLEU_TOKENIZER_NAMES) expect([name, bleuReferenceCheck(name).hasToken(text)]).toEqual([name, visible(getBleuTokenizer(name).tokens(pyRstrip(text)))])
    expect(METEOR_REFERENCE_CHECK.hasToken(text)).toBe(visible(pySplit(text)))
    expect(chrfReferenceCheck(false).hasToken(text)).toBe(visible(pySplit(text)))
    for (const normalized of [false, true]) {
      for (const noPunct of [false, true]) {
        for (const asianSupport of [false, true]) {
          const settings = { normalized, noPunct, asianSupport, caseSensitive: false }
          expect([settings, terReferenceCheck(settings).hasToken(text)]).toEqual([settings, visible(tokensTercom(normalized ? pyRstrip(text) : text, settings))])
        }
      }
    }
  })
})

describe('the core functions on references blank after tokenising: finite, as the reference implementations', () => {
  it.each(BLANK_FOR_ROUGE)('%j', (text) => {
    const values = [
      rougeScore(text, text).rougeL?.value,
      rougeScore(text, text).rougeLsum?.value,
      rougeScore(text, text).rouge2?.value,
      meteorScore(text, text).value,
      sentenceBleu(text, text).value,
      sentenceChrf(text, text).value,
      sentenceTer(text, text, { noPunct: true }).score,
    ]
    for (const value of values) expect(Number.isFinite(value)).toBe(true)
    expect(rougeScore(text, text).rougeL?.value).toBe(0)
  })
})
