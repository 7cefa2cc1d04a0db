// Runs under Vitest AND Jest (globals only).
import { toScoreTerBelow } from '../../matchers/generation-ter.js'
import type { MatcherContext } from '../../matchers/context.js'
import { toRecord } from '../../src/report/record.js'
import { formatThreshold } from '../../src/report/table.js'
import { failureOf } from '../helpers/failure.js'

// One substitution ("the" for "a") over 6 reference words: TER = 100 · 1/6.
const answer = 'the cat sat on the mat'
const reference = 'the cat sat on a mat'
// One substitution over 2 words: 50. Corpus: (1 + 1) / (6 + 2) = 25.
const evalSet = [
  { id: 'cat', answer, reference },
  { id: 'dog', answer: 'a dog', references: ['the dog', 'the hound'] },
]

describe('.toScoreTerBelow', () => {
  it('passes when TER ≤ max (lower is better, the bound is inclusive)', () => {
    expect(answer).toScoreTerBelow(reference, 16.67)
    expect(answer).toScoreTerBelow(reference, 100)
    expect(answer).toScoreTerBelow([reference, 'the cat sat on a mat'], 16.67)
    expect(reference).toScoreTerBelow(reference, 0)
  })

  it('fails when TER > max, with the value, the comparator, the edits and the signature', () => {
    const message = failureOf(() => expect(answer).toScoreTerBelow(reference, 10))
    expect(message).toContain('toScoreTerBelow(references, max)')
    expect(message).toContain('TER = 16.67   required ≤ 10.00   (over by 6.67)')
    expect(message).toMatch(/signature: TER\|nrefs:1\|case:lc\|tok:tercom\|norm:no\|punct:yes\|asian:no\|version:/)
    expect(message).toContain('1 edit (shifts, insertions, deletions, substitutions) over an average reference length of 6.00 words')
    expect(message).toContain(`answer:    "${answer}"`)
  })

  it('counts a block shift as one edit and names the closest of several references', () => {
    // "d e f" moved to the front: one shift, TER = 100 · 1/6
    expect('a b c d e f').toScoreTerBelow('d e f a b c', 16.67)
    expect('a b c d e f').not.toScoreTerBelow('d e f a b c', 16.66)
    const message = failureOf(() => expect(answer).toScoreTerBelow(['a b c', reference], 5))
    expect(message).toContain('(fewest edits: reference 2 of 2)')
    // the average reference length (3 and 6 words), as sacrebleu divides by it
    expect(message).toContain('TER = 22.22')
  })

  it('passes the options to the tokenizer (case, normalisation)', () => {
    expect('A B C D').toScoreTerBelow('a b c d', 0)
    expect('A B C D').not.toScoreTerBelow('a b c d', 99, { caseSensitive: true })
    expect(failureOf(() => expect('A B C D').toScoreTerBelow('a b c d', 50, { caseSensitive: true }))).toContain('TER = 100.00   required ≤ 50.00')
    expect(failureOf(() => expect('x, y').toScoreTerBelow('x y', 1, { normalized: true }))).toMatch(
      /signature: TER\|nrefs:1\|case:lc\|tok:tercom\|norm:yes\|punct:yes\|asian:no\|/,
    )
  })
})

describe('.not.toScoreTerBelow', () => {
  it('passes when TER > max', () => {
    expect(answer).not.toScoreTerBelow(reference, 16.66)
    expect('completely different words here').not.toScoreTerBelow(reference, 50)
  })

  it('fails when TER ≤ max, saying by how much it is at or below', () => {
    const message = failureOf(() => expect(answer).not.toScoreTerBelow(reference, 20))
    expect(message).toContain('.not.toScoreTerBelow(references, max)')
    expect(message).toContain('TER = 16.67   required > 20.00   (at or below by 3.33)')
  })
})

describe('.toScoreTerBelow on an eval set', () => {
  it('uses corpus TER: summed edits over summed reference lengths', () => {
    expect(evalSet).toScoreTerBelow(25)
    expect(evalSet).not.toScoreTerBelow(24.99)
    expect({ cases: evalSet }).toScoreTerBelow(25)
  })

  it('fails listing the answers above max, highest first', () => {
    const message = failureOf(() => expect(evalSet).toScoreTerBelow(20))
    expect(message).toContain('toScoreTerBelow(max)')
    expect(message).toContain('corpus TER over 2 answers = 25.00   required ≤ 20.00   (over by 5.00)')
    expect(message).toContain('2 edits (shifts, insertions, deletions, substitutions) over an average reference length of 8.00 words')
    expect(message).toMatch(/1 of 2 above 20\.00 \(highest first\)\n\s+dog\s+50\.00/)
    expect(message).not.toMatch(/^\s+cat\s/m)
  })

  it('under .not lists the answers at or below max, lowest first', () => {
    const message = failureOf(() => expect(evalSet).not.toScoreTerBelow(60))
    expect(message).toContain('required > 60.00   (at or below by 35.00)')
    expect(message).toMatch(/2 of 2 at or below 60\.00 \(lowest first\)\n\s+cat\s+16\.67\n\s+dog\s+50\.00/)
  })
})

