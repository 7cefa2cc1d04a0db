export { parseRun, TrecRun, type TrecParseOptions } from './run.js'
export { parseQrels, TrecQrels, type QrelsTopic } from './qrels.js'
export { parseRunStream, parseQrelsStream, type TrecSource } from './stream.js'
export {
  trecEval,
  evaluateTrec,
  tableToResult,
  type TrecEvalOptions,
  type TrecEvalResult,
  type TrecEvalTable,
  type TrecEvalColumn,
} from './evaluate.js'
export { formatTrecEval, trecEvalLines, type TrecFormatOptions } from './format.js'
export { MEASURE_SETS as TREC_MEASURE_SETS } from './measures.js'
export { TrecFormatError, TrecEvalError, type TrecEvalErrorCode } from './errors.js'
