/**
 * The history store: runs appended in one transaction each, read back as the report model, and the
 * queries behind `rag-matchers history` (list, show, trend, case, export, prune). Backend-neutral: every
 * statement goes through {@link HistoryBackend}, so SQLite today and PostgreSQL later share it.
 */
import { existsSync } from 'node:fs'
import { REPORT_SCHEMA_VERSION, type RagReport } from '../report/model.js'
import { VERSION } from '../version.js'
import { comparisonStatus, type ComparisonStatus } from '../eval-set/compare-runs.js'
import type { HistoryBackend, SqlValue } from './backend.js'
import { EmptyStoreError, HistoryError } from './errors.js'
import { asBytes, deflateJson, float64At, inflateJson, inflateText, passOf } from './blob-codec.js'
import { contentHash, packReport, unpackReport, type PackedCase, type PackedValues } from './packed-report.js'
import { writeRunRows } from './rows.js'
import type { RunEnvironment } from './run-info.js'
import { resolveRunRef } from './run-ref.js'
import { MIGRATIONS, OLDEST_READABLE_VERSION, SCHEMA_VERSION } from './schema.js'
import { PostgresBackend } from './postgres.js'
import { SqliteBackend, sqliteMessage } from './sqlite.js'
import { targetText, type HistoryTarget } from './target.js'

/** How a run came in: written by a reporter, by `merge-reports`, or imported from a rag-report.json. */
export type RunSource = 'vitest' | 'jest' | 'merge-reports' | 'import'

/** One run as `history list` shows it. */
export interface RunSummary {
  readonly id: string
  readonly source: string
  readonly startedAt?: string
  readonly endedAt: string
  readonly durationMs?: number
  readonly runner: string
  readonly runnerVersion?: string
  readonly nodeVersion?: string
  readonly ragMatchersVersion?: string
  readonly shard?: { readonly index: number; readonly count: number }
  readonly mergedFrom?: number
  readonly git?: { readonly commit?: string; readonly branch?: string; readonly dirty?: boolean; readonly subject?: string }
  readonly ci?: { readonly provider: string; readonly sha?: string; readonly ref?: string; readonly runId?: string; readonly runUrl?: string; readonly pr?: string }
  readonly summary: { readonly assertions: number; readonly passed: number; readonly failed: number; readonly errored: number; readonly evalSets: number }
  readonly verdict: { readonly status: 'pass' | 'fail'; readonly reasons: readonly string[] }
}

export interface RunFilter {
  /** Only runs that have this eval set. */
  readonly set?: string
  /** Only runs on this git branch (or CI ref). */
  readonly branch?: string
  /** The last N runs (newest last in the result). */
  readonly last?: number
}

/** One point of a metric's series: its value in one run, and what happened since the run before. */
export interface SeriesPoint {
  readonly runId: string
  readonly endedAt: string
  readonly branch?: string
  readonly commit?: string
  readonly value: number | null
  readonly threshold?: number
  readonly comparator: string
  readonly pass: boolean
  readonly direction: 'higher' | 'lower'
  readonly scale?: number
  readonly signature: string
  /** Change since the previous point (current − previous); absent for the first point or a null value. */
  readonly delta?: number
  /** `compare`'s status words (no significance test: any drop beyond the tolerance is `regressed`). */
  readonly status?: ComparisonStatus
}

export interface MetricSeries {
  readonly set: string
  readonly metric: string
  readonly points: readonly SeriesPoint[]
  /** The first run in the series whose value dropped beyond the tolerance in the metric's bad direction. */
  readonly firstRegression?: SeriesPoint
}

export interface CasePoint {
  readonly runId: string
  readonly endedAt: string
  readonly branch?: string
  readonly values: Readonly<Record<string, number | null>>
  readonly failing: readonly string[]
  readonly retrieved?: readonly string[]
  readonly answer?: string
  readonly question?: string
}

export interface AppendOptions {
  readonly source: RunSource
  readonly startedAt?: Date
  /** When the run ended; default the report's `createdAt`. */
  readonly endedAt?: Date
  readonly environment?: RunEnvironment
}

