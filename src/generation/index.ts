// Internal barrel: the public entry (public.ts) plus the tokenizers, stemmer and WordNet lookups
// that the core, the CLI and the parity tests use.
export * from './public.js'
export { morphy, synonyms, synsets, type WordNetPos } from './wordnet.js'
export { porterStem, PORTER_MODES, type PorterMode } from './stemmers/porter.js'
export { BLEU_TOKENIZER_NAMES, getBleuTokenizer, tokenize13a, tokenizeChar, tokenizeIntl, tokenizeNone } from './tokenizers/index.js'
export { rougeDefaultTokenize } from './tokenizers/rouge-default.js'
