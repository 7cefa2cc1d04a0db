/**
 * The UI's data: each resource of api-types.ts computed from the history store through its public API
 * (and the one-statement reads of history-queries.ts). The server answers requests with it; the static
 * export walks every resource once. Read-only: the store is opened without `write`, and a store that does
 * not exist yet is an empty history (the page says how to record a run, and shows it when one lands).
 */
import { existsSync } from 'node:fs'
import { basename } from 'node:path'
import { comparisonStatus, type RunComparison } from '../eval-set/compare-runs.js'
import { EmptyStoreError } from '../history/errors.js'
import { redactUrl } from '../history/target.js'
import { HistoryError, HistoryStore, type HistoryTarget, type RunSummary } from '../history/public.js'
import type { CaseRow, EvalSetSection, RagReport } from '../report/model.js'
import { decimalsFor, setAssertions } from '../report/table.js'
import { recordedTrials } from '../report/trials.js'
import type {
  MetricChange,
  UiCaseChange,
  UiCaseSeries,
  UiCompare,
  UiCompareSet,
  UiIndex,
  UiLatest,
  UiMetricSeries,
  UiRun,
  UiRunSet,
  UiRunList,
  UiRunRow,
  UiRunsPage,
  UiSeriesRun,
  UiSetSeries,
  UiTrials,
} from './api-types.js'
import { RatingDesk } from './rating.js'
import type { Rubric } from './rubric.js'
import { caseIds, latestRun, runCells, setCells, setMetrics, type MetricCell } from './history-queries.js'
import { keyOf, RESOURCE_PATTERN } from './keys.js'

/** Runs per page of the runs list. */
export const PAGE_SIZE = 50
/** Tolerance of the runs page and charts' status words: `compare`'s default, 2 % of a metric's full scale. */
export const TOLERANCE = 0.02
/** Regressed and improved cases listed per eval set on the compare page. */
export const CASE_CHANGE_LIMIT = 200

/** A resource that does not exist: an unknown run id, set or case (the server answers 404). */
export class NotFound extends Error {}

export const EMPTY_MESSAGE =
  "No run has been recorded yet. Record the first one: run `npm run example` in the rag-matchers repository, or add the reporter to your Vitest config (reporters: ['default', 'rag-matchers/reporter']) and run your eval tests. This page shows the run as soon as it lands."

/** What the compare page reads of `rag-matchers compare`'s comparison of two reports (compareReports in cli/compare.ts). */
export interface ReportsComparisonLike {
  readonly evalSets: ReadonlyArray<{
    readonly name: string
    readonly failed: boolean
    readonly comparison: RunComparison
    readonly labels: Readonly<Record<string, { readonly label: string; readonly decimals: number }>>
    readonly unpaired: ReadonlyArray<{ readonly metric: string; readonly base: number | null; readonly next: number | null; readonly why: string; readonly decimals: number }>
  }>
  readonly onlyInBase: readonly string[]
  readonly onlyInNew: readonly string[]
  readonly notComparable: readonly string[]
  readonly failed: boolean
}

export interface ResourceOptions {
  readonly target: HistoryTarget
  readonly root: string
  readonly mode: 'server' | 'static'
  /**
   * Compares two reports as `rag-matchers compare` does: cli/compare.ts's compareReports, passed in by the
   * caller because src/ does not import cli/ (test/layout.test.ts), and the compare page must use that one
   * implementation (its pairing of rows, paired test and status words), not a second one.
   */
  readonly compareReports: (base: RagReport, next: RagReport) => ReportsComparisonLike
  /**
   * Rating on (`rag-matchers ui --rate`, server mode only): the rubric of the rate view. The ratings go
   * through a second handle on the store, opened for writing (and so migrated to the current schema) on
   * the first rating request; every other resource stays on the read-only handle.
   */
  readonly rubric?: Rubric
}

