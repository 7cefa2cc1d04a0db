#!/usr/bin/env node
// The type-test matrix: the built package's types, as a consumer project sees them, in several layouts
// (setup file first or last, tests in a folder, `types` instead of an import, ESM and CommonJS projects),
// with TypeScript 5.9 and 7, under Vitest 4 and 5 and Jest. One `tsc --noEmit` per cell.
//
//   node scripts/type-matrix.mjs          every cell (needs `npm run build` first)
//   node scripts/type-matrix.mjs commonjs the cells whose runner and layout name contain the text
//
// TypeScript 5.9 and Vitest 4 are the repository's devDependencies; TypeScript 7 and Vitest 5 come from
// test/type-matrix/package-lock.json, installed once into node_modules/.cache (npm ci) because both
// cannot sit beside the first ones in one node_modules (same bin names, conflicting peers).
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const matrixDir = join(root, 'test/type-matrix')
const fixtures = join(matrixDir, 'fixtures')

/** Installs TypeScript 7 and Vitest 5 from the committed lock file, once per lock file content. */
function secondToolchain() {
  const lock = readFileSync(join(matrixDir, 'package-lock.json'))
  const dir = join(root, 'node_modules/.cache/rag-matchers-type-matrix', createHash('sha256').update(lock).digest('hex').slice(0, 16))
  if (!existsSync(join(dir, 'node_modules/.installed'))) {
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    cpSync(join(matrixDir, 'package.json'), join(dir, 'package.json'))
    cpSync(join(matrixDir, 'package-lock.json'), join(dir, 'package-lock.json'))
    // Vitest 5 declares Node >= 22.12; only its types are used here, so Node 20 may install it.
    const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error', '--engine-strict=false'], { cwd: dir, stdio: 'inherit' })
    if (r.status !== 0) throw new Error(`npm ci in ${dir} failed (exit ${r.status})`)
    writeFileSync(join(dir, 'node_modules/.installed'), '')
  }
  return dir
}

const link = (target, path) => {
  mkdirSync(dirname(path), { recursive: true })
  symlinkSync(target, path, 'dir')
}

/**
 * A folder whose node_modules holds a real copy of the package (package.json + dist, so its
 * declarations resolve `vitest` from here, not from the repository) and the given runner packages.
 */
function makeEnv(base, name, packages) {
  const env = join(base, name)
  const pkg = join(env, 'node_modules/rag-matchers')
  mkdirSync(pkg, { recursive: true })
  cpSync(join(root, 'package.json'), join(pkg, 'package.json'))
  cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true })
  for (const [as, from] of Object.entries(packages)) link(from, join(env, 'node_modules', as))
  return env
}

// skipLibCheck as most projects set it; the first layout of each runner turns it off, so the package's
// own declarations are checked too.
const BASE_OPTIONS = { target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }
const BUNDLER = { ...BASE_OPTIONS, module: 'preserve', moduleResolution: 'bundler' }
const NODENEXT = { ...BASE_OPTIONS, module: 'nodenext', moduleResolution: 'nodenext' }

/** Each layout: the project's package.json type, its files (project path → fixture) and its tsconfig. */
const VITEST_LAYOUTS = [
  {
    name: 'setup file first in files',
    type: 'module',
    files: { 'vitest.setup.ts': 'vitest.setup.ts', 'grounded.test.ts': 'grounded.vitest.ts' },
    tsconfig: { compilerOptions: { ...BUNDLER, skipLibCheck: false }, files: ['vitest.setup.ts', 'grounded.test.ts'] },
  },
  {
    name: 'setup file last in files',
    type: 'module',
    files: { 'vitest.setup.ts': 'vitest.setup.ts', 'grounded.test.ts': 'grounded.vitest.ts' },
    tsconfig: { compilerOptions: BUNDLER, files: ['grounded.test.ts', 'vitest.setup.ts'] },
  },
  {
    name: 'tests in test/, include globs',
    type: 'module',
    files: { 'vitest.setup.ts': 'vitest.setup.ts', 'test/grounded.test.ts': 'grounded.vitest.ts', 'test/more/grounded.test.ts': 'grounded.vitest.ts' },
    tsconfig: { compilerOptions: BUNDLER, include: ['vitest.setup.ts', 'test/**/*.ts'] },
  },
  {
    name: "types: ['rag-matchers/vitest']",
    type: 'module',
    files: { 'grounded.test.ts': 'grounded.vitest.ts' },
    tsconfig: { compilerOptions: { ...BUNDLER, types: ['node', 'rag-matchers/vitest'] }, include: ['*.ts'] },
  },
  {
    name: '"type": "module", nodenext',
    type: 'module',
    files: { 'vitest.setup.ts': 'vitest.setup.ts', 'test/grounded.test.ts': 'grounded.vitest.ts' },
    tsconfig: { compilerOptions: NODENEXT, include: ['vitest.setup.ts', 'test/**/*.ts'] },
  },
  {
    name: '"type": "commonjs", nodenext',
    type: 'commonjs',
    files: { 'vitest.setup.ts': 'vitest.setup.ts', 'test/grounded.test.ts': 'grounded.vitest.ts' },
    tsconfig: { compilerOptions: NODENEXT, include: ['vitest.setup.ts', 'test/**/*.ts'] },
  },
]

