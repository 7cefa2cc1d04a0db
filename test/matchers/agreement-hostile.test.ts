// Runs under Vitest AND Jest (globals only). Issue #27's reproductions for the agreement matchers: hostile
// input that used to pass silently (or crash) now gives the right number, or fails with a reason, with
// or without `.not`.
import { krippendorffAlpha, pearson } from '../../src/agreement/index.js'
import { failureOf } from '../helpers/failure.js'

describe('toCorrelateWith: huge scores do not overflow Pearson r to 0', () => {
  const huge = [1e154, 2e154, 3e154, 4e154]

  it('r of [1e154, 2e154, 3e154, 4e154] against [1, 2, 3, 4] is 1, not 0', () => {
    expect(pearson(huge, [1, 2, 3, 4]).value).toBeCloseTo(1, 15)
    expect(huge).toCorrelateWith([1, 2, 3, 4], 0.99, { method: 'pearson' })
    const message = failureOf(() => expect(huge).not.toCorrelateWith([1, 2, 3, 4], 0.5, { method: 'pearson' }))
    expect(message).toContain("Pearson's r (received vs humanScores) = 1.0000   required < 0.5000")
    expect(message).not.toMatch(/NaN|Infinity/)
  })

  it('values near the largest double and near the smallest keep r exact', () => {
    expect(pearson([1.7e308, -1.7e308, 1e308], [3, 1, 2]).value).toBeCloseTo(pearson([1.7, -1.7, 1], [3, 1, 2]).value, 12)
    expect([1e-300, 2e-300, 3e-300, 5e-300]).toCorrelateWith([1, 2, 3, 5], 0.999, { method: 'pearson' })
    expect(failureOf(() => expect([1e-300, 2e-300, 3e-300, 5e-300]).not.toCorrelateWith([1, 2, 3, 5], 0.999, { method: 'pearson' }))).toContain(
      "Pearson's r (received vs humanScores) = 1.0000",
    )
  })
})

describe('toCorrelateWith: records with unmatched ids are refused, not intersected', () => {
  const run = (not: boolean) => () =>
    not ? expect({ a: 1, b: 2, c: 100 }).not.toCorrelateWith({ a: 1, b: 2, d: -100 }, 0.99) : expect({ a: 1, b: 2, c: 100 }).toCorrelateWith({ a: 1, b: 2, d: -100 }, 0.99)

  it.each([false, true])('names the ids scored on one side only (.not: %s)', (not) => {
    const message = failureOf(run(not))
    expect(message).toContain('Matcher error:')
    expect(message).toContain('"c" has a metric score (received) but no human score; "d" has a human score but no metric score (received)')
    expect(message).not.toMatch(/NaN|Infinity/)
  })

  it.each([false, true])('the same for Maps (.not: %s)', (not) => {
    const metric = new Map([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ])
    const human = new Map([
      ['a', 1],
      ['b', 2],
    ])
    const message = failureOf(() => (not ? expect(metric).not.toCorrelateWith(human, 0.5) : expect(metric).toCorrelateWith(human, 0.5)))
    expect(message).toContain('Matcher error:')
    expect(message).toContain('"c" has a metric score (received) but no human score')
  })

  it.each([false, true])('two matched items are undefined and fail, never printing p = NaN (.not: %s)', (not) => {
    for (const method of ['spearman', 'kendall', 'pearson'] as const) {
      const message = failureOf(() =>
        not ? expect({ a: 1, b: 2 }).not.toCorrelateWith({ a: 1, b: 2 }, 0.99, { method }) : expect({ a: 1, b: 2 }).toCorrelateWith({ a: 1, b: 2 }, 0.99, { method }),
      )
      expect(message).toContain('is undefined for these data, so the assertion fails')
      expect(message).toContain('a correlation needs at least 3')
      expect(message).not.toMatch(/NaN|Infinity/)
    }
  })
})

