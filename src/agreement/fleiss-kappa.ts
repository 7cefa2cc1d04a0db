import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { assertLabels, columnSums, labelKey, matrixSum, pairwiseSum, rowSums, uniqueSorted, type Label } from './shared.js'

export type FleissMethod = 'fleiss' | 'randolph' | 'uniform'

export interface FleissKappaOptions {
  /**
   * `'fleiss'` (default): chance agreement from the observed category shares, Σ_j p_j².
   * `'randolph'` (alias `'uniform'`): free-marginal kappa, chance agreement 1 / number of categories.
   */
  readonly method?: FleissMethod
  /**
   * `'table'` (default for numbers): rows are items, columns categories, cells the number of raters who chose
   * that category. `'ratings'`: rows are items, columns raters, cells the label each rater gave (`null` for
   * none); turned into a table like statsmodels `aggregate_raters`. Rows holding strings or booleans are
   * always read as ratings.
   */
  readonly input?: 'table' | 'ratings'
}

/** The keys of {@link FleissKappaOptions}: what fleissKappa accepts. */
export const FLEISS_KAPPA_OPTION_KEYS = keysOf<FleissKappaOptions>()('method', 'input')

export interface FleissKappaDetails {
  readonly method: 'fleiss' | 'randolph'
  readonly items: number
  /** Raters per item (the same for every item). */
  readonly raters: number
  /** Category labels in column order (0, 1, … for a table given directly). */
  readonly categories: readonly Label[]
  /** items × categories counts. */
  readonly table: readonly (readonly number[])[]
  /** Share of all ratings in each category. */
  readonly categoryShares: readonly number[]
  /** P_i: agreement among the raters of item i (share of agreeing rater pairs). */
  readonly itemAgreement: readonly number[]
  /** P̄, the mean of P_i. */
  readonly observedAgreement: number
  /** P̄_e: Σ p_j² (Fleiss) or 1/k (Randolph). */
  readonly expectedAgreement: number
  readonly reason?: string
}

/**
 * Fleiss' kappa (Fleiss 1971) or Randolph's free-marginal kappa (2005) for any number of raters, with
 * statsmodels 0.13.5 `fleiss_kappa(table, method)` semantics.
 *
 *   P_i = (Σ_j n_ij² − m) / (m(m − 1)),  P̄ = mean P_i,  κ = (P̄ − P̄_e) / (1 − P̄_e)
 *
 * with m raters per item, P̄_e = Σ_j p_j² (p_j the share of ratings in category j) or 1/k for Randolph.
 * Every item needs the same number of ratings m (statsmodels asserts it); otherwise this throws a
 * MetricInputError saying so. Edge cases: every rating in one category → 0/0 → NaN with a `reason`
 * (statsmodels: NaN + RuntimeWarning) for both methods; one rater per item → NaN with a reason.
 * Fractional counts are accepted in a table, as statsmodels does. Parity: the 19 golden cases (both
 * methods, tables and `aggregate_raters` input) bit-identical, and statsmodels' own test vectors to 1e-12.
 *
 * @example
 * fleissKappa([[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
 *   [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]).value // 0.20993070442195522
 */
