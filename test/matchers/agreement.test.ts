// Runs under Vitest AND Jest (globals only).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { toCorrelateWith, toHaveAgreementAbove, toWinAgainst } from '../../matchers/agreement.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { cohenKappa, fleissKappa, kendallTau, krippendorffAlpha, parseRatings, pearson, spearman, winRate } from '../../src/agreement/index.js'
import { failureOf } from '../helpers/failure.js'

/** A bare matcher context, to read a result's `meta` (the value the matcher compared) directly. */
function context(isNot = false): MatcherContext {
  return { isNot, promise: '', utils: { matcherHint: (name) => name, printReceived: String, printExpected: String } }
}

/** The result under both directions; an undefined value must fail both (pass === isNot). */
function bothWays(run: (ctx: MatcherContext) => MatcherResult): { plain: MatcherResult; not: MatcherResult } {
  return { plain: run(context(false)), not: run(context(true)) }
}

// Likert scores of three raters; ann and bob disagree on q3 and q6, carl on q1 and q4.
const likert: ReadonlyArray<readonly [string, number, number, number]> = [
  ['q1', 5, 5, 4],
  ['q2', 4, 4, 4],
  ['q3', 1, 2, 1],
  ['q4', 3, 3, 5],
  ['q5', 2, 2, 2],
  ['q6', 5, 4, 5],
]
const correctness = likert.flatMap(([item, ann, bob, carl]) => [
  { item, rater: 'ann', dimension: 'correctness', score: ann },
  { item, rater: 'bob', dimension: 'correctness', score: bob },
  { item, rater: 'carl', dimension: 'correctness', score: carl },
])
const helpfulness = likert.map(([item]) => ({ item, rater: 'ann', dimension: 'helpfulness', score: 3 }))
const column = (i: 1 | 2 | 3) => likert.map((row) => row[i])

