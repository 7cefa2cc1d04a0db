// Runs under Vitest AND Jest (globals only): the same expectations hold in both runners.
import { failureOf } from '../helpers/failure.js'

const good = { retrieved: ['d2', 'd4', 'd9'], relevant: { d2: 1, d4: 2 } }
const bad = { retrieved: ['d7', 'd2', 'd9'], relevant: { d2: 1, d4: 2, d5: 1 } }
const evalSet = [
  { id: 'heads', retrieved: ['c3', 'c1', 'c2'], relevant: ['c1'] },
  { id: 'bleu', retrieved: ['c5', 'c6', 'c7'], relevant: ['c5'] },
  { id: 'dims', retrieved: ['c8', 'c9', 'c4'], relevant: ['c2'] },
]

describe('.toHaveNdcgAtK', () => {
  it('passes when nDCG@k ≥ min', () => {
    expect(good).toHaveNdcgAtK(3, 0.7)
  })
  it('fails with the score, threshold, signature, ranks and missed ids', () => {
    const message = failureOf(() => expect(bad).toHaveNdcgAtK(3, 0.7))
    expect(message).toContain('nDCG@3 = 0.2015   required ≥ 0.7000   (short by 0.4985)')
    expect(message).toContain('signature: nDCG|k:3|gain:linear|empty:zero|dup:first|order:given|version:')
    expect(message).toContain('missed relevant (2 of 3): d4 (rel 2), d5')
    expect(message).toMatchSnapshot()
  })
  it('treats the threshold as inclusive', () => {
    expect({ retrieved: ['a', 'b'], relevant: ['b'] }).toHaveNdcgAtK(2, 1 / Math.log2(3))
  })
  it('supports exponential gain', () => {
    const c = { retrieved: ['d3', 'd1', 'd2'], relevant: { d1: 0, d2: 1, d3: 2 } }
    expect(c).toHaveNdcgAtK(3, 0.96, { gain: 'exponential' })
    expect(c).not.toHaveNdcgAtK(3, 0.96)
  })
  it('asserts the mean over an eval set and lists the worst queries', () => {
    expect(evalSet).toHaveNdcgAtK(3, 0.5)
    const message = failureOf(() => expect(evalSet).toHaveNdcgAtK(3, 0.9))
    expect(message).toContain('mean nDCG@3 over 3 queries = 0.5436   required ≥ 0.9000')
    expect(message).toMatch(/dims\s+0\.0000\s+missed: c2/)
    expect(message).toMatchSnapshot()
  })
  it('accepts { cases } and { id, score, text } items', () => {
    expect({
      cases: [
        {
          retrieved: [
            { id: 'a', score: 2 },
            { id: 'b', score: 1 },
          ],
          relevant: ['a'],
        },
      ],
    }).toHaveNdcgAtK(1, 1)
  })
})

describe('.not.toHaveNdcgAtK', () => {
  it('passes when nDCG@k < min', () => {
    expect(bad).not.toHaveNdcgAtK(3, 0.7)
  })
  it('fails with the flipped comparator', () => {
    const message = failureOf(() => expect(good).not.toHaveNdcgAtK(3, 0.7))
    expect(message).toContain('expect(received).not.toHaveNdcgAtK(k, min)')
    expect(message).toMatch(/nDCG@3 = 0\.8597 {3}required < 0\.7000 {3}\(at or above by 0\.1597\)/)
  })
})

describe('.toHavePrecisionAtK / .toHaveRecallAtK', () => {
  it('pass and fail on one query', () => {
    expect(good).toHavePrecisionAtK(3, 0.6)
    expect(good).not.toHavePrecisionAtK(3, 0.7)
    expect(bad).toHaveRecallAtK(3, 1 / 3)
    const message = failureOf(() => expect(bad).toHaveRecallAtK(3, 0.5))
    expect(message).toContain('R@3 = 0.3333   required ≥ 0.5000   (short by 0.1667)')
    expect(message).toContain('hits in top 3: 1 of 3 relevant')
    expect(message).toMatchSnapshot()
  })
  it('divides precision by k even when fewer ids were retrieved', () => {
    expect({ retrieved: ['a'], relevant: ['a'] }).not.toHavePrecisionAtK(5, 0.21)
    expect({ retrieved: ['a'], relevant: ['a'] }).toHavePrecisionAtK(5, 0.2)
  })
  it('.not fails when precision is at the threshold', () => {
    expect(failureOf(() => expect(good).not.toHavePrecisionAtK(3, 2 / 3))).toMatch(/P@3 = 0\.6667 {3}required < 0\.6667/)
  })
})