/** What every page needs, computed once per state of the store (its newest run and run count). */
interface Snapshot {
  readonly stamp: string
  readonly runs: readonly RunSummary[]
  readonly byId: ReadonlyMap<string, RunSummary>
  readonly previous: ReadonlyMap<string, string>
  /** A run id's position in `runs` (oldest first). */
  readonly order: ReadonlyMap<string, number>
  /** Each run's metric rows read so far (a runs page reads its runs and the runs they are compared with). */
  readonly runCells: Map<string, MetricCell[]>
  /** The read of run cells under way (cellsOfRuns queues them). */
  reading?: Promise<void>
  sets?: Map<string, string[]>
  /** Set series already computed, by key: the charts of a set are asked for again on every visit. */
  readonly series: Map<string, UiSetSeries>
  /** Runs pages already computed, by page: the runs page is the first page of every visit. */
  readonly pages: Map<number, Promise<UiRunsPage>>
  readonly cases: Map<string, Map<string, string>>
}

/** Sets whose charts prepare() reads ahead: enough for every set of a usual store, a bound on memory for a huge one. */
const PREPARED_SETS = 20

/** The promise kept in `cache` for `key`, made by `make` when there is none; a failure is forgotten so the next ask tries again. */
function remembered<K, V>(cache: Map<K, Promise<V>>, key: K, make: () => Promise<V>): Promise<V> {
  let cached = cache.get(key)
  if (!cached) {
    cached = make()
    cache.set(key, cached)
    cached.catch(() => cache.delete(key))
  }
  return cached
}

const branchOf = (r: RunSummary): string => r.git?.branch ?? r.ci?.ref ?? ''

/**
 * The trials of each metric row's judge assertions, by row key: a row pools the assertions with the same
 * matcher, signature, threshold and `.not` (the report's rowKey), and the first of them run with trials is shown.
 */
function trialsByRow(report: RagReport, set: EvalSetSection): Map<string, UiTrials> {
  const out = new Map<string, UiTrials>()
  for (const a of setAssertions(report, set)) {
    const t = recordedTrials(a)
    if (t === undefined) continue
    const key = `${a.matcher}|${a.signature}|${a.threshold ?? ''}|${a.isNot ? 'not' : ''}`
    if (!out.has(key)) out.set(key, { n: t.n, cases: t.cases, passRate: t.passRate, flipRate: t.flipRate, min: t.min, max: t.max })
  }
  return out
}

/** An eval set as the run page reads it (UiRunSet): per-case values as columns, no per-row value lists. */
function compactSet(report: RagReport, set: EvalSetSection): UiRunSet {
  const withValues = set.metrics.filter((m) => m.values !== undefined)
  const columns = withValues.map((m) => m.key)
  const trials = trialsByRow(report, set)
  return {
    ...set,
    metrics: set.metrics.map(({ values: _values, failingCases, ...m }) => {
      const t = trials.get(m.key)
      return { ...m, failingCount: failingCases.length, ...(t !== undefined ? { trials: t } : {}) }
    }),
    columns,
    cases: set.cases.map((c) => ({
      ...c,
      values: columns.map((k) => c.values[k]?.value ?? null),
      passes: columns.map((k) => c.values[k]?.pass ?? null),
    })),
  }
}
const finite = (n: number): number | null => (Number.isFinite(n) ? n : null)

/** Comparisons kept (a run never changes once stored, so a comparison of two runs holds for good). */
const COMPARE_CACHE = 16

export class UiResources {
  private store: HistoryStore | undefined
  private snapshot: Snapshot | undefined
  /** Recent comparisons by `base/next` id: the paired bootstrap over 200 metrics × 1,000 cases takes seconds. */
  private readonly comparisons = new Map<string, Promise<UiCompare>>()
  /** The store handle that writes ratings (rate mode only). */
  private writer: Promise<HistoryStore> | undefined
  /** Set by stopPreparing() and close(): prepare() stops reading ahead. */
  private closing = false
  /** The rate view's server side; undefined unless rating is on. */
  readonly desk: RatingDesk | undefined

