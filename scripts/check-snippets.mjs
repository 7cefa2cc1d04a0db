#!/usr/bin/env node
// README and docs snippets are tests: every ts/js code block of README.md and docs/*.md is written into a
// fresh consumer project that installs the packed tarball, type-checked there, and the blocks that are test
// files are run under Vitest (the README's own config: no globals) and under Jest (the README's config,
// @swc/jest). Exits non-zero when any block fails. Build first (`npm run build`): the tarball is packed
// with --ignore-scripts.
//
// A block's kind comes from an HTML comment on the line(s) just before its fence:
//   (none)                                          a module: type-checked as written
//   <!-- snippet: fragment -->                      lines taken out of a test: `expect` (Vitest) is in scope and
//                                                   every other free name is declared `any`, so matcher names,
//                                                   arity and literal arguments are still checked
//   <!-- snippet: file=vitest.config.ts -->         a project file (config, setup), written under that name;
//                                                   `runner=jest` type-checks it with Jest's types
//   <!-- snippet: test file=x.test.ts runner=vitest,jest -->   a test file, type-checked and run by each runner
//   … pkg=module,commonjs                           on a file or test block: written into a `"type": "module"`
//                                                   and a `"type": "commonjs"` project, and run in each (the
//                                                   quick starts must work in both). Default: Vitest blocks in
//                                                   an ESM project, Jest blocks in a CommonJS one
//   <!-- snippet: skip reason="…" -->               not code (counted and listed, never silently)
// docs/api.md is generated, so its blocks are fragments, and its signature lines
// (`expect(received).toHaveNdcgAtK(k, min, options?)`) are checked with the optional marks dropped.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const LANGS = { ts: 'ts', typescript: 'ts', js: 'js', javascript: 'js', mjs: 'js', cjs: 'js' }
const RUNNERS = ['vitest', 'jest']
const PKG_TYPES = ['module', 'commonjs']
/** The project type a runner's blocks get without `pkg=`: ESM for Vitest (as Vitest projects are), CommonJS for Jest. */
const DEFAULT_PKG = { vitest: 'module', jest: 'commonjs' }

/** Parses `kind key=value key="quoted value"` from a snippet marker. */
export function parseMarker(text) {
  const out = { kind: undefined, attrs: {} }
  for (const m of text.matchAll(/(\w[\w-]*)(?:=(?:"([^"]*)"|(\S+)))?/g)) {
    const [, key, quoted, bare] = m
    if (quoted === undefined && bare === undefined) out.kind ??= key
    else out.attrs[key] = quoted ?? bare
  }
  return out
}

/**
 * Every ts/js fenced block of a markdown text, with its kind. `defaultKind` applies to blocks with no
 * marker ('module', or 'fragment' for a generated file). Throws on a marker it does not understand.
 */
export function extractBlocks(markdown, source, defaultKind = 'module') {
  const lines = markdown.split('\n')
  const blocks = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})\s*([\w-]*)/.exec(lines[i])
    if (!open) continue
    const [, indent, fence, lang] = open
    let end = i + 1
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++
    const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
    const startLine = i + 1
    i = end
    if (!(lang in LANGS)) continue
    let j = startLine - 2
    while (j >= 0 && lines[j].trim() === '') j--
    const marker = j >= 0 ? /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/.exec(lines[j]) : null
    const { kind = marker ? undefined : defaultKind, attrs } = marker ? parseMarker(marker[1]) : { attrs: {} }
    const resolvedKind = kind ?? (attrs.file ? 'file' : defaultKind)
    if (!['module', 'fragment', 'file', 'test', 'skip'].includes(resolvedKind)) throw new Error(`${source}:${startLine}: unknown snippet kind "${resolvedKind}"`)
    if ((resolvedKind === 'file' || resolvedKind === 'test') && !attrs.file) throw new Error(`${source}:${startLine}: snippet ${resolvedKind} needs file=NAME`)
    // A test block runs under each of its runners; a file block is only type-checked, with its runner's types.
    const runners = resolvedKind === 'test' || resolvedKind === 'file' ? (attrs.runner ?? 'vitest').split(',') : []
    const badRunner = runners.find((r) => !RUNNERS.includes(r))
    if (badRunner) throw new Error(`${source}:${startLine}: unknown runner "${badRunner}" (use ${RUNNERS.join(', ')})`)
    const pkgs = attrs.pkg ? attrs.pkg.split(',') : undefined
    if (pkgs && !runners.length) throw new Error(`${source}:${startLine}: pkg= applies to file and test blocks only`)
    const badPkg = pkgs?.find((t) => !PKG_TYPES.includes(t))
    if (badPkg) throw new Error(`${source}:${startLine}: unknown pkg "${badPkg}" (use ${PKG_TYPES.join(', ')})`)
    blocks.push({ source, line: startLine + 1, lang: LANGS[lang], kind: resolvedKind, file: attrs.file, runners, pkgs, reason: attrs.reason, code: body.join('\n') + '\n' })
  }
  return blocks
}

