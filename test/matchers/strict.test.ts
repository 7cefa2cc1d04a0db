// Runs under Vitest AND Jest: every matcher, with and without `.not`, refuses an unknown option key,
// a wrongly typed option and an extra argument with a Matcher error, driven by the declarations.
import { matcherDeclarations } from '../../matchers/all.js'
import { formFor, type FormSpec, type MatcherDeclaration } from '../../matchers/declare.js'
import type { Judge } from '../../src/judge/types.js'
import { functionEmbedder } from '../../src/embeddings/function-embedder.js'
import { asyncFailureOf, failureOf } from '../helpers/failure.js'

/** A judge that is never reached: every case below fails before a call. */
const judge: Judge = {
  id: 'never-called',
  model: 'never-called',
  temperature: 0,
  seed: 42,
  ask: async () => {
    throw new Error('the judge must not be called when the arguments are refused')
  },
} as unknown as Judge
const embedder = functionEmbedder((text: string) => [text.length, 1], { id: 'length' })

const CASE = { id: 'q1', retrieved: ['a', 'b'], relevant: ['a'], answer: 'Paris is big.', reference: 'Paris is large.' }
/** An eval-set case for the judge matchers' set forms. */
const TOOL_CALLS = [{ name: 'search', args: { query: 'heads' } }]
const AGENT_CASE = { id: 'q1', toolCalls: TOOL_CALLS, expectedToolCalls: ['search'] }
/** A conversation for the conversation judges. */
const CONVERSATION = {
  id: 'c1',
  turns: [
    { user: 'I live in Paris.', assistant: 'Noted.' },
    { user: 'Where do I live?', assistant: 'In Paris.' },
  ],
}
const JUDGE_CASE = { id: 'q1', answer: 'Paris is big.', question: 'How big is Paris?', contexts: ['Paris is large.'], reference: 'Paris is large.' }

