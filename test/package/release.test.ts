// scripts/release.mjs on a throwaway git repo holding copies of package.json, src/version.ts and a CHANGELOG
// fixture: a dry run changes nothing, a real run (checks skipped) bumps, moves the changelog, commits and tags.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(__dirname, '../..')
const script = join(root, 'scripts/release.mjs')
const tracked = ['package.json', 'src/version.ts', 'CHANGELOG.md']

let dir: string
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim()
const release = (...args: string[]) => execFileSync('node', [script, ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
const read = (p: string) => readFileSync(join(dir, p), 'utf8')
const snapshot = () => Object.fromEntries(tracked.map((p) => [p, read(p)]))

const current = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string
const [major, minor] = current.split('.').map(Number)
const next = `${major}.${minor! + 1}.0`
const today = new Date().toISOString().slice(0, 10)

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-matchers-release-'))
  mkdirSync(join(dir, 'src'))
  copyFileSync(join(root, 'package.json'), join(dir, 'package.json'))
  copyFileSync(join(root, 'src/version.ts'), join(dir, 'src/version.ts'))
  copyFileSync(join(__dirname, 'fixtures/CHANGELOG.md'), join(dir, 'CHANGELOG.md'))
  git('init', '-q')
  git('config', 'user.name', 'Release Test')
  git('config', 'user.email', 'release-test@example.invalid')
  git('config', 'commit.gpgsign', 'false')
  git('config', 'tag.gpgsign', 'false')
  git('add', '.')
  git('commit', '-q', '-m', 'initial')
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('--dry-run prints the new version and changelog head and changes nothing', () => {
  const before = snapshot()
  const head = git('rev-parse', 'HEAD')
  const out = release('--dry-run', '--skip-checks', 'minor')
  expect(out).toContain(`${current} -> ${next}`)
  expect(out).toContain(`version: ${next}`)
  expect(out).toContain(`## [${next}] - ${today}`)
  expect(out).toContain('npm publish')
  expect(snapshot()).toEqual(before)
  expect(git('status', '--porcelain')).toBe('')
  expect(git('rev-parse', 'HEAD')).toBe(head)
  expect(git('tag', '--list')).toBe('')
})

test('a real run bumps the version, moves [Unreleased], commits and tags', () => {
  release('--skip-checks', 'minor')
  expect(JSON.parse(read('package.json')).version).toBe(next)
  expect(read('src/version.ts')).toContain(`VERSION = '${next}'`)

  const changelog = read('CHANGELOG.md')
  const unreleased = changelog.indexOf('## [Unreleased]')
  const released = changelog.indexOf(`## [${next}] - ${today}`)
  const previous = changelog.indexOf('## [0.1.0] - 2026-11-01')
  expect(unreleased).toBeGreaterThan(-1)
  expect(released).toBeGreaterThan(unreleased)
  expect(previous).toBeGreaterThan(released)
  // Nothing is left under [Unreleased]; the entries moved, the empty "### Changed" was dropped.
  expect(changelog.slice(unreleased, released).trim()).toBe('## [Unreleased]')
  const section = changelog.slice(released, previous)
  expect(section).toContain('- `toHaveMrrAtK` matcher.')
  expect(section).toContain('- chrF no longer counts whitespace n-grams.')
  expect(section).not.toContain('### Changed')
  expect(changelog).toContain(`[Unreleased]: https://github.com/example/rag-matchers/compare/v${next}...HEAD`)
  expect(changelog).toContain(`[${next}]: https://github.com/example/rag-matchers/compare/v${current}...v${next}`)

  expect(git('tag', '--list')).toBe(`v${next}`)
  expect(git('log', '-1', '--format=%s')).toBe(`Release ${next}`)
  expect(git('status', '--porcelain')).toBe('')
})

test('refuses a real run on a dirty tree', () => {
  execFileSync('sh', ['-c', 'echo dirty >> CHANGELOG.md'], { cwd: dir })
  expect(() => release('--skip-checks', 'patch')).toThrow(/dirty/)
  expect(git('tag', '--list')).toBe(`v${next}`)
})
