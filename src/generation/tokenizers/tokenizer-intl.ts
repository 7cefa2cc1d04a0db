import { pySplit } from '../../text/python-string.js'
import { whitespaceSpans, type SpanBuffer, type TokenSpans } from './spans.js'

/*
 * sacrebleu's `intl` tokenizer uses the Python `regex` module, whose tables (regex 2022.10.31) are
 * Unicode 15.0. V8 takes `\p{…}` from its ICU, which is newer (Node 20.20 ships ICU 78 = Unicode 17.0).
 * Comparing every code point of Unicode 15.0's UnicodeData.txt with Node's `\p{P}`, `\p{S}`, `\p{N}`
 * shows no category change for any character assigned in 15.0; the only differences are the
 * characters assigned later (15.1–17.0), which are unassigned (Cn) for sacrebleu. They are listed
 * here and taken out of P and S and put into "not N". (U+2FFC is the 15.1 example of the golden README.)
 * A runtime with a Unicode newer than 17.0 could add more; the all-code-point test in
 * test/src/generation/tokenizers/bleu-tokenizers.test.ts would then fail and name them.
 */
/** Punctuation (gc P) assigned after Unicode 15.0. */
const P_AFTER_15 = '\\u1B4E-\\u1B4F\\u1B7F\\u{10D6E}\\u{10ED0}\\u{113D4}-\\u{113D5}\\u{113D7}-\\u{113D8}\\u{11BE1}\\u{16D6D}-\\u{16D6F}\\u{1E5FF}'
/** Symbols (gc S) assigned after Unicode 15.0. */
const S_AFTER_15 =
  '\\u20C1\\u2427-\\u2429\\u2B96\\u2FFC-\\u2FFF\\u31E4-\\u31E5\\u31EF\\uFBC3-\\uFBD2\\uFD90-\\uFD91\\uFDC8-\\uFDCE' +
  '\\u{10D8E}-\\u{10D8F}\\u{10ED1}-\\u{10ED8}\\u{1CC00}-\\u{1CCEF}\\u{1CCFA}-\\u{1CCFC}\\u{1CD00}-\\u{1CEB3}' +
  '\\u{1CEBA}-\\u{1CED0}\\u{1CEE0}-\\u{1CEF0}\\u{1F6D8}\\u{1F777}-\\u{1F77A}\\u{1F8B2}-\\u{1F8BB}\\u{1F8C0}-\\u{1F8C1}' +
  '\\u{1F8D0}-\\u{1F8D8}\\u{1FA54}-\\u{1FA57}\\u{1FA89}-\\u{1FA8A}\\u{1FA8E}-\\u{1FA8F}\\u{1FABE}\\u{1FAC6}\\u{1FAC8}' +
  '\\u{1FACD}\\u{1FADC}\\u{1FADF}\\u{1FAE9}-\\u{1FAEA}\\u{1FAEF}\\u{1FBCB}-\\u{1FBEF}\\u{1FBFA}'
/** Numbers (gc N) assigned after Unicode 15.0. */
const N_AFTER_15 =
  '\\u{10D40}-\\u{10D49}\\u{116D0}-\\u{116E3}\\u{11BF0}-\\u{11BF9}\\u{11DE0}-\\u{11DE9}\\u{16130}-\\u{16139}' +
  '\\u{16D70}-\\u{16D79}\\u{16FF4}-\\u{16FF6}\\u{1CCF0}-\\u{1CCF9}\\u{1E5F1}-\\u{1E5FA}'

// One code point each, with the `u` flag. No class subtraction without the `v` flag, hence the lookaheads.
const PUNCT = `(?:(?![${P_AFTER_15}])\\p{P})`
const SYMBOL = `(?:(?![${S_AFTER_15}])\\p{S})`
const NOT_NUMBER = `[\\P{N}${N_AFTER_15}]`
const NUMBER = `(?:(?![${N_AFTER_15}])\\p{N})`

const PUNCT_AFTER_NON_NUMBER = new RegExp(`(${NOT_NUMBER})(${PUNCT})`, 'gu')
const PUNCT_BEFORE_NON_NUMBER = new RegExp(`(${PUNCT})(${NOT_NUMBER})`, 'gu')
const SYMBOL_ANY = new RegExp(SYMBOL, 'gu')

const IS_PUNCT = new RegExp(`^${PUNCT}$`, 'u')
const IS_SYMBOL = new RegExp(`^${SYMBOL}$`, 'u')
const IS_NUMBER = new RegExp(`^${NUMBER}$`, 'u')

/**
 * The General_Category major class (`P`, `S`, `N`, or `null` for anything else) that the `intl`
 * tokenizer sees for one code point, i.e. Unicode 15.0's. Exposed for the all-code-point table test.
 * @internal
 */
export function intlCategory(ch: string): 'P' | 'S' | 'N' | null {
  if (IS_PUNCT.test(ch)) return 'P'
  if (IS_SYMBOL.test(ch)) return 'S'
  if (IS_NUMBER.test(ch)) return 'N'
  return null
}

function applyIntl(text: string): string {
  let line = text.replace(PUNCT_AFTER_NON_NUMBER, '$1 $2 ')
  line = line.replace(PUNCT_BEFORE_NON_NUMBER, ' $1 $2')
  return line.replace(SYMBOL_ANY, ' $& ')
}

/** The `intl` token spans of `text` (over the rewritten line). */
export function spansIntl(text: string, into?: SpanBuffer): TokenSpans {
  return whitespaceSpans(applyIntl(text), into)
}

/** The `intl` tokens of `text` (the `split()` of {@link tokenizeIntl}). */
export function tokensIntl(text: string): string[] {
  return pySplit(applyIntl(text))
}

/**
 * sacrebleu's `intl` tokenizer (`TokenizerV14International`, mteval-v14 `--international-tokenization`),
 * written from its description (golden README §5a):
 *
 * 1. `(\P{N})(\p{P})` → `\1 \2 ` (punctuation after a non-number);
 * 2. `(\p{P})(\P{N})` → ` \1 \2` (punctuation before a non-number);
 * 3. `(\p{S})` → ` \1 ` (every symbol);
 * 4. collapse Python whitespace.
 *
 * Each rule is one left-to-right pass of non-overlapping matches over code points. No `<skipped>`,
 * `-\n` or HTML-entity handling. Categories are Unicode 15.0's (the `regex` 2022.10.31 tables sacrebleu
 * ran with), not the runtime's newer ones: characters assigned after 15.0 count as unassigned.
 *
 * Parity: equals sacrebleu 2.6.0 `TokenizerV14International` on every golden `tokenized.intl` string.
 *
 * @param text one segment
 * @returns the tokens joined by single spaces
 * @example
 * tokenizeIntl('it’s 3:45 &amp; 92%') // → 'it ’ s 3:45 & amp ; 92 %'
 */
export function tokenizeIntl(text: string): string {
  return tokensIntl(text).join(' ')
}
