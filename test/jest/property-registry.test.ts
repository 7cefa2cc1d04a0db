// The registry-driven property suites under Jest (CommonJS build of the matchers): the same suites, seed and
// runs as under Vitest (test/property/{injection,shapes,scripts,files,surfaces}.property.test.ts), so both runtimes
// hold the same rules on every declared matcher.
import { filesSuite } from '../property/files.suite.js'
import { injectionSuite } from '../property/injection.suite.js'
import { scriptsSuite } from '../property/scripts.suite.js'
import { shapesSuite } from '../property/shapes.suite.js'
import { surfacesSuite } from '../property/surfaces.suite.js'

const SEED = Number(process.env.RAG_PROPERTY_SEED ?? 20261205)

injectionSuite({ seed: SEED, runs: 200, asyncRuns: 60 })
shapesSuite({ seed: SEED, runs: 100, asyncRuns: 40 })
scriptsSuite({ seed: SEED, runs: 150, asyncRuns: 0 })
filesSuite({ seed: SEED, runs: 100, asyncRuns: 60 })
surfacesSuite({ seed: SEED, runs: 0, asyncRuns: 30 })
