// `rag-matchers compare` with runs of the history store as sides (last, last~N, a run id or prefix, a commit
// prefix): the CLI run as a process (bundled once with esbuild) in a project folder with a real SQLite store.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { HistoryStore } from '../../src/history/store.js'
import type { RunEnvironment } from '../../src/history/run-info.js'
import { makeReport } from './make-report.js'

const REPO = join(import.meta.dirname, '..', '..')
// The bundle lives in the checkout (.tmp/ is git-ignored) so that its packages resolve from node_modules.
mkdirSync(join(REPO, '.tmp'), { recursive: true })
const bundleDir = mkdtempSync(join(REPO, '.tmp', 'compare-refs-'))
const project = mkdtempSync(join(tmpdir(), 'rag-compare-refs-'))
afterAll(() => {
  rmSync(bundleDir, { recursive: true, force: true })
  rmSync(project, { recursive: true, force: true })
})
let cli = ''

interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `rag-matchers ARGS` in `cwd` (default: the project folder) as a process. */
function run(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: options.cwd ?? project,
      env: { ...process.env, RAG_MATCHERS_HISTORY: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

const COMMIT_A = 'aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111'
const COMMIT_B = 'bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222'
const env = (commit: string): RunEnvironment => ({ node: process.version, git: { commit, branch: 'main', dirty: false, subject: `at ${commit.slice(0, 4)}` } })
/** Run ids, oldest first: run 1 at commit A, runs 2 and 3 at commit B (a commit run twice). */
const ids: string[] = []
const storeFile = join(project, '.rag-matchers', 'history.sqlite')

function writeJson(name: string, value: unknown): string {
  const path = join(project, name)
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`)
  return path
}

beforeAll(async () => {
  // cli/main.ts runs itself when it is the script Node was started with, as bin/rag-matchers.mjs runs dist/cli/main.js.
  cli = join(bundleDir, 'cli.mjs')
  await build({ entryPoints: [join(REPO, 'cli', 'main.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile: cli, logLevel: 'silent' })

  const store = await HistoryStore.open({ kind: 'sqlite', path: storeFile }, { root: project, write: true })
  const values = [0.9, 0.8, 0.4]
  for (const [i, v] of values.entries()) {
    const report = makeReport({ sets: 1, metrics: 2, cases: 6, seed: i + 1, value: (_s, m, c) => (m === 0 ? v : 0.5) + (c % 2) * 0.01 })
    ids.push((await store.append(report, { source: 'vitest', environment: env(i === 0 ? COMMIT_A : COMMIT_B) })).id)
  }
  await store.close()
}, 60_000)

/** The reports of stored runs as rag-report.json files, to compare the same runs the file way. */
async function exportRuns(names: readonly string[], refs: readonly string[]): Promise<string[]> {
  const store = await HistoryStore.open({ kind: 'sqlite', path: storeFile }, { root: project, write: false })
  try {
    const out: string[] = []
    for (const [i, ref] of refs.entries()) out.push(writeJson(names[i] as string, await store.readRun(ref)))
    return out
  } finally {
    await store.close()
  }
}

const body = (text: string) => text.slice(text.indexOf('Eval set'))

describe('rag-matchers compare with runs of the history', () => {
  test('last~1 last: the two newest runs of the project store, named, compared as their report files are', async () => {
    const r = await run(['compare', 'last~1', 'last'])
    expect(r).toMatchObject({ code: 0, stderr: '' })
    const lines = r.stdout.split('\n')
    expect(lines[0]).toMatch(new RegExp(`^base: run ${ids[1]} \\(last~1\\), 2026-01-01 00:00:02Z, main@bbbb222$`))
    expect(lines[1]).toMatch(new RegExp(`^new:  run ${ids[2]} \\(last\\), 2026-01-01 00:00:03Z, main@bbbb222$`))
    expect(r.stdout).toMatch(/mean m0 .* 0\.8050 .* 0\.4050 .* regressed/)
    const [a, b] = await exportRuns(['run2.json', 'run3.json'], [ids[1] as string, ids[2] as string])
    const files = await run(['compare', a as string, b as string])
    expect(files.code).toBe(0)
    expect(files.stdout.startsWith('Eval set')).toBe(true)
    expect(body(r.stdout)).toBe(files.stdout)
    // --check fails on the regression, as with files
    expect((await run(['compare', 'last~1', 'last', '--check'])).code).toBe(4)
  })

  test('a run id, an id prefix and a commit prefix; a file and a run side by side', async () => {
    const byCommit = await run(['compare', 'aaaa1111', (ids[2] as string).slice(0, 8), '--format', 'json'])
    expect(byCommit.code).toBe(0)
    const doc = JSON.parse(byCommit.stdout) as { base: string; new: string; baseRun: { id: string; git: { commit: string } }; newRun: { id: string } }
    expect(doc.base).toBe(`run ${ids[0]} (aaaa1111)`)
    expect(doc.baseRun).toMatchObject({ id: ids[0], git: { commit: COMMIT_A } })
    expect(doc.new).toBe(`run ${ids[2]} (${(ids[2] as string).slice(0, 8)})`)
    expect(doc.newRun.id).toBe(ids[2])

    const [file] = await exportRuns(['base.json'], [ids[0] as string])
    const mixed = await run(['compare', 'base.json', ids[1] as string, '--format', 'md'])
    expect(mixed.code).toBe(0)
    expect(mixed.stdout).toContain(`- base: base.json\n- new: run ${ids[1]}, 2026-01-01 00:00:02Z, main@bbbb222\n`)
    const asFiles = await run(['compare', file as string, (await exportRuns(['run2b.json'], [ids[1] as string]))[0] as string, '--format', 'md'])
    expect(mixed.stdout.replace(/- base: .*\n- new: .*\n\n/, '')).toBe(asFiles.stdout)
  })

  test('an existing file wins over a run reference of the same name', async () => {
    await exportRuns(['last'], [ids[0] as string])
    try {
      const r = await run(['compare', 'last', 'last~1', '--format', 'json'])
      expect(r.code).toBe(0)
      const doc = JSON.parse(r.stdout) as { base: string; baseRun?: unknown; newRun: { id: string } }
      expect(doc.base).toBe('last')
      expect(doc.baseRun).toBeUndefined()
      expect(doc.newRun.id).toBe(ids[1])
    } finally {
      rmSync(join(project, 'last'))
    }
  })

  test.each([
    [
      'a commit run twice',
      ['bbbb2222', 'last'],
      /^rag-matchers compare: 'bbbb2222' matches several runs \(commits\): (\w{12}) \(2026-01-01 00:00:02Z, main@bbbb222\), (\w{12}) \(2026-01-01 00:00:03Z, main@bbbb222\): give more of the id, or pick one with last~N\n$/,
    ],
    ['a reference beyond the runs', ['last~9', 'last'], /^rag-matchers compare: no run 'last~9' in .*history\.sqlite \(it has fewer than 10 runs\)\n$/],
    ['a reference matching nothing', ['last', 'ffff9'], /^rag-matchers compare: no run matches 'ffff9' in .*history\.sqlite \(no run id or git commit starts with it\)\n$/],
    [
      'a file that is not there and no reference',
      ['nope.json', 'last'],
      /^rag-matchers compare: mergeReportFiles: Expected `files\[0\]` to be a readable file \(ENOENT: .*nope\.json/,
    ],
  ])('%s: exit 2, one line', async (_name, args, message) => {
    const r = await run(['compare', ...args])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(message)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  test('an ambiguous id prefix lists the runs it matches', async () => {
    // Ids are random hex: 16 runs share a first digit for sure; one of these is a prefix of two of them.
    const dir = mkdtempSync(join(tmpdir(), 'rag-compare-refs-many-'))
    try {
      const file = join(dir, 'h.sqlite')
      const store = await HistoryStore.open({ kind: 'sqlite', path: file }, { root: dir, write: true })
      const many: string[] = []
      for (let seed = 1; seed <= 17; seed++) many.push((await store.append(makeReport({ seed }), { source: 'import' })).id)
      await store.close()
      const digit = [...new Set(many.map((id) => id[0] as string))].find((d) => many.filter((id) => id.startsWith(d)).length > 1) as string
      const r = await run(['compare', digit, 'last', '--history', file])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(new RegExp(`^rag-matchers compare: '${digit}' matches several runs \\(run ids\\): ${digit}\\w{11} \\(`))
      for (const id of many.filter((x) => x.startsWith(digit)).slice(0, 5)) expect(r.stderr).toContain(id)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('the store: --history, else RAG_MATCHERS_HISTORY, else the project store found from a subfolder', async () => {
    const other = mkdtempSync(join(tmpdir(), 'rag-compare-refs-other-'))
    try {
      const file = join(other, 'other.sqlite')
      const store = await HistoryStore.open({ kind: 'sqlite', path: file }, { root: other, write: true })
      const only = (await store.append(makeReport({ sets: 1, metrics: 2, cases: 6, seed: 50 }), { source: 'import' })).id
      await store.close()
      const given = await run(['compare', 'last', 'last', '--history', file, '--format', 'json'])
      expect(given.code).toBe(0)
      expect((JSON.parse(given.stdout) as { newRun: { id: string } }).newRun.id).toBe(only)
      const fromEnv = await run(['compare', 'last', 'last', '--format', 'json'], { env: { RAG_MATCHERS_HISTORY: file } })
      expect((JSON.parse(fromEnv.stdout) as { newRun: { id: string } }).newRun.id).toBe(only)
      const sub = join(project, 'packages', 'app')
      mkdirSync(sub, { recursive: true })
      const nested = await run(['compare', 'last~1', 'last', '--format', 'json'], { cwd: sub })
      expect((JSON.parse(nested.stdout) as { newRun: { id: string } }).newRun.id).toBe(ids[2])
    } finally {
      rmSync(other, { recursive: true, force: true })
    }
  })

  test.each([
    [
      'no store there',
      2,
      ['last~1', 'last', '--history', 'none.sqlite'],
      /^rag-matchers compare: 'last~1' is not a file, so it names a run of the history: no history store at .*none\.sqlite/,
    ],
    ['an unknown store scheme', 1, ['last~1', 'last', '--history', 'mysql://db/h'], /^rag-matchers compare: unknown history store scheme 'mysql:'/],
    ['--history without a value', 1, ['last~1', 'last', '--history'], /^rag-matchers compare: --history needs a store/],
    ['one side only', 1, ['last'], /^rag-matchers compare: expected two reports \(base, new\): rag-report\.json files or runs of the history, got 1/],
  ])('%s: exit %s, one message', async (_name, code, args, message) => {
    const r = await run(['compare', ...args])
    expect(r.code).toBe(code)
    expect(r.stderr).toMatch(message)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  test('the help says how a side is read; history show takes a commit prefix (one resolver)', async () => {
    const help = await run(['compare', '--help'])
    expect(help.stdout).toContain('An existing file wins over a run of the same name.')
    const show = await run(['history', 'show', 'aaaa11'])
    expect(show.code).toBe(0)
    expect(show.stdout).toMatch(new RegExp(`^run ${ids[0]} `))
    const twice = await run(['history', 'show', 'bbbb'])
    expect(twice.code).toBe(2)
    expect(twice.stderr).toMatch(/'bbbb' matches several runs \(commits\)/)
  })
})
