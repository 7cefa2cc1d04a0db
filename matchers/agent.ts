/**
 * Tool-call matchers (issue #31): which tools an agent called, with which arguments, in which order, how
 * often, and its tool-call F1. The math is in src/agent; these read the received value, call the core,
 * and build the message and the recorded meta.
 */
import { toolCallF1, type ToolCallF1Options, type ToolCallF1Score } from '../src/agent/tool-call-f1.js'
import { describeCall, readExpectedCall, readExpectedCalls, type ArgsMatch, type ExpectedToolCall, type ToolCall } from '../src/agent/tool-calls.js'
import { matchTrajectory, type TrajectoryOptions, type TrajectoryScore } from '../src/agent/trajectory.js'
import { callMatches } from '../src/agent/call-match.js'
import { describeValue } from '../src/errors.js'
import { buildSignature } from '../src/signature.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { isAgentSet, readAgentSet, readCalls, RECEIVED_AGENT_SET, RECEIVED_CALLS, type AgentCase } from './agent-received.js'
import { atLeast, declareMatcher, isString, oneOf, type ArgSpec, type OptionSpec } from './declare.js'
import {
  buildMessage,
  failedCasesMode,
  failedCasesSignature,
  formatNumber,
  partialSetResult,
  table,
  terminalSafe,
  thresholdResult,
  MAX_ROWS,
  FAILED_CASES_OPTION,
  type FailedCasesMode,
} from './message.js'
import { matcherError, requireThreshold } from './validate.js'

/** What a case whose pipeline failed does in an eval set (see the retrieval matchers). */
export interface AgentSetOptions {
  readonly failedCases?: FailedCasesMode
}

export interface ToolCallOptions {
  /** `'exact'` (default): args equal; `'partial'`: the expected keys present and equal, extra keys allowed. */
  readonly argsMatch?: 'exact' | 'partial'
}

/** Typed signatures of the agent matchers. */
export interface AgentMatchers<R = unknown> {
  /** The agent called this tool (a name: any args; `{ name, args }`: args exact, partial, or an asymmetric matcher); for an eval set, in every case. */
  toCallTool(call: ExpectedToolCall, options?: ToolCallOptions & AgentSetOptions): R
  /** The calls match `expected` under `order` (default `'exact'`); for an eval set, in every case (each case's `expectedToolCalls` when `expected` is not given). */
  toCallTools(expected: readonly ExpectedToolCall[], options?: TrajectoryOptions & AgentSetOptions): R
  toCallTools(options?: TrajectoryOptions & AgentSetOptions): R
  /** No tool call at all, or none of the named tools; for an eval set, in every case. */
  toCallNoTools(names?: string | readonly string[], options?: AgentSetOptions): R
  /** At most `n` tool calls (of the tool `name` when given); for an eval set, in every case. */
  toMakeAtMostToolCalls(n: number, options?: { readonly name?: string } & AgentSetOptions): R
  /** Tool-call F1 (RAGAS ToolCallF1) ≥ `min`; for an eval set, the mean over cases against each case's `expectedToolCalls`. */
  toHaveToolCallF1(expected: readonly ExpectedToolCall[], min: number, options?: ToolCallF1Options): R
  toHaveToolCallF1(min: number, options?: ToolCallF1Options & AgentSetOptions): R
}

// ---------------------------------------------------------------- messages

function callsSection(calls: readonly ToolCall[], heading = 'calls made'): string {
  if (calls.length === 0) return 'no tool was called'
  const rows = calls.slice(0, MAX_ROWS).map((c, i) => [`#${i + 1}`, describeCall(c), c.step === undefined ? '' : `step ${c.step}`])
  return `${heading} (${calls.length}):\n${table(rows, { total: calls.length })}`
}

