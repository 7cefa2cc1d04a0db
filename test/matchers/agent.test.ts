// Runs under Vitest AND Jest (globals only).
import { failureOf } from '../helpers/failure.js'

const calls = [
  { name: 'search', args: { query: 'UV index Paris', k: 5 }, step: 0 },
  { name: 'search', args: { query: 'weather Paris', k: 5 }, step: 0 },
  { name: 'weather', args: { city: 'Paris' }, step: 1 },
]

/** A Matcher error, with or without .not (the one rule). */
function refusedBothWays(run: (e: (v: unknown) => unknown) => unknown, named: string | RegExp): void {
  for (const e of [(v: unknown) => expect(v), (v: unknown) => expect(v).not]) {
    const message = failureOf(() => run(e))
    expect(message).toContain('Matcher error')
    if (typeof named === 'string') expect(message).toContain(named)
    else expect(message).toMatch(named)
  }
}

describe('.toCallTool', () => {
  it('passes by name, exact args, partial args and asymmetric matchers', () => {
    expect(calls).toCallTool('weather')
    expect(calls).toCallTool({ name: 'weather', args: { city: 'Paris' } })
    expect(calls).toCallTool({ name: 'search', args: { query: 'weather Paris' } }, { argsMatch: 'partial' })
    expect(calls).toCallTool({ name: 'search', args: expect.objectContaining({ query: expect.stringContaining('UV') }) })
    expect({ toolCalls: calls }).toCallTool({ name: 'weather', args: { city: expect.any(String) } })
  })
  it('fails saying whether the tool was called with other args or not at all', () => {
    const other = failureOf(() => expect(calls).toCallTool({ name: 'weather', args: { city: 'Lyon' } }))
    expect(other).toContain('weather was called, but never with the expected args (exact match)')
    expect(other).toContain('weather({"city":"Paris"})')
    expect(other).toContain('signature: ToolCalled|args:exact|version:')
    expect(failureOf(() => expect(calls).toCallTool({ name: 'search', args: { query: 'weather Paris' } }))).toContain('never with the expected args')
    expect(failureOf(() => expect([]).toCallTool('search'))).toContain('search was never called')
  })
  it('.not', () => {
    expect(calls).not.toCallTool('delete_file')
    expect(calls).not.toCallTool({ name: 'weather', args: { city: 'Lyon' } })
    expect(failureOf(() => expect(calls).not.toCallTool('search'))).toContain('search(…) was called 2 times, expected it not to be')
  })
  it('eval sets: every case, one row per case that does not', () => {
    const set = [
      { id: 'q1', toolCalls: calls },
      { id: 'q2', toolCalls: [{ name: 'weather', args: { city: 'Paris' } }] },
    ]
    expect([set[0]]).toCallTool('search')
    const message = failureOf(() => expect(set).toCallTool('search'))
    expect(message).toMatch(/share of cases that call search\(…\) \(2 cases\) = 0\.5000/)
    expect(message).toMatch(/q2\s+1 calls, none to search/)
    expect(set).not.toCallTool('search')
    expect(failureOf(() => expect({ cases: [set[0]] }).not.toCallTool('search'))).toMatch(/cases that call search\(…\): 1 of 1/)
  })
  it('a failed case fails the set either way, unless skipped', () => {
    const set = [
      { id: 'q1', toolCalls: calls },
      { id: 'q2', error: { name: 'Error', message: 'model down' } },
    ]
    expect(failureOf(() => expect(set).toCallTool('search'))).toContain('case q2 has no tool calls because its pipeline failed: model down')
    expect(failureOf(() => expect(set).not.toCallTool('search'))).toContain('under .not too')
    expect(set).toCallTool('search', { failedCases: 'skip' })
  })
  it('bad input is a Matcher error naming the call or the case', () => {
    refusedBothWays((e) => (e([{ args: {} }]) as never as jest.Matchers<void>).toCallTool('x'), 'received[0].name')
    refusedBothWays((e) => (e([{ name: 'search', args: '{"q":1}' }]) as never as jest.Matchers<void>).toCallTool('x'), 'received[0].args')
    refusedBothWays((e) => (e([{ id: 'q7', toolCalls: [{ name: 'a', args: 3 }] }]) as never as jest.Matchers<void>).toCallTool('x'), 'case q7.toolCalls[0].args')
    refusedBothWays((e) => (e([{ id: 'q8', question: 'why?' }]) as never as jest.Matchers<void>).toCallTool('x'), 'case q8 has no `toolCalls`')
    refusedBothWays((e) => (e('search') as never as jest.Matchers<void>).toCallTool('x'), 'received value must be the tool calls')
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toCallTool(''), 'call')
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toCallTool('x', { argsMatch: 'subset' } as never), 'options.argsMatch')
  })
})

