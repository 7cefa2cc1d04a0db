/**
 * Reading rater tables: rating records `{ item, rater, dimension?, score }` or a raters × items
 * matrix, reduced to one dimension and the chosen raters; and pairwise judgements tallied into wins,
 * losses and ties of one system against a baseline. Problems are thrown as {@link RatingsInputError}
 * with a sentence naming the record and field, which the matchers show as their Matcher error.
 */
import { firstHole, holeProblem } from '../dense-array.js'
import { MetricInputError } from '../errors.js'
import { list } from '../text/format.js'
import type { Label } from './shared.js'
import type { WinCounts } from './win-rate.js'

/** A rater table or pairwise record that cannot be read; `problem` says which record and why. */
export class RatingsInputError extends MetricInputError {
  readonly problem: string
  constructor(problem: string, received: unknown) {
    super('readRatingTable', 'ratings', problem, received)
    this.problem = problem
    this.message = `readRatingTable: ${problem}`
  }
}

function fail(problem: string, value: unknown): never {
  throw new RatingsInputError(problem, value)
}

/** Refuses a sparse array: `where` names it (`received`, `received.scores`, `received matrix row 2`). */
function denseOrFail(values: readonly unknown[], where: string, what: string): void {
  const hole = firstHole(values)
  if (hole >= 0) fail(`${holeProblem(where, hole)}; every element must be ${what}`, values)
}

/** Which part of the ratings to read. */
export interface RatingTableOptions {
  readonly statistic?: 'cohen' | 'fleiss' | 'krippendorff'
  readonly dimension?: string
  readonly raters?: readonly (string | number)[]
}

/** One human (or judge) score, as `loadRatings` returns them; `item` and `rater` may also be numbers. */
export interface RatingRecord {
  readonly item: string | number
  readonly rater: string | number
  /** What was rated; records without one are the dimension `'overall'`. */
  readonly dimension?: string
  readonly score: Label
}

/** A raters × items matrix: `matrix[r][i]` is rater r's score for item i, `null`/`undefined`/`NaN` = not rated. */
export type RatingMatrix = ReadonlyArray<ReadonlyArray<Label | null | undefined>>

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/** An id as records give it: a non-empty string, or a finite number (kept as its string). */
export function idOf(v: unknown): string | undefined {
  if (typeof v === 'string' && v.trim() !== '') return v
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return undefined
}

export function kindOf(v: unknown): 'number' | 'string' | 'boolean' | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? 'number' : undefined
  if (typeof v === 'string') return v === '' ? undefined : 'string'
  if (typeof v === 'boolean') return 'boolean'
  return undefined
}

/** Ratings reduced to one dimension and the chosen raters. */
export interface RatingTable {
  readonly source: 'records' | 'matrix'
  readonly dimension?: string
  /** Rater names: the `raters` option's order, else sorted (records) or row order (matrix). */
  readonly raters: string[]
  /** Item ids in order of first appearance (matrix: column order). */
  readonly items: string[]
  /** item → rater → score. */
  readonly scores: Map<string, Map<string, Label>>
  readonly kind: 'number' | 'string' | 'boolean' | undefined
}

function isMatrix(value: unknown): value is unknown[][] {
  return Array.isArray(value) && value.length > 0 && value.every((row) => Array.isArray(row))
}

