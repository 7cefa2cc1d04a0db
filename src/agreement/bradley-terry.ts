import { denseArray } from '../dense-array.js'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import type { WinCounts } from './win-rate.js'

/** One pairwise judgement: system `a` against system `b`. */
export interface Comparison {
  readonly a: string
  readonly b: string
  readonly winner: 'a' | 'b' | 'tie'
}

export interface BradleyTerryOptions {
  /**
   * Virtual ties added to every pair of systems that was compared at least once (each tie is half a win
   * for both). 0 (default) fits the data as given; a small value (e.g. 0.5) gives finite strengths when
   * some system never wins or never loses, where the maximum-likelihood estimate does not exist.
   */
  readonly smoothing?: number
  /** Stop when no strength changes by more than this, relatively, in one iteration. @default 1e-10 */
  readonly tolerance?: number
  /** @default 10000 */
  readonly maxIterations?: number
}

/** The keys of {@link BradleyTerryOptions}: what bradleyTerry accepts. */
export const BRADLEY_TERRY_OPTION_KEYS = keysOf<BradleyTerryOptions>()('smoothing', 'tolerance', 'maxIterations')

export interface BradleyTerryEntry {
  readonly system: string
  /** Strength π_i, normalised so that all strengths sum to 1. */
  readonly strength: number
  readonly wins: number
  readonly losses: number
  readonly ties: number
}

export interface BradleyTerryDetails {
  readonly method: 'mm'
  /** Systems by decreasing strength (ties broken by name). */
  readonly ranking: readonly BradleyTerryEntry[]
  /** π by system; P(i beats j) = π_i / (π_i + π_j). */
  readonly strengths: Readonly<Record<string, number>>
  readonly comparisons: number
  readonly iterations: number
  readonly converged: boolean
  /** Σ over judgements of ln P(observed outcome), ties as half a win each way. */
  readonly logLikelihood: number
  readonly smoothing: number
  readonly reason?: string
}

/**
 * Bradley–Terry strengths from pairwise judgements, P(i beats j) = π_i / (π_i + π_j), fitted by maximum
 * likelihood with the MM algorithm of Hunter (2004), the classic Zermelo iteration:
 *
 *   π_i ← W_i / Σ_{j≠i} n_ij / (π_i + π_j),   then π ← π / Σ π
 *
 * W_i = wins + ties/2 of system i, n_ij = judgements between i and j (ties included). Start: all π equal.
 * Convergence: stop when max_i |π_i(new) − π_i(old)| / π_i(old) ≤ `tolerance` (1e-10), at most
 * `maxIterations` (10000) steps; `converged` says which happened. Each step increases the likelihood.
 *
 * The estimate exists only if every group of systems has won (or tied) at least once against the others
 * (the "beats" graph is strongly connected). Otherwise — and when the systems fall into groups that were
 * never compared with each other — the value is NaN with a `reason`; `smoothing` adds virtual ties to fix
 * the first case. `value` is the strength of the top-ranked system. No reference implementation is
 * matched; tests check the likelihood equations and hand-computed cases.
 *
 * @example
 * bradleyTerry([{ a: 'x', b: 'y', winner: 'a' }, { a: 'x', b: 'y', winner: 'a' }, { a: 'y', b: 'x', winner: 'a' }])
 *   .details.strengths // { x: 0.666…, y: 0.333… }
 */
