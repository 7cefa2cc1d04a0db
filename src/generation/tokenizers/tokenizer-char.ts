import { pyIsSpace } from '../../text/python-string.js'
import { isPyWhitespaceUnit, SpanBuffer, spanHash, type TokenSpans } from './spans.js'

/**
 * sacrebleu's `char` tokenizer: every code point (whitespace included) joined by one space, i.e.
 * Python's `" ".join(line)`. A space in the input therefore shows up as three spaces in the output;
 * BLEU's later `split()` drops it. Code points, not UTF-16 units: an emoji is one token.
 *
 * Parity: equals sacrebleu 2.6.0 `TokenizerChar` on every golden `tokenized.char` string.
 *
 * @param text one segment
 * @returns the code points of `text` separated by single spaces
 * @example
 * tokenizeChar('ab c') // → 'a b   c'
 */
export function tokenizeChar(text: string): string {
  return Array.from(text).join(' ')
}

/** The tokens BLEU sees with the `char` tokenizer: the non-whitespace code points of the text. */
export function tokensChar(text: string): string[] {
  const out: string[] = []
  for (const ch of text) {
    // ASCII fast path; everything else goes through Python's whitespace definition
    const code = ch.charCodeAt(0)
    if (code > 0x20 && code < 0x7f) out.push(ch)
    else if (!pyIsSpace(ch)) out.push(ch)
  }
  return out
}

/** The `char` token spans of `text`: one per non-whitespace code point (a surrogate pair spans 2 units). */
export function spansChar(text: string, into: SpanBuffer = new SpanBuffer()): TokenSpans {
  const len = text.length
  const out = into.clear(text)
  for (let i = 0; i < len; i++) {
    const code = text.charCodeAt(i)
    const start = i
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < len) {
      const low = text.charCodeAt(i + 1)
      if (low >= 0xdc00 && low <= 0xdfff) i++
    }
    if (i === start && isPyWhitespaceUnit(code)) continue
    out.push(start, i + 1, spanHash(text, start, i + 1))
  }
  return out
}
