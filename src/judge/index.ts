// The judge family inside the package: the public entry (public.ts) and what only the matchers use.
export * from './public.js'
export { JUDGE_CACHE_FORMAT } from './cache.js'
export * from './templates/index.js'
export type { AnswerRelevanceOptions } from './metrics/answer-relevance.js'
export { MAX_REPEAT, sumUsage } from './metrics/shared.js'
