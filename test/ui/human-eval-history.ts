// A run history from a real run of the human-eval example's judge suite (examples/human-eval/judge-trials.test.ts):
// Vitest runs it in a child process with the rag-matchers reporter, which records the run (8 answers of
// transformer-qa, the stand-in judge's correctness rubric over 5 trials, replayed from the committed cache)
// into a temporary SQLite store, as `npm run example` records into .rag-matchers/history.sqlite.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const repo = join(import.meta.dirname, '..', '..')

export interface ExampleHistory {
  readonly dir: string
  /** The SQLite store's path. */
  readonly store: string
}

/** Runs the example suite once and returns the store it was recorded in. */
export function recordHumanEvalRun(): ExampleHistory {
  const dir = mkdtempSync(join(tmpdir(), 'rag-ui-human-eval-'))
  const store = join(dir, 'history.sqlite')
  const config = join(dir, 'vitest.config.mjs')
  const reporter = join(repo, 'runners', 'reporter.ts')
  writeFileSync(
    config,
    `export default {\n  test: {\n    globals: true,\n    root: ${JSON.stringify(repo)},\n    include: ['examples/human-eval/judge-trials.test.ts'],\n    setupFiles: ['examples/setup.ts'],\n    testTimeout: 60000,\n    reporters: [[${JSON.stringify(reporter)}, { outputDir: ${JSON.stringify(join(dir, 'rag-report'))}, history: ${JSON.stringify(store)} }]],\n  },\n}\n`,
  )
  const result = spawnSync(process.execPath, [join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, RAG_MATCHERS_HISTORY: store, CI: 'true' },
    timeout: 180_000,
  })
  if (result.status !== 0) throw new Error(`the human-eval example suite failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`)
  return { dir, store }
}