  constructor(private readonly options: ResourceOptions) {
    if (options.rubric !== undefined && options.mode === 'server') {
      this.desk = new RatingDesk({ rubric: options.rubric, writer: () => this.openWriter() })
    }
  }

  /** The writing handle of rate mode, opened once. */
  private openWriter(): Promise<HistoryStore> {
    if (!this.writer) {
      this.writer = HistoryStore.open(this.options.target, { root: this.options.root, write: true })
      this.writer.catch(() => (this.writer = undefined))
    }
    return this.writer
  }

  /**
   * The store for messages: in the server its path, or its PostgreSQL URL with the password hidden; in an
   * export the file name only, or `PostgreSQL` (no machine path, host or user is published).
   */
  get storeLabel(): string {
    const t = this.options.target
    if (t.kind === 'postgres') return this.options.mode === 'static' ? 'PostgreSQL' : redactUrl(t.url)
    const where = t.kind === 'sqlite' ? t.path : 'off'
    return this.options.mode === 'static' ? basename(where) : where
  }

  /** Opens the store if it exists; undefined when there is none yet. Throws a HistoryError when it cannot be read. */
  async open(): Promise<HistoryStore | undefined> {
    if (this.store) return this.store
    const t = this.options.target
    if (t.kind === 'sqlite' && !existsSync(t.path)) return undefined
    try {
      this.store = await HistoryStore.open(t, { root: this.options.root, write: false })
    } catch (error) {
      // a PostgreSQL database no run was recorded in yet: an empty history, as a missing file is
      if (error instanceof EmptyStoreError) return undefined
      throw error
    }
    return this.store
  }

  /**
   * Reads what the first pages need (the index, the newest runs page, then each set's charts) before anyone
   * asks, so the page opened right after `rag-matchers ui` starts finds them ready. A failure is left to
   * the page that asks to show.
   */
  async prepare(): Promise<void> {
    try {
      const index = await this.index()
      if (index.state !== 'ok') return
      await this.get('runs/0')
      for (const set of index.sets.slice(0, PREPARED_SETS)) {
        if (this.closing) return
        await this.get(`set/${set.key}`)
      }
    } catch {
      // the page that asks shows why
    }
  }

  /** prepare() stops reading ahead after the read under way (the server is stopping). */
  stopPreparing(): void {
    this.closing = true
  }

  async close(): Promise<void> {
    this.closing = true
    await this.store?.close()
    this.store = undefined
    const writer = this.writer
    this.writer = undefined
    await (await writer?.catch(() => undefined))?.close()
  }

  /** The resource `name` (see RESOURCE_PATTERN); throws NotFound for a name or an id that names nothing. */
  async get(name: string): Promise<unknown> {
    if (!RESOURCE_PATTERN.test(name)) throw new NotFound(`no such resource: ${name}`)
    const [kind, a = '', b = ''] = name.split('/')
    if (kind === 'index') return this.index()
    if (kind === 'latest') return this.latest()
    if (kind === 'rate' || kind === 'ratings') {
      if (!this.desk) throw new NotFound('rating is off: start the UI with `rag-matchers ui --rate` (a static export has no rating)')
      if (!(await this.open())) throw new NotFound('no run has been recorded yet')
      const c = name.split('/')[3]
      return kind === 'rate' ? this.desk.rate(a, b) : this.desk.ratings(a, b, c)
    }
    const store = await this.open()
    // the first runs page of no runs is an empty list (the app asks for it while it learns the store is empty)
    if (!store && kind === 'runs' && a === '0') return { page: 0, pages: 1, total: 0, runs: [] } satisfies UiRunsPage
    if (!store) throw new NotFound('no run has been recorded yet')
    const snap = await this.current(store)
    switch (kind) {
      case 'runs': {
        const page = Number(a)
        return remembered(snap.pages, page, () => this.runsPage(store, snap, page))
      }
      case 'runlist':
        return this.runList(snap)
      case 'run':
        return this.run(store, snap, a)
      case 'set':
        return this.setSeries(store, snap, a)
      case 'case':
        return this.caseSeries(store, snap, a, b)
      case 'compare':
        return this.compare(store, snap, a, b)
      default:
        throw new NotFound(`no such resource: ${name}`)
    }
  }

