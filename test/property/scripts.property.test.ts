// Vitest entry of the registry-driven script and invisible-character properties (scripts.suite.ts); Jest runs
// the same suite from test/jest/property-registry.test.ts. RAG_PROPERTY_SEED explores other inputs locally.
import { scriptsSuite } from './scripts.suite.js'

const SEED = Number(process.env.RAG_PROPERTY_SEED ?? 20261205)

scriptsSuite({ seed: SEED, runs: 150, asyncRuns: 0 })
