import {
  aggregateRatings,
  cohenKappa,
  cohenKappaTable,
  fleissKappa,
  formatKappaSummary,
  kendallTau,
  krippendorffAlpha,
  pearson,
  spearman,
  wilsonInterval,
  winRate,
  type KrippendorffLevel,
} from '../../src/agreement/index.js'
import { MetricInputError } from '../../src/errors.js'
import { loadFixture } from './fixtures/load.js'

/*
 * Parity with shared/golden/public/agreement.json (scikit-learn 1.2.1, statsmodels 0.13.5, scipy 1.10.1,
 * fast-krippendorff 0.8.3.dev0), copied to fixtures/agreement.json.
 *
 * Rules:
 * - statistics (kappas, alpha, correlation coefficients, win rates, Wilson bounds): |ours − ref| ≤ 1e-12·max(1, |ref|)
 *   (absolute for |ref| ≤ 1 — every statistic here — relative above);
 * - p-values: |ours − ref| ≤ 1e-9 absolute; in addition relative error ≤ 1e-9 wherever the p-value is
 *   well conditioned, i.e. unless the reference coefficient lies within 4 ulps of ±1 (there a last-bit
 *   difference in r moves p from 1e-62 to 0);
 * - a NaN reference needs a NaN from us and a `reason` in details;
 * - where the reference raised, we must throw a MetricInputError with the same meaning.
 */

type Num = number | 'NaN' | 'Infinity' | '-Infinity'
interface Result {
  value?: Num
  error?: string
  warnings?: string[]
}
interface CohenCase {
  id: string
  kind: 'cohen_kappa'
  rater1: (string | number)[]
  rater2: (string | number)[]
  labels?: (string | number)[]
  unweighted: Result
  linear: Result
  quadratic: Result
  crosscheck_statsmodels_cohens_kappa: { unweighted: Result; linear: Result; quadratic: Result }
}
interface FleissCase {
  id: string
  kind: 'fleiss_kappa'
  table_items_x_categories: number[][]
  ratings_items_x_raters?: (string | number)[][]
  aggregate_raters?: { table: number[][]; categories: (string | number)[] }
  fleiss: Result
  randolph: Result
}
interface KrippCase {
  id: string
  kind: 'krippendorff_alpha'
  reliability_data_raters_x_units: (number | string | null)[][]
  value_domain?: (number | string)[]
  nominal: Result
  ordinal: Result
  interval: Result
  ratio: Result
  crosscheck_grrrr: Partial<Record<KrippendorffLevel, Result>>
}
interface CorrResult {
  statistic: Num
  pvalue: Num
  warnings?: string[]
}
interface CorrCase {
  id: string
  kind: 'correlation'
  x: number[]
  y: number[]
  spearman: CorrResult
  kendall_tau_b: CorrResult
  pearson: CorrResult
}
interface Bounds {
  low: Num
  high: Num
}
interface WinCase {
  id: string
  kind: 'pairwise_win_rate'
  wins: number
  losses: number
  ties: number
  n: number
  win_rate_excluding_ties: Num
  win_rate_ties_half: Num
  wilson: Record<'0.05' | '0.1', { excluding_ties: Bounds; ties_half: Bounds; crosscheck_scipy_excluding_ties?: Bounds; z: number }>
}
type Case = CohenCase | FleissCase | KrippCase | CorrCase | WinCase

const golden = loadFixture<{ cases: Case[] }>('agreement.json')
const cases = golden.cases
const STAT_TOL = 1e-12
const P_TOL = 1e-9
const ULP_BELOW_ONE = 2 ** -53

function num(v: Num): number {
  return typeof v === 'number' ? v : Number(v)
}

function expectStat(got: number, want: Num, label: string): void {
  const w = num(want)
  if (Number.isNaN(w)) {
    expect(got, `${label}: want NaN`).toBeNaN()
    return
  }
  expect(Math.abs(got - w), `${label}: got ${got}, want ${w}`).toBeLessThanOrEqual(STAT_TOL * Math.max(1, Math.abs(w)))
}

