// Internal barrel: the public entry (public.ts) plus helpers the core and tests use.
export * from './public.js'
export { normalizeCase, normalizeRelevance, type NormalizedCase } from './normalize.js'