/** Checks that `value` is a rag-report this version reads; throws a HistoryError saying what it is not. */
export function checkReport(value: unknown, where: string): RagReport {
  const r = value as Partial<RagReport> | null
  if (r === null || typeof r !== 'object' || Array.isArray(r) || (r.generator as { name?: unknown } | undefined)?.name !== 'rag-matchers') {
    throw new HistoryError(`${where} is not a rag-report (no generator "rag-matchers")`)
  }
  if (typeof r.schemaVersion === 'number' && r.schemaVersion > REPORT_SCHEMA_VERSION) {
    throw new HistoryError(
      `${where} was written by a newer rag-matchers (report schemaVersion ${r.schemaVersion}; this version ${VERSION} reads ${REPORT_SCHEMA_VERSION}): upgrade rag-matchers to record it`,
    )
  }
  if (r.schemaVersion !== REPORT_SCHEMA_VERSION)
    throw new HistoryError(`${where} is not a rag-report this version reads (schemaVersion ${JSON.stringify(r.schemaVersion ?? null)})`)
  for (const key of ['evalSets', 'assertions', 'singles'] as const) {
    if (!Array.isArray(r[key])) throw new HistoryError(`${where} is not a rag-report (${key} is not an array)`)
  }
  if (r.summary === null || typeof r.summary !== 'object' || typeof r.createdAt !== 'string' || Number.isNaN(Date.parse(r.createdAt))) {
    throw new HistoryError(`${where} is not a rag-report (no summary or createdAt)`)
  }
  return r as RagReport
}

/** The content hash of a report: the same report (a reporter's run, then its rag-report.json imported) hashes alike. */
export function reportHash(report: RagReport): string {
  return contentHash(report)
}

const RUN_COLUMNS = `id, source, started_at, ended_at, duration_ms, runner, runner_version, node_version, rag_matchers_version, shard_index, shard_count, merged_from, git_commit, git_branch, git_dirty, git_subject, ci_provider, ci_sha, ci_ref, ci_run_id, ci_run_url, ci_pr, assertions, passed, failed, errored, eval_sets, verdict, verdict_reasons`

/** The columns of a new run row, in the order of the values `append` binds. */
const INSERT_RUN_COLUMNS = `id, content_hash, source, started_at, ended_at, duration_ms, runner, runner_version, node_version, rag_matchers_version, report_schema_version, shard_index, shard_count, merged_from, git_commit, git_branch, git_dirty, git_subject, ci_provider, ci_sha, ci_ref, ci_run_id, ci_run_url, ci_pr, assertions, passed, failed, errored, eval_sets, verdict, verdict_reasons, env_json, report_packed`

type Row = Record<string, unknown>

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const int = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined)
const dropUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T

function summaryOf(r: Row): RunSummary {
  const git = dropUndefined({
    commit: str(r.git_commit),
    branch: str(r.git_branch),
    dirty: r.git_dirty === null || r.git_dirty === undefined ? undefined : int(r.git_dirty) === 1,
    subject: str(r.git_subject),
  })
  const ci = dropUndefined({ sha: str(r.ci_sha), ref: str(r.ci_ref), runId: str(r.ci_run_id), runUrl: str(r.ci_run_url), pr: str(r.ci_pr) })
  const shardIndex = int(r.shard_index)
  const shardCount = int(r.shard_count)
  return dropUndefined({
    id: String(r.id),
    source: String(r.source),
    startedAt: str(r.started_at),
    endedAt: String(r.ended_at),
    durationMs: int(r.duration_ms),
    runner: String(r.runner),
    runnerVersion: str(r.runner_version),
    nodeVersion: str(r.node_version),
    ragMatchersVersion: str(r.rag_matchers_version),
    shard: shardIndex !== undefined && shardCount !== undefined ? { index: shardIndex, count: shardCount } : undefined,
    mergedFrom: int(r.merged_from),
    git: Object.keys(git).length > 0 ? git : undefined,
    ci: str(r.ci_provider) !== undefined ? { provider: String(r.ci_provider), ...ci } : undefined,
    summary: { assertions: int(r.assertions) ?? 0, passed: int(r.passed) ?? 0, failed: int(r.failed) ?? 0, errored: int(r.errored) ?? 0, evalSets: int(r.eval_sets) ?? 0 },
    verdict: { status: r.verdict === 'pass' ? 'pass' : 'fail', reasons: JSON.parse(String(r.verdict_reasons)) as string[] },
  }) as RunSummary
}

