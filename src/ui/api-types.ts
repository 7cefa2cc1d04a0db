/**
 * The JSON resources the history UI reads, one type per resource (see RESOURCE_PATTERN in keys.ts). The
 * server answers them at `/api/<name>`; a static export writes each as `data/<name>.js`. Numbers that are
 * not finite (a p-value that was not computed) are sent as null.
 */
import type { CaseRow, EvalSetSection, MetricRow, RagReport } from '../report/model.js'
import type { RunSummary } from '../history/store.js'
import type { Rubric } from './rubric.js'

export type { RunSummary } from '../history/store.js'
export type { CaseRow, EvalSetSection, MetricRow, RagReport } from '../report/model.js'

/** `index`: what the store holds, or why there is nothing to show. */
export interface UiIndex {
  /** `empty`: no store or no run yet (`message` says how to record one); `error`: the store cannot be read (`message` says why). */
  readonly state: 'ok' | 'empty' | 'error'
  readonly message?: string
  /** The store, for the page footer (a static export shows only the file name). */
  readonly store: string
  readonly runs: number
  readonly latest: string | null
  readonly pages: number
  readonly pageSize: number
  readonly sets: ReadonlyArray<{ readonly name: string; readonly key: string; readonly metrics: readonly string[] }>
  readonly branches: readonly string[]
  /** `static`: an export (no live updates, only the exported comparisons). */
  readonly mode: 'server' | 'static'
  /** Tolerance of the runs page's status words, as a fraction of each metric's full scale. */
  readonly tolerance: number
  /** Whether this server stores ratings (`rag-matchers ui --rate`); never in a static export. */
  readonly rating: boolean
}

/** `latest`: what the app polls while it is open (a few bytes). */
export interface UiLatest {
  readonly latest: string | null
  readonly runs: number
}

/** A metric's change since the previous run on the same branch that measured it. */
export interface MetricChange {
  readonly set: string
  readonly metric: string
  readonly value: number | null
  readonly decimals: number
  readonly pass: boolean
  readonly delta?: number
  /** `compare`'s status words, tolerance-only (no per-case test; the Compare page has the p-values). */
  readonly status?: string
  /** The run the change is measured from. */
  readonly since?: string
}

export interface UiRunRow {
  readonly run: RunSummary
  /** The previous run on the same branch, when there is one. */
  readonly previous?: string
  /**
   * The run its compare link takes: the previous run on its branch, else (the first run on a branch) the
   * newest `main`/`master` run before it, else the run before it; absent for the first run of all.
   */
  readonly compareWith?: string
  /** The branch of `compareWith`, when it is not this run's previous run (the link then says which branch it compares with). */
  readonly compareBranch?: string
  readonly changes: readonly MetricChange[]
}

/** `runs/<page>`: newest first. */
export interface UiRunsPage {
  readonly page: number
  readonly pages: number
  readonly total: number
  readonly runs: readonly UiRunRow[]
}

/** `runlist`: every run, newest first, as the compare page's pickers show it (a few facts each, not the runs pages). */
export interface UiRunList {
  readonly runs: ReadonlyArray<{
    readonly id: string
    readonly endedAt: string
    readonly branch?: string
    readonly commit?: string
    /** The run the compare page takes by default (UiRunRow.compareWith). */
    readonly compareWith?: string
  }>
}

/** A metric row as the run page shows it: without its per-case values (they are in the cases' columns). */
export interface UiRunMetric extends Omit<MetricRow, 'values' | 'failingCases'> {
  readonly failingCount: number
  /** A judge assertion of the row run with trials (its first, when several): what the run page's trials cell shows. */
  readonly trials?: UiTrials
}

/** The trials a judge assertion recorded (src/report/trials.ts), as the run page shows them. */
export interface UiTrials {
  readonly n: number
  readonly cases: number
  readonly passRate: number
  readonly flipRate: number
  readonly min: number
  readonly max: number
}

/** A case with its value in each column (the set's metric rows that have per-case values), in column order. */
export interface UiRunCase extends Omit<CaseRow, 'values'> {
  readonly values: readonly (number | null)[]
  readonly passes: readonly (boolean | null)[]
}

