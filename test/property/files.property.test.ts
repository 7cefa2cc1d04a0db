// Vitest entry of the hand-edited file properties (files.suite.ts); Jest runs the same suite from
// test/jest/property-registry.test.ts. RAG_PROPERTY_SEED explores other inputs locally.
import { filesSuite } from './files.suite.js'

const SEED = Number(process.env.RAG_PROPERTY_SEED ?? 20261205)

filesSuite({ seed: SEED, runs: 100, asyncRuns: 60 })
