/**
 * `rag-matchers ui`: a local web app over the run history (docs/ui.md).
 *
 *   rag-matchers ui [--port 5178] [--host 127.0.0.1] [--history PATH|URL] [--open] [--rate [--rubric FILE]]
 *   rag-matchers ui --export DIR [--history PATH|URL]
 *   rag-matchers ui --export-ratings FILE [--history PATH|URL]
 *
 * The store: --history, else RAG_MATCHERS_HISTORY, else the nearest .rag-matchers/history.sqlite from the
 * current folder up (as `rag-matchers history`). A store that does not exist yet is served as an empty
 * history that says how to record a run. `--rate` turns on the rate view's one write (people's ratings
 * into the store, docs/ui.md); `--export-ratings` writes every stored rating as the JSONL that
 * `rag-matchers align` and the agreement API read. Exit codes: 0 stopped / exported, 1 usage, 2 input (a store of
 * an unknown schema or that cannot be read, the port in use, an export folder that is not empty).
 */
import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import { HistoryError } from '../src/history/errors.js'
import { findAppDir } from '../src/ui/app-files.js'
import { exportUi } from '../src/ui/export.js'
import { writeFileSync } from 'node:fs'
import { allRatings, ratingsJsonl } from '../src/history/ratings.js'
import { HistoryStore } from '../src/history/store.js'
import { UiResources } from '../src/ui/resources.js'
import { DEFAULT_RUBRIC, loadRubric, RubricError, type Rubric } from '../src/ui/rubric.js'
import { ListenError, startUiServer } from '../src/ui/server.js'
import { compareReports } from './compare.js'
import { historyTarget } from './history-target.js'
import { EXIT, reportFailure, type CliIo } from './io.js'

export const UI_USAGE = `usage: rag-matchers ui [--port 5178] [--host 127.0.0.1] [--history PATH|URL] [--open] [--rate [--rubric FILE]]
       rag-matchers ui --export DIR [--history PATH|URL]
       rag-matchers ui --export-ratings FILE [--history PATH|URL]
  --port N        port to listen on (default 5178; 0: any free port)
  --host H        address to bind (default 127.0.0.1: this machine only)
  --history S     the history store (default: RAG_MATCHERS_HISTORY, else the nearest .rag-matchers/history.sqlite)
  --open          open the page in the default browser
  --export DIR    write the app and its data as static files (for a CI artifact or GitHub Pages) and exit
  --rate          let people rate answers in the page (#/rate); the ratings are written to the store
  --rubric FILE   the rate view's rubric (JSON: dimensions, 1-5 or pass-fail, text; docs/ui.md); default one 1-5 dimension
  --export-ratings FILE  write every stored rating as JSONL (for rag-matchers align and loadRatings) and exit`

export const DEFAULT_PORT = 5178
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1'])

class UsageError extends Error {}

interface UiArgs {
  readonly port: number
  readonly host: string
  readonly history?: string
  readonly open: boolean
  readonly exportDir?: string
  readonly rate: boolean
  readonly rubric?: string
  readonly exportRatings?: string
  readonly help: boolean
}

