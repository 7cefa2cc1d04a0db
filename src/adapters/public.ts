/**
 * `rag-matchers/adapters`: framework retrieval results as the `retrieved` list of a retrieval case.
 * `@langchain/core` and `llamaindex` are optional peers, used for types only (never loaded at run time).
 */
export { MetricInputError } from '../errors.js'
export type { AdaptedItem, IdSource } from './item-id.js'
export { fromLangChainDocuments, type FromLangChainOptions, type LangChainResults } from './langchain.js'
export { fromLlamaIndexNodes, type FromLlamaIndexOptions } from './llamaindex.js'
