// History never changes a test result, end to end: the Vitest reporter records a real run (a fixture suite
// in a child process) into a PostgreSQL server; with the server down the run passes exactly as with history
// off, plus one warning line naming the store (password hidden).
import { spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { openHistory } from '../../src/history/public.js'
import { backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'

const repo = join(import.meta.dirname, '..', '..')
const config = join(repo, 'test/fixtures/injection-suite/vitest.config.ts')

/** The passing fixture under Vitest with the rag-matchers reporter; `history` is RAG_MATCHERS_HISTORY. */
function runFixture(history: string, tmp: string): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('VITEST') && !k.startsWith('RAG_') && k !== 'NODE_OPTIONS') env[k] = v
  const r = spawnSync(process.execPath, [join(repo, 'node_modules/vitest/vitest.mjs'), 'run', '--config', config, 'passing'], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true', RAG_MATCHERS_HISTORY: history, RAG_FIXTURE_OUT: join(tmp, 'out'), RAG_FIXTURE_CACHE: join(tmp, 'cache') },
  })
  if (r.error) throw r.error
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` }
}

const historyLines = (output: string) => output.split('\n').filter((l) => l.startsWith('rag-matchers history:'))
const testsLine = (output: string) =>
  output
    .split('\n')
    .find((l) => /^\s*Tests\s/.test(l))
    ?.replace(/\(\d+ms\)|\d+(\.\d+)?m?s/g, '')

describe.skipIf(skipBackend('postgres'))(backendTitle('the Vitest reporter and a PostgreSQL history', 'postgres'), () => {
  const fx = storeFixture('postgres')

  test('records the run in the server; with the server down the run passes as with history off, and says so in one line', { timeout: 300_000 }, async () => {
    const { text: url } = await fx.fresh()
    const recorded = runFixture(url, fx.tempDir())
    expect(recorded.status).toBe(0)
    expect(historyLines(recorded.output)).toEqual([])
    const store = await openHistory(url)
    const runs = await store.listRuns()
    await store.close()
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ source: 'vitest', runner: 'vitest', verdict: { status: 'pass' } })

    const off = runFixture('off', fx.tempDir())
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as { port: number }
        server.close(() => resolve(p))
      })
    })
    const down = runFixture(`postgres://rag:hidden-pw@127.0.0.1:${port}/runs`, fx.tempDir())
    expect(off.status).toBe(0)
    expect(down.status).toBe(off.status)
    expect(testsLine(down.output)).toBe(testsLine(off.output))
    expect(testsLine(off.output)).toMatch(/1 passed/)
    expect(historyLines(off.output)).toEqual([])
    expect(historyLines(down.output)).toEqual([
      `rag-matchers history: cannot record this run in postgres://rag:***@127.0.0.1:${port}/runs: cannot connect: connection refused at 127.0.0.1:${port} (ECONNREFUSED: is the server running?)`,
    ])
    expect(down.output).not.toContain('hidden-pw')
  })
})