  async latest(): Promise<UiLatest> {
    const store = await this.open()
    return store ? latestRun(store) : { latest: null, runs: 0 }
  }

  async index(): Promise<UiIndex> {
    const base = { store: this.storeLabel, mode: this.options.mode, pageSize: PAGE_SIZE, tolerance: TOLERANCE, rating: this.desk !== undefined }
    const empty = { ...base, runs: 0, latest: null, pages: 0, sets: [], branches: [] }
    let store: HistoryStore | undefined
    try {
      store = await this.open()
    } catch (error) {
      return { ...empty, state: 'error', message: error instanceof Error ? error.message : String(error) }
    }
    if (!store) return { ...empty, state: 'empty', message: `${EMPTY_MESSAGE} (store: ${this.storeLabel})` }
    const snap = await this.current(store)
    if (snap.runs.length === 0) return { ...empty, state: 'empty', message: `${EMPTY_MESSAGE} (store: ${this.storeLabel})` }
    snap.sets ??= await setMetrics(store)
    const branches = [...new Set(snap.runs.map(branchOf).filter((b) => b !== ''))].sort()
    return {
      ...base,
      state: 'ok',
      runs: snap.runs.length,
      latest: snap.runs[snap.runs.length - 1]?.id ?? null,
      pages: Math.ceil(snap.runs.length / PAGE_SIZE),
      sets: [...snap.sets].map(([name, metrics]) => ({ name, key: keyOf(name), metrics })),
      branches,
    }
  }

  /** The runs and derived maps, recomputed when a run was added or removed since the last request. */
  private async current(store: HistoryStore): Promise<Snapshot> {
    const { latest, runs } = await latestRun(store)
    const stamp = `${latest ?? ''}:${runs}`
    if (this.snapshot?.stamp === stamp) return this.snapshot
    const list = await store.listRuns()
    const previous = new Map<string, string>()
    const lastOnBranch = new Map<string, string>()
    for (const r of list) {
      const before = lastOnBranch.get(branchOf(r))
      if (before !== undefined) previous.set(r.id, before)
      lastOnBranch.set(branchOf(r), r.id)
    }
    this.snapshot = {
      stamp,
      runs: list,
      byId: new Map(list.map((r) => [r.id, r])),
      previous,
      order: new Map(list.map((r, i) => [r.id, i])),
      runCells: new Map(),
      cases: new Map(),
      series: new Map(),
      pages: new Map(),
    }
    return this.snapshot
  }

  /** Each cell's change since the same metric in the previous run on its branch that measured it. */
  private changes(snap: Snapshot, cells: readonly MetricCell[]): Map<MetricCell, Pick<MetricChange, 'delta' | 'status' | 'since'>> {
    const last = new Map<string, { value: number; runId: string }>()
    const out = new Map<MetricCell, Pick<MetricChange, 'delta' | 'status' | 'since'>>()
    for (const c of cells) {
      const run = snap.byId.get(c.runId)
      const key = `${run ? branchOf(run) : ''}\u0000${c.set}\u0000${c.metric}`
      const before = last.get(key)
      if (c.value !== null && before !== undefined) out.set(c, this.change(c, before.value, before.runId))
      if (c.value !== null) last.set(key, { value: c.value, runId: c.runId })
    }
    return out
  }

