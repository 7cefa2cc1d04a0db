/**
 * Latency, tokens and cost of an eval run against limits: p50/p95/max of the per-case times runEvalSet
 * records (`timing.ms`), total and per-case tokens from each case's `usage` (what the adapters return),
 * and the cost from a price table the caller passes. There are no built-in prices: they change, and a
 * stale table would pass a budget it should fail.
 */
import { firstHole, holeProblem } from '../dense-array.js'
import { MetricInputError } from '../errors.js'
import { quantileSorted } from '../eval-set/statistics.js'
import { keysOf } from '../option-keys.js'
import { isPlainObject, readOptions } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'

/** Tokens one model call (or a case's calls together) used. `model` names the price to apply. */
export interface TokenUsage {
  readonly inputTokens?: number
  readonly outputTokens?: number
  /** When absent, inputTokens + outputTokens. */
  readonly totalTokens?: number
  readonly model?: string
}

/** Price of a model per million tokens, in whatever currency the table is in. */
export interface ModelPrice {
  readonly inputPerMillion: number
  readonly outputPerMillion: number
}

/** Limits of a run; each given one is checked (≤). At least one is needed. */
export interface BudgetLimits {
  /** Median case latency in ms (type-7 quantile, numpy's default). */
  readonly p50Ms?: number
  /** 95th percentile of case latency in ms (type 7). */
  readonly p95Ms?: number
  /** Slowest case in ms. */
  readonly maxMs?: number
  /** Tokens over the whole run. */
  readonly totalTokens?: number
  /** Tokens of the most expensive case. */
  readonly tokensPerCase?: number
  /** Cost over the whole run (needs `prices`). */
  readonly totalCost?: number
  /** Cost of the most expensive case (needs `prices`). */
  readonly costPerCase?: number
  /** Model → price per million input and output tokens; every model a case used must be in it. */
  readonly prices?: Readonly<Record<string, ModelPrice>>
}

export const BUDGET_LIMIT_KEYS = ['p50Ms', 'p95Ms', 'maxMs', 'totalTokens', 'tokensPerCase', 'totalCost', 'costPerCase'] as const
export type BudgetLimitKey = (typeof BUDGET_LIMIT_KEYS)[number]
export const BUDGET_OPTION_KEYS = keysOf<BudgetLimits>()('p50Ms', 'p95Ms', 'maxMs', 'totalTokens', 'tokensPerCase', 'totalCost', 'costPerCase', 'prices')

/** One case as the budget reads it. */
export interface BudgetCase {
  /** How messages name the case: `case q3` or `received[2]`. */
  readonly name: string
  readonly id: string
  /** `timing.ms` of the case, when it has one. */
  readonly ms: unknown
  /** `usage`: one TokenUsage or an array of them (one per model call). */
  readonly usage: unknown
  /** The case's `model`, used for usage entries that name none. */
  readonly model: unknown
}

export interface BudgetCaseMeasure {
  readonly id: string
  readonly ms: number | undefined
  readonly tokens: number | undefined
  readonly cost: number | undefined
}

export interface BudgetCheck {
  readonly limit: BudgetLimitKey
  readonly measured: number
  readonly max: number
  readonly pass: boolean
  /** The case that set the measure (for max and per-case limits). */
  readonly worst?: string
}

export interface BudgetDetails {
  readonly checks: readonly BudgetCheck[]
  readonly cases: readonly BudgetCaseMeasure[]
  /** Cost of the whole run, whenever `prices` was given (with or without a cost limit): the report shows it. */
  readonly totalCost?: number
}

export type BudgetScore = Score<BudgetDetails>

const FN = 'measureBudget'

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0
}