/** `30d`, `12h`, `2w`, `90m` → milliseconds; undefined when it is not such a duration. */
export function parseAge(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(m|h|d|w)$/i.exec(text.trim())
  if (!m) return undefined
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[(m[2] as string).toLowerCase() as 'm' | 'h' | 'd' | 'w']
  return Number(m[1]) * unit
}

export class HistoryStore {
  private constructor(
    readonly backend: HistoryBackend,
    /** The schema version of the store as opened. */
    readonly schemaVersion: number,
  ) {}

  /** Where the store is, for messages. */
  get location(): string {
    return this.backend.location
  }

  /**
   * Opens the store at `target`. `write`: create it when missing and bring its schema forward; without it a
   * missing store is an error and nothing is changed. A store of a newer schema is refused, untouched.
   */
  static async open(target: HistoryTarget, options: { root: string; write: boolean }): Promise<HistoryStore> {
    if (target.kind === 'off') throw new HistoryError('run history is off (RAG_MATCHERS_HISTORY=off)', 'usage')
    let backend: HistoryBackend
    if (target.kind === 'postgres') {
      // A server has no file to look for: a database without the tables reads as an empty store below.
      backend = await PostgresBackend.open(target.url, { root: options.root, readOnly: !options.write })
    } else {
      if (!options.write && !existsSync(target.path)) throw new HistoryError(`no history store at ${target.path} (a run recorded by a rag-matchers reporter creates it)`)
      backend = SqliteBackend.open(target.path, { root: options.root, create: options.write })
    }
    try {
      const version = await HistoryStore.migrate(backend, options.write)
      return new HistoryStore(backend, version)
    } catch (error) {
      await backend.close()
      if (error instanceof HistoryError) throw error
      throw new HistoryError(`cannot use ${targetText(target)}: ${sqliteMessage(error)}`)
    }
  }

  private static async readVersion(backend: HistoryBackend): Promise<number> {
    if (!(await backend.hasTable('meta'))) return 0
    const rows = await backend.all<{ value: string }>(`SELECT value FROM meta WHERE key = 'schema_version'`)
    const v = Number(rows[0]?.value ?? 0)
    return Number.isInteger(v) ? v : 0
  }

  /** Applies the forward migrations a store needs (each in one transaction); refuses a newer store. */
  private static async migrate(backend: HistoryBackend, write: boolean): Promise<number> {
    let version = await HistoryStore.readVersion(backend)
    if (version > SCHEMA_VERSION) {
      throw new HistoryError(
        `${backend.location} was written by a newer rag-matchers (history schema ${version}; this version ${VERSION} knows ${SCHEMA_VERSION}): upgrade rag-matchers; the store is left as it is`,
      )
    }
    if (version === SCHEMA_VERSION || !write) {
      if (version < SCHEMA_VERSION && !write && version < OLDEST_READABLE_VERSION) {
        const message = `${backend.location} is an empty or older history store: record a run with this version first`
        throw version === 0 ? new EmptyStoreError(message) : new HistoryError(message)
      }
      return version
    }
    // The version is read again inside the write lock: another process may have migrated meanwhile.
    await backend.transaction(async () => {
      version = await HistoryStore.readVersion(backend)
      if (version > SCHEMA_VERSION) throw new HistoryError(`${backend.location} was written by a newer rag-matchers (history schema ${version}); the store is left as it is`)
      for (let v = version; v < SCHEMA_VERSION; v++) {
        for (const step of MIGRATIONS[v] ?? []) {
          if (typeof step === 'string') await backend.exec(backend.ddl(step))
          else await step(backend)
        }
      }
      if (version < SCHEMA_VERSION) {
        await backend.run(`DELETE FROM meta WHERE key = 'schema_version'`)
        await backend.run(`INSERT INTO meta (key, value) VALUES ('schema_version', ?)`, [String(SCHEMA_VERSION)])
        if (version === 0) await backend.run(`INSERT INTO meta (key, value) VALUES ('created_by', ?)`, [`rag-matchers ${VERSION}`])
      }
      version = SCHEMA_VERSION
    })
    return version
  }

