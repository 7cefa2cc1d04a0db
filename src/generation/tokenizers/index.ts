import { MetricInputError } from '../../errors.js'
import { spans13a, tokenize13a, tokens13a } from './tokenizer-13a.js'
import { spansChar, tokenizeChar, tokensChar } from './tokenizer-char.js'
import { spansIntl, tokenizeIntl, tokensIntl } from './tokenizer-intl.js'
import { spansNone, tokenizeNone, tokensNone } from './tokenizer-none.js'
import { spansZh, tokenizeZh, tokensZh } from './tokenizer-zh.js'
import type { SpanBuffer, TokenSpans } from './spans.js'

export { tokenize13a } from './tokenizer-13a.js'
export { tokenizeChar } from './tokenizer-char.js'
export { tokenizeIntl } from './tokenizer-intl.js'
export { tokenizeNone } from './tokenizer-none.js'
export { tokenizeZh } from './tokenizer-zh.js'
export type { TokenSpans } from './spans.js'

/** The sacrebleu BLEU tokenizers rag-matchers implements. */
export type BleuTokenizerName = '13a' | 'intl' | 'char' | 'none' | 'zh'

/** The tokenizer names, in sacrebleu's spelling (also what the `tok:` signature key prints). */
export const BLEU_TOKENIZER_NAMES: readonly BleuTokenizerName[] = ['13a', 'intl', 'char', 'none', 'zh']

/** One BLEU tokenizer. */
export interface BleuTokenizer {
  /** sacrebleu's name, printed as `tok:<name>` in BLEU signatures. */
  readonly name: BleuTokenizerName
  /** The tokenized string, exactly as sacrebleu's tokenizer returns it. */
  readonly tokenize: (text: string) => string
  /** `pySplit(tokenize(text))`, computed without building the joined string where that is cheaper. */
  readonly tokens: (text: string) => string[]
  /**
   * The same tokens as spans of one string (what BLEU interns, without a string per token). A
   * tokenizer may fill `into` and return it (valid until the buffer's next use) or ignore it.
   */
  readonly spans: (text: string, into?: SpanBuffer) => TokenSpans
}

const REGISTRY: Readonly<Record<BleuTokenizerName, BleuTokenizer>> = {
  '13a': { name: '13a', tokenize: tokenize13a, tokens: tokens13a, spans: spans13a },
  intl: { name: 'intl', tokenize: tokenizeIntl, tokens: tokensIntl, spans: spansIntl },
  char: { name: 'char', tokenize: tokenizeChar, tokens: tokensChar, spans: spansChar },
  none: { name: 'none', tokenize: tokenizeNone, tokens: tokensNone, spans: spansNone },
  zh: { name: 'zh', tokenize: tokenizeZh, tokens: tokensZh, spans: spansZh },
}

/** Whether `name` is one of {@link BLEU_TOKENIZER_NAMES}. */
export function isBleuTokenizerName(name: unknown): name is BleuTokenizerName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(REGISTRY, name)
}

/**
 * The BLEU tokenizer registered under a sacrebleu name (`13a`, `intl`, `char`, `none`, `zh`).
 *
 * None of them lowercases or strips: BLEU applies `lower()` (optional) and `rstrip()` first, as
 * sacrebleu does (`zh` strips both ends itself, as sacrebleu's does). `ja-mecab`, `spm` and `flores*` are not implemented.
 *
 * @throws MetricInputError for any other name
 * @example
 * getBleuTokenizer('13a').tokenize('Hello, world.') // → 'Hello , world .'
 * getBleuTokenizer('char').tokens('ab c') // → ['a', 'b', 'c']
 */
export function getBleuTokenizer(name: BleuTokenizerName): BleuTokenizer {
  if (!isBleuTokenizerName(name)) {
    throw new MetricInputError('getBleuTokenizer', 'name', `one of ${BLEU_TOKENIZER_NAMES.map((n) => `'${n}'`).join(', ')}`, name)
  }
  return REGISTRY[name]
}