  /**
   * The metric rows of `ids`, read once per state of the store. Reads are queued one after the other and a
   * run's rows are stored only once all are read, so a request that comes in meanwhile (PostgreSQL answers
   * asynchronously) never sees a run half read.
   */
  private async cellsOfRuns(store: HistoryStore, snap: Snapshot, ids: Iterable<string>): Promise<void> {
    const wanted = [...new Set(ids)]
    const read = async (): Promise<void> => {
      const missing = wanted.filter((id) => !snap.runCells.has(id))
      if (missing.length === 0) return
      const byRun = new Map<string, MetricCell[]>(missing.map((id) => [id, []]))
      for (const c of await runCells(store, snap.order, missing)) byRun.get(c.runId)?.push(c)
      for (const [id, cells] of byRun) snap.runCells.set(id, cells)
    }
    const queued = (snap.reading ?? Promise.resolve()).then(read, read)
    snap.reading = queued.catch(() => undefined)
    await queued
  }

  /**
   * Each cell's change since the same metric in the previous run on its branch that measured it (a value,
   * not n/a): usually the run just before on the branch, read with the page's own runs; a metric that run
   * lacks is looked up in the metric's whole series (one indexed read per such metric).
   */
  private async pageChanges(store: HistoryStore, snap: Snapshot, cells: readonly MetricCell[]): Promise<Map<MetricCell, Pick<MetricChange, 'delta' | 'status' | 'since'>>> {
    const out = new Map<MetricCell, Pick<MetricChange, 'delta' | 'status' | 'since'>>()
    const keyOfCell = (c: MetricCell) => `${c.set}\u0000${c.metric}`
    const byKey = new Map<string, Map<string, MetricCell>>()
    const valueIn = (runId: string, c: MetricCell): number | null => {
      let cells = byKey.get(runId)
      if (!cells) {
        cells = new Map((snap.runCells.get(runId) ?? []).map((x) => [keyOfCell(x), x]))
        byKey.set(runId, cells)
      }
      return cells.get(keyOfCell(c))?.value ?? null
    }
    const later: MetricCell[] = []
    for (const c of cells) {
      const before = snap.previous.get(c.runId)
      if (c.value === null || before === undefined) continue
      const value = valueIn(before, c)
      if (value !== null) out.set(c, this.change(c, value, before))
      else later.push(c)
    }
    const series = new Map<string, Map<string, number | null>>()
    for (const c of later) {
      const key = keyOfCell(c)
      let values = series.get(key)
      if (!values) {
        values = new Map((await setCells(store, snap.order, c.set, c.metric)).map((x) => [x.runId, x.value]))
        series.set(key, values)
      }
      for (let at = snap.previous.get(c.runId); at !== undefined; at = snap.previous.get(at)) {
        const value = values.get(at)
        if (value !== undefined && value !== null) {
          out.set(c, this.change(c, value, at))
          break
        }
      }
    }
    return out
  }

  private change(c: MetricCell, before: number, since: string): Pick<MetricChange, 'delta' | 'status' | 'since'> {
    const delta = (c.value as number) - before
    const good = c.direction === 'lower' ? -delta : delta
    return { delta, status: comparisonStatus(good, TOLERANCE * (c.scale ?? 1), Number.NaN, 0.05, 'none'), since }
  }

