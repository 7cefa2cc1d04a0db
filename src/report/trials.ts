/**
 * Trials in the reports (issue #30): a judge assertion run with trials records `meta.extra.trials`
 * (matchers/judge-trials.ts: n, mean, min, max, pass rate, flip rate, the cases that flipped, Fleiss'
 * kappa over verdicts and Krippendorff's alpha over scores). The terminal table, rag-report.md and
 * rag-report.html show one line per such assertion, from this one function; rag-report.json (and so the
 * history store) keeps the record itself.
 */
import { formatNumber } from '../text/format.js'
import type { ReportAssertion } from './model.js'

/** The trials an assertion recorded, when its `extra.trials` is sound (finite numbers where numbers belong). */
export interface RecordedTrials {
  readonly n: number
  readonly cases: number
  readonly mean: number
  readonly min: number
  readonly max: number
  readonly passRate: number
  readonly flipRate: number
  readonly flipped: readonly string[]
  /** null when undefined for the data (the record then gives the reason). */
  readonly fleissKappa: number | null
  readonly krippendorffAlpha: number | null
  readonly minPassRate?: number
  readonly maxFlipRate?: number
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
const statistic = (v: unknown): number | null | undefined => {
  const value = v !== null && typeof v === 'object' ? (v as { value?: unknown }).value : undefined
  return value === null ? null : finite(value) ? value : undefined
}

/** The `extra.trials` of an assertion, or undefined when it has none (or a hand-edited one that is not sound). */
export function recordedTrials(a: Pick<ReportAssertion, 'extra'>): RecordedTrials | undefined {
  const t = a.extra?.trials as Record<string, unknown> | undefined
  if (t === null || typeof t !== 'object') return undefined
  const numbers = [t.n, t.cases, t.mean, t.min, t.max, t.passRate, t.flipRate]
  if (!numbers.every(finite)) return undefined
  const kappa = statistic(t.fleissKappa)
  const alpha = statistic(t.krippendorffAlpha)
  if (kappa === undefined || alpha === undefined) return undefined
  return {
    n: t.n as number,
    cases: t.cases as number,
    mean: t.mean as number,
    min: t.min as number,
    max: t.max as number,
    passRate: t.passRate as number,
    flipRate: t.flipRate as number,
    flipped: Array.isArray(t.flipped) ? t.flipped.filter((x): x is string => typeof x === 'string') : [],
    fleissKappa: kappa,
    krippendorffAlpha: alpha,
    ...(finite(t.minPassRate) ? { minPassRate: t.minPassRate } : {}),
    ...(finite(t.maxFlipRate) ? { maxFlipRate: t.maxFlipRate } : {}),
  }
}

const f = (x: number) => formatNumber(x, undefined, 2)
const stat = (x: number | null) => (x === null ? 'n/a' : f(x))

/**
 * One line per assertion with trials, in the order given: `groundedness: 5 trials × 8 cases · mean 0.82
 * (min 0.75, max 0.88) · pass rate 0.80 · flip rate 0.25 (q2, q5) · self-consistency κ 0.61, α 0.72`.
 * Plain text (the caller escapes it for its medium).
 */
export function trialLines(assertions: readonly ReportAssertion[]): string[] {
  const out: string[] = []
  for (const a of assertions) {
    const t = recordedTrials(a)
    if (t === undefined) continue
    const flipped =
      t.flipped.length === 0 ? '' : ` (${t.flipped.slice(0, 5).join(', ')}${t.flipped.length > 5 || t.flipped.length < Math.round(t.flipRate * t.cases) ? ', …' : ''})`
    const gates = [t.minPassRate === undefined ? '' : `min pass rate ${f(t.minPassRate)}`, t.maxFlipRate === undefined ? '' : `max flip rate ${f(t.maxFlipRate)}`].filter(
      Boolean,
    )
    out.push(
      `${a.metric.replace(/\s+over\s+\d+\s+cases?$/, '')}${a.isNot ? ' (.not)' : ''}: ${t.n} ${t.n === 1 ? 'trial' : 'trials'} × ${t.cases} ${t.cases === 1 ? 'case' : 'cases'}` +
        ` · mean ${f(t.mean)} (min ${f(t.min)}, max ${f(t.max)}) · pass rate ${f(t.passRate)} · flip rate ${f(t.flipRate)}${flipped}` +
        ` · self-consistency κ ${stat(t.fleissKappa)}, α ${stat(t.krippendorffAlpha)}${gates.length === 0 ? '' : ` · ${gates.join(', ')}`}`,
    )
  }
  return out
}