function readUsage(c: BudgetCase, prices: Readonly<Record<string, ModelPrice>> | undefined, needTokens: boolean, needCost: boolean): { tokens?: number; cost?: number } {
  if (!needTokens && !needCost) return {}
  if (c.usage === undefined || c.usage === null) {
    throw new MetricInputError(
      FN,
      `${c.name}.usage`,
      'token usage `{ inputTokens, outputTokens, totalTokens?, model? }` (a token or cost limit is set; the adapters return it)',
      c.usage,
    )
  }
  const entries = Array.isArray(c.usage) ? (c.usage as unknown[]) : [c.usage]
  // forEach below would skip a hole and the case would be priced without it
  const hole = firstHole(entries)
  if (hole >= 0) throw new MetricInputError(FN, `${c.name}.usage[${hole}]`, `token usage (${holeProblem(`${c.name}.usage`, hole)})`, undefined)
  let tokens = 0
  let cost = 0
  entries.forEach((raw, i) => {
    const at = Array.isArray(c.usage) ? `${c.name}.usage[${i}]` : `${c.name}.usage`
    if (!isPlainObject(raw)) throw new MetricInputError(FN, at, 'token usage `{ inputTokens, outputTokens, totalTokens? }`', raw)
    for (const key of ['inputTokens', 'outputTokens', 'totalTokens'] as const) {
      if (raw[key] !== undefined && !isCount(raw[key])) throw new MetricInputError(FN, `${at}.${key}`, 'a finite number ≥ 0', raw[key])
    }
    const input = raw.inputTokens as number | undefined
    const output = raw.outputTokens as number | undefined
    const total = (raw.totalTokens as number | undefined) ?? (input !== undefined && output !== undefined ? input + output : undefined)
    if (needTokens) {
      if (total === undefined) throw new MetricInputError(FN, at, '`totalTokens`, or `inputTokens` and `outputTokens`', raw)
      tokens += total
    }
    if (needCost) {
      const model = raw.model ?? c.model
      if (typeof model !== 'string' || model === '')
        throw new MetricInputError(FN, `${at}.model`, `the model name (on the usage or as the case's \`model\`) to price ${c.name}`, model)
      const price = prices !== undefined && Object.prototype.hasOwnProperty.call(prices, model) ? prices[model] : undefined
      if (price === undefined) {
        throw new MetricInputError(
          FN,
          `options.prices[${JSON.stringify(model)}]`,
          `the price of model ${JSON.stringify(model)}, which ${c.name} used (prices given for: ${Object.keys(prices ?? {}).join(', ') || 'none'})`,
          undefined,
        )
      }
      if (input === undefined || output === undefined) throw new MetricInputError(FN, at, '`inputTokens` and `outputTokens` (a cost limit is set)', raw)
      cost += (input * price.inputPerMillion + output * price.outputPerMillion) / 1_000_000
    }
  })
  return { ...(needTokens ? { tokens } : {}), ...(needCost ? { cost } : {}) }
}

function readPrices(prices: unknown): Readonly<Record<string, ModelPrice>> | undefined {
  if (prices === undefined) return undefined
  if (!isPlainObject(prices)) throw new MetricInputError(FN, 'options.prices', 'a price table `{ [model]: { inputPerMillion, outputPerMillion } }`', prices)
  for (const [model, price] of Object.entries(prices)) {
    if (!isPlainObject(price) || !isCount(price.inputPerMillion) || !isCount(price.outputPerMillion)) {
      throw new MetricInputError(FN, `options.prices[${JSON.stringify(model)}]`, '`{ inputPerMillion, outputPerMillion }` (finite numbers ≥ 0)', price)
    }
  }
  return prices as Record<string, ModelPrice>
}

/**
 * Checks an eval run against `limits`: each limit given must hold (measured ≤ limit). The value is the
 * largest measured / limit ratio, so ≤ 1 passes; every check is in `details.checks`.
 *
 * - Latency: the cases' `timing.ms` (runEvalSet), p50 and p95 as type-7 quantiles (numpy's default).
 * - Tokens: `usage.totalTokens`, else `inputTokens + outputTokens`; `usage` may be an array (one entry
 *   per model call), summed.
 * - Cost: Σ (inputTokens · inputPerMillion + outputTokens · outputPerMillion) / 10⁶ per usage entry,
 *   priced by its `model` or the case's `model`. Whenever `prices` is given the run is priced
 *   (`details.totalCost`), with or without a cost limit.
 *
 * @throws MetricInputError for no limit, a limit that is not a positive finite number, a case without
 *   `timing.ms` when a latency limit is set or without usage when a token or cost limit (or `prices`) is
 *   set, a model missing from `prices` (naming the case), or a cost limit without `prices`
 * @example measureBudget([{ name: 'case a', id: 'a', ms: 120, usage: { inputTokens: 900, outputTokens: 100 }, model: 'm' }], { maxMs: 200, totalCost: 0.01, prices: { m: { inputPerMillion: 2, outputPerMillion: 8 } } }).value // 0.6 (120 / 200; cost 0.0026)
 */
