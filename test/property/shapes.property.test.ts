// Vitest entry of the registry-driven hole and options properties (shapes.suite.ts); Jest runs the same suite
// from test/jest/property-registry.test.ts. RAG_PROPERTY_SEED explores other inputs locally.
import { shapesSuite } from './shapes.suite.js'

const SEED = Number(process.env.RAG_PROPERTY_SEED ?? 20261205)

shapesSuite({ seed: SEED, runs: 100, asyncRuns: 40 })
