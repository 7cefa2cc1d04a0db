#!/usr/bin/env node
// `npm test`: runs every stage (build, browser provisioning, Vitest, the PostgreSQL history tests, Jest, type tests) even when an
// earlier one fails, so one failure never hides another; prints one line per stage and exits
// non-zero at the end when any stage failed.
//
//   node scripts/run-tests.mjs               every stage
//   node scripts/run-tests.mjs types jest    only these stages, in this order
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { findPostgresBin, POSTGRES_URL_ENV, startCluster } from './pg-cluster.mjs'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const bin = (name) => join(root, 'node_modules/.bin', name)
const CHROMIUM = '/usr/bin/chromium'

/** Runs a command with inherited output; resolves to its exit status (signals count as failures). */
function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env })
  if (r.error) {
    console.error(`${cmd}: ${r.error.message}`)
    return { ok: false, detail: r.error.message }
  }
  return r.status === 0 ? { ok: true } : { ok: false, detail: r.signal ? `killed by ${r.signal}` : `exit ${r.status}` }
}

const onPath = (name) => (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)))

/**
 * The headless-browser test of the HTML report needs Debian's chromium. As root with apt (a fresh CI
 * image, a container) it is installed like CI does, by .ci/install-chromium (a no-op when present);
 * elsewhere nothing is installed and this stage fails with what to install.
 */
function provisionBrowser() {
  if (existsSync(CHROMIUM)) return { ok: true, detail: `${CHROMIUM} present` }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  if (isRoot && onPath('apt-get')) {
    const r = run(join(root, '.ci/install-chromium'), [])
    return r.ok ? { ok: true, detail: 'installed chromium with apt' } : r
  }
  const line = `${CHROMIUM} is missing, so test/reporter/html.browser.test.ts will fail: install Debian's chromium (\`sudo .ci/install-chromium\`, i.e. apt-get install chromium)`
  console.error(`browser: ${line}`)
  return { ok: false, detail: line }
}

/**
 * The run history's PostgreSQL backend against a real server: PostgreSQL's binaries (as root with apt,
 * installed like CI does by .ci/install-postgresql, a no-op when present), one throw-away cluster on
 * 127.0.0.1 (scripts/pg-cluster.mjs), and every PostgreSQL variant of test/history run against it (the
 * describe blocks titled "(postgres)"); none may be skipped. Where no server can start, one line says so
 * and the stage fails, as the browser stage does; the other stages still run.
 */
