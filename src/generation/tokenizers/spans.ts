import { pyIsSpaceCode } from '../../text/python-string.js'

/**
 * Tokens as `[start, end)` spans of one source string, so that BLEU can intern tokens without first
 * building a string per token. Every tokenizer here only inserts spaces (or nothing), so each token
 * is a substring of one string: the text after the tokenizer's own rewriting steps.
 */
export interface TokenSpans {
  /** The string the spans index into (UTF-16 offsets). */
  readonly source: string
  // plain arrays of small integers: typed arrays of this size are allocated outside V8's heap,
  // which made allocation and GC the main cost of sentence BLEU
  readonly starts: number[]
  readonly ends: number[]
  /** The number of tokens (`starts.length`). */
  readonly count: number
}

/** Python `str.isspace()` for one UTF-16 unit (surrogates are never whitespace). */
export function isPyWhitespaceUnit(code: number): boolean {
  return code <= 0x20 ? code === 0x20 || (code >= 0x09 && code <= 0x0d) || code >= 0x1c : code >= 0x85 && pyIsSpaceCode(code)
}

/** The spans of Python `str.split()` over `text`. */
export function whitespaceSpans(text: string): TokenSpans {
  const len = text.length
  const starts: number[] = []
  const ends: number[] = []
  let i = 0
  while (i < len) {
    while (i < len && isPyWhitespaceUnit(text.charCodeAt(i))) i++
    if (i >= len) break
    starts.push(i)
    while (i < len && !isPyWhitespaceUnit(text.charCodeAt(i))) i++
    ends.push(i)
  }
  return { source: text, starts, ends, count: starts.length }
}

/** The token strings of `spans`. */
export function spanTokens(spans: TokenSpans): string[] {
  const out = new Array<string>(spans.count)
  for (let t = 0; t < spans.count; t++) out[t] = spans.source.slice(spans.starts[t]!, spans.ends[t]!)
  return out
}

/** Tokens `from … from+n-1` of `spans` joined by single spaces. */
export function spanNgramText(spans: TokenSpans, from: number, n: number): string {
  let text = spans.source.slice(spans.starts[from]!, spans.ends[from]!)
  for (let t = from + 1; t < from + n; t++) text += ` ${spans.source.slice(spans.starts[t]!, spans.ends[t]!)}`
  return text
}