function booleanResult(
  ctx: MatcherContext,
  o: { matcher: string; args: string; metric: string; pass: boolean; headline: string; signature: string; sections: () => ReadonlyArray<string | undefined> },
): MatcherResult {
  return {
    pass: o.pass,
    message: () => buildMessage(ctx, { matcher: o.matcher, args: o.args, headline: o.headline, signature: o.signature, sections: o.sections() }),
    meta: { matcher: o.matcher, metric: o.metric, value: o.pass ? 1 : 0, threshold: 1, comparator: ctx.isNot === true ? '<' : '>=', pass: o.pass, signature: o.signature },
  }
}

/** An eval set: every case must pass; the value is the share that does (threshold 1), one row per case. */
function setOutcome(
  ctx: MatcherContext,
  o: { matcher: string; args: string; what: string; signature: string; check: (c: AgentCase) => { pass: boolean; note: string } },
  set: ReturnType<typeof readAgentSet>,
  mode: FailedCasesMode,
): MatcherResult {
  const results = set.cases.map((c) => ({ c, ...o.check(c) }))
  const perCase = results.map((r) => ({ id: r.c.id, value: r.pass ? 1 : 0 }))
  if (mode === 'zero') for (const f of set.failed) perCase.push({ id: f.id, value: 0 })
  const n = perCase.length
  const value = n === 0 ? 0 : perCase.reduce((s, c) => s + c.value, 0) / n
  const failing = results.filter((r) => !r.pass)
  const passing = results.filter((r) => r.pass)
  return partialSetResult(ctx, {
    matcher: o.matcher,
    args: o.args,
    // the label is printed in a section too (partialSetResult's `over the … that did not fail` line): escaped here
    label: `share of cases that ${terminalSafe(o.what)} (${n} ${n === 1 ? 'case' : 'cases'})`,
    metric: `share of cases that ${terminalSafe(o.what)}`,
    value,
    min: 1,
    signature: failedCasesSignature(o.signature, mode, set.failed.length),
    sections: () => [
      ctx.isNot === true
        ? `cases that ${terminalSafe(o.what)}: ${passing.length} of ${results.length}\n${table(passing.map((r) => [r.c.id, r.note]))}`
        : `cases that do not: ${failing.length} of ${results.length}\n${table(failing.map((r) => [r.c.id, r.note]))}`,
    ],
    perCase,
    failed: set.failed,
    total: set.total,
    mode,
    what: 'tool calls',
    scored: n,
  })
}

// ---------------------------------------------------------------- toCallTool

const FN_CALL = 'toCallTool'

export function toCallTool(this: MatcherContext, received: unknown, call: ExpectedToolCall, options: ToolCallOptions & AgentSetOptions = {}): MatcherResult {
  const wanted = readExpectedCall(FN_CALL, 'call', call)
  const argsMatch: ArgsMatch = options.argsMatch ?? 'exact'
  const shown = describeCall(wanted)
  const signature = buildSignature('ToolCalled', [['args', wanted.args === undefined ? 'any' : argsMatch]])
  const matching = (calls: readonly ToolCall[]) => calls.filter((c) => callMatches(c, wanted, argsMatch))
  if (isAgentSet(received)) {
    const set = readAgentSet(this, FN_CALL, 'call', received)
    return setOutcome(
      this,
      {
        matcher: FN_CALL,
        args: 'call',
        what: `call ${shown}`,
        signature,
        check: (c) => {
          const hits = matching(c.calls)
          const named = c.calls.filter((x) => x.name === wanted.name).length
          return {
            pass: hits.length > 0,
            note: hits.length > 0 ? `${hits.length}× ${shown}` : named > 0 ? `${named}× ${wanted.name} with other args` : `${c.calls.length} calls, none to ${wanted.name}`,
          }
        },
      },
      set,
      failedCasesMode(options),
    )
  }
  const calls = readCalls(this, FN_CALL, 'call', received)
  const hits = matching(calls)
  const pass = hits.length > 0
  const sameName = calls.filter((c) => c.name === wanted.name)
  return booleanResult(this, {
    matcher: FN_CALL,
    args: 'call',
    metric: 'tool called',
    pass,
    signature,
    headline: pass
      ? `${shown} was called ${hits.length === 1 ? 'once' : `${hits.length} times`}${this.isNot === true ? ', expected it not to be' : ''}`
      : sameName.length > 0
        ? `${wanted.name} was called, but never with the expected args (${argsMatch} match)`
        : `${wanted.name} was never called`,
    sections: () => [`expected: ${terminalSafe(shown)}${wanted.args === undefined ? ' (any args)' : ''}`, callsSection(calls)],
  })
}