describe('.toScoreTerBelow misuse is a Matcher error, with or without .not', () => {
  type To = (received: unknown) => ReturnType<typeof expect>
  const cases: Array<[string, (to: To) => void, RegExp]> = [
    ['a non-string answer', (to) => to(42).toScoreTerBelow(reference, 30), /Matcher error: received value must be an answer string/],
    ['no references', (to) => to(answer).toScoreTerBelow([], 30), /Matcher error: references must be a string or a non-empty array of strings/],
    ['a blank reference', (to) => to(answer).toScoreTerBelow('  ', 30), /Matcher error: the reference is empty or whitespace only/],
    ['a threshold on the 0–1 scale', (to) => to(answer).toScoreTerBelow(reference, 0.3), /Matcher error: max is on sacrebleu's 0–100 scale, got 0.3. Did you mean 30.0\?/],
    ['a negative threshold', (to) => to(answer).toScoreTerBelow(reference, -1), /Matcher error: max must be a number from 0/],
    ['a NaN threshold', (to) => to(answer).toScoreTerBelow(reference, Number.NaN), /Matcher error: max must be a number/],
    [
      'a typo in an option',
      (to) => to(answer).toScoreTerBelow(reference, 30, { normalised: true }),
      /Matcher error: unknown option 'normalised' — did you mean 'normalized'\?/,
    ],
    ['a wrongly typed option', (to) => to(answer).toScoreTerBelow(reference, 30, { noPunct: 'yes' }), /Matcher error: options.noPunct must be a boolean/],
    ['an extra argument', (to) => to(answer).toScoreTerBelow(reference, 30, {}, 1), /Matcher error: toScoreTerBelow takes at most 3 arguments/],
    ['an empty eval set', (to) => to([]).toScoreTerBelow(30), /Matcher error: received eval set must contain at least one case/],
    ['an eval-set case without a reference', (to) => to([{ id: 'q', answer }]).toScoreTerBelow(30), /Matcher error: case q \(received\[0\]\) must have `reference`/],
    [
      'an eval-set case with a blank reference',
      (to) => to([{ id: 'q', answer, reference: '' }]).toScoreTerBelow(30),
      /Matcher error: received\[0\]\.reference \(case q\) is empty/,
    ],
  ]
  it.each(cases)('%s', (_name, assertion, problem) => {
    expect(() => assertion((v) => expect(v))).toThrow(problem)
  })
  it.each(cases)('%s (under .not)', (_name, assertion, problem) => {
    expect(() => assertion((v) => expect(v).not)).toThrow(problem)
  })
})

describe('the recorded TER assertion says lower is better', () => {
  const ctx = (isNot: boolean): MatcherContext => ({
    isNot,
    promise: '',
    utils: { matcherHint: (name) => name, printReceived: (v) => String(v), printExpected: (v) => String(v) },
  })
  it('records comparator ≤ (> under .not) and direction lower', () => {
    const positive = toScoreTerBelow.call(ctx(false), evalSet, 20)
    expect(positive.pass).toBe(false)
    expect(positive.meta).toMatchObject({ matcher: 'toScoreTerBelow', metric: 'TER (corpus)', value: 25, threshold: 20, comparator: '<=', direction: 'lower', pass: false })
    // corpus TER is a set-level score (summed statistics), recorded without per-case values, as corpus BLEU
    expect(positive.meta?.perCase).toBeUndefined()
    const negated = toScoreTerBelow.call(ctx(true), answer, reference, 10)
    expect(negated.meta).toMatchObject({ comparator: '>', direction: 'lower', pass: false })
    const record = toRecord({ isNot: true }, 'toScoreTerBelow', answer, negated.pass, negated.meta!)
    expect(record).toMatchObject({ comparator: '>', direction: 'lower', pass: false, isNot: true, outcome: true })
    expect(toRecord({ isNot: false }, 'toScoreTerBelow', evalSet, positive.pass, positive.meta!)).toMatchObject({ comparator: '<=', direction: 'lower', outcome: false })
  })
  it('prints the threshold the way the matcher compares, in the report tables', () => {
    expect(formatThreshold({ threshold: 30, comparator: '<=', value: 25 }, 2)).toBe('≤ 30.00')
    expect(formatThreshold({ threshold: 30, comparator: '>', value: 25 }, 2)).toBe('> 30.00')
    expect(formatThreshold({ threshold: 0.5, comparator: '>=', value: 0.7 }, 4)).toBe('≥ 0.5000')
  })
})