async function postgresStage() {
  const said = (line) => {
    console.error(`postgres: ${line}`)
    return { ok: false, detail: line }
  }
  if (!findPostgresBin()) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
    if (isRoot && onPath('apt-get')) {
      const r = run(join(root, '.ci/install-postgresql'), [])
      if (!r.ok) return said(`installing postgresql with apt failed (${r.detail}), so the PostgreSQL history tests did not run`)
    }
    if (!findPostgresBin()) {
      return said("no PostgreSQL server binaries (initdb), so the PostgreSQL history tests did not run: install Debian's postgresql (`sudo .ci/install-postgresql`)")
    }
  }
  let cluster
  try {
    cluster = await startCluster()
  } catch (error) {
    return said(`cannot start a throw-away PostgreSQL server, so the PostgreSQL history tests did not run: ${error.message}`)
  }
  const out = mkdtempSync(join(tmpdir(), 'rag-pg-stage-'))
  try {
    const json = join(out, 'results.json')
    const env = { ...process.env, [POSTGRES_URL_ENV]: cluster.url }
    const r = run(bin('vitest'), ['run', 'test/history', '-t', '\\(postgres\\)', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`], env)
    const version =
      spawnSync(join(findPostgresBin(), 'postgres'), ['--version'], { encoding: 'utf8' })
        .stdout?.trim()
        .replace(/^postgres \(PostgreSQL\) /, '') ?? '?'
    let tests = []
    try {
      tests = JSON.parse(readFileSync(json, 'utf8')).testResults.flatMap((f) => f.assertionResults)
    } catch {
      // No results file: vitest itself failed; r says how.
    }
    const ours = tests.filter((t) => t.ancestorTitles.some((title) => /\(postgres\)/.test(title)))
    const passed = ours.filter((t) => t.status === 'passed').length
    const notRun = ours.length - passed - ours.filter((t) => t.status === 'failed').length
    const counts = `${passed} of ${ours.length} PostgreSQL history tests passed on PostgreSQL ${version}`
    if (!r.ok) return { ok: false, detail: `${counts} (${r.detail})` }
    if (ours.length === 0 || notRun > 0) return { ok: false, detail: `${counts}, ${notRun} not run: none may be skipped here` }
    return { ok: true, detail: counts }
  } finally {
    cluster.stop()
    rmSync(out, { recursive: true, force: true })
  }
}

/**
 * The type-test projects that consume the package (not the sources) resolve `rag-matchers` from
 * test/types/node_modules/rag-matchers: this package.json and a link to dist/, the way an installed
 * copy looks to TypeScript (exports for node16/bundler, typesVersions for node10).
 */
function linkPackageForTypeTests() {
  const dir = join(root, 'test/types/node_modules/rag-matchers')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'))
  symlinkSync(relative(dir, join(root, 'dist')), join(dir, 'dist'), 'dir')
}

function typeTests() {
  linkPackageForTypeTests()
  const base = join(root, 'test/types')
  const projects = readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'node_modules' && existsSync(join(base, d.name, 'tsconfig.json')))
    .map((d) => d.name)
    .sort()
  const failed = []
  for (const name of projects) {
    const started = performance.now()
    const r = run(bin('tsc'), ['-p', join('test/types', name, 'tsconfig.json')])
    console.log(`  types/${name.padEnd(20)} ${r.ok ? 'ok  ' : 'FAIL'} ${seconds(performance.now() - started)}`)
    if (!r.ok) failed.push(name)
  }
  // The built package in consumer layouts × TypeScript 5.9/7 × Vitest 4/5 and Jest (scripts/type-matrix.mjs).
  const matrix = spawnSync(process.execPath, ['scripts/type-matrix.mjs'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
  process.stdout.write(matrix.stdout ?? '')
  const matrixLine = /type-matrix: (\d+) passed, (\d+) failed/.exec(matrix.stdout ?? '')
  if (matrix.status !== 0)
    failed.push(`type-matrix (${matrixLine ? `${matrixLine[2]} of ${Number(matrixLine[1]) + Number(matrixLine[2])} cells failed` : `exit ${matrix.status}`})`)
  const cells = matrixLine ? ` and ${Number(matrixLine[1]) + Number(matrixLine[2])} matrix cells` : ''
  return failed.length === 0
    ? { ok: true, detail: `${projects.length} projects${cells}` }
    : { ok: false, detail: `failed: ${failed.join(', ')} (of ${projects.length} projects${cells})` }
}

const STAGES = {
  build: () => {
    const built = run(bin('tsup'), [])
    return built.ok ? run(process.execPath, ['scripts/finish-dist.mjs']) : built
  },
  browser: provisionBrowser,
  vitest: () => run(bin('vitest'), ['run']),
  postgres: postgresStage,
  jest: () => run(bin('jest'), []),
  types: typeTests,
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

const requested = process.argv.slice(2)
const unknown = requested.filter((s) => !(s in STAGES))
if (unknown.length) {
  console.error(`run-tests: unknown stage ${unknown.join(', ')}; stages: ${Object.keys(STAGES).join(', ')}`)
  process.exit(2)
}
const names = requested.length ? requested : Object.keys(STAGES)

const results = []
const startedAll = performance.now()
for (const name of names) {
  console.log(`\n== ${name}`)
  const started = performance.now()
  let result
  try {
    result = await STAGES[name]()
  } catch (error) {
    result = { ok: false, detail: error instanceof Error ? error.message : String(error) }
  }
  results.push({ name, ...result, ms: performance.now() - started })
}

const failed = results.filter((r) => !r.ok).length
console.log('\n== stage summary')
for (const r of results) console.log(`  ${r.name.padEnd(8)} ${r.ok ? 'ok  ' : 'FAIL'} ${seconds(r.ms).padStart(8)}${r.detail ? `  ${r.detail}` : ''}`)
console.log(`stages: ${results.length - failed} passed, ${failed} failed (${seconds(performance.now() - startedAll)})`)
process.exit(failed ? 1 : 0)