// ---------------------------------------------------------------- toCallTools

const FN_CALLS = 'toCallTools'

function trajectorySections(s: TrajectoryScore): string[] {
  const d = s.details
  const missing = d.missing.map((i) => [`expected #${i + 1}`, describeCall(d.expected[i] as never)])
  const unexpected = d.unexpected.map((i) => [`made #${i + 1}`, describeCall(d.received[i] as ToolCall)])
  return [
    d.reason,
    `expected (${d.order}, args ${d.argsMatch}):\n${table(
      d.expected.map((e, i) => [`#${i + 1}`, describeCall(e)]),
      { total: d.expected.length },
    )}`,
    callsSection(d.received),
    missing.length > 0 ? `not made:\n${table(missing)}` : '',
    unexpected.length > 0 && d.order !== 'superset' && d.order !== 'in-order' ? `not expected:\n${table(unexpected)}` : '',
  ]
}

export function toCallTools(this: MatcherContext, received: unknown, ...rest: unknown[]): MatcherResult {
  const expectedArg = Array.isArray(rest[0]) ? (rest[0] as readonly ExpectedToolCall[]) : undefined
  // the set form may leave `expected` out; the declaration's checks let anything but an object through as it
  if (expectedArg === undefined && rest[0] !== undefined && (rest[0] === null || typeof rest[0] !== 'object')) {
    matcherError(this, FN_CALLS, 'expected', 'expected must be an array of expected calls (tool names or `{ name, args }`)', rest[0])
  }
  const options = ((expectedArg === undefined ? rest[0] : rest[1]) ?? {}) as TrajectoryOptions & AgentSetOptions
  const trajectory: TrajectoryOptions = { order: options.order ?? 'exact', argsMatch: options.argsMatch ?? 'exact' }
  if (isAgentSet(received)) {
    const set = readAgentSet(this, FN_CALLS, 'expected', received)
    if (expectedArg !== undefined) readExpectedCalls(FN_CALLS, 'expected', expectedArg, true)
    const signature = matchTrajectory([], [], trajectory).signature
    return setOutcome(
      this,
      {
        matcher: FN_CALLS,
        args: expectedArg === undefined ? '' : 'expected',
        what: `match their expected calls (${trajectory.order})`,
        signature,
        check: (c) => {
          const expected = expectedArg ?? c.raw.expectedToolCalls
          if (expected === undefined)
            matcherError(this, FN_CALLS, '', `${c.name} has no \`expectedToolCalls\`; give each case its expected calls, or pass them: toCallTools(expected, options)`)
          const s = matchTrajectory(c.calls, readExpectedCalls(FN_CALLS, `${c.name}.expectedToolCalls`, expected, true), trajectory)
          return { pass: s.value === 1, note: s.details.reason }
        },
      },
      set,
      failedCasesMode(options),
    )
  }
  if (expectedArg === undefined)
    matcherError(this, FN_CALLS, 'expected', 'expected must be an array of expected calls (tool names or `{ name, args }`) for one list of calls', rest[0])
  const calls = readCalls(this, FN_CALLS, 'expected', received)
  const score = matchTrajectory(calls, readExpectedCalls(FN_CALLS, 'expected', expectedArg, true), trajectory)
  const pass = score.value === 1
  return booleanResult(this, {
    matcher: FN_CALLS,
    args: 'expected',
    metric: 'tool calls match',
    pass,
    signature: score.signature,
    headline: pass
      ? `the calls match the expected calls (order: ${trajectory.order})${this.isNot === true ? ', expected them not to' : ''}`
      : `the calls do not match the expected calls (order: ${trajectory.order})`,
    sections: () => trajectorySections(score),
  })
}

