// Runs under Vitest AND Jest (globals only). toAgreeWithHumans (issue #30): the judge's verdicts against
// people's labels. Every expected statistic is the agreement core's (cohenKappa, spearman,
// krippendorffAlpha) computed here from the same data, never a copied number.
import { join } from 'node:path'
import { cohenKappa } from '../../src/agreement/cohen-kappa.js'
import { spearman } from '../../src/agreement/correlation.js'
import { krippendorffAlpha } from '../../src/agreement/krippendorff-alpha.js'
import { loadRatings } from '../../src/agreement/ratings.js'
import { allMatchers } from '../../matchers/all.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { failureOf } from '../helpers/failure.js'

const ANN_BOB_CY = [
  ['q1', 5, 4, 5],
  ['q2', 1, 2, 1],
  ['q3', 4, 4, 3],
  ['q4', 2, 3, 2],
  ['q5', 3, 3, 4],
] as const
const LABELS = ANN_BOB_CY.flatMap(([item, a, b, c]) => [
  { item, rater: 'ann', score: a },
  { item, rater: 'bob', score: b },
  { item, rater: 'cy', score: c },
])
// medians: q1 5, q2 1, q3 4, q4 2, q5 3
const AGREEING = [
  { item: 'q1', score: 5, reason: 'Right and complete.' },
  { item: 'q2', score: 1, reason: 'Wrong number.' },
  { item: 'q3', score: 4, reason: 'Right, a little terse.' },
  { item: 'q4', score: 2, reason: 'Mostly wrong.' },
  { item: 'q5', score: 3, reason: 'Half right.' },
]
const DISAGREEING = AGREEING.map((j) => (j.item === 'q2' ? { ...j, score: 5, reason: 'Looks right to me.' } : j.item === 'q5' ? { ...j, score: 4 } : j))

function context(isNot: boolean): MatcherContext {
  return {
    isNot,
    promise: '',
    utils: { matcherHint: (name) => name, printReceived: (v) => String(v), printExpected: (v) => String(v) },
  }
}
const resultOf = (isNot: boolean, received: unknown, labels: unknown, options: unknown) =>
  allMatchers.toAgreeWithHumans.call(context(isNot), received, labels, options) as MatcherResult

