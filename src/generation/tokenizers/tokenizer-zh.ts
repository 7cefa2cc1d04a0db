import { pySplit, pyStrip } from '../../text/python-string.js'
import { whitespaceSpans, type SpanBuffer, type TokenSpans } from './spans.js'

/**
 * The code point ranges sacrebleu's `zh` tokenizer treats as Chinese (inclusive), as its code
 * behaves. Two entries of its table are written `'\u20000'`–`'\u2a6d6'` and `'\u2f800'`–`'\u2fa1d'`
 * (meant as Ext-B and the compatibility supplement), which Python reads as two-character strings;
 * compared with one character they act as U+2001–U+2A6D and U+2F81–U+2FA1. So general punctuation,
 * currency, letterlike symbols, arrows, maths, enclosed alphanumerics, box drawing … are split like
 * ideographs, while Ext-B and emoji are not.
 */
const CHINESE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x3400, 0x4db5],
  [0x4e00, 0x9fa5],
  [0x9fa6, 0x9fbb],
  [0xf900, 0xfa2d],
  [0xfa30, 0xfa6a],
  [0xfa70, 0xfad9],
  [0x2001, 0x2a6d], // the '\u20000'…'\u2a6d6' quirk
  [0x2f81, 0x2fa1], // the '\u2f800'…'\u2fa1d' quirk
  [0xff00, 0xffef],
  [0x2e80, 0x2eff],
  [0x3000, 0x303f],
  [0x31c0, 0x31ef],
  [0x2f00, 0x2fdf],
  [0x2ff0, 0x2fff],
  [0x3100, 0x312f],
  [0x31a0, 0x31bf],
  [0xfe10, 0xfe1f],
  [0xfe30, 0xfe4f],
  [0x2600, 0x26ff],
  [0x2700, 0x27bf],
  [0x3200, 0x32ff],
  [0x3300, 0x33ff],
]

/** Whether sacrebleu's `zh` tokenizer pads this code point with spaces. */
export function isZhSplitCodePoint(code: number): boolean {
  // nothing below U+2001 or in the astral planes is in the table
  if (code < 0x2001 || code > 0xffef) return false
  for (const [lo, hi] of CHINESE_RANGES) if (code >= lo && code <= hi) return true
  return false
}

// sacrebleu's `TokenizerRegexp` (13a's rules without 13a's string rewriting and padding).
const PAD_SYMBOL = /([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])/g
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/g
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/g
const DASH_AFTER_DIGIT = /([0-9])(-)/g

/**
 * sacrebleu 2.6.0's `zh` BLEU tokenizer, written from its description: Python `strip()`, a space on
 * each side of every "Chinese" code point ({@link isZhSplitCodePoint}: CJK ideographs and Ext-A,
 * compatibility ideographs, full-width forms U+FF00–FFEF, CJK punctuation U+3000–303F, radicals,
 * strokes, bopomofo, enclosed CJK, and through the range quirk also U+2001–U+2A6D; not kana, hangul,
 * Ext-B or emoji), then 13a's regex rules (pad mteval symbols, split `.`/`,` unless between ASCII
 * digits, split `-` after a digit) with no extra padding, and whitespace collapsed.
 *
 * Parity: equals sacrebleu 2.6.0 `TokenizerZh` on the 60 golden strings and the zh BLEU tokenizations.
 *
 * @example
 * tokenizeZh('这是一个测试，包含ASCII words和数字123。') // → '这 是 一 个 测 试 ， 包 含 ASCII words 和 数 字 123 。'
 */
export function tokenizeZh(text: string): string {
  let line = ''
  for (const ch of pyStrip(text)) {
    line += isZhSplitCodePoint(ch.codePointAt(0)!) ? ` ${ch} ` : ch
  }
  line = line.replace(PAD_SYMBOL, ' $1 ')
  line = line.replace(PERIOD_COMMA_AFTER_NON_DIGIT, '$1 $2 ')
  line = line.replace(PERIOD_COMMA_BEFORE_NON_DIGIT, ' $1 $2')
  line = line.replace(DASH_AFTER_DIGIT, '$1 $2 ')
  return pySplit(line).join(' ')
}

/** The `zh` tokens of `text`. */
export function tokensZh(text: string): string[] {
  return pySplit(tokenizeZh(text))
}

/** The `zh` tokens as spans of the tokenized string. */
export function spansZh(text: string, into?: SpanBuffer): TokenSpans {
  return whitespaceSpans(tokenizeZh(text), into)
}