  /**
   * Appends one run in one transaction: the run row (with the report's packed skeleton), its eval sets,
   * metric rows (per-case values packed) and cases. A report already stored (same content hash) adds
   * nothing: `{ added: false }` with the stored id.
   */
  async append(report: RagReport, options: AppendOptions): Promise<{ id: string; added: boolean }> {
    checkReport(report, 'the report')
    const packed = packReport(report)
    const hash = packed.hash
    const id = hash.slice(0, 12)
    const endedAt = options.endedAt ?? new Date(report.createdAt)
    const env = options.environment ?? {}
    const git = env.git ?? {}
    const ci = env.ci
    const runRow: SqlValue[] = [
      id,
      hash,
      options.source,
      options.startedAt?.toISOString() ?? null,
      endedAt.toISOString(),
      options.startedAt ? Math.max(0, endedAt.getTime() - options.startedAt.getTime()) : null,
      report.runner,
      env.runnerVersion ?? null,
      env.node ?? null,
      report.generator?.version ?? null,
      report.schemaVersion,
      report.shard?.index ?? null,
      report.shard?.count ?? null,
      report.mergedFrom ?? null,
      git.commit ?? null,
      git.branch ?? ci?.ref ?? null,
      git.dirty === undefined ? null : git.dirty ? 1 : 0,
      git.subject ?? null,
      ci?.provider ?? null,
      ci?.sha ?? null,
      ci?.ref ?? null,
      ci?.runId ?? null,
      ci?.runUrl ?? null,
      ci?.pr ?? null,
      report.summary.assertions,
      report.summary.passed,
      report.summary.failed,
      report.summary.errored ?? 0,
      report.evalSets.length,
      report.verdict?.status ?? (report.summary.failed > 0 ? 'fail' : 'pass'),
      JSON.stringify(report.verdict?.reasons ?? []),
      JSON.stringify(env),
      deflateJson(packed.skeleton),
    ]
    return this.backend.transaction(async () => {
      const existing = await this.backend.all<{ id: string }>(`SELECT id FROM runs WHERE content_hash = ? OR id = ?`, [hash, id])
      if (existing.length > 0) return { id: String(existing[0]?.id), added: false }
      await this.backend.run(`INSERT INTO runs (${INSERT_RUN_COLUMNS}) VALUES (${runRow.map(() => '?').join(', ')})`, runRow)
      await writeRunRows(this.backend, id, report, packed)
      return { id, added: true }
    })
  }

  /** Runs, oldest first (the last N when `last` is given), filtered by eval set and branch. */
  async listRuns(filter: RunFilter = {}): Promise<RunSummary[]> {
    const where: string[] = []
    const params: SqlValue[] = []
    if (filter.set !== undefined) {
      where.push(`id IN (SELECT run_id FROM eval_sets WHERE name = ?)`)
      params.push(filter.set)
    }
    if (filter.branch !== undefined) {
      where.push(`(git_branch = ? OR ci_ref = ?)`)
      params.push(filter.branch, filter.branch)
    }
    const limit = filter.last !== undefined ? ` LIMIT ${Math.max(0, Math.floor(filter.last))}` : ''
    const rows = await this.backend.all<Row>(
      `SELECT ${RUN_COLUMNS} FROM runs${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY ended_at DESC, id DESC${limit}`,
      params,
    )
    return rows.reverse().map(summaryOf)
  }

  /**
   * The id of the run `ref` names: `last`, `last~N` (N runs before the last), a run id or an id prefix, a git
   * commit prefix (src/history/run-ref.ts). Throws a HistoryError when it names no run, or several.
   */
  async resolveRef(ref: string): Promise<string> {
    return resolveRunRef(this.backend, this.location, ref)
  }

