// Progress a person sees: the progress fixture (one ~1.5 s eval set) run by a real Vitest in a
// pseudo-terminal (`script` from util-linux), so the main process's stderr is a TTY while the worker's
// is a pipe, exactly as in a developer's terminal; and run as CI would, where no progress may show.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { bundleJestReporter, repo } from './fixture-runs.js'
import { MetricInputError } from '../../src/errors.js'
import { INTERACTIVE_ENV, formatProgressLine, progressModeFromEnv, progressPrinter, shouldShowProgress } from '../../src/eval-set/progress.js'

const SLOW = 180_000
const config = join(repo, 'test/fixtures/progress-suite/vitest.config.ts')
const jestConfig = join(repo, 'test/fixtures/progress-suite/jest.config.cjs')
const vitestBin = join(repo, 'node_modules/vitest/vitest.mjs')
const jestBin = join(repo, 'node_modules/jest/bin/jest.js')
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0
const LINE = /rag-matchers eval set "slow qa": (\d+)\/24 \(\d+%\)/g

interface Run {
  status: number | null
  output: string
}

let tmp: string

/** The parent's environment without the variables of the Vitest run we are inside, CI or ours. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VITEST') || k.startsWith('RAG_') || k === 'TEST' || k === 'NODE_OPTIONS' || k === 'CI' || k === 'FORCE_TTY') continue
    out[k] = v
  }
  return { ...out, RAG_FIXTURE_OUT: join(tmp, String(Math.random()).slice(2)), ...extra }
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`

/** Vitest (or Jest) on the fixture, in a pseudo-terminal (`pty`) or with plain pipes; stdout and stderr together. */
function runFixture(pty: boolean, extra: Record<string, string> = {}, argv = [process.execPath, vitestBin, 'run', '--config', config]): Run {
  const r = pty
    ? spawnSync('script', ['-q', '-e', '-c', argv.map(quote).join(' '), '/dev/null'], {
        cwd: repo,
        env: env(extra),
        encoding: 'utf8',
        timeout: 120_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawnSync(argv[0] as string, argv.slice(1), { cwd: repo, env: env(extra), encoding: 'utf8', timeout: 120_000 })
  if (r.error) throw r.error
  return { status: r.status, output: stripVTControlCharacters(`${r.stdout}${r.stderr}`).replace(/\r/g, '\n') }
}

const counts = (output: string) => [...output.matchAll(LINE)].map((m) => Number(m[1]))

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'rag-progress-pty-'))
})

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

describe.runIf(hasScript)('eval-set progress under a real Vitest run', () => {
  it(
    'shows progress naming the eval set in a terminal, through the main process, ending at 24/24',
    () => {
      const run = runFixture(true)
      expect(run.status, run.output).toBe(0)
      const seen = counts(run.output)
      // the first case and the last are always printed; a line per second in between
      expect(seen[0], run.output).toBe(1)
      expect(seen.at(-1)).toBe(24)
      expect(seen).toEqual([...seen].sort((a, b) => a - b))
      // the run itself still reports
      expect(run.output).toContain('Eval set "slow qa" (slow.suite.ts) · 24 cases · pass')
    },
    SLOW,
  )

  it(
    'shows it without our reporter too (Vitest tells its workers the terminal is a TTY)',
    () => {
      const run = runFixture(true, { RAG_FIXTURE_NO_REPORTER: '1' })
      expect(run.status, run.output).toBe(0)
      expect(counts(run.output).at(-1), run.output).toBe(24)
      expect(run.output).not.toContain('Eval set "slow qa"')
    },
    SLOW,
  )

  it(
    'prints no progress under CI=true, nor with RAG_PROGRESS=off, even in a terminal',
    () => {
      for (const extra of [{ CI: 'true' }, { RAG_PROGRESS: 'off' }]) {
        const run = runFixture(true, extra)
        expect(run.status, run.output).toBe(0)
        expect(run.output).toContain('slow.suite.ts')
        expect(counts(run.output), JSON.stringify(extra)).toEqual([])
      }
    },
    SLOW,
  )

  it(
    'RAG_PROGRESS=on forces it in CI with no terminal at all, as whole lines',
    () => {
      const run = runFixture(false, { CI: 'true', RAG_PROGRESS: 'on' })
      expect(run.status, run.output).toBe(0)
      expect(counts(run.output).at(-1), run.output).toBe(24)
      expect(run.output).toMatch(/^rag-matchers eval set "slow qa": 24\/24 \(100%\), elapsed \d+\.\ds, ETA 0\.0s$/m)
    },
    SLOW,
  )
})

