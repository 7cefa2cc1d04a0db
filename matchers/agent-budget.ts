/**
 * `toStayWithinBudget`: a run's latency (p50/p95/max of runEvalSet's per-case `timing.ms`), tokens and
 * cost (from each case's `usage` and a price table the test passes) against limits (issue #31).
 */
import { BUDGET_LIMIT_KEYS, measureBudget, type BudgetCase, type BudgetCheck, type BudgetLimits, type BudgetScore } from '../src/agent/budget.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { readBudgetSet } from './agent-received.js'
import { declareMatcher, isFiniteNumber, type OptionSpec } from './declare.js'
import { buildMessage, failedCasesSection, failedCasesSignature, formatNumber, table, terminalSafe } from './message.js'
import { isPlainObject } from '../src/options.js'
import { matcherError } from './validate.js'

/** The limits, and what a failed case does: `'fail'` (default) fails the assertion either way, `'skip'` leaves it out. */
export type BudgetOptions = BudgetLimits & { readonly failedCases?: 'fail' | 'skip' }

export interface AgentBudgetMatchers<R = unknown> {
  /** Every limit given holds (≤): p50Ms, p95Ms, maxMs, totalTokens, tokensPerCase, totalCost, costPerCase (cost needs `prices`). */
  toStayWithinBudget(options: BudgetOptions): R
}

const FN = 'toStayWithinBudget'

const LABEL: Record<BudgetCheck['limit'], string> = {
  p50Ms: 'p50 latency (ms)',
  p95Ms: 'p95 latency (ms)',
  maxMs: 'max latency (ms)',
  totalTokens: 'tokens, whole run',
  tokensPerCase: 'tokens, largest case',
  totalCost: 'cost, whole run',
  costPerCase: 'cost, largest case',
}

function shown(limit: BudgetCheck['limit'], v: number): string {
  if (limit.endsWith('Ms')) return formatNumber(v, undefined, 1)
  if (limit.includes('Cost') || limit.includes('cost')) return formatNumber(v, undefined, 6)
  return String(Math.round(v))
}

function checksTable(score: BudgetScore): string {
  const rows = score.details.checks.map((c) => [
    LABEL[c.limit],
    shown(c.limit, c.measured),
    `${c.pass ? '≤' : '>'} ${shown(c.limit, c.max)}`,
    c.pass ? 'ok' : 'OVER',
    c.worst === undefined ? '' : `case ${c.worst}`,
  ])
  return table([['limit', 'measured', 'allowed', '', 'worst case'], ...rows])
}

export function toStayWithinBudget(this: MatcherContext, received: unknown, limits: BudgetOptions): MatcherResult {
  if (!isPlainObject(limits)) matcherError(this, FN, 'limits', `limits must be an object such as { p95Ms: 2000, totalTokens: 50000 }`, limits)
  const all = readBudgetSet(this, FN, 'limits', received)
  const mode = isPlainObject(limits) && limits.failedCases === 'skip' ? 'skip' : 'fail'
  const { failedCases: _mode, ...core } = limits
  const failed = all.filter((c) => c.failed)
  const kept = all.filter((c) => !c.failed)
  const cases: BudgetCase[] = kept.map((c) => ({
    name: c.name,
    id: c.id,
    ms: (c.raw.timing as { ms?: unknown } | undefined)?.ms,
    usage: c.raw.usage,
    model: c.raw.model,
  }))
  const isNot = this.isNot === true
  const failedList = failed.map((f, i) => ({ index: i, name: f.name, id: f.id, error: f.error }))
  if (cases.length === 0) {
    return {
      pass: isNot,
      message: () =>
        buildMessage(this, {
          matcher: FN,
          args: 'limits',
          headline: `every case (${all.length}) failed in the pipeline, so no budget can be measured and the assertion fails`,
          sections: [failedCasesSection(failedList, all.length, 'usage', mode)],
        }),
    }
  }
  const score = measureBudget(cases, core)
  const signature = failedCasesSignature(score.signature, mode, failed.length)
  const within = score.details.checks.every((c) => c.pass)
  const over = score.details.checks.filter((c) => !c.pass)
  const failing = failed.length > 0 && mode === 'fail'
  const headline = failing
    ? `${failed.length} of ${all.length} cases failed in the pipeline (failedCases: 'fail'), so the assertion fails${isNot ? ' under .not too' : ''}`
    : within
      ? `the run stays within every limit (${score.details.checks.length})${isNot ? ', expected it to exceed one' : ''}`
      : `the run exceeds ${over.length} of ${score.details.checks.length} limits: ${over.map((c) => terminalSafe(LABEL[c.limit])).join(', ')}`
  return {
    pass: failing ? isNot : within,
    message: () =>
      buildMessage(this, {
        matcher: FN,
        args: 'limits',
        headline,
        signature,
        sections: [checksTable(score), failedCasesSection(failedList, all.length, 'usage', mode)],
      }),
    meta: {
      matcher: FN,
      metric: 'budget ratio',
      value: score.value,
      threshold: 1,
      comparator: isNot ? '>' : '<=',
      direction: 'lower',
      pass: failing ? isNot : within,
      signature,
      ...perCaseRatios(score, core),
      // the report's cost_total row (src/report/performance.ts): the run priced by the table the test passed
      ...(score.details.totalCost !== undefined ? { extra: { totalCost: score.details.totalCost } } : {}),
    },
  }
}

