/**
 * The rate view's server side (`rag-matchers ui --rate`): the cases of a run's eval set to rate, the
 * ratings so far with inter-rater and judge-vs-human agreement (computed by the agreement core, the same
 * functions `loadRatings` + `agreementReport` and `rag-matchers align` use, so the page and an export read
 * back agree to the last digit), the one write (a rating, checked strictly against the run and the
 * rubric), and the JSONL export.
 *
 * The store is written through its own handle, opened for writing only here: everything else the UI
 * reads goes through UiResources' read-only handle.
 */
import { agreementReport, type DimensionReport, type ReportStatistic } from '../agreement/report.js'
import { HumanAlignmentInputError, humanAlignment } from '../agreement/human-alignment.js'
import type { HistoryStore } from '../history/store.js'
import { HistoryError } from '../history/errors.js'
import { PAIRWISE_DIMENSION, ratingsJsonl, readRatings, saveRating, type RatingInput, type StoredRating } from '../history/ratings.js'
import type { EvalSetSection, RagReport } from '../report/model.js'
import type { UiDimensionAgreement, UiRate, UiRateCase, UiRatings, UiStatistic } from './api-types.js'
import { keyOf } from './keys.js'
import { onScale, type Rubric, type RubricDimension } from './rubric.js'

/** A rating request the server refuses (400): the message says what is wrong. */
export class RatingInputError extends Error {}

/** A run, set or other run the request names that does not exist (404). */
export class RatingNotFound extends Error {}

const MAX_RATER = 80
const RUN_ID = /^[0-9a-f]{1,64}$/
const SCORE_KEYS = ['kind', 'run', 'set', 'case', 'rater', 'dimension', 'score']
const PAIRWISE_KEYS = ['kind', 'run', 'set', 'case', 'rater', 'other', 'winner', 'shownFirst']

const stat = (s: ReportStatistic | undefined): UiStatistic =>
  s === undefined
    ? { value: null, reason: 'not computed' }
    : Number.isFinite(s.value)
      ? { value: s.value }
      : { value: null, reason: s.reason ?? 'undefined for these ratings' }

export interface RatingDeskOptions {
  readonly rubric: Rubric
  /** The store opened for writing (ratings only). */
  readonly writer: () => Promise<HistoryStore>
}

export class RatingDesk {
  /** Reports read once per run id: a stored run never changes. */
  private readonly reports = new Map<string, Promise<RagReport>>()

  constructor(private readonly options: RatingDeskOptions) {}

  get rubric(): Rubric {
    return this.options.rubric
  }

  private async report(id: string): Promise<RagReport> {
    let p = this.reports.get(id)
    if (!p) {
      p = (async () => {
        const store = await this.options.writer()
        let full: string
        try {
          full = await store.resolveRef(id)
        } catch (error) {
          if (error instanceof HistoryError) throw new RatingNotFound(`no run ${id} in the history`)
          throw error
        }
        if (full !== id) throw new RatingNotFound(`no run ${id} in the history (give its whole id, ${full})`)
        return store.readRun(id)
      })()
      this.reports.set(id, p)
      p.catch(() => this.reports.delete(id))
    }
    return p
  }

  private async setOf(runId: string, match: (s: EvalSetSection) => boolean, what: string): Promise<EvalSetSection> {
    if (!RUN_ID.test(runId)) throw new RatingNotFound(`no run ${JSON.stringify(runId)} in the history`)
    const report = await this.report(runId)
    const set = report.evalSets.find(match)
    if (!set) throw new RatingNotFound(`run ${runId} has no eval set ${what} (it has ${report.evalSets.map((s) => JSON.stringify(s.name)).join(', ') || 'none'})`)
    return set
  }

  /** `rate/<runId>/<setKey>`: the set's cases and the rubric. */
  async rate(runId: string, setKey: string): Promise<UiRate> {
    const set = await this.setOf(runId, (s) => keyOf(s.name) === setKey, `with key ${setKey}`)
    const report = await this.report(runId)
    const store = await this.options.writer()
    const summary = await store.runSummary(runId)
    const cases: UiRateCase[] = set.cases.map((c) => ({
      id: c.id,
      ...(c.question !== undefined ? { question: c.question } : {}),
      ...(c.answer !== undefined ? { answer: c.answer } : {}),
      ...(c.reference !== undefined ? { reference: c.reference } : {}),
      ...(c.retrieved !== undefined ? { retrieved: c.retrieved } : {}),
      ...(c.relevant !== undefined ? { relevant: c.relevant } : {}),
    }))
    const branch = summary.git?.branch ?? summary.ci?.ref
    return {
      run: {
        id: summary.id,
        endedAt: summary.endedAt,
        ...(branch !== undefined ? { branch } : {}),
        ...(summary.git?.commit !== undefined ? { commit: summary.git.commit } : {}),
      },
      set: set.name,
      setKey,
      cases,
      rubric: this.rubric,
      sets: report.evalSets.map((s) => s.name),
    }
  }

