/**
 * `rag-matchers history`: the run history the reporters record (docs/history.md).
 *
 *   rag-matchers history list [--set S] [--branch B] [--last N]
 *   rag-matchers history show RUN
 *   rag-matchers history trend SET METRIC [--last N] [--tolerance T]
 *   rag-matchers history case SET CASE_ID [--last N]
 *   rag-matchers history import FILE…
 *   rag-matchers history export [--format jsonl]
 *   rag-matchers history prune (--keep N | --older-than 30d)
 *
 * Every subcommand takes `--store PATH` (default: `RAG_MATCHERS_HISTORY`, else the nearest
 * `.rag-matchers/history.sqlite` from the current folder up; cli/history-target.ts) and `--json`. RUN is
 * `last`, `last~N`, a run id or an id prefix, a git commit prefix (src/history/run-ref.ts). Exit codes as the other commands: 0 success, 1 usage, 2 input (no store, a
 * reference matching no run or several, a file that is not a rag-report, a store of a newer schema).
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { RagReport } from '../src/report/model.js'
import { formatThreshold, renderTable } from '../src/report/table.js'
import type { RecordedComparator } from '../src/report/record.js'
import { formatNumber, table } from '../src/text/format.js'
import { HistoryError } from '../src/history/errors.js'
import { checkReport, HistoryStore, parseAge, type MetricSeries, type RunSummary } from '../src/history/store.js'
import { sqliteMessage } from '../src/history/sqlite.js'
import type { HistoryTarget } from '../src/history/target.js'
import { historyTarget } from './history-target.js'
import { EXIT, reportFailure, writeOut, type CliIo } from './io.js'

export const HISTORY_USAGE = `usage: rag-matchers history <subcommand> [--store PATH] [--json]
  list [--set S] [--branch B] [--last N]     runs, oldest first
  show RUN                                   the run's tables, as the reporter printed them
  trend SET METRIC [--last N] [--tolerance T]  the metric per run, a sparkline, the first regression
  case SET CASE_ID [--last N]                one case across runs: values, retrieved ids, answer
  import FILE…                               add rag-report.json files (a run already stored adds nothing)
  export [--format jsonl]                    every run with its report, one JSON line each
  prune (--keep N | --older-than 30d)        delete old runs
RUN: last, last~N, a run id or an id prefix, a git commit (prefix).`

class UsageError extends Error {}

interface Parsed {
  readonly positional: string[]
  readonly flags: Map<string, string>
  readonly json: boolean
}

const VALUE_FLAGS = new Set(['--store', '--set', '--branch', '--last', '--tolerance', '--format', '--keep', '--older-than'])

function parseArgs(argv: readonly string[], allowed: readonly string[]): Parsed {
  const positional: string[] = []
  const flags = new Map<string, string>()
  let json = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--json') {
      json = true
      continue
    }
    if (arg === '--') {
      positional.push(...argv.slice(i + 1))
      break
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const name = eq > 0 ? arg.slice(0, eq) : arg
      if (!VALUE_FLAGS.has(name) || (name !== '--store' && !allowed.includes(name))) throw new UsageError(`unknown option ${name}`)
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`)
      flags.set(name, value)
      continue
    }
    if (arg.startsWith('-') && arg !== '-') throw new UsageError(`unknown option ${arg}`)
    positional.push(arg)
  }
  return { positional, flags, json }
}

function positiveInt(flags: Map<string, string>, name: string, min = 1): number | undefined {
  const v = flags.get(name)
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isInteger(n) || n < min) throw new UsageError(`${name} needs an integer ≥ ${min}, got ${JSON.stringify(v)}`)
  return n
}

const SPARKS = '▁▂▃▄▅▆▇█'

/** A text sparkline of `values` (null as a space), scaled between their min and max. */
export function sparkline(values: ReadonlyArray<number | null>): string {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v))
  if (finite.length === 0) return ''
  const lo = Math.min(...finite)
  const hi = Math.max(...finite)
  return values
    .map((v) => {
      if (v === null || !Number.isFinite(v)) return ' '
      if (hi === lo) return SPARKS[3]
      return SPARKS[Math.min(SPARKS.length - 1, Math.floor(((v - lo) / (hi - lo)) * SPARKS.length))]
    })
    .join('')
}

