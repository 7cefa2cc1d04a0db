// The property suite's Jest entry (CommonJS build of the matchers): the kept counterexamples, and a
// smaller run of the retrieval and text properties, so both runtimes hold the same rule.
import fc from 'fast-check'
import { answerCase, k, options, received, references, retrievalCase, text, threshold, junk } from '../property/arbitraries.js'
import { checkSync } from '../property/harness.js'
import '../property/counterexamples.test.js'

const SEED = 20261202

describe('properties under Jest', () => {
  it.each(['toHaveRecallAtK', 'toHaveNdcgAtK', 'toHavePrecisionAtK'] as const)('%s', (name) => {
    fc.assert(
      fc.property(
        received(retrievalCase),
        k,
        threshold(),
        options({ duplicates: fc.constantFrom('first', 'literal', 'error'), allowEmptyRelevant: fc.boolean() }),
        (r, kk, min, o) => checkSync(name, r, [kk, min, o]),
      ),
      { seed: SEED, numRuns: 60 },
    )
  })
  it.each(['toScoreRougeAbove', 'toScoreBleuAbove'] as const)('%s', (name) => {
    const min = threshold(name === 'toScoreBleuAbove' ? 100 : 1)
    fc.assert(
      fc.property(fc.oneof(fc.tuple(fc.oneof(text, junk), fc.tuple(references, min)), fc.tuple(received(answerCase), fc.tuple(min))), ([r, args]) => checkSync(name, r, args)),
      { seed: SEED, numRuns: 60 },
    )
  })
})