describe('.toAgreeWithHumans', () => {
  it('passes when the judge gives each item the raters’ median, and .not fails', () => {
    expect(AGREEING).toAgreeWithHumans(LABELS, { minKappa: 0.99, minSpearman: 0.9 })
    const message = failureOf(() => expect(AGREEING).not.toAgreeWithHumans(LABELS, { minKappa: 0.99 }))
    expect(message).toContain("Cohen's kappa (linear weights), judge vs people = 1.0000   required < 0.9900")
    expect(message).toContain('the judge gives the people’s label on every item')
  })

  it('fails below the bar, listing the disagreements with the judge’s reasons and each rater’s label, and the confusion matrix', () => {
    const message = failureOf(() => expect(DISAGREEING).toAgreeWithHumans(LABELS, { minKappa: 0.8 }))
    const kappa = cohenKappa([5, 5, 4, 2, 4], [5, 1, 4, 2, 3], { weights: 'linear', labels: [1, 2, 3, 4, 5] }).value
    expect(message).toContain(`Cohen's kappa (linear weights), judge vs people = ${kappa.toFixed(4)}   required ≥ 0.8000`)
    expect(message).toContain('items where judge and people disagree (2 of 5, farthest apart first):')
    expect(message).toMatch(/q2\s+judge 5\s+people 1 \(ann=1, bob=2, cy=1\)\s+— "Looks right to me\."\n\s+q5\s+judge 4\s+people 3 \(ann=3, bob=3, cy=4\)/)
    expect(message).toContain('confusion matrix (rows: judge, columns: people')
    expect(message).toMatch(
      /judge \\ people\s+1\s+2\s+3\s+4\s+5\n\s+1\s+0\s+0\s+0\s+0\s+0\n\s+2\s+0\s+1\s+0\s+0\s+0\n\s+3\s+0\s+0\s+0\s+0\s+0\n\s+4\s+0\s+0\s+1\s+1\s+0\n\s+5\s+1\s+0\s+0\s+0\s+1/,
    )
    expect(message).toContain('judge = people on 0.6000 of the items')
    expect(resultOf(true, DISAGREEING, LABELS, { minKappa: 0.8 }).pass).toBe(false)
  })

  it('reports the core’s kappa, Spearman against the mean human score and the people’s own Krippendorff alpha', () => {
    const r = resultOf(false, DISAGREEING, LABELS, { minKappa: 0, minSpearman: 0 })
    const judge = [5, 5, 4, 2, 4]
    const means = ANN_BOB_CY.map(([, a, b, c]) => (a + b + c) / 3)
    expect(r.meta?.value).toBe(cohenKappa(judge, [5, 1, 4, 2, 3], { weights: 'linear', labels: [1, 2, 3, 4, 5] }).value)
    expect(r.meta?.extra?.spearman).toBe(spearman(judge, means).value)
    const matrix = [1, 2, 3].map((k) => ANN_BOB_CY.map((row) => row[k] as number))
    expect(r.meta?.extra?.humanAlpha).toBe(krippendorffAlpha(matrix, { level: 'ordinal' }).value)
    expect(r.meta?.extra?.disagreements).toEqual(['q2', 'q5'])
  })

  it('minSpearman decides too: both bars must be met, .not passes when one falls short', () => {
    const rho = spearman(
      [5, 5, 4, 2, 4],
      ANN_BOB_CY.map(([, a, b, c]) => (a + b + c) / 3),
    ).value
    expect(DISAGREEING).toAgreeWithHumans(LABELS, { minSpearman: rho })
    expect(DISAGREEING).not.toAgreeWithHumans(LABELS, { minKappa: 0, minSpearman: rho + 0.01 })
    const message = failureOf(() => expect(DISAGREEING).toAgreeWithHumans(LABELS, { minKappa: 0, minSpearman: rho + 0.01 }))
    expect(message).toContain(`Spearman's rho, judge vs people's mean = ${rho.toFixed(4)}   required ≥ ${(rho + 0.01).toFixed(4)}`)
  })

  it('reads loadRatings() output and picks the dimension', async () => {
    const ratings = await loadRatings(join(__dirname, '..', '..', 'examples', 'human-eval', 'ratings.jsonl'))
    const items = [...new Set(ratings.scores.map((s) => s.item))]
    const judged = items.map((item) => ({ item, score: item === 'bleu-en-de' ? 1 : 5 }))
    const r = resultOf(false, judged, ratings, { dimension: 'correctness', minKappa: 0 })
    expect(r.meta?.extra?.n).toBe(items.length)
    const message = failureOf(() => expect(judged).toAgreeWithHumans(ratings, { minKappa: 0 }))
    expect(message).toContain('the human labels have 2 dimensions (correctness, helpfulness); choose the one the judge scored with options.dimension')
  })

  it('booleans and labels: unweighted, majority consensus, an even split left out and named', () => {
    const labels = [
      { item: 'a', rater: 'r1', score: true },
      { item: 'a', rater: 'r2', score: true },
      { item: 'b', rater: 'r1', score: false },
      { item: 'b', rater: 'r2', score: false },
      { item: 'c', rater: 'r1', score: true },
      { item: 'c', rater: 'r2', score: false },
      { item: 'd', rater: 'r1', score: false },
      { item: 'd', rater: 'r2', score: false },
    ]
    const judged = [
      { item: 'a', score: true },
      { item: 'b', score: false },
      { item: 'c', score: true },
      { item: 'd', score: true, reason: 'Fine.' },
    ]
    const r = resultOf(false, judged, labels, { minKappa: 0 })
    expect(r.meta?.value).toBe(cohenKappa([true, false, true], [true, false, false]).value)
    const message = failureOf(() => expect(judged).toAgreeWithHumans(labels, { minKappa: 0.9 }))
    expect(message).toContain('left out, raters split evenly: c')
    expect(message).not.toContain('weights)')
  })

  it('pairwise preferences: the preferred system, whatever the order shown', () => {
    const people = [
      { item: 'x', rater: 'r1', a: 'new', b: 'old', winner: 'a' },
      { item: 'x', rater: 'r2', a: 'old', b: 'new', winner: 'b' },
      { item: 'y', rater: 'r1', a: 'new', b: 'old', winner: 'b' },
      { item: 'y', rater: 'r2', a: 'new', b: 'old', winner: 'b' },
      { item: 'z', rater: 'r1', a: 'old', b: 'new', winner: 'tie' },
      { item: 'z', rater: 'r2', a: 'old', b: 'new', winner: 'tie' },
    ]
    const judge = [
      { item: 'x', a: 'old', b: 'new', winner: 'b', reason: 'Cites the source.' },
      { item: 'y', a: 'old', b: 'new', winner: 'a' },
      { item: 'z', a: 'new', b: 'old', winner: 'a', reason: 'Shorter.' },
    ]
    const r = resultOf(false, judge, { scores: [], comparisons: people }, { minKappa: 0 })
    expect(r.meta?.value).toBe(cohenKappa(['new', 'old', 'new'], ['new', 'old', 'tie'], { labels: ['new', 'old', 'tie'] }).value)
    const message = failureOf(() => expect(judge).toAgreeWithHumans(people, { minKappa: 0.9 }))
    expect(message).toMatch(/z\s+judge new\s+people tie \(r1=tie, r2=tie\)\s+— "Shorter\."/)
    const spearmanMessage = failureOf(() => expect(judge).toAgreeWithHumans(people, { minSpearman: 0.5 }))
    expect(spearmanMessage).toContain('options.minSpearman needs numeric ratings; these are pairwise preferences')
  })

  it('an undefined kappa (one category on both sides) fails with and without .not, saying why', () => {
    const labels = ['a', 'b'].flatMap((item) => [
      { item, rater: 'r1', score: 4 },
      { item, rater: 'r2', score: 4 },
    ])
    const judged = [
      { item: 'a', score: 4 },
      { item: 'b', score: 4 },
    ]
    for (const isNot of [false, true]) {
      const r = resultOf(isNot, judged, labels, { minKappa: 0.5, weights: 'none' })
      expect(r.pass).toBe(isNot)
      expect(r.message()).toContain("Cohen's kappa, judge vs people is undefined for these data")
      expect(r.message()).not.toContain('NaN')
    }
  })

  describe('bad input is a Matcher error, with and without .not', () => {
    const cases: Array<[string, unknown, unknown, unknown, string]> = [
      ['a label without a rater id', AGREEING, [...LABELS.slice(0, 5), { item: 'q2', score: 2 }], { minKappa: 0.5 }, 'labels[5] has no rater id'],
      [
        'fewer than two raters',
        AGREEING,
        LABELS.filter((l) => l.rater === 'ann'),
        { minKappa: 0.5 },
        'human agreement needs at least two raters, and the labels name only ann',
      ],
      ['labels for items the judge did not judge', AGREEING.slice(0, 3), LABELS, { minKappa: 0.5 }, 'people labelled 2 items the judge did not judge ("q4", "q5")'],
      [
        'a judge score off the people’s scale (normalised 0–1)',
        AGREEING.map((j) => ({ ...j, score: (j.score - 1) / 4 })),
        LABELS,
        { minKappa: 0.5 },
        'the judge scored item "q2" `0` (number), which is not on the people\'s scale (the integers 1–5)',
      ],
      [
        'judge booleans against numeric labels',
        AGREEING.map((j) => ({ ...j, score: j.score >= 3 })),
        LABELS,
        { minKappa: 0.5 },
        "the judge's scores are booleans and the people's are numbers: the scales do not match",
      ],
      [
        'a label the people never used',
        [{ item: 'q1', score: 'great' }],
        [
          { item: 'q1', rater: 'a', score: 'good' },
          { item: 'q1', rater: 'b', score: 'bad' },
        ],
        { minKappa: 0.5 },
        'a label the people never used (good, bad)',
      ],
      ['preferences against scores', [{ item: 'q1', a: 'x', b: 'y', winner: 'a' }], LABELS, { minKappa: 0.5 }, 'labels[0] is a score, but the judge gave preferences'],
      ['no bar', AGREEING, LABELS, {}, 'options must name a bar: { minKappa } and/or { minSpearman }'],
      ['a bar outside −1…1', AGREEING, LABELS, { minKappa: 2 }, 'options.minKappa must be a number from -1 to 1'],
      ['a judged item twice', [...AGREEING, AGREEING[0]], LABELS, { minKappa: 0.5 }, 'judged[5] judges item "q1" again'],
      ['no verdicts', [], LABELS, { minKappa: 0.5 }, "the judge's results must be a non-empty array"],
    ]
    for (const [name, judged, labels, options, problem] of cases) {
      it(name, () => {
        for (const run of [
          () => expect(judged).toAgreeWithHumans(labels as never, options as never),
          () => expect(judged).not.toAgreeWithHumans(labels as never, options as never),
        ]) {
          const message = failureOf(run)
          expect(message).toContain('Matcher error')
          expect(message).toContain(problem)
          expect(message).not.toContain('NaN')
        }
      })
    }
  })
})