export function readRatingTable(received: unknown, options: RatingTableOptions): RatingTable {
  if (Array.isArray(received)) {
    denseOrFail(received, 'received', received.some((r) => Array.isArray(r)) ? 'a row of the raters × items matrix' : 'a rating { item, rater, dimension?, score }')
  }
  if (isMatrix(received)) return readMatrix(received, options)
  let records: unknown = received
  if (isObject(received) && Array.isArray(received.scores)) {
    records = received.scores
    if (received.scores.length === 0 && Array.isArray(received.comparisons) && received.comparisons.length > 0) {
      fail('the ratings hold pairwise judgements only; compare systems with toWinAgainst, or load a file of scores', received.comparisons.length)
    }
  }
  if (!Array.isArray(records)) {
    fail('received value must be rating records [{ item, rater, dimension?, score }] (or loadRatings() output), or a raters × items matrix', received)
  }
  const rows = records as unknown[]
  if (rows.length === 0) fail('received value must hold at least one rating', received)
  if (rows !== received) denseOrFail(rows, 'received.scores', 'a rating { item, rater, dimension?, score }')

  const parsed = rows.map((r, i) => {
    if (!isObject(r)) fail(`received[${i}] must be a rating { item, rater, dimension?, score }`, r)
    const rec = r as Record<string, unknown>
    if ('winner' in rec && !('score' in rec)) fail(`received[${i}] is a pairwise judgement; compare systems with toWinAgainst`, r)
    const item = idOf(rec.item) ?? fail(`received[${i}].item must be a non-empty string or a number`, rec.item)
    const rater = idOf(rec.rater) ?? fail(`received[${i}].rater must be a non-empty string or a number`, rec.rater)
    if (kindOf(rec.score) === undefined) fail(`received[${i}].score must be a finite number, a non-empty label or a boolean`, rec.score)
    const dimension = rec.dimension === undefined || rec.dimension === null || rec.dimension === '' ? 'overall' : rec.dimension
    if (typeof dimension !== 'string') fail(`received[${i}].dimension must be a string`, rec.dimension)
    return { item, rater, dimension: dimension as string, score: rec.score as Label, index: i }
  })

  const dimensions = [...new Set(parsed.map((r) => r.dimension))]
  const dimension: string =
    options.dimension !== undefined
      ? dimensions.includes(options.dimension)
        ? options.dimension
        : fail(`options.dimension ${JSON.stringify(options.dimension)} is not in the ratings; dimensions: ${list(dimensions)}`, options.dimension)
      : dimensions.length > 1
        ? fail(`the ratings have ${dimensions.length} dimensions (${list(dimensions)}); choose one with options.dimension`, dimensions)
        : (dimensions[0] as string)

  const allRaters = [...new Set(parsed.filter((r) => r.dimension === dimension).map((r) => r.rater))].sort()
  let raters = allRaters
  if (options.raters !== undefined) {
    raters = options.raters.map(String)
    const missing = raters.filter((r) => !allRaters.includes(r))
    if (missing.length > 0)
      fail(`options.raters names ${list(missing.map((r) => JSON.stringify(r)))}, who did not rate ${dimension}; raters: ${list(allRaters)}`, options.raters)
  }
  const chosen = new Set(raters)
  const scores = new Map<string, Map<string, Label>>()
  let kind: RatingTable['kind']
  for (const r of parsed) {
    if (r.dimension !== dimension || !chosen.has(r.rater)) continue
    let byRater = scores.get(r.item)
    if (byRater === undefined) scores.set(r.item, (byRater = new Map()))
    if (byRater.has(r.rater))
      fail(
        `received[${r.index}] rates item ${JSON.stringify(r.item)} again: ${r.rater} already scored it on ${dimension}; keep one rating per item, rater and dimension`,
        r.score,
      )
    const k = kindOf(r.score)
    if (kind !== undefined && k !== kind)
      fail(`received[${r.index}].score is a ${k}, but earlier scores on ${dimension} are ${kind}s; use one kind of score per dimension`, r.score)
    kind = k
    byRater.set(r.rater, r.score)
  }
  return { source: 'records', dimension, raters, items: [...scores.keys()], scores, kind }
}

function readMatrix(matrix: unknown[][], options: RatingTableOptions): RatingTable {
  if (options.statistic === 'fleiss') {
    fail(
      "statistic 'fleiss' needs rating records { item, rater, score }: a matrix is ambiguous (statsmodels takes items × raters, this matcher raters × items); use 'krippendorff', or records",
      matrix,
    )
  }
  if (options.dimension !== undefined) fail('options.dimension applies to rating records; a matrix has a single dimension', options.dimension)
  const width = (matrix[0] as unknown[]).length
  if (width === 0) fail('received matrix must be raters × items with at least one item', matrix)
  let rows = matrix.map((row, r) => {
    denseOrFail(row, `received matrix row ${r}`, 'a score, or null for "not rated"')
    if (row.length !== width) fail(`received matrix must be raters × items: row ${r} has ${row.length} items, row 0 has ${width}`, row)
    return { name: `row ${r}`, row }
  })
  if (options.raters !== undefined) {
    rows = options.raters.map((index) => {
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= matrix.length) {
        fail(`options.raters must hold row indices of the matrix (0 to ${matrix.length - 1})`, options.raters)
      }
      return rows[index as number] as { name: string; row: unknown[] }
    })
  }
  const items = Array.from({ length: width }, (_, i) => `col ${i}`)
  const scores = new Map<string, Map<string, Label>>(items.map((item) => [item, new Map()]))
  let kind: RatingTable['kind']
  for (const { name, row } of rows) {
    row.forEach((v, i) => {
      if (v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v))) return
      const k = kindOf(v)
      if (k === undefined) fail(`received matrix ${name}, column ${i} must be a score (finite number, label or boolean) or null`, v)
      if (kind !== undefined && k !== kind) fail(`received matrix ${name}, column ${i} is a ${k}, but earlier scores are ${kind}s; use one kind of score`, v)
      kind = k
      scores.get(items[i] as string)!.set(name, v as Label)
    })
  }
  return { source: 'matrix', raters: rows.map((r) => r.name), items, scores, kind }
}

