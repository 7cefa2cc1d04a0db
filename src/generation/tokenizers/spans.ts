import { pyIsSpaceCode } from '../../text/python-string.js'
import { imul } from '../../math-bindings.js'
import { HASH_PRIME, HASH_SEED } from '../token-table.js'

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
  /** The number of tokens (the arrays may be longer, see {@link SpanBuffer}). */
  readonly count: number
  /**
   * {@link spanHash} of each token, when the tokenizer computed it while scanning (BLEU's interner
   * then reads each character once less); absent otherwise.
   */
  readonly hashes?: readonly number[]
}

/** FNV-1a of the UTF-16 units `source[start, end)`, as a signed 32-bit integer (token-table.ts's hash). */
export function spanHash(source: string, start: number, end: number): number {
  let h = HASH_SEED
  for (let i = start; i < end; i++) h = imul(h ^ source.charCodeAt(i), HASH_PRIME)
  return h
}

/**
 * Spans a tokenizer fills in place. Handing the same buffer to many calls reuses its arrays, so
 * a hot loop allocates nothing per text; the spans are then valid only until the buffer's next use.
 */
export class SpanBuffer implements TokenSpans {
  source = ''
  readonly starts: number[] = []
  readonly ends: number[] = []
  readonly hashes: number[] = []
  count = 0

  /** Empties the buffer for spans of `source`. */
  clear(source: string): this {
    this.source = source
    this.count = 0
    return this
  }

  /** Appends the span `[start, end)`, whose {@link spanHash} is `hash`. */
  push(start: number, end: number, hash: number): void {
    // overwrite what an earlier use left, grow past it
    if (this.count < this.starts.length) {
      this.starts[this.count] = start
      this.ends[this.count] = end
      this.hashes[this.count] = hash
    } else {
      this.starts.push(start)
      this.ends.push(end)
      this.hashes.push(hash)
    }
    this.count++
  }
}

/** Python `str.isspace()` for one UTF-16 unit (surrogates are never whitespace). */
export function isPyWhitespaceUnit(code: number): boolean {
  return code <= 0x20 ? code === 0x20 || (code >= 0x09 && code <= 0x0d) || code >= 0x1c : code >= 0x85 && pyIsSpaceCode(code)
}

/** The spans of Python `str.split()` over `text`, written to `into` (a new buffer by default). */
export function whitespaceSpans(text: string, into: SpanBuffer = new SpanBuffer()): TokenSpans {
  const len = text.length
  const out = into.clear(text)
  let i = 0
  while (i < len) {
    while (i < len && isPyWhitespaceUnit(text.charCodeAt(i))) i++
    if (i >= len) break
    const start = i
    let h = HASH_SEED
    for (let c = text.charCodeAt(i); i < len && !isPyWhitespaceUnit(c); c = text.charCodeAt(++i)) h = imul(h ^ c, HASH_PRIME)
    out.push(start, i, h)
  }
  return out
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