// ---------------------------------------------------------------- toCallNoTools

const FN_NONE = 'toCallNoTools'

function readNames(ctx: MatcherContext, names: unknown): string[] | undefined {
  if (names === undefined) return undefined
  const list = typeof names === 'string' ? [names] : names
  if (!Array.isArray(list) || list.length === 0 || list.some((n) => typeof n !== 'string' || n === '')) {
    matcherError(ctx, FN_NONE, 'names', 'names must be a tool name or a non-empty array of tool names', names)
  }
  return list as string[]
}

export function toCallNoTools(this: MatcherContext, received: unknown, names?: string | readonly string[], options: AgentSetOptions = {}): MatcherResult {
  const tools = readNames(this, names)
  const forbidden = (calls: readonly ToolCall[]) => (tools === undefined ? [...calls] : calls.filter((c) => tools.includes(c.name)))
  const what = tools === undefined ? 'no tool' : tools.join(', ')
  const signature = buildSignature('NoToolCalls', [['tools', tools === undefined ? 'any' : tools.join(',')]])
  if (isAgentSet(received)) {
    const set = readAgentSet(this, FN_NONE, '', received)
    return setOutcome(
      this,
      {
        matcher: FN_NONE,
        args: '',
        what: tools === undefined ? 'call no tool' : `never call ${what}`,
        signature,
        check: (c) => {
          const bad = forbidden(c.calls)
          return { pass: bad.length === 0, note: bad.length === 0 ? '' : `${bad.length}× ${describeCall(bad[0] as ToolCall)}${bad.length > 1 ? ', …' : ''}` }
        },
      },
      set,
      failedCasesMode(options),
    )
  }
  const hint = tools === undefined ? '' : 'names'
  const calls = readCalls(this, FN_NONE, hint, received)
  const bad = forbidden(calls)
  const pass = bad.length === 0
  return booleanResult(this, {
    matcher: FN_NONE,
    args: hint,
    metric: 'no tool calls',
    pass,
    signature,
    headline: pass
      ? tools === undefined
        ? 'no tool was called, expected a call'
        : `none of ${what} was called${this.isNot === true ? ', expected a call' : ''}`
      : `${bad.length} ${bad.length === 1 ? 'call' : 'calls'} to ${tools === undefined ? 'tools' : what}, expected none`,
    sections: () => [bad.length > 0 ? callsSection(bad, 'forbidden calls') : undefined, tools === undefined ? undefined : callsSection(calls)],
  })
}

// ---------------------------------------------------------------- toMakeAtMostToolCalls

const FN_MOST = 'toMakeAtMostToolCalls'

export function toMakeAtMostToolCalls(this: MatcherContext, received: unknown, n: number, options: { readonly name?: string } & AgentSetOptions = {}): MatcherResult {
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) matcherError(this, FN_MOST, 'n', `n must be an integer ≥ 0, got ${describeValue(n)}`)
  const counted = (calls: readonly ToolCall[]) => (options.name === undefined ? calls.length : calls.filter((c) => c.name === options.name).length)
  const what = options.name === undefined ? 'tool calls' : `calls to ${options.name}`
  const signature = buildSignature('ToolCallCount', [['tool', options.name ?? 'any']])
  if (isAgentSet(received)) {
    const set = readAgentSet(this, FN_MOST, 'n', received)
    return setOutcome(
      this,
      {
        matcher: FN_MOST,
        args: 'n',
        what: `make at most ${n} ${what}`,
        signature,
        check: (c) => {
          const count = counted(c.calls)
          return { pass: count <= n, note: `${count} ${what}` }
        },
      },
      set,
      failedCasesMode(options),
    )
  }
  const calls = readCalls(this, FN_MOST, 'n', received)
  const count = counted(calls)
  const pass = count <= n
  const isNot = this.isNot === true
  return {
    pass,
    message: () =>
      buildMessage(this, {
        matcher: FN_MOST,
        args: 'n',
        headline: `${what} = ${count}   required ${isNot ? '>' : '≤'} ${n}${!isNot && !pass ? `   (over by ${count - n})` : ''}`,
        signature,
        sections: [callsSection(calls)],
      }),
    meta: { matcher: FN_MOST, metric: what, value: count, threshold: n, comparator: isNot ? '>' : '<=', direction: 'lower', pass, signature },
  }
}