  private async runsPage(store: HistoryStore, snap: Snapshot, page: number): Promise<UiRunsPage> {
    const pages = Math.max(1, Math.ceil(snap.runs.length / PAGE_SIZE))
    if (page >= pages) throw new NotFound(`no runs page ${page + 1} (there are ${pages})`)
    const newestFirst = [...snap.runs].reverse().slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE)
    // the page's runs and the runs they are compared with, in one read
    const wanted = newestFirst.map((r) => r.id)
    await this.cellsOfRuns(store, snap, [...wanted, ...wanted.flatMap((id) => snap.previous.get(id) ?? [])])
    const cells = wanted.flatMap((id) => snap.runCells.get(id) ?? [])
    const changes = await this.pageChanges(store, snap, cells)
    const byRun = new Map<string, MetricChange[]>()
    for (const c of cells) {
      const list = byRun.get(c.runId) ?? []
      list.push({ set: c.set, metric: c.metric, value: c.value, decimals: decimalsFor(c), pass: c.pass, ...changes.get(c) })
      byRun.set(c.runId, list)
    }
    const runs: UiRunRow[] = newestFirst.map((run) => {
      const previous = snap.previous.get(run.id)
      const compareWith = this.compareBase(snap, run.id)
      const base = compareWith === undefined || compareWith === previous ? undefined : snap.byId.get(compareWith)
      return {
        run,
        ...(previous !== undefined ? { previous } : {}),
        ...(compareWith !== undefined ? { compareWith } : {}),
        ...(base !== undefined && branchOf(base) !== '' ? { compareBranch: branchOf(base) } : {}),
        changes: byRun.get(run.id) ?? [],
      }
    })
    return { page, pages, total: snap.runs.length, runs }
  }

  private runList(snap: Snapshot): UiRunList {
    // compareBase per run walks the runs before it: once per state of the store, by one pass here instead
    const lastMain: Array<string | undefined> = []
    let main: string | undefined
    for (const r of snap.runs) {
      lastMain.push(main)
      if (branchOf(r) === 'main' || branchOf(r) === 'master') main = r.id
    }
    const runs = snap.runs.map((r, i) => {
      const base = snap.previous.get(r.id) ?? lastMain[i] ?? snap.runs[i - 1]?.id
      return {
        id: r.id,
        endedAt: r.endedAt,
        ...(branchOf(r) !== '' ? { branch: branchOf(r) } : {}),
        ...(r.git?.commit !== undefined ? { commit: r.git.commit } : {}),
        ...(base !== undefined ? { compareWith: base } : {}),
      }
    })
    return { runs: runs.reverse() }
  }

  /** The run to compare `id` with by default: the previous run on its branch, else the newest `main`/`master` run before it, else the run before it. */
  private compareBase(snap: Snapshot, id: string): string | undefined {
    const same = snap.previous.get(id)
    if (same !== undefined) return same
    const at = snap.runs.findIndex((r) => r.id === id)
    const before = snap.runs.slice(0, Math.max(0, at))
    const main = [...before].reverse().find((r) => branchOf(r) === 'main' || branchOf(r) === 'master')
    return (main ?? before[before.length - 1])?.id
  }

  private async resolve(store: HistoryStore, id: string): Promise<string> {
    try {
      return await store.resolveRef(id)
    } catch (error) {
      if (error instanceof HistoryError) throw new NotFound(error.message)
      throw error
    }
  }

  private async run(store: HistoryStore, snap: Snapshot, ref: string): Promise<UiRun> {
    const id = await this.resolve(store, ref)
    const report = await store.readRun(id)
    const summary = snap.byId.get(id) ?? (await store.runSummary(id))
    const previous = snap.previous.get(id)
    const compareWith = this.compareBase(snap, id)
    return {
      summary,
      ...(previous !== undefined ? { previous } : {}),
      ...(compareWith !== undefined ? { compareWith } : {}),
      sets: report.evalSets.map((set) => compactSet(report, set)),
      singles: report.singles,
    }
  }

  private async setName(store: HistoryStore, snap: Snapshot, key: string): Promise<string> {
    snap.sets ??= await setMetrics(store)
    const name = [...snap.sets.keys()].find((n) => keyOf(n) === key)
    if (name === undefined) throw new NotFound(`no eval set with key ${key} in the history`)
    return name
  }

  private async setSeries(store: HistoryStore, snap: Snapshot, key: string): Promise<UiSetSeries> {
    const cached = snap.series.get(key)
    if (cached) return cached
    const set = await this.setName(store, snap, key)
    const cells = await setCells(store, snap.order, set)
    const changes = this.changes(snap, cells)
    const runs: UiSeriesRun[] = []
    const runIndex = new Map<string, number>()
    const metrics = new Map<string, { first: MetricCell; cells: MetricCell[] }>()
    for (const c of cells) {
      const run = snap.byId.get(c.runId)
      if (!run) continue
      if (!runIndex.has(c.runId)) {
        runIndex.set(c.runId, runs.length)
        runs.push({
          runId: run.id,
          endedAt: run.endedAt,
          ...(branchOf(run) !== '' ? { branch: branchOf(run) } : {}),
          ...(run.git?.commit !== undefined ? { commit: run.git.commit } : {}),
          runPass: run.verdict.status === 'pass',
        })
      }
      const entry = metrics.get(c.metric) ?? { first: c, cells: [] }
      entry.cells.push(c)
      metrics.set(c.metric, entry)
    }
    const out: UiMetricSeries[] = [...metrics].map(([metric, { first, cells: list }]) => ({
      metric,
      direction: first.direction,
      comparator: first.comparator,
      decimals: decimalsFor(first),
      run: list.map((c) => runIndex.get(c.runId) as number),
      value: list.map((c) => c.value),
      threshold: list.map((c) => c.threshold ?? null),
      pass: list.map((c) => (c.pass ? 1 : 0)),
      delta: list.map((c) => changes.get(c)?.delta ?? null),
      status: list.map((c) => changes.get(c)?.status ?? null),
      baseline: list.map((c) => c.baseline ?? null),
      bandLow: list.map((c) => (c.ci !== undefined && c.baseline !== undefined ? c.baseline + c.ci[0] : null)),
      bandHigh: list.map((c) => (c.ci !== undefined && c.baseline !== undefined ? c.baseline + c.ci[1] : null)),
    }))
    const series = { set, key, runs, metrics: out }
    snap.series.set(key, series)
    return series
  }

  private async caseSeries(store: HistoryStore, snap: Snapshot, setKey: string, caseKey: string): Promise<UiCaseSeries> {
    const set = await this.setName(store, snap, setKey)
    let ids = snap.cases.get(set)
    if (!ids) {
      ids = new Map((await caseIds(store, set)).map((id) => [keyOf(id), id]))
      snap.cases.set(set, ids)
    }
    const caseId = ids.get(caseKey)
    if (caseId === undefined) throw new NotFound(`no case with key ${caseKey} in eval set "${set}"`)
    const points = (await store.caseSeries(set, caseId)).map((p) => {
      const commit = snap.byId.get(p.runId)?.git?.commit
      return { ...p, ...(commit !== undefined ? { commit } : {}) }
    })
    const metrics = [...new Set(points.flatMap((p) => Object.keys(p.values)))]
    return { set, caseId, metrics, points }
  }

  private async compare(store: HistoryStore, snap: Snapshot, baseRef: string, nextRef: string): Promise<UiCompare> {
    const baseId = await this.resolve(store, baseRef)
    const nextId = await this.resolve(store, nextRef)
    const key = `${baseId}/${nextId}`
    const known = this.comparisons.has(key)
    const cached = remembered(this.comparisons, key, () => this.compareRuns(store, snap, baseId, nextId))
    if (!known) for (const old of this.comparisons.keys()) if (this.comparisons.size > COMPARE_CACHE) this.comparisons.delete(old)
    return cached
  }

  private async compareRuns(store: HistoryStore, snap: Snapshot, baseId: string, nextId: string): Promise<UiCompare> {
    const [baseReport, nextReport] = [await store.readRun(baseId), await store.readRun(nextId)]
    const c = this.options.compareReports(baseReport, nextReport)
    const casesOf = (r: RagReport, set: string) => new Map((r.evalSets.find((s) => s.name === set)?.cases ?? []).map((k) => [k.id, k]))
    const texts = (k: CaseRow | undefined) =>
      k === undefined
        ? undefined
        : {
            ...(k.question !== undefined ? { question: k.question } : {}),
            ...(k.answer !== undefined ? { answer: k.answer } : {}),
            ...(k.retrieved !== undefined ? { retrieved: k.retrieved } : {}),
            ...(k.relevant !== undefined ? { relevant: k.relevant } : {}),
          }
    const sets: UiCompareSet[] = c.evalSets.map((s) => {
      const baseCases = casesOf(baseReport, s.name)
      const nextCases = casesOf(nextReport, s.name)
      const regressed: UiCaseChange[] = []
      const improved: UiCaseChange[] = []
      for (const m of s.comparison.metrics) {
        const decimals = s.labels[m.metric]?.decimals ?? 4
        const row = (p: { id: string; baseline: number; current: number; delta: number }): UiCaseChange => ({
          set: s.name,
          metric: s.labels[m.metric]?.label ?? m.metric,
          id: p.id,
          base: p.baseline,
          next: p.current,
          delta: p.delta,
          decimals,
          ...(baseCases.has(p.id) ? { baseCase: texts(baseCases.get(p.id)) } : {}),
          ...(nextCases.has(p.id) ? { nextCase: texts(nextCases.get(p.id)) } : {}),
        })
        regressed.push(...m.regressedCases.map(row))
        const slack = m.tolerance + 1e-9
        improved.push(...m.perCase.filter((p) => (m.higherIsBetter ? p.delta : -p.delta) > slack).map(row))
      }
      const byDrop = (x: UiCaseChange, y: UiCaseChange) => Math.abs(y.delta) - Math.abs(x.delta) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)
      regressed.sort(byDrop)
      improved.sort(byDrop)
      return {
        name: s.name,
        failed: s.failed,
        metrics: s.comparison.metrics.map((m) => ({
          metric: s.labels[m.metric]?.label ?? m.metric,
          status: m.status,
          failed: m.failed,
          baseMean: finite(m.baselineMean),
          nextMean: finite(m.currentMean),
          delta: finite(m.delta),
          ci: [finite(m.ci[0]), finite(m.ci[1])],
          pValue: finite(m.pValue),
          n: m.n,
          decimals: s.labels[m.metric]?.decimals ?? 4,
          regressedCases: m.regressedCases.length,
        })),
        unpaired: s.unpaired.map((u) => ({ metric: u.metric, base: u.base, next: u.next, why: u.why, decimals: u.decimals })),
        regressed: regressed.slice(0, CASE_CHANGE_LIMIT),
        improved: improved.slice(0, CASE_CHANGE_LIMIT),
        cut: regressed.length > CASE_CHANGE_LIMIT || improved.length > CASE_CHANGE_LIMIT,
      }
    })
    const first = c.evalSets[0]?.comparison.options
    return {
      base: snap.byId.get(baseId) ?? (await store.runSummary(baseId)),
      next: snap.byId.get(nextId) ?? (await store.runSummary(nextId)),
      sets,
      onlyInBase: c.onlyInBase,
      onlyInNew: c.onlyInNew,
      notComparable: c.notComparable,
      failed: c.failed,
      test: first?.test ?? 'bootstrap',
      alpha: first?.alpha ?? 0.05,
    }
  }

  /** Every resource name a static export writes: the index, each runs page, run, set, case, and each run's default comparison. */
  async *allResources(): AsyncGenerator<string> {
    yield 'index'
    const store = await this.open()
    if (!store) return
    yield 'runlist'
    const snap = await this.current(store)
    const pages = Math.ceil(snap.runs.length / PAGE_SIZE)
    for (let p = 0; p < pages; p++) yield `runs/${p}`
    for (const r of snap.runs) yield `run/${r.id}`
    snap.sets ??= await setMetrics(store)
    for (const set of snap.sets.keys()) {
      yield `set/${keyOf(set)}`
      for (const id of await caseIds(store, set)) yield `case/${keyOf(set)}/${keyOf(id)}`
    }
    for (const r of snap.runs) {
      const base = this.compareBase(snap, r.id)
      if (base !== undefined) yield `compare/${base}/${r.id}`
    }
  }
}
