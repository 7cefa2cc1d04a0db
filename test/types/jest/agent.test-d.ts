// Type tests for the agent matchers under @types/jest (issue #31): compiled by `npm run test:types`, never executed.
import { expectTypeOf } from 'expect-type'
import '../../../runners/jest.js'

const calls = [{ name: 'search', args: { query: 'heads' } }]
const run = { cases: [{ id: 'q1', toolCalls: calls, expectedToolCalls: ['search'], timing: { ms: 5 }, usage: { inputTokens: 1, outputTokens: 1 } }] }

expect(calls).toCallTool('search')
expect(calls).toCallTool({ name: 'search', args: expect.objectContaining({ query: expect.any(String) }) }, { argsMatch: 'partial' })
expect(calls).not.toCallTool('delete_file')
expect(calls).toCallTools(['search'], { order: 'in-order', argsMatch: 'ignore' })
expect(run).toCallTools({ order: 'superset', failedCases: 'skip' })
expect(calls).toCallNoTools(['delete_file'])
expect(calls).toMakeAtMostToolCalls(3, { name: 'search' })
expect(calls).toHaveToolCallF1(['search'], 0.8)
expect(run).toHaveToolCallF1(0.8, { failedCases: 'zero' })
expect(run).toStayWithinBudget({ p95Ms: 2000, totalCost: 0.5, prices: { m: { inputPerMillion: 1, outputPerMillion: 2 } } })
expectTypeOf(expect(calls).toCallTool('search')).toBeVoid()
// asymmetric use of a sync matcher
expect({ out: { toolCalls: calls } }).toEqual({ out: expect.toCallTool('search') })

// @ts-expect-error unknown order
expect(calls).toCallTools(['search'], { order: 'strict' })
// @ts-expect-error argsMatch 'ignore' is for lists of calls; one call is named or matched
expect(calls).toCallTool('search', { argsMatch: 'ignore' })
// @ts-expect-error n is a number
expect(calls).toMakeAtMostToolCalls('3')
// @ts-expect-error a budget needs its limits
expect(run).toStayWithinBudget()
// @ts-expect-error a number is no list of calls
expect(42).toCallTool('search')
