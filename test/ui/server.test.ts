// The history UI's server: security headers on every answer, 404 for anything that is not the app or a
// resource (path traversal included), read-only methods, loopback Host only, the port in use, a store of
// an unknown schema, an empty store, and the static export; over a SQLite store and a PostgreSQL one
// (test/helpers/history-backends.ts: a throw-away cluster when the binaries exist, as test/history).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { request, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { run as runUi } from '../../cli/ui.js'
import { compareReports } from '../../cli/compare.js'
import { HistoryStore } from '../../src/history/store.js'
import type { UiRunsPage, UiSetSeries } from '../../src/ui/api-types.js'
import { keyOf } from '../../src/ui/keys.js'
import { UiResources } from '../../src/ui/resources.js'
import { startUiServer, type RunningUi } from '../../src/ui/server.js'
import { exportUi } from '../../src/ui/export.js'
import { builtApp } from './app-build.js'
import { makeReport } from '../history/make-report.js'
import { BACKENDS, backendTitle, skipBackend, storeFixture } from '../helpers/history-backends.js'
import { makeHistory, SCRIPT, type FixtureHistory, type FixtureRun } from './history-fixture.js'

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A raw request: the path is sent exactly as given (no URL normalisation of `..` or `%2e`). */
function get(ui: RunningUi, path: string, options: { method?: string; host?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL(ui.url)
  return new Promise((resolve, reject) => {
    const headers = { Host: options.host ?? url.host, ...options.headers }
    const req = request({ host: url.hostname, port: url.port, path, method: options.method ?? 'GET', headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (body += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** Runs SQL on a PostgreSQL store's database (a test's own setup); the rows of the last statement. */
async function onServer(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const result = await client.query(sql)
    return (Array.isArray(result) ? result[result.length - 1] : result).rows
  } finally {
    await client.end()
  }
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function io() {
  const out = { stdout: '', stderr: '' }
  return { out, io: { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } } }
}

for (const kind of BACKENDS) {
  describe.skipIf(skipBackend(kind))(backendTitle('rag-matchers ui server', kind), () => {
    const fx = storeFixture(kind)
    let ui: RunningUi
    let history: FixtureHistory
    let resources: UiResources

    beforeAll(async () => {
      history = await makeHistory(await fx.fresh())
      resources = new UiResources({ target: history.target, root: history.dir, mode: 'server', compareReports })
      ui = await startUiServer({ resources, appDir: await builtApp(), host: '127.0.0.1', port: 0 })
    }, 60_000)

    afterAll(async () => {
      await ui?.close()
      await resources?.close()
    })

    it('binds 127.0.0.1 and serves the app with a policy that allows no inline script', async () => {
      expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/)
      const page = await get(ui, '/')
      expect(page.status).toBe(200)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.body).toContain('<script src="app.js" defer></script>')
      const csp = String(page.headers['content-security-policy'])
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).not.toContain('unsafe-inline')
      expect(csp).not.toContain('unsafe-eval')
    })

    it('asks for the page data from boot.js before app.js loads; app files revalidate by ETag (304, no body), data is never cached', async () => {
      const page = await get(ui, '/')
      // boot.js first in the head, before the stylesheet (so it waits for nothing) and not async (so it runs before app.js)
      expect(page.body.indexOf('<script src="boot.js"></script>')).toBeGreaterThan(0)
      expect(page.body.indexOf('<script src="boot.js"></script>')).toBeLessThan(page.body.indexOf('app.css'))
      for (const path of ['/', '/app.js', '/boot.js', '/app.css']) {
        const first = await get(ui, path)
        const etag = String(first.headers.etag)
        expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/)
        expect(first.headers['cache-control']).toBe('no-cache')
        const again = await get(ui, path, { headers: { 'If-None-Match': etag } })
        expect(again.status).toBe(304)
        expect(again.body).toBe('')
        expect(again.headers.etag).toBe(etag)
        expect(again.headers['content-security-policy']).toContain("script-src 'self'")
        // another version of the file: the whole file
        const other = await get(ui, path, { headers: { 'If-None-Match': '"something-else"' } })
        expect(other.status).toBe(200)
        expect(other.body).toBe(first.body)
      }
      expect(new Set(await Promise.all(['/app.js', '/boot.js', '/app.css'].map(async (p) => (await get(ui, p)).headers.etag))).size).toBe(3)
      const data = await get(ui, '/api/index', { headers: { 'If-None-Match': '*' } })
      expect(data.status).toBe(200)
      expect(data.headers.etag).toBeUndefined()
    })

    it('puts the security headers on every answer: page, script, resource, 404, 405', async () => {
      const answers = await Promise.all([
        get(ui, '/'),
        get(ui, '/app.js'),
        get(ui, '/api/index'),
        get(ui, '/nope'),
        get(ui, '/api/run/ffffffffffff'),
        get(ui, '/', { method: 'POST' }),
      ])
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 404, 404, 405])
      for (const a of answers) {
        expect(a.headers['content-security-policy']).toContain("script-src 'self'")
        expect(a.headers['x-content-type-options']).toBe('nosniff')
        expect(a.headers['x-frame-options']).toBe('DENY')
        expect(a.headers['referrer-policy']).toBe('no-referrer')
      }
      expect(answers[1]!.headers['content-type']).toBe('text/javascript; charset=utf-8')
      expect(answers[2]!.headers['cache-control']).toBe('no-store')
    })

    it('is read-only: any method but GET and HEAD is refused', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const a = await get(ui, '/api/index', { method })
        expect(a.status).toBe(405)
        expect(a.headers.allow).toBe('GET, HEAD')
      }
      const head = await get(ui, '/api/index', { method: 'HEAD' })
      expect(head.status).toBe(200)
      expect(head.body).toBe('')
    })

    it('answers no path outside the app and its resources', async () => {
      const paths = [
        '/../package.json',
        '/..%2fpackage.json',
        '/%2e%2e/%2e%2e/etc/passwd',
        '/..\\..\\package.json',
        '//etc/passwd',
        '/api/../../package.json',
        '/api/run/../../../etc/passwd',
        '/api/set/..%2f..%2fpackage.json',
        '/api/runs/../index',
        '/index.html/../../package.json',
        '/app.js%00.html',
        `/api/run/${encodeURIComponent(history.text)}`,
        '/dist/ui/app/app.js',
        '/src/ui/server.ts',
      ]
      for (const path of paths) {
        const a = await get(ui, path)
        expect({ path, status: a.status }).toEqual({ path, status: 404 })
        expect(a.body).not.toContain('"name": "rag-matchers"')
        expect(a.body).not.toContain('root:')
      }
      // the listed files are answered
      expect((await get(ui, '/app.css')).status).toBe(200)
      expect((await get(ui, '/index.html')).status).toBe(200)
    })

    it('answers an unknown run, set or case with 404 and a message, a known one with its data', async () => {
      const unknown = await get(ui, '/api/run/ffffffffffff')
      expect(unknown.status).toBe(404)
      expect(JSON.parse(unknown.body).error).toMatch(/no run matches 'ffffffffffff'/)
      expect((await get(ui, '/api/set/0123456789abcdef')).status).toBe(404)
      expect((await get(ui, '/api/case/0123456789abcdef/0123456789abcdef')).status).toBe(404)
      expect((await get(ui, '/api/runs/7')).status).toBe(404)
      const known = await get(ui, `/api/run/${history.runs[0]!.id}`)
      expect(known.status).toBe(200)
      const run = JSON.parse(known.body)
      expect(run.summary.id).toBe(history.runs[0]!.id)
      // JSON keeps the hostile text as data; the app puts it in text nodes
      expect(run.sets[0].cases.some((c: { id: string }) => c.id.includes(SCRIPT))).toBe(true)
      expect(known.headers['content-type']).toBe('application/json; charset=utf-8')
    })

    it('links each run of the runs page to its default comparison: the previous run on its branch, the first run on a branch to main', async () => {
      const [r0, r1, r2] = history.runs as [FixtureRun, FixtureRun, FixtureRun]
      const page = JSON.parse((await get(ui, '/api/runs/0')).body) as { runs: Array<{ run: { id: string }; previous?: string; compareWith?: string; compareBranch?: string }> }
      const rows = Object.fromEntries(page.runs.map((r) => [r.run.id, { previous: r.previous, compareWith: r.compareWith, compareBranch: r.compareBranch }]))
      expect(rows).toEqual({
        [r2.id]: { previous: undefined, compareWith: r1.id, compareBranch: 'main' },
        [r1.id]: { previous: r0.id, compareWith: r0.id, compareBranch: undefined },
        [r0.id]: { previous: undefined, compareWith: undefined, compareBranch: undefined },
      })
      // the compare page's pickers read the same defaults from the small run list
      const list = JSON.parse((await get(ui, '/api/runlist')).body) as { runs: Array<{ id: string; compareWith?: string; branch?: string }> }
      expect(list.runs.map((r) => [r.id, r.branch, r.compareWith])).toEqual([
        [r2.id, 'feat/x', r1.id],
        [r1.id, 'main', r0.id],
        [r0.id, 'main', undefined],
      ])
    })

    it("gives each metric's change since the previous run on its branch that measured it, alike on the runs page and the set's charts", async () => {
      const fresh = await fx.fresh()
      const store = await HistoryStore.open(fresh.target, { root: fresh.dir, write: true })
      const add = async (i: number, metrics: number, branch: string) =>
        (
          await store.append(makeReport({ sets: 1, metrics, cases: 3, seed: i, createdAt: new Date(Date.UTC(2026, 1, 1, i)) }), {
            source: 'vitest',
            environment: { git: { branch } },
          })
        ).id
      // main: a (m0, m1), b (m0 only), c (m0, m1); feat: f between them
      const a = await add(1, 2, 'main')
      const b = await add(2, 1, 'main')
      const f = await add(3, 2, 'feat')
      const c = await add(4, 2, 'main')
      await store.close()
      const res = new UiResources({ target: fresh.target, root: fresh.dir, mode: 'server', compareReports })
      try {
        const page = (await res.get('runs/0')) as UiRunsPage
        const cell = (run: string, metric: string) => page.runs.find((r) => r.run.id === run)?.changes.find((x) => x.metric === metric)
        const value = (run: string, metric: string) => cell(run, metric)?.value as number
        const expected = (run: string, metric: string, since: string) => ({ since, delta: value(run, metric) - value(since, metric) })
        const got = (run: string, metric: string) => ({ since: cell(run, metric)?.since, delta: cell(run, metric)?.delta })
        expect(page.runs.map((r) => r.run.id)).toEqual([c, f, b, a])
        expect(got(c, 'mean m1')).toEqual(expected(c, 'mean m1', a)) // b did not measure m1: since a
        expect(got(c, 'mean m0')).toEqual(expected(c, 'mean m0', b))
        expect(got(b, 'mean m0')).toEqual(expected(b, 'mean m0', a))
        expect(got(f, 'mean m0')).toEqual({ since: undefined, delta: undefined }) // the first run on feat
        expect(got(a, 'mean m0')).toEqual({ since: undefined, delta: undefined })
        expect(cell(c, 'mean m1')?.status).toMatch(/^(improved|ok|dropped \(within tolerance\)|regressed)$/)
        // the set's chart of m1 says the same
        const series = (await res.get(`set/${keyOf('set0')}`)) as UiSetSeries
        const m1 = series.metrics.find((m) => m.metric === 'mean m1')!
        const points = m1.run.map((r, i) => ({ run: series.runs[r]!.runId, delta: m1.delta[i], status: m1.status[i] }))
        expect(points).toEqual([
          { run: a, delta: null, status: null },
          { run: f, delta: null, status: null },
          { run: c, delta: cell(c, 'mean m1')?.delta, status: cell(c, 'mean m1')?.status },
        ])
      } finally {
        await res.close()
      }
    })

    it("gives the set charts each run's baseline comparison interval as a band around the baseline mean", async () => {
      const series = JSON.parse((await get(ui, `/api/set/${keyOf('qa')}`)).body) as UiSetSeries
      const recall = series.metrics.find((m) => m.metric === 'mean R@2')!
      const store = await HistoryStore.open(history.target, { root: history.dir, write: false })
      try {
        const expected: Array<[number | null, number | null]> = []
        for (const r of recall.run) {
          const report = await store.readRun(series.runs[r]!.runId)
          const row = report.evalSets.find((s) => s.name === 'qa')!.metrics.find((m) => m.metric === 'mean R@2')!
          const { mean, ci } = row.baseline!
          expected.push([mean + ci![0], mean + ci![1]])
        }
        expect(recall.run.map((_, i) => [recall.bandLow[i], recall.bandHigh[i]])).toEqual(expected)
        expect(expected).toHaveLength(3)
        // the feature-branch run dropped: its interval reaches below the baseline mean
        expect(expected[2]![0]!).toBeLessThan(recall.baseline[2]!)
        // a row no baseline assertion compared has no band
        const rouge = series.metrics.find((m) => m.metric === 'mean ROUGE-L F')!
        expect(new Set([...rouge.bandLow, ...rouge.bandHigh])).toEqual(new Set([null]))
      } finally {
        await store.close()
      }
    })

    it('answers only requests for its own address (a page that rebinds its name to 127.0.0.1 gets nothing)', async () => {
      expect((await get(ui, '/api/index', { host: 'evil.example:80' })).status).toBe(403)
      expect((await get(ui, '/api/index', { host: 'localhost:1234' })).status).toBe(200)
    })

    it('names the port and --port when the port is in use, and exits 2', async () => {
      const blocker = createServer()
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
      const port = (blocker.address() as AddressInfo).port
      try {
        const { out, io: cliIo } = io()
        const code = await runUi(['--port', String(port), '--history', history.text], cliIo, { appDir: await builtApp(), stop: Promise.resolve() })
        expect(code).toBe(2)
        expect(out.stderr).toBe(`rag-matchers ui: port ${port} on 127.0.0.1 is already in use: stop what runs there, or pick another port with --port\n`)
      } finally {
        blocker.close()
      }
    })

    it('prints its address, and a warning line when --host opens it beyond this machine', async () => {
      const local = io()
      expect(await runUi(['--port', '0', '--history', history.text], local.io, { appDir: await builtApp(), stop: Promise.resolve() })).toBe(0)
      // the store as given, a PostgreSQL URL with its password hidden
      const shown = kind === 'sqlite' ? history.text : history.text.replace(/:[^:@/]+@/, ':***@')
      expect(shown).not.toBe(kind === 'sqlite' ? '' : history.text)
      expect(local.out.stdout).toMatch(new RegExp(`^rag-matchers ui: http://127\\.0\\.0\\.1:\\d+/ \\(history: ${escapeRegExp(shown)}; Ctrl-C to stop\\)\\n$`))
      expect(local.out.stderr).toBe('')
      const open = io()
      expect(await runUi(['--port', '0', '--host', '0.0.0.0', '--history', history.text], open.io, { appDir: await builtApp(), stop: Promise.resolve() })).toBe(0)
      expect(open.out.stderr).toMatch(/^rag-matchers ui: warning: listening on 0\.0\.0\.0, not only this machine: anyone who can reach .* can read the run history/)
    })

    it('refuses a store of an unknown (newer) schema with one line, exit 2', async () => {
      const future = await fx.fresh()
      const meta = `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('schema_version', '99')`
      let text = future.text
      if (future.target.kind === 'sqlite') {
        text = join(future.dir, 'future.sqlite')
        const db = new Database(text)
        db.exec(meta)
        db.close()
      } else await onServer(future.text, meta)
      const { out, io: cliIo } = io()
      expect(await runUi(['--history', text], cliIo, { appDir: await builtApp(), stop: Promise.resolve() })).toBe(2)
      expect(out.stderr).toMatch(
        new RegExp(
          `^rag-matchers ui: .*${kind === 'sqlite' ? 'future\\.sqlite' : 'rag_'}.* was written by a newer rag-matchers \\(history schema 99; .*\\): upgrade rag-matchers; the store is left as it is\n$`,
        ),
      )
    })

    it('serves a store no run was recorded in as an empty history that says how to record the first run', async () => {
      const fresh = await fx.fresh()
      // SQLite: no file yet; PostgreSQL: a database without the history's tables
      const target = fresh.target.kind === 'sqlite' ? { kind: 'sqlite' as const, path: join(fresh.dir, 'none.sqlite') } : fresh.target
      const empty = new UiResources({ target, root: fresh.dir, mode: 'server', compareReports })
      try {
        const index = (await empty.get('index')) as { state: string; message: string; runs: number }
        expect(index.state).toBe('empty')
        expect(index.runs).toBe(0)
        expect(index.message).toContain('npm run example')
        expect(index.message).toContain("reporters: ['default', 'rag-matchers/reporter']")
        expect(await empty.get('latest')).toEqual({ latest: null, runs: 0 })
        // read-only: nothing created
        if (target.kind === 'sqlite') expect(existsSync(target.path)).toBe(false)
        else expect(await onServer(fresh.text, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)).toEqual([])
      } finally {
        await empty.close()
      }
    })

    it('exports the app and its data as static files with the policy in the page and no machine path', async () => {
      const dir = join(mkdtempSync(join(tmpdir(), 'rag-ui-export-')), 'site')
      const exporting = new UiResources({ target: history.target, root: history.dir, mode: 'static', compareReports })
      try {
        const result = await exportUi(exporting, await builtApp(), dir)
        expect(result.resources).toBeGreaterThan(10)
        const html = readFileSync(join(dir, 'index.html'), 'utf8')
        expect(html).toContain('<meta name="rag-ui-mode" content="static">')
        expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self';[^"]*">/)
        expect(readdirSync(join(dir, 'data', 'run')).sort()).toEqual(history.runs.map((r) => `${r.id}.js`).sort())
        const index = readFileSync(join(dir, 'data', 'index.js'), 'utf8')
        expect(index.startsWith('ragUiData("index", {')).toBe(true)
        expect(index).not.toContain(history.dir)
        // the store's file name only (no folder); a PostgreSQL store is named without its URL (no host, user or password)
        expect(JSON.parse(index.slice('ragUiData("index", '.length, -3)).store).toBe(kind === 'sqlite' ? basename(history.text) : 'PostgreSQL')
        if (history.target.kind === 'postgres') expect(index).not.toContain(new URL(history.text).host)
        // a second export into the same folder is allowed; into a folder of other files it is not
        await exportUi(exporting, await builtApp(), dir)
        const other = mkdtempSync(join(tmpdir(), 'rag-ui-other-'))
        writeFileSync(join(other, 'notes.txt'), 'mine')
        await expect(exportUi(exporting, await builtApp(), other)).rejects.toThrow(/is not empty and is not an earlier export/)
      } finally {
        await exporting.close()
      }
    })
  })
}