describe('.toHaveAgreementAbove: Cohen', () => {
  const annBob = correctness.filter((r) => r.rater !== 'carl')
  const kappa = cohenKappa(column(1), column(2)).value // 0.5862…, scikit-learn semantics

  it('passes at the value (≥ is inclusive) and fails just above it', () => {
    expect(kappa).toBeCloseTo(0.5862068965517242, 15)
    expect(annBob).toHaveAgreementAbove(kappa, { statistic: 'cohen' })
    expect(annBob).not.toHaveAgreementAbove(kappa + 1e-9, { statistic: 'cohen' })
  })

  it('fails with the value, threshold, signature, confusion matrix and disagreed items', () => {
    const message = failureOf(() => expect(annBob).toHaveAgreementAbove(0.8, { statistic: 'cohen' }))
    expect(message).toContain("Cohen's kappa = 0.5862   required ≥ 0.8000   (short by 0.2138)")
    expect(message).toMatch(/signature: Kappa\|kind:cohen\|weights:none\|n:6\|version:/)
    expect(message).toContain('dimension correctness, ann × bob: 6 items rated by both')
    expect(message).toContain('confusion matrix, rows ann, columns bob:')
    expect(message).toMatch(/ {2}5 {2}0 {2}0 {2}0 {2}1 {2}1\n/) // ann 5: bob 4 once (q6), bob 5 once (q1)
    expect(message).toMatch(/most disagreed items:\n {2}q3 {2}ann=1, bob=2\n {2}q6 {2}ann=5, bob=4/)
    expect(message).toMatchSnapshot()
  })

  it('takes weights (over the sorted scores) and says so in the signature', () => {
    const linear = cohenKappa(column(1), column(2), { weights: 'linear' }).value
    expect(linear).toBeGreaterThan(kappa) // near misses count less
    expect(annBob).toHaveAgreementAbove(linear, { statistic: 'cohen', weights: 'linear' })
    const message = failureOf(() => expect(annBob).toHaveAgreementAbove(0.99, { statistic: 'cohen', weights: 'quadratic' }))
    expect(message).toMatch(/signature: Kappa\|kind:cohen\|weights:quadratic\|n:6\|/)
  })

  it('needs raters: [a, b] with more than two raters, and then uses that pair (rows = first)', () => {
    expect(() => expect(correctness).toHaveAgreementAbove(0.5, { statistic: 'cohen' })).toThrow(
      /Matcher error: statistic 'cohen' compares two raters, and the ratings have 3 \(ann, bob, carl\); pass options.raters/,
    )
    const annCarl = cohenKappa(column(1), column(3)).value
    expect(correctness).toHaveAgreementAbove(annCarl, { statistic: 'cohen', raters: ['ann', 'carl'] })
    expect(correctness).not.toHaveAgreementAbove(annCarl + 1e-9, { statistic: 'cohen', raters: ['carl', 'ann'] })
    expect(failureOf(() => expect(correctness).toHaveAgreementAbove(0.9, { statistic: 'cohen', raters: ['carl', 'ann'] }))).toContain(
      'confusion matrix, rows carl, columns ann:',
    )
  })

  it('counts only the items both raters scored and lists the others', () => {
    const partial = [...annBob, { item: 'q7', rater: 'ann', dimension: 'correctness', score: 1 }]
    const message = failureOf(() => expect(partial).toHaveAgreementAbove(0.9, { statistic: 'cohen' }))
    expect(message).toContain('6 items rated by both; 1 left out (rated by one of them only): q7')
  })

  it('bounds the confusion matrix to 10 categories', () => {
    const a = Array.from({ length: 12 }, (_, i) => i)
    const b = a.map((v) => (v + 1) % 12)
    const message = failureOf(() => expect([a, b]).toHaveAgreementAbove(0.5, { statistic: 'cohen' }))
    expect(message).toContain('(first 10 of 12 categories)')
    expect(message).not.toMatch(/^ {2}11 /m)
  })

  it('reads a 2 × items matrix (rows are raters)', () => {
    expect([column(1), column(2)]).toHaveAgreementAbove(kappa, { statistic: 'cohen' })
    expect([column(1), column(2), column(3)]).toHaveAgreementAbove(kappa, { statistic: 'cohen', raters: [0, 1] })
    expect(failureOf(() => expect([column(1), column(2)]).toHaveAgreementAbove(0.9, { statistic: 'cohen' }))).toContain('matrix row 0 × row 1: 6 items rated by both')
  })

  it('.not: passes below min, fails at or above it', () => {
    expect(annBob).not.toHaveAgreementAbove(0.6, { statistic: 'cohen' })
    const message = failureOf(() => expect(annBob).not.toHaveAgreementAbove(0.5, { statistic: 'cohen' }))
    expect(message).toContain('expect(received).not.toHaveAgreementAbove(min, options)')
    expect(message).toContain("Cohen's kappa = 0.5862   required < 0.5000   (at or above by 0.0862)")
  })

  it('an undefined kappa (both raters used one label) fails with and without .not, giving the reason', () => {
    const same = [
      { item: 'q1', rater: 'ann', score: 'pass' },
      { item: 'q1', rater: 'bob', score: 'pass' },
      { item: 'q2', rater: 'ann', score: 'pass' },
      { item: 'q2', rater: 'bob', score: 'pass' },
    ]
    const { plain, not } = bothWays((ctx) => toHaveAgreementAbove.call(ctx, same, 0.5, { statistic: 'cohen' }))
    expect(plain.pass).toBe(false)
    expect(not.pass).toBe(true) // the runner flips it: the assertion fails under .not too
    expect(Number.isNaN(plain.meta?.value)).toBe(true)
    expect(() => expect(same).toHaveAgreementAbove(-1, { statistic: 'cohen' })).toThrow(/Cohen's kappa is undefined for these data/)
    const message = failureOf(() => expect(same).not.toHaveAgreementAbove(0.5, { statistic: 'cohen' }))
    expect(message).toContain("Cohen's kappa is undefined for these data, so the assertion fails (also with .not).")
    expect(message).toContain('reason: expected disagreement is 0 (both raters gave every item the same single label), so kappa is 0/0')
  })

  it('two raters without a shared item, or a single rater: undefined, fails both ways', () => {
    const disjoint = [
      { item: 'q1', rater: 'ann', score: 1 },
      { item: 'q2', rater: 'bob', score: 2 },
    ]
    expect(failureOf(() => expect(disjoint).not.toHaveAgreementAbove(0, { statistic: 'cohen' }))).toContain('reason: ann and bob rated no item in common')
    expect(failureOf(() => expect([{ item: 'q1', rater: 'ann', score: 1 }]).toHaveAgreementAbove(0, { statistic: 'cohen' }))).toContain(
      "reason: Cohen's kappa needs two raters; the ratings name only ann",
    )
  })
})

describe('.toHaveAgreementAbove: Fleiss', () => {
  const fleiss = fleissKappa(
    likert.map((row) => [row[1], row[2], row[3]]),
    { input: 'ratings' },
  ).value

  it('uses every rater; passes at the value and fails above it', () => {
    expect(fleiss).toBeCloseTo(0.42400000000000004, 15)
    expect(correctness).toHaveAgreementAbove(fleiss, { statistic: 'fleiss' })
    expect(correctness).not.toHaveAgreementAbove(fleiss + 1e-9, { statistic: 'fleiss' })
  })

  it('fails with the least-agreeing pair and the most disputed items', () => {
    const message = failureOf(() => expect(correctness).toHaveAgreementAbove(0.6, { statistic: 'fleiss' }))
    expect(message).toContain("Fleiss' kappa = 0.4240   required ≥ 0.6000   (short by 0.1760)")
    expect(message).toMatch(/signature: Kappa\|kind:fleiss\|items:6\|raters:3\|categories:5\|version:/)
    expect(message).toContain('dimension correctness: 6 items rated by all 3 raters (ann, bob, carl)')
    expect(message).toContain('least-agreeing pair bob × carl (observed agreement 0.3333')
    expect(message).toContain('q4  ann=3, bob=3, carl=5  (0.67 of rater pairs disagree)')
    expect(message).toMatchSnapshot()
  })

  it('leaves out items not every rater scored, and names them', () => {
    const partial = [...correctness, { item: 'q7', rater: 'ann', dimension: 'correctness', score: 3 }]
    expect(partial).toHaveAgreementAbove(fleiss, { statistic: 'fleiss' })
    expect(failureOf(() => expect(partial).toHaveAgreementAbove(0.9, { statistic: 'fleiss' }))).toContain(
      '6 items rated by all 3 raters (ann, bob, carl); 1 left out (not rated by every rater): q7',
    )
  })

  it('raters selects a subset', () => {
    const annBob = fleissKappa(
      likert.map((row) => [row[1], row[2]]),
      { input: 'ratings' },
    ).value
    expect(correctness).toHaveAgreementAbove(annBob, { statistic: 'fleiss', raters: ['ann', 'bob'] })
    expect(correctness).not.toHaveAgreementAbove(annBob + 1e-9, { statistic: 'fleiss', raters: ['ann', 'bob'] })
  })

  it('no item rated by everyone: undefined, fails both ways', () => {
    const sparse = [
      { item: 'q1', rater: 'ann', score: 1 },
      { item: 'q1', rater: 'bob', score: 2 },
      { item: 'q2', rater: 'carl', score: 2 },
    ]
    expect(failureOf(() => expect(sparse).not.toHaveAgreementAbove(0, { statistic: 'fleiss' }))).toContain('reason: no item was rated by every rater')
  })
})

describe('.toHaveAgreementAbove: Krippendorff', () => {
  // Krippendorff (2011)'s example: 4 raters × 12 units with missing ratings (golden kripp-0051).
  const k2011 = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
    [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
  ]

  it('matrix input, level as given (default ordinal for numbers)', () => {
    expect(k2011).toHaveAgreementAbove(0.743421052631579, { statistic: 'krippendorff', level: 'nominal' })
    expect(k2011).not.toHaveAgreementAbove(0.743421052631579 + 1e-12, { statistic: 'krippendorff', level: 'nominal' })
    expect(k2011).toHaveAgreementAbove(0.8491071428571428, { statistic: 'krippendorff', level: 'interval' })
    expect(k2011).toHaveAgreementAbove(0.8153875037548814, { statistic: 'krippendorff' })
    expect(k2011).not.toHaveAgreementAbove(0.8153875037548814 + 1e-12, { statistic: 'krippendorff' })
  })

  it('fails with the level, the pairable counts and the disagreements', () => {
    const message = failureOf(() => expect(k2011).toHaveAgreementAbove(0.9, { statistic: 'krippendorff' }))
    expect(message).toContain("Krippendorff's alpha = 0.8154   required ≥ 0.9000   (short by 0.0846)")
    expect(message).toMatch(/signature: Alpha\|kind:krippendorff\|level:ordinal\|raters:4\|units:12\|version:/)
    expect(message).toContain('raters × items matrix: 4 raters, 12 items; level ordinal (the default for numeric scores)')
    expect(message).toContain('11 of 12 items rated at least twice (pairable)')
    expect(message).toMatch(/most disagreed items:\n {2}col 5 {2}row 0=1, row 1=2, row 2=3, row 3=4 {2}\(1\.00 of rater pairs disagree\)/)
    expect(message).toMatchSnapshot()
  })

  it('records with missing ratings give the same value as the matrix', () => {
    const records = k2011.flatMap((row, r) => row.flatMap((score, u) => (score === null ? [] : [{ item: `u${u}`, rater: `c${r}`, score }])))
    const alpha = krippendorffAlpha(k2011, { level: 'ordinal' }).value
    expect(records).toHaveAgreementAbove(alpha, { statistic: 'krippendorff' })
    expect(records).not.toHaveAgreementAbove(alpha + 1e-12, { statistic: 'krippendorff' })
  })

  it('labels are nominal by default; booleans go in as false < true', () => {
    const labels = [
      { item: 'q1', rater: 'ann', score: 'good' },
      { item: 'q1', rater: 'bob', score: 'good' },
      { item: 'q2', rater: 'ann', score: 'bad' },
      { item: 'q2', rater: 'bob', score: 'bad' },
      { item: 'q3', rater: 'ann', score: 'good' },
      { item: 'q3', rater: 'bob', score: 'bad' },
    ]
    const alpha = krippendorffAlpha(
      [
        ['good', 'bad', 'good'],
        ['good', 'bad', 'bad'],
      ],
      { level: 'nominal' },
    ).value
    expect(labels).toHaveAgreementAbove(alpha, { statistic: 'krippendorff' })
    expect(labels).not.toHaveAgreementAbove(alpha + 1e-12, { statistic: 'krippendorff' })
    const booleans = labels.map((r) => ({ ...r, score: r.score === 'good' }))
    expect(booleans).toHaveAgreementAbove(alpha, { statistic: 'krippendorff' })
    expect(booleans).toHaveAgreementAbove(alpha, { statistic: 'krippendorff', level: 'ordinal' })
  })

  it('what the reference refuses (a single value, no unit rated twice) fails both ways with the reason', () => {
    const single = [
      [3, 3, 3],
      [3, 3, 3],
    ]
    const { plain, not } = bothWays((ctx) => toHaveAgreementAbove.call(ctx, single, 0, { statistic: 'krippendorff' }))
    expect([plain.pass, not.pass]).toEqual([false, true])
    expect(failureOf(() => expect(single).not.toHaveAgreementAbove(0, { statistic: 'krippendorff' }))).toContain(
      'reason: the data need ratings with more than one value in the domain',
    )
    expect(
      failureOf(() =>
        expect([
          [1, null],
          [null, 2],
        ]).toHaveAgreementAbove(0, { statistic: 'krippendorff' }),
      ),
    ).toContain('reason: the data need at least one unit with values assigned by at least two coders')
  })
})

describe('.toHaveAgreementAbove: received forms and misuse', () => {
  it('picks the dimension, and needs one when the records have several', () => {
    const both = [...correctness, ...helpfulness]
    const alpha = krippendorffAlpha([column(1), column(2), column(3)], { level: 'ordinal' }).value
    expect(both).toHaveAgreementAbove(alpha, { statistic: 'krippendorff', dimension: 'correctness' })
    expect(() => expect(both).toHaveAgreementAbove(0.5, { statistic: 'krippendorff' })).toThrow(
      /Matcher error: the ratings have 2 dimensions \(correctness, helpfulness\); choose one with options.dimension/,
    )
    expect(() => expect(both).toHaveAgreementAbove(0.5, { statistic: 'krippendorff', dimension: 'fluency' })).toThrow(
      /options.dimension "fluency" is not in the ratings; dimensions: correctness, helpfulness/,
    )
  })

  it("takes loadRatings()'s { scores, comparisons } and CSV/JSONL records", () => {
    const ratings = parseRatings('item,rater,score\nq1,ann,1\nq1,bob,1\nq2,ann,0\nq2,bob,1\nq3,ann,0\nq3,bob,0\n', { format: 'csv' })
    // kappa 0.3999999999999999 (scikit-learn gives the same float): just under 0.4
    expect(ratings).toHaveAgreementAbove(0.3999999999999999, { statistic: 'cohen' })
    expect(ratings).not.toHaveAgreementAbove(0.4, { statistic: 'cohen' })
    const pairwise = parseRatings('{"item":"q1","rater":"ann","a":"x","b":"y","winner":"a"}\n', { format: 'jsonl' })
    expect(() => expect(pairwise).toHaveAgreementAbove(0.5, { statistic: 'cohen' })).toThrow(/pairwise judgements only; compare systems with toWinAgainst/)
  })

  const misuse: Array<[string, () => unknown, RegExp]> = [
    ['min above 1', () => expect(correctness).toHaveAgreementAbove(1.5, { statistic: 'fleiss' }), /min must be a number from -1 to 1, got `1.5`/],
    ['min as a string', () => expect(correctness).toHaveAgreementAbove('0.5' as never, { statistic: 'fleiss' }), /min must be a number from -1 to 1/],
    ['no options', () => expect(correctness).toHaveAgreementAbove(0.5, undefined as never), /options must be an object naming the statistic/],
    [
      'unknown statistic',
      () => expect(correctness).toHaveAgreementAbove(0.5, { statistic: 'scott' } as never),
      /options.statistic must be 'cohen', 'fleiss' or 'krippendorff'/,
    ],
    [
      'weights with fleiss',
      () => expect(correctness).toHaveAgreementAbove(0.5, { statistic: 'fleiss', weights: 'linear' } as never),
      /options.weights applies to statistic 'cohen' only/,
    ],
    [
      'level with cohen',
      () => expect(correctness).toHaveAgreementAbove(0.5, { statistic: 'cohen', level: 'interval' } as never),
      /options.level applies to statistic 'krippendorff' only/,
    ],
    ['one rater for cohen', () => expect(correctness).toHaveAgreementAbove(0.5, { statistic: 'cohen', raters: ['ann'] as never }), /exactly two raters/],
    [
      'unknown rater',
      () => expect(correctness).toHaveAgreementAbove(0.5, { statistic: 'cohen', raters: ['ann', 'dan'] }),
      /options.raters names "dan", who did not rate correctness; raters: ann, bob, carl/,
    ],
    ['a matrix for fleiss', () => expect([column(1), column(2)]).toHaveAgreementAbove(0.5, { statistic: 'fleiss' }), /statistic 'fleiss' needs rating records/],
    ['a ragged matrix', () => expect([[1, 2], [1]]).toHaveAgreementAbove(0.5, { statistic: 'krippendorff' }), /row 1 has 1 items, row 0 has 2/],
    [
      'a bad row index',
      () =>
        expect([
          [1, 2],
          [1, 2],
        ]).toHaveAgreementAbove(0.5, { statistic: 'cohen', raters: [0, 2] }),
      /row indices of the matrix \(0 to 1\)/,
    ],
    ['an empty array', () => expect([]).toHaveAgreementAbove(0.5, { statistic: 'cohen' }), /received value must hold at least one rating/],
    ['not ratings', () => expect('ratings.csv').toHaveAgreementAbove(0.5, { statistic: 'cohen' }), /received value must be rating records/],
    [
      'a record without rater',
      () => expect([{ item: 'q1', score: 1 }]).toHaveAgreementAbove(0.5, { statistic: 'cohen' }),
      /received\[0\].rater must be a non-empty string or a number/,
    ],
    [
      'a null score',
      () => expect([{ item: 'q1', rater: 'ann', score: null }]).toHaveAgreementAbove(0.5, { statistic: 'cohen' }),
      /received\[0\].score must be a finite number/,
    ],
    [
      'mixed score kinds',
      () =>
        expect([
          { item: 'q1', rater: 'ann', score: 1 },
          { item: 'q1', rater: 'bob', score: 'good' },
        ]).toHaveAgreementAbove(0.5, { statistic: 'cohen' }),
      /received\[1\].score is a string, but earlier scores on overall are numbers/,
    ],
    [
      'a duplicate rating',
      () =>
        expect([
          { item: 'q1', rater: 'ann', score: 1 },
          { item: 'q1', rater: 'ann', score: 2 },
        ]).toHaveAgreementAbove(0.5, { statistic: 'cohen' }),
      /received\[1\] rates item "q1" again: ann already scored it on overall/,
    ],
    [
      'weights on labels',
      () =>
        expect([
          { item: 'q1', rater: 'ann', score: 'good' },
          { item: 'q1', rater: 'bob', score: 'bad' },
        ]).toHaveAgreementAbove(0.5, { statistic: 'cohen', weights: 'linear' }),
      /options.weights needs numeric \(or boolean\) scores/,
    ],
    [
      'an ordinal level on labels',
      () =>
        expect([
          { item: 'q1', rater: 'ann', score: 'good' },
          { item: 'q1', rater: 'bob', score: 'bad' },
        ]).toHaveAgreementAbove(0.5, { statistic: 'krippendorff', level: 'ordinal' }),
      /options.level 'ordinal' needs numeric scores/,
    ],
  ]
  it.each(misuse)('misuse: %s throws a Matcher error, with or without .not', (_name, run, pattern) => {
    expect(run).toThrow(/Matcher error: /)
    expect(run).toThrow(pattern)
  })
  it('misuse throws under .not as well', () => {
    expect(() => expect(correctness).not.toHaveAgreementAbove(2, { statistic: 'fleiss' })).toThrow(/Matcher error: min must be a number from -1 to 1/)
  })
})

describe('.toCorrelateWith', () => {
  const metric = { a: 0.9, b: 0.2, c: 0.5, d: 0.7, e: 0.1 }
  const human = { a: 1, b: 5, c: 3, d: 4, e: 2 }

  it('arrays align by position: passes at the value, fails above it', () => {
    const rho = spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]).value // 0.8207826816681233 (scipy)
    expect(rho).toBeCloseTo(0.8207826816681233, 15)
    expect([1, 2, 3, 4, 5]).toCorrelateWith([5, 6, 7, 8, 7], rho)
    expect([1, 2, 3, 4, 5]).not.toCorrelateWith([5, 6, 7, 8, 7], rho + 1e-12)
    const tau = kendallTau([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]).value
    expect([1, 2, 3, 4, 5]).toCorrelateWith([5, 6, 7, 8, 7], tau, { method: 'kendall' })
    expect([1, 2, 3, 4, 5]).not.toCorrelateWith([5, 6, 7, 8, 7], tau + 1e-12, { method: 'kendall' })
    const r = pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]).value // 0.7745966692414834
    expect([1, 2, 3, 4, 5]).toCorrelateWith([2, 4, 5, 4, 5], r, { method: 'pearson' })
    expect([1, 2, 3, 4, 5]).not.toCorrelateWith([2, 4, 5, 4, 5], r + 1e-12, { method: 'pearson' })
  })

  it('records align by item (in any order)', () => {
    // ranks a..e: metric 1,4,3,2,5 and human 5,1,3,2,4 → Σd² = 26, rho = 1 − 6·26/(5·24) = −0.3
    expect(metric).toCorrelateWith(human, -0.3 - 1e-12)
    expect(metric).not.toCorrelateWith(human, -0.3 + 1e-12)
    expect(new Map(Object.entries(metric))).toCorrelateWith(new Map(Object.entries(human)), -0.3 - 1e-12)
    const message = failureOf(() => expect(metric).toCorrelateWith(human, 0.5))
    expect(message).toContain("Spearman's rho (received vs humanScores) = -0.3000   required ≥ 0.5000   (short by 0.8000)")
    expect(message).toMatch(/signature: MetricAlignment\|method:spearman\|n:5\|version:/)
    expect(message).toContain('p = 0.6238 (two-sided), n = 5')
    expect(message).not.toContain('left out')
    expect(message).toMatch(/largest rank disagreements \(rank 1 = highest score\):\n.*\n {2}a {5}0\.9000 {4}1 {6}1 {14}5/)
    expect(message).toMatchSnapshot()
  })

  it('.not: passes below min, fails at or above it', () => {
    expect(metric).not.toCorrelateWith(human, 0)
    expect(failureOf(() => expect(metric).not.toCorrelateWith(human, -0.5))).toContain('required < -0.5000   (at or above by 0.2000)')
  })

  it('a constant side or fewer than 3 items is undefined and fails both ways', () => {
    const { plain, not } = bothWays((ctx) => toCorrelateWith.call(ctx, [1, 2, 3], [4, 4, 4], 0))
    expect([plain.pass, not.pass]).toEqual([false, true])
    expect(failureOf(() => expect([1, 2, 3]).not.toCorrelateWith([4, 4, 4], 0))).toContain('reason: an input is constant: the correlation coefficient is not defined')
    for (const method of ['spearman', 'kendall', 'pearson'] as const) {
      const two = bothWays((ctx) => toCorrelateWith.call(ctx, { a: 1, b: 2 }, { a: 3, b: 1 }, 0, { method }))
      expect([two.plain.pass, two.not.pass]).toEqual([false, true])
      expect(failureOf(() => expect([1, 2]).not.toCorrelateWith([3, 4], 0, { method }))).toContain(
        'reason: only 2 items scored: a correlation needs at least 3 (with 2, r is ±1 whatever the scores and its p-value is undefined)',
      )
    }
  })

  const misuse: Array<[string, () => unknown, RegExp]> = [
    ['min above 1', () => expect([1, 2]).toCorrelateWith([1, 2], 1.1), /min must be a number from -1 to 1/],
    ['min first', () => expect([1, 2]).toCorrelateWith(0.5 as never, [1, 2] as never), /the first argument is humanScores/],
    ['an array against a record', () => expect([1, 2]).toCorrelateWith({ a: 1, b: 2 }, 0.5), /both be arrays \(aligned by position\) or both records/],
    ['arrays of different lengths', () => expect([1, 2, 3]).toCorrelateWith([1, 2], 0.5), /humanScores must have as many scores as the received value \(3\)/],
    ['a non-finite score', () => expect([1, Number.NaN]).toCorrelateWith([1, 2], 0.5), /received value\[1\] must be a finite number/],
    ['a string score', () => expect({ a: 1, b: 2 }).toCorrelateWith({ a: 1, b: '2' } as never, 0.5), /humanScores\["b"\] must be a finite number/],
    [
      'no shared item',
      () => expect({ a: 1, b: 2 }).toCorrelateWith({ c: 1, d: 2 }, 0.5),
      /"a", "b" have a metric score \(received\) but no human score; "c", "d" have a human score but no metric score/,
    ],
    ['unknown method', () => expect([1, 2]).toCorrelateWith([1, 2], 0.5, { method: 'tau' } as never), /options.method must be 'spearman', 'kendall' or 'pearson'/],
    ['not scores', () => expect('0.9').toCorrelateWith([1], 0.5), /received value must be an array of numbers, or a record/],
  ]
  it.each(misuse)('misuse: %s throws a Matcher error', (_name, run, pattern) => {
    expect(run).toThrow(/Matcher error: /)
    expect(run).toThrow(pattern)
  })
})