/**
 * Per case, when a per-case limit is set (maxMs, tokensPerCase, costPerCase): its largest measured / limit
 * ratio, passing at ≤ 1. The run-wide limits (p50, p95, totals) have no per-case share, so without a
 * per-case limit nothing is recorded per case.
 */
function perCaseRatios(score: BudgetScore, limits: BudgetLimits): { perCase?: Array<{ id: string; value: number; pass: boolean }> } {
  const per: Array<[number | undefined, (c: BudgetScore['details']['cases'][number]) => number | undefined]> = [
    [limits.maxMs, (c) => c.ms],
    [limits.tokensPerCase, (c) => c.tokens],
    [limits.costPerCase, (c) => c.cost],
  ]
  const given = per.filter(([max]) => max !== undefined) as Array<[number, (c: BudgetScore['details']['cases'][number]) => number | undefined]>
  if (given.length === 0) return {}
  return {
    perCase: score.details.cases.map((c) => {
      const value = Math.max(...given.map(([max, of]) => (of(c) as number) / max))
      return { id: c.id, value, pass: value <= 1 }
    }),
  }
}

const LIMIT: OptionSpec = { type: 'a positive finite number', doc: '', check: (v) => isFiniteNumber(v) && (v as number) > 0 }
const DOCS: Record<(typeof BUDGET_LIMIT_KEYS)[number], string> = {
  p50Ms: "Median case latency in ms (runEvalSet's `timing.ms`; type-7 quantile, numpy's default).",
  p95Ms: '95th percentile of case latency in ms (type 7).',
  maxMs: 'Slowest case, in ms.',
  totalTokens: "Tokens of the whole run: each case's `usage.totalTokens`, else inputTokens + outputTokens (`usage` may be an array, one entry per model call).",
  tokensPerCase: 'Tokens of the largest case.',
  totalCost: 'Cost of the whole run from `prices`: Σ inputTokens × inputPerMillion / 10⁶ + outputTokens × outputPerMillion / 10⁶.',
  costPerCase: 'Cost of the most expensive case (needs `prices`).',
}

export const agentBudgetDeclarations = [
  declareMatcher({
    name: 'toStayWithinBudget',
    async: false,
    family: 'agent',
    summary:
      'An eval run stays within every limit given (≤): p50/p95/max latency of its cases, tokens in total and per case, and cost from a price table you pass (there are no built-in prices). A model missing from the table is a Matcher error naming the case. The recorded value is the largest measured / limit ratio (≤ 1 passes; it is not bounded by 1).',
    forms: [
      {
        received: 'an eval run `{ cases }` (runEvalSet) or an array of cases with `timing: { ms }`, `usage` and `model`',
        args: [],
        optionsRequired: true,
        options: {
          ...Object.fromEntries(BUDGET_LIMIT_KEYS.map((k) => [k, { ...LIMIT, doc: DOCS[k] }])),
          prices: {
            type: '{ [model]: { inputPerMillion, outputPerMillion } }',
            doc: "Price per million input and output tokens of each model a case used (`usage.model`, else the case's `model`). Given prices price the run with or without a cost limit (recorded as `extra.totalCost`, the report's `cost_total` row), so a model missing from them is refused either way.",
            check: isPlainObject,
          },
          failedCases: {
            type: "'fail' | 'skip'",
            default: "'fail'",
            doc: "A case whose pipeline failed: `'fail'` fails the assertion either way, naming it; `'skip'` leaves it out of the measures.",
            check: (v: unknown) => v === 'fail' || v === 'skip',
          },
        },
      },
    ],
    metric: { name: 'budget ratio', scale: 1, direction: 'lower', comparator: '<=' },
    example: "expect(run).toStayWithinBudget({ p95Ms: 2000, totalCost: 0.05, prices: { 'gpt-4o-mini': { inputPerMillion: 0.15, outputPerMillion: 0.6 } } })",
    failing: {
      received: [
        { id: 'q1', timing: { ms: 820 }, usage: { inputTokens: 1200, outputTokens: 150 }, model: 'small' },
        { id: 'q2', timing: { ms: 2400 }, usage: { inputTokens: 5400, outputTokens: 600 }, model: 'small' },
      ],
      args: [{ maxMs: 2000, tokensPerCase: 4000 }],
    },
    compute: toStayWithinBudget as never,
  }),
] as const
