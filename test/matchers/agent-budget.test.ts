// Runs under Vitest AND Jest (globals only).
import { failureOf } from '../helpers/failure.js'
import { allMatchers } from '../../matchers/all.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'

const plain: MatcherContext = { isNot: false, promise: '', utils: { matcherHint: (n) => n, printReceived: (v) => String(v), printExpected: (v) => String(v) } }

const prices = { small: { inputPerMillion: 0.15, outputPerMillion: 0.6 }, large: { inputPerMillion: 2.5, outputPerMillion: 10 } }
const run = {
  cases: [
    { id: 'q1', question: 'a', timing: { ms: 800 }, usage: { inputTokens: 1200, outputTokens: 150 }, model: 'small' },
    { id: 'q2', question: 'b', timing: { ms: 2400 }, usage: { inputTokens: 5400, outputTokens: 600 }, model: 'small' },
    {
      id: 'q3',
      question: 'c',
      timing: { ms: 1000 },
      usage: [
        { inputTokens: 2000, outputTokens: 100, model: 'small' },
        { inputTokens: 1000, outputTokens: 300, model: 'large' },
      ],
    },
  ],
}

describe('.toStayWithinBudget', () => {
  it('passes when every limit holds', () => {
    expect(run).toStayWithinBudget({ p50Ms: 1000, p95Ms: 2300, maxMs: 2400, totalTokens: 10750, tokensPerCase: 6000 })
    // cost: q1 0.000270, q2 0.001170, q3 0.000360 + 0.005500 = 0.00586; total 0.0073
    expect(run.cases).toStayWithinBudget({ totalCost: 0.0073, costPerCase: 0.00586, prices })
  })
  it('fails naming each limit exceeded and the case that set it', () => {
    const message = failureOf(() => expect(run).toStayWithinBudget({ maxMs: 2000, tokensPerCase: 4000, totalTokens: 20000 }))
    expect(message).toContain('the run exceeds 2 of 3 limits: max latency (ms), tokens, largest case')
    expect(message).toMatch(/max latency \(ms\)\s+2400\.0\s+> 2000\.0\s+OVER\s+case q2/)
    expect(message).toMatch(/tokens, whole run\s+10750\s+≤ 20000\s+ok/)
    expect(message).toContain('signature: Budget|limits:maxMs,totalTokens,tokensPerCase|pct:type7|version:')
  })
  it('records the largest measured / limit ratio, and per case its ratio to the per-case limits', () => {
    const result = allMatchers.toStayWithinBudget.call(plain, run, { maxMs: 3000, tokensPerCase: 4000, totalTokens: 20000 }) as MatcherResult
    expect(result.meta).toMatchObject({ metric: 'budget ratio', value: 6000 / 4000, threshold: 1, comparator: '<=', direction: 'lower', pass: false })
    expect(result.meta?.perCase).toEqual([
      { id: 'q1', value: 1350 / 4000, pass: true },
      { id: 'q2', value: 6000 / 4000, pass: false },
      { id: 'q3', value: 3400 / 4000, pass: true },
    ])
    // run-wide limits only: nothing per case
    expect((allMatchers.toStayWithinBudget.call(plain, run, { p95Ms: 3000 }) as MatcherResult).meta?.perCase).toBeUndefined()
  })
  it('.not', () => {
    expect(run).not.toStayWithinBudget({ maxMs: 2000 })
    expect(failureOf(() => expect(run).not.toStayWithinBudget({ maxMs: 5000 }))).toContain('the run stays within every limit (1), expected it to exceed one')
  })
  it('a failed case fails it either way, unless skipped', () => {
    const failed = { cases: [...run.cases, { id: 'q4', question: 'd', timing: { ms: 60000 }, error: { name: 'TimeoutError', message: 'too slow' } }] }
    expect(failureOf(() => expect(failed).toStayWithinBudget({ totalTokens: 20000 }))).toContain('case q4 has no usage because its pipeline failed: too slow')
    expect(failureOf(() => expect(failed).not.toStayWithinBudget({ totalTokens: 20000 }))).toContain('under .not too')
    expect(failed).toStayWithinBudget({ totalTokens: 20000, failedCases: 'skip' })
  })
  function refusedBothWays(received: unknown, limits: unknown, named: string): void {
    for (const not of [false, true]) {
      const e = not ? (expect(received) as jest.Matchers<void>).not : (expect(received) as jest.Matchers<void>)
      const message = failureOf(() => e.toStayWithinBudget(limits as never))
      expect(message).toContain('Matcher error')
      expect(message).toContain(named)
    }
  }
  it('a price table without the model a case used is a Matcher error naming the case and the model', () => {
    refusedBothWays(run, { totalCost: 1, prices: { small: prices.small } }, 'the price of model "large", which case q3 used (prices given for: small)')
  })
  it('prices the run whenever prices is given, with or without a cost limit (the report shows it), and refuses a model missing from them either way', () => {
    const result = allMatchers.toStayWithinBudget.call(plain, run, { maxMs: 3000, prices }) as MatcherResult
    expect(result.meta?.extra?.totalCost).toBeCloseTo(0.0073, 12)
    expect((allMatchers.toStayWithinBudget.call(plain, run, { maxMs: 3000 }) as MatcherResult).meta?.extra).toBeUndefined()
    expect(run).toStayWithinBudget({ maxMs: 3000, prices })
    expect(run).not.toStayWithinBudget({ maxMs: 2000, prices })
    refusedBothWays(run, { maxMs: 3000, prices: { small: prices.small } }, 'the price of model "large", which case q3 used (prices given for: small)')
  })
  it('other bad input names the case or the limit', () => {
    refusedBothWays(run, { totalCost: 1 }, 'limits.prices')
    refusedBothWays(run, { maxMs: 0 }, 'options.maxMs must be a positive finite number')
    refusedBothWays(run, {}, 'at least one limit')
    refusedBothWays(run, { p95: 100 }, "unknown option 'p95'")
    refusedBothWays([{ id: 'q1', question: 'a' }], { maxMs: 100 }, 'case q1.timing.ms')
    refusedBothWays([{ id: 'q1', timing: { ms: 5 } }], { totalTokens: 100 }, 'case q1.usage')
    refusedBothWays([{ id: 'q1', timing: { ms: 5 }, usage: { inputTokens: 'many' } }], { totalTokens: 100 }, 'case q1.usage.inputTokens')
    refusedBothWays([{ id: 'q1', timing: { ms: 5 }, usage: { inputTokens: 5, outputTokens: 1 } }], { totalCost: 1, prices }, 'case q1.usage.model')
    refusedBothWays('run', { maxMs: 1 }, 'received value must be an eval run')
  })
})