function decimals(scale: number | undefined): number {
  return (scale ?? 1) >= 100 ? 2 : 4
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z')
}

function gitText(run: RunSummary): string {
  const g = run.git
  if (!g) return run.ci?.ref ?? '—'
  return `${g.branch ?? '(detached)'}@${(g.commit ?? '').slice(0, 7)}${g.dirty ? '+dirty' : ''}`
}

function listText(runs: readonly RunSummary[], location: string): string {
  if (runs.length === 0) return `no runs in ${location}\n`
  const rows = [
    ['run', 'ended', 'runner', 'git', 'sets', 'assertions', 'verdict', 'subject'],
    ...runs.map((r) => [
      r.id,
      when(r.endedAt),
      `${r.runner}${r.shard ? ` ${r.shard.index}/${r.shard.count}` : ''}${r.source === 'import' ? ' (imported)' : ''}`,
      gitText(r),
      String(r.summary.evalSets),
      `${r.summary.passed}/${r.summary.assertions}${r.summary.errored > 0 ? ` (${r.summary.errored} errored)` : ''}`,
      r.verdict.status,
      (r.git?.subject ?? '').slice(0, 50),
    ]),
  ]
  return `${table(rows, { indent: '', max: Number.MAX_SAFE_INTEGER })}\n`
}

function trendText(series: MetricSeries): string {
  const { points } = series
  if (points.length === 0) return `no run recorded ${series.metric} in eval set ${series.set}\n`
  const last = points[points.length - 1]
  const d = decimals(last?.scale)
  const fmt = (v: number | null | undefined) => (v === null || v === undefined ? 'n/a' : formatNumber(v, undefined, d))
  const threshold =
    last?.threshold !== undefined ? formatThreshold({ threshold: last.threshold, comparator: last.comparator as RecordedComparator, value: last.value }, d) : '—'
  const head = [
    `${series.set} › ${series.metric} (${last?.direction === 'lower' ? 'lower' : 'higher'} is better; threshold ${threshold})`,
    `${sparkline(points.map((p) => p.value))}  ${fmt(points[0]?.value)} → ${fmt(last?.value)} over ${points.length} run${points.length === 1 ? '' : 's'}`,
    '',
  ]
  const rows = [
    ['run', 'ended', 'value', 'change', 'status', 'result'],
    ...points.map((p) => [
      p.runId,
      when(p.endedAt),
      fmt(p.value),
      p.delta === undefined ? '—' : `${p.delta >= 0 ? '+' : ''}${formatNumber(p.delta, undefined, d)}`,
      p.status ?? '—',
      p.pass ? 'pass' : 'FAIL',
    ]),
  ]
  const first = series.firstRegression
  const tail = first
    ? `first regression: run ${first.runId} (${when(first.endedAt)}), ${fmt(first.value)}, ${first.delta !== undefined ? `${first.delta >= 0 ? '+' : ''}${formatNumber(first.delta, undefined, d)}` : ''} since the run before`
    : 'no regression between consecutive runs'
  return `${head.join('\n')}${table(rows, { indent: '', max: Number.MAX_SAFE_INTEGER })}\n\n${tail}\n`
}

function showHeader(run: RunSummary): string {
  const lines = [
    `run ${run.id}  ${when(run.endedAt)}  ${run.runner}${run.runnerVersion ? ` ${run.runnerVersion}` : ''}${run.nodeVersion ? `, Node ${run.nodeVersion}` : ''}, rag-matchers ${run.ragMatchersVersion ?? '?'}`,
  ]
  if (run.git) lines.push(`git ${gitText(run)}${run.git.subject ? `  ${run.git.subject}` : ''}`)
  if (run.ci) lines.push(`ci ${run.ci.provider}${run.ci.runUrl ? ` ${run.ci.runUrl}` : ''}${run.ci.pr ? ` (PR ${run.ci.pr})` : ''}`)
  lines.push(`verdict ${run.verdict.status}${run.verdict.reasons.length > 0 ? `: ${run.verdict.reasons.join('; ')}` : ''}`)
  return lines.join('\n')
}