describe('.toWinAgainst', () => {
  const judgements = [
    { item: 'q1', rater: 'ann', a: 'v2', b: 'v1', winner: 'a' },
    { item: 'q2', rater: 'ann', a: 'v1', b: 'v2', winner: 'b' },
    { item: 'q3', rater: 'ann', a: 'v1', b: 'v2', winner: 'a' },
    { item: 'q4', rater: 'ann', a: 'v2', b: 'v1', winner: 'tie' },
    { item: 'q4', rater: 'ann', a: 'v3', b: 'v2', winner: 'a' },
  ] as const

  it('passes only when the LOWER Wilson bound reaches minRate: 8 of 10 is not enough, 40 of 50 is', () => {
    // 8/10: 95% Wilson interval [0.4902, 0.9433] (statsmodels proportion_confint method='wilson')
    expect(winRate({ wins: 8, losses: 2, ties: 0 }).details.low).toBeCloseTo(0.4901625, 6)
    expect({ wins: 8, losses: 2, ties: 0 }).not.toWinAgainst('v1')
    expect({ wins: 40, losses: 10, ties: 0 }).toWinAgainst('v1')
    expect({ wins: 40, losses: 10 }).toWinAgainst('v1', { minRate: 0.66 })
    expect({ wins: 40, losses: 10, ties: 0 }).not.toWinAgainst('v1', { minRate: 0.67 })
  })

  it('fails with wins/losses/ties, the rate and the interval, and says when the sample is too small', () => {
    const message = failureOf(() => expect({ wins: 8, losses: 2, ties: 0 }).toWinAgainst('v1', { system: 'v2' }))
    expect(message).toContain('lower 95% Wilson bound of the win rate of v2 against v1 = 0.4902   required ≥ 0.5000   (short by 0.0098)')
    expect(message).toMatch(/signature: WinRate\|ties:exclude\|ci:wilson\|confidence:0.95\|n:10\|version:/)
    expect(message).toContain('v2 vs v1: 8 wins, 2 losses, 0 ties (ties excluded)')
    expect(message).toContain('win rate 0.8000 over 10 judgements, 95% Wilson interval [0.4902, 0.9433]')
    expect(message).toContain('too few judgements to tell the systems apart at 95%')
    expect(message).toMatchSnapshot()
  })

  it('counts records either way round, finds the only opponent, ignores other pairs and lists losses', () => {
    const message = failureOf(() => expect(judgements).toWinAgainst('v1'))
    expect(message).toContain('v2 vs v1: 2 wins, 1 loss, 1 tie (ties excluded)')
    expect(message).toContain('lost on: q3')
    expect(message).toContain('ignored 1 judgement between other systems')
    // v3 against v2: one win of one
    expect(failureOf(() => expect(judgements).toWinAgainst('v2', { system: 'v3' }))).toContain('v3 vs v2: 1 win, 0 losses, 0 ties')
    expect(() => expect(judgements).toWinAgainst('v2')).toThrow(/v2 was compared with several systems \(v1, v3\); name the one that should win with options.system/)
  })

  it('ties: half counts a tie as half a win; confidence changes the interval', () => {
    const counts = { wins: 30, losses: 10, ties: 20 }
    const half = winRate(counts, { ties: 'half' }).details.low
    expect(counts).toWinAgainst('v1', { ties: 'half', minRate: half })
    expect(counts).not.toWinAgainst('v1', { ties: 'half', minRate: half + 1e-12 })
    const low90 = winRate(counts, { confidence: 0.9 }).details.low
    expect(low90).toBeGreaterThan(winRate(counts).details.low)
    expect(counts).toWinAgainst('v1', { confidence: 0.9, minRate: low90 })
    expect(failureOf(() => expect(counts).toWinAgainst('v1', { confidence: 0.9, minRate: 0.9 }))).toMatch(/lower 90% Wilson bound .*\n.*confidence:0.9\|/)
  })

  it('.not: passes when the lower bound is below minRate, fails when it reaches it', () => {
    const message = failureOf(() => expect({ wins: 40, losses: 10, ties: 0 }).not.toWinAgainst('v1'))
    expect(message).toContain('expect(received).not.toWinAgainst(baseline)')
    expect(message).toMatch(/= 0\.6696 {3}required < 0\.5000 {3}\(at or above by 0\.1696\)/)
  })

  it('no decisive judgement is undefined and fails both ways', () => {
    const { plain, not } = bothWays((ctx) => toWinAgainst.call(ctx, { wins: 0, losses: 0, ties: 3 }, 'v1'))
    expect([plain.pass, not.pass]).toEqual([false, true])
    const message = failureOf(() => expect({ wins: 0, losses: 0, ties: 3 }).not.toWinAgainst('v1'))
    expect(message).toContain('is undefined for these data, so the assertion fails (also with .not)')
    expect(message).toContain('reason: every comparison is a tie and ties are excluded: the win rate is 0/0')
    // the same counts are defined when a tie counts half
    expect({ wins: 0, losses: 0, ties: 3 }).not.toWinAgainst('v1', { ties: 'half' })
  })

  it("takes loadRatings()'s comparisons", () => {
    const ratings = parseRatings('item,rater,a,b,winner\nq1,ann,new,old,A\nq2,ann,old,new,b\nq3,ann,new,old,a\nq4,ann,new,old,tie\n', { format: 'csv' })
    expect(failureOf(() => expect(ratings).toWinAgainst('old'))).toContain('new vs old: 3 wins, 0 losses, 1 tie')
  })

  const misuse: Array<[string, () => unknown, RegExp]> = [
    ['no baseline', () => expect(judgements).toWinAgainst(undefined as never), /baseline must be the name of the system to beat/],
    ['an unknown baseline', () => expect(judgements).toWinAgainst('v9'), /no judgement involves the baseline "v9"; systems: v2, v1, v3/],
    ['an unknown system', () => expect(judgements).toWinAgainst('v1', { system: 'v3' }), /no judgement compares "v3" with "v1"/],
    ['system = baseline', () => expect(judgements).toWinAgainst('v1', { system: 'v1' }), /options.system must name the system that should win/],
    ['minRate above 1', () => expect(judgements).toWinAgainst('v1', { minRate: 1.5 }), /options.minRate must be a number from 0 to 1/],
    ['a negative minRate', () => expect(judgements).toWinAgainst('v1', { minRate: -0.1 }), /options.minRate must be a number from 0 to 1/],
    ['confidence 1', () => expect(judgements).toWinAgainst('v1', { confidence: 1 }), /options.confidence must be a number strictly between 0 and 1/],
    ['unknown ties', () => expect(judgements).toWinAgainst('v1', { ties: 'drop' } as never), /options.ties must be 'exclude' or 'half'/],
    ['a bad winner', () => expect([{ item: 'q1', a: 'x', b: 'y', winner: 'x' }]).toWinAgainst('y'), /received\[0\].winner must be 'a', 'b' or 'tie'/],
    ['a system against itself', () => expect([{ item: 'q1', a: 'x', b: 'x', winner: 'a' }]).toWinAgainst('x'), /received\[0\] compares x with itself/],
    ['fractional counts', () => expect({ wins: 2.5, losses: 1, ties: 0 }).toWinAgainst('v1'), /received.wins must be a non-negative integer/],
    [
      'scores instead of judgements',
      () => expect(parseRatings('item,rater,score\nq1,ann,1\n', { format: 'csv' })).toWinAgainst('v1'),
      /scores only; measure rater agreement with toHaveAgreementAbove/,
    ],
    ['not judgements', () => expect(42).toWinAgainst('v1'), /received value must be pairwise judgements/],
  ]
  it.each(misuse)('misuse: %s throws a Matcher error', (_name, run, pattern) => {
    expect(run).toThrow(/Matcher error: /)
    expect(run).toThrow(pattern)
  })
})