  /** `ratings/<runId>/<setKey>[/<otherId>]`: the ratings so far and the agreement. */
  async ratings(runId: string, setKey: string, otherId?: string): Promise<UiRatings> {
    const set = await this.setOf(runId, (s) => keyOf(s.name) === setKey, `with key ${setKey}`)
    if (otherId !== undefined) await this.setOf(otherId, (s) => s.name === set.name, JSON.stringify(set.name))
    const stored = await readRatings(await this.options.writer(), { runId, set: set.name, ...(otherId !== undefined ? { otherRunId: otherId } : {}) })
    const dims: Array<{ name: string; dimension?: RubricDimension }> =
      otherId !== undefined ? [{ name: PAIRWISE_DIMENSION }] : this.rubric.dimensions.map((d) => ({ name: d.name, dimension: d }))
    return {
      ratings: stored.map(({ runId: _r, set: _s, otherRunId: _o, ...r }) => r),
      agreement: dims.map((d) => this.agreement(d.name, stored, set, d.dimension)),
    }
  }

  /** Inter-rater agreement on one dimension, and the judge against the raters when the rubric names the judge's metric. */
  private agreement(name: string, stored: readonly StoredRating[], set: EvalSetSection, dimension: RubricDimension | undefined): UiDimensionAgreement {
    const mine = stored.filter((r) => r.dimension === name)
    const labels = mine.map((r) => ({ item: r.caseId, rater: r.rater, dimension: name, score: (r.score ?? r.choice) as number | string }))
    const raters = [...new Set(mine.map((r) => r.rater))].sort()
    const base = { dimension: name, raters, items: new Set(mine.map((r) => r.caseId)).size, ratings: mine.length }
    const judge = dimension?.judge !== undefined ? this.judgeAgreement(dimension, labels, set) : undefined
    const withJudge = judge !== undefined ? { judge } : {}
    if (raters.length < 2) {
      const so = raters.length === 0 ? 'no ratings yet' : `only ${raters[0]} so far`
      return { ...base, message: `inter-rater agreement needs at least two raters (${so})`, ...withJudge }
    }
    const report: DimensionReport | undefined = agreementReport(labels, dimension?.scale === '1-5' ? { level: 'ordinal' } : { level: 'nominal' }).details.dimensions[0]
    const cohen = (report?.pairwiseKappa ?? []).map((p) => ({ ...stat(p), raters: p.raters, items: p.items }))
    if (raters.length === 2) return { ...base, cohen, ...withJudge }
    return {
      ...base,
      cohen,
      fleiss: { ...stat(report?.fleissKappa), items: report?.fleissKappa.items ?? 0 },
      krippendorff: { ...stat(report?.krippendorffAlpha), level: report?.level ?? 'nominal' },
      ...withJudge,
    }
  }

  /**
   * The judge's verdict per case from the run's metric row named by the rubric: on a 1–5 dimension a
   * rubric score recorded as 0–1 is mapped back to 1 + 4·value (how toSatisfyRubric normalises), a value
   * already on 1–5 is kept; on pass/fail the case's pass flag in that row. Any other scale is a message.
   */
  private judgeAgreement(d: RubricDimension, labels: ReadonlyArray<{ item: string; rater: string; dimension: string; score: number | string }>, set: EvalSetSection) {
    const metric = d.judge as string
    const row = set.metrics.find((m) => m.metric === metric)
    if (!row) return { metric, message: `this run recorded no metric ${JSON.stringify(metric)} for eval set ${JSON.stringify(set.name)}` }
    const values = row.values ?? []
    if (values.length === 0) return { metric, message: `the metric ${JSON.stringify(metric)} has no per-case values in this run` }
    let judged: Array<{ item: string; score: number | string }>
    if (d.scale === 'pass-fail') {
      judged = values.filter((v) => v.pass !== undefined).map((v) => ({ item: v.id, score: v.pass ? 'pass' : 'fail' }))
    } else {
      const finite = values.filter((v) => typeof v.value === 'number' && Number.isFinite(v.value))
      const unit = finite.every((v) => (v.value as number) >= 0 && (v.value as number) <= 1)
      const points = finite.every((v) => Number.isInteger(v.value) && (v.value as number) >= 1 && (v.value as number) <= 5)
      if (!points && !unit)
        return { metric, message: `the judge's values of ${JSON.stringify(metric)} are on neither 1–5 nor 0–1, so they cannot be compared with a 1–5 rating` }
      judged = finite.map((v) => ({ item: v.id, score: points ? (v.value as number) : Math.round(1 + 4 * (v.value as number)) }))
    }
    if (labels.length === 0) return { metric, message: 'no ratings yet' }
    try {
      const a = humanAlignment(judged, labels, { dimension: d.name }).details
      return { metric, n: a.n, kappa: stat(a.kappa), ...(a.spearman !== undefined ? { spearman: stat(a.spearman) } : {}) }
    } catch (error) {
      if (error instanceof HumanAlignmentInputError) return { metric, message: error.problem }
      throw error
    }
  }

