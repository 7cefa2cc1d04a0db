import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { readOptions } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { callMatches, maxPairing } from './call-match.js'
import { readExpectedCalls, readToolCalls, type ArgsMatch, type ExpectedToolCall, type ReadExpectedCall, type ToolCall } from './tool-calls.js'

/** How the order and count of the calls are compared (openevals `trajectoryMatchMode` names in brackets). */
export type TrajectoryOrder = 'exact' | 'in-order' | 'any-order' | 'subset' | 'superset'

export interface TrajectoryOptions {
  /** @default 'exact' */
  readonly order?: TrajectoryOrder
  /** @default 'exact' */
  readonly argsMatch?: ArgsMatch
}

export const TRAJECTORY_OPTION_KEYS = keysOf<TrajectoryOptions>()('order', 'argsMatch')
export const TRAJECTORY_ORDERS: readonly TrajectoryOrder[] = ['exact', 'in-order', 'any-order', 'subset', 'superset']
export const ARGS_MATCHES: readonly ArgsMatch[] = ['exact', 'partial', 'ignore']

export interface TrajectoryDetails {
  readonly order: TrajectoryOrder
  readonly argsMatch: ArgsMatch
  readonly received: readonly ToolCall[]
  readonly expected: readonly ReadExpectedCall[]
  /** Expected calls no received call was paired with (indices into `expected`). */
  readonly missing: readonly number[]
  /** Received calls paired with no expected call (indices into `received`). */
  readonly unexpected: readonly number[]
  readonly pass: boolean
  /** Why it failed, in words; empty when it passed. */
  readonly reason: string
}

export type TrajectoryScore = Score<TrajectoryDetails>

const FN = 'matchTrajectory'

/**
 * Whether the calls an agent made match the expected calls, 1 or 0. Each expected call is a tool name
 * (any arguments) or `{ name, args }`; `argsMatch` compares args exactly (default), partially (every
 * expected key present and equal, extras allowed) or not at all; args given as an asymmetric matcher
 * decide themselves. Calls are paired one-to-one (a call counts once).
 *
 * - `'exact'` (openevals `strict`): the same calls in the same order. Calls that share a `step` were issued
 *   together, so their order among themselves is free; when the expected calls carry steps too, the steps
 *   must group the calls alike (openevals compares message by message).
 * - `'in-order'`: the expected calls appear in this order among the received ones, other calls between
 *   them allowed (an ordered subsequence; promptfoo `trajectory:tool-sequence`).
 * - `'any-order'` (openevals `unordered`): the same calls, any order, the same count.
 * - `'superset'` (openevals `superset`): every expected call was made; extra calls allowed.
 * - `'subset'` (openevals `subset`): every call made is among the expected ones; missing ones allowed.
 *
 * Parity: equals openevals `createTrajectoryMatchEvaluator` on the tool calls of its own test vectors
 * (test/parity/agent-trajectory.parity.test.ts); openevals also compares message roles, which a call list
 * does not hold, and pairs greedily where this takes the largest pairing (the same with exact args).
 *
 * @example matchTrajectory([{ name: 'search', args: { q: 'a' } }, { name: 'answer', args: {} }], ['search', 'answer'], { order: 'in-order' }).value // 1
 * @throws MetricInputError for a call without a name, args that are not an object, an unknown order or argsMatch
 */
export function matchTrajectory(received: readonly ToolCall[], expected: readonly ExpectedToolCall[], options: TrajectoryOptions = {}): TrajectoryScore {
  const calls = readToolCalls(FN, 'received', received)
  const wanted = readExpectedCalls(FN, 'expected', expected, true)
  const { order = 'exact', argsMatch = 'exact' } = readOptions<TrajectoryOptions>(FN, options, TRAJECTORY_OPTION_KEYS)
  if (!TRAJECTORY_ORDERS.includes(order)) throw new MetricInputError(FN, 'options.order', TRAJECTORY_ORDERS.map((o) => `'${o}'`).join(', '), order)
  if (!ARGS_MATCHES.includes(argsMatch)) throw new MetricInputError(FN, 'options.argsMatch', "'exact', 'partial' or 'ignore'", argsMatch)
  const outcome = compare(calls, wanted, order, argsMatch)
  const signature = buildSignature('ToolCalls', [
    ['order', order],
    ['args', argsMatch],
  ])
  return makeScore('tool calls', outcome.pass ? 1 : 0, signature, { order, argsMatch, received: calls, expected: wanted, ...outcome })
}

