// Runs under Vitest AND Jest (globals only). Retrieval steps inside an agent (issue #31).
import { failureOf } from '../helpers/failure.js'

const agentCase = {
  id: 'q1',
  steps: [
    { query: 'attention heads', retrieved: ['c9', 'c2'] },
    { query: 'multi-head attention h', retrieved: ['c2', 'c4', 'c1'] },
  ],
  relevant: ['c4', 'c2'],
}

describe('retrieval matchers over an agent’s retrieval steps', () => {
  it("'union' (default): the steps' items in first-seen order, a repeated id counted where first seen", () => {
    // union = c9, c2, c4, c1: both relevant ids in the top 3, first relevant at rank 2
    expect(agentCase).toHaveRecallAtK(3, 1)
    expect(agentCase).not.toHaveRecallAtK(2, 0.6)
    expect(agentCase).toHaveMrrAbove(0.5)
    expect(agentCase).not.toHaveMrrAbove(0.6)
    expect(failureOf(() => expect(agentCase).toHaveRecallAtK(2, 1))).toMatch(/signature: R\|.*\|steps:union\|version:/)
  })
  it("'last': the last step only", () => {
    // last = c2, c4, c1: both relevant in the top 2
    expect(agentCase).toHaveRecallAtK(2, 1, { steps: 'last' })
    expect(agentCase).toHaveMrrAbove(1, { steps: 'last' })
    expect(failureOf(() => expect(agentCase).not.toHaveMrrAbove(1, { steps: 'last' }))).toContain('steps:last')
  })
  it("'each': every step is a query of its own, named by the case id and step", () => {
    // step 1: c9, c2 → RR 0.5; step 2: c2 first → RR 1; MRR 0.75
    expect(agentCase).toHaveMrrAbove(0.75, { steps: 'each' })
    const message = failureOf(() => expect(agentCase).toHaveMrrAbove(0.8, { steps: 'each' }))
    expect(message).toContain('MRR over 2 queries = 0.7500')
    expect(message).toMatch(/q1 step 1\s+0\.5000/)
    expect(message).toContain('steps:each')
  })
  it('eval sets mix cases with steps and cases with retrieved; no steps, no steps: in the signature', () => {
    const set = [agentCase, { id: 'q2', retrieved: ['c4'], relevant: ['c4'] }]
    expect(set).toHaveRecallAtK(3, 1)
    expect(failureOf(() => expect(set).not.toHaveRecallAtK(3, 1))).toContain('steps:union')
    expect(failureOf(() => expect([set[1]]).not.toHaveRecallAtK(3, 1))).not.toContain('steps:')
    expect({ cases: set }).toHaveHitRateAtK(1, 0.5, { steps: 'last' })
  })
  it('bad steps are a Matcher error naming the case and the step, with or without .not', () => {
    const bad: Array<[unknown, string]> = [
      [{ id: 'q7', steps: [], relevant: ['a'] }, 'case q7.steps'],
      [{ id: 'q7', steps: [{ query: 'x' }], relevant: ['a'] }, 'case q7.steps[0].retrieved'],
      [{ id: 'q7', steps: [{ retrieved: ['a'], query: 3 }], relevant: ['a'] }, 'case q7.steps[0].query'],
      [{ id: 'q7', steps: [{ retrieved: ['a'] }], retrieved: ['a'], relevant: ['a'] }, 'has both `retrieved` and `steps`'],
      [{ steps: 'search', relevant: ['a'] }, 'received value.steps'],
    ]
    for (const [c, named] of bad) {
      for (const received of [c, [c]]) {
        for (const not of [false, true]) {
          const e = (not ? expect(received).not : expect(received)) as jest.Matchers<void>
          const message = failureOf(() => e.toHaveRecallAtK(1, 0.5))
          expect(message).toContain('Matcher error')
          // a case is named by its id in a set, by its position without one, and as `received value` alone
          expect(message).toContain(Array.isArray(received) ? named.replace('received value', 'received[0]') : named.replace('case q7', 'received value'))
        }
      }
    }
    expect(failureOf(() => expect(agentCase).toHaveRecallAtK(1, 0.5, { steps: 'all' } as never))).toContain('options.steps must be')
  })
})
