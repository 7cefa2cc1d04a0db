import { pySplit } from '../../text/python-string.js'

// mteval-v13a's language-independent symbols: { | } ~ [ \ ] ^ _ ` ! " # $ % & ( ) * + / : ; < = > ? @.
// sacrebleu's class also contains the space; padding a space only adds whitespace that the final
// split removes and never changes what the later rules see, so it is left out (fewer replacements).
const PAD_SYMBOL = /[\x21-\x26\x28-\x2b\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g
// `[0-9]` is ASCII only, as in Python's `re` (Unicode digits are "non-digits" here).
// Matching UTF-16 units instead of code points gives the same output: the rules only insert spaces
// next to ASCII characters, never between the two halves of a surrogate pair.
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/g
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/g
const DASH_AFTER_DIGIT = /([0-9])(-)/g

/**
 * The 13a tokens of `text` (the `split()` of {@link tokenize13a}), without building the joined string.
 * Used by BLEU, which splits the tokenizer output anyway.
 */
export function tokens13a(text: string): string[] {
  let line = text
  // sacrebleu's Tokenizer13a, step by step; `includes` first because most lines need none of these
  if (line.includes('<skipped>')) line = line.replaceAll('<skipped>', '')
  if (line.includes('-\n')) line = line.replaceAll('-\n', '')
  if (line.includes('\n')) line = line.replaceAll('\n', ' ')
  if (line.includes('&')) {
    // sequential, so `&amp;lt;` ends as `<` exactly as in sacrebleu
    line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
  }
  line = ` ${line} `
  line = line.replace(PAD_SYMBOL, ' $& ')
  line = line.replace(PERIOD_COMMA_AFTER_NON_DIGIT, '$1 $2 ')
  line = line.replace(PERIOD_COMMA_BEFORE_NON_DIGIT, ' $1 $2')
  line = line.replace(DASH_AFTER_DIGIT, '$1 $2 ')
  return pySplit(line)
}

/**
 * sacrebleu's default BLEU tokenizer `13a` (mteval-v13a.pl), written from its description
 * (golden README §5a), not ported:
 *
 * 1. remove every `<skipped>` and every `-\n`, then turn each `\n` into a space;
 * 2. unescape `&quot;` `&amp;` `&lt;` `&gt;`, in that order (so `&amp;lt;` becomes `<`);
 * 3. pad `{ | } ~ [ \ ] ^ _` `` ` `` `! " # $ % & ( ) * + / : ; < = > ? @` with spaces
 *    (not `'`, `-`, `.`, `,`, letters, digits or anything non-ASCII);
 * 4. split `.` and `,` off unless they sit between ASCII digits on that side
 *    (`([^0-9])([.,])`, then `([.,])([^0-9])`), and split `-` after an ASCII digit;
 * 5. collapse Python whitespace (`" ".join(line.split())`).
 *
 * It does not `rstrip` or lowercase: BLEU does both before calling it.
 *
 * Parity: equals sacrebleu 2.6.0 `Tokenizer13a` on every golden `tokenized['13a']` string.
 *
 * @param text one segment
 * @returns the tokens joined by single spaces
 * @example
 * tokenize13a('It was 28.4 BLEU (p<0.05), the U.S. model\'s best.')
 * // → "It was 28.4 BLEU ( p < 0.05 ) , the U . S . model's best ."
 */
export function tokenize13a(text: string): string {
  return tokens13a(text).join(' ')
}