export function measureBudget(cases: readonly BudgetCase[], limits: BudgetLimits): BudgetScore {
  if (!Array.isArray(cases) || cases.length === 0) throw new MetricInputError(FN, 'cases', 'a non-empty array of cases', cases)
  const read = readOptions<BudgetLimits>(FN, limits, BUDGET_OPTION_KEYS, 'limits')
  const given = BUDGET_LIMIT_KEYS.filter((k) => read[k] !== undefined)
  if (given.length === 0) throw new MetricInputError(FN, 'limits', `at least one limit (${BUDGET_LIMIT_KEYS.join(', ')})`, limits)
  for (const k of given) {
    const v = read[k]
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) throw new MetricInputError(FN, `limits.${k}`, 'a positive finite number', v)
  }
  const prices = readPrices(read.prices)
  const needLatency = given.some((k) => k.endsWith('Ms'))
  const needTokens = given.includes('totalTokens') || given.includes('tokensPerCase')
  const costLimit = given.includes('totalCost') || given.includes('costPerCase')
  // A given price table prices the run even without a cost limit (the report shows the cost), so a model
  // missing from it is refused either way.
  const needCost = costLimit || prices !== undefined
  if (costLimit && prices === undefined)
    throw new MetricInputError(FN, 'limits.prices', 'a price table `{ [model]: { inputPerMillion, outputPerMillion } }` (a cost limit is set)', undefined)
  const measures: BudgetCaseMeasure[] = cases.map((c) => {
    let ms: number | undefined
    if (needLatency) {
      if (!isCount(c.ms)) throw new MetricInputError(FN, `${c.name}.timing.ms`, 'the case latency in ms (runEvalSet records it; a latency limit is set)', c.ms)
      ms = c.ms
    }
    const { tokens, cost } = readUsage(c, prices, needTokens, needCost)
    return { id: c.id, ms, tokens, cost }
  })
  const checks: BudgetCheck[] = given.map((limit) => {
    const max = read[limit] as number
    const { measured, worst } = measure(limit, measures)
    return { limit, measured, max, pass: measured <= max, ...(worst === undefined ? {} : { worst }) }
  })
  const value = Math.max(...checks.map((c) => c.measured / c.max))
  // Finite inputs can still sum past the largest double; a budget over an overflow asserts nothing.
  if (!Number.isFinite(value)) throw new MetricInputError(FN, 'cases', 'usage whose sums stay finite (the totals overflow)', undefined)
  const signature = buildSignature('Budget', [
    ['limits', given.join(',')],
    ['pct', needLatency ? 'type7' : undefined],
  ])
  const totalCost = needCost ? measures.reduce((sum, c) => sum + (c.cost as number), 0) : undefined
  return makeScore('budget ratio', value, signature, { checks, cases: measures, ...(totalCost !== undefined && Number.isFinite(totalCost) ? { totalCost } : {}) })
}

function measure(limit: BudgetLimitKey, cases: readonly BudgetCaseMeasure[]): { measured: number; worst?: string } {
  const pick = (f: (c: BudgetCaseMeasure) => number | undefined) => cases.map((c) => ({ id: c.id, v: f(c) as number }))
  const worstOf = (xs: Array<{ id: string; v: number }>) => xs.reduce((a, b) => (b.v > a.v ? b : a))
  switch (limit) {
    case 'p50Ms':
    case 'p95Ms': {
      const sorted = Float64Array.from(cases.map((c) => c.ms as number)).sort()
      return { measured: quantileSorted(sorted, limit === 'p50Ms' ? 0.5 : 0.95) }
    }
    case 'maxMs': {
      const w = worstOf(pick((c) => c.ms))
      return { measured: w.v, worst: w.id }
    }
    case 'totalTokens':
      return { measured: cases.reduce((s, c) => s + (c.tokens as number), 0) }
    case 'tokensPerCase': {
      const w = worstOf(pick((c) => c.tokens))
      return { measured: w.v, worst: w.id }
    }
    case 'totalCost':
      return { measured: cases.reduce((s, c) => s + (c.cost as number), 0) }
    default: {
      const w = worstOf(pick((c) => c.cost))
      return { measured: w.v, worst: w.id }
    }
  }
}