/** `expect(received).toX(k, min, options?)` → `… options)`: a signature line made checkable. */
const dropOptionalMarks = (code) => code.replace(/(\w)\?(?=\s*[,)])/g, '$1')

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

const FRAGMENT_PRELUDE = "import { expect } from 'vitest'\nimport 'rag-matchers/vitest'\n"

function main() {
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
  const docs = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ]
  const blocks = docs.flatMap((doc) => extractBlocks(readFileSync(join(root, doc), 'utf8'), doc, doc === 'docs/api.md' ? 'fragment' : 'module'))

  const work = mkdtempSync(join(tmpdir(), 'rag-matchers-snippets-'))
  const project = join(work, 'project')
  const sh = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: project, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts })
  let failed = 0
  try {
    execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] })
    mkdirSync(project)
    // One install, a project folder per runner and package type under it (vitest-module/, vitest-commonjs/,
    // jest-module/, jest-commonjs/), each with its own package.json `type` and sharing the parent's
    // node_modules. The root (snippets/, the module and fragment blocks) is CommonJS.
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'snippets', private: true }, null, 2))
    const dev = pkg.devDependencies
    // `ai` (the Vercel AI SDK) only so README's AI SDK judge type-checks against the real package
    const deps = ['vitest', 'jest', '@jest/globals', '@types/jest', '@types/node', 'typescript', '@swc/core', '@swc/jest', 'ai'].map((d) => `${d}@${dev[d]}`)
    const install = sh('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, `${pkg.name}-${pkg.version}.tgz`), ...deps], {
      env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'skip' },
    })
    if (install.status !== 0) throw new Error(`npm install in the snippet project failed:\n${install.stdout}${install.stderr}`)
    const folders = RUNNERS.flatMap((runner) => PKG_TYPES.map((type) => ({ runner, type, dir: `${runner}-${type}` })))
    for (const { runner, type, dir } of folders) {
      cpSync(join(root, 'test/snippets/fixtures'), join(project, dir), { recursive: true })
      writeFileSync(join(project, dir, 'package.json'), JSON.stringify({ name: `snippets-${runner}-${type}`, private: true, type }, null, 2))
    }
    const pkgsOf = (b, r) => b.pkgs ?? [DEFAULT_PKG[r]]

    // Write every block; `files` maps each written path to its block for error attribution.
    const files = new Map()
    const programs = { vitest: [], jest: [] }
    blocks.forEach((b, n) => {
      b.id = n
      b.paths = []
      const slug = `${basename(b.source, '.md').toLowerCase()}-${b.line}`
      const ext = b.lang === 'ts' ? '.ts' : '.cjs'
      const write = (rel, code, program, offset = 0) => {
        mkdirSync(dirname(join(project, rel)), { recursive: true })
        writeFileSync(join(project, rel), code)
        files.set(rel, { block: b, offset })
        b.paths.push(rel)
        programs[program].push(rel)
      }
      if (b.kind === 'skip') return
      if (b.kind === 'file') for (const t of pkgsOf(b, b.runners[0])) write(`${b.runners[0]}-${t}/${b.file}`, b.code, b.runners[0])
      else if (b.kind === 'test') for (const r of b.runners) for (const t of pkgsOf(b, r)) write(`${r}-${t}/${b.file}`, b.code, r)
      else if (b.kind === 'module') write(`snippets/${slug}${ext}`, b.code, 'vitest')
      else {
        const code = b.source === 'docs/api.md' ? dropOptionalMarks(b.code) : b.code
        b.fragment = { code, declared: new Set() }
        write(`snippets/${slug}.ts`, FRAGMENT_PRELUDE + code, 'vitest', FRAGMENT_PRELUDE.split('\n').length - 1)
      }
    })

    const tsconfig = (include, types) => ({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2023'],
        module: 'ESNext',
        moduleResolution: 'Bundler',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowJs: true,
        checkJs: true,
        types,
      },
      include,
    })
    writeFileSync(join(project, 'tsconfig.vitest.json'), JSON.stringify(tsconfig([...programs.vitest, 'vitest-*/**/*.ts'], ['node']), null, 2))
    writeFileSync(join(project, 'tsconfig.jest.json'), JSON.stringify(tsconfig([...programs.jest, 'jest-*/**/*.ts'], ['node', 'jest']), null, 2))

    // Type-check; fragments get `declare const name: any` for each free name, then are checked again.
    const typecheck = () => {
      const errors = []
      for (const p of ['tsconfig.vitest.json', 'tsconfig.jest.json']) {
        const r = sh(join(project, 'node_modules/.bin/tsc'), ['-p', p, '--pretty', 'false'])
        for (const m of (r.stdout + r.stderr).matchAll(/^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/gm))
          errors.push({ path: m[1], line: Number(m[2]), code: m[4], text: m[5] })
        if (r.status !== 0 && !/error TS/.test(r.stdout + r.stderr)) errors.push({ path: p, line: 0, code: 'tsc', text: (r.stdout + r.stderr).trim() })
      }
      return errors
    }
    let errors = typecheck()
    const free = errors.filter((e) => ['TS2304', 'TS2552', 'TS18004', 'TS2582'].includes(e.code) && files.get(e.path)?.block.fragment)
    if (free.length) {
      for (const e of free) {
        const name = /'([^']+)'/.exec(e.text)?.[1]
        if (name) files.get(e.path).block.fragment.declared.add(name)
      }
      for (const [rel, { block }] of files) {
        if (!block.fragment || block.fragment.declared.size === 0) continue
        const decls = [...block.fragment.declared].map((n) => `declare const ${n}: any`).join('\n') + '\n'
        const prelude = FRAGMENT_PRELUDE + decls
        writeFileSync(join(project, rel), prelude + block.fragment.code)
        files.get(rel).offset = prelude.split('\n').length - 1
      }
      errors = typecheck()
    }
    for (const e of errors) {
      const owner = files.get(e.path)
      if (!owner) {
        console.log(`FAIL ${e.path}:${e.line}: ${e.code} ${e.text}`)
        failed++
        continue
      }
      owner.block.errors ??= []
      owner.block.errors.push(`${owner.block.source}:${owner.block.line + e.line - 1 - owner.offset}: ${e.code} ${e.text}`)
    }

    // Run the test blocks. CI is unset: a first run writes the baseline, as README describes.
    const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }
    delete env.CI
    const runs = { vitest: 0, jest: 0 }
    const runsByType = { module: 0, commonjs: 0 }
    for (const { runner: r, type, dir } of folders) {
      const tests = blocks.filter((b) => b.kind === 'test' && b.runners.includes(r) && pkgsOf(b, r).includes(type))
      if (!tests.length) continue
      const paths = tests.map((b) => b.file)
      const args = r === 'vitest' ? ['run', ...paths] : ['--ci', '--runTestsByPath', ...paths]
      const res = sh(join(project, 'node_modules/.bin', r), args, { env, cwd: join(project, dir) })
      runs[r] += tests.length
      runsByType[type] += tests.length
      const summary = (res.stdout + res.stderr)
        .replace(ANSI, '')
        .split('\n')
        .filter((l) => /^\s*(Tests?( Files)?|Test Suites):/.test(l) || /^\s*Test(s| Files)\s+\d/.test(l))
      console.log(`${r} ("type": "${type}"): ${summary.map((l) => l.trim()).join('; ') || '(no summary line)'}`)
      if (res.status !== 0 || process.argv.includes('--verbose')) process.stdout.write(res.stdout + res.stderr)
      if (res.status !== 0) {
        for (const b of tests) (b.errors ??= []).push(`${b.source}:${b.line}: failed under ${r} in a "type": "${type}" project (output above)`)
      }
    }

    // One line per block, then the counts.
    const checked = blocks.filter((b) => b.kind !== 'skip')
    for (const b of blocks) {
      const types = b.pkgs ? `; ${b.pkgs.join(', ')}` : ''
      const what = b.kind === 'test' ? `test ${b.file} (${b.runners.join(', ')}${types})` : b.kind === 'file' ? `file ${b.file}${types ? ` (${types.slice(2)})` : ''}` : b.kind
      if (b.kind === 'skip') console.log(`skip ${b.source}:${b.line} ${b.reason ?? ''}`)
      else if (b.errors) {
        failed++
        console.log(`FAIL ${b.source}:${b.line} ${what}`)
        for (const e of b.errors) console.log(`       ${e}`)
      } else if (process.argv.includes('--verbose')) console.log(`ok   ${b.source}:${b.line} ${what}`)
    }
    const bySource = docs.map((d) => `${d} ${blocks.filter((b) => b.source === d).length}`).join(', ')
    console.log(
      `snippet blocks: ${blocks.length} found (${bySource}); ${checked.length} type-checked; ${runs.vitest} test runs under Vitest, ${runs.jest} under Jest (${runsByType.module} in "type": "module" projects, ${runsByType.commonjs} in "type": "commonjs"); ${blocks.length - checked.length} skipped`,
    )
    console.log(`snippets: ${checked.length - failed} passed, ${failed} failed`)
  } finally {
    if (!process.argv.includes('--keep')) rmSync(work, { recursive: true, force: true })
    else console.log(`kept ${work}`)
  }
  process.exit(failed ? 1 : 0)
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