export function parseUiArgs(argv: readonly string[]): UiArgs {
  const values = new Map<string, string>()
  let open = false
  let help = false
  let rate = false
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--open') open = true
    else if (arg === '--rate') rate = true
    else if (arg === '-h' || arg === '--help') help = true
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const name = eq > 0 ? arg.slice(0, eq) : arg
      if (!['--port', '--host', '--history', '--store', '--export', '--rubric', '--export-ratings'].includes(name)) throw new UsageError(`unknown option ${name}`)
      const value = eq > 0 ? arg.slice(eq + 1) : argv[++i]
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value`)
      values.set(name === '--store' ? '--history' : name, value)
    } else throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`)
  }
  const portText = values.get('--port')
  const port = portText === undefined ? DEFAULT_PORT : Number(portText)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port needs an integer from 0 to 65535, got ${JSON.stringify(portText)}`)
  if (values.has('--export') && (values.has('--port') || values.has('--host') || open))
    throw new UsageError('--export writes files and serves nothing: drop --port, --host and --open')
  if (values.has('--export') && rate) throw new UsageError('a static export cannot store ratings: drop --rate (rating needs the server)')
  if (values.has('--rubric') && !rate) throw new UsageError("--rubric is the rate view's: add --rate")
  if (values.has('--export-ratings') && (values.has('--export') || rate || open || values.has('--port') || values.has('--host')))
    throw new UsageError('--export-ratings writes one file and serves nothing: give it with --history only')
  return {
    port,
    host: values.get('--host') ?? '127.0.0.1',
    ...(values.has('--history') ? { history: values.get('--history') } : {}),
    open,
    ...(values.has('--export') ? { exportDir: values.get('--export') } : {}),
    rate,
    ...(values.has('--rubric') ? { rubric: values.get('--rubric') } : {}),
    ...(values.has('--export-ratings') ? { exportRatings: values.get('--export-ratings') } : {}),
    help,
  }
}

/** Opens `url` in the default browser; a failure is one line, never a stop. */
function openBrowser(url: string, io: CliIo): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
  try {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore' })
    child.on('error', () => io.stderr.write(`rag-matchers ui: could not start ${command}; open ${url} yourself\n`))
    child.unref()
  } catch {
    io.stderr.write(`rag-matchers ui: could not start ${command}; open ${url} yourself\n`)
  }
}

/** Resolves on Ctrl-C or SIGTERM. */
function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done)
      process.off('SIGTERM', done)
      resolve()
    }
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
}

/** For tests: the folder to resolve paths from, the built app, and a promise that stops the server (default: Ctrl-C or SIGTERM). */
export interface UiRunContext {
  readonly cwd?: string
  readonly appDir?: string
  readonly stop?: Promise<void>
}

export async function run(argv: readonly string[], io: CliIo, context: UiRunContext = {}): Promise<number> {
  const cwd = context.cwd ?? process.cwd()
  let args: UiArgs
  try {
    args = parseUiArgs(argv)
  } catch (error) {
    if (error instanceof UsageError) return reportFailure(io, 'ui', EXIT.usage, `${error.message}\n${UI_USAGE}`)
    throw error
  }
  if (args.help) {
    io.stdout.write(`${UI_USAGE}\n`)
    return EXIT.ok
  }
  if (args.exportRatings !== undefined) return exportRatings(args, cwd, io)
  let rubric: Rubric | undefined
  if (args.rate) {
    try {
      rubric = args.rubric !== undefined ? loadRubric(resolve(cwd, args.rubric)) : DEFAULT_RUBRIC
    } catch (error) {
      if (error instanceof RubricError) return reportFailure(io, 'ui', EXIT.input, error.message)
      throw error
    }
  }
  const appDir = context.appDir ?? findAppDir()
  if (appDir === undefined) return reportFailure(io, 'ui', EXIT.input, 'the web app is not built (no ui/app/index.html in dist): run `npm run build`')
  let resources: UiResources
  try {
    const target = historyTarget(args.history, cwd)
    if (target.kind === 'off') return reportFailure(io, 'ui', EXIT.usage, 'the run history is off (RAG_MATCHERS_HISTORY=off): give --history PATH')
    resources = new UiResources({ target, root: cwd, mode: args.exportDir !== undefined ? 'static' : 'server', compareReports, ...(rubric ? { rubric } : {}) })
    // a store of another schema, or not a database, is refused now rather than on the first page
    await resources.open()
  } catch (error) {
    if (error instanceof HistoryError) return reportFailure(io, 'ui', error.kind === 'usage' ? EXIT.usage : EXIT.input, error.message)
    throw error
  }
  try {
    if (args.exportDir !== undefined) {
      const dir = resolve(cwd, args.exportDir)
      const result = await exportUi(resources, appDir, dir)
      io.stdout.write(
        `rag-matchers ui: wrote ${result.files} files (${result.resources} data files, ${Math.round(result.bytes / 1024)} kB) to ${dir}; open ${join(dir, 'index.html')}\n`,
      )
      return EXIT.ok
    }
    let running
    try {
      running = await startUiServer({ resources, appDir, host: args.host, port: args.port })
    } catch (error) {
      if (error instanceof ListenError) return reportFailure(io, 'ui', EXIT.input, error.message)
      throw error
    }
    if (!LOOPBACK.has(args.host)) {
      io.stderr.write(
        `rag-matchers ui: warning: listening on ${args.host}, not only this machine: anyone who can reach ${running.url} can read the run history (questions, answers, ids)\n`,
      )
    }
    io.stdout.write(`rag-matchers ui: ${running.url} (history: ${resources.storeLabel}; Ctrl-C to stop)\n`)
    if (rubric) io.stdout.write(`rag-matchers ui: rating is on: ${running.url}#/rate (ratings are written to the store)\n`)
    // the first page's data is read while the browser starts (the server answers meanwhile)
    const prepared = resources.prepare()
    if (args.open) openBrowser(running.url, io)
    await (context.stop ?? stopSignal())
    resources.stopPreparing()
    await prepared
    await running.close()
    return EXIT.ok
  } catch (error) {
    if (error instanceof HistoryError) return reportFailure(io, 'ui', EXIT.input, error.message)
    throw error
  } finally {
    await resources.close()
  }
}

/** `--export-ratings FILE`: every stored rating as JSONL; a store without ratings writes an empty file and says so. */
async function exportRatings(args: UiArgs, cwd: string, io: CliIo): Promise<number> {
  let store: HistoryStore | undefined
  try {
    const target = historyTarget(args.history, cwd)
    if (target.kind === 'off') return reportFailure(io, 'ui', EXIT.usage, 'the run history is off (RAG_MATCHERS_HISTORY=off): give --history PATH')
    store = await HistoryStore.open(target, { root: cwd, write: false })
    const ratings = await allRatings(store)
    const file = resolve(cwd, args.exportRatings as string)
    writeFileSync(file, ratingsJsonl(ratings))
    io.stdout.write(`rag-matchers ui: wrote ${ratings.length} ratings to ${file}${ratings.length === 0 ? ' (none stored yet: rate in `rag-matchers ui --rate`)' : ''}\n`)
    return EXIT.ok
  } catch (error) {
    if (error instanceof HistoryError) return reportFailure(io, 'ui', EXIT.input, error.message)
    const e = error as NodeJS.ErrnoException
    if (typeof e.code === 'string') return reportFailure(io, 'ui', EXIT.input, `cannot write ${args.exportRatings}: ${e.message}`)
    throw error
  } finally {
    await store?.close()
  }
}