export function fleissKappa(tableOrRatings: readonly (readonly (Label | null)[])[], options: FleissKappaOptions = {}): Score<FleissKappaDetails> {
  const fn = 'fleissKappa'
  checkOptionKeys(fn, options, FLEISS_KAPPA_OPTION_KEYS)
  const method = methodOption(fn, options.method)
  if (!Array.isArray(tableOrRatings) || tableOrRatings.length === 0 || !tableOrRatings.every((r) => Array.isArray(r))) {
    throw new MetricInputError(fn, 'tableOrRatings', 'a non-empty array of rows', tableOrRatings)
  }
  if (options.input !== undefined && options.input !== 'table' && options.input !== 'ratings') {
    throw new MetricInputError(fn, 'options.input', "'table' or 'ratings'", options.input)
  }
  const looksLikeRatings = tableOrRatings.some((row) => row.some((v) => typeof v === 'string' || typeof v === 'boolean' || v === null))
  const input = options.input ?? (looksLikeRatings ? 'ratings' : 'table')

  let table: number[][]
  let categories: Label[]
  if (input === 'ratings') {
    const agg = aggregateRaters(fn, tableOrRatings)
    table = agg.table
    categories = agg.categories
  } else {
    table = countTable(fn, tableOrRatings)
    categories = Array.from({ length: table[0]!.length }, (_, j) => j)
  }

  const nSub = table.length
  const nCat = table[0]!.length
  const nTotal = matrixSum(table)
  const nRater = rowSums(table)
  const nRat = nRater.reduce((m, v) => Math.max(m, v), Number.NEGATIVE_INFINITY)
  if (nTotal !== nSub * nRat) {
    const item = nRater.findIndex((m) => m !== nRat)
    throw new MetricInputError(
      fn,
      'tableOrRatings',
      `the same number of ratings for every item (Fleiss' kappa needs it): item ${item} has ${nRater[item]}, another has ${nRat}`,
      tableOrRatings,
    )
  }
  const pCat = columnSums(table, nCat).map((c) => c / nTotal)
  const pRat = table.map((row) => (pairwiseSum(row.map((v) => v * v)) - nRat) / (nRat * (nRat - 1)))
  const pMean = pairwiseSum(pRat) / nSub
  const pMeanExp = method === 'fleiss' ? pairwiseSum(pCat.map((p) => p * p)) : 1 / nCat
  const value = (pMean - pMeanExp) / (1 - pMeanExp)

  let reason: string | undefined
  if (Number.isNaN(value)) {
    if (nRat <= 1) reason = 'each item has a single rating (or none): agreement between raters is 0/0'
    else if (pMeanExp === 1) reason = 'every rating is in one category: chance agreement is 1, so kappa is 0/0'
    else reason = 'kappa is 0/0'
  }
  const details: FleissKappaDetails = {
    method,
    items: nSub,
    raters: nRat,
    categories,
    table,
    categoryShares: pCat,
    itemAgreement: pRat,
    observedAgreement: pMean,
    expectedAgreement: pMeanExp,
    ...(reason === undefined ? {} : { reason }),
  }
  const name = method === 'fleiss' ? "Fleiss' kappa" : "Randolph's kappa"
  const signature = buildSignature('Kappa', [
    ['kind', method],
    ['items', nSub],
    ['raters', nRat],
    ['categories', nCat],
  ])
  return makeScore(name, value, signature, details)
}

function methodOption(fn: string, method: unknown): 'fleiss' | 'randolph' {
  if (method === undefined || method === 'fleiss') return 'fleiss'
  if (method === 'randolph' || method === 'uniform') return 'randolph'
  throw new MetricInputError(fn, 'options.method', "'fleiss', 'randolph' or 'uniform'", method)
}

function countTable(fn: string, rows: readonly (readonly unknown[])[]): number[][] {
  const width = rows[0]!.length
  if (width === 0) throw new MetricInputError(fn, 'tableOrRatings[0]', 'a row with at least one category', rows[0])
  return rows.map((row, i) => {
    if (row.length !== width) throw new MetricInputError(fn, `tableOrRatings[${i}]`, `a row of ${width} counts like row 0`, row)
    return row.map((v, j) => {
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        throw new MetricInputError(fn, `tableOrRatings[${i}][${j}]`, 'a non-negative finite count', v)
      }
      return v
    })
  })
}

export interface AggregatedRatings {
  /** items × categories counts. */
  readonly table: number[][]
  /** Sorted distinct labels (`np.unique`), the column order of `table`. */
  readonly categories: Label[]
}

/**
 * Items × raters labels → items × categories counts, like statsmodels `aggregate_raters(data)` (categories =
 * the sorted distinct labels). `null` entries are skipped, so an item may end up with fewer ratings;
 * {@link fleissKappa} then refuses the table.
 *
 * @example
 * aggregateRatings([['bad', 'ok'], ['ok', 'ok']]) // { table: [[1, 1], [0, 2]], categories: ['bad', 'ok'] }
 */
export function aggregateRatings(ratings: readonly (readonly (Label | null)[])[]): AggregatedRatings {
  return aggregateRaters('aggregateRatings', ratings)
}

function aggregateRaters(fn: string, ratings: readonly (readonly (Label | null)[])[]): AggregatedRatings {
  if (!Array.isArray(ratings) || ratings.length === 0) throw new MetricInputError(fn, 'ratings', 'a non-empty array of rows', ratings)
  const present: Label[] = []
  let kind: ReturnType<typeof assertLabels>
  ratings.forEach((row, i) => {
    if (!Array.isArray(row)) throw new MetricInputError(fn, `ratings[${i}]`, 'an array of labels', row)
    const labels = row.filter((v): v is Label => v !== null && v !== undefined)
    kind = assertLabels(fn, `ratings[${i}]`, labels, kind)
    present.push(...labels)
  })
  const categories = uniqueSorted(present)
  const index = new Map(categories.map((c, j) => [labelKey(c), j] as const))
  const table = ratings.map((row) => {
    const counts = new Array<number>(categories.length).fill(0)
    for (const v of row) {
      if (v === null || v === undefined) continue
      const j = index.get(labelKey(v)) as number
      counts[j] = (counts[j] as number) + 1
    }
    return counts
  })
  return { table, categories }
}
