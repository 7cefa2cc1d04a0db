import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { readOptions } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { maxPairing } from './call-match.js'
import { ARGS_MATCHES } from './trajectory.js'
import { isAsymmetric, readExpectedCalls, readToolCalls, type ArgsMatch, type ExpectedToolCall, type ReadExpectedCall, type ToolCall } from './tool-calls.js'

export interface ToolCallF1Options {
  /** How args are compared: `'exact'` (RAGAS), `'partial'` or `'ignore'`. @default 'exact' */
  readonly argsMatch?: ArgsMatch
}

export const TOOL_CALL_F1_OPTION_KEYS = keysOf<ToolCallF1Options>()('argsMatch')

export interface ToolCallF1Details {
  readonly precision: number
  readonly recall: number
  /** Distinct received calls paired with a distinct expected call. */
  readonly truePositives: number
  readonly falsePositives: number
  readonly falseNegatives: number
  /** The distinct received calls (duplicates removed, first kept). */
  readonly received: readonly ToolCall[]
  /** The distinct expected calls. */
  readonly expected: readonly ReadExpectedCall[]
  /** Indices into the distinct `expected` that no call matched. */
  readonly missing: readonly number[]
  /** Indices into the distinct `received` that matched no expected call. */
  readonly unexpected: readonly number[]
  /** Received calls dropped as repeats of an earlier one. */
  readonly repeated: number
  readonly argsMatch: ArgsMatch
}

export type ToolCallF1Score = Score<ToolCallF1Details>

const FN = 'toolCallF1'

/** A stable text for a JSON-like value: keys sorted at every depth, `undefined` values left out. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`
  }
  if (typeof value === 'bigint') return `${value}n`
  return JSON.stringify(value) ?? String(value)
}

/** Drops repeats, keeping the first: RAGAS collects calls into a Python set. */
function distinct<T>(items: readonly T[], key: (item: T) => string | undefined): T[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const k = key(item)
    if (k === undefined) return true
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/**
 * Tool-call F1 as RAGAS `ToolCallF1` defines it (ragas `src/ragas/metrics/_tool_call_f1.py`): the calls
 * made and the expected calls are each a set of (name, args) pairs, a call matches when name and args
 * are equal, and
 *
 *   precision = TP / (TP + FP),  recall = TP / (TP + FN),  F1 = 2·P·R / (P + R)
 *
 * with TP the calls both made and expected, FP those made but not expected, FN those expected but not
 * made. Order does not count; a call repeated with the same args counts once (a set). P or R with a zero
 * denominator is 0, and F1 is 0 when P + R = 0 (RAGAS). RAGAS rounds to 4 decimals; this does not.
 *
 * Differences, all deliberate: an empty expected list is refused (RAGAS returns 0, whatever was called;
 * assert no calls with toCallNoTools); an expected call without args matches any args; `argsMatch:
 * 'partial'` or an asymmetric matcher as args widen what matches (pairs are then taken one-to-one, the
 * largest pairing); `true` and `1` differ here while Python's set treats them as equal.
 *
 * @example toolCallF1([{ name: 'weather', args: { city: 'Paris' } }], [{ name: 'weather', args: { city: 'Paris' } }, { name: 'uv', args: { city: 'Paris' } }]).value // 0.6667
 * @throws MetricInputError for a call without a name, args that are not an object, an empty expected list
 */
export function toolCallF1(received: readonly ToolCall[], expected: readonly ExpectedToolCall[], options: ToolCallF1Options = {}): ToolCallF1Score {
  const allCalls = readToolCalls(FN, 'received', received)
  const allExpected = readExpectedCalls(FN, 'expected', expected, false)
  const { argsMatch = 'exact' } = readOptions<ToolCallF1Options>(FN, options, TOOL_CALL_F1_OPTION_KEYS)
  if (!ARGS_MATCHES.includes(argsMatch)) throw new MetricInputError(FN, 'options.argsMatch', "'exact', 'partial' or 'ignore'", argsMatch)
  const calls = distinct(allCalls, (c) => `${c.name}\u0000${canonical(c.args)}`)
  // An asymmetric matcher has no value to compare, so such an expected call is never a repeat.
  const wanted = distinct(allExpected, (e) => (isAsymmetric(e.args) ? undefined : `${e.name}\u0000${e.args === undefined ? '*' : canonical(e.args)}`))
  const pairing = maxPairing(calls, wanted, argsMatch)
  const tp = pairing.size
  const fp = calls.length - tp
  const fn = wanted.length - tp
  const precision = tp + fp > 0 ? tp / (tp + fp) : 0
  const recall = tp + fn > 0 ? tp / (tp + fn) : 0
  const value = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
  const missing: number[] = []
  pairing.byExpected.forEach((r, e) => r < 0 && missing.push(e))
  const unexpected: number[] = []
  pairing.byReceived.forEach((e, r) => e < 0 && unexpected.push(r))
  const signature = buildSignature('ToolCallF1', [
    ['args', argsMatch],
    ['dup', 'set'],
    ['compat', 'ragas'],
  ])
  return makeScore('tool-call F1', value, signature, {
    precision,
    recall,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    received: calls,
    expected: wanted,
    missing,
    unexpected,
    repeated: allCalls.length - calls.length,
    argsMatch,
  })
}
