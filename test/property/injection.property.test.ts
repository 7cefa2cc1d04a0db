// Vitest entry of the registry-driven injection property (injection.suite.ts); Jest runs the same suite
// from test/jest/property-registry.test.ts. RAG_PROPERTY_SEED explores other inputs locally.
import { injectionSuite } from './injection.suite.js'

const SEED = Number(process.env.RAG_PROPERTY_SEED ?? 20261205)

injectionSuite({ seed: SEED, runs: 200, asyncRuns: 60 })