// ---------------------------------------------------------------- golden values through the matchers

type Num = number | 'NaN'
interface Golden {
  cases: Array<Record<string, unknown> & { id: string; kind: string }>
}
const golden = JSON.parse(readFileSync(join(process.cwd(), 'test', 'parity', 'fixtures', 'agreement.json'), 'utf8')) as Golden
const num = (v: Num | undefined): number => (v === 'NaN' || v === undefined ? Number.NaN : v)
const cases = (kind: string) => golden.cases.filter((c) => c.kind === kind)

/** The matcher's value equals the reference (1e-12), or both are undefined and the matcher fails both ways. */
function checkValue(run: (ctx: MatcherContext) => MatcherResult, expected: number, id: string, tolerance = 1e-12): void {
  const { plain, not } = bothWays(run)
  const value = plain.meta?.value as number
  if (Number.isNaN(expected)) {
    if (!Number.isNaN(value) || plain.pass || !not.pass) throw new Error(`${id}: expected an undefined value that fails both ways, got ${value}`)
    return
  }
  if (!(Math.abs(value - expected) <= tolerance)) throw new Error(`${id}: matcher value ${value}, reference ${expected}`)
  if (plain.pass !== value >= (plain.meta?.threshold as number)) throw new Error(`${id}: pass does not follow the value`)
}

