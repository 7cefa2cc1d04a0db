// End-to-end check of the runner flags the baseline matcher reads: a small fixture project in a temp
// folder is run by a CHILD runner of the same kind as the one running this file (Vitest under
// Vitest, Jest under Jest), so the real `-u` and `CI` paths are exercised in both runners across the
// two test commands, and the baseline file name comes from the runner's real testPath.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const repo = resolve(process.cwd())
// Jest injects `jest` into each test module's scope (not onto globalThis); Vitest has no `jest`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const underJest = typeof (jest as any) !== 'undefined'

const fixtureTest = `
import { describeEvalSet } from ${JSON.stringify(join(repo, 'runners', 'describe-eval-set'))}

const regress = process.env.RAG_FIXTURE_REGRESS === '1'
const entry = process.env.RAG_FIXTURE_ENTRY ?? 'qa'
const dataset = Array.from({ length: 20 }, (_, i) => ({ id: 'q' + i, question: 'question ' + i, relevant: ['d' + i] }))

describeEvalSet('fixture set', {
  dataset,
  progress: 'off',
  pipeline: (_question, item) => {
    const i = Number(String(item.id).slice(1))
    return { retrieved: regress && i % 2 === 0 ? ['x', 'd' + i] : ['d' + i, 'x'] }
  },
}, (run) => {
  it('holds the baseline', () => {
    expect(run).toMatchMetricBaseline(entry, { metrics: ['recall@1', 'mrr'], onWrite: (w) => console.log('BASELINE-WRITE ' + w.reason + ' ' + w.file) })
  })
})
`

function writeProject(dir: string): string[] {
  writeFileSync(join(dir, 'qa.test.ts'), fixtureTest)
  if (underJest) {
    const config = {
      rootDir: dir,
      testEnvironment: 'node',
      testMatch: ['<rootDir>/*.test.ts'],
      setupFilesAfterEnv: [join(repo, 'test', 'setup', 'jest-setup.ts')],
      transform: {
        '^.+\\.(t|j)sx?$': [join(repo, 'node_modules', '@swc', 'jest'), { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
      },
      moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
      cacheDirectory: join(dir, '.jest-cache'),
    }
    writeFileSync(join(dir, 'jest.config.json'), JSON.stringify(config))
    return [join(repo, 'node_modules', 'jest', 'bin', 'jest.js'), '--config', join(dir, 'jest.config.json'), '--runInBand']
  }
  const config = `export default { test: { globals: true, include: ['*.test.ts'], setupFiles: [${JSON.stringify(join(repo, 'runners', 'vitest.ts'))}], pool: 'threads', maxWorkers: 1 } }\n`
  writeFileSync(join(dir, 'vitest.config.mjs'), config)
  return [join(repo, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', dir, '--config', join(dir, 'vitest.config.mjs')]
}

function runChild(dir: string, args: string[], env: Record<string, string>, update = false) {
  const clean: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) {
    // the parent runner's own variables would confuse the child runner
    if (v === undefined || k === 'CI' || k === 'RAG_MATCHERS_UPDATE_BASELINES' || k.startsWith('VITEST') || k.startsWith('JEST') || k === 'NODE_OPTIONS' || k === 'TEST')
      continue
    clean[k] = v
  }
  const r = spawnSync(process.execPath, [...args, ...(update ? ['-u'] : [])], {
    cwd: dir,
    env: { ...clean, ...env, NO_COLOR: '1', FORCE_COLOR: '0' },
    encoding: 'utf8',
    timeout: 120_000,
  })
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` }
}

describe(`the real ${underJest ? 'jest' : 'vitest'} CLI`, () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rag-baseline-cli-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('writes on the first run, fails a regression (also under -u), rewrites with RAG_MATCHERS_UPDATE_BASELINES=1, and refuses to write in CI', () => {
    const args = writeProject(dir)
    const file = join(dir, '__rag_baselines__', 'qa.test.ts.json')

    const first = runChild(dir, args, {})
    expect([first.status, first.output]).toEqual([0, expect.stringContaining(`BASELINE-WRITE new ${file}`)])
    const written = readFileSync(file, 'utf8')
    expect(written).toContain('"q0": 1')

    const regressed = runChild(dir, args, { RAG_FIXTURE_REGRESS: '1' })
    expect(regressed.status).not.toBe(0)
    expect(regressed.output).toContain('Baseline "qa": 2 of 2 metrics regressed')
    expect(regressed.output).toContain(`RAG_MATCHERS_UPDATE_BASELINES=1 npx ${underJest ? 'jest' : 'vitest run'} qa.test.ts`)
    expect(regressed.output).toMatch(
      /cases that regressed in mean recall@1 \(recall@1\) \(10 of 20 dropped by more than the tolerance 0\.0200\), worst first:\n\s+q0\s+recall@1\s+1\.0000 → 0\.0000/,
    )
    expect(readFileSync(file, 'utf8')).toBe(written)

    // -u updates snapshots, never a metric baseline (issue #26)
    const snapshotsOnly = runChild(dir, args, { RAG_FIXTURE_REGRESS: '1' }, true)
    expect(snapshotsOnly.status).not.toBe(0)
    expect(snapshotsOnly.output).toContain('(-u updates snapshots only; it never rewrites a metric baseline.)')
    expect(readFileSync(file, 'utf8')).toBe(written)

    const updated = runChild(dir, args, { RAG_FIXTURE_REGRESS: '1', RAG_MATCHERS_UPDATE_BASELINES: '1' })
    expect([updated.status, updated.output]).toEqual([0, expect.stringContaining(`BASELINE-WRITE update ${file}`)])
    expect(readFileSync(file, 'utf8')).toContain('"q0": 0')

    const refused = runChild(dir, args, { CI: 'true', RAG_MATCHERS_UPDATE_BASELINES: '1' })
    expect(refused.status).not.toBe(0)
    expect(refused.output).toContain('Baseline "qa" was not rewritten: RAG_MATCHERS_UPDATE_BASELINES is set, and CI is set.')
    expect(readFileSync(file, 'utf8')).toContain('"q0": 0')

    const ci = runChild(dir, args, { CI: 'true', RAG_FIXTURE_ENTRY: 'fresh' })
    expect(ci.status).not.toBe(0)
    expect(ci.output).toContain('No baseline "fresh", and baselines are not written here because CI is set.')
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).entries)).toEqual(['qa'])
    expect(existsSync(join(dir, '__rag_baselines__', 'qa.test.ts.json.lock'))).toBe(false)
  }, 240_000)
})