export function bradleyTerry(comparisons: readonly Comparison[], options: BradleyTerryOptions = {}): Score<BradleyTerryDetails> {
  const fn = 'bradleyTerry'
  if (!Array.isArray(comparisons) || comparisons.length === 0) throw new MetricInputError(fn, 'comparisons', 'a non-empty array of { a, b, winner }', comparisons)
  denseArray(fn, 'comparisons', comparisons, 'an object { a, b, winner }')
  checkOptionKeys(fn, options, BRADLEY_TERRY_OPTION_KEYS)
  const smoothing = options.smoothing ?? 0
  if (typeof smoothing !== 'number' || !Number.isFinite(smoothing) || smoothing < 0) throw new MetricInputError(fn, 'options.smoothing', 'a non-negative number', smoothing)
  const tolerance = options.tolerance ?? 1e-10
  if (typeof tolerance !== 'number' || !(tolerance > 0)) throw new MetricInputError(fn, 'options.tolerance', 'a positive number', tolerance)
  const maxIterations = options.maxIterations ?? 10000
  if (!Number.isInteger(maxIterations) || maxIterations <= 0) throw new MetricInputError(fn, 'options.maxIterations', 'a positive integer', maxIterations)

  const names: string[] = []
  const index = new Map<string, number>()
  const id = (name: string) => {
    let i = index.get(name)
    if (i === undefined) {
      i = names.length
      index.set(name, i)
      names.push(name)
    }
    return i
  }
  comparisons.forEach((c, t) => {
    if (c === null || typeof c !== 'object') throw new MetricInputError(fn, `comparisons[${t}]`, 'an object { a, b, winner }', c)
    if (typeof c.a !== 'string' || c.a === '') throw new MetricInputError(fn, `comparisons[${t}].a`, 'a non-empty system name', c.a)
    if (typeof c.b !== 'string' || c.b === '') throw new MetricInputError(fn, `comparisons[${t}].b`, 'a non-empty system name', c.b)
    if (c.a === c.b) throw new MetricInputError(fn, `comparisons[${t}].b`, `a system other than a (${c.a})`, c.b)
    if (c.winner !== 'a' && c.winner !== 'b' && c.winner !== 'tie') throw new MetricInputError(fn, `comparisons[${t}].winner`, "'a', 'b' or 'tie'", c.winner)
    id(c.a)
    id(c.b)
  })
  const m = names.length
  // score[i][j]: wins of i over j, ties counted half; games[i][j]: judgements between i and j.
  const score = Array.from({ length: m }, () => new Array<number>(m).fill(0))
  const games = Array.from({ length: m }, () => new Array<number>(m).fill(0))
  const tally = names.map(() => ({ wins: 0, losses: 0, ties: 0 }))
  for (const c of comparisons) {
    const i = index.get(c.a) as number
    const j = index.get(c.b) as number
    games[i]![j]! += 1
    games[j]![i]! += 1
    if (c.winner === 'tie') {
      score[i]![j]! += 0.5
      score[j]![i]! += 0.5
      tally[i]!.ties += 1
      tally[j]!.ties += 1
    } else {
      const [w, l] = c.winner === 'a' ? [i, j] : [j, i]
      score[w]![l]! += 1
      tally[w]!.wins += 1
      tally[l]!.losses += 1
    }
  }
  if (smoothing > 0) {
    for (let i = 0; i < m; i += 1) {
      for (let j = 0; j < m; j += 1) {
        if (i !== j && games[i]![j]! > 0) {
          score[i]![j]! += smoothing / 2
          games[i]![j]! += smoothing
        }
      }
    }
  }

  const base = {
    method: 'mm' as const,
    comparisons: comparisons.length,
    smoothing,
  }
  const signature = buildSignature('BradleyTerry', [
    ['method', 'mm'],
    ['ties', 'half'],
    ['smoothing', smoothing],
    ['tol', tolerance],
  ])
  const failure = reachabilityProblem(names, games, score)
  if (failure !== undefined) {
    const ranking = names.map((system, i) => ({ system, strength: Number.NaN, ...tally[i]! })).sort((x, y) => (x.system < y.system ? -1 : x.system > y.system ? 1 : 0))
    return makeScore('Bradley-Terry', Number.NaN, signature, {
      ...base,
      ranking,
      strengths: Object.fromEntries(names.map((n) => [n, Number.NaN])),
      iterations: 0,
      converged: false,
      logLikelihood: Number.NaN,
      reason: failure,
    })
  }

  const wins = score.map((row) => row.reduce((a, b) => a + b, 0))
  let p = new Array<number>(m).fill(1 / m)
  let iterations = 0
  let converged = false
  while (iterations < maxIterations) {
    iterations += 1
    const next = p.map((pi, i) => {
      let denominator = 0
      for (let j = 0; j < m; j += 1) if (j !== i && games[i]![j]! > 0) denominator += games[i]![j]! / (pi + p[j]!)
      return wins[i]! / denominator
    })
    const total = next.reduce((a, b) => a + b, 0)
    for (let i = 0; i < m; i += 1) next[i] = next[i]! / total
    let change = 0
    for (let i = 0; i < m; i += 1) change = Math.max(change, Math.abs(next[i]! - p[i]!) / p[i]!)
    p = next
    if (change <= tolerance) {
      converged = true
      break
    }
  }
  let logLikelihood = 0
  for (let i = 0; i < m; i += 1) {
    for (let j = 0; j < m; j += 1) {
      if (i !== j && score[i]![j]! > 0) logLikelihood += score[i]![j]! * Math.log(p[i]! / (p[i]! + p[j]!))
    }
  }
  const ranking = names
    .map((system, i) => ({ system, strength: p[i]!, ...tally[i]! }))
    .sort((x, y) => y.strength - x.strength || (x.system < y.system ? -1 : x.system > y.system ? 1 : 0))
  const details: BradleyTerryDetails = {
    ...base,
    ranking,
    strengths: Object.fromEntries(names.map((n, i) => [n, p[i]!])),
    iterations,
    converged,
    logLikelihood,
    ...(converged ? {} : { reason: `did not converge to ${tolerance} in ${maxIterations} iterations` }),
  }
  return makeScore('Bradley-Terry', ranking[0]!.strength, signature, details)
}