type Outcome = Pick<TrajectoryDetails, 'missing' | 'unexpected' | 'pass' | 'reason'>

function compare(calls: readonly ToolCall[], wanted: readonly ReadExpectedCall[], order: TrajectoryOrder, argsMatch: ArgsMatch): Outcome {
  if (order === 'in-order') return inOrder(calls, wanted, argsMatch)
  const pairing = maxPairing(calls, wanted, argsMatch)
  const missing = indicesOf(pairing.byExpected)
  const unexpected = indicesOf(pairing.byReceived)
  const counts = `${calls.length} ${calls.length === 1 ? 'call' : 'calls'} made, ${wanted.length} expected`
  switch (order) {
    case 'superset':
      return {
        missing,
        unexpected,
        pass: missing.length === 0,
        reason: missing.length === 0 ? '' : `${missing.length} expected ${missing.length === 1 ? 'call was' : 'calls were'} not made`,
      }
    case 'subset':
      return {
        missing,
        unexpected,
        pass: unexpected.length === 0,
        reason: unexpected.length === 0 ? '' : `${unexpected.length} ${unexpected.length === 1 ? 'call was' : 'calls were'} not expected`,
      }
    case 'any-order': {
      const pass = missing.length === 0 && unexpected.length === 0
      return { missing, unexpected, pass, reason: pass ? '' : `the calls differ (${counts}; ${missing.length} missing, ${unexpected.length} unexpected)` }
    }
    default:
      return exact(calls, wanted, argsMatch, missing, unexpected, counts)
  }
}

function indicesOf(pairs: readonly number[]): number[] {
  const out: number[] = []
  pairs.forEach((p, i) => {
    if (p < 0) out.push(i)
  })
  return out
}

/** Consecutive runs of calls that share a step; a call without a step is a run of its own. */
function groupSizes(steps: ReadonlyArray<number | undefined>): number[] {
  const sizes: number[] = []
  let previous: number | undefined
  steps.forEach((step, i) => {
    if (i > 0 && step !== undefined && step === previous) sizes[sizes.length - 1] = (sizes[sizes.length - 1] as number) + 1
    else sizes.push(1)
    previous = step
  })
  return sizes
}

function exact(calls: readonly ToolCall[], wanted: readonly ReadExpectedCall[], argsMatch: ArgsMatch, missing: number[], unexpected: number[], counts: string): Outcome {
  if (calls.length !== wanted.length) return { missing, unexpected, pass: false, reason: `a different number of calls (${counts})` }
  const sizes = groupSizes(calls.map((c) => c.step))
  if (wanted.some((w) => w.step !== undefined)) {
    const expectedSizes = groupSizes(wanted.map((w) => w.step))
    if (expectedSizes.join() !== sizes.join()) {
      return { missing, unexpected, pass: false, reason: `the calls are grouped into steps differently (made: ${sizes.join(' + ')}, expected: ${expectedSizes.join(' + ')})` }
    }
  }
  let at = 0
  for (const size of sizes) {
    const got = calls.slice(at, at + size)
    const want = wanted.slice(at, at + size)
    if (maxPairing(got, want, argsMatch).size !== size) {
      const position = size === 1 ? `call #${at + 1}` : `calls #${at + 1}–#${at + size} (one step)`
      return { missing, unexpected, pass: false, reason: `${position} ${size === 1 ? 'differs' : 'differ'} from the expected ${size === 1 ? 'call' : 'calls'}` }
    }
    at += size
  }
  return { missing: [], unexpected: [], pass: true, reason: '' }
}

/** Greedy earliest match is optimal for an ordered subsequence: taking a later call never helps. */
function inOrder(calls: readonly ToolCall[], wanted: readonly ReadExpectedCall[], argsMatch: ArgsMatch): Outcome {
  const used = new Array<boolean>(calls.length).fill(false)
  let from = 0
  const missing: number[] = []
  for (let e = 0; e < wanted.length; e++) {
    let found = -1
    for (let r = from; r < calls.length; r++) {
      if (callMatches(calls[r] as ToolCall, wanted[e] as ReadExpectedCall, argsMatch)) {
        found = r
        break
      }
    }
    if (found < 0) {
      missing.push(e)
      continue
    }
    used[found] = true
    from = found + 1
  }
  const unexpected = indicesOf(used.map((u) => (u ? 0 : -1)))
  const pass = missing.length === 0
  const first = missing[0]
  return { missing, unexpected, pass, reason: pass ? '' : `expected call #${(first as number) + 1} was not made after the calls before it` }
}