/** A valid call per matcher and received form: the received value, the positional arguments and the options object. */
const VALID: Record<string, ReadonlyArray<{ received: unknown; args: unknown[]; options: Record<string, unknown> }>> = {
  toHavePrecisionAtK: [
    { received: CASE, args: [1, 0.5], options: {} },
    { received: [CASE], args: [1, 0.5], options: {} },
  ],
  toHaveRecallAtK: [
    { received: CASE, args: [1, 0.5], options: {} },
    { received: [CASE], args: [1, 0.5], options: {} },
  ],
  toHaveMrrAbove: [
    { received: CASE, args: [0.5], options: {} },
    { received: [CASE], args: [0.5], options: {} },
  ],
  toHaveNdcgAtK: [
    { received: CASE, args: [1, 0.5], options: {} },
    { received: [CASE], args: [1, 0.5], options: {} },
  ],
  toHaveMapAtK: [
    { received: CASE, args: [1, 0.5], options: {} },
    { received: [CASE], args: [1, 0.5], options: {} },
  ],
  toHitWithin: [
    { received: CASE, args: [1], options: {} },
    { received: [CASE], args: [1], options: {} },
  ],
  toHaveHitRateAtK: [
    { received: CASE, args: [1, 0.5], options: {} },
    { received: [CASE], args: [1, 0.5], options: {} },
  ],
  toScoreBleuAbove: [
    { received: 'Paris is big.', args: ['Paris is large.', 10], options: {} },
    { received: [CASE], args: [10], options: {} },
  ],
  toScoreChrfAbove: [
    { received: 'Paris is big.', args: ['Paris is large.', 10], options: {} },
    { received: [CASE], args: [10], options: {} },
  ],
  toScoreTerBelow: [
    { received: 'Paris is big.', args: ['Paris is large.', 50], options: {} },
    { received: [CASE], args: [50], options: {} },
  ],
  toScoreRougeAbove: [
    { received: 'Paris is big.', args: ['Paris is large.', 0.1], options: {} },
    { received: [CASE], args: [0.1], options: {} },
  ],
  toScoreRougeLAbove: [
    { received: 'Paris is big.', args: ['Paris is large.', 0.1], options: {} },
    { received: [CASE], args: [0.1], options: {} },
  ],
  toScoreMeteorAbove: [
    { received: 'Paris is big.', args: ['Paris is large.', 0.1], options: {} },
    { received: [CASE], args: [0.1], options: {} },
  ],
  toStateNumbersOf: [
    { received: 'It has 3 rooms.', args: ['It has 3 rooms.'], options: {} },
    { received: [CASE], args: [], options: {} },
  ],
  toBeSemanticallySimilarTo: [
    { received: 'ab', args: ['ab', 0.5], options: { embedder } },
    { received: [CASE], args: [0.5], options: { embedder } },
  ],
  toBeGroundedIn: [
    { received: 'Paris is big.', args: [['Paris is large.'], 0.5], options: { judge } },
    { received: [JUDGE_CASE], args: [0.5], options: { judge } },
  ],
  toBeCompleteGiven: [
    { received: 'Paris is big.', args: [{ reference: 'Paris is large.' }, 0.5], options: { judge } },
    { received: [JUDGE_CASE], args: [0.5], options: { judge } },
  ],
  toUtilizeContext: [
    { received: 'Paris is big.', args: [['Paris is large.'], 0.5], options: { judge } },
    { received: [JUDGE_CASE], args: [0.5], options: { judge } },
  ],
  toHaveContextRecall: [
    { received: ['Paris is large.'], args: ['Paris is big.', 0.5], options: { judge } },
    { received: [JUDGE_CASE], args: [0.5], options: { judge } },
  ],
  toBeRelevantTo: [
    { received: 'Paris is big.', args: ['How big is Paris?', 0.5], options: { judge } },
    { received: [JUDGE_CASE], args: [0.5], options: { judge } },
  ],
  toSatisfyRubric: [
    { received: 'Paris is big.', args: ['Answers the question.', 0.5], options: { judge } },
    { received: [JUDGE_CASE], args: ['Answers the question.', 0.5], options: { judge } },
  ],
  toBePreferredOver: [{ received: 'Paris is big.', args: ['Paris is small.'], options: { judge, question: 'How big is Paris?' } }],
  toMatchMetricBaseline: [{ received: [CASE], args: ['strict-never-written'], options: { metrics: ['recall@1'], file: '/nonexistent/strict.test.ts' } }],
  toHaveAgreementAbove: [
    {
      received: [
        [1, 2, 3],
        [1, 2, 3],
      ],
      args: [0.5],
      options: { statistic: 'krippendorff' },
    },
  ],
  toCorrelateWith: [{ received: [1, 2, 3], args: [[1, 2, 3], 0.5], options: {} }],
  toWinAgainst: [{ received: { wins: 8, losses: 2 }, args: ['v1'], options: {} }],
  toAgreeWithHumans: [
    {
      received: [
        { item: 'q1', score: 5 },
        { item: 'q2', score: 1 },
        { item: 'q3', score: 3 },
      ],
      args: [
        [
          { item: 'q1', rater: 'ann', score: 5 },
          { item: 'q1', rater: 'bob', score: 4 },
          { item: 'q2', rater: 'ann', score: 1 },
          { item: 'q2', rater: 'bob', score: 2 },
          { item: 'q3', rater: 'ann', score: 3 },
          { item: 'q3', rater: 'bob', score: 3 },
        ],
      ],
      options: { minKappa: 0.1 },
    },
  ],
  toCallTool: [
    { received: TOOL_CALLS, args: ['search'], options: {} },
    { received: [AGENT_CASE], args: ['search'], options: {} },
  ],
  toCallTools: [
    { received: TOOL_CALLS, args: [['search']], options: { order: 'exact' } },
    { received: [AGENT_CASE], args: [], options: { order: 'exact' } },
  ],
  toCallNoTools: [
    { received: TOOL_CALLS, args: ['delete_file'], options: {} },
    { received: [AGENT_CASE], args: ['delete_file'], options: {} },
  ],
  toMakeAtMostToolCalls: [
    { received: TOOL_CALLS, args: [2], options: {} },
    { received: [AGENT_CASE], args: [2], options: {} },
  ],
  toHaveToolCallF1: [
    { received: TOOL_CALLS, args: [['search'], 0.5], options: {} },
    { received: [AGENT_CASE], args: [0.5], options: {} },
  ],
  toStayWithinBudget: [{ received: [{ id: 'q1', timing: { ms: 5 }, usage: { inputTokens: 1, outputTokens: 1 } }], args: [], options: { maxMs: 5000 } }],
  toRetainKnowledge: [
    { received: CONVERSATION, args: [0.5], options: { judge } },
    { received: [CONVERSATION], args: [0.5], options: { judge } },
  ],
  toCompleteConversation: [
    { received: CONVERSATION, args: [0.5], options: { judge } },
    { received: [CONVERSATION], args: [0.5], options: { judge } },
  ],
}

