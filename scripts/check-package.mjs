#!/usr/bin/env node
// Checks the published shape of rag-matchers on the packed tarball. Builds nothing: run `npm run build` first
// (the tarball is packed with --ignore-scripts, so `prepack` does not rebuild dist/).
//
//   node scripts/check-package.mjs            run every check, exit non-zero on any failure
//   node scripts/check-package.mjs --update   rewrite test/package/files.txt from the current tarball (review the diff!)
//
// Checks, one line each (ok/FAIL):
//   attw strict     @arethetypeswrong/cli with its default (strict) profile on the tarball: node10, node16 (CJS
//                   and ESM) and bundler resolution. node10 (`"module": "commonjs"` tsconfigs) finds the subpath
//                   types through package.json `typesVersions`
//   attw esm-only   --profile esm-only; the CJS half is ignored there, the ESM half must still be clean
//   publint         errors fail, warnings and suggestions are printed
//   required files  LICENSE and data/WORDNET-LICENSE.txt are in the tarball
//   typesVersions   every subpath export has its node10 typesVersions entry (its `require` types)
//   file list       sorted tarball paths (content hashes of dist chunks normalised) equal test/package/files.txt
//   size budget     tarball size and unpacked size within test/package/budget.json
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const filesPath = join(root, 'test/package/files.txt')
const budgetPath = join(root, 'test/package/budget.json')
const update = process.argv.includes('--update')
const bin = (name) => join(root, 'node_modules/.bin', name)

const results = []
const report = (name, ok, detail = '') => {
  results.push({ name, ok })
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`)
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} kB`

/** Replaces the content hash of a dist/ root chunk (`dist/ndcg-BmvEqWGp.d.cts`, `dist/chunk-2EJAHVNC.js`) by `[hash]`. */
export function normalisePath(path) {
  // Only files directly in dist/ are hashed chunks; entry files (dist/runners/jest-reporter.cjs) keep their names.
  if (!/^dist\/[^/]+$/.test(path)) return path
  return path.replace(/-[A-Za-z0-9_-]{8}\./, '-[hash].')
}

const run = (cmd, args) => spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } })

if (!existsSync(join(root, 'dist'))) {
  console.error('dist/ is missing: run `npm run build` first.')
  process.exit(1)
}

const work = mkdtempSync(join(tmpdir(), 'rag-matchers-check-'))
try {
  const packJson = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const pack = JSON.parse(packJson)[0]
  const tarball = join(work, pack.filename)
  const paths = pack.files.map((f) => f.path)
  console.log(`packed ${pack.filename}: ${pack.entryCount} files, tarball ${kb(pack.size)}, unpacked ${kb(pack.unpackedSize)}`)

  if (update) {
    const list = [...new Set(paths.map(normalisePath))].sort()
    writeFileSync(filesPath, list.join('\n') + '\n')
    console.log(`wrote ${filesPath} (${list.length} lines)`)
    process.exit(0)
  }

  // attw. Both profiles are clean for this dual package; `strict` (the default) includes node10, which
  // `typesVersions` serves for the many Jest projects still on `"module": "commonjs"`.
  for (const profile of ['strict', 'esm-only']) {
    const r = run(bin('attw'), [tarball, '--profile', profile, '--no-emoji', '--no-color', '--format', 'ascii'])
    if (r.status === 0) report(`attw --profile ${profile}`, true)
    else {
      process.stdout.write(r.stdout + r.stderr)
      report(`attw --profile ${profile}`, false, `exit ${r.status}`)
    }
  }

  // publint: exits non-zero on errors; warnings and suggestions are printed but do not fail.
  {
    const r = run(bin('publint'), ['run', tarball])
    // eslint-disable-next-line no-control-regex
    const out = (r.stdout + r.stderr).replace(/\x1b\[[0-9;]*m/g, '').replace(/^npm warn Unknown project config.*\n/gm, '')
    const messages = out.split('\n').filter((l) => l.trim() && !/^(Running publint|Unpacking tarball|Linting|All good)/.test(l.trim()))
    if (messages.length) process.stdout.write(messages.map((l) => `  publint: ${l}`).join('\n') + '\n')
    const warnings = /Warnings?:/i.test(out) || /Suggestions?:/i.test(out)
    report('publint', r.status === 0, r.status === 0 ? (warnings ? 'warnings/suggestions above' : 'all good') : `exit ${r.status}`)
  }

  // Files that must ship: LICENSE (npm adds it from the repo root) and the WordNet licence next to its data.
  {
    const required = ['LICENSE', 'data/WORDNET-LICENSE.txt']
    const missing = required.filter((p) => !paths.includes(p))
    report('required files', missing.length === 0, missing.length ? `missing: ${missing.join(', ')}` : required.join(', '))
  }

  // node10 (`"module": "commonjs"`) sees subpaths only through typesVersions: each export needs its entry.
  {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    const map = pkg.typesVersions?.['*'] ?? {}
    const wrong = Object.entries(pkg.exports)
      .filter(([k]) => k !== '.' && k !== './package.json')
      .filter(([k, v]) => map[k.slice(2)]?.[0] !== v.require?.types)
      .map(([k]) => k)
    report('typesVersions', wrong.length === 0, wrong.length ? `missing or not the require types for: ${wrong.join(', ')}` : `${Object.keys(map).length} subpaths`)
  }

  // File-list snapshot.
  {
    const actual = [...new Set(paths.map(normalisePath))].sort()
    if (!existsSync(filesPath)) {
      report('file list', false, `${filesPath} missing; run \`node scripts/check-package.mjs --update\``)
    } else {
      const expected = readFileSync(filesPath, 'utf8').split('\n').filter(Boolean)
      const added = actual.filter((p) => !expected.includes(p))
      const removed = expected.filter((p) => !actual.includes(p))
      if (added.length || removed.length) {
        for (const p of removed) console.log(`  - ${p}`)
        for (const p of added) console.log(`  + ${p}`)
        report(
          'file list',
          false,
          `${added.length} added, ${removed.length} removed vs test/package/files.txt; after reviewing, run \`node scripts/check-package.mjs --update\``,
        )
      } else report('file list', true, `${actual.length} entries (${paths.length} files)`)
    }
  }

  // Size budget.
  {
    const budget = JSON.parse(readFileSync(budgetPath, 'utf8'))
    const over = []
    if (pack.size > budget.maxTarballBytes) over.push(`tarball ${kb(pack.size)} > ${kb(budget.maxTarballBytes)}`)
    if (pack.unpackedSize > budget.maxUnpackedBytes) over.push(`unpacked ${kb(pack.unpackedSize)} > ${kb(budget.maxUnpackedBytes)}`)
    report(
      'size budget',
      over.length === 0,
      over.length
        ? `${over.join('; ')} (raise test/package/budget.json only if the growth is intended)`
        : `tarball ${kb(pack.size)} / ${kb(budget.maxTarballBytes)}, unpacked ${kb(pack.unpackedSize)} / ${kb(budget.maxUnpackedBytes)}`,
    )
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}

const failed = results.filter((r) => !r.ok)
console.log(failed.length ? `${failed.length} of ${results.length} package checks failed` : `all ${results.length} package checks passed`)
process.exit(failed.length ? 1 : 0)