/**
 * An eval set of a run, compacted for the page: a set of 1,000 cases × 20 metrics is 30 MB as the report
 * holds it (each row's values and each case's values keyed by a long row key), about a tenth of that here.
 */
export interface UiRunSet extends Omit<EvalSetSection, 'metrics' | 'cases'> {
  readonly metrics: readonly UiRunMetric[]
  /** Keys of the metric rows with per-case values: the columns of `cases[].values`. */
  readonly columns: readonly string[]
  readonly cases: readonly UiRunCase[]
}

/** `run/<id>`: the recorded report, its eval sets compacted (UiRunSet), without the flat assertion list. */
export interface UiRun {
  readonly summary: RunSummary
  readonly previous?: string
  /** The run the Compare page takes by default: the previous run on its branch, else the newest main run before it. */
  readonly compareWith?: string
  readonly sets: readonly UiRunSet[]
  readonly singles: RagReport['singles']
}

/** One run of a set's series: what a point's tooltip and link need. */
export interface UiSeriesRun {
  readonly runId: string
  readonly endedAt: string
  readonly branch?: string
  readonly commit?: string
  /** The whole run's verdict. */
  readonly runPass: boolean
}

/** A chart point, as the app puts it together from the columns of UiSetSeries. */
export interface UiSeriesPoint extends UiSeriesRun {
  readonly value: number | null
  readonly threshold?: number
  readonly pass: boolean
  readonly delta?: number
  readonly status?: string
  /** The baseline mean the row was compared with, when there was one. */
  readonly baseline?: number
  /** The bootstrap interval band (UiMetricSeries.bandLow/bandHigh), when the run computed one. */
  readonly band?: readonly [number, number]
}

/** One metric across runs, in columns (a set's charts over 1,000 runs × 20 metrics are 20,000 points). */
export interface UiMetricSeries {
  readonly metric: string
  readonly direction: 'higher' | 'lower'
  readonly comparator: string
  readonly decimals: number
  /** Index into UiSetSeries.runs of each point. */
  readonly run: readonly number[]
  readonly value: readonly (number | null)[]
  readonly threshold: readonly (number | null)[]
  readonly pass: readonly (0 | 1)[]
  readonly delta: readonly (number | null)[]
  readonly status: readonly (string | null)[]
  readonly baseline: readonly (number | null)[]
  /**
   * The band: where the run's baseline assertion computed a bootstrap interval of the change (current −
   * baseline), that interval around the baseline mean, [baseline + low, baseline + high]; null elsewhere.
   */
  readonly bandLow: readonly (number | null)[]
  readonly bandHigh: readonly (number | null)[]
}

/** `set/<key>`: each metric of an eval set across runs, oldest first. */
export interface UiSetSeries {
  readonly set: string
  readonly key: string
  readonly runs: readonly UiSeriesRun[]
  readonly metrics: readonly UiMetricSeries[]
}

export interface UiCasePoint {
  readonly runId: string
  readonly endedAt: string
  readonly branch?: string
  readonly commit?: string
  readonly values: Readonly<Record<string, number | null>>
  readonly failing: readonly string[]
  readonly retrieved?: readonly string[]
  readonly relevant?: readonly string[]
  readonly answer?: string
  readonly question?: string
}

/** `case/<setKey>/<caseKey>`: one case across runs, oldest first. */
export interface UiCaseSeries {
  readonly set: string
  readonly caseId: string
  readonly metrics: readonly string[]
  readonly points: readonly UiCasePoint[]
}

export interface UiCompareMetric {
  readonly metric: string
  readonly status: string
  readonly failed: boolean
  readonly baseMean: number | null
  readonly nextMean: number | null
  readonly delta: number | null
  readonly ci: readonly [number | null, number | null]
  readonly pValue: number | null
  readonly n: number
  readonly decimals: number
  readonly regressedCases: number
}