describe('golden values (shared/golden/public/agreement.json) through the matchers', () => {
  it("Cohen's kappa: 88 values, matrix and record input, equal to scikit-learn 1.2.1 within 1e-12", () => {
    let checked = 0
    for (const c of cases('cohen_kappa')) {
      if (c.labels !== undefined) continue // the matcher has no `labels` option
      const r1 = c.rater1 as Array<string | number>
      const r2 = c.rater2 as Array<string | number>
      const records = r1.flatMap((s, i) => [
        { item: `i${i}`, rater: 'r1', score: s },
        { item: `i${i}`, rater: 'r2', score: r2[i] as string | number },
      ])
      for (const weights of ['none', 'linear', 'quadratic'] as const) {
        if (weights !== 'none' && typeof r1[0] === 'string') continue // weights need ordered scores (misuse by design)
        const expected = num((c[weights === 'none' ? 'unweighted' : weights] as { value?: Num }).value)
        checkValue((ctx) => toHaveAgreementAbove.call(ctx, [r1, r2], -1, { statistic: 'cohen', weights }), expected, `${c.id} ${weights} matrix`)
        checkValue((ctx) => toHaveAgreementAbove.call(ctx, records, 0.5, { statistic: 'cohen', weights }), expected, `${c.id} ${weights} records`)
        checked += 1
      }
    }
    expect(checked).toBe(88)
  })

  it("Fleiss' kappa: 19 values from records equal to statsmodels 0.13.5 within 1e-12", () => {
    let checked = 0
    for (const c of cases('fleiss_kappa')) {
      let rows = c.ratings_items_x_raters as Array<Array<string | number>> | undefined
      if (rows === undefined) {
        // A table of counts only: give each item's ratings to raters in turn (kappa ignores who said what).
        rows = (c.table_items_x_categories as number[][]).map((counts) => counts.flatMap((n, category) => Array.from({ length: n }, () => category)))
      }
      const records = rows.flatMap((row, i) => row.map((score, r) => ({ item: `i${i}`, rater: `r${String(r).padStart(2, '0')}`, score })))
      checkValue((ctx) => toHaveAgreementAbove.call(ctx, records, 0, { statistic: 'fleiss' }), num((c.fleiss as { value?: Num }).value), c.id)
      checked += 1
    }
    expect(checked).toBe(19)
  })

  it("Krippendorff's alpha: 84 values (8 undefined), matrix and record input, equal to fast-krippendorff within 1e-12", () => {
    let checked = 0
    for (const c of cases('krippendorff_alpha')) {
      if (c.value_domain !== undefined) continue // the matcher has no value-domain option
      const matrix = c.reliability_data_raters_x_units as Array<Array<number | string | null>>
      const records = matrix.flatMap((row, r) => row.flatMap((score, u) => (score === null ? [] : [{ item: `u${u}`, rater: `c${r}`, score }])))
      for (const level of ['nominal', 'ordinal', 'interval', 'ratio'] as const) {
        const ref = c[level] as { value?: Num; error?: string }
        const expected = ref.error !== undefined ? Number.NaN : num(ref.value)
        checkValue((ctx) => toHaveAgreementAbove.call(ctx, matrix, 0, { statistic: 'krippendorff', level }), expected, `${c.id} ${level} matrix`)
        // Units nobody rated disappear from records; they add nothing to the coincidences.
        if (records.length > 0) checkValue((ctx) => toHaveAgreementAbove.call(ctx, records, 0, { statistic: 'krippendorff', level }), expected, `${c.id} ${level} records`)
        checked += 1
      }
    }
    expect(checked).toBe(84)
  })

  it('correlations: 66 coefficients equal to scipy 1.10.1 within 1e-12, p-values within 1e-9', () => {
    let checked = 0
    for (const c of cases('correlation')) {
      const x = c.x as number[]
      const y = c.y as number[]
      for (const [method, key] of [
        ['spearman', 'spearman'],
        ['kendall', 'kendall_tau_b'],
        ['pearson', 'pearson'],
      ] as const) {
        if (x.length < 3) {
          // The matcher refuses n < 3 (r is ±1 whatever the scores, the p-value undefined or 1): both ways.
          checkValue((ctx) => toCorrelateWith.call(ctx, x, y, 0, { method }), Number.NaN, `${c.id} ${method}`)
          checked += 1
          continue
        }
        const ref = c[key] as { statistic: Num; pvalue: Num }
        checkValue((ctx) => toCorrelateWith.call(ctx, x, y, 0, { method }), num(ref.statistic), `${c.id} ${method}`)
        const p = toCorrelateWith.call(context(), x, y, 0, { method }).meta?.extra?.pvalue as number | null
        const expectedP = num(ref.pvalue)
        if (!Number.isNaN(expectedP) && !(Math.abs((p ?? Number.NaN) - expectedP) <= 1e-9)) throw new Error(`${c.id} ${method}: p ${p}, reference ${expectedP}`)
        checked += 1
      }
    }
    expect(checked).toBe(66)
  })

  it('win rates: 72 lower Wilson bounds (2 conventions × α 0.05, 0.1), counts and records, equal to statsmodels within 1e-12', () => {
    let checked = 0
    for (const c of cases('pairwise_win_rate')) {
      const wins = c.wins as number
      const losses = c.losses as number
      const ties = c.ties as number
      const records = [
        ...Array.from({ length: wins }, (_, i) => ({ item: `w${i}`, a: 'new', b: 'old', winner: 'a' as const })),
        ...Array.from({ length: losses }, (_, i) => ({ item: `l${i}`, a: 'old', b: 'new', winner: 'a' as const })),
        ...Array.from({ length: ties }, (_, i) => ({ item: `t${i}`, a: 'new', b: 'old', winner: 'tie' as const })),
      ]
      const wilson = c.wilson as Record<string, Record<string, { low: Num }>>
      for (const alpha of ['0.05', '0.1'] as const) {
        for (const [ties_, key] of [
          ['exclude', 'excluding_ties'],
          ['half', 'ties_half'],
        ] as const) {
          const expected = num(wilson[alpha]?.[key]?.low)
          const options = { ties: ties_, confidence: 1 - Number(alpha), minRate: 0 }
          checkValue((ctx) => toWinAgainst.call(ctx, { wins, losses, ties }, 'old', options), expected, `${c.id} ${alpha} ${ties_} counts`)
          if (records.length > 0) checkValue((ctx) => toWinAgainst.call(ctx, records, 'old', options), expected, `${c.id} ${alpha} ${ties_} records`)
          checked += 1
        }
      }
    }
    expect(checked).toBe(72)
  })
})
