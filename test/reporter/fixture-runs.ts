// Runs the reporter fixture suite (test/fixtures/reporter-suite) under Vitest and Jest as child
// processes, the way a user's CI would, with every output in a temp folder.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildSync } from 'esbuild'
import type { RagReport } from '../../src/report/model.js'

export const repo = fileURLToPath(new URL('../..', import.meta.url))
export const fixture = join(repo, 'test/fixtures/reporter-suite')
/** Assertions that throw, a describeEvalSet that cannot run, a file that fails to load. */
export const errorsFixture = join(fixture, 'errors')
const vitestBin = join(repo, 'node_modules/vitest/vitest.mjs')
const jestBin = join(repo, 'node_modules/jest/bin/jest.js')

export interface Run {
  pid: number
  status: number | null
  stdout: string
  stderr: string
}

/** The parent's environment without the variables of the Vitest run we are inside, or of our reporters. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VITEST') || k.startsWith('RAG_') || k === 'TEST' || k === 'NODE_OPTIONS') continue
    env[k] = v
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true', ...extra }
}

function run(bin: string, args: string[], env: Record<string, string>): Run {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repo, env: childEnv(env), encoding: 'utf8', timeout: 120_000 })
  if (r.error) throw r.error
  return { pid: r.pid, status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** `vitest run --config <fixture>/vitest.config.ts …args`, our reporter writing to `out`. */
export function runVitest(args: string[], out: string, cache: string, dir: string = fixture): Run {
  return run(vitestBin, ['run', '--config', join(dir, 'vitest.config.ts'), ...args], { RAG_FIXTURE_OUT: out, RAG_FIXTURE_CACHE: cache })
}

/** Jest loads reporters without its transform: bundle ours (TypeScript sources) into one CJS file. */
export function bundleJestReporter(dir: string): string {
  const outfile = join(dir, 'jest-reporter.cjs')
  buildSync({ entryPoints: [join(repo, 'runners/jest-reporter.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile, logLevel: 'error' })
  return outfile
}

/** `jest --config <fixture>/jest.config.cjs …args` with the bundled reporter writing to `out`. */
export function runJest(args: string[], reporter: string, out: string, cache: string, extraEnv: Record<string, string> = {}, dir: string = fixture): Run {
  return run(jestBin, ['--config', join(dir, 'jest.config.cjs'), ...args], {
    RAG_FIXTURE_JEST_REPORTER: reporter,
    RAG_FIXTURE_OUT: out,
    RAG_FIXTURE_CACHE: cache,
    ...extraEnv,
  })
}

export function readReport(out: string): RagReport {
  const path = join(out, 'rag-report.json')
  if (!existsSync(path)) throw new Error(`no report at ${path}`)
  return JSON.parse(readFileSync(path, 'utf8')) as RagReport
}

/** The parts of a report that must not depend on how the run was split. */
export function numbers(report: RagReport) {
  return { summary: report.summary, evalSets: report.evalSets, singles: report.singles, assertions: report.assertions }
}
