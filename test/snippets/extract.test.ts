// The block extraction of scripts/check-snippets.mjs (which runs README/docs snippets in a consumer project).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain .mjs script without declarations
import { extractBlocks, parseMarker } from '../../scripts/check-snippets.mjs'

interface Block {
  source: string
  line: number
  lang: 'ts' | 'js'
  kind: string
  file?: string
  runners: string[]
  pkgs?: string[]
  reason?: string
  code: string
}
const extract = extractBlocks as (markdown: string, source: string, defaultKind?: string) => Block[]

const fence = '```'
const md = (...parts: string[]): string => parts.join('\n')

describe('parseMarker', () => {
  it('reads the kind and key=value attributes, quoted or bare', () => {
    expect(parseMarker('test file=a.test.ts runner=vitest,jest')).toEqual({ kind: 'test', attrs: { file: 'a.test.ts', runner: 'vitest,jest' } })
    expect(parseMarker('skip reason="not code, a schema"')).toEqual({ kind: 'skip', attrs: { reason: 'not code, a schema' } })
    expect(parseMarker('file=vitest.config.ts')).toEqual({ kind: undefined, attrs: { file: 'vitest.config.ts' } })
  })
})

describe('extractBlocks', () => {
  const text = md(
    '# Title',
    `${fence}sh`,
    'npm test',
    fence,
    '<!-- snippet: fragment -->',
    '',
    `${fence}ts`,
    'expect(x).toHitWithin(3)',
    fence,
    `${fence}js`,
    'module.exports = {}',
    fence,
    '<!-- snippet: test file=r.test.ts runner=vitest,jest -->',
    `${fence}typescript`,
    "test('t', () => {})",
    fence,
    '<!-- snippet: file=vitest.config.ts -->',
    `${fence}ts`,
    'export default {}',
    fence,
    `${fence}text`,
    'not code',
    fence,
  )

  it('finds ts/js blocks only, with their kind from the marker before them (blank lines allowed)', () => {
    const blocks = extract(text, 'X.md')
    expect(blocks.map((b) => [b.kind, b.lang, b.line, b.file, b.runners])).toEqual([
      ['fragment', 'ts', 8, undefined, []],
      ['module', 'js', 11, undefined, []],
      ['test', 'ts', 15, 'r.test.ts', ['vitest', 'jest']],
      ['file', 'ts', 19, 'vitest.config.ts', ['vitest']],
    ])
    expect(blocks[0]?.code).toBe('expect(x).toHitWithin(3)\n')
  })

  it('applies the default kind to unmarked blocks (docs/api.md is generated: fragments)', () => {
    expect(extract(text, 'docs/api.md', 'fragment').map((b) => b.kind)).toEqual(['fragment', 'fragment', 'test', 'file'])
  })

  it('refuses a marker it does not understand instead of skipping the block', () => {
    const marked = (marker: string): string => md(`<!-- snippet: ${marker} -->`, `${fence}ts`, 'x', fence)
    expect(() => extract(marked('fragmnet'), 'X.md')).toThrow(/X\.md:2: unknown snippet kind "fragmnet"/)
    expect(() => extract(marked('test runner=vitest'), 'X.md')).toThrow(/needs file=NAME/)
    expect(() => extract(marked('test file=a.test.ts runner=mocha'), 'X.md')).toThrow(/unknown runner "mocha"/)
    expect(() => extract(marked('test file=a.test.ts pkg=esm'), 'X.md')).toThrow(/unknown pkg "esm"/)
    expect(() => extract(marked('fragment pkg=module'), 'X.md')).toThrow(/pkg= applies to file and test blocks only/)
  })

  it('reads pkg= (the package types a file or test block runs in); none means the runner default', () => {
    const marked = (marker: string): string => md(`<!-- snippet: ${marker} -->`, `${fence}ts`, 'x', fence)
    expect(extract(marked('test file=a.test.ts runner=vitest,jest pkg=module,commonjs'), 'X.md')[0]?.pkgs).toEqual(['module', 'commonjs'])
    expect(extract(marked('file=jest.config.cjs runner=jest pkg=commonjs'), 'X.md')[0]?.pkgs).toEqual(['commonjs'])
    expect(extract(marked('test file=a.test.ts'), 'X.md')[0]?.pkgs).toBeUndefined()
  })
})

describe('README', () => {
  const blocks = extract(readFileSync(new URL('../../README.md', import.meta.url), 'utf8'), 'README.md')

  it('runs its describeEvalSet block as a Vitest test through rag-matchers/vitest (no globals)', () => {
    const block = blocks.find((b) => b.code.includes('describeEvalSet('))
    expect(block?.kind).toBe('test')
    expect(block?.runners).toContain('vitest')
    expect(block?.code).toContain("from 'rag-matchers/vitest'")
  })

  it('has test blocks for both runners and the runner configs they use', () => {
    const tests = blocks.filter((b) => b.kind === 'test')
    expect(new Set(tests.flatMap((b) => b.runners))).toEqual(new Set(['vitest', 'jest']))
    expect(blocks.filter((b) => b.kind === 'file').map((b) => b.file)).toEqual(expect.arrayContaining(['vitest.config.mts', 'jest.config.cjs']))
  })

  it('runs the quick starts in "type": "module" and "type": "commonjs" projects alike', () => {
    const quickStart = blocks.filter((b) => ['vitest.setup.ts', 'vitest.config.mts', 'jest.config.cjs', 'jest.setup.ts', 'retrieval.test.ts'].includes(b.file ?? ''))
    expect(quickStart.map((b) => b.file).sort()).toEqual([
      'jest.config.cjs',
      'jest.setup.ts',
      'retrieval.test.ts',
      'retrieval.test.ts',
      'vitest.config.mts',
      'vitest.setup.ts',
    ])
    for (const b of quickStart) expect(b.pkgs).toEqual(['module', 'commonjs'])
  })

  it('keeps the two clone commands as its first sh block (.ci/run runs them) and the install command out of it', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const first = /^```sh\n([\s\S]*?)^```/m.exec(readme)?.[1]
    expect(first?.trim().split('\n')).toEqual(['npm install && npm run example', 'npm test'])
    expect(readme.indexOf('npm install -D rag-matchers')).toBeLessThan(readme.indexOf('```sh\n'))
  })
})
