/**
 * `rag-matchers/testset`: eval-set generation from a corpus. An LLM writes questions, a program checks
 * their ground truth (docs/testset.md).
 */
export type { CorpusChunk } from '../eval-set/load-dataset.js'
export { MetricInputError } from '../errors.js'
export {
  generateEvalSet,
  GENERATE_EVAL_SET_OPTION_KEYS,
  TESTSET_KINDS,
  UNANSWERABLE_REFERENCE,
  type EvalSetSummary,
  type GenerateEvalSetOptions,
  type GeneratedEvalItem,
  type GeneratedEvalSet,
  type RejectedQuestion,
  type TestsetKind,
  type TestsetProgress,
} from './generate-eval-set.js'
export { REJECTION_REASONS, type RejectionReason } from './checks.js'
export { normalizeForMatch } from './normalize.js'
export { evalSetToJsonl } from './jsonl.js'
export { chunkFolder, chunkText, CHUNKED_EXTENSIONS, DEFAULT_CHUNK_SIZE } from './chunk-folder.js'