function expectPvalue(got: number, want: Num, statistic: Num, label: string): void {
  const w = num(want)
  if (Number.isNaN(w)) {
    expect(got, `${label}: want NaN`).toBeNaN()
    return
  }
  expect(Math.abs(got - w), `${label}: got ${got}, want ${w}`).toBeLessThanOrEqual(P_TOL)
  const s = Math.abs(num(statistic))
  if (w > 0 && 1 - s > 4 * ULP_BELOW_ONE) {
    expect(Math.abs(got - w) / w, `${label} (relative): got ${got}, want ${w}`).toBeLessThanOrEqual(P_TOL)
  }
}

function expectReasonWhenNaN(value: number, details: { reason?: string }): void {
  if (Number.isNaN(value)) expect(details.reason, 'a NaN value carries a reason').toMatch(/\S/)
}

const byKind = <K extends Case['kind']>(kind: K) => cases.filter((c): c is Extract<Case, { kind: K }> => c.kind === kind)

describe('agreement golden file', () => {
  it('has the 112 public cases of the five kinds', () => {
    expect(cases).toHaveLength(112)
    expect(byKind('cohen_kappa')).toHaveLength(31)
    expect(byKind('fleiss_kappa')).toHaveLength(19)
    expect(byKind('krippendorff_alpha')).toHaveLength(22)
    expect(byKind('correlation')).toHaveLength(22)
    expect(byKind('pairwise_win_rate')).toHaveLength(18)
  })
})

describe("Cohen's kappa = scikit-learn 1.2.1 cohen_kappa_score (statsmodels cohens_kappa cross-check)", () => {
  const weightings = [
    ['unweighted', undefined],
    ['linear', 'linear'],
    ['quadratic', 'quadratic'],
  ] as const
  it.each(byKind('cohen_kappa').map((c) => [c.id, c] as const))('%s', (_id, c) => {
    for (const [key, weights] of weightings) {
      const score = cohenKappa(c.rater1, c.rater2, { weights, ...(c.labels ? { labels: c.labels } : {}) })
      expectStat(score.value, c[key].value as Num, `${key}`)
      expectReasonWhenNaN(score.value, score.details)
      // statsmodels on the same contingency table (weights over label indices, as scikit-learn)
      const table = cohenKappaTable(score.details.confusionMatrix, weights === undefined ? {} : { wt: weights })
      expectStat(table.value, c.crosscheck_statsmodels_cohens_kappa[key].value as Num, `${key} (statsmodels)`)
      expectReasonWhenNaN(table.value, table.details)
    }
  })
})

describe("Fleiss' and Randolph's kappa = statsmodels 0.13.5 fleiss_kappa", () => {
  it.each(byKind('fleiss_kappa').map((c) => [c.id, c] as const))('%s', (_id, c) => {
    for (const method of ['fleiss', 'randolph'] as const) {
      const fromTable = fleissKappa(c.table_items_x_categories, { method })
      expectStat(fromTable.value, c[method].value as Num, `${method} (table)`)
      expectReasonWhenNaN(fromTable.value, fromTable.details)
      if (c.ratings_items_x_raters) {
        const fromRatings = fleissKappa(c.ratings_items_x_raters, { method, input: 'ratings' })
        expectStat(fromRatings.value, c[method].value as Num, `${method} (ratings)`)
        expectReasonWhenNaN(fromRatings.value, fromRatings.details)
      }
    }
    if (c.ratings_items_x_raters && c.aggregate_raters) {
      const agg = aggregateRatings(c.ratings_items_x_raters)
      expect(agg.table).toEqual(c.aggregate_raters.table)
      expect(agg.categories).toEqual(c.aggregate_raters.categories)
    }
  })
})

describe("Krippendorff's alpha = fast-krippendorff (grrrr cross-check)", () => {
  const levels: KrippendorffLevel[] = ['nominal', 'ordinal', 'interval', 'ratio']
  it.each(byKind('krippendorff_alpha').map((c) => [c.id, c] as const))('%s', (_id, c) => {
    for (const level of levels) {
      const run = () => krippendorffAlpha(c.reliability_data_raters_x_units, { level, ...(c.value_domain ? { valueDomain: c.value_domain } : {}) })
      const ref = c[level]
      if (ref.error !== undefined) {
        expect(run, `${level}: the reference raised ${ref.error}`).toThrow(MetricInputError)
        const meaning = /more than one value in the domain/.test(ref.error) ? /more than one value in the domain/ : /at least two coders/
        expect(run).toThrow(meaning)
        continue
      }
      const score = run()
      expectStat(score.value, ref.value as Num, level)
      expectReasonWhenNaN(score.value, score.details)
      const grrrr = c.crosscheck_grrrr[level]
      if (grrrr?.value !== undefined) expectStat(score.value, grrrr.value, `${level} (grrrr)`)
    }
  })
})