  /** Checks a rating request against the rubric and the run, then stores it (a rater's earlier rating of the same case and dimension is replaced). */
  async save(body: unknown): Promise<RatingInput> {
    const rating = await this.check(body)
    await saveRating(await this.options.writer(), rating)
    return rating
  }

  private async check(body: unknown): Promise<RatingInput> {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new RatingInputError('the body must be a JSON object')
    const b = body as Record<string, unknown>
    if (b.kind !== 'score' && b.kind !== 'pairwise') throw new RatingInputError(`kind must be "score" or "pairwise", got ${JSON.stringify(b.kind ?? null)}`)
    const keys = b.kind === 'score' ? SCORE_KEYS : PAIRWISE_KEYS
    for (const k of Object.keys(b)) if (!keys.includes(k)) throw new RatingInputError(`unknown field ${JSON.stringify(k)} in a ${b.kind} rating (fields: ${keys.join(', ')})`)
    if (b.rater === undefined || (typeof b.rater === 'string' && b.rater.trim() === '')) throw new RatingInputError('the rater id is missing: give your name or initials')
    if (typeof b.rater !== 'string') throw new RatingInputError(`rater must be a string, got ${typeof b.rater}`)
    const rater = b.rater.trim()
    if (rater.length > MAX_RATER) throw new RatingInputError(`the rater id is longer than ${MAX_RATER} characters`)
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(rater)) throw new RatingInputError('the rater id holds a control character')
    for (const k of ['run', 'set', 'case'] as const) if (typeof b[k] !== 'string' || b[k] === '') throw new RatingInputError(`${k} must be a non-empty string`)
    const runId = b.run as string
    const setName = b.set as string
    const caseId = b.case as string
    const set = await this.setOf(runId, (s) => s.name === setName, JSON.stringify(setName)).catch((e: unknown) => {
      throw e instanceof RatingNotFound ? new RatingInputError(e.message) : e
    })
    if (!set.cases.some((c) => c.id === caseId)) throw new RatingInputError(`case ${JSON.stringify(caseId)} is not in eval set ${JSON.stringify(setName)} of run ${runId}`)
    if (b.kind === 'score') {
      if (typeof b.dimension !== 'string') throw new RatingInputError('dimension must be a string')
      const d = this.rubric.dimensions.find((x) => x.name === b.dimension)
      if (!d) throw new RatingInputError(`the rubric has no dimension ${JSON.stringify(b.dimension)} (it has ${this.rubric.dimensions.map((x) => x.name).join(', ')})`)
      if (!onScale(d, b.score))
        throw new RatingInputError(
          `score ${JSON.stringify(b.score ?? null)} is not on the scale of ${d.name} (${d.scale === '1-5' ? 'an integer from 1 to 5' : '"pass" or "fail"'})`,
        )
      return { runId, set: setName, caseId, rater, dimension: d.name, ...(typeof b.score === 'number' ? { score: b.score } : { choice: b.score as string }) }
    }
    if (typeof b.other !== 'string' || b.other === runId) throw new RatingInputError('other must be the id of another run')
    const other = await this.setOf(b.other, (s) => s.name === setName, JSON.stringify(setName)).catch((e: unknown) => {
      throw e instanceof RatingNotFound ? new RatingInputError(e.message) : e
    })
    if (!other.cases.some((c) => c.id === caseId)) throw new RatingInputError(`case ${JSON.stringify(caseId)} is not in eval set ${JSON.stringify(setName)} of run ${b.other}`)
    if (b.winner !== 'a' && b.winner !== 'b' && b.winner !== 'tie') throw new RatingInputError(`winner must be "a", "b" or "tie", got ${JSON.stringify(b.winner ?? null)}`)
    if (b.shownFirst !== runId && b.shownFirst !== b.other) throw new RatingInputError('shownFirst must be one of the two run ids (the answer the page showed first)')
    return { runId, set: setName, caseId, rater, dimension: PAIRWISE_DIMENSION, otherRunId: b.other, choice: b.winner, shownFirst: b.shownFirst }
  }

  /** The JSONL export of one set's ratings (direct, or pairwise against `otherId`). */
  async exportJsonl(runId: string, setKey: string, otherId?: string): Promise<string> {
    const set = await this.setOf(runId, (s) => keyOf(s.name) === setKey, `with key ${setKey}`)
    return ratingsJsonl(await readRatings(await this.options.writer(), { runId, set: set.name, ...(otherId !== undefined ? { otherRunId: otherId } : {}) }))
  }
}
