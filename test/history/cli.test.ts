// `rag-matchers history` in process on both backends: output, --json, exit codes (1 usage, 2 input), never a stack trace.
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { runCli } from '../cli/run-cli.js'
import { BACKENDS, backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'
import { makeReport } from './make-report.js'

for (const kind of BACKENDS) {
  describe.skipIf(skipBackend(kind))(backendTitle('rag-matchers history', kind), () => {
    const fx = storeFixture(kind)
    let dir = ''
    let store = ''
    beforeAll(async () => {
      ;({ text: store, dir } = await fx.fresh())
    })
    const file = (name: string, value: unknown) => {
      const path = join(dir, name)
      writeFileSync(path, typeof value === 'string' ? value : `${JSON.stringify(value, null, 2)}\n`)
      return path
    }
    const history = (...args: string[]) => runCli(['history', ...args, '--store', store])

    test('import adds each report once; list, show, trend, case, export, prune', async () => {
      const a = file('a.json', makeReport({ sets: 1, metrics: 1, cases: 2, seed: 1, value: () => 0.8 }))
      const b = file('b.json', makeReport({ sets: 1, metrics: 1, cases: 2, seed: 2, value: () => 0.5 }))
      const first = await history('import', a, b)
      expect(first).toMatchObject({ code: 0, stderr: '' })
      expect(first.stdout).toMatch(/2 of 2 reports added/)
      const again = await history('import', a)
      expect(again.stdout).toMatch(/already stored .*\n0 of 1 report added/)

      const list = await history('list', '--json')
      const runs = JSON.parse(list.stdout) as Array<{ id: string; source: string }>
      expect(runs.map((r) => r.source)).toEqual(['import', 'import'])
      expect((await history('list', '--last', '1')).stdout.split('\n').filter(Boolean)).toHaveLength(2)

      const show = await history('show', 'last~1')
      expect(show.code).toBe(0)
      expect(show.stdout).toContain(`run ${runs[0]?.id}`)
      expect(show.stdout).toContain('Eval set "set0"')
      expect(show.stdout).toContain('mean m0')

      const trend = await history('trend', 'set0', 'mean m0')
      expect(trend.code).toBe(0)
      expect(trend.stdout).toContain('set0 › mean m0 (higher is better; threshold ≥ 0.2000)')
      expect(trend.stdout).toMatch(/█▁ {2}0\.8000 → 0\.5000 over 2 runs/)
      expect(trend.stdout).toContain(`first regression: run ${runs[1]?.id}`)
      const trendJson = JSON.parse((await history('trend', 'set0', 'mean m0', '--json')).stdout) as { points: Array<{ status?: string }> }
      expect(trendJson.points.map((p) => p.status ?? null)).toEqual([null, 'regressed'])

      const kase = await history('case', 'set0', 'q1')
      expect(kase.stdout).toContain('"answer 1 of run 2"')
      expect(kase.stdout).toContain('d1,d3')

      const exported = (await history('export')).stdout.trim().split('\n')
      expect(exported).toHaveLength(2)
      expect(JSON.parse(exported[0] as string)).toMatchObject({ run: { id: runs[0]?.id }, report: { schemaVersion: 1 } })

      expect((await history('prune', '--keep', '1')).stdout).toBe('removed 1 run\n')
      expect(JSON.parse((await history('list', '--json')).stdout)).toHaveLength(1)
    })

    test.each([
      ['a reference matching nothing', ['show', 'abcdefabcdef'], 2, /^rag-matchers history: no run matches 'abcdefabcdef' in /],
      ['a reference beyond the runs', ['show', 'last~9'], 2, /no run 'last~9'/],
      ['an unknown set', ['trend', 'nope', 'mean m0'], 2, /no eval set 'nope' in the history/],
      ['an unknown metric', ['trend', 'set0', 'nope'], 2, /eval set 'set0' has no metric 'nope' \(metrics: mean m0\)/],
      ['a missing argument', ['trend', 'set0'], 1, /history trend takes SET METRIC/],
      ['an unknown option', ['list', '--nope'], 1, /unknown option --nope/],
      ['an unknown subcommand', ['frobnicate'], 1, /unknown subcommand 'frobnicate'/],
      ['prune without a rule', ['prune'], 1, /needs --keep N or --older-than AGE/],
      ['a bad age', ['prune', '--older-than', 'soon'], 1, /--older-than needs an age like 30d/],
    ])('%s: exit %s, one message', async (_name, args, code, message) => {
      const r = await history(...args)
      expect(r.code).toBe(code)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).not.toMatch(/\n\s+at /)
    })

    test('a reference matching several runs', async () => {
      const { text: s2 } = await fx.fresh()
      for (let seed = 1; seed <= 20; seed++) await runCli(['history', 'import', file(`m${seed}.json`, makeReport({ seed })), '--store', s2])
      const ids = (JSON.parse((await runCli(['history', 'list', '--json', '--store', s2])).stdout) as Array<{ id: string }>).map((r) => r.id)
      expect(ids).toHaveLength(20)
      const first = [...new Set(ids.map((id) => id[0]))].find((c) => ids.filter((id) => id[0] === c).length > 1) as string
      const r = await runCli(['history', 'show', first, '--store', s2])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/matches several runs .*give more of the id/)
    })

    test('import refuses a file that is not a rag-report, and a report of a newer schema', async () => {
      const notJson = await history('import', file('x.txt', 'hello'))
      expect(notJson).toMatchObject({ code: 2, stderr: expect.stringMatching(/x\.txt is not a rag-report \(not JSON\)/) as string })
      const foreign = await history('import', file('y.json', { results: [] }))
      expect(foreign.code).toBe(2)
      expect(foreign.stderr).toMatch(/y\.json is not a rag-report/)
      const newer = await history('import', file('z.json', { ...makeReport(), schemaVersion: 3 }))
      expect(newer.code).toBe(2)
      expect(newer.stderr).toMatch(/z\.json was written by a newer rag-matchers \(report schemaVersion 3/)
    })

    test('a store of a newer schema: exit 2, one line, for reads and writes', async () => {
      const { text: s3 } = await fx.fresh()
      expect((await runCli(['history', 'import', file('n.json', makeReport({ seed: 5 })), '--store', s3])).code).toBe(0)
      const { openHistory } = await import('../../src/history/public.js')
      const open = await openHistory(s3, { write: true })
      await open.backend.run(`UPDATE meta SET value = '99' WHERE key = 'schema_version'`)
      await open.close()
      for (const args of [['list'], ['import', file('n2.json', makeReport({ seed: 6 }))]]) {
        const r = await runCli(['history', ...args, '--store', s3])
        expect(r.code).toBe(2)
        expect(r.stderr).toMatch(/^rag-matchers history: .* was written by a newer rag-matchers \(history schema 99; .*left as it is\n$/)
      }
    })
  })
}

describe('rag-matchers history: store targets', () => {
  const fx = storeFixture('sqlite')

  test('unknown scheme and malformed postgres:// URL (exit 1), no SQLite store (exit 2)', async () => {
    const unknown = await runCli(['history', 'list', '--store', 'mysql://db/x'])
    expect(unknown).toMatchObject({
      code: 1,
      stderr: "rag-matchers history: unknown history store scheme 'mysql:' in 'mysql://db/x' (use a SQLite file path, sqlite:PATH, or postgres://…)\n",
    })
    const malformed = await runCli(['history', 'list', '--store', 'postgres://u:pw@db:port/x'])
    expect(malformed).toMatchObject({
      code: 1,
      stderr:
        "rag-matchers history: malformed PostgreSQL URL 'postgres://u:***@db:port/x': the port is not a number (in a password, write / @ : # ? as %-escapes) (expected postgres://user:password@host:port/database)\n",
    })
    const none = await runCli(['history', 'list', '--store', join(fx.tempDir(), 'none.sqlite')])
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/no history store at .*none\.sqlite/)
  })

  test('a PostgreSQL server that is down: exit 2, one line naming the store, the password hidden', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as { port: number }
        server.close(() => resolve(p))
      })
    })
    for (const sub of ['list', 'prune --keep 1']) {
      const r = await runCli(['history', ...sub.split(' '), '--store', `postgres://rag:pw@127.0.0.1:${port}/runs`])
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: `rag-matchers history: postgres://rag:***@127.0.0.1:${port}/runs: cannot connect: connection refused at 127.0.0.1:${port} (ECONNREFUSED: is the server running?)\n`,
      })
    }
  })
})

describe.skipIf(skipBackend('postgres'))(backendTitle('rag-matchers history: a PostgreSQL server that refuses', 'postgres'), () => {
  const fx = storeFixture('postgres')
  test.each([
    ['a wrong password', { password: 'wrong-pw' }, /cannot connect: password authentication failed for user "postgres" \(28P01\)\n$/],
    ['an unknown database', { database: 'missing_db' }, /cannot connect: database "missing_db" does not exist/],
  ])('%s: exit 2, one line', async (_name, change, message) => {
    const url = fx.serverUrl(change)
    const r = await runCli(['history', 'list', '--store', url])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^rag-matchers history: postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/\w+: /)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).not.toContain(new URL(url).password)
    expect(r.stderr.split('\n')).toHaveLength(2)
  })
})
