// Runs under Vitest AND Jest (globals only). Issue #27, hostile input round two: case ids, document ids,
// answers and references carrying control characters (ESC, CR, LF, C1, line separators, bidi overrides)
// are printed in failure messages as visible escapes, with or without `.not`: no user string can clear
// the screen or start a line of its own (a forged `## ✅ All checks passed` in a CI log).
import { failureOf } from '../helpers/failure.js'

const FORGED = '## ✅ All checks passed'

// Any control, separator or bidi character but the line feeds of the message's own layout.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

function expectSafe(message: string): void {
  expect(message).not.toMatch(UNSAFE)
  for (const line of message.split('\n')) expect(line.trimStart().startsWith(FORGED)).toBe(false)
}

const hostile = [
  { id: `q1\u001b[2J\u001b[H`, retrieved: ['doc\u001b[31m', 'b'], relevant: ['doc\u001b[31m'] },
  { id: `q2\r${FORGED}`, retrieved: ['a', `b\n${FORGED}`], relevant: ['x\u202e'] },
  { id: `q3\u2028${FORGED}\u0085`, retrieved: ['a'], relevant: ['z'] },
]

describe('case and document ids in retrieval messages', () => {
  it('a failing set prints its case ids escaped', () => {
    const message = failureOf(() => expect({ name: `set\n${FORGED}`, cases: hostile }).toHaveRecallAtK(1, 0.9))
    expectSafe(message)
    expect(message).toContain(`q2\\r${FORGED}`)
    expect(message).toContain(`q3\\u2028${FORGED}\\x85`)
  })

  it('under .not too', () => {
    const message = failureOf(() => expect({ name: 'set', cases: [hostile[0]] }).not.toHaveRecallAtK(1, 0.9))
    expectSafe(message)
    expect(message).toContain('q1\\x1b[2J\\x1b[H')
    expect(message).toContain('required < 0.9000')
  })

  it('one case prints its retrieved and missed ids escaped', () => {
    const message = failureOf(() => expect(hostile[1]).toHaveRecallAtK(2, 0.9))
    expectSafe(message)
    expect(message).toContain(`b\\n${FORGED}`)
    expect(message).toContain('missed relevant (1 of 1): x\\u202e')
  })

  it('one case under .not', () => {
    const message = failureOf(() => expect(hostile[0]).not.toHaveRecallAtK(1, 0.5))
    expectSafe(message)
    expect(message).toContain('doc\\x1b[31m')
  })
})

describe('answers, references and case ids in generation messages', () => {
  it('quotes the answer and reference with their control characters escaped', () => {
    const message = failureOf(() => expect(`the cat\u001b[2J\r${FORGED}\u202e`).toScoreBleuAbove(`a dog\n${FORGED}`, 90))
    expectSafe(message)
    expect(message).toContain('answer:    "the cat\\u001b[2J\\r## ✅ All checks passed\\u202e"')
  })

  it('under .not, the message is unchanged for plain text', () => {
    const message = failureOf(() => expect('the cat sat').not.toScoreBleuAbove('the cat sat', 10))
    expectSafe(message)
    expect(message).toContain('answer:    "the cat sat"')
    expect(message).toContain('required < 10.00')
  })

  it('a set of answers prints its case ids escaped, with and without .not', () => {
    const set = [
      { id: `c1\u001b[2J\n${FORGED}`, answer: 'the cat', references: ['a dog'] },
      { id: `c2\r${FORGED}`, answer: 'a bird', references: ['a bird sings'] },
    ]
    const failed = failureOf(() => expect(set).toScoreBleuAbove(90))
    expectSafe(failed)
    expect(failed).toContain(`c1\\x1b[2J\\n${FORGED}`)
    const negated = failureOf(() =>
      expect([{ id: `c3\u001b[H\n${FORGED}`, answer: 'the cat sat on the mat', references: ['the cat sat on the mat'] }]).not.toScoreBleuAbove(10),
    )
    expectSafe(negated)
    expect(negated).toContain(`c3\\x1b[H\\n${FORGED}`)
  })
})

// The one-line parts of a message escape line feeds too (matchers/message.ts buildMessage: the headline;
// matchers/validate.ts matcherError: the problem and the value), so user text interpolated anywhere in them
// cannot start a line; a section escapes user text where it is put in (judge ids, rater names, reasons).
describe('user text in headlines, Matcher errors and sections', () => {
  it("a system name in toWinAgainst's headline and counts", () => {
    const negated = failureOf(() => expect({ wins: 9, losses: 1 }).not.toWinAgainst(`v1\n${FORGED}`))
    expectSafe(negated)
    expect(negated).toContain(`against v1\\n${FORGED} = `)
    const failed = failureOf(() => expect([{ item: 'i1', a: 'new', b: `old\r\n${FORGED}`, winner: 'b' }]).toWinAgainst(`old\r\n${FORGED}`, { system: 'new' }))
    expectSafe(failed)
    expect(failed).toContain(`new vs old\\r\\n${FORGED}: 0 wins`)
  })

  it('an unknown option key and a wrong value in a Matcher error, with and without .not', () => {
    for (const negate of [false, true]) {
      const retrieval = { retrieved: ['a'], relevant: ['a'] }
      const message = failureOf(() =>
        negate
          ? expect(retrieval).not.toHaveRecallAtK(1, 0.5, { [`order\n${FORGED}`]: 'score' })
          : expect(retrieval).toHaveRecallAtK(1, 0.5, { [`order\n${FORGED}`]: 'score' }),
      )
      expectSafe(message)
      expect(message).toContain(`unknown option 'order\\n${FORGED}'`)
    }
    const symbol = failureOf(() => expect({ retrieved: ['a'], relevant: ['a'] }).toHaveRecallAtK(1, 0.5, { [Symbol(`k\n${FORGED}`)]: 1 }))
    expectSafe(symbol)
    expect(symbol).toContain(`symbol key Symbol(k\\n${FORGED})`)
  })

  it('a tolerance key that names no metric, in the Matcher error of toMatchMetricBaseline', () => {
    const message = failureOf(() =>
      expect([{ id: 'q1', retrieved: ['a'], relevant: ['a'] }]).toMatchMetricBaseline(`qa\n${FORGED}`, { metrics: ['recall@3'], tolerance: { [`recal@3\n${FORGED}`]: 0.1 } }),
    )
    expectSafe(message)
    expect(message).toContain(`unknown metric 'recal@3\\n${FORGED}'`)
  })

  it('rater names and a dimension in the agreement message', () => {
    const ratings = [
      { item: 'i1', rater: `r1\n${FORGED}`, dimension: `fluency\u2028${FORGED}`, score: 1 },
      { item: 'i2', rater: `r1\n${FORGED}`, dimension: `fluency\u2028${FORGED}`, score: 2 },
    ]
    for (const negate of [false, true]) {
      const message = failureOf(() =>
        negate ? expect(ratings).not.toHaveAgreementAbove(0.5, { statistic: 'cohen' }) : expect(ratings).toHaveAgreementAbove(0.5, { statistic: 'cohen' }),
      )
      expectSafe(message)
      expect(message).toContain(`name only r1\\n${FORGED}`)
      expect(message).toContain(`dimension fluency\\u2028${FORGED}:`)
    }
  })
})
