/**
 * Input size limits for the generation metrics (`maxTokens`).
 *
 * A metric runs synchronously, so a test timeout cannot interrupt it: an input too long to score
 * in a few seconds is refused up front with a MetricInputError that names the limit and the option
 * that raises it, instead of blocking the process for minutes. The limit is per text (the candidate
 * and each reference, each corpus segment), never a corpus total.
 *
 * Defaults, from bench/long-inputs.mjs on a shared 2-core machine: the linear metrics (BLEU, chrF,
 * ROUGE-N, METEOR, numeric consistency) took 0.5–3 s per 100,000-token pair, so their limit only
 * guards memory; ROUGE-L / ROUGE-Lsum are an LCS, |cand|·|ref|/32 word operations: two
 * 100,000-token texts took 16.5 s, 10,000 took 0.3 s, so 50,000 (a quarter of the work) is the default.
 */
import { MetricInputError } from '../errors.js'

/** The option every generation metric accepts. */
export interface InputLimitOptions {
  /**
   * The most tokens one text may have (candidate, each reference, each segment); longer input is a
   * MetricInputError. `Infinity` turns the check off. Defaults: {@link DEFAULT_MAX_TOKENS}.
   */
  readonly maxTokens?: number
}

/** Default `maxTokens` for metrics whose cost is linear in the text length. */
export const DEFAULT_MAX_TOKENS = 1_000_000

/** Default `maxTokens` for ROUGE-L and ROUGE-Lsum, whose cost is the product of the two lengths. */
export const DEFAULT_MAX_LCS_TOKENS = 50_000

/**
 * Default `maxTokens` for ROUGE-Lsum when a text has several lines (issue #27). Lsum runs one LCS per (candidate line, reference
 * line) pair, and pairs of up to 2^20 cells take the plain O(|a|·|b|) table, so on a text of many
 * lines the work is the full |cand|·|ref| cells, not the bit-parallel /32 of one ROUGE-L: two
 * 50,000-token texts of 25-token lines took 8 s, 20,000-token ones about 1 s.
 */
export const DEFAULT_MAX_LSUM_TOKENS = 20_000

/**
 * Default `maxLines` for ROUGE-Lsum: each candidate line is aligned with each reference line, so the
 * work also grows with lines × lines (about 0.1 µs per pair even for one-token lines: 50,000 lines
 * took 229 s; 2,000 × 2,000 lines take about 0.3 s).
 */
export const DEFAULT_MAX_LSUM_LINES = 2_000

/** `options.maxTokens` checked: a positive integer or `Infinity`; `undefined` is the default. */
export function resolveMaxTokens(fn: string, value: unknown, defaultLimit: number): number {
  return resolveLimit(fn, 'maxTokens', value, defaultLimit)
}

/**
 * Throws when `count` tokens exceed `limit`, e.g.
 * ``rougeScore: Expected `candidate` to be at most 50000 tokens long for ROUGE-L (raise options.maxTokens to allow more), got `{"tokens":250000}` (Object)``.
 *
 * @param what why the limit exists, appended after "tokens long" (e.g. `for ROUGE-L`), or empty
 */
export function checkTokenCount(fn: string, argument: string, count: number, limit: number, what = ''): void {
  if (count <= limit) return
  const reason = what === '' ? '' : ` ${what}`
  throw new MetricInputError(fn, argument, `at most ${limit} tokens long${reason} (raise options.maxTokens to allow more)`, { tokens: count })
}

/**
 * Throws when a text has more than `limit` units of another kind (numeric consistency: number
 * mentions, option `maxNumbers`), in the same form as {@link checkTokenCount}.
 */
export function checkUnitCount(fn: string, argument: string, count: number, limit: number, unit: string, option: string, why: string): void {
  if (count <= limit) return
  throw new MetricInputError(fn, argument, `a text with at most ${limit} ${unit} (${why}; raise options.${option} to allow more)`, { [unit]: count })
}

/** `options[name]` as a limit: a positive integer or `Infinity`; `undefined` is the default. */
export function resolveLimit(fn: string, name: string, value: unknown, defaultLimit: number): number {
  if (value === undefined) return defaultLimit
  if (value === Number.POSITIVE_INFINITY) return value
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new MetricInputError(fn, `options.${name}`, 'a positive integer or Infinity', value)
  }
  return value
}

/**
 * Whitespace-separated words of `text`, counted without allocating: the token count of the
 * metrics that check their input before tokenizing it (BLEU, chrF, numeric consistency), and
 * exactly the token count of METEOR's `str.split()` for ASCII whitespace.
 */
export function countWords(text: string): number {
  let count = 0
  let inWord = false
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k)
    // ASCII whitespace and the common Unicode spaces; a word is anything between them
    const space =
      c === 32 ||
      (c >= 9 && c <= 13) ||
      (c >= 28 && c <= 31) ||
      c === 0x85 ||
      c === 0xa0 ||
      c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) ||
      c === 0x2028 ||
      c === 0x2029 ||
      c === 0x202f ||
      c === 0x205f ||
      c === 0x3000
    if (space) inWord = false
    else if (!inWord) {
      inWord = true
      count++
    }
  }
  return count
}

/** Up-front check of a raw text's word count (see {@link countWords}); stops counting past the limit. */
export function checkTextLength(fn: string, argument: string, text: string, limit: number, what = ''): void {
  // a text cannot have more words than half its length (rounded up): skip the scan when it cannot exceed
  if (limit === Number.POSITIVE_INFINITY || Math.ceil(text.length / 2) <= limit) return
  checkTokenCount(fn, argument, countWords(text), limit, what)
}