// ---------------------------------------------------------------- toHaveToolCallF1

const FN_F1 = 'toHaveToolCallF1'

function f1Sections(s: ToolCallF1Score): string[] {
  const d = s.details
  return [
    `precision ${formatNumber(d.precision)} (${d.truePositives} of ${d.received.length} distinct calls expected), recall ${formatNumber(d.recall)} (${d.truePositives} of ${d.expected.length} expected calls made)${d.repeated > 0 ? `; ${d.repeated} repeated ${d.repeated === 1 ? 'call' : 'calls'} counted once` : ''}`,
    d.missing.length > 0 ? `expected, not made:\n${table(d.missing.map((i) => [describeCall(d.expected[i] as never)]))}` : '',
    d.unexpected.length > 0 ? `made, not expected:\n${table(d.unexpected.map((i) => [describeCall(d.received[i] as ToolCall)]))}` : '',
  ]
}

export function toHaveToolCallF1(this: MatcherContext, received: unknown, ...rest: unknown[]): MatcherResult {
  if (isAgentSet(received)) {
    const [min, options = {}] = rest as [number, ToolCallF1Options & AgentSetOptions]
    requireThreshold(this, FN_F1, 'min', 'min', min)
    const mode = failedCasesMode(options)
    const core: ToolCallF1Options = options.argsMatch === undefined ? {} : { argsMatch: options.argsMatch }
    const set = readAgentSet(this, FN_F1, 'min', received)
    const scores = set.cases.map((c) => {
      if (c.raw.expectedToolCalls === undefined) matcherError(this, FN_F1, 'min', `${c.name} has no \`expectedToolCalls\` (the calls tool-call F1 is measured against)`)
      return toolCallF1(c.calls, readExpectedCalls(FN_F1, `${c.name}.expectedToolCalls`, c.raw.expectedToolCalls, false) as ExpectedToolCall[], core)
    })
    const perCase = set.cases.map((c, i) => ({ id: c.id, value: (scores[i] as ToolCallF1Score).value }))
    if (mode === 'zero') for (const f of set.failed) perCase.push({ id: f.id, value: 0 })
    const n = perCase.length
    const value = n === 0 ? 0 : perCase.reduce((s, c) => s + c.value, 0) / n
    const signature = failedCasesSignature(scores[0]?.signature ?? toolCallF1([], ['x'], core).signature, mode, set.failed.length)
    return partialSetResult(this, {
      matcher: FN_F1,
      args: 'min',
      label: `mean tool-call F1 over ${n} ${n === 1 ? 'case' : 'cases'}`,
      metric: 'mean tool-call F1',
      value,
      min,
      signature,
      sections: () => {
        const ordered = perCase.map((c, i) => ({ ...c, i })).sort((a, b) => a.value - b.value || a.i - b.i)
        const below = ordered.filter((c) => c.value < min)
        return [`cases below ${formatNumber(min)}: ${below.length} of ${n} (lowest first)\n${table(ordered.map((c) => [c.id, formatNumber(c.value, min)]))}`]
      },
      perCase,
      failed: set.failed,
      total: set.total,
      mode,
      what: 'tool calls',
      scored: n,
    })
  }
  const [expected, min, options = {}] = rest as [unknown, number, ToolCallF1Options]
  requireThreshold(this, FN_F1, 'expected, min', 'min', min)
  const calls = readCalls(this, FN_F1, 'expected, min', received)
  const score = toolCallF1(calls, expected as ExpectedToolCall[], options)
  return thresholdResult(this, {
    matcher: FN_F1,
    args: 'expected, min',
    label: 'tool-call F1',
    value: score.value,
    min,
    signature: score.signature,
    sections: () => f1Sections(score),
  })
}