describe('.toCallTools', () => {
  it('each order mode; parallel calls of one step in any order under exact', () => {
    expect(calls).toCallTools(['search', 'search', 'weather'])
    expect(calls).toCallTools([{ name: 'search', args: { query: 'weather Paris', k: 5 } }, { name: 'search', args: { query: 'UV index Paris', k: 5 } }, 'weather'])
    expect(calls).toCallTools(['search', 'weather'], { order: 'in-order' })
    expect(calls).toCallTools(['weather', 'search', 'search'], { order: 'any-order' })
    expect(calls).toCallTools(['weather'], { order: 'superset' })
    expect(calls).toCallTools(['weather', 'search', 'search', 'answer'], { order: 'subset' })
    expect(calls).toCallTools([{ name: 'weather', args: { town: 'x' } }, 'search', 'search'], { order: 'any-order', argsMatch: 'ignore' })
  })
  it('fails naming the reason, the missing and the unexpected calls', () => {
    const message = failureOf(() => expect(calls).toCallTools(['weather', 'search'], { order: 'in-order' }))
    expect(message).toContain('the calls do not match the expected calls (order: in-order)')
    expect(message).toContain('expected call #2 was not made after the calls before it')
    expect(message).toMatch(/not made:\n\s+expected #2\s+search\(…\)/)
    expect(message).toContain('signature: ToolCalls|order:in-order|args:exact|version:')
    expect(failureOf(() => expect(calls).toCallTools(['search', 'weather']))).toContain('a different number of calls (3 calls made, 2 expected)')
    expect(failureOf(() => expect(calls).toCallTools(['search', 'weather', 'search']))).toContain('calls #1–#2 (one step) differ from the expected calls')
  })
  it('.not', () => {
    expect(calls).not.toCallTools(['weather', 'search', 'search'])
    expect(failureOf(() => expect(calls).not.toCallTools(['weather'], { order: 'superset' }))).toContain('expected them not to')
  })
  it("eval sets: each case's expectedToolCalls, or one list for all", () => {
    const set = [
      { id: 'q1', toolCalls: calls, expectedToolCalls: ['search', 'weather'] },
      { id: 'q2', toolCalls: [{ name: 'weather', args: {} }], expectedToolCalls: ['search', 'weather'] },
    ]
    expect(set).toCallTools(['weather'], { order: 'superset' })
    const message = failureOf(() => expect(set).toCallTools({ order: 'in-order' }))
    expect(message).toMatch(/q2\s+expected call #1 was not made/)
    expect(set).not.toCallTools({ order: 'in-order' })
    refusedBothWays((e) => (e([{ id: 'q3', toolCalls: [] }]) as never as jest.Matchers<void>).toCallTools(), 'case q3 has no `expectedToolCalls`')
    refusedBothWays(
      (e) => (e([{ id: 'q4', toolCalls: [], expectedToolCalls: [{ args: {} }] }]) as never as jest.Matchers<void>).toCallTools(),
      'case q4.expectedToolCalls[0].name',
    )
  })
  it('bad input', () => {
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toCallTools({ order: 'exact' }), 'expected must be an array')
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toCallTools(['a'], { order: 'strict' } as never), 'options.order')
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toCallTools([{ name: 'a', args: 'x' }] as never), 'expected[0].args')
  })
})

describe('.toCallNoTools', () => {
  it('no call at all, or none of the named tools', () => {
    expect([]).toCallNoTools()
    expect({ toolCalls: [] }).toCallNoTools()
    expect(calls).toCallNoTools(['delete_file', 'send_email'])
    expect(calls).toCallNoTools('delete_file')
  })
  it('fails listing the forbidden calls', () => {
    const message = failureOf(() => expect(calls).toCallNoTools('weather'))
    expect(message).toContain('1 call to weather, expected none')
    expect(message).toMatch(/forbidden calls \(1\):\n\s+#1\s+weather\(\{"city":"Paris"\}\)/)
    expect(failureOf(() => expect(calls).toCallNoTools())).toContain('3 calls to tools, expected none')
  })
  it('.not', () => {
    expect(calls).not.toCallNoTools()
    expect(failureOf(() => expect([]).not.toCallNoTools())).toContain('no tool was called, expected a call')
  })
  it('eval sets', () => {
    expect([{ id: 'q1', toolCalls: [] }]).toCallNoTools()
    expect(
      failureOf(() =>
        expect([
          { id: 'q1', toolCalls: [] },
          { id: 'q2', toolCalls: calls },
        ]).toCallNoTools('search'),
      ),
    ).toMatch(/q2\s+2× search/)
  })
  it('bad input', () => {
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toCallNoTools([] as never), 'names must be a tool name')
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toCallNoTools(['a', 3] as never), 'names must be a tool name')
  })
})

