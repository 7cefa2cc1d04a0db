import { argsEqual, maxPairing } from '../../../src/agent/call-match.js'
import { measureBudget, type BudgetCase } from '../../../src/agent/budget.js'
import { toolCallF1 } from '../../../src/agent/tool-call-f1.js'
import { readExpectedCalls, readToolCalls } from '../../../src/agent/tool-calls.js'
import { matchTrajectory } from '../../../src/agent/trajectory.js'

const call = (name: string, args: Record<string, unknown> = {}, step?: number) => (step === undefined ? { name, args } : { name, args, step })

describe('readToolCalls', () => {
  it('defaults absent args to {} and keeps step and id', () => {
    expect(readToolCalls('f', 'calls', [{ name: 'a' }, { name: 'b', args: { x: 1 }, step: 2, id: 'c1', type: 'function' }])).toEqual([
      { name: 'a', args: {} },
      { name: 'b', args: { x: 1 }, step: 2, id: 'c1' },
    ])
  })
  it.each([
    [[{ args: {} }], 'calls[0].name'],
    [[{ name: '' }], 'calls[0].name'],
    [[{ name: 'a', args: '{"q":1}' }], 'JSON.parse'],
    [[{ name: 'a', args: [1] }], 'calls[0].args'],
    [[{ name: 'a', args: new Map() }], 'calls[0].args'],
    [[{ name: 'a', step: -1 }], 'calls[0].step'],
    [[null], 'calls[0]'],
    ['search', 'calls'],
    // eslint-disable-next-line no-sparse-arrays
    [[{ name: 'a' }, , { name: 'b' }], 'calls[1]'],
  ])('refuses %j, naming %s', (value, named) => {
    expect(() => readToolCalls('f', 'calls', value)).toThrow(named)
  })
  it('expected calls: names, { name, args }, asymmetric args; unknown keys and empty lists refused where asked', () => {
    const any = { asymmetricMatch: () => true }
    expect(readExpectedCalls('f', 'expected', ['a', { name: 'b', args: any }], false)).toEqual([
      { name: 'a', args: undefined, step: undefined },
      { name: 'b', args: any, step: undefined },
    ])
    expect(() => readExpectedCalls('f', 'expected', [], false)).toThrow('non-empty')
    expect(readExpectedCalls('f', 'expected', [], true)).toEqual([])
    expect(() => readExpectedCalls('f', 'expected', [{ name: 'a', arg: {} }], true)).toThrow('expected[0].arg')
    expect(() => readExpectedCalls('f', 'expected', [{ name: 'a', args: 'x' }], true)).toThrow('expected[0].args')
  })
})