// ---------------------------------------------------------------- declarations

const CALL: ArgSpec = {
  name: 'call',
  type: 'string | { name: string; args?: object | AsymmetricMatcher }',
  doc: 'The tool: its name (any args), or `{ name, args }` whose args must match (see `argsMatch`; an asymmetric matcher such as `expect.objectContaining({ … })` decides itself).',
}
const EXPECTED: ArgSpec = {
  name: 'expected',
  type: 'Array<string | { name, args?, step? }>',
  doc: 'The expected calls: tool names (any args) or `{ name, args }`; `step` groups calls issued together.',
}
const EXPECTED_SET: ArgSpec = { ...EXPECTED, optional: true, doc: `${EXPECTED.doc} Absent: each case's \`expectedToolCalls\`.` }
const MIN: ArgSpec = { name: 'min', type: 'number', doc: 'Threshold on 0–1; the assertion passes when F1 is ≥ min.' }
const N: ArgSpec = { name: 'n', type: 'number', doc: 'The most calls allowed (an integer ≥ 0); the assertion passes when the count is ≤ n.' }
const NAMES: ArgSpec = { name: 'names', type: 'string | string[]', optional: true, doc: 'Tools that must not be called; absent: no tool at all.' }

const ARGS_MATCH_2: OptionSpec = {
  type: "'exact' | 'partial'",
  default: "'exact'",
  doc: "`'exact'`: the args equal the expected ones (as `toEqual`); `'partial'`: every expected key is present with an equal value, extra keys allowed. Shown in the signature as `args:`.",
  check: oneOf('exact', 'partial'),
}
const ARGS_MATCH_3: OptionSpec = {
  ...ARGS_MATCH_2,
  type: "'exact' | 'partial' | 'ignore'",
  doc: `${ARGS_MATCH_2.doc} \`'ignore'\`: names only.`,
  check: oneOf('exact', 'partial', 'ignore'),
}
const ORDER: OptionSpec = {
  type: "'exact' | 'in-order' | 'any-order' | 'subset' | 'superset'",
  default: "'exact'",
  doc: "`'exact'`: the same calls in the same order (calls sharing a `step` in any order among themselves; openevals `strict`). `'in-order'`: the expected calls in this order, other calls between them allowed. `'any-order'`: the same calls, any order (openevals `unordered`). `'superset'`: every expected call made, extras allowed. `'subset'`: every call made is expected, some may be missing. Shown in the signature as `order:`.",
  check: oneOf('exact', 'in-order', 'any-order', 'subset', 'superset'),
}
const NAME: OptionSpec = { type: 'a string', doc: 'Count only the calls to this tool.', check: isString }

const weather = [
  { name: 'search', args: { query: 'UV index Paris' } },
  { name: 'weather', args: { city: 'Paris' } },
]
const weatherSet = [
  { id: 'q1', toolCalls: weather, expectedToolCalls: ['search', 'weather'] },
  { id: 'q2', toolCalls: [weather[1]], expectedToolCalls: ['search', 'weather'] },
]

