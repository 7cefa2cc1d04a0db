import { pySplit } from '../../text/python-string.js'
import { whitespaceSpans, type SpanBuffer, type TokenSpans } from './spans.js'

/**
 * sacrebleu's `none` tokenizer: the text unchanged (BLEU then splits it on Python whitespace).
 *
 * Parity: equals sacrebleu 2.6.0 `NoneTokenizer` on every golden `tokenized.none` string.
 *
 * @param text one segment
 * @returns `text` itself
 * @example
 * tokenizeNone('Hello, world.') // → 'Hello, world.'
 */
export function tokenizeNone(text: string): string {
  return text
}

/** The tokens BLEU sees with the `none` tokenizer: Python `str.split()` of the text. */
export function tokensNone(text: string): string[] {
  return pySplit(text)
}

/** The `none` token spans of `text` (Python `str.split()`). */
export function spansNone(text: string, into?: SpanBuffer): TokenSpans {
  return whitespaceSpans(text, into)
}
