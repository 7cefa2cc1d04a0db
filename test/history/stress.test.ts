// Nothing lost: 8 child processes append runs to one SQLite file at the same moment, 20 times; every run is stored whole.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildSync } from 'esbuild'
import { afterAll, expect, test } from 'vitest'
import { HistoryStore } from '../../src/history/store.js'

const WORKERS = 8
const ROUNDS = 20
const dir = mkdtempSync(join(tmpdir(), 'rag-history-stress-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function runChild(script: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, RAG_MATCHERS_HISTORY: '' } })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

test(`${WORKERS} processes × ${ROUNDS} simultaneous appends: every run stored whole`, { timeout: 120_000 }, async () => {
  const entry = join(dir, 'entry.ts')
  writeFileSync(entry, `import { main } from ${JSON.stringify(join(import.meta.dirname, 'stress-child.ts'))}\nawait main()\n`)
  const script = join(dir, 'child.mjs')
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: script,
    external: ['better-sqlite3'],
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  })
  // better-sqlite3 is resolved from the repo: the bundle lives in a temp dir, so point NODE_PATH there.
  process.env.NODE_PATH = join(import.meta.dirname, '..', '..', 'node_modules')
  const file = join(dir, 'history.sqlite')
  const startAt = Date.now() + 1500
  const results = await Promise.all(Array.from({ length: WORKERS }, (_, w) => runChild(script, [file, String(w), String(ROUNDS), String(startAt), '120'])))
  for (const r of results) expect(r.stderr).toBe('')
  expect(results.map((r) => r.code)).toEqual(Array(WORKERS).fill(0))
  const store = await HistoryStore.open({ kind: 'sqlite', path: file }, { root: dir, write: false })
  const runs = WORKERS * ROUNDS
  expect(await store.counts()).toEqual({ runs, evalSets: runs * 3, metricRows: runs * 12, cases: runs * 3 * 25, caseValues: runs * 3 * 4 * 25 })
  const perRun = await store.backend.all<{ n: number }>(`SELECT COUNT(*) AS n FROM case_values GROUP BY run_id`)
  expect(perRun.every((r) => Number(r.n) === 300)).toBe(true)
  const reports = await store.backend.all<{ id: string }>(`SELECT id FROM runs`)
  for (const { id } of reports) expect((await store.readRun(id)).evalSets).toHaveLength(3)
  await store.close()
  console.log(`stress: ${runs} runs attempted by ${WORKERS} processes, ${reports.length} stored whole`)
})
