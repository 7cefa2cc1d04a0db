// Nothing lost, on both backends: 8 child processes append runs to one store at the same moment, 20 times,
// and every run is stored whole; 8 processes appending the same report at once store it once; a writer
// killed mid-run leaves no partial run. A missing `pg` is one message naming the package.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { HistoryStore } from '../../src/history/store.js'
import { BACKENDS, backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'
import { sameReport, stressReport } from './stress-child.js'

const WORKERS = 8
const ROUNDS = 20
const repo = join(import.meta.dirname, '..', '..')
const dir = mkdtempSync(join(tmpdir(), 'rag-history-stress-'))
const script = join(dir, 'child.mjs')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeAll(() => {
  const entry = join(dir, 'entry.ts')
  writeFileSync(entry, `import { main } from ${JSON.stringify(join(import.meta.dirname, 'stress-child.ts'))}\nawait main()\n`)
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    // The drivers stay outside the bundle, loaded as the store loads them (from the package, then the project root).
    external: ['better-sqlite3', 'pg'],
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  })
})

interface Child {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/** Runs the bundled child from `cwd` (the repo: the project root the drivers are found from); `onLine` sees each stdout line. */
function runChild(args: readonly string[], options: { cwd?: string; onLine?: (line: string, kill: () => void) => void } = {}): Promise<Child> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd ?? repo,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, RAG_MATCHERS_HISTORY: '' },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      for (const line of d.toString().split('\n').filter(Boolean)) options.onLine?.(line, () => child.kill('SIGKILL'))
    })
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  })
}

for (const kind of BACKENDS) {
  describe.skipIf(skipBackend(kind))(backendTitle('history under concurrent writers', kind), () => {
    const fx = storeFixture(kind)

    test(`${WORKERS} processes × ${ROUNDS} simultaneous appends: every run stored whole`, { timeout: 240_000 }, async () => {
      const { target, text, dir: root } = await fx.fresh()
      const startAt = Date.now() + 2000
      const results = await Promise.all(Array.from({ length: WORKERS }, (_, w) => runChild(['stress', text, String(w), String(ROUNDS), String(startAt), '150'])))
      for (const r of results) expect(r.stderr).toBe('')
      expect(results.map((r) => r.code)).toEqual(Array(WORKERS).fill(0))
      const store = await HistoryStore.open(target, { root, write: false })
      const runs = WORKERS * ROUNDS
      expect(await store.counts()).toEqual({ runs, evalSets: runs * 3, metricRows: runs * 12, cases: runs * 3 * 25, caseValues: runs * 3 * 4 * 25 })
      // Whole: each stored run reads back as the very report its worker appended.
      const stored = await store.listRuns()
      let whole = 0
      for (let w = 0; w < WORKERS; w++) {
        for (let round = 0; round < ROUNDS; round++) {
          const report = stressReport(w, round)
          const run = stored.find((r) => r.endedAt === report.createdAt)
          if (run && JSON.stringify(await store.readRun(run.id)) === JSON.stringify(report)) whole++
        }
      }
      await store.close()
      console.log(`stress (${kind}): ${runs} runs attempted by ${WORKERS} processes, ${whole} stored whole`)
      expect(whole).toBe(runs)
    })

    test(`${WORKERS} processes appending the same report at once: stored once, the others told it is there`, { timeout: 120_000 }, async () => {
      const { target, text, dir: root } = await fx.fresh()
      const startAt = Date.now() + 1500
      const results = await Promise.all(Array.from({ length: WORKERS }, (_, w) => runChild(['same', text, String(w), String(startAt)])))
      for (const r of results) expect(r.stderr).toBe('')
      expect(results.map((r) => r.stdout.trim()).sort()).toEqual(['added', ...Array(WORKERS - 1).fill('not added')])
      const store = await HistoryStore.open(target, { root, write: false })
      expect((await store.counts()).runs).toBe(1)
      expect(await store.readRun('last')).toEqual(sameReport())
      await store.close()
    })

    test('a writer killed mid-run leaves no partial run, and the store takes the next one', { timeout: 60_000 }, async () => {
      const { target, text, dir: root } = await fx.fresh()
      // The store exists with its schema first, so the kill lands in the run's transaction, not in the migration.
      await (await HistoryStore.open(target, { root, write: true })).close()
      let sawMidWrite = false
      const crashed = await runChild(['crash', text], {
        onLine: (line, kill) => {
          if (line === 'mid-write') {
            sawMidWrite = true
            kill()
          }
        },
      })
      expect(sawMidWrite).toBe(true)
      expect(crashed.signal).toBe('SIGKILL')
      const store = await HistoryStore.open(target, { root, write: true })
      expect(await store.counts()).toEqual({ runs: 0, evalSets: 0, metricRows: 0, cases: 0, caseValues: 0 })
      expect(await store.append(stressReport(0, 0), { source: 'vitest' })).toMatchObject({ added: true })
      expect((await store.counts()).runs).toBe(1)
      await store.close()
    })
  })
}

describe.skipIf(skipBackend('postgres'))(backendTitle('a project without pg', 'postgres'), () => {
  const fx = storeFixture('postgres')
  test('opening a PostgreSQL store is one message naming the package to install', { timeout: 60_000 }, async () => {
    // The child runs from a folder with no node_modules, and its bundle sits outside the repo: pg is found from neither.
    const { text } = await fx.fresh()
    const r = await runChild(['open', text], { cwd: dir })
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe(
      'a PostgreSQL history store needs the optional peer dependency pg, which is not installed (npm install -D pg), or turn history off (history: false / RAG_MATCHERS_HISTORY=off)\n',
    )
  })
})
