// Registry-driven properties (issue #27): for every declared matcher and every form (seeds.ts), with and
// without `.not`:
// - a hole punched into any array of the call (received cases, retrieved, relevant, references, contexts,
//   ratings, scores, metric lists, raters…) is a Matcher error in both directions;
// - the options object, and every option record inside it (a baseline's tolerance, a metric with options),
//   given as something other than a plain object with own enumerable string keys (a Map, a class instance,
//   Object.create(proto), a null-prototype parent, a symbol key, a non-enumerable key or getter, an array) is
//   a Matcher error in both directions.
// The list of matchers is the registry's, so a new matcher is covered (or seeds.ts says what it lacks).
// Run by test/property/shapes.property.test.ts (Vitest) and test/jest/property-registry.test.ts (Jest).
import fc from 'fast-check'
import { formFor, type MatcherDeclaration } from '../../matchers/declare.js'
import { checkPair, checkRefused, runAsync, runSync, type MatcherName, type Outcome } from './harness.js'
import { nonPlainOptions, OPTIONS_SHAPES, punchHole, userArrays, watch } from './mutate.js'
import { registry, removeSeedFiles, type SuiteOptions } from './seeds.js'

const isPlain = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && [Object.prototype, null].includes(Object.getPrototypeOf(v) as object | null)

/** A user object with behaviour (a judge, an embedder, a cache): its class is its own business, not an options record. */
const hasMethods = (o: Record<string, unknown>): boolean => Object.values(o).some((v) => typeof v === 'function')

/** Where the options object of a call is (as checkCall finds it), or where it would go. */
function optionsIndex(decl: MatcherDeclaration, received: unknown, args: readonly unknown[]): number {
  const form = formFor(decl, received)
  const required = form.args.filter((a) => a.optional !== true).length
  for (let i = required; i < args.length; i += 1) if (isPlain(args[i])) return i
  return args.length
}

/** The option records inside an options object (plain, no methods), outermost first. */
function nestedRecords(options: Record<string, unknown>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = []
  const visit = (v: unknown, depth: number): void => {
    if (depth > 3) return
    if (Array.isArray(v)) for (const x of v) visit(x, depth + 1)
    else if (isPlain(v) && !hasMethods(v)) {
      out.push(v)
      for (const x of Object.values(v)) visit(x, depth + 1)
    }
  }
  for (const v of Object.values(options)) visit(v, 0)
  return out
}

/** Replaces `target` (found by identity) inside `root` with `replacement`. */
function replaceIn(root: unknown, target: object, replacement: unknown): boolean {
  if (root === null || typeof root !== 'object') return false
  const container = root as Record<string, unknown>
  for (const key of Object.keys(container)) {
    if (container[key] === target) {
      container[key] = replacement
      return true
    }
    if (replaceIn(container[key], target, replacement)) return true
  }
  return false
}

async function both(name: MatcherName, isAsync: boolean, received: unknown, args: unknown[]): Promise<[Outcome, Outcome]> {
  if (isAsync) return [await runAsync(name, false, received, args), await runAsync(name, true, received, args)]
  return [runSync(name, false, received, args), runSync(name, true, received, args)]
}

export function shapesSuite(o: SuiteOptions): void {
  describe(`holes and non-plain options in every matcher's call (seed ${o.seed})`, () => {
    afterAll(removeSeedFiles)
    for (const entry of registry()) {
      const runs = entry.async ? o.asyncRuns : o.runs
      it(`${entry.name}: a hole in any array the matcher reads is a Matcher error, with and without .not (${runs} runs)`, async () => {
        let refused = 0
        await fc.assert(
          fc.asyncProperty(fc.nat(), fc.nat(), fc.nat(), async (which, arrayAt, holeAt) => {
            const seed = (entry.seeds[which % entry.seeds.length] as (typeof entry.seeds)[number])((s) => s)
            const call = [seed.received, ...seed.args]
            const arrays = userArrays(call)
            if (arrays.length === 0) return
            const chosen = arrays[arrayAt % arrays.length] as (typeof arrays)[number]
            punchHole(chosen.array, holeAt)
            const watched = watch(chosen)
            const [received, ...args] = call
            seed.setup?.(received, args)
            watched.reset()
            const [positive, negated] = await both(entry.name, entry.async, received, args)
            checkPair(entry.name, positive, negated)
            if (positive.kind === 'matcher-error' && negated.kind === 'matcher-error') {
              refused += 1
              return
            }
            // Not refused: only right when the matcher never looked into that array (a case's `contexts` for
            // toBeRelevantTo); an array it read and let pass with a hole is the bug (a hole skipped by forEach).
            if (watched.read()) {
              throw new Error(
                `${entry.name}: read an array with a hole at ${holeAt % chosen.array.length} and ${positive.kind}ed (.not: ${negated.kind}) instead of a Matcher error: ${positive.headline}`,
              )
            }
          }),
          { seed: o.seed, numRuns: runs },
        )
        expect(refused).toBeGreaterThan(0)
      })

      it(`${entry.name}: options (and option records in them) that are not plain objects with own enumerable string keys are a Matcher error, with and without .not (${runs} runs)`, async () => {
        let nested = 0
        await fc.assert(
          fc.asyncProperty(fc.nat(), fc.nat(), fc.constantFrom(...OPTIONS_SHAPES), async (which, recordAt, shape) => {
            const seed = (entry.seeds[which % entry.seeds.length] as (typeof entry.seeds)[number])((s) => s)
            const args = [...seed.args]
            const at = optionsIndex(entry.decl, seed.received, args)
            const options = isPlain(args[at]) ? (args[at] as Record<string, unknown>) : {}
            const records = nestedRecords(options)
            // the options object itself, or one of the records inside it
            const pick = recordAt % (records.length + 1)
            if (pick === 0) args[at] = nonPlainOptions(options, shape)
            else {
              const record = records[pick - 1] as Record<string, unknown>
              replaceIn(options, record, nonPlainOptions(record, shape))
              args[at] = options
              nested += 1
            }
            seed.setup?.(seed.received, args)
            const [positive, negated] = await both(entry.name, entry.async, seed.received, args)
            checkPair(entry.name, positive, negated)
            checkRefused(entry.name, positive, negated)
          }),
          { seed: o.seed, numRuns: runs },
        )
        if (entry.name === 'toMatchMetricBaseline') expect(nested).toBeGreaterThan(0)
      })
    }
  })
}