describe('correlations = scipy 1.10.1 spearmanr, kendalltau (tau-b, auto), pearsonr', () => {
  it.each(byKind('correlation').map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const runs = [
      ['spearman', spearman(c.x, c.y), c.spearman],
      ['kendall_tau_b', kendallTau(c.x, c.y), c.kendall_tau_b],
      ['pearson', pearson(c.x, c.y), c.pearson],
    ] as const
    for (const [name, score, ref] of runs) {
      expectStat(score.value, ref.statistic, `${name} statistic`)
      expect(score.details.statistic).toBe(score.value)
      expectPvalue(score.details.pvalue, ref.pvalue, ref.statistic, `${name} p-value`)
      expectReasonWhenNaN(score.value, score.details)
      expectReasonWhenNaN(score.details.pvalue, score.details)
      expect(score.details.n).toBe(c.x.length)
    }
  })
})

describe('win rates and Wilson intervals = statsmodels 0.13.5 proportion_confint(method="wilson")', () => {
  const levels = [
    ['0.05', 0.95, 0.05],
    ['0.1', 0.9, 0.1],
  ] as const
  it.each(byKind('pairwise_win_rate').map((c) => [c.id, c] as const))('%s', (_id, c) => {
    expect(c.wins + c.losses + c.ties).toBe(c.n)
    for (const [key, confidence, alpha] of levels) {
      const ref = c.wilson[key]
      for (const [ties, rate, bounds] of [
        ['exclude', c.win_rate_excluding_ties, ref.excluding_ties],
        ['half', c.win_rate_ties_half, ref.ties_half],
      ] as const) {
        const score = winRate({ wins: c.wins, losses: c.losses, ties: c.ties }, { ties, confidence })
        expectStat(score.value, rate, `${ties} rate`)
        expectStat(score.details.low, bounds.low, `${ties} low @${key}`)
        expectStat(score.details.high, bounds.high, `${ties} high @${key}`)
        expectReasonWhenNaN(score.value, score.details)
        // z = norm.isf(alpha/2): equal to within 2 ulps
        expect(Math.abs(score.details.z - ref.z)).toBeLessThanOrEqual(4.5e-16)
      }
      // the interval function on its own, with the reference's alpha
      const direct = wilsonInterval(c.wins, c.wins + c.losses, alpha)
      expectStat(direct.low, ref.excluding_ties.low, `wilsonInterval low @${key}`)
      expectStat(direct.high, ref.excluding_ties.high, `wilsonInterval high @${key}`)
      if (ref.crosscheck_scipy_excluding_ties) {
        expectStat(direct.low, ref.crosscheck_scipy_excluding_ties.low, `scipy low @${key}`)
        expectStat(direct.high, ref.crosscheck_scipy_excluding_ties.high, `scipy high @${key}`)
      }
    }
  })
})

// ---------------------------------------------------------------------------------------------------------
// The peers' own test vectors (shared/peers/agreement.json → fixtures/agreement-peers.json): each case is
// checked with the peer's own assertion on `expected`, and against the peer's full-precision `actual`
// to 1e-12.

interface SklearnCase {
  id: string
  y1: number[]
  y2: number[]
  call: string
  labels?: number[]
  weights?: 'linear' | 'quadratic' | null
  expected: number | string
  assertion: string
  actual: number
}
interface FleissPeerCase {
  id: string
  table: number[][]
  method: string
  ratings?: number[][]
  categories?: number[]
  expected: number
  assertion: string
  actual: number
}
interface CohensPeerCase {
  id: string
  table: number[][]
  weights: number[] | null
  wt: 'linear' | 'quadratic' | 'toeplitz' | null
  fields?: string[]
  expected: number[] | Record<string, number>
  assertion: string
  expected_text?: string
  actual: number[] | Record<string, number>
  actual_text?: string
}
interface Peers {
  sklearn_cohen_kappa: SklearnCase[]
  statsmodels_fleiss_kappa: FleissPeerCase[]
  statsmodels_aggregate_raters: { call: string; expected: number[]; actual: number[] }
  statsmodels_cohens_kappa: CohensPeerCase[]
  statsmodels_cohens_kappa_weight_equivalences: {
    table: number[][]
    table_agg: number[][]
    pairs: Array<{ equivalence: string; kappa: [number, number]; var_kappa: [number, number] }>
  }
}

