// The layout's arrows point one way: runners/ → matchers/ → src/, cli/ → src/; and no module imports
// itself through a cycle. Read from the import statements of the source files.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const repo = process.cwd()
const LAYERS = ['src', 'matchers', 'runners', 'cli'] as const

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return filesUnder(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

const files = LAYERS.flatMap((layer) => filesUnder(join(repo, layer)))
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g

/** Repo-relative module → repo-relative modules it imports (type imports included). */
const graph = new Map<string, string[]>()
for (const file of files) {
  const text = readFileSync(file, 'utf8')
  const targets: string[] = []
  for (const m of text.matchAll(IMPORT)) {
    const spec = (m[1] ?? m[2]) as string
    targets.push(relative(repo, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))))
  }
  graph.set(relative(repo, file), targets)
}

const layerOf = (path: string) => path.split(/[\\/]/)[0] as string

describe('layout', () => {
  it('reads the sources', () => {
    expect(graph.size).toBeGreaterThan(100)
  })
  it.each([
    ['src', ['matchers', 'runners', 'cli']],
    ['matchers', ['runners', 'cli']],
    ['cli', ['matchers', 'runners']],
  ])('%s imports nothing from %j', (from, forbidden) => {
    const bad = [...graph].flatMap(([file, targets]) => (layerOf(file) === from ? targets.filter((t) => forbidden.includes(layerOf(t))).map((t) => `${file} → ${t}`) : []))
    expect(bad).toEqual([])
  })
  it('has no import cycle', () => {
    const state = new Map<string, 'active' | 'done'>()
    const cycles: string[] = []
    const visit = (node: string, path: string[]): void => {
      state.set(node, 'active')
      for (const next of graph.get(node) ?? []) {
        if (!graph.has(next)) continue
        if (state.get(next) === 'active') cycles.push([...path.slice(path.indexOf(next)), next].join(' → '))
        else if (state.get(next) === undefined) visit(next, [...path, next])
      }
      state.set(node, 'done')
    }
    for (const node of graph.keys()) if (!state.has(node)) visit(node, [node])
    expect(cycles).toEqual([])
  })
  it('matchers/ holds matchers and their messages only (no reporter, renderer or runner glue)', () => {
    const names = [...graph.keys()].filter((f) => layerOf(f) === 'matchers')
    expect(names.filter((f) => /report|merge|jest|vitest|environment|describe-eval-set/.test(f))).toEqual([])
  })
})
