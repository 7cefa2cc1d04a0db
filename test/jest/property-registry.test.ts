// The registry-driven property suites under Jest (CommonJS build of the matchers), the same suites and seed
// as under Vitest (test/property/*.property.test.ts), with the same runs: both runtimes hold the same rules.
import { injectionSuite } from '../property/injection.suite.js'

const SEED = Number(process.env.RAG_PROPERTY_SEED ?? 20261205)

injectionSuite({ seed: SEED, runs: 200, asyncRuns: 60 })
