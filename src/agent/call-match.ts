/**
 * Whether a call an agent made matches an expected call, and the largest one-to-one pairing of two call
 * lists. Argument equality is structural (as `toEqual`: keys whose value is `undefined` count as absent);
 * an asymmetric matcher anywhere on the expected side (`expect.objectContaining`, `expect.any(String)`)
 * decides for the value it stands in for.
 */
import { isAsymmetric, type ArgsMatch, type ReadExpectedCall, type ToolCall } from './tool-calls.js'

/** Structural equality of a received value with an expected one (asymmetric matchers on the expected side). */
export function argsEqual(received: unknown, expected: unknown): boolean {
  if (isAsymmetric(expected)) return expected.asymmetricMatch(received) === true
  if (received === expected) return true
  if (typeof received === 'number' && typeof expected === 'number') return Number.isNaN(received) && Number.isNaN(expected)
  if (received === null || expected === null || typeof received !== 'object' || typeof expected !== 'object') return false
  if (Array.isArray(received) !== Array.isArray(expected)) return false
  if (Array.isArray(received)) {
    const e = expected as unknown[]
    return received.length === e.length && received.every((v, i) => argsEqual(v, e[i]))
  }
  if (received instanceof Date || expected instanceof Date) return received instanceof Date && expected instanceof Date && received.getTime() === expected.getTime()
  const r = received as Record<string, unknown>
  const x = expected as Record<string, unknown>
  const rKeys = Object.keys(r).filter((k) => r[k] !== undefined)
  const xKeys = Object.keys(x).filter((k) => x[k] !== undefined)
  if (rKeys.length !== xKeys.length) return false
  return xKeys.every((k) => Object.prototype.hasOwnProperty.call(r, k) && argsEqual(r[k], x[k]))
}

/**
 * A received call matches an expected one when the names are equal and, unless the expected call gives
 * no args or `argsMatch` is `'ignore'`: `'exact'`, the args are equal; `'partial'`, every expected key is
 * present with an equal value (extra received keys allowed; openevals' `superset` args mode). Expected
 * args that are an asymmetric matcher are asked whatever the mode.
 */
export function callMatches(received: ToolCall, expected: ReadExpectedCall, argsMatch: ArgsMatch): boolean {
  if (received.name !== expected.name) return false
  const args = expected.args
  if (args === undefined || argsMatch === 'ignore') return true
  if (isAsymmetric(args)) return args.asymmetricMatch(received.args) === true
  if (argsMatch === 'exact') return argsEqual(received.args, args)
  const r = received.args as Record<string, unknown>
  return Object.keys(args).every(
    (k) => (args as Record<string, unknown>)[k] === undefined || (Object.prototype.hasOwnProperty.call(r, k) && argsEqual(r[k], (args as Record<string, unknown>)[k])),
  )
}

/** A one-to-one pairing: `pairs[i] = j` pairs expected call i with received call j. */
export interface Pairing {
  /** By expected index: the received index paired with it, or -1. */
  readonly byExpected: number[]
  /** By received index: the expected index paired with it, or -1. */
  readonly byReceived: number[]
  readonly size: number
}

/**
 * The largest one-to-one pairing of expected with received calls (Kuhn's augmenting paths over the
 * `matches` relation). With exact args the relation is an equivalence and any greedy pairing is as
 * large; with partial args or asymmetric matchers a greedy first match can block a later expected call
 * that only that received call fits, so the maximum is taken. O(|E|·|R|) match calls, O(|E|²·|R|) steps.
 */
export function maxPairing(received: readonly ToolCall[], expected: readonly ReadExpectedCall[], argsMatch: ArgsMatch): Pairing {
  const fits = expected.map((e) => received.map((r) => callMatches(r, e, argsMatch)))
  const byReceived = new Array<number>(received.length).fill(-1)
  const byExpected = new Array<number>(expected.length).fill(-1)
  const augment = (e: number, seen: boolean[]): boolean => {
    const row = fits[e] as boolean[]
    for (let r = 0; r < received.length; r++) {
      if (!row[r] || seen[r]) continue
      seen[r] = true
      const holder = byReceived[r] as number
      if (holder < 0 || augment(holder, seen)) {
        byReceived[r] = e
        byExpected[e] = r
        return true
      }
    }
    return false
  }
  let size = 0
  for (let e = 0; e < expected.length; e++) if (augment(e, new Array<boolean>(received.length).fill(false))) size++
  return { byExpected, byReceived, size }
}
