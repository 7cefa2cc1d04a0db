import { pySplit } from '../../text/python-string.js'
import { isPyWhitespaceUnit, spanTokens, type TokenSpans } from './spans.js'

// mteval-v13a's language-independent symbols: { | } ~ [ \ ] ^ _ ` ! " # $ % & ( ) * + / : ; < = > ? @.
// sacrebleu's class also contains the space; padding a space only adds whitespace that the final
// split removes and never changes what the later rules see, so it is left out (fewer replacements).
const PAD_SYMBOL = /[\x21-\x26\x28-\x2b\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g
const PAD_SYMBOL_ONE = new RegExp(`^${PAD_SYMBOL.source}$`)
// `[0-9]` is ASCII only, as in Python's `re` (Unicode digits are "non-digits" here).
// Matching UTF-16 units instead of code points gives the same output: the rules only insert spaces
// next to ASCII characters, never between the two halves of a surrogate pair.
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/g
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/g
const DASH_AFTER_DIGIT = /([0-9])(-)/g

/** Steps 1–2 of 13a (string rewriting before the regex rules). */
function prepare13a(text: string): string {
  let line = text
  // `includes` first because most lines need none of these
  if (line.includes('<skipped>')) line = line.replaceAll('<skipped>', '')
  if (line.includes('-\n')) line = line.replaceAll('-\n', '')
  if (line.includes('\n')) line = line.replaceAll('\n', ' ')
  if (line.includes('&')) {
    // sequential, so `&amp;lt;` ends as `<` exactly as in sacrebleu
    line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
  }
  return line
}

/** The characters rule 3 pads (the class of PAD_SYMBOL), as a lookup table over ASCII. */
const SYMBOL_TABLE = new Uint8Array(128)
for (let c = 0; c < 128; c++) if (PAD_SYMBOL_ONE.test(String.fromCharCode(c))) SYMBOL_TABLE[c] = 1

/**
 * The token spans of 13a in one pass over the text, without the four regex passes.
 *
 * Why this is exact: the rules only insert spaces, so each token is a substring of the rewritten
 * line and only the break points matter. With `.`/`,` called P and m2(i)/m3(i) meaning "rule
 * `([^0-9])([.,])` / `([.,])([^0-9])` matched with P at i", the regex passes (leftmost,
 * non-overlapping, each on the previous output) reduce to:
 * - m2(i) ⇔ P at i, the unit before is not an ASCII digit (or i = 0: the padding space), and it was
 *   not consumed by m2(i-1) (a consumed left neighbour can only be a P matched just before);
 * - m3(i) ⇔ P at i, followed by a non-digit in rule 3's input (a space inserted by m2(i), the end,
 *   or a non-digit unit), and not consumed as the right neighbour of m3(i-1), which needs P at i-1
 *   with no space inserted between them (neither m2(i-1) nor m2(i));
 * - `([0-9])(-)` matches at every digit–hyphen pair (nothing is ever inserted between them and
 *   a hyphen cannot be consumed as a digit);
 * - breaks: around every padded symbol, around every P with m2 or m3, between such a digit and its
 *   hyphen and after that hyphen; whitespace separates as usual.
 * `tokenize13a` (the regex passes) and this function are checked against each other on random
 * strings of the characters involved, and both against the golden data.
 */
export function spans13a(text: string): TokenSpans {
  const line = prepare13a(text)
  const n = line.length
  const starts: number[] = []
  const ends: number[] = []
  let open = -1
  let before2 = -1 // unit at i-2 (-1: none)
  let before = -1 // unit at i-1
  let c = n > 0 ? line.charCodeAt(0) : -1
  let m2Prev = false
  let m2Cur = c === 46 || c === 44 // i = 0: the padding space precedes it
  let m3Prev = false
  for (let i = 0; i < n; i++) {
    const next = i + 1 < n ? line.charCodeAt(i + 1) : -1
    const cIsP = c === 46 || c === 44
    const nextIsP = next === 46 || next === 44
    const m2Next = nextIsP && !(c >= 48 && c <= 57) && !(cIsP && m2Cur)
    const m3: boolean = cIsP && (m2Cur || next < 0 || !(next >= 48 && next <= 57)) && !((before === 46 || before === 44) && !m2Cur && !m2Prev && m3Prev)
    if (isPyWhitespaceUnit(c)) {
      if (open >= 0) {
        starts.push(open)
        ends.push(i)
        open = -1
      }
    } else {
      if (open >= 0) {
        const split =
          (c < 128 && SYMBOL_TABLE[c] === 1) ||
          (before < 128 && SYMBOL_TABLE[before] === 1) ||
          m2Cur ||
          m2Prev ||
          m3 ||
          m3Prev ||
          (c === 45 && before >= 48 && before <= 57) ||
          (before === 45 && before2 >= 48 && before2 <= 57)
        if (split) {
          starts.push(open)
          ends.push(i)
          open = i
        }
      } else {
        open = i
      }
    }
    before2 = before
    before = c
    c = next
    m2Prev = m2Cur
    m2Cur = m2Next
    m3Prev = m3
  }
  if (open >= 0) {
    starts.push(open)
    ends.push(n)
  }
  return { source: line, starts, ends, count: starts.length }
}

/** The 13a tokens of `text` (the `split()` of {@link tokenize13a}). */
export function tokens13a(text: string): string[] {
  return spanTokens(spans13a(text))
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
  let line = ` ${prepare13a(text)} `
  line = line.replace(PAD_SYMBOL, ' $& ')
  line = line.replace(PERIOD_COMMA_AFTER_NON_DIGIT, '$1 $2 ')
  line = line.replace(PERIOD_COMMA_BEFORE_NON_DIGIT, ' $1 $2')
  line = line.replace(DASH_AFTER_DIGIT, '$1 $2 ')
  return pySplit(line).join(' ')
}