/** A value of the wrong type for an option documented as `type`. */
function wrongValue(type: string): unknown {
  return /string|path|ContextInput|rater names/.test(type) ? { not: 'this' } : 'not-a-valid-value'
}

type Call = (e: unknown) => unknown

function assertion(decl: MatcherDeclaration, not: boolean, received: unknown, args: unknown[]): Call {
  return () => {
    const e = expect(received) as unknown as Record<string, Record<string, (...a: unknown[]) => unknown>> & Record<string, (...a: unknown[]) => unknown>
    const target = not ? (e.not as unknown as Record<string, (...a: unknown[]) => unknown>) : (e as unknown as Record<string, (...a: unknown[]) => unknown>)
    return (target[decl.name] as (...a: unknown[]) => unknown)(...args)
  }
}

async function messageOf(decl: MatcherDeclaration, not: boolean, received: unknown, args: unknown[]): Promise<string> {
  const run = assertion(decl, not, received, args)
  return decl.async ? asyncFailureOf(async () => run(undefined)) : failureOf(() => run(undefined))
}

function withOptions(form: FormSpec, args: unknown[], options: Record<string, unknown>): unknown[] {
  return form.options === undefined ? args : [...args, options]
}

it('has a valid call for every declared matcher and form', () => {
  for (const decl of matcherDeclarations) {
    expect([decl.name, (VALID[decl.name] ?? []).length > 0]).toEqual([decl.name, true])
    const forms = new Set((VALID[decl.name] ?? []).map((v) => decl.forms.indexOf(formFor(decl, v.received))))
    expect([decl.name, forms.size]).toEqual([decl.name, decl.forms.length])
  }
})

