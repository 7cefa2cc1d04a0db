/**
 * `rag-matchers/generation`: reference-based text metrics (sacrebleu-compatible BLEU, chrF and TER,
 * ROUGE, METEOR, numeric consistency) and embedding-based semantic similarity with its embedders.
 * Curated: tokenizers, stemmers, WordNet access and n-gram helpers stay internal.
 */
export type { Score } from '../score.js'
export { MetricInputError } from '../errors.js'

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
