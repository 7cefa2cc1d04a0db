/**
 * `rag-matchers/adapters`: framework retrieval results as the `retrieved` list of a retrieval case, and
 * agent results (AI SDK, OpenAI, LangChain.js messages) as the tool calls and usage of an agent case.
 * `@langchain/core`, `llamaindex`, `ai`, `openai` and `@opentelemetry/sdk-trace-base` are used for types only (never loaded at run time).
 */
export { MetricInputError } from '../errors.js'
export type { AdaptedItem, IdSource } from './item-id.js'
export { fromLangChainDocuments, type FromLangChainOptions, type LangChainResults } from './langchain.js'
export { fromLlamaIndexNodes, type FromLlamaIndexOptions } from './llamaindex.js'
export type { AdaptedToolCall, AgentOutput } from './agent-output.js'
export { fromAiSdkResult, type AiSdkResultLike, type AiSdkStepLike } from './ai-sdk.js'
export { fromLangChainMessages } from './langchain-messages.js'
export { fromOpenAIChatCompletion, fromOpenAIResponse } from './openai-agent.js'
export {
  fromOtelSpans,
  fromOtelTraces,
  fromOtlpJson,
  fromOtlpJsonTraces,
  type OtlpAnyValue,
  type OtlpSpanLike,
  type OtlpTraceJsonLike,
  type ReadableSpanLike,
  type TraceOutput,
  type TraceReadOptions,
} from './otel-trace.js'
