// Runs the un-awaited matcher fixture suite (test/fixtures/unawaited-suite) under Vitest, Jest with
// 'rag-matchers/jest' and Jest with 'rag-matchers/jest-globals', as child processes the way a user's
// CI would: a test that forgets `await` on an async matcher fails by name, with the matcher and its
// line, the other tests pass, nothing is reported as unhandled, and the run exits non-zero.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = fileURLToPath(new URL('../..', import.meta.url))
const fixture = join(repo, 'test/fixtures/unawaited-suite')

interface Outcome {
  status: number | null
  output: string
  /** `file > test title` → passed/failed, from the runner's JSON report. */
  tests: Record<string, string>
  failures: Record<string, string>
}

/** The parent's environment without the variables of the Vitest run we are inside. */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('VITEST') || k.startsWith('JEST') || k.startsWith('RAG_') || k === 'TEST' || k === 'NODE_OPTIONS' || k === 'CI') continue
    env[k] = v
  }
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra }
}

interface JsonReport {
  testResults: Array<{ name: string; assertionResults: Array<{ title: string; status: string; failureMessages: string[] }> }>
}

function run(bin: string, args: string[], json: string, env: Record<string, string>): Outcome {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: repo, env: childEnv(env), encoding: 'utf8', timeout: 150_000 })
  if (r.error) throw r.error
  const report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport
  const tests: Record<string, string> = {}
  const failures: Record<string, string> = {}
  for (const file of report.testResults) {
    const base = file.name.split(/[\\/]/).pop() as string
    for (const t of file.assertionResults) {
      tests[`${base} > ${t.title}`] = t.status
      if (t.failureMessages.length > 0) failures[`${base} > ${t.title}`] = t.failureMessages.join('\n')
    }
  }
  return { status: r.status, output: `${r.stdout}\n${r.stderr}`, tests, failures }
}

const message = (file: string, line: number, column: number): string =>
  `toBeGroundedIn was not awaited (test/fixtures/unawaited-suite/${file}:${line}:${column}): write \`await expect(…).toBeGroundedIn(…)\`. ` +
  'An async matcher that is not awaited cannot fail the test.'

const expectedTests = {
  'forgot-failing.suite.ts > forgets await on a failing matcher': 'failed',
  'forgot-failing.suite.ts > awaits a passing matcher': 'passed',
  'forgot-passing.suite.ts > forgets await on a passing matcher': 'failed',
  'forgot-passing.suite.ts > runs after it, green': 'passed',
  'awaited.suite.ts > await': 'passed',
  'awaited.suite.ts > a failing matcher awaited through .rejects': 'passed',
  'awaited.suite.ts > .resolves and .rejects on the received value': 'passed',
  'awaited.suite.ts > Promise.all': 'passed',
  'awaited.suite.ts > returned from the test': 'passed',
  'awaited.suite.ts > .then and .catch': 'passed',
  'awaited.suite.ts > an async helper that returns it': 'passed',
  'awaited.suite.ts > asymmetric matchers': 'passed',
  'awaited.suite.ts > expect.soft, awaited': 'passed',
}

function checkOutcome(r: Outcome): void {
  expect(r.tests).toEqual(expectedTests)
  expect(Object.keys(r.failures).sort()).toEqual([
    'forgot-failing.suite.ts > forgets await on a failing matcher',
    'forgot-passing.suite.ts > forgets await on a passing matcher',
  ])
  expect(r.failures['forgot-failing.suite.ts > forgets await on a failing matcher']).toContain(message('forgot-failing.suite.ts', 7, 15))
  expect(r.failures['forgot-passing.suite.ts > forgets await on a passing matcher']).toContain(message('forgot-passing.suite.ts', 7, 16))
  // the failing verdict is not reported on its own, in this test or another
  expect(r.output).not.toContain('groundedness = 0.5000')
  expect(r.output).not.toMatch(/unhandled/i)
  // Jest: nothing ran after the environment was torn down
  expect(r.output).not.toContain('ReferenceError')
  expect(r.output).not.toContain('soft deleted')
  expect(r.status).not.toBe(0)
}

describe('an un-awaited async matcher fails the test that made it', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rag-matchers-unawaited-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('under Vitest (rag-matchers/vitest)', () => {
    const json = join(dir, 'vitest.json')
    const r = run(
      join(repo, 'node_modules/vitest/vitest.mjs'),
      ['run', '--config', join(fixture, 'vitest.config.ts'), '--reporter=default', '--reporter=json', `--outputFile.json=${json}`],
      json,
      { RAG_FIXTURE_CACHE: join(dir, 'vitest-cache') },
    )
    checkOutcome(r)
  }, 180_000)

  it.each([
    ['rag-matchers/jest', 'setup-jest.ts'],
    ['rag-matchers/jest-globals', 'setup-jest-globals.ts'],
  ])(
    'under Jest (%s)',
    (_entry, setup) => {
      const json = join(dir, `jest-${setup}.json`)
      const r = run(join(repo, 'node_modules/jest/bin/jest.js'), ['--config', join(fixture, 'jest.config.cjs'), '--runInBand', '--json', `--outputFile=${json}`], json, {
        RAG_FIXTURE_CACHE: join(dir, 'jest-cache'),
        RAG_FIXTURE_JEST_SETUP: join(fixture, setup),
      })
      checkOutcome(r)
    },
    180_000,
  )
})
