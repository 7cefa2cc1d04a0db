/**
 * Latency, tokens and cost of an eval set in the report (issue #31). They are metric rows of the set, so
 * the report's tables, the history store (one `metric_rows` row each, no schema change) and the history
 * UI's charts show them like any metric:
 *
 * - `latency_p50_ms`, `latency_p95_ms`, `latency_max_ms`: over the cases' `timing.ms` (runEvalSet times
 *   every case), quantiles of type 7 (numpy's default, as toStayWithinBudget);
 * - `tokens_total`: Σ of the cases' `usage` tokens (adapters and traces give it), over the cases that have it;
 * - `cost_total`: the run's cost as toStayWithinBudget priced it, when an assertion on the set was given a
 *   price table (there are no built-in prices).
 *
 * Each row is measured, not asserted: no threshold, `assertions: 0`, always passing; lower is better
 * (comparator `<=`). Only cases a set assertion received are counted, each once.
 */
import { quantileSorted } from '../eval-set/statistics.js'
import { buildSignature } from '../signature.js'
import type { RecordedCaseText } from './record.js'

/** A measured row: the MetricRow fields it sets (model.ts imports this module, so the type is written out here). */
export interface MeasuredRow {
  readonly key: string
  readonly metric: PerformanceMetric
  readonly matcher: 'measured'
  readonly signature: string
  readonly comparator: '<='
  readonly isNot: false
  readonly aggregate: 'set-level'
  readonly value: number
  readonly n: number
  readonly assertions: 0
  readonly failedAssertions: 0
  readonly errored: 0
  readonly pass: true
  readonly failingCases: readonly string[]
}

/** What is read of the set's assertions: the budget matcher's priced cost. */
type PricedPart = { readonly matcher: string; readonly extra?: Record<string, unknown>; readonly perCaseTotal?: number; readonly setSize?: number }

/** The metric names of the measured rows, in the order they are listed. */
export const PERFORMANCE_METRICS = ['latency_p50_ms', 'latency_p95_ms', 'latency_max_ms', 'tokens_total', 'cost_total'] as const
export type PerformanceMetric = (typeof PERFORMANCE_METRICS)[number]

function measuredRow(metric: PerformanceMetric, value: number, n: number, signature: string): MeasuredRow {
  return {
    key: `measured|${metric}`,
    metric,
    matcher: 'measured',
    signature,
    comparator: '<=',
    isNot: false,
    aggregate: 'set-level',
    value,
    n,
    assertions: 0,
    failedAssertions: 0,
    errored: 0,
    pass: true,
    failingCases: [],
  }
}

/** The budget matcher's priced cost of the run (`extra.totalCost`), first in canonical order. */
function pricedCost(parts: readonly PricedPart[]): { cost: number; n: number } | undefined {
  for (const p of parts) {
    const cost = p.extra?.totalCost
    if (p.matcher === 'toStayWithinBudget' && typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) {
      return { cost, n: p.perCaseTotal ?? p.setSize ?? 0 }
    }
  }
  return undefined
}

/**
 * The measured rows of a set from its cases' recorded texts (each case once) and its assertions. Empty
 * when no case carries timing or usage and no budget assertion priced the run.
 *
 * @example performanceRows([{ id: 'a', ms: 120 }, { id: 'b', ms: 80 }], []).map((r) => [r.metric, r.value]) // [['latency_p50_ms', 100], ['latency_p95_ms', 118], ['latency_max_ms', 120]]
 */
export function performanceRows(cases: ReadonlyArray<Pick<RecordedCaseText, 'ms' | 'tokens'>>, parts: readonly PricedPart[]): MeasuredRow[] {
  const rows: MeasuredRow[] = []
  const ms = cases.flatMap((c) => (typeof c.ms === 'number' && Number.isFinite(c.ms) ? [c.ms] : []))
  if (ms.length > 0) {
    const sorted = Float64Array.from(ms).sort()
    const sig = (stat: string) =>
      buildSignature('Latency', [
        ['stat', stat],
        ['pct', stat === 'max' ? undefined : 'type7'],
        ['unit', 'ms'],
      ])
    rows.push(measuredRow('latency_p50_ms', quantileSorted(sorted, 0.5), ms.length, sig('p50')))
    rows.push(measuredRow('latency_p95_ms', quantileSorted(sorted, 0.95), ms.length, sig('p95')))
    rows.push(measuredRow('latency_max_ms', sorted[sorted.length - 1] as number, ms.length, sig('max')))
  }
  const tokens = cases.flatMap((c) => (typeof c.tokens === 'number' && Number.isFinite(c.tokens) ? [c.tokens] : []))
  if (tokens.length > 0) {
    rows.push(
      measuredRow(
        'tokens_total',
        tokens.reduce((a, b) => a + b, 0),
        tokens.length,
        buildSignature('Tokens', [['stat', 'total']]),
      ),
    )
  }
  const priced = pricedCost(parts)
  if (priced !== undefined)
    rows.push(
      measuredRow(
        'cost_total',
        priced.cost,
        priced.n,
        buildSignature('Cost', [
          ['stat', 'total'],
          ['prices', 'given'],
        ]),
      ),
    )
  return rows
}
