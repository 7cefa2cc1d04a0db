/**
 * The progress line of an eval-set run, and when to show it.
 *
 * Under Vitest and Jest an eval set runs in a worker whose stderr is a pipe, never a TTY, so the
 * worker cannot tell by itself whether a person is watching. The runners pipe the worker's stderr
 * into the main process's stderr, so that is the channel: the worker writes whole lines there, and
 * the decision "is this run interactive" comes from the main process. Our reporters record it in
 * {@link INTERACTIVE_ENV} when they are created (before any worker starts, so workers inherit it);
 * without our reporter, Vitest's own `FORCE_TTY` (the main process's stdout is a TTY) stands in.
 */
import { MetricInputError } from '../errors.js'

export type ProgressMode = 'auto' | 'on' | 'off'

/** Forces progress for a whole run: `on`/`1`/`true`, `off`/`0`/`false`, or `auto`. */
export const PROGRESS_ENV = 'RAG_PROGRESS'
/** Set by the reporters in the runner's main process: `1` when its stderr is a TTY, else `0`. */
export const INTERACTIVE_ENV = 'RAG_MATCHERS_INTERACTIVE'

type Env = Readonly<Record<string, string | undefined>>

/** The numbers one progress line shows. */
export interface ProgressSnapshot {
  readonly done: number
  readonly total: number
  readonly failed: number
  readonly elapsedMs: number
  readonly etaMs: number | undefined
}

/** Where the progress line goes; `process.stderr` by default. */
export interface ProgressStream {
  write(text: string): unknown
  readonly isTTY?: boolean
}

/**
 * `CI` counts as set unless empty, `0` or `false` (case-insensitive), as CI services and std-env read it.
 * @example isCiEnvironment({ CI: 'true' }) // true; isCiEnvironment({ CI: 'false' }) // false
 */
export function isCiEnvironment(env: Env = process.env): boolean {
  const ci = env.CI
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false'
}

/**
 * The mode `RAG_PROGRESS` asks for, or undefined when it is unset or empty.
 * @throws MetricInputError for any other value, so a typo is not silently ignored
 * @example progressModeFromEnv({ RAG_PROGRESS: 'off' }) // 'off'
 */
export function progressModeFromEnv(env: Env = process.env): ProgressMode | undefined {
  const raw = env[PROGRESS_ENV]
  if (raw === undefined || raw.trim() === '') return undefined
  const v = raw.trim().toLowerCase()
  if (v === 'on' || v === '1' || v === 'true') return 'on'
  if (v === 'off' || v === '0' || v === 'false') return 'off'
  if (v === 'auto') return 'auto'
  throw new MetricInputError('runEvalSet', `the environment variable ${PROGRESS_ENV}`, "'on', 'off' or 'auto' (or 1/0, true/false)", raw)
}

/**
 * Whether a person is watching the run: the stream is a TTY (a plain script, Jest in band), or it
 * is this process's own stderr, which a test runner forwards to its main process, and that process
 * is interactive: as a reporter recorded it, else Vitest's `FORCE_TTY`. Any other stream is judged
 * by its own `isTTY` alone.
 */
export function isInteractiveRun(stream: ProgressStream, env: Env = process.env): boolean {
  if (stream.isTTY === true) return true
  if (stream !== process.stderr) return false
  const recorded = env[INTERACTIVE_ENV]
  if (recorded === '1' || recorded === '0') return recorded === '1'
  return env.VITEST !== undefined && env.FORCE_TTY === 'true'
}

/**
 * Whether to print progress. An explicit `option` wins, then `RAG_PROGRESS`, then `auto`: shown when
 * the run is interactive ({@link isInteractiveRun}) and `CI` is not set.
 * @example shouldShowProgress(undefined, process.stderr, { CI: 'true' }) // false
 */
export function shouldShowProgress(option: ProgressMode | undefined, stream: ProgressStream, env: Env = process.env): boolean {
  const mode = option ?? progressModeFromEnv(env) ?? 'auto'
  if (mode !== 'auto') return mode === 'on'
  return !isCiEnvironment(env) && isInteractiveRun(stream, env)
}

/**
 * Called by a reporter in the runner's main process, before workers start: records whether that
 * process's stderr is a TTY for the workers to read. A value already set (by an outer run) is kept.
 */
export function recordInteractiveRun(stream: ProgressStream = process.stderr, env: Record<string, string | undefined> = process.env): void {
  if (env[INTERACTIVE_ENV] === undefined) env[INTERACTIVE_ENV] = stream.isTTY === true ? '1' : '0'
}

export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`
  const m = Math.floor(ms / 60_000)
  return `${m}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`
}

/**
 * One progress line, naming the eval set when it has a name.
 * @example formatProgressLine({ done: 3, total: 10, failed: 0, elapsedMs: 1500, etaMs: 3500 }, 'qa')
 * // 'rag-matchers eval set "qa": 3/10 (30%), elapsed 1.5s, ETA 3.5s'
 */
export function formatProgressLine(p: ProgressSnapshot, name?: string): string {
  const pct = Math.floor((100 * p.done) / p.total)
  const failed = p.failed > 0 ? `, ${p.failed} failed` : ''
  const eta = p.etaMs === undefined ? '' : `, ETA ${formatDuration(p.etaMs)}`
  const label = name === undefined ? 'rag-matchers eval set' : `rag-matchers eval set ${JSON.stringify(name)}`
  return `${label}: ${p.done}/${p.total} (${pct}%)${failed}, elapsed ${formatDuration(p.elapsedMs)}${eta}`
}

/** Between two lines on a pipe (a runner's log): few enough to read, often enough to see it move. */
export const LINE_INTERVAL_MS = 1000
/** Between two redraws of a line we own on a TTY. */
export const REDRAW_INTERVAL_MS = 100

/**
 * A function printing snapshots to `stream`: on a TTY one line rewritten in place; on a pipe (a test
 * worker, whose stderr the runner forwards and whose summary it redraws below) whole lines, at most
 * one per second, so a runner's log never receives a half line. The first and the last snapshot are
 * always printed.
 */
export function progressPrinter(stream: ProgressStream, name?: string): (p: ProgressSnapshot) => void {
  const inPlace = stream.isTTY === true
  const interval = inPlace ? REDRAW_INTERVAL_MS : LINE_INTERVAL_MS
  let last: number | undefined
  return (p) => {
    const final = p.done === p.total
    if (!final && last !== undefined && p.elapsedMs - last < interval) return
    last = p.elapsedMs
    const line = formatProgressLine(p, name)
    // \r rewrites the line in place; \x1b[K clears what a longer previous line left behind
    stream.write(inPlace ? `\r${line}\x1b[K${final ? '\n' : ''}` : `${line}\n`)
  }
}
