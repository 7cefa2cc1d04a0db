/**
 * `rag-matchers/generation`: reference-based text metrics (sacrebleu-compatible BLEU, chrF and TER,
 * ROUGE, METEOR, numeric consistency) and embedding-based semantic similarity with its embedders.
 * Also sacrebleu's tokenizers (`tokenize13a` … `tokenizeTercom`, as sacrebleu exposes them) and
 * NLTK's `porterStem`. Curated: WordNet access, n-gram helpers and the tokenizers' span/token fast
 * paths stay internal.
 */
import { assertString, MetricInputError } from '../errors.js'
import { checkOptionKeys } from '../options.js'
import {
  tokenize13a as tokenize13aInternal,
  tokenizeChar as tokenizeCharInternal,
  tokenizeIntl as tokenizeIntlInternal,
  tokenizeNone as tokenizeNoneInternal,
  tokenizeZh as tokenizeZhInternal,
} from './tokenizers/index.js'
import { tokenizeTercom as tokenizeTercomInternal, type TercomSettings } from './ter/tokenizer-tercom.js'
import { TER_OPTION_KEYS, TERCOM_SETTING_KEYS, type TerOptions } from './ter/ter.js'

export type { Score } from '../score.js'
export { MetricInputError }

// BLEU and chrF (sacrebleu)
export type { BleuTokenizerName } from './tokenizers/index.js'
export {
  sentenceBleu,
  corpusBleu,
  bleuStats,
  bleuFromStats,
  type BleuDetails,
  type BleuFromStatsOptions,
  type BleuOptions,
  type BleuScore,
  type BleuSmoothing,
  type CorpusBleuOptions,
} from './bleu.js'
export {
  sentenceChrf,
  corpusChrf,
  chrfStats,
  chrfFromStats,
  type ChrfDetails,
  type ChrfFromStatsOptions,
  type ChrfOptions,
  type ChrfOrderStats,
  type ChrfScore,
  type CorpusChrfOptions,
} from './chrf.js'

// Bootstrap confidence intervals and paired significance tests (sacrebleu; numpy's generator stays internal)
export type { BootstrapEstimate } from './significance/bootstrap.js'
export {
  pairedBootstrap,
  pairedApproxRandomization,
  pairedTest,
  type PairedApproxRandomizationInput,
  type PairedBootstrapInput,
  type PairedMetric,
  type PairedSystem,
  type PairedSystemResult,
  type PairedTestInput,
  type PairedTestResult,
} from './significance/paired.js'

// TER (sacrebleu)
export { sentenceTer, corpusTer, type CorpusTerOptions, type CorpusTerScore, type TerOptions, type TerScore } from './ter/ter.js'

// sacrebleu's tokenizers and NLTK's Porter stemmer
export { porterStem, type PorterMode, type PorterStemOptions } from './stemmers/porter.js'

/**
 * sacrebleu's `13a` tokenizer (`Tokenizer13a`, BLEU's default; mteval-v13a): unescapes `&quot;`,
 * `&amp;`, `&lt;`, `&gt;`, drops `<skipped>` and `-\n`, splits punctuation and symbols off words,
 * `.`/`,` unless between digits, `-` after a digit, and collapses whitespace.
 *
 * Exactly `Tokenizer13a()(text)` of sacrebleu 2.6.0: it neither lowercases nor strips (BLEU does
 * `rstrip()` and, with `lowercase`, `lower()` before calling it).
 *
 * @param text one segment
 * @returns the tokens joined by single spaces
 * @throws MetricInputError if `text` is not a string
 * @example
 * tokenize13a("It was 28.4 BLEU (p<0.05), the U.S. model's best.")
 * // → "It was 28.4 BLEU ( p < 0.05 ) , the U . S . model's best ."
 */
export function tokenize13a(text: string): string {
  assertString('tokenize13a', 'text', text)
  return tokenize13aInternal(text)
}

/**
 * sacrebleu's `intl` tokenizer (`TokenizerV14International`, mteval-v14 `--international-tokenization`):
 * separates punctuation from a neighbouring non-number and every symbol from its neighbours, by Unicode 15.0 categories.
 *
 * Exactly `TokenizerV14International()(text)` of sacrebleu 2.6.0 (no lowercasing, no HTML unescaping).
 *
 * @param text one segment
 * @returns the tokens joined by single spaces
 * @throws MetricInputError if `text` is not a string
 * @example
 * tokenizeIntl('it’s 3:45 &amp; 92%') // → 'it ’ s 3:45 & amp ; 92%' (punctuation next to a digit stays)
 */
export function tokenizeIntl(text: string): string {
  assertString('tokenizeIntl', 'text', text)
  return tokenizeIntlInternal(text)
}

/**
 * sacrebleu's `char` tokenizer (`TokenizerChar`): every code point, whitespace included, joined by
 * one space (Python `" ".join(text)`), so a space in the input becomes three; BLEU's `split()` later
 * drops it. An emoji is one token (code points, not UTF-16 units).
 *
 * @param text one segment
 * @returns the code points of `text` separated by single spaces
 * @throws MetricInputError if `text` is not a string
 * @example
 * tokenizeChar('ab c') // → 'a b   c'
 */
export function tokenizeChar(text: string): string {
  assertString('tokenizeChar', 'text', text)
  return tokenizeCharInternal(text)
}