export const agentDeclarations = [
  declareMatcher({
    name: 'toCallTool',
    async: false,
    family: 'agent',
    summary:
      'The agent called this tool: by name (any args), or `{ name, args }` with args equal (`argsMatch: "exact"`), containing the expected keys (`"partial"`) or matching an asymmetric matcher. For an eval set, in every case.',
    forms: [
      { received: RECEIVED_AGENT_SET, when: isAgentSet, args: [CALL], options: { argsMatch: ARGS_MATCH_2, failedCases: FAILED_CASES_OPTION } },
      { received: RECEIVED_CALLS, args: [CALL], options: { argsMatch: ARGS_MATCH_2 } },
    ],
    metric: atLeast('tool called', { scale: 1 }),
    example: "expect(result.toolCalls).toCallTool({ name: 'search', args: expect.objectContaining({ query: expect.any(String) }) })",
    failing: { received: weather, args: [{ name: 'weather', args: { city: 'Lyon' } }] },
    compute: toCallTool as never,
  }),
  declareMatcher({
    name: 'toCallTools',
    async: false,
    family: 'agent',
    summary:
      "The calls match the expected ones under `order` (`'exact'` by default; `'in-order'`, `'any-order'`, `'subset'`, `'superset'`; openevals' trajectory match modes), each call paired once. For an eval set, in every case, against `expected` or each case's `expectedToolCalls`.",
    forms: [
      { received: RECEIVED_AGENT_SET, when: isAgentSet, args: [EXPECTED_SET], options: { order: ORDER, argsMatch: ARGS_MATCH_3, failedCases: FAILED_CASES_OPTION } },
      { received: RECEIVED_CALLS, args: [EXPECTED], options: { order: ORDER, argsMatch: ARGS_MATCH_3 } },
    ],
    metric: atLeast('tool calls match', { scale: 1 }),
    example: "expect(calls).toCallTools(['search', 'answer'], { order: 'in-order' })",
    failing: { received: weather, args: [['weather', 'search']] },
    compute: toCallTools as never,
  }),
  declareMatcher({
    name: 'toCallNoTools',
    async: false,
    family: 'agent',
    summary: 'No tool was called, or none of the named tools (`.not.toCallTool(name)` says the same for one tool). For an eval set, in every case.',
    forms: [
      { received: RECEIVED_AGENT_SET, when: isAgentSet, args: [NAMES], options: { failedCases: FAILED_CASES_OPTION } },
      { received: RECEIVED_CALLS, args: [NAMES] },
    ],
    metric: atLeast('no tool calls', { scale: 1 }),
    example: "expect(calls).toCallNoTools(['delete_file', 'send_email'])",
    failing: { received: weather, args: ['search'] },
    compute: toCallNoTools as never,
  }),
  declareMatcher({
    name: 'toMakeAtMostToolCalls',
    async: false,
    family: 'agent',
    summary:
      'At most `n` tool calls (of the tool `name`, when given): an agent that loops is caught. The recorded value is the call count (not a 0–1 score). For an eval set, in every case (the recorded value is then the share of cases within n).',
    forms: [
      { received: RECEIVED_AGENT_SET, when: isAgentSet, args: [N], options: { name: NAME, failedCases: FAILED_CASES_OPTION } },
      { received: RECEIVED_CALLS, args: [N], options: { name: NAME } },
    ],
    metric: { name: 'tool calls', scale: 1, direction: 'lower', comparator: '<=' },
    example: "expect(calls).toMakeAtMostToolCalls(3, { name: 'search' })",
    failing: { received: weather, args: [1] },
    compute: toMakeAtMostToolCalls as never,
  }),
  declareMatcher({
    name: 'toHaveToolCallF1',
    async: false,
    family: 'agent',
    summary:
      "Tool-call F1 ≥ `min`, as RAGAS `ToolCallF1` defines it: calls made and expected are sets of (name, args), precision and recall over them, order ignored. For an eval set, the mean over cases against each case's `expectedToolCalls`.",
    forms: [
      { received: RECEIVED_AGENT_SET, when: isAgentSet, args: [MIN], options: { argsMatch: ARGS_MATCH_3, failedCases: FAILED_CASES_OPTION } },
      { received: RECEIVED_CALLS, args: [EXPECTED, MIN], options: { argsMatch: ARGS_MATCH_3 } },
    ],
    metric: atLeast('tool-call F1', { scale: 1 }),
    example: "expect(calls).toHaveToolCallF1([{ name: 'weather', args: { city: 'Paris' } }], 0.8)",
    failing: { received: weatherSet, args: [0.9] },
    compute: toHaveToolCallF1 as never,
  }),
] as const