const peers = loadFixture<Peers>('agreement-peers.json')

/** numpy `assert_almost_equal(actual, desired, decimal)`: |desired − actual| < 1.5·10^−decimal. */
function almostEqual(actual: number, desired: number, decimal: number): boolean {
  return Math.abs(desired - actual) < 1.5 * 10 ** -decimal
}

/** numpy `assert_allclose(actual, desired, rtol, atol)`: |actual − desired| ≤ atol + rtol·|desired|. */
function allClose(actual: number, desired: number, atol: number, rtol = 1e-7): boolean {
  return Math.abs(actual - desired) <= atol + rtol * Math.abs(desired)
}

function expectActual(got: number, actual: number, label: string): void {
  expect(Math.abs(got - actual), `${label}: got ${got}, peer's actual ${actual}`).toBeLessThanOrEqual(STAT_TOL * Math.max(1, Math.abs(actual)))
}

describe('scikit-learn test_cohen_kappa vectors', () => {
  const table1 = peers.sklearn_cohen_kappa.find((c) => c.id.includes('Table 1'))!
  it('has the 8 cases', () => expect(peers.sklearn_cohen_kappa).toHaveLength(8))
  it.each(peers.sklearn_cohen_kappa.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const options = { ...(c.labels ? { labels: c.labels } : {}), ...(c.weights ? { weights: c.weights } : {}) }
    const second = /cohen_kappa_score\(y1, y1/.test(c.call) ? c.y1 : c.y2
    const got = cohenKappa(c.y1, second, options).value
    expectActual(got, c.actual, 'value')
    // kappa is symmetric in the raters: both argument orders give the same double
    expect(cohenKappa(second, c.y1, options).value).toBe(got)
    if (typeof c.expected === 'number') {
      const decimal = Number(/decimal=(\d+)/.exec(c.assertion)?.[1] ?? 7)
      expect(almostEqual(got, c.expected, decimal), `${c.assertion}: got ${got}`).toBe(true)
    } else {
      // "equal to <Table 1>.actual (exact)"
      expect(c.expected).toContain(table1.id)
      expect(got).toBe(cohenKappa(table1.y1, table1.y2).value)
    }
  })
})

describe('statsmodels test_inter_rater vectors: fleiss_kappa', () => {
  it('has the 11 cases', () => expect(peers.statsmodels_fleiss_kappa).toHaveLength(11))
  it.each(peers.statsmodels_fleiss_kappa.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    // statsmodels reads the method by prefix: 'rand…' and 'unif…' are Randolph's kappa
    const method = c.method.startsWith('rand') || c.method.startsWith('unif') ? 'randolph' : 'fleiss'
    const got = fleissKappa(c.table, { method }).value
    expectActual(got, c.actual, 'value')
    const a = c.assertion
    let ok: boolean
    if (a.startsWith('actual == expected')) ok = got === c.expected
    else if (a.includes('decimal=')) ok = almostEqual(got, c.expected, Number(/decimal=(\d+)/.exec(a)![1]))
    else if (a.includes('atol=')) ok = allClose(got, c.expected, Number(/atol=([\d.e-]+)/.exec(a)![1]))
    else if (a.includes('rtol=1e-7')) ok = allClose(got, c.expected, 0)
    else throw new Error(`unknown assertion ${a}`)
    expect(ok, `${a}: got ${got}, expected ${c.expected}`).toBe(true)
    if (c.ratings) {
      const fromRatings = fleissKappa(c.ratings, { method, input: 'ratings' })
      expect(fromRatings.value).toBe(got)
      expect(fromRatings.details.categories).toEqual(c.categories)
    }
  })
  it('test_aggregate_raters: category totals of the Fleiss (1971) diagnoses', () => {
    const irr = peers.statsmodels_fleiss_kappa.find((c) => c.ratings)!
    const agg = aggregateRatings(irr.ratings!)
    const totals = agg.categories.map((_, j) => agg.table.reduce((s, row) => s + row[j]!, 0))
    expect(totals).toEqual(peers.statsmodels_aggregate_raters.expected)
    expect(totals).toEqual(peers.statsmodels_aggregate_raters.actual)
  })
})

