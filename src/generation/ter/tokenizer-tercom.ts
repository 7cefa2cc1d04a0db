import { pyLower } from '../../text/python-lower.js'
import { pySplit } from '../../text/python-string.js'

/** The four switches of sacrebleu's `TercomTokenizer`, in this library's spelling. */
export interface TercomSettings {
  /** Tercom's normalisation (XML unescaping, punctuation split, `'s`, numbers). */
  readonly normalized: boolean
  /** Delete `.,?:;!"()` (and, with `asianSupport`, CJK and full-width punctuation). */
  readonly noPunct: boolean
  /** Split CJK characters and punctuation (character splitting only when `normalized`). */
  readonly asianSupport: boolean
  /** Keep case; otherwise Python `lower()` first. */
  readonly caseSensitive: boolean
}

// mteval's symbol class, as Tercom's normaliser writes it: { | } ~ [ \ ] ^ _ ` space ! " # $ % & ( ) * + : ; < = > ? @ /
const WESTERN_PUNCT = /([\x7b-\x7e\x5b-\x60\x20-\x26\x28-\x2b\x3a-\x40\x2f])/g
// `[0-9]` is ASCII only, as in Python's `re`.
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/g
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/g
const DASH_AFTER_DIGIT = /([0-9])(-)/g

// CJK blocks split to single characters. The last range is U+3200–U+3F22 in sacrebleu's code
// (its comment says 3200–32FF); the code is what produced the reference numbers.
const CJK_IDEOGRAPHS = /([\u4e00-\u9fff\u3400-\u4dbf])/g
const CJK_STROKES_RADICALS = /([\u31c0-\u31ef\u2e80-\u2eff])/g
const CJK_COMPATIBILITY = /([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])/g
const CJK_ENCLOSED_QUIRK = /([\u3200-\u3f22])/g
const ASIAN_PUNCT = /([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])/g
const FULL_WIDTH_PUNCT = /([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])/g
const WESTERN_REMOVED = /[.,?:;!"()]/g

/** Tercom's language-independent and Western normalisation (sacrebleu `_normalize_general_and_western`). */
function normalizeGeneralAndWestern(text: string): string {
  let s = text.replaceAll('\n-', '').replaceAll('\n', ' ')
  // sequential, so `&amp;lt;` ends as `<`
  s = s.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
  s = ` ${s} `
  s = s.replace(WESTERN_PUNCT, ' $1 ')
  s = s.replace(/'s /g, " 's ")
  // Python's `$` also matches before a final "\n"; none is left after the line joining above
  s = s.replace(/'s$/, " 's")
  s = s.replace(PERIOD_COMMA_AFTER_NON_DIGIT, '$1 $2 ')
  s = s.replace(PERIOD_COMMA_BEFORE_NON_DIGIT, ' $1 $2')
  return s.replace(DASH_AFTER_DIGIT, '$1 $2 ')
}

/**
 * Tercom's Asian normalisation (sacrebleu `_normalize_asian`). sacrebleu's three kana rules are left
 * out on purpose: they are written `(^|^[…])…(?=$|^[…])`, so they can only match at the very start
 * of the string, which after the padding above is always a space; they never change anything.
 */
function normalizeAsian(text: string): string {
  return text
    .replace(CJK_IDEOGRAPHS, ' $1 ')
    .replace(CJK_STROKES_RADICALS, ' $1 ')
    .replace(CJK_COMPATIBILITY, ' $1 ')
    .replace(CJK_ENCLOSED_QUIRK, ' $1 ')
    .replace(ASIAN_PUNCT, ' $1 ')
    .replace(FULL_WIDTH_PUNCT, ' $1 ')
}

/**
 * sacrebleu 2.6.0's `TercomTokenizer` (TER's only tokenizer), written from its description:
 *
 * 1. an empty string stays empty; Python `lower()` unless `caseSensitive`;
 * 2. with `normalized`: drop `\n-`, `\n` → space, unescape `&quot; &amp; &lt; &gt;` in that order,
 *    pad with spaces, pad the mteval symbols, ` 's ` for `'s`, split `.`/`,` unless between ASCII
 *    digits, split `-` after a digit; then, with `asianSupport` too, pad CJK ideographs, strokes,
 *    radicals, compatibility characters, U+3200–U+3F22, and CJK / full-width punctuation;
 * 3. with `noPunct`: delete `.,?:;!"()`, and with `asianSupport` the CJK and full-width
 *    punctuation (this part applies even without `normalized`);
 * 4. collapse Python whitespace to single spaces and trim.
 *
 * TER calls it on `rstrip()`-ed text and splits the result on spaces.
 *
 * Parity: equals sacrebleu 2.6.0 `TercomTokenizer(**kwargs)(s.rstrip())` on every golden string
 * (155 TER cases × 9 settings).
 *
 * @example
 * tokenizeTercom("The dog's bone, 3.5 kg.", { normalized: true, noPunct: false, asianSupport: false, caseSensitive: false })
 * // → "the dog 's bone , 3.5 kg ."
 */
export function tokenizeTercom(text: string, settings: TercomSettings): string {
  return pySplit(normalizeTercom(text, settings)).join(' ')
}

/** Steps 1–3 of {@link tokenizeTercom}: the text before whitespace is collapsed. */
function normalizeTercom(text: string, settings: TercomSettings): string {
  if (text.length === 0) return ''
  let s = settings.caseSensitive ? text : pyLower(text)
  if (settings.normalized) {
    s = normalizeGeneralAndWestern(s)
    if (settings.asianSupport) s = normalizeAsian(s)
  }
  if (settings.noPunct) {
    s = s.replace(WESTERN_REMOVED, '')
    if (settings.asianSupport) s = s.replace(ASIAN_PUNCT, '').replace(FULL_WIDTH_PUNCT, '')
  }
  return s
}

/**
 * The TER tokens of `text`: `tokenizeTercom(text).split()`, split once (the tokens hold no
 * whitespace, so joining and splitting again gives the same list).
 */
export function tokensTercom(text: string, settings: TercomSettings): string[] {
  return pySplit(normalizeTercom(text, settings))
}