/** One pairwise judgement: on `item`, `rater` preferred system `a`, system `b`, or neither. */
export interface PairwiseRecord {
  readonly item: string | number
  readonly rater?: string | number
  readonly a: string
  readonly b: string
  readonly winner: 'a' | 'b' | 'tie'
}

export interface PairwiseTally extends WinCounts {
  readonly system: string
  readonly lost: string[]
  readonly ignored: number
}

export function isWinCounts(value: unknown): value is Record<string, unknown> {
  return isObject(value) && ('wins' in value || 'losses' in value) && !('comparisons' in value)
}

export function tallyPairwise(received: unknown, baseline: string, system: string | undefined): PairwiseTally {
  if (isWinCounts(received)) {
    const count = (key: 'wins' | 'losses' | 'ties') => {
      const v = received[key] ?? (key === 'ties' ? 0 : undefined)
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`received.${key} must be a non-negative integer`, v)
      return v as number
    }
    return { wins: count('wins'), losses: count('losses'), ties: count('ties'), system: system ?? 'received', lost: [], ignored: 0 }
  }
  let records: unknown = received
  if (isObject(received) && Array.isArray(received.comparisons)) {
    records = received.comparisons
    if (received.comparisons.length === 0 && Array.isArray(received.scores) && received.scores.length > 0) {
      fail('the ratings hold scores only; measure rater agreement with toHaveAgreementAbove, or load a file of pairwise judgements', received.scores.length)
    }
  }
  if (!Array.isArray(records))
    fail('received value must be pairwise judgements [{ item, a, b, winner }] (or loadRatings() output), or counts { wins, losses, ties }', received)
  const rows = records as unknown[]
  if (rows.length === 0) fail('received value must hold at least one pairwise judgement', received)
  denseOrFail(rows, rows === received ? 'received' : 'received.comparisons', 'a pairwise judgement { item, a, b, winner }')
  const parsed = rows.map((r, i) => {
    if (!isObject(r)) fail(`received[${i}] must be a pairwise judgement { item, a, b, winner }`, r)
    const rec = r as Record<string, unknown>
    const item = idOf(rec.item) ?? fail(`received[${i}].item must be a non-empty string or a number`, rec.item)
    const a = idOf(rec.a) ?? fail(`received[${i}].a must name a system`, rec.a)
    const b = idOf(rec.b) ?? fail(`received[${i}].b must name a system`, rec.b)
    if (a === b) fail(`received[${i}] compares ${a} with itself`, r)
    if (rec.winner !== 'a' && rec.winner !== 'b' && rec.winner !== 'tie') fail(`received[${i}].winner must be 'a', 'b' or 'tie'`, rec.winner)
    return { item, a, b, winner: rec.winner as 'a' | 'b' | 'tie' }
  })
  const systems = [...new Set(parsed.flatMap((p) => [p.a, p.b]))]
  const opponents = [...new Set(parsed.flatMap((p) => (p.a === baseline ? [p.b] : p.b === baseline ? [p.a] : [])))]
  if (opponents.length === 0) fail(`no judgement involves the baseline ${JSON.stringify(baseline)}; systems: ${list(systems)}`, baseline)
  const candidate: string =
    system !== undefined
      ? opponents.includes(system)
        ? system
        : fail(`no judgement compares ${JSON.stringify(system)} with ${JSON.stringify(baseline)}; ${baseline} was compared with ${list(opponents)}`, system)
      : opponents.length > 1
        ? fail(`${baseline} was compared with several systems (${list(opponents)}); name the one that should win with options.system`, opponents)
        : (opponents[0] as string)
  let wins = 0
  let losses = 0
  let ties = 0
  let ignored = 0
  const lost = new Set<string>()
  for (const p of parsed) {
    const side = p.a === candidate && p.b === baseline ? 'a' : p.b === candidate && p.a === baseline ? 'b' : undefined
    if (side === undefined) ignored += 1
    else if (p.winner === 'tie') ties += 1
    else if (p.winner === side) wins += 1
    else {
      losses += 1
      lost.add(p.item)
    }
  }
  return { wins, losses, ties, system: candidate, lost: [...lost], ignored }
}
