// Vitest entry of the printed-surface property (surfaces.suite.ts); Jest runs the same suite from
// test/jest/property-registry.test.ts. RAG_PROPERTY_SEED explores other inputs locally.
import { surfacesSuite } from './surfaces.suite.js'

const SEED = Number(process.env.RAG_PROPERTY_SEED ?? 20261205)

surfacesSuite({ seed: SEED, runs: 0, asyncRuns: 30 })
