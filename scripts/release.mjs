#!/usr/bin/env node
// Prepares a release of the package in the current directory (process.cwd()):
//
//   node scripts/release.mjs [--dry-run] [--skip-checks] <major|minor|patch|x.y.z>
//
//   1. refuses when the git tree is dirty (a dry run only warns) or the tag already exists
//   2. runs every check: npm test, npm run lint, npm run format:check, node scripts/check-package.mjs
//      (--skip-checks skips them; a dry run lists them without running them, since `npm test` rebuilds dist/)
//   3. bumps "version" in package.json (and package-lock.json's root entries, and src/version.ts's VERSION)
//   4. moves CHANGELOG.md's `## [Unreleased]` entries under `## [x.y.z] - YYYY-MM-DD` (Keep a Changelog),
//      leaves an empty `## [Unreleased]`, and updates the compare links at the bottom when present
//   5. commits "Release x.y.z" and creates the annotated tag vx.y.z
//
// --dry-run prints every step, the new version and the resulting CHANGELOG head, and writes nothing.
// Publishing stays manual: the script prints `npm publish` as the next step and never runs it.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const USAGE = 'usage: node scripts/release.mjs [--dry-run] [--skip-checks] <major|minor|patch|x.y.z>'
const argv = process.argv.slice(2)
const dryRun = argv.includes('--dry-run')
const skipChecks = argv.includes('--skip-checks')
const unknown = argv.filter((a) => a.startsWith('-') && !['--dry-run', '--skip-checks'].includes(a))
const positional = argv.filter((a) => !a.startsWith('-'))
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE)
  process.exit(0)
}
if (unknown.length || positional.length !== 1) fail(`${unknown.length ? `unknown option ${unknown.join(' ')}\n` : ''}${USAGE}`)

const cwd = process.cwd()
const file = (p) => join(cwd, p)
const prefix = dryRun ? '[dry-run] ' : ''
const step = (msg) => console.log(`${prefix}${msg}`)

function fail(msg) {
  console.error(`release: ${msg}`)
  process.exit(1)
}