describe('statsmodels test_inter_rater vectors: cohens_kappa (SAS PROC FREQ and R irr printouts)', () => {
  const FIELD: Record<string, 'kappa' | 'stdKappa' | 'kappaLow' | 'kappaUpp' | 'stdKappa0' | 'zValue' | 'pvalueOneSided' | 'pvalueTwoSided'> = {
    kappa: 'kappa',
    std_kappa: 'stdKappa',
    kappa_low: 'kappaLow',
    kappa_upp: 'kappaUpp',
    std_kappa0: 'stdKappa0',
    z_value: 'zValue',
    pvalue_one_sided: 'pvalueOneSided',
    pvalue_two_sided: 'pvalueTwoSided',
  }
  it('has the 10 cases', () => expect(peers.statsmodels_cohens_kappa).toHaveLength(10))
  it.each(peers.statsmodels_cohens_kappa.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const score = cohenKappaTable(c.table, { ...(c.weights ? { weights: c.weights } : {}), ...(c.wt ? { wt: c.wt } : {}) })
    const d = score.details
    if (Array.isArray(c.expected)) {
      // SAS: every field to 4 decimals, and the printed summary
      c.fields!.forEach((field, i) => {
        const got = d[FIELD[field]!]
        expectActual(got, (c.actual as number[])[i]!, field)
        expect(almostEqual(got, (c.expected as number[])[i]!, 4), `${field}: got ${got}, SAS ${(c.expected as number[])[i]}`).toBe(true)
      })
      expect(formatKappaSummary(d)).toBe(c.expected_text)
      expect(formatKappaSummary(d)).toBe(c.actual_text)
    } else {
      const expected = c.expected
      const actual = c.actual as Record<string, number>
      const decimals: Record<string, number> = { kappa: 6, z_value: 5, pvalue_two_sided: 6 }
      for (const field of Object.keys(expected)) {
        const got = d[FIELD[field]!]
        expectActual(got, actual[field]!, field)
        expect(almostEqual(got, expected[field]!, decimals[field]!), `${field}: got ${got}, R irr ${expected[field]}`).toBe(true)
      }
    }
  })

  it('test_cohenskappa_weights: equivalent weightings agree to 14 decimals', () => {
    const { table, table_agg: tableAgg, pairs } = peers.statsmodels_cohens_kappa_weight_equivalences
    const linear = cohenKappaTable(table, { weights: [0, 2, 4, 6, 8], wt: 'linear' })
    const runs: Array<[ReturnType<typeof cohenKappaTable>, ReturnType<typeof cohenKappaTable>]> = [
      // weights = arange(5) > 2 (booleans as 0/1) vs the table aggregated into two levels
      [cohenKappaTable(table, { weights: [0, 0, 0, 1, 1], wt: 'linear' }), cohenKappaTable(tableAgg, { weights: [0, 1], wt: 'linear' })],
      [linear, cohenKappaTable(table, { weights: [0, 2, 4, 6, 8], wt: 'toeplitz' })],
      [linear, cohenKappaTable(table, { weights: linear.details.weightMatrix![0]!, wt: 'toeplitz' })],
      [linear, cohenKappaTable(table, { weights: linear.details.weightMatrix! })],
      [cohenKappaTable(table, { weights: [0, 5, 20, 45, 80], wt: 'toeplitz' }), cohenKappaTable(table, { weights: [0, 5, 10, 15, 20], wt: 'quadratic' })],
    ]
    expect(pairs).toHaveLength(runs.length)
    runs.forEach(([a, b], i) => {
      const pair = pairs[i]!
      expect(almostEqual(a.details.kappa, b.details.kappa, 14), pair.equivalence).toBe(true)
      expect(almostEqual(a.details.varKappa, b.details.varKappa, 14), pair.equivalence).toBe(true)
      expectActual(a.details.kappa, pair.kappa[0], `${pair.equivalence} kappa[0]`)
      expectActual(b.details.kappa, pair.kappa[1], `${pair.equivalence} kappa[1]`)
      expectActual(a.details.varKappa, pair.var_kappa[0], `${pair.equivalence} var_kappa[0]`)
      expectActual(b.details.varKappa, pair.var_kappa[1], `${pair.equivalence} var_kappa[1]`)
    })
  })
})
