export type { Embedder } from './types.js'
export { EmbeddingError, type EmbeddingErrorKind } from './errors.js'
export { cosineSimilarity, dotProduct, l2Norm, type VectorLike } from './similarity.js'
export { EmbeddingCache, embedTexts, checkVectors, assertEmbedder, type EmbeddingCacheStats, type EmbedTextsOptions } from './cache.js'
export {
  embedSimSignature,
  meanSemanticSimilarity,
  semanticSimilarities,
  semanticSimilarity,
  type EmbedSimDetails,
  type EmbedSimPairInput,
  type EmbedSimSetDetails,
  type SemanticSimilarityOptions,
} from './semantic-similarity.js'
export {
  transformersEmbedder,
  type TransformersDtype,
  type TransformersEmbedder,
  type TransformersEmbedderOptions,
  type TransformersPackage,
  type TransformersPooling,
} from './transformers-embedder.js'
export { ollamaEmbedder, type OllamaEmbedderOptions } from './ollama-embedder.js'
export { openaiEmbedder, type OpenAIEmbedderOptions } from './openai-embedder.js'
export { functionEmbedder, type EmbeddingFunctionResult, type FunctionEmbedderOptions } from './function-embedder.js'