const git = (...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()

// ---------------------------------------------------------------------------------------------- version
const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/

function compare(a, b) {
  const pa = SEMVER.exec(a)
  const pb = SEMVER.exec(b)
  for (let i = 1; i <= 3; i++) if (Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) - Number(pb[i])
  if (pa[4] === pb[4]) return 0
  if (!pa[4]) return 1 // a release sorts after its prereleases
  if (!pb[4]) return -1
  return pa[4] < pb[4] ? -1 : 1
}

/** npm-style bump: a prerelease 1.2.0-rc.1 goes to 1.2.0 on `minor`, 1.2.3-rc.1 to 1.2.3 on `patch`. */
function bump(current, spec) {
  const m = SEMVER.exec(current)
  if (!m) fail(`package.json version ${JSON.stringify(current)} is not x.y.z`)
  const [major, minor, patch] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const pre = Boolean(m[4])
  if (spec === 'major') return pre && minor === 0 && patch === 0 ? `${major}.0.0` : `${major + 1}.0.0`
  if (spec === 'minor') return pre && patch === 0 ? `${major}.${minor}.0` : `${major}.${minor + 1}.0`
  if (spec === 'patch') return pre ? `${major}.${minor}.${patch}` : `${major}.${minor}.${patch + 1}`
  const explicit = spec.replace(/^v/, '')
  if (!SEMVER.test(explicit)) fail(`"${spec}" is neither major, minor, patch nor a version x.y.z\n${USAGE}`)
  if (compare(explicit, current) <= 0) fail(`${explicit} is not greater than the current version ${current}`)
  return explicit
}

// ---------------------------------------------------------------------------------------------- changelog
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Drops `### Heading` subsections that have no entries; trims blank lines at both ends. */
function dropEmptySubsections(lines) {
  const out = []
  for (let i = 0; i < lines.length; i++) {
    if (/^###\s/.test(lines[i])) {
      let j = i + 1
      while (j < lines.length && !/^###\s/.test(lines[j])) j++
      if (lines.slice(i + 1, j).every((l) => !l.trim())) {
        i = j - 1
        continue
      }
    }
    out.push(lines[i])
  }
  while (out.length && !out[0].trim()) out.shift()
  while (out.length && !out.at(-1).trim()) out.pop()
  return out
}

/** Returns the new CHANGELOG text, or fails with the reason. */
export function releaseChangelog(text, oldVersion, newVersion, date) {
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const lines = text.split(/\r?\n/)
  const start = lines.findIndex((l) => /^##\s+\[?unreleased\]?\s*$/i.test(l))
  if (start < 0) fail('CHANGELOG.md has no "## [Unreleased]" heading')
  if (lines.some((l) => new RegExp(`^##\\s+\\[?${escape(newVersion)}\\]?(\\s|$)`).test(l))) {
    fail(`CHANGELOG.md already has a section for ${newVersion}`)
  }
  // The section ends at the next `## ` heading or at the link reference definitions at the bottom.
  let end = start + 1
  while (end < lines.length && !/^##\s/.test(lines[end]) && !/^\[[^\]]+\]:\s*\S/.test(lines[end])) end++
  const entries = dropEmptySubsections(lines.slice(start + 1, end))
  if (!entries.length) fail('the [Unreleased] section of CHANGELOG.md has no entries; nothing to release')

  const section = ['## [Unreleased]', '', `## [${newVersion}] - ${date}`, '', ...entries, '']
  const out = [...lines.slice(0, start), ...section, ...lines.slice(end)]

  // Compare links: `[Unreleased]: <base>/compare/<oldTag>...HEAD` becomes `<base>/compare/<newTag>...HEAD`, and
  // `[x.y.z]: <base>/compare/<oldTag>...<newTag>` is added below it. The tag prefix is taken from <oldTag>.
  const linkAt = out.findIndex((l) => /^\[unreleased\]:\s*\S+\/compare\/\S+\.\.\.HEAD\s*$/i.test(l))
  if (linkAt >= 0) {
    const [, label, base, oldRef] = /^(\[unreleased\]):\s*(\S+)\/compare\/(\S+)\.\.\.HEAD\s*$/i.exec(out[linkAt])
    const tagPrefix = oldRef.endsWith(oldVersion) ? oldRef.slice(0, -oldVersion.length) : 'v'
    const newRef = `${tagPrefix}${newVersion}`
    out[linkAt] = `${label}: ${base}/compare/${newRef}...HEAD`
    if (!out.some((l) => l.startsWith(`[${newVersion}]:`))) out.splice(linkAt + 1, 0, `[${newVersion}]: ${base}/compare/${oldRef}...${newRef}`)
  }
  return { text: out.join(eol), headEnd: start + section.length }
}

// ---------------------------------------------------------------------------------------------- main
const spec = positional[0]
if (!existsSync(file('package.json'))) fail(`no package.json in ${cwd}`)
const pkgText = readFileSync(file('package.json'), 'utf8')
const pkg = JSON.parse(pkgText)
const oldVersion = pkg.version
const newVersion = bump(oldVersion, spec)
const tag = `v${newVersion}`
const date = new Date().toISOString().slice(0, 10)
step(`release ${pkg.name} ${oldVersion} -> ${newVersion} (tag ${tag}, date ${date}) in ${cwd}`)

// 1. git state
try {
  if (git('rev-parse', '--is-inside-work-tree') !== 'true') throw new Error()
} catch {
  fail(`${cwd} is not inside a git work tree`)
}
const dirty = git('status', '--porcelain')
if (dirty) {
  if (!dryRun) fail(`the git tree is dirty; commit or stash first:\n${dirty}`)
  step(`warning: the git tree is dirty; a real run would refuse:\n${dirty}`)
} else step('git tree is clean')
if (git('tag', '--list', tag)) fail(`tag ${tag} already exists`)

// 2. checks
const checks = [
  ['npm', ['test']],
  ['npm', ['run', 'lint']],
  ['npm', ['run', 'format:check']],
  ['node', ['scripts/check-package.mjs']],
]
if (skipChecks) step(`skipping checks (--skip-checks): ${checks.map(([c, a]) => [c, ...a].join(' ')).join(', ')}`)
else {
  const missing = checks.filter(([cmd, args]) => cmd === 'npm' && args[0] === 'run' && !pkg.scripts?.[args[1]]).map(([, args]) => args[1])
  if (missing.length && !dryRun) fail(`package.json has no ${missing.map((m) => `"${m}"`).join(', ')} script; the checks need it`)
  if (missing.length) step(`warning: package.json has no ${missing.map((m) => `"${m}"`).join(', ')} script; a real run would refuse`)
  for (const [cmd, args] of checks) {
    const line = [cmd, ...args].join(' ')
    if (dryRun) {
      step(`would run: ${line}`)
      continue
    }
    step(`running: ${line}`)
    const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' })
    if (r.status !== 0) fail(`check failed: ${line} (exit ${r.status ?? r.signal})`)
  }
}

// 3. version files
const writes = []
const versionField = /("version"\s*:\s*")([^"]*)(")/
writes.push(['package.json', pkgText.replace(versionField, `$1${newVersion}$3`)])
if (existsSync(file('package-lock.json'))) {
  const lockText = readFileSync(file('package-lock.json'), 'utf8')
  const lock = JSON.parse(lockText)
  if (lock.name === pkg.name) {
    lock.version = newVersion
    if (lock.packages?.['']) lock.packages[''].version = newVersion
    writes.push(['package-lock.json', JSON.stringify(lock, null, 2) + '\n'])
  }
}
if (existsSync(file('src/version.ts'))) {
  const vt = readFileSync(file('src/version.ts'), 'utf8')
  const versionConst = /(VERSION\s*(?::\s*string\s*)?=\s*)(['"`])([^'"`]*)\2/
  const m = versionConst.exec(vt)
  if (!m) fail('src/version.ts exists but has no VERSION = "<version>" constant')
  if (m[3] !== oldVersion) fail(`src/version.ts holds ${m[3]}, package.json ${oldVersion}; fix the mismatch first`)
  writes.push(['src/version.ts', vt.replace(versionConst, `$1$2${newVersion}$2`)])
}

// 4. changelog
if (!existsSync(file('CHANGELOG.md'))) fail('no CHANGELOG.md (Keep a Changelog format with a "## [Unreleased]" section)')
const changelog = releaseChangelog(readFileSync(file('CHANGELOG.md'), 'utf8'), oldVersion, newVersion, date)
writes.push(['CHANGELOG.md', changelog.text])

for (const [path] of writes) step(`${dryRun ? 'would write' : 'write'} ${path}${path === 'CHANGELOG.md' ? '' : ` (version ${newVersion})`}`)
if (!dryRun) for (const [path, text] of writes) writeFileSync(file(path), text)

// 5. commit and tag
const paths = writes.map(([p]) => p)
step(`${dryRun ? 'would run' : 'running'}: git add ${paths.join(' ')}`)
step(`${dryRun ? 'would run' : 'running'}: git commit -m "Release ${newVersion}"`)
step(`${dryRun ? 'would run' : 'running'}: git tag -a ${tag} -m "Release ${newVersion}"`)
if (!dryRun) {
  git('add', '--', ...paths)
  git('commit', '-m', `Release ${newVersion}`)
  git('tag', '-a', tag, '-m', `Release ${newVersion}`)
}

// Summary
// The head is everything above the previous release: title, the empty [Unreleased] and the new section.
const headLines = changelog.text.split(/\r?\n/)
const cut = Math.min(changelog.headEnd, 80)
console.log(`\n${prefix}version: ${newVersion}`)
console.log(`${prefix}CHANGELOG.md head:\n${headLines.slice(0, cut).join('\n').trimEnd()}\n`)
if (dryRun) console.log('[dry-run] nothing was changed.')
else console.log(`Committed "Release ${newVersion}" and tagged ${tag}.`)
console.log(`Next steps (manual): git push --follow-tags && npm publish`)