describe.each(matcherDeclarations.map((d) => [d.name, d] as const))('%s', (_name, decl: MatcherDeclaration) => {
  for (const valid of VALID[decl.name] ?? []) {
    const form = formFor(decl, valid.received)
    const label = form.received.slice(0, 40)
    for (const not of [false, true]) {
      const how = `${not ? '.not, ' : ''}${label}`
      it(`refuses an extra argument (${how})`, async () => {
        const args = [...withOptions(form, valid.args, valid.options), 'extra']
        const message = await messageOf(decl, not, valid.received, args)
        expect(message).toContain('Matcher error')
        expect(message).toMatch(/takes (at most|no arguments)|extra/)
      })
      if (form.options === undefined) continue
      const keys = Object.keys(form.options)
      it(`refuses an unknown option key and suggests the nearest (${how})`, async () => {
        const first = keys[0] as string
        // A typo: the first two letters swapped.
        const typo = first.length > 2 ? `${first[1]}${first[0]}${first.slice(2)}` : `${first}x`
        const message = await messageOf(decl, not, valid.received, [...valid.args, { ...valid.options, [typo]: valid.options[first] ?? 1 }])
        expect(message).toContain('Matcher error')
        expect(message).toContain(`unknown option '${typo}' — did you mean '${first}'?`)
        const far = await messageOf(decl, not, valid.received, [...valid.args, { ...valid.options, zzzUnrelated: 1 }])
        expect(far).toContain(`unknown option 'zzzUnrelated'`)
      })
      it(`refuses an options object that is not plain, or whose keys are inherited, symbols or not enumerable (${how})`, async () => {
        const first = keys[0] as string
        const value = valid.options[first] ?? wrongValue('')
        class MatcherOptions {}
        const hostile: Array<[unknown, string]> = [
          [new Map(Object.entries(valid.options)), 'options must be a plain object (an object literal), not a Map'],
          [Object.assign(new MatcherOptions(), valid.options), 'not a MatcherOptions'],
          [Object.assign(Object.create({ [first]: value }) as object, valid.options), 'inherits from another object'],
          [{ ...valid.options, [Symbol(first)]: value }, `options has a symbol key Symbol(${first})`],
          [Object.defineProperty({ ...valid.options }, first, { value, enumerable: false }), `options.${first} is not enumerable`],
        ]
        for (const [options, expected] of hostile) {
          const message = await messageOf(decl, not, valid.received, [...valid.args, options])
          expect([decl.name, message]).toEqual([decl.name, expect.stringContaining('Matcher error')])
          expect([decl.name, message]).toEqual([decl.name, expect.stringContaining(expected)])
        }
      })
      it(`refuses a wrongly typed option (${how})`, async () => {
        for (const key of keys) {
          const spec = form.options![key]!
          const message = await messageOf(decl, not, valid.received, [...valid.args, { ...valid.options, [key]: wrongValue(spec.type) }])
          expect([key, message]).toEqual([key, expect.stringContaining('Matcher error')])
        }
      })
    }
  }
})

describe('reproductions from the issue', () => {
  it('recall@k takes duplicates and refuses repeated ids with error, like the core', () => {
    const c = { retrieved: ['a', 'a', 'b'], relevant: ['a'] }
    expect(failureOf(() => expect(c).toHaveRecallAtK(2, 1, { duplicates: 'error' }))).toContain('Matcher error')
    expect(failureOf(() => expect(c).not.toHaveRecallAtK(2, 1, { duplicates: 'error' }))).toContain('Matcher error')
  })
  it('the duplicates setting shows in the signature of every retrieval matcher', () => {
    const c = { retrieved: ['a', 'a', 'b'], relevant: ['a', 'b'] }
    // `.not` with a threshold of 0 always fails, so each message (and its signature) is shown.
    for (const [name, args] of [
      ['toHavePrecisionAtK', [2, 0]],
      ['toHaveRecallAtK', [2, 0]],
      ['toHaveNdcgAtK', [2, 0]],
      ['toHaveMapAtK', [2, 0]],
      ['toHaveMrrAbove', [0]],
      ['toHaveHitRateAtK', [2, 0]],
    ] as const) {
      const not = expect(c).not as unknown as Record<string, (...a: unknown[]) => void>
      expect(failureOf(() => not[name]!(...args, { duplicates: 'literal' }))).toContain('dup:literal')
      expect(failureOf(() => not[name]!(...args))).toContain('dup:first')
    }
    expect(failureOf(() => expect(c).not.toHitWithin(2, { duplicates: 'literal' }))).toContain('dup:literal')
  })
  it('a typo in an nDCG option fails instead of running with the default', () => {
    const message = failureOf(() => expect({ retrieved: ['a'], relevant: ['a'] }).toHaveNdcgAtK(3, 0.5, { gian: 'exponential' } as never))
    expect(message).toContain("unknown option 'gian' — did you mean 'gain'?")
  })
  it('toStateNumbersOf refuses a tolerance option it does not have', () => {
    const message = failureOf(() => expect('x 1').toStateNumbersOf('x 1', { tolerance: 0.1 } as never))
    expect(message).toContain("unknown option 'tolerance'")
  })
  it('toHitWithin refuses a second argument', () => {
    const c = { retrieved: ['a'], relevant: ['a'] }
    expect(failureOf(() => expect(c).toHitWithin(2, 0.5 as never))).toContain('Matcher error')
    expect(failureOf(() => expect(c).not.toHitWithin(2, 0.5 as never))).toContain('Matcher error')
  })
})
