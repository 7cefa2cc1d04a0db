// Runs under Vitest AND Jest (globals only). Issue #13: scores in retrieved items and `order: 'score'`.
import { failureOf } from '../helpers/failure.js'

/** The message of a misuse: a Matcher error, thrown with or without `.not`. */
function matcherErrorOf(assertion: () => unknown): string {
  const message = failureOf(assertion)
  expect(message).toContain('Matcher error')
  return message
}

// The reproduction from the issue: `b` is relevant and has the higher score, but is second in the array.
const issue = {
  retrieved: [
    { id: 'a', score: 1 },
    { id: 'b', score: 5 },
  ],
  relevant: ['b'],
}

describe('issue #13 reproduction', () => {
  it('ranks in array order by default (reciprocal rank 0.5) and says so in the failure', () => {
    expect(issue).toHaveMrrAbove(0.5)
    expect(issue).not.toHaveMrrAbove(0.6)
    const message = failureOf(() => expect(issue).toHaveMrrAbove(1))
    expect(message).toContain('RR = 0.5000')
    expect(message).toContain("ranked as given (order: 'given'), but the retrieved scores are not in descending order; pass { order: 'score' } to rank by score")
  })
  it("ranks by score with order: 'score' (reciprocal rank 1)", () => {
    expect(issue).toHaveMrrAbove(1, { order: 'score' })
    const message = failureOf(() => expect(issue).not.toHaveMrrAbove(1, { order: 'score' }))
    expect(message).toContain('signature: RR|dup:first|order:score|')
    expect(message).toContain('ranking (ranked by score)')
    expect(message).not.toContain("order: 'given'")
  })
  it('writes the default order into the signature, so a user who mixes the two sees it', () => {
    const message = failureOf(() => expect(issue).toHaveMrrAbove(1))
    expect(message).toMatch(/signature: RR\|dup:first\|order:given\|/)
  })
})

// The relevant id `r` is last in the array and first by score.
const scored = {
  retrieved: [
    { id: 'x', score: 0.1 },
    { id: 'y', score: 0.2 },
    { id: 'r', score: 0.9 },
  ],
  relevant: ['r'],
}

describe("every retrieval matcher takes order: 'score'", () => {
  it.each([
    ['toHavePrecisionAtK', (o?: object) => expect(scored).toHavePrecisionAtK(1, 1, o), (o?: object) => expect(scored).not.toHavePrecisionAtK(1, 1, o)],
    ['toHaveRecallAtK', (o?: object) => expect(scored).toHaveRecallAtK(1, 1, o), (o?: object) => expect(scored).not.toHaveRecallAtK(1, 1, o)],
    ['toHaveMrrAbove', (o?: object) => expect(scored).toHaveMrrAbove(1, o), (o?: object) => expect(scored).not.toHaveMrrAbove(1, o)],
    ['toHaveNdcgAtK', (o?: object) => expect(scored).toHaveNdcgAtK(1, 1, o), (o?: object) => expect(scored).not.toHaveNdcgAtK(1, 1, o)],
    ['toHaveMapAtK', (o?: object) => expect(scored).toHaveMapAtK(1, 1, o), (o?: object) => expect(scored).not.toHaveMapAtK(1, 1, o)],
    ['toHitWithin', (o?: object) => expect(scored).toHitWithin(1, o), (o?: object) => expect(scored).not.toHitWithin(1, o)],
    ['toHaveHitRateAtK', (o?: object) => expect(scored).toHaveHitRateAtK(1, 1, o), (o?: object) => expect(scored).not.toHaveHitRateAtK(1, 1, o)],
  ])('%s: by score it passes; as given it does not', (_name, positive, negative) => {
    positive({ order: 'score' })
    negative({ order: 'given' })
    negative()
    expect(() => positive()).toThrow()
    expect(() => negative({ order: 'score' })).toThrow()
  })
})

describe('eval sets', () => {
  const set = [
    { id: 'q1', ...scored },
    {
      id: 'q2',
      retrieved: [
        { id: 'p', score: 3 },
        { id: 'q', score: 2 },
      ],
      relevant: ['p'],
    },
  ]
  it('ranks every case by score', () => {
    expect(set).toHaveMrrAbove(1, { order: 'score' })
    expect({ cases: set }).toHaveNdcgAtK(1, 1, { order: 'score' })
  })
  it('says how many cases had scores out of array order', () => {
    const message = failureOf(() => expect(set).toHaveMrrAbove(1))
    expect(message).toContain('MRR over 2 queries = 0.6667')
    expect(message).toContain('in 1 of 2 queries the retrieved scores are not in descending order')
  })
  it('names the case and the position of an item without a score', () => {
    const bad = [...set, { id: 'q3', retrieved: [{ id: 'a', score: 1 }, { id: 'b' }], relevant: ['a'] }]
    const message = matcherErrorOf(() => expect(bad).toHaveRecallAtK(1, 0.5, { order: 'score' }))
    expect(message).toContain('received[2] (q3): recallAtK: Expected `retrieved[1].score` to be an object with a finite `score`')
  })
})

describe('misuse of order is a Matcher error, with or without .not', () => {
  it('bare ids cannot be ranked by score: the position is named', () => {
    const c = { retrieved: [{ id: 'a', score: 2 }, 'b'], relevant: ['a'] }
    expect(matcherErrorOf(() => expect(c).toHaveNdcgAtK(2, 0.5, { order: 'score' }))).toContain(
      "Expected `retrieved[1]` to be an object with a finite `score` (order: 'score' ranks by score)",
    )
    expect(matcherErrorOf(() => expect(c).not.toHaveNdcgAtK(2, 0.5, { order: 'score' }))).toContain('`retrieved[1]`')
  })
  it.each([
    ['NaN', Number.NaN],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['null', null],
  ])('a %s score is refused, naming its position', (_what, score) => {
    const c = {
      retrieved: [
        { id: 'a', score },
        { id: 'b', score: 1 },
      ],
      relevant: ['a'],
    }
    expect(matcherErrorOf(() => expect(c).toHaveMrrAbove(0.5, { order: 'score' }))).toContain('`retrieved[0].score`')
    expect(matcherErrorOf(() => expect(c).not.toHaveMrrAbove(0.5, { order: 'score' }))).toContain('`retrieved[0].score`')
  })
  it('an unknown order value is refused before anything is computed', () => {
    const message = matcherErrorOf(() => expect(scored).toHaveRecallAtK(1, 1, { order: 'desc' } as never))
    expect(message).toContain("options.order must be 'given' | 'score'")
    expect(matcherErrorOf(() => expect(scored).not.toHaveRecallAtK(1, 1, { order: 'desc' } as never))).toContain('options.order')
  })
})

describe('ties by score follow trec_eval (docno descending)', () => {
  it('puts the larger id first among equal scores', () => {
    const tie = {
      retrieved: [
        { id: 'a', score: 1 },
        { id: 'b', score: 1 },
      ],
      relevant: ['a'],
    }
    expect(tie).toHaveMrrAbove(1)
    expect(tie).not.toHaveMrrAbove(0.6, { order: 'score' })
    expect(tie).toHaveMrrAbove(0.5, { order: 'score' })
  })
})
