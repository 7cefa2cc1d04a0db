import { pySplit } from '../../text/python-string.js'
import { HASH_PRIME, HASH_SEED } from '../token-table.js'
import { isPyWhitespaceUnit, SpanBuffer, spanTokens, type TokenSpans } from './spans.js'
import { imul } from '../../math-bindings.js'

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
export function prepare13a(text: string): string {
  let line = text
  // `includes` first because most lines need none of these
  if (line.includes('<skipped>')) line = line.replaceAll('<skipped>', '')
  if (line.includes('\n')) {
    if (line.includes('-\n')) line = line.replaceAll('-\n', '')
    if (line.includes('\n')) line = line.replaceAll('\n', ' ')
  }
  if (line.includes('&')) {
    // sequential, so `&amp;lt;` ends as `<` exactly as in sacrebleu
    line = line.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>')
  }
  return line
}

// Character classes for the one-pass scanner (bit flags; non-ASCII is 0 or WHITESPACE); bleu-kernel.wat reads
// ASCII_CLASS and restates the rest.
const DIGIT = 1
const PERIOD_COMMA = 2
const SYMBOL = 4
const WHITESPACE = 8
const HYPHEN = 16
export const ASCII_CLASS = new Uint8Array(128)
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c)
  if (c >= 48 && c <= 57) ASCII_CLASS[c] = DIGIT
  else if (ch === '.' || ch === ',') ASCII_CLASS[c] = PERIOD_COMMA
  else if (ch === '-') ASCII_CLASS[c] = HYPHEN
  else if (PAD_SYMBOL_ONE.test(ch)) ASCII_CLASS[c] = SYMBOL
  else if (isPyWhitespaceUnit(c)) ASCII_CLASS[c] = WHITESPACE
}

function classOf(code: number): number {
  return code < 128 ? ASCII_CLASS[code]! : isPyWhitespaceUnit(code) ? WHITESPACE : 0
}

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
export function spans13a(text: string, into: SpanBuffer = new SpanBuffer()): TokenSpans {
  const line = prepare13a(text)
  const n = line.length
  const out = into.clear(line)
  let open = -1 // start of the token being read, -1 between tokens
  let hash = 0 // FNV-1a of the open token's units so far (see spanHash)
  // classes of the units at i-2, i-1, i (0 stands for "none": the padding space is a plain non-digit)
  let before2 = 0
  let before = 0
  let code = n > 0 ? line.charCodeAt(0) : 0 // the unit at i
  let cur = n > 0 ? classOf(code) : 0
  let m2Prev = false
  let m2Cur = cur === PERIOD_COMMA // at i = 0 the padding space precedes it
  let m3Prev = false
  for (let i = 0; i < n; i++) {
    if (cur === 0 && open < 0) {
      // A token that starts after whitespace (or at the start) and holds only class-0 units up to
      // the next whitespace breaks nowhere (every rule needs a symbol, P, digit or hyphen): take it
      // whole and go on at that whitespace with the state the single steps would have left.
      let h = imul(HASH_SEED ^ code, HASH_PRIME)
      let j = i + 1
      let c = 0
      let stop = 0
      while (j < n && (stop = classOf((c = line.charCodeAt(j)))) === 0) {
        h = imul(h ^ c, HASH_PRIME)
        j++
      }
      if (j === n || stop === WHITESPACE) {
        out.push(i, j, h)
        // the whitespace at j opens and breaks nothing either: step over it too (the state at j + 1
        // follows a plain unit and a whitespace unit, with no rule state set)
        if (j + 1 >= n) return out
        before2 = 0
        before = WHITESPACE
        code = line.charCodeAt(j + 1)
        cur = classOf(code)
        m2Prev = false
        m2Cur = cur === PERIOD_COMMA
        m3Prev = false
        i = j // the loop's i++ moves on to j + 1
        continue
      }
    } else if (cur === 0 && before === 0 && open >= 0) {
      // Inside a token, a unit of class 0 after one of class 0 breaks nothing, and no rule state is
      // set (m2/m3 need a P): skip to the last unit of the run (hashing the units passed), as if
      // each step had been taken.
      let j = i + 1
      let c = 0
      while (j < n && classOf((c = line.charCodeAt(j))) === 0) {
        hash = imul(hash ^ code, HASH_PRIME)
        code = c
        j++
      }
      if (j - 1 > i) {
        i = j - 1
        before2 = 0
      }
    }
    // past the end comes the padding space: class 0 (a non-digit, not P)
    const nextCode = i + 1 < n ? line.charCodeAt(i + 1) : 0
    const next = i + 1 < n ? classOf(nextCode) : 0
    const curIsP = cur === PERIOD_COMMA
    const m2Next = next === PERIOD_COMMA && cur !== DIGIT && !(curIsP && m2Cur)
    const m3: boolean = curIsP && (m2Cur || next !== DIGIT) && !(before === PERIOD_COMMA && !m2Cur && !m2Prev && m3Prev)
    if (cur === WHITESPACE) {
      if (open >= 0) {
        out.push(open, i, hash)
        open = -1
      }
    } else if (open < 0) {
      open = i
      hash = imul(HASH_SEED ^ code, HASH_PRIME)
    } else if (((cur | before) & SYMBOL) !== 0 || m2Cur || m2Prev || m3 || m3Prev || (cur === HYPHEN && before === DIGIT) || (before === HYPHEN && before2 === DIGIT)) {
      out.push(open, i, hash)
      open = i
      hash = imul(HASH_SEED ^ code, HASH_PRIME)
    } else {
      hash = imul(hash ^ code, HASH_PRIME)
    }
    before2 = before
    before = cur
    cur = next
    code = nextCode
    m2Prev = m2Cur
    m2Cur = m2Next
    m3Prev = m3
  }
  if (open >= 0) out.push(open, n, hash)
  return out
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
