// Internal barrel: the public entry (public.ts) plus helpers the core and tests use.
export * from './public.js'
export { isCiEnvironment } from './run-eval-set.js'
export { assertMetricName, mergeSignatures, metricKind, metricScale } from './metrics.js'
export { mulberry32, quantileSorted } from './statistics.js'
export { serializeBaselineFile } from './baseline-file.js'