describe('argsEqual', () => {
  it('is structural, treats undefined keys as absent, and asks asymmetric matchers', () => {
    expect(argsEqual({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBe(true)
    expect(argsEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true)
    expect(argsEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false)
    expect(argsEqual({ a: '1' }, { a: 1 })).toBe(false)
    expect(argsEqual([1, 2], { 0: 1, 1: 2 })).toBe(false)
    expect(argsEqual({ q: 'heads' }, { q: { asymmetricMatch: (v: unknown) => typeof v === 'string' } })).toBe(true)
  })
})

describe('maxPairing', () => {
  it('finds the largest pairing where a greedy first match would block a later expected call', () => {
    const received = [call('s', { a: 1, b: 2 }), call('s', { a: 1 })]
    // expected[0] fits both received calls, expected[1] only the first: greedy pairs 0–0 and fails 1
    const expected = readExpectedCalls(
      'f',
      'e',
      [
        { name: 's', args: { a: 1 } },
        { name: 's', args: { b: 2 } },
      ],
      false,
    )
    expect(maxPairing(received, expected, 'partial').size).toBe(2)
  })
})

describe('matchTrajectory', () => {
  const made = [call('search', { q: 'a' }, 0), call('search', { q: 'b' }, 0), call('answer', {}, 1)]
  it.each([
    ['exact', ['search', 'search', 'answer'], 1],
    ['exact', [call('search', { q: 'b' }), call('search', { q: 'a' }), call('answer')], 1],
    ['exact', [call('search', { q: 'a' }), call('answer'), call('search', { q: 'b' })], 0],
    ['exact', [call('search', { q: 'a' }, 0), call('search', { q: 'b' }, 1), call('answer', {}, 2)], 0],
    ['in-order', ['search', 'answer'], 1],
    ['in-order', ['answer', 'search'], 0],
    ['any-order', ['answer', 'search', 'search'], 1],
    ['any-order', ['answer', 'search'], 0],
    ['superset', ['answer', 'search'], 1],
    ['superset', ['answer', 'answer'], 0],
    ['subset', ['answer', 'search', 'search', 'lookup'], 1],
    ['subset', ['answer', 'search'], 0],
  ] as const)('%s against %j: %d', (order, expected, value) => {
    expect(matchTrajectory(made, expected as never, { order }).value).toBe(value)
  })
  it('says why it failed and lists what is missing and unexpected', () => {
    const s = matchTrajectory([call('search', { q: 'a' })], [call('search', { q: 'b' })], { order: 'any-order' })
    expect(s.details).toMatchObject({ pass: false, missing: [0], unexpected: [0] })
    expect(s.details.reason).toContain('1 missing, 1 unexpected')
    expect(s.signature).toBe('ToolCalls|order:any-order|args:exact|version:0.1.0')
  })
  it('partial and ignored args', () => {
    expect(matchTrajectory([call('s', { q: 'a', k: 5 })], [call('s', { q: 'a' })]).value).toBe(0)
    expect(matchTrajectory([call('s', { q: 'a', k: 5 })], [call('s', { q: 'a' })], { argsMatch: 'partial' }).value).toBe(1)
    expect(matchTrajectory([call('s', { q: 'x' })], [call('s', { q: 'a' })], { argsMatch: 'ignore' }).value).toBe(1)
  })
  it('refuses unknown options', () => {
    expect(() => matchTrajectory([], [], { order: 'strict' as never })).toThrow('options.order')
    expect(() => matchTrajectory([], [], { argsMatch: 'subset' as never })).toThrow('options.argsMatch')
    expect(() => matchTrajectory([], [], { ordr: 'exact' } as never)).toThrow('options.ordr')
  })
})

describe('toolCallF1', () => {
  it('is F1 over sets of (name, args): repeats count once, order does not count', () => {
    const s = toolCallF1([call('a', { x: 1 }), call('a', { x: 1 }), call('b'), call('c')], [call('b'), call('a', { x: 1 }), call('d')])
    expect(s.details).toMatchObject({ truePositives: 2, falsePositives: 1, falseNegatives: 1, repeated: 1 })
    expect(s.value).toBeCloseTo(2 / 3, 12)
    expect(s.signature).toBe('ToolCallF1|args:exact|dup:set|compat:ragas|version:0.1.0')
  })
  it('keys order in args does not matter; nothing made scores 0', () => {
    expect(toolCallF1([call('a', { x: 1, y: 2 })], [call('a', { y: 2, x: 1 })]).value).toBe(1)
    expect(toolCallF1([], ['a']).value).toBe(0)
  })
  it('refuses an empty expected list (RAGAS would score 0 whatever was called)', () => {
    expect(() => toolCallF1([call('a')], [])).toThrow('non-empty')
  })
})

describe('measureBudget', () => {
  const c = (id: string, ms: number, inputTokens: number, outputTokens: number, model = 'm'): BudgetCase => ({
    name: `case ${id}`,
    id,
    ms,
    usage: { inputTokens, outputTokens },
    model,
  })
  const cases = [c('a', 100, 1000, 100), c('b', 300, 2000, 200), c('c', 200, 500, 50)]
  it('p50/p95 are type-7 quantiles, max names the case; the value is the worst ratio', () => {
    const s = measureBudget(cases, { p50Ms: 400, p95Ms: 400, maxMs: 600 })
    expect(s.details.checks.map((k) => k.measured)).toEqual([200, 290, 300])
    expect(s.details.checks[2]?.worst).toBe('b')
    expect(s.value).toBeCloseTo(290 / 400, 12)
  })
  it('tokens and cost from the price table', () => {
    const s = measureBudget(cases, { totalTokens: 3850, tokensPerCase: 2000, totalCost: 1, prices: { m: { inputPerMillion: 2, outputPerMillion: 10 } } })
    expect(s.details.checks.map((k) => [k.limit, k.measured, k.pass])).toEqual([
      ['totalTokens', 3850, true],
      ['tokensPerCase', 2200, false],
      ['totalCost', (3500 * 2 + 350 * 10) / 1e6, true],
    ])
  })
  it('a price table without the model a case used names the case and the model', () => {
    expect(() => measureBudget([c('a', 1, 1, 1, 'gpt-x')], { totalCost: 1, prices: { m: { inputPerMillion: 1, outputPerMillion: 1 } } })).toThrow(
      /prices\["gpt-x"\].*case a used \(prices given for: m\)/,
    )
  })
  it('refuses no limit, a zero limit, a case without timing or usage', () => {
    expect(() => measureBudget(cases, {})).toThrow('at least one limit')
    expect(() => measureBudget(cases, { maxMs: 0 })).toThrow('limits.maxMs')
    expect(() => measureBudget([{ name: 'case z', id: 'z', ms: undefined, usage: undefined, model: undefined }], { maxMs: 1 })).toThrow('case z.timing.ms')
    expect(() => measureBudget([{ name: 'case z', id: 'z', ms: 1, usage: undefined, model: undefined }], { totalTokens: 1 })).toThrow('case z.usage')
    expect(() => measureBudget([{ name: 'case z', id: 'z', ms: 1, usage: { inputTokens: -1 }, model: undefined }], { totalTokens: 1 })).toThrow('case z.usage.inputTokens')
  })
})