describe('.toHaveMrrAbove', () => {
  it('uses reciprocal rank for one query', () => {
    expect({ retrieved: ['x', 'y', 'a'], relevant: ['a'] }).toHaveMrrAbove(0.33)
    const message = failureOf(() => expect({ retrieved: ['x', 'y', 'a'], relevant: ['a'] }).toHaveMrrAbove(0.5))
    expect(message).toContain('RR = 0.3333   required ≥ 0.5000')
    expect(message).toContain('first relevant id at rank 3')
    expect(message).toMatchSnapshot()
  })
  it('uses MRR for a set', () => {
    expect(evalSet).toHaveMrrAbove(0.5)
    expect(failureOf(() => expect(evalSet).toHaveMrrAbove(0.6))).toContain('MRR over 3 queries = 0.5000')
    expect(evalSet).not.toHaveMrrAbove(0.6)
  })
})

describe('.toHaveMapAtK', () => {
  it('passes and fails', () => {
    expect({ retrieved: ['a', 'x', 'b'], relevant: ['a', 'b'] }).toHaveMapAtK(3, (1 + 2 / 3) / 2)
    expect({ retrieved: ['a', 'x', 'b'], relevant: ['a', 'b'] }).not.toHaveMapAtK(2, 0.6)
  })
})

describe('.toHitWithin and .toHaveHitRateAtK', () => {
  it('one query: a relevant id within the top k', () => {
    expect(good).toHitWithin(1)
    expect(bad).not.toHitWithin(1)
    expect(bad).toHitWithin(2)
    expect(failureOf(() => expect(bad).toHitWithin(1))).toMatchSnapshot()
  })
  it('a set: every query must hit', () => {
    const message = failureOf(() => expect(evalSet).toHitWithin(3))
    expect(message).toContain('queries below 1.0000: 1 of 3')
    expect(message).toMatch(/dims\s+0\.0000/)
    expect(evalSet).toHaveHitRateAtK(3, 2 / 3)
    expect(evalSet).not.toHaveHitRateAtK(3, 0.7)
  })
})

describe('misuse throws a Matcher error, with or without .not', () => {
  it.each([
    ['k = 0', () => expect(good).toHaveNdcgAtK(0, 0.5), /Matcher error: k must be a positive integer, got `0` \(number\)/],
    ['k = 1.5', () => expect(good).not.toHavePrecisionAtK(1.5, 0.5), /k must be a positive integer, got `1.5`/],
    ['threshold > 1', () => expect(good).toHaveRecallAtK(3, 70), /min must be a number from 0 to 1, got `70`/],
    ['threshold NaN', () => expect(good).not.toHaveMrrAbove(Number.NaN), /min must be a number from 0 to 1/],
    ['a string received', () => expect('d1 d2').toHaveNdcgAtK(3, 0.5), /received value must be a case/],
    ['relevant missing', () => expect({ retrieved: ['a'] }).toHaveNdcgAtK(3, 0.5), /received value\.relevant must be/],
    ['retrieved not an array', () => expect({ retrieved: 'a', relevant: ['a'] }).toHitWithin(3), /retrieved must be an array/],
    ['an empty eval set', () => expect([]).toHaveRecallAtK(3, 0.5), /eval set must contain at least one case/],
    ['a bad case in a set', () => expect([good, { relevant: [] }]).toHaveRecallAtK(3, 0.5), /received\[1\]\.retrieved must be an array/],
  ])('%s', (_name, assertion, pattern) => {
    expect(assertion).toThrow(pattern)
  })
})

describe('messages never contradict pass/fail through rounding', () => {
  it('adds digits when value and threshold round alike', () => {
    const c = { retrieved: ['a', 'x', 'y'], relevant: ['a', 'b', 'c'] }
    // recall@3 = 1/3 = 0.33333…; threshold 0.33334 is above it
    expect(failureOf(() => expect(c).toHaveRecallAtK(3, 0.33334))).toContain('R@3 = 0.33333   required ≥ 0.33334')
  })
})