describe('.toMakeAtMostToolCalls', () => {
  it('counts every call, or the calls to one tool', () => {
    expect(calls).toMakeAtMostToolCalls(3)
    expect(calls).toMakeAtMostToolCalls(2, { name: 'search' })
    expect([]).toMakeAtMostToolCalls(0)
  })
  it('fails with the count and how far over', () => {
    const message = failureOf(() => expect(calls).toMakeAtMostToolCalls(1, { name: 'search' }))
    expect(message).toContain('calls to search = 2   required ≤ 1   (over by 1)')
    expect(message).toContain('signature: ToolCallCount|tool:search|version:')
  })
  it('.not', () => {
    expect(calls).not.toMakeAtMostToolCalls(2)
    expect(failureOf(() => expect(calls).not.toMakeAtMostToolCalls(3))).toContain('tool calls = 3   required > 3')
  })
  it('eval sets', () => {
    expect(
      failureOf(() =>
        expect([
          { id: 'q1', toolCalls: calls },
          { id: 'loop', toolCalls: Array(9).fill(calls[0]) },
        ]).toMakeAtMostToolCalls(4),
      ),
    ).toMatch(/loop\s+9 tool calls/)
  })
  it('bad input', () => {
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toMakeAtMostToolCalls(-1), 'n must be an integer ≥ 0')
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toMakeAtMostToolCalls(1.5), 'n must be an integer ≥ 0')
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toMakeAtMostToolCalls(1, { name: 3 } as never), 'options.name')
  })
})

describe('.toHaveToolCallF1', () => {
  const expected = [
    { name: 'weather', args: { city: 'Paris' } },
    { name: 'uv', args: { city: 'Paris' } },
  ]
  it('RAGAS F1 ≥ min', () => {
    expect([{ name: 'weather', args: { city: 'Paris' } }]).toHaveToolCallF1(expected, 0.66)
    // names only match any args; the two distinct search calls count as two calls made, one expected
    expect(calls).toHaveToolCallF1(['weather', 'search'], 0.79)
  })
  it('fails with precision, recall and the calls on each side', () => {
    const message = failureOf(() => expect(calls).toHaveToolCallF1(expected, 0.5))
    expect(message).toContain('tool-call F1 = 0.4000   required ≥ 0.5000')
    expect(message).toContain('precision 0.3333 (1 of 3 distinct calls expected), recall 0.5000 (1 of 2 expected calls made)')
    expect(message).toMatch(/expected, not made:\n\s+uv\(\{"city":"Paris"\}\)/)
    expect(message).toContain('signature: ToolCallF1|args:exact|dup:set|compat:ragas|version:')
  })
  it('.not', () => {
    expect(calls).not.toHaveToolCallF1(expected, 0.5)
    expect(failureOf(() => expect(calls).not.toHaveToolCallF1(expected, 0.4))).toContain('required < 0.4000')
  })
  it('eval sets: the mean over cases, lowest first', () => {
    const set = [
      { id: 'q1', toolCalls: [expected[0]], expectedToolCalls: expected },
      { id: 'q2', toolCalls: expected, expectedToolCalls: expected },
    ]
    expect(set).toHaveToolCallF1(0.8)
    const message = failureOf(() => expect(set).toHaveToolCallF1(0.9))
    expect(message).toContain('mean tool-call F1 over 2 cases = 0.8333')
    expect(message).toMatch(/q1\s+0\.6667\n\s+q2\s+1\.0000/)
    refusedBothWays((e) => (e([{ id: 'q9', toolCalls: [] }]) as never as jest.Matchers<void>).toHaveToolCallF1(0.5), 'case q9 has no `expectedToolCalls`')
  })
  it('bad input', () => {
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toHaveToolCallF1([], 0.5), 'non-empty')
    refusedBothWays((e) => (e(calls) as never as jest.Matchers<void>).toHaveToolCallF1(expected, 2), 'min must be a number from 0 to 1')
    refusedBothWays((e) => (e([{ name: 'a', args: [] }]) as never as jest.Matchers<void>).toHaveToolCallF1(expected, 0.5), 'received[0].args')
  })
})