/**
 * sacrebleu's `zh` tokenizer (`TokenizerZh`): Python `strip()`, a space around every Chinese code
 * point (with sacrebleu's range-table quirk), then 13a's punctuation rules and collapsed whitespace.
 *
 * Exactly `TokenizerZh()(text)` of sacrebleu 2.6.0.
 *
 * @param text one segment
 * @returns the tokens joined by single spaces
 * @throws MetricInputError if `text` is not a string
 * @example
 * tokenizeZh('这是一个测试，包含ASCII words和数字123。')
 * // → '这 是 一 个 测 试 ， 包 含 ASCII words 和 数 字 123 。'
 */
export function tokenizeZh(text: string): string {
  assertString('tokenizeZh', 'text', text)
  return tokenizeZhInternal(text)
}

/**
 * sacrebleu's `none` tokenizer (`NoneTokenizer`): the text unchanged (BLEU then splits it on Python
 * whitespace). For symmetry with the other tokenizers, and to check the argument.
 *
 * @param text one segment
 * @returns `text` itself
 * @throws MetricInputError if `text` is not a string
 * @example
 * tokenizeNone('Hello, world.') // → 'Hello, world.'
 */
export function tokenizeNone(text: string): string {
  assertString('tokenizeNone', 'text', text)
  return tokenizeNoneInternal(text)
}

/**
 * sacrebleu's `tercom` tokenizer (`TercomTokenizer`, TER's only one) with TER's options and defaults:
 * lower-cases unless `caseSensitive`; with `normalized`, unescapes XML entities and splits punctuation,
 * `'s` and numbers (and, with `asianSupport`, CJK characters); with `noPunct`, deletes `.,?:;!"()`;
 * then collapses whitespace.
 *
 * Exactly `TercomTokenizer(normalized, no_punct, asian_support, case_sensitive)(text)` of sacrebleu
 * 2.6.0 (TER calls it on `rstrip()`-ed text and splits the result on spaces).
 *
 * @param text one segment
 * @param options the four switches of {@link sentenceTer}, all `false` by default
 * @returns the tokens joined by single spaces
 * @throws MetricInputError if `text` is not a string, `options` is not an object, has an unknown key or a non-boolean value
 * @example
 * tokenizeTercom("The dog's bone, 3.5 kg.") // → "the dog's bone, 3.5 kg."
 * tokenizeTercom("The dog's bone, 3.5 kg.", { normalized: true }) // → "the dog 's bone , 3.5 kg ."
 */
export function tokenizeTercom(text: string, options?: TerOptions): string {
  assertString('tokenizeTercom', 'text', text)
  checkOptionKeys('tokenizeTercom', options, TER_OPTION_KEYS)
  const settings: Record<keyof TercomSettings, boolean> = { normalized: false, noPunct: false, asianSupport: false, caseSensitive: false }
  // maxTokens is accepted (the options of sentenceTer) and has nothing to limit here
  for (const key of TERCOM_SETTING_KEYS) {
    const value: unknown = options?.[key]
    if (value === undefined) continue
    if (typeof value !== 'boolean') throw new MetricInputError('tokenizeTercom', `options.${key}`, 'a boolean', value)
    settings[key] = value
  }
  return tokenizeTercomInternal(text, settings)
}

// ROUGE and METEOR
export {
  rougeScore,
  ROUGE_TYPES,
  DEFAULT_ROUGE_TYPES,
  type RougeDetails,
  type RougeNType,
  type RougeOptions,
  type RougePrf,
  type RougeResult,
  type RougeScore,
  type RougeType,
} from './rouge.js'
export { meteorScore, singleMeteorScore, type MeteorAlignment, type MeteorDetails, type MeteorMatch, type MeteorOptions, type MeteorStage } from './meteor.js'

// Numeric consistency
export {
  numericConsistency,
  extractNumbers,
  type ExtractNumbersOptions,
  type NumberMention,
  type NumericConsistencyDetails,
  type NumericConsistencyOptions,
  type NumericContradiction,
  type NumericMatch,
} from './numeric-consistency.js'

// Embeddings and semantic similarity
export type { Embedder } from '../embeddings/types.js'
export { EmbeddingError, type EmbeddingErrorKind } from '../embeddings/errors.js'
export { cosineSimilarity, dotProduct, l2Norm, type VectorLike } from '../embeddings/similarity.js'
export { EmbeddingCache, embedTexts, type EmbeddingCacheStats, type EmbedTextsOptions } from '../embeddings/cache.js'
export {
  semanticSimilarity,
  semanticSimilarities,
  meanSemanticSimilarity,
  type EmbedSimDetails,
  type EmbedSimPairInput,
  type EmbedSimSetDetails,
  type SemanticSimilarityOptions,
} from '../embeddings/semantic-similarity.js'
export {
  transformersEmbedder,
  type TransformersDtype,
  type TransformersEmbedder,
  type TransformersEmbedderOptions,
  type TransformersPackage,
  type TransformersPooling,
} from '../embeddings/transformers-embedder.js'
export { ollamaEmbedder, type OllamaEmbedderOptions } from '../embeddings/ollama-embedder.js'
export { openaiEmbedder, type OpenAIEmbedderOptions } from '../embeddings/openai-embedder.js'
export { functionEmbedder, type EmbeddingFunctionResult, type FunctionEmbedderOptions } from '../embeddings/function-embedder.js'
