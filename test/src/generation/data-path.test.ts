import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { moduleDirectory, resolvePackageDataFile } from '../../../src/generation/data-path.js'

const FILE = 'wordnet-3.0-meteor.json.gz'
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')

let root: string
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'rag-matchers-data-path-'))
})
afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

function fakePackage(folder: string, name: string, withData = true): void {
  mkdirSync(join(folder, 'data'), { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name }))
  if (withData) writeFileSync(join(folder, 'data', FILE), '')
}

describe('resolvePackageDataFile', () => {
  it('finds the data file of this repository from the source folder', () => {
    expect(moduleDirectory()).toBe(join(repoRoot, 'src', 'generation'))
    expect(resolvePackageDataFile(FILE)).toBe(join(repoRoot, 'data', FILE))
  })

  it('walks up from dist/src/generation, a bundle at dist/, or node_modules/rag-matchers/dist', () => {
    const pkg = join(root, 'layout', 'pkg')
    fakePackage(pkg, 'rag-matchers')
    for (const start of [join(pkg, 'dist', 'src', 'generation'), join(pkg, 'dist'), join(pkg, 'src', 'generation')]) {
      mkdirSync(start, { recursive: true })
      expect(resolvePackageDataFile(FILE, start)).toBe(join(pkg, 'data', FILE))
    }
    const installed = join(root, 'layout', 'app', 'node_modules', 'rag-matchers')
    fakePackage(join(root, 'layout', 'app'), 'my-app') // an app with its own data/ folder above us
    fakePackage(installed, 'rag-matchers')
    mkdirSync(join(installed, 'dist'), { recursive: true })
    expect(resolvePackageDataFile(FILE, join(installed, 'dist'))).toBe(join(installed, 'data', FILE))
  })

  it("prefers the folder whose package.json is rag-matchers' over a nearer data/ folder", () => {
    const pkg = join(root, 'prefer', 'pkg')
    fakePackage(pkg, 'rag-matchers')
    const nested = join(pkg, 'dist')
    fakePackage(nested, 'something-else')
    expect(resolvePackageDataFile(FILE, join(nested, 'src'))).toBe(join(pkg, 'data', FILE))
  })

  it('falls back to the nearest data/ folder without our package.json, else undefined', () => {
    const vendored = join(root, 'vendored', 'lib')
    fakePackage(vendored, 'vendor-bundle')
    expect(resolvePackageDataFile(FILE, join(vendored, 'x'))).toBe(join(vendored, 'data', FILE))
    const empty = join(root, 'empty', 'a', 'b')
    mkdirSync(empty, { recursive: true })
    expect(resolvePackageDataFile('no-such-file.bin', empty)).toBeUndefined()
  })
})

describe('bundled builds find the data next to package.json', () => {
  // What tsup does to src/generation/*: ESM keeps import.meta.url; CJS without shims empties
  // import.meta, leaving __dirname. Both bundles sit in dist/src/generation of a fake package root.
  it.each([
    ['cjs', 'wordnet.cjs'],
    ['esm', 'wordnet.mjs'],
  ] as const)('%s', async (format, file) => {
    const pkg = join(root, `bundle-${format}`)
    fakePackage(pkg, 'rag-matchers', false)
    symlinkSync(join(repoRoot, 'data', FILE), join(pkg, 'data', FILE))
    const out = join(pkg, 'dist', 'src', 'generation', file)
    await build({
      entryPoints: [join(repoRoot, 'src', 'generation', 'wordnet.ts')],
      bundle: true,
      platform: 'node',
      format,
      target: 'node20',
      outfile: out,
      logLevel: 'silent',
    })
    const script =
      format === 'cjs'
        ? `const w = require(${JSON.stringify(out)}); console.log(JSON.stringify([w.loadWordNet().path, w.synonyms('fast').has('quick')]))`
        : `const w = await import(${JSON.stringify(`file://${out}`)}); console.log(JSON.stringify([w.loadWordNet().path, w.synonyms('fast').has('quick')]))`
    const args = format === 'cjs' ? ['-e', script] : ['--input-type=module', '-e', script]
    const printed = execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' })
    expect(JSON.parse(printed)).toEqual([join(pkg, 'data', FILE), true])
  })
})
