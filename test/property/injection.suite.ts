// Registry-driven property (issue #27): every declared matcher, every form, with and without `.not`, on
// its seed call (seeds.ts) with user text made hostile (a case id, a document id, an answer, a reference, a
// baseline name, a record key, an option key, a number turned into text, a judge's reply): the failure
// message, the pass message and the Matcher error hold no raw ESC, CR, C1, separator or bidi character
// and no line that starts with user text (printed.ts), and the one rule holds (harness.ts checkPair).
// Run by test/property/injection.property.test.ts (Vitest) and test/jest/property-registry.test.ts (Jest).
import fc from 'fast-check'
import { checkPair, runAsync, runSync, type Outcome } from './harness.js'
import { mutateText, textMutation } from './mutate.js'
import { assertPrintable, injection, reached } from './printed.js'
import { registry, removeSeedFiles, type SuiteOptions } from './seeds.js'

function checkPrinted(name: string, positive: Outcome, negated: Outcome): boolean {
  assertPrintable(`${name} (${positive.kind})`, positive.message)
  assertPrintable(`${name} (.not, ${negated.kind})`, negated.message)
  return reached(positive.message) || reached(negated.message)
}

export function injectionSuite(o: SuiteOptions): void {
  describe(`hostile user text in every matcher's messages (seed ${o.seed})`, () => {
    afterAll(removeSeedFiles)
    for (const entry of registry()) {
      const runs = entry.async ? o.asyncRuns : o.runs
      it(`${entry.name}: no raw control character and no forged line, with and without .not (${runs} runs, ${entry.seeds.length} seeds)`, async () => {
        let reachedMessages = 0
        const property = fc.asyncProperty(fc.nat(), textMutation, injection, async (which, mutation, inject) => {
          const seed = (entry.seeds[which % entry.seeds.length] as (typeof entry.seeds)[number])(inject)
          const call = [seed.received, ...seed.args]
          mutateText(call, mutation, inject)
          const [received, ...args] = call
          seed.setup?.(received, args)
          const positive = entry.async ? await runAsync(entry.name, false, received, args) : runSync(entry.name, false, received, args)
          const negated = entry.async ? await runAsync(entry.name, true, received, args) : runSync(entry.name, true, received, args)
          checkPair(entry.name, positive, negated)
          if (checkPrinted(entry.name, positive, negated)) reachedMessages += 1
        })
        await fc.assert(property, { seed: o.seed, numRuns: runs })
        // the hostile text reached a message in some runs, so the check above met something to catch
        expect(reachedMessages).toBeGreaterThan(0)
      })
    }
  })
}