function readReportFile(path: string): RagReport {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    throw new HistoryError(`cannot read '${path}': ${e.code ?? e.message}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new HistoryError(`${path} is not a rag-report (not JSON)`)
  }
  return checkReport(value, path)
}

async function withStore<T>(target: HistoryTarget, cwd: string, write: boolean, fn: (store: HistoryStore) => Promise<T>): Promise<T> {
  const store = await HistoryStore.open(target, { root: cwd, write })
  try {
    return await fn(store)
  } finally {
    await store.close()
  }
}

const SUBCOMMAND_FLAGS: Readonly<Record<string, readonly string[]>> = {
  list: ['--set', '--branch', '--last'],
  show: [],
  trend: ['--last', '--tolerance', '--branch'],
  case: ['--last'],
  import: [],
  export: ['--format'],
  prune: ['--keep', '--older-than'],
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    ;(sub === undefined ? io.stderr : io.stdout).write(`${HISTORY_USAGE}\n`)
    return sub === undefined ? EXIT.usage : EXIT.ok
  }
  const allowed = SUBCOMMAND_FLAGS[sub]
  if (allowed === undefined) return reportFailure(io, 'history', EXIT.usage, `unknown subcommand '${sub}'\n${HISTORY_USAGE}`)
  if (rest.includes('--help') || rest.includes('-h')) {
    await writeOut(io.stdout, `${HISTORY_USAGE}\n`)
    return EXIT.ok
  }
  const cwd = process.cwd()
  try {
    const args = parseArgs(rest, allowed)
    const { positional, flags, json } = args
    const target = historyTarget(flags.get('--store'), cwd)
    const out = (value: unknown, text: string) => writeOut(io.stdout, json ? `${JSON.stringify(value, null, 2)}\n` : text)
    const arity = (n: number, what: string, more = false) => {
      if (positional.length < n || (!more && positional.length > n)) throw new UsageError(`history ${sub} takes ${what}`)
    }
    switch (sub) {
      case 'list': {
        arity(0, 'no arguments')
        const last = positiveInt(flags, '--last')
        const runs = await withStore(target, cwd, false, (s) =>
          s.listRuns({
            ...(flags.has('--set') ? { set: flags.get('--set') } : {}),
            ...(flags.has('--branch') ? { branch: flags.get('--branch') } : {}),
            ...(last ? { last } : {}),
          }),
        )
        await out(runs, listText(runs, target.kind === 'sqlite' ? target.path : ''))
        return EXIT.ok
      }
      case 'show': {
        arity(1, 'one run reference (last, last~N, an id or an id prefix, a git commit)')
        const ref = positional[0] as string
        const { summary, report } = await withStore(target, cwd, false, async (s) => ({ summary: await s.runSummary(ref), report: await s.readRun(ref) }))
        const tables = renderTable(report)
        await out({ run: summary, report }, `${showHeader(summary)}\n${tables === '' ? '' : `\n${tables}\n`}`)
        return EXIT.ok
      }
      case 'trend': {
        arity(2, 'SET METRIC')
        const [set, metric] = positional as [string, string]
        const last = positiveInt(flags, '--last')
        const tolText = flags.get('--tolerance')
        const tolerance = tolText === undefined ? 0 : Number(tolText)
        if (!Number.isFinite(tolerance) || tolerance < 0)
          throw new UsageError(`--tolerance needs a number ≥ 0 (a fraction of the metric's scale), got ${JSON.stringify(tolText)}`)
        const series = await withStore(target, cwd, false, async (s) => {
          const found = await s.metricSeries(set, metric, { ...(last ? { last } : {}), tolerance, ...(flags.has('--branch') ? { branch: flags.get('--branch') } : {}) })
          if (found.points.length === 0) {
            const metrics = await s.metricsOf(set)
            const sets = metrics.length === 0 ? await s.setNames() : []
            throw new HistoryError(
              metrics.length === 0
                ? `no eval set '${set}' in the history${sets.length > 0 ? ` (sets: ${sets.slice(0, 10).join(', ')})` : ''}`
                : `eval set '${set}' has no metric '${metric}' (metrics: ${metrics.slice(0, 10).join(', ')})`,
            )
          }
          return found
        })
        await out(series, trendText(series))
        return EXIT.ok
      }
      case 'case': {
        arity(2, 'SET CASE_ID')
        const [set, id] = positional as [string, string]
        const last = positiveInt(flags, '--last')
        const points = await withStore(target, cwd, false, (s) => s.caseSeries(set, id, last ? { last } : {}))
        if (points.length === 0) throw new HistoryError(`no case '${id}' of eval set '${set}' in the history`)
        const metrics = [...new Set(points.flatMap((p) => Object.keys(p.values)))]
        const rows = [
          ['run', 'ended', ...metrics, 'retrieved', 'answer'],
          ...points.map((p) => [
            p.runId,
            when(p.endedAt),
            ...metrics.map((m) => {
              const v = p.values[m]
              return v === undefined ? '—' : v === null ? 'n/a' : formatNumber(v, undefined, 4)
            }),
            p.retrieved ? p.retrieved.slice(0, 5).join(',') + (p.retrieved.length > 5 ? ',…' : '') : '—',
            p.answer === undefined ? '—' : JSON.stringify(p.answer.length > 60 ? `${p.answer.slice(0, 59)}…` : p.answer),
          ]),
        ]
        await out({ set, case: id, runs: points }, `${set} › ${id}\n${table(rows, { indent: '', max: Number.MAX_SAFE_INTEGER })}\n`)
        return EXIT.ok
      }
      case 'import': {
        arity(1, 'one or more rag-report.json files', true)
        const reports = positional.map((file) => ({ file, report: readReportFile(resolve(cwd, file)) }))
        const results = await withStore(target, cwd, true, async (s) => {
          const out: Array<{ file: string; id: string; added: boolean }> = []
          for (const { file, report } of reports) out.push({ file, ...(await s.append(report, { source: 'import' })) })
          return out
        })
        const text = results.map((r) => `${r.added ? 'added' : 'already stored'} ${r.id}  ${r.file}`).join('\n')
        const added = results.filter((r) => r.added).length
        await out(results, `${text}\n${added} of ${results.length} report${results.length === 1 ? '' : 's'} added to ${target.kind === 'sqlite' ? target.path : ''}\n`)
        return EXIT.ok
      }
      case 'export': {
        arity(0, 'no arguments')
        const format = flags.get('--format') ?? 'jsonl'
        if (format !== 'jsonl') throw new UsageError(`--format must be jsonl, got ${JSON.stringify(format)}`)
        await withStore(target, cwd, false, async (s) => {
          for await (const entry of s.exportRuns()) await writeOut(io.stdout, `${JSON.stringify(entry)}\n`)
        })
        return EXIT.ok
      }
      case 'prune': {
        arity(0, 'no arguments')
        const keep = positiveInt(flags, '--keep', 0)
        const olderText = flags.get('--older-than')
        const olderThanMs = olderText === undefined ? undefined : parseAge(olderText)
        if (olderText !== undefined && olderThanMs === undefined) throw new UsageError(`--older-than needs an age like 30d, 12h, 2w or 90m, got ${JSON.stringify(olderText)}`)
        if (keep === undefined && olderThanMs === undefined) throw new UsageError('history prune needs --keep N or --older-than AGE')
        const removed = await withStore(target, cwd, true, (s) => s.prune({ ...(keep !== undefined ? { keep } : {}), ...(olderThanMs !== undefined ? { olderThanMs } : {}) }))
        await out({ removed }, `removed ${removed} run${removed === 1 ? '' : 's'}\n`)
        return EXIT.ok
      }
    }
    return EXIT.usage
  } catch (error) {
    if (error instanceof UsageError) return reportFailure(io, 'history', EXIT.usage, `${error.message}\n${HISTORY_USAGE}`)
    if (error instanceof HistoryError) return reportFailure(io, 'history', error.kind === 'usage' ? EXIT.usage : EXIT.input, error.message)
    const code = (error as { code?: unknown }).code
    // A store that SQLite refuses mid-read (corrupt, locked too long): the cause, not a stack.
    if (typeof code === 'string' && /SQLITE/i.test(code)) return reportFailure(io, 'history', EXIT.input, sqliteMessage(error))
    throw error
  }
}