/** A case whose value moved beyond the tolerance, with what each run retrieved and answered. */
export interface UiCaseChange {
  readonly set: string
  readonly metric: string
  readonly id: string
  readonly base: number
  readonly next: number
  readonly delta: number
  readonly decimals: number
  readonly baseCase?: Pick<CaseRow, 'question' | 'answer' | 'retrieved' | 'relevant'>
  readonly nextCase?: Pick<CaseRow, 'question' | 'answer' | 'retrieved' | 'relevant'>
}

export interface UiCompareSet {
  readonly name: string
  readonly failed: boolean
  readonly metrics: readonly UiCompareMetric[]
  readonly unpaired: ReadonlyArray<{ readonly metric: string; readonly base: number | null; readonly next: number | null; readonly why: string; readonly decimals: number }>
  readonly regressed: readonly UiCaseChange[]
  readonly improved: readonly UiCaseChange[]
  /** More cases moved than are listed (the lists are cut at CASE_CHANGE_LIMIT per set). */
  readonly cut: boolean
}

/** `compare/<baseId>/<nextId>`: `rag-matchers compare`'s comparison of two runs (paired test, status words). */
export interface UiCompare {
  readonly base: RunSummary
  readonly next: RunSummary
  readonly sets: readonly UiCompareSet[]
  readonly onlyInBase: readonly string[]
  readonly onlyInNew: readonly string[]
  readonly notComparable: readonly string[]
  readonly failed: boolean
  readonly test: string
  readonly alpha: number
}

/** A case as the rate view shows it: what was asked, retrieved (ids; the relevant ones marked) and answered. */
export interface UiRateCase {
  readonly id: string
  readonly question?: string
  readonly answer?: string
  readonly reference?: string
  readonly retrieved?: readonly string[]
  readonly relevant?: readonly string[]
}

/** `rate/<runId>/<setKey>`: one eval set of one run to rate, with the rubric the server was given (`--rubric`). */
export interface UiRate {
  readonly run: { readonly id: string; readonly endedAt: string; readonly branch?: string; readonly commit?: string }
  readonly set: string
  readonly setKey: string
  readonly cases: readonly UiRateCase[]
  readonly rubric: Rubric
  /** The eval sets of the run (for the set picker). */
  readonly sets: readonly string[]
}

/** A statistic that may be undefined for the ratings so far: null with the reason, never NaN. */
export interface UiStatistic {
  readonly value: number | null
  readonly reason?: string
}

/** Agreement on one dimension (or the pairwise `preference`), recomputed on every read. */
export interface UiDimensionAgreement {
  readonly dimension: string
  readonly raters: readonly string[]
  /** Cases with at least one rating on the dimension. */
  readonly items: number
  readonly ratings: number
  /** Why there is no inter-rater statistic yet (fewer than two raters). */
  readonly message?: string
  /** Cohen's kappa of each pair of raters (unweighted, over the cases both rated): the statistic for two raters. */
  readonly cohen?: ReadonlyArray<UiStatistic & { readonly raters: readonly [string, string]; readonly items: number }>
  /** Fleiss' kappa over the cases every rater rated, and Krippendorff's alpha over all ratings: shown for three raters or more. */
  readonly fleiss?: UiStatistic & { readonly items: number }
  readonly krippendorff?: UiStatistic & { readonly level: string }
  /** The run's judge against the raters, where the rubric names the judge's metric row (`judge`). */
  readonly judge?: {
    readonly metric: string
    readonly message?: string
    readonly n?: number
    /** Cohen's kappa of the judge against each case's consensus (linear weights on 1–5), as `rag-matchers align`. */
    readonly kappa?: UiStatistic
    readonly spearman?: UiStatistic
  }
}

/** One stored rating as the rate view reads it. */
export interface UiRating {
  readonly caseId: string
  readonly rater: string
  readonly dimension: string
  readonly score?: number
  readonly choice?: string
  readonly shownFirst?: string
  readonly ratedAt: string
}

/** `ratings/<runId>/<setKey>` (direct) or `ratings/<runId>/<setKey>/<otherId>` (pairwise): what is rated so far and the agreement. */
export interface UiRatings {
  readonly ratings: readonly UiRating[]
  readonly agreement: readonly UiDimensionAgreement[]
}