const JEST_TYPES = ['node', 'jest']
const JEST_LAYOUTS = [
  {
    name: 'setup file first, "type": "commonjs", nodenext',
    type: 'commonjs',
    files: { 'jest.setup.ts': 'jest.setup.ts', 'grounded.test.ts': 'grounded.jest.ts' },
    tsconfig: { compilerOptions: { ...NODENEXT, types: JEST_TYPES, skipLibCheck: false }, files: ['jest.setup.ts', 'grounded.test.ts'] },
  },
  {
    name: 'setup file last, "type": "module", bundler',
    type: 'module',
    files: { 'jest.setup.ts': 'jest.setup.ts', 'grounded.test.ts': 'grounded.jest.ts' },
    tsconfig: { compilerOptions: { ...BUNDLER, types: JEST_TYPES }, files: ['grounded.test.ts', 'jest.setup.ts'] },
  },
  {
    name: "types: ['jest', 'rag-matchers/jest']",
    type: 'commonjs',
    files: { 'test/grounded.test.ts': 'grounded.jest.ts' },
    tsconfig: { compilerOptions: { ...NODENEXT, types: [...JEST_TYPES, 'rag-matchers/jest'] }, include: ['test/**/*.ts'] },
  },
]

function writeProject(env, index, layout) {
  const dir = join(env, `p${index}`)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `layout-${index}`, private: true, type: layout.type }))
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(layout.tsconfig, null, 2))
  for (const [path, fixture] of Object.entries(layout.files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    cpSync(join(fixtures, fixture), join(dir, path))
  }
  return dir
}

function tscVersion(tsc) {
  return spawnSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' })
    .stdout.trim()
    .replace(/^Version /, '')
}

function main() {
  const only = process.argv[2] // a part of 'vitest 5.1.2 "type": "commonjs"' … to run only the matching cells
  if (!existsSync(join(root, 'dist/runners/vitest.d.ts'))) {
    console.error('type-matrix: dist/ is missing; run `npm run build` first')
    process.exit(2)
  }
  const second = secondToolchain()
  const repoModules = join(root, 'node_modules')
  // Each compiler with its version, asked once (not once per cell).
  const tscs = [join(repoModules, 'typescript/bin/tsc'), join(second, 'node_modules/typescript/bin/tsc')].map((path) => ({ path, version: tscVersion(path) }))
  const shared = { 'expect-type': join(repoModules, 'expect-type'), '@types/node': join(repoModules, '@types/node') }
  const base = join(tmpdir(), `rag-matchers-type-matrix-${process.pid}`)
  rmSync(base, { recursive: true, force: true })
  const envs = [
    {
      runner: `vitest ${readVersion(join(repoModules, 'vitest'))}`,
      layouts: VITEST_LAYOUTS,
      env: makeEnv(base, 'vitest4', { ...shared, vitest: join(repoModules, 'vitest') }),
    },
    {
      runner: `vitest ${readVersion(join(second, 'node_modules/vitest'))}`,
      layouts: VITEST_LAYOUTS,
      env: makeEnv(base, 'vitest5', { ...shared, vitest: join(second, 'node_modules/vitest') }),
    },
    {
      runner: `jest ${readVersion(join(repoModules, 'jest'))}`,
      layouts: JEST_LAYOUTS,
      env: makeEnv(base, 'jest', { ...shared, '@types/jest': join(repoModules, '@types/jest') }),
    },
  ]
  const rows = []
  try {
    for (const { runner, layouts, env } of envs) {
      layouts.forEach((layout, index) => {
        if (only !== undefined && !`${runner} ${layout.name}`.includes(only)) return
        const dir = writeProject(env, index, layout)
        for (const tsc of tscs) {
          const started = performance.now()
          const r = spawnSync(process.execPath, [tsc.path, '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' })
          const ok = r.status === 0
          const row = { runner, layout: layout.name, typescript: tsc.version, ok, seconds: (performance.now() - started) / 1000 }
          rows.push(row)
          console.log(`  ${row.runner.padEnd(13)} TS ${row.typescript.padEnd(6)} ${row.layout.padEnd(42)} ${ok ? 'ok  ' : 'FAIL'} ${row.seconds.toFixed(1)} s`)
          if (!ok) console.log(`${r.stdout}${r.stderr}`.replaceAll(base, '<matrix>'))
        }
      })
    }
  } finally {
    rmSync(base, { recursive: true, force: true })
  }
  const failed = rows.filter((r) => !r.ok).length
  console.log(`type-matrix: ${rows.length - failed} passed, ${failed} failed`)
  process.exit(failed ? 1 : 0)
}

function readVersion(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version
}

main()