  /** The run's summary. */
  async runSummary(ref: string): Promise<RunSummary> {
    const id = await this.resolveRef(ref)
    const rows = await this.backend.all<Row>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`, [id])
    return summaryOf(rows[0] as Row)
  }

  /** The run's report as it was recorded (the report model of src/report/model.ts; equal to its JSON round trip). */
  async readRun(ref: string): Promise<RagReport> {
    return this.reportOf(await this.resolveRef(ref))
  }

  /** Puts run `id`'s report back together from its skeleton, packed metric values and cases (packed-report.ts). */
  private async reportOf(id: string): Promise<RagReport> {
    const [run] = await this.backend.all<{ report_packed: unknown }>(`SELECT report_packed FROM runs WHERE id = ?`, [id])
    const skeleton = asBytes(run?.report_packed)
    if (!skeleton) throw new HistoryError(`run ${id} in ${this.location} has no stored report`)
    const rows = await this.backend.all<Row>(
      `SELECT set_index, metric_index, value_count, case_values, case_passes, case_ids FROM metric_rows WHERE run_id = ? AND value_count IS NOT NULL`,
      [id],
    )
    const values = rows.map((r): PackedValues => {
      const ids = asBytes(r.case_ids)
      return {
        setIndex: int(r.set_index) ?? 0,
        metricIndex: int(r.metric_index) ?? 0,
        count: int(r.value_count) ?? 0,
        values: asBytes(r.case_values) ?? new Uint8Array(0),
        passes: asBytes(r.case_passes) ?? new Uint8Array(0),
        ...(ids ? { ids: inflateJson<string[]>(ids) } : {}),
      }
    })
    const cases = await this.backend.all<Row>(`SELECT set_index, case_index, case_id, texts FROM cases WHERE run_id = ? ORDER BY set_index, case_index`, [id])
    return unpackReport(
      inflateText(skeleton),
      values,
      cases.map((c): PackedCase => {
        const texts = String(c.texts)
        // The id as the texts' JSON keeps it: the case_id column is for lookups, and PostgreSQL's TEXT holds no NUL.
        const id = (JSON.parse(texts) as { id?: unknown }).id
        return { setIndex: int(c.set_index) ?? 0, caseIndex: int(c.case_index) ?? 0, id: typeof id === 'string' ? id : String(c.case_id), texts }
      }),
    )
  }

  /**
   * A metric's value in eval set `set`, run by run (oldest first; the last N runs with `last`), each compared
   * with the run before in the metric's good direction, with `compare`'s status words. `metric` is the row
   * label the table shows (`mean recall@3`); a run with several rows under it gives its first.
   */
  async metricSeries(set: string, metric: string, options: { last?: number; tolerance?: number; branch?: string } = {}): Promise<MetricSeries> {
    const params: SqlValue[] = [set, metric]
    let branch = ''
    if (options.branch !== undefined) {
      branch = ` AND (r.git_branch = ? OR r.ci_ref = ?)`
      params.push(options.branch, options.branch)
    }
    const limit = options.last !== undefined ? ` LIMIT ${Math.max(0, Math.floor(options.last))}` : ''
    const rows = await this.backend.all<Row>(
      `SELECT m.run_id, r.ended_at, r.git_branch, r.git_commit, m.value, m.threshold, m.comparator, m.pass, m.direction, m.scale, m.signature, m.set_index, m.metric_index
       FROM metric_rows m JOIN runs r ON r.id = m.run_id
       WHERE m.set_name = ? AND m.metric = ?${branch}
       ORDER BY r.ended_at DESC, r.id DESC, m.set_index, m.metric_index`,
      params,
    )
    const seen = new Set<string>()
    const picked: Row[] = []
    for (const r of rows) {
      const id = String(r.run_id)
      if (seen.has(id)) continue
      seen.add(id)
      picked.push(r)
    }
    const chosen = (limit === '' ? picked : picked.slice(0, Math.max(0, Math.floor(options.last ?? 0)))).reverse()
    const points: SeriesPoint[] = []
    let previous: number | null = null
    let firstRegression: SeriesPoint | undefined
    for (const r of chosen) {
      const value = typeof r.value === 'number' ? r.value : null
      const direction = r.direction === 'lower' ? 'lower' : 'higher'
      const scale = typeof r.scale === 'number' ? r.scale : undefined
      let delta: number | undefined
      let status: ComparisonStatus | undefined
      if (value !== null && previous !== null) {
        delta = value - previous
        const good = direction === 'lower' ? -delta : delta
        status = comparisonStatus(good, (options.tolerance ?? 0) * (scale ?? 1), Number.NaN, 0.05, 'none')
      }
      const point: SeriesPoint = dropUndefined({
        runId: String(r.run_id),
        endedAt: String(r.ended_at),
        branch: str(r.git_branch),
        commit: str(r.git_commit),
        value,
        threshold: typeof r.threshold === 'number' ? r.threshold : undefined,
        comparator: String(r.comparator),
        pass: int(r.pass) === 1,
        direction,
        scale,
        signature: String(r.signature),
        delta,
        status,
      }) as SeriesPoint
      if (status === 'regressed' && firstRegression === undefined) firstRegression = point
      points.push(point)
      if (value !== null) previous = value
    }
    return { set, metric, points, ...(firstRegression ? { firstRegression } : {}) }
  }

  /** Labels of the metric rows recorded for `set` (for a helpful message when a metric is not found). */
  async metricsOf(set: string): Promise<string[]> {
    const rows = await this.backend.all<{ metric: string }>(`SELECT DISTINCT metric FROM metric_rows WHERE set_name = ? ORDER BY metric`, [set])
    return rows.map((r) => String(r.metric))
  }

  /** Names of the eval sets recorded. */
  async setNames(): Promise<string[]> {
    const rows = await this.backend.all<{ name: string }>(`SELECT DISTINCT name FROM eval_sets ORDER BY name`)
    return rows.map((r) => String(r.name))
  }

  /** One case of an eval set across runs (oldest first): its values per metric, retrieved ids and answer. */
  async caseSeries(set: string, caseId: string, options: { last?: number } = {}): Promise<CasePoint[]> {
    const limit = options.last !== undefined ? ` LIMIT ${Math.max(0, Math.floor(options.last))}` : ''
    const rows = await this.backend.all<Row>(
      `SELECT c.run_id, r.ended_at, r.git_branch, c.set_index, c.case_index, c.texts
       FROM cases c JOIN runs r ON r.id = c.run_id
       WHERE c.set_name = ? AND c.case_id = ?
       ORDER BY r.ended_at DESC, r.id DESC, c.set_index, c.case_index${limit}`,
      [set, caseId],
    )
    if (rows.length === 0) return []
    // The case's value in each metric row of its set: cut out of the packed column (8 bytes at its position)
    // when the row's cases are the set's in order, else the whole column with the row's ids to search.
    const cells = await this.backend.all<Row>(
      `SELECT c.run_id, c.set_index, c.case_index, m.metric, m.is_not, m.case_ids,
         CASE WHEN m.case_ids IS NULL THEN substr(m.case_values, c.case_index * 8 + 1, 8) ELSE m.case_values END AS v,
         CASE WHEN m.case_ids IS NULL THEN substr(m.case_passes, c.case_index + 1, 1) ELSE m.case_passes END AS p
       FROM cases c JOIN metric_rows m ON m.run_id = c.run_id AND m.set_index = c.set_index
       WHERE c.set_name = ? AND c.case_id = ? AND m.value_count IS NOT NULL
       ORDER BY c.run_id, c.set_index, c.case_index, m.metric_index`,
      [set, caseId],
    )
    const keyOf = (r: Row) => `${String(r.run_id)} ${String(r.set_index)} ${String(r.case_index)}`
    // Each case as its texts' JSON has it, id included: the case_id column matched the lookup, but a row's packed
    // ids hold the id itself (PostgreSQL's TEXT columns hold no NUL).
    const texts = new Map(rows.map((r) => [keyOf(r), JSON.parse(String(r.texts)) as { id?: string; retrieved?: string[]; answer?: string; question?: string }]))
    const byCase = new Map<string, { values: Record<string, number | null>; failing: string[] }>()
    for (const cell of cells) {
      const key = keyOf(cell)
      const c = texts.get(key)
      if (c === undefined) continue
      const realId = typeof c.id === 'string' ? c.id : caseId
      const entry = byCase.get(key) ?? { values: {}, failing: [] }
      byCase.set(key, entry)
      const v = asBytes(cell.v)
      const p = asBytes(cell.p)
      const packedIds = asBytes(cell.case_ids)
      if (!v || !p) continue
      let at: number | undefined
      let failed = false
      if (!packedIds) {
        if (v.byteLength < 8 || p.byteLength < 1) continue
        at = 0
        failed = passOf(p[0]) === false
      } else {
        const ids = inflateJson<string[]>(packedIds)
        ids.forEach((id, i) => {
          if (id !== realId) return
          at ??= i
          if (passOf(p[i]) === false) failed = true
        })
        if (at === undefined) continue
      }
      const metric = String(cell.metric)
      // As the report's case `values`, keyed by row label: a later row with the same label wins.
      entry.values[metric] = float64At(v, at)
      if (failed && int(cell.is_not) !== 1 && !entry.failing.includes(metric)) entry.failing.push(metric)
    }
    return rows.reverse().map((r) => {
      const c = texts.get(keyOf(r)) ?? {}
      const cell = byCase.get(keyOf(r))
      return dropUndefined({
        runId: String(r.run_id),
        endedAt: String(r.ended_at),
        branch: str(r.git_branch),
        values: cell?.values ?? {},
        failing: cell?.failing ?? [],
        retrieved: c.retrieved,
        answer: c.answer,
        question: c.question,
      }) as CasePoint
    })
  }

  /** Every run, oldest first, with its report: what `history export` writes as JSON lines. */
  async *exportRuns(): AsyncGenerator<{ run: RunSummary; report: RagReport }> {
    const ids = await this.backend.all<{ id: string }>(`SELECT id FROM runs ORDER BY ended_at, id`)
    for (const { id } of ids) {
      const rows = await this.backend.all<Row>(`SELECT ${RUN_COLUMNS} FROM runs WHERE id = ?`, [id])
      const r = rows[0]
      if (r) yield { run: summaryOf(r), report: await this.reportOf(String(id)) }
    }
  }

  /** Deletes runs beyond the newest `keep`, and/or ended more than `olderThanMs` ago; one transaction; returns how many. */
  async prune(options: { keep?: number; olderThanMs?: number; now?: Date }): Promise<number> {
    return this.backend.transaction(async () => {
      const ids = new Set<string>()
      if (options.keep !== undefined) {
        const rows = await this.backend.all<{ id: string }>(`SELECT id FROM runs ORDER BY ended_at DESC, id DESC`)
        for (const r of rows.slice(Math.max(0, Math.floor(options.keep)))) ids.add(String(r.id))
      }
      if (options.olderThanMs !== undefined) {
        const cutoff = new Date((options.now ?? new Date()).getTime() - options.olderThanMs).toISOString()
        const rows = await this.backend.all<{ id: string }>(`SELECT id FROM runs WHERE ended_at < ?`, [cutoff])
        for (const r of rows) ids.add(String(r.id))
      }
      for (const id of ids) {
        for (const table of ['cases', 'metric_rows', 'eval_sets']) await this.backend.run(`DELETE FROM ${table} WHERE run_id = ?`, [id])
        await this.backend.run(`DELETE FROM runs WHERE id = ?`, [id])
      }
      return ids.size
    })
  }

  /** Counts of stored facts (runs, eval sets, metric rows, cases, per-case values packed in the metric rows), for tests and `history list --json`. */
  async counts(): Promise<Record<'runs' | 'evalSets' | 'metricRows' | 'cases' | 'caseValues', number>> {
    const one = async (sql: string) => Number((await this.backend.all<{ n: number }>(sql))[0]?.n ?? 0)
    const count = (table: string) => one(`SELECT COUNT(*) AS n FROM ${table}`)
    return {
      runs: await count('runs'),
      evalSets: await count('eval_sets'),
      metricRows: await count('metric_rows'),
      cases: await count('cases'),
      caseValues: await one(`SELECT COALESCE(SUM(value_count), 0) AS n FROM metric_rows`),
    }
  }

  async close(): Promise<void> {
    await this.backend.close()
  }
}