/** Why no maximum-likelihood estimate exists, or undefined when it does. */
function reachabilityProblem(names: readonly string[], games: number[][], score: number[][]): string | undefined {
  const m = names.length
  const reach = (start: number, edge: (i: number, j: number) => boolean): boolean[] => {
    const seen = new Array<boolean>(m).fill(false)
    const stack = [start]
    seen[start] = true
    while (stack.length > 0) {
      const i = stack.pop()!
      for (let j = 0; j < m; j += 1) {
        if (!seen[j] && edge(i, j)) {
          seen[j] = true
          stack.push(j)
        }
      }
    }
    return seen
  }
  const connected = reach(0, (i, j) => games[i]![j]! > 0)
  if (connected.some((s) => !s)) {
    const apart = names.filter((_, i) => !connected[i])
    return `the systems form groups that were never compared with each other (${apart.join(', ')} vs ${names[0]}); strengths across groups are not defined`
  }
  // i → j when i scored against j (won or tied): strongly connected ⇔ every system reaches and is reached by 0.
  const forward = reach(0, (i, j) => score[i]![j]! > 0)
  const backward = reach(0, (i, j) => score[j]![i]! > 0)
  const stuck = names.filter((_, i) => !forward[i] || !backward[i])
  if (stuck.length > 0) {
    return `no maximum-likelihood estimate: some systems never won or tied against the others (check ${stuck.join(', ')}); use options.smoothing`
  }
  return undefined
}

/**
 * P(a beats b) = π_a / (π_a + π_b) from a fitted model.
 *
 * @example
 * winProbability(bradleyTerry([{ a: 'gpt', b: 'llama', winner: 'a' }, { a: 'gpt', b: 'llama', winner: 'tie' }]), 'gpt', 'llama') // 0.75
 */
export function winProbability(model: Score<BradleyTerryDetails>, a: string, b: string): number {
  const pa = model.details.strengths[a]
  const pb = model.details.strengths[b]
  if (pa === undefined) throw new MetricInputError('winProbability', 'a', `a system of the model (${Object.keys(model.details.strengths).join(', ')})`, a)
  if (pb === undefined) throw new MetricInputError('winProbability', 'b', `a system of the model (${Object.keys(model.details.strengths).join(', ')})`, b)
  return pa / (pa + pb)
}

/**
 * Wins, losses and ties of `system` in a list of judgements, optionally only against `opponent` — the
 * counts {@link winRate} takes.
 *
 * @example
 * countWins([{ a: 'x', b: 'y', winner: 'a' }, { a: 'y', b: 'x', winner: 'tie' }], 'x') // { wins: 1, losses: 0, ties: 1 }
 */
export function countWins(comparisons: readonly Comparison[], system: string, opponent?: string): WinCounts {
  if (!Array.isArray(comparisons)) throw new MetricInputError('countWins', 'comparisons', 'an array of { a, b, winner }', comparisons)
  denseArray('countWins', 'comparisons', comparisons, 'an object { a, b, winner }')
  let wins = 0
  let losses = 0
  let ties = 0
  for (const c of comparisons) {
    const side = c.a === system ? 'a' : c.b === system ? 'b' : undefined
    if (side === undefined) continue
    const other = side === 'a' ? c.b : c.a
    if (opponent !== undefined && other !== opponent) continue
    if (c.winner === 'tie') ties += 1
    else if (c.winner === side) wins += 1
    else losses += 1
  }
  return { wins, losses, ties }
}