describe.runIf(hasScript)('eval-set progress under a real Jest run', () => {
  // Two files, two workers and a fresh cache: Jest runs them in worker processes, whose stderr it pipes.
  const jest = (extra: Record<string, string>) =>
    runFixture(true, { RAG_FIXTURE_JEST_REPORTER: bundleJestReporter(tmp), ...extra }, [process.execPath, jestBin, '--config', jestConfig, '--maxWorkers=2'])

  it(
    'shows progress naming the eval set in a terminal, and none under CI=true',
    () => {
      const shown = jest({})
      expect(shown.status, shown.output).toBe(0)
      expect(counts(shown.output)[0], shown.output).toBe(1)
      expect(counts(shown.output).at(-1)).toBe(24)
      const ci = jest({ CI: 'true' })
      expect(ci.status, ci.output).toBe(0)
      expect(ci.output).toContain('slow.jest.ts')
      expect(counts(ci.output)).toEqual([])
    },
    SLOW,
  )
})

describe('when progress shows (the decision the child runs above exercise)', () => {
  const pipe = { write: () => true, isTTY: false }
  const tty = { write: () => true, isTTY: true }

  it('auto: a TTY stream, or stderr of a worker whose main process is interactive; never under CI', () => {
    expect(shouldShowProgress(undefined, tty, {})).toBe(true)
    expect(shouldShowProgress(undefined, pipe, {})).toBe(false)
    expect(shouldShowProgress(undefined, tty, { CI: 'true' })).toBe(false)
    // a custom stream is judged by itself, whatever the main process said
    expect(shouldShowProgress('auto', pipe, { [INTERACTIVE_ENV]: '1' })).toBe(false)
    const stderr = process.stderr.isTTY === true ? undefined : process.stderr
    if (stderr !== undefined) {
      expect(shouldShowProgress(undefined, stderr, { [INTERACTIVE_ENV]: '1' })).toBe(true)
      expect(shouldShowProgress(undefined, stderr, { [INTERACTIVE_ENV]: '0', VITEST: 'true', FORCE_TTY: 'true' })).toBe(false)
      expect(shouldShowProgress(undefined, stderr, { VITEST: 'true', FORCE_TTY: 'true' })).toBe(true)
      expect(shouldShowProgress(undefined, stderr, { [INTERACTIVE_ENV]: '1', CI: '1' })).toBe(false)
    }
  })

  it('an explicit option wins over RAG_PROGRESS, which wins over auto; a bad RAG_PROGRESS is an error', () => {
    expect(shouldShowProgress('off', tty, { RAG_PROGRESS: 'on' })).toBe(false)
    expect(shouldShowProgress('on', pipe, { CI: 'true', RAG_PROGRESS: 'off' })).toBe(true)
    expect(shouldShowProgress(undefined, pipe, { CI: 'true', RAG_PROGRESS: '1' })).toBe(true)
    expect(shouldShowProgress(undefined, tty, { RAG_PROGRESS: 'false' })).toBe(false)
    expect(progressModeFromEnv({ RAG_PROGRESS: ' ' })).toBeUndefined()
    expect(() => progressModeFromEnv({ RAG_PROGRESS: 'yes' })).toThrow(MetricInputError)
    expect(() => progressModeFromEnv({ RAG_PROGRESS: 'yes' })).toThrow('RAG_PROGRESS')
  })

  it('prints whole lines at most once a second on a pipe, always the first and the last', () => {
    const chunks: string[] = []
    const print = progressPrinter({ write: (t: string) => chunks.push(t), isTTY: false }, 'qa')
    const at = (done: number, elapsedMs: number) => print({ done, total: 4, failed: done === 4 ? 1 : 0, elapsedMs, etaMs: (elapsedMs / done) * (4 - done) })
    at(1, 100)
    at(2, 600)
    at(3, 1200)
    at(4, 1300)
    expect(chunks).toEqual([
      formatProgressLine({ done: 1, total: 4, failed: 0, elapsedMs: 100, etaMs: 300 }, 'qa') + '\n',
      formatProgressLine({ done: 3, total: 4, failed: 0, elapsedMs: 1200, etaMs: 400 }, 'qa') + '\n',
      formatProgressLine({ done: 4, total: 4, failed: 1, elapsedMs: 1300, etaMs: 0 }, 'qa') + '\n',
    ])
    expect(chunks[2]).toBe('rag-matchers eval set "qa": 4/4 (100%), 1 failed, elapsed 1.3s, ETA 0.0s\n')
  })
})
