import { MetricInputError } from '../../errors.js'
import { pyLower } from '../../text/python-lower.js'
import { porterStem, porterStemNltkUncached } from '../stemmers/porter.js'

// Matching the [a-z0-9] runs is the same as replacing the other runs by spaces and splitting, but faster.
const ALPHANUMERIC_RUN = /[a-z0-9]+/g

/**
 * rouge-score 0.1.2's default tokenizer (`tokenize.tokenize` via `tokenizers.DefaultTokenizer`),
 * written from its description:
 *
 * 1. Python `str.lower()` (full Unicode: U+212A KELVIN SIGN → `k`, `İ` → `i` + U+0307);
 * 2. every run of characters outside ASCII `[a-z0-9]` becomes one space, so any non-ASCII letter or
 *    digit separates tokens (`café` → `caf`; CJK, Greek, Arabic text gives no tokens; `28.4` → `28`, `4`);
 * 3. split on the spaces;
 * 4. with `stemmer`, tokens **longer than 3 characters** go through NLTK's Porter stemmer in its default
 *    NLTK_EXTENSIONS mode ({@link porterStem} `'nltk'`); shorter tokens are kept as they are;
 * 5. empty tokens are dropped.
 *
 * Parity: equals the `rouge_tokens` of every golden case (rouge-score 0.1.2 + NLTK 3.8), with and
 * without stemming, and the tokenizer cases of rouge-score's own tests.
 *
 * @param text any string
 * @param stemmer apply the Porter stemmer to tokens longer than 3 characters @default false (rouge-score's `use_stemmer=False`)
 * @throws MetricInputError if `text` is not a string or `stemmer` is not a boolean
 * @example
 * rougeDefaultTokenize('The friends had a meeting.', true) // ['the', 'friend', 'had', 'a', 'meet']
 * rougeDefaultTokenize('It scored 28.4 (café)') // ['it', 'scored', '28', '4', 'caf']
 */
export function rougeDefaultTokenize(text: string, stemmer = false): string[] {
  if (typeof text !== 'string') throw new MetricInputError('rougeDefaultTokenize', 'text', 'a string', text)
  if (typeof stemmer !== 'boolean') throw new MetricInputError('rougeDefaultTokenize', 'stemmer', 'a boolean', stemmer)
  const parts = rougeRawTokens(text)
  if (!stemmer) return parts
  const tokens: string[] = []
  for (const part of parts) {
    const token = rougeStemToken(part)
    // rouge-score's final `^[a-z0-9]+$` filter: a stem of [a-z0-9] letters can only fail it by being empty
    if (token.length > 0) tokens.push(token)
  }
  return tokens
}

/** Steps 1–3 of {@link rougeDefaultTokenize}: the lower-cased `[a-z0-9]` runs, before stemming. */
export function rougeRawTokens(text: string): string[] {
  return pyLower(text).match(ALPHANUMERIC_RUN) ?? []
}

/**
 * Step 4 of {@link rougeDefaultTokenize} with the stemmer on: NLTK Porter for tokens of more than
 * 3 characters (rouge-score's rule), others unchanged. An empty result is dropped by step 5.
 */
export function rougeStemToken(rawToken: string): string {
  return isStemmed(rawToken) ? porterStem(rawToken, 'nltk') : rawToken
}

/**
 * {@link rougeStemToken} without porterStem's argument checks and memo, for a caller that keeps its own: rouge.ts
 * stems each run once and remembers its id, so the memo's map only cost a lookup and an entry per new run.
 */
export function rougeStemTokenUncached(rawToken: string): string {
  return isStemmed(rawToken) ? porterStemNltkUncached(rawToken) : rawToken
}

/** rouge-score stems only the tokens longer than 3 characters. */
function isStemmed(rawToken: string): boolean {
  return rawToken.length > 3
}
