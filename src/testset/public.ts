/**
 * Eval-set generation from a corpus (not yet a package subpath: wired through src/testset/public.ts
 * for the CLI and tests): an LLM writes questions, a program checks their ground truth.
 */
export type { CorpusChunk } from '../eval-set/load-dataset.js'
export { MetricInputError } from '../errors.js'
export {
  generateEvalSet,
  GENERATE_EVAL_SET_OPTION_KEYS,
  TESTSET_KINDS,
  type EvalSetSummary,
  type GenerateEvalSetOptions,
  type GeneratedEvalItem,
  type GeneratedEvalSet,
  type RejectedQuestion,
  type TestsetKind,
} from './generate-eval-set.js'
export { REJECTION_REASONS, type RejectionReason } from './checks.js'
export { normalizeForMatch } from './normalize.js'
export { evalSetToJsonl } from './jsonl.js'
export { chunkFolder, chunkText, CHUNKED_EXTENSIONS, DEFAULT_CHUNK_SIZE } from './chunk-folder.js'
