export {
  bleuFromStats,
  bleuStats,
  corpusBleu,
  sentenceBleu,
  type BleuDetails,
  type BleuFromStatsOptions,
  type BleuOptions,
  type BleuScore,
  type BleuSmoothing,
} from './bleu.js'
export {
  chrfFromStats,
  chrfStats,
  corpusChrf,
  sentenceChrf,
  type ChrfDetails,
  type ChrfFromStatsOptions,
  type ChrfOptions,
  type ChrfOrderStats,
  type ChrfScore,
} from './chrf.js'
export {
  DEFAULT_ROUGE_TYPES,
  ROUGE_TYPES,
  rougeScore,
  type RougeDetails,
  type RougeNType,
  type RougeOptions,
  type RougePrf,
  type RougeResult,
  type RougeScore,
  type RougeType,
} from './rouge.js'
export {
  meteorScore,
  singleMeteorScore,
  type MeteorAlignment,
  type MeteorDetails,
  type MeteorMatch,
  type MeteorOptions,
  type MeteorStage,
} from './meteor.js'
export { morphy, synonyms, synsets, type WordNetPos } from './wordnet.js'
export { porterStem, PORTER_MODES, type PorterMode } from './stemmers/porter.js'
export {
  BLEU_TOKENIZER_NAMES,
  getBleuTokenizer,
  tokenize13a,
  tokenizeChar,
  tokenizeIntl,
  tokenizeNone,
  type BleuTokenizerName,
} from './tokenizers/index.js'
export { rougeDefaultTokenize } from './tokenizers/rouge-default.js'
export {
  extractNumbers,
  numericConsistency,
  type ExtractNumbersOptions,
  type NumberMention,
  type NumericConsistencyDetails,
  type NumericConsistencyOptions,
} from './numeric-consistency.js'
