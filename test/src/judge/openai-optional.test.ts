// `openai` is an optional peer dependency: no module of the package may import it at top level, so that
// installing, importing and running every non-provider matcher works without it. Read from the sources.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = process.cwd()

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

describe('the openai package is loaded lazily, and only by the provider modules', () => {
  const files = ['src', 'matchers', 'runners', 'cli'].flatMap((d) => sources(join(ROOT, d)))

  it('scans a real tree', () => {
    expect(files.map((f) => relative(ROOT, f))).toContain(join('src', 'judge', 'openai-module.ts'))
  })

  it('no static import or require of openai anywhere', () => {
    const offenders = files.filter((file) => {
      const text = readFileSync(file, 'utf8')
      // `import type` is erased at compile time, so it is allowed; a value import is not.
      return (
        /^\s*import\s+(?!type\s)[^'"]*?from\s+['"]openai(\/[^'"]*)?['"]/m.test(text) ||
        /^\s*export\s+[^'"]*?from\s+['"]openai['"]/m.test(text) ||
        /require\(\s*['"]openai['"]\s*\)/.test(text)
      )
    })
    expect(offenders.map((f) => relative(ROOT, f))).toEqual([])
  })

  it("the one dynamic import('openai') lives in src/judge/openai-module.ts, inside a function", () => {
    // Code lines only: doc comments and messages may mention the import.
    const code = (file: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
        .join('\n')
    const dynamic = files.filter((file) => /(?<!["'])import\(\s*'openai'\s*\)/.test(code(file)))
    expect(dynamic.map((f) => relative(ROOT, f))).toEqual([join('src', 'judge', 'openai-module.ts')])
    const text = readFileSync(dynamic[0]!, 'utf8')
    expect(text).toMatch(/export const importOpenAI: OpenAIImporter = \(\) => import\('openai'\)/)
  })
})
