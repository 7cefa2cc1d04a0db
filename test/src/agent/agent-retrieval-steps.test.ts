import { retrievalFromSteps } from '../../../src/agent/retrieval-steps.js'

const steps = [
  { query: 'a', retrieved: ['d1', { id: 'd2', score: 0.9 }] },
  { query: 'b', retrieved: [{ id: 'd2', score: 0.4 }, 'd3'] },
]

describe('retrievalFromSteps', () => {
  it('union keeps the first occurrence of each id, step by step', () => {
    expect(retrievalFromSteps('f', 'case', steps, 'union')).toEqual([{ retrieved: ['d1', { id: 'd2', score: 0.9 }, 'd3'] }])
  })
  it('last is the last step; each is one ranking per step with its query', () => {
    expect(retrievalFromSteps('f', 'case', steps, 'last')).toEqual([{ retrieved: [{ id: 'd2', score: 0.4 }, 'd3'] }])
    expect(retrievalFromSteps('f', 'case', steps, 'each')).toEqual([
      { retrieved: ['d1', { id: 'd2', score: 0.9 }], step: 0, query: 'a' },
      { retrieved: [{ id: 'd2', score: 0.4 }, 'd3'], step: 1, query: 'b' },
    ])
  })
  it('refuses bad steps, naming the step', () => {
    expect(() => retrievalFromSteps('f', 'case q1', [], 'union')).toThrow('case q1.steps')
    expect(() => retrievalFromSteps('f', 'case q1', [{ retrieved: 'd1' }], 'union')).toThrow('case q1.steps[0].retrieved')
    // eslint-disable-next-line no-sparse-arrays
    expect(() => retrievalFromSteps('f', 'case q1', [{ retrieved: ['d1', , 'd2'] }], 'union')).toThrow('case q1.steps[0].retrieved[1]')
    // eslint-disable-next-line no-sparse-arrays
    expect(() => retrievalFromSteps('f', 'case q1', [, { retrieved: [] }], 'union')).toThrow('case q1.steps[0]')
    expect(() => retrievalFromSteps('f', 'case q1', [new Map()], 'union')).toThrow('case q1.steps[0]')
  })
})