describe('holes in array inputs are refused, naming the position', () => {
  const sparse = <T>(values: T[], hole: number): T[] => {
    const copy = [...values]
    delete copy[hole]
    return copy
  }
  const judgements = [
    { item: 'q1', a: 'new', b: 'old', winner: 'a' as const },
    { item: 'q2', a: 'new', b: 'old', winner: 'a' as const },
    { item: 'q3', a: 'new', b: 'old', winner: 'b' as const },
  ]

  it.each([false, true])('toWinAgainst: a hole in the pairwise records (.not: %s)', (not) => {
    const received = sparse(judgements, 1)
    const message = failureOf(() => (not ? expect(received).not.toWinAgainst('old') : expect(received).toWinAgainst('old')))
    expect(message).toContain('Matcher error:')
    expect(message).toContain('received[1] is a hole (an empty slot in a sparse array)')
    expect(message).not.toContain('TypeError')
  })

  it.each([false, true])('toWinAgainst: a hole in loadRatings() comparisons (.not: %s)', (not) => {
    const received = { scores: [], comparisons: sparse(judgements, 2) }
    const message = failureOf(() => (not ? expect(received).not.toWinAgainst('old') : expect(received).toWinAgainst('old')))
    expect(message).toContain('received.comparisons[2] is a hole')
  })

  it.each([false, true])('toHaveAgreementAbove: a hole in the rating records (.not: %s)', (not) => {
    const records = sparse(
      [
        { item: 'q1', rater: 'ann', score: 1 },
        { item: 'q1', rater: 'bob', score: 1 },
        { item: 'q2', rater: 'ann', score: 0 },
        { item: 'q2', rater: 'bob', score: 0 },
      ],
      2,
    )
    const message = failureOf(() =>
      not ? expect(records).not.toHaveAgreementAbove(0.5, { statistic: 'cohen' }) : expect(records).toHaveAgreementAbove(0.5, { statistic: 'cohen' }),
    )
    expect(message).toContain('Matcher error:')
    expect(message).toContain('received[2] is a hole')
  })

  it.each([false, true])('toHaveAgreementAbove: a hole in a matrix row, or a missing row (.not: %s)', (not) => {
    const run = (received: unknown) => () =>
      not ? expect(received).not.toHaveAgreementAbove(0.5, { statistic: 'krippendorff' }) : expect(received).toHaveAgreementAbove(0.5, { statistic: 'krippendorff' })
    expect(failureOf(run([[1, 2, 3], sparse([1, 2, 3], 1)]))).toContain('received matrix row 1[1] is a hole')
    expect(
      failureOf(
        run(
          sparse(
            [
              [1, 2, 3],
              [1, 2, 3],
              [1, 2, 2],
            ],
            1,
          ),
        ),
      ),
    ).toContain('received[1] is a hole')
  })

  it.each([false, true])('toCorrelateWith: a hole in the scores (.not: %s)', (not) => {
    const metric = sparse([0.1, 0.5, 0.9, 0.4], 3)
    const message = failureOf(() => (not ? expect(metric).not.toCorrelateWith([1, 2, 3, 4], 0.5) : expect(metric).toCorrelateWith([1, 2, 3, 4], 0.5)))
    expect(message).toContain('Matcher error:')
    expect(message).toContain('received value[3] is a hole')
    const human = sparse([1, 2, 3, 4], 0)
    expect(failureOf(() => (not ? expect([1, 2, 3, 4]).not.toCorrelateWith(human, 0.5) : expect([1, 2, 3, 4]).toCorrelateWith(human, 0.5)))).toContain(
      'humanScores[0] is a hole',
    )
  })
})

describe('toHaveAgreementAbove: interval alpha of huge or tiny values', () => {
  // A power of two scales exactly, so alpha of the scaled ratings must equal alpha of the plain ones.
  const plain = [
    [1, 2, 3, 4, 5],
    [1, 2, 3, 5, 4],
    [2, 2, 3, 4, 5],
  ]
  const alpha = krippendorffAlpha(plain, { level: 'interval' }).value

  it.each([2 ** 600, 2 ** -600])('alpha is unchanged by the scale %s, not NaN', (scale) => {
    const scaled = plain.map((row) => row.map((v) => v * scale))
    expect(krippendorffAlpha(scaled, { level: 'interval' }).value).toBe(alpha)
    expect(krippendorffAlpha(scaled, { level: 'ratio' }).value).toBe(krippendorffAlpha(plain, { level: 'ratio' }).value)
    expect(scaled).toHaveAgreementAbove(alpha, { statistic: 'krippendorff', level: 'interval' })
    const message = failureOf(() => expect(scaled).not.toHaveAgreementAbove(alpha, { statistic: 'krippendorff', level: 'interval' }))
    expect(message).toContain("Krippendorff's alpha")
    expect(message).not.toMatch(/NaN|Infinity|undefined for these data/)
  })
})
