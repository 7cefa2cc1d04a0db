import fc from 'fast-check'
import { bradleyTerry, countWins, winProbability, type Comparison } from '../../../src/agreement/bradley-terry.js'
import { MetricInputError } from '../../../src/errors.js'

function games(spec: Array<[string, string, number, number, number?]>): Comparison[] {
  const out: Comparison[] = []
  for (const [a, b, winsA, winsB, ties = 0] of spec) {
    for (let i = 0; i < winsA; i += 1) out.push({ a, b, winner: 'a' })
    for (let i = 0; i < winsB; i += 1) out.push({ a, b, winner: 'b' })
    for (let i = 0; i < ties; i += 1) out.push({ a, b, winner: 'tie' })
  }
  return out
}

describe('bradleyTerry', () => {
  it('two systems: π_x/(π_x + π_y) is the observed win share', () => {
    const bt = bradleyTerry(games([['x', 'y', 7, 3]]))
    expect(bt.details.strengths.x).toBeCloseTo(0.7, 10)
    expect(winProbability(bt, 'x', 'y')).toBeCloseTo(0.7, 10)
    expect(bt.value).toBe(bt.details.strengths.x)
    expect(bt.details.ranking.map((e) => e.system)).toEqual(['x', 'y'])
    expect(bt.details.converged).toBe(true)
    expect(bt.signature).toBe('BradleyTerry|method:mm|ties:half|smoothing:0|tol:1e-10|version:0.1.0')
  })

  it('a balanced cycle gives equal strengths; ties count half', () => {
    const cycle = bradleyTerry(
      games([
        ['a', 'b', 2, 1],
        ['b', 'c', 2, 1],
        ['c', 'a', 2, 1],
      ]),
    )
    for (const s of Object.values(cycle.details.strengths)) expect(s).toBeCloseTo(1 / 3, 9)
    const tied = bradleyTerry(games([['x', 'y', 1, 0, 2]]))
    expect(winProbability(tied, 'x', 'y')).toBeCloseTo(2 / 3, 9) // 1 + 2·½ wins of 3
  })

  it('satisfies the likelihood equations W_i = Σ_j n_ij π_i/(π_i + π_j) at the fit', () => {
    const arb = fc.array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 2 })), { minLength: 6, maxLength: 6 })
    fc.assert(
      fc.property(arb, (counts) => {
        const names = ['a', 'b', 'c', 'd']
        const spec: Array<[string, string, number, number, number]> = []
        let k = 0
        for (let i = 0; i < 4; i += 1) for (let j = i + 1; j < 4; j += 1) spec.push([names[i]!, names[j]!, ...counts[k++]!])
        const bt = bradleyTerry(games(spec))
        expect(bt.details.converged).toBe(true)
        const p = bt.details.strengths
        expect(Object.values(p).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12)
        for (const i of names) {
          let w = 0
          let expected = 0
          for (const [a, b, wa, wb, t] of spec) {
            if (a !== i && b !== i) continue
            const other = a === i ? b : a
            w += (a === i ? wa : wb) + t / 2
            expected += ((wa + wb + t) * p[i]!) / (p[i]! + p[other]!)
          }
          expect(Math.abs(w - expected)).toBeLessThan(1e-7)
        }
      }),
      { numRuns: 40 },
    )
  })

  it('is NaN with a reason when the estimate does not exist, and smoothing fixes it', () => {
    const shutout = games([
      ['x', 'y', 3, 0],
      ['y', 'z', 2, 1],
    ])
    const bt = bradleyTerry(shutout)
    expect(bt.value).toBeNaN()
    expect(bt.details.reason).toMatch(/never won or tied/)
    const smoothed = bradleyTerry(shutout, { smoothing: 1 })
    expect(smoothed.details.converged).toBe(true)
    expect(smoothed.details.ranking[0]!.system).toBe('x')
    const apart = bradleyTerry(
      games([
        ['a', 'b', 1, 1],
        ['c', 'd', 1, 1],
      ]),
    )
    expect(apart.details.reason).toMatch(/never compared/)
  })

  it('reports when it stops before converging', () => {
    const bt = bradleyTerry(
      games([
        ['a', 'b', 5, 1],
        ['b', 'c', 5, 1],
        ['a', 'c', 1, 1],
      ]),
      { maxIterations: 2 },
    )
    expect(bt.details.converged).toBe(false)
    expect(bt.details.iterations).toBe(2)
    expect(bt.details.reason).toMatch(/did not converge/)
  })

  it('refuses malformed judgements', () => {
    expect(() => bradleyTerry([])).toThrow(MetricInputError)
    expect(() => bradleyTerry([{ a: 'x', b: 'x', winner: 'a' }])).toThrow(/comparisons\[0\]\.b/)
    expect(() => bradleyTerry([{ a: 'x', b: 'y', winner: 'x' as never }])).toThrow(/winner/)
    expect(() => winProbability(bradleyTerry(games([['x', 'y', 1, 1]])), 'x', 'q')).toThrow(/`b`/)
  })
})

describe('countWins', () => {
  it('counts from either side, optionally against one opponent', () => {
    const list = games([
      ['x', 'y', 2, 1, 1],
      ['z', 'x', 1, 3],
    ])
    expect(countWins(list, 'x')).toEqual({ wins: 5, losses: 2, ties: 1 })
    expect(countWins(list, 'x', 'z')).toEqual({ wins: 3, losses: 1, ties: 0 })
    expect(countWins(list, 'nobody')).toEqual({ wins: 0, losses: 0, ties: 0 })
  })
})
