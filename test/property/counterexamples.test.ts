// Every shrunk counterexample the property suite (matchers.property.test.ts) found, kept as an explicit
// regression test. Each comment names the seed, what it found and where it was fixed.
import { checkSync, runSync, type Outcome } from './harness.js'

/** A null-prototype object: no toString, so String(value) throws (fast-check's dictionaries make these). */
function bare(entries: Record<string, unknown> = {}): object {
  return Object.assign(Object.create(null) as object, entries)
}

function matcherErrorOf(o: Outcome): string {
  if (o.kind !== 'matcher-error') throw new Error(`expected a Matcher error, got a ${o.kind}`)
  return o.message
}

/** The headline of an outcome that must be an (uncomputable) failure. */
function failureOf(o: Outcome): string {
  if (o.kind !== 'fail' || !o.uncomputable) throw new Error(`expected a failure that says it cannot be computed, got a ${o.kind}`)
  return o.message
}

describe('property-suite counterexamples', () => {
  it('seed 20261202: an option with a bigint in a null-prototype object made describeValue throw a TypeError (fixed in src/errors.ts)', () => {
    const options = bare({ minWinRate: 10n })
    checkSync('toWinAgainst', '', [null, options])
    const message = matcherErrorOf(runSync('toWinAgainst', false, [{ item: 'i1', a: 'new', b: 'old', winner: 'a' }], ['old', options]))
    expect(message).toContain("unknown option 'minWinRate'")
    expect(message).toContain('{"minWinRate":"10n"}')
  })
  it('seed 1: a case whose pipeline error is a null-prototype object made the set reader throw a TypeError (fixed in matchers/validate.ts errorText)', () => {
    checkSync('toScoreRougeLAbove', { cases: [{ error: bare() }] }, [0])
    // Since eval sets keep partial results, a failed case fails the assertion both ways (not a Matcher error).
    expect(failureOf(runSync('toScoreRougeLAbove', false, { cases: [{ error: bare() }] }, [0]))).toContain('so the assertion fails')
    expect(failureOf(runSync('toHaveRecallAtK', true, [{ error: bare({ message: 'boom' }) }], [1, 0.5]))).toContain('pipeline failed: boom')
  })
  it('seed 3: a ROUGE `type` that is a null-prototype object made RegExp.test throw a TypeError (fixed in matchers/generation.ts)', () => {
    checkSync('toScoreRougeAbove', [], [0, { type: bare() }])
    expect(matcherErrorOf(runSync('toScoreRougeAbove', false, 'the cat', ['the cat', 0.5, { type: bare() }]))).toContain("options.type must be 'rouge1'")
  })
  it('seed 3: the numeric check on a set with a null-prototype pipeline error threw a TypeError (same fix)', () => {
    checkSync('toStateNumbersOf', [{ error: bare() }], [undefined])
  })
})
