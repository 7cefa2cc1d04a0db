// The package's public runtime surface, entry by entry. A change here is a semver decision: adding a
// name is a minor release, removing or renaming one is a major. Update the snapshot deliberately
// (`npx vitest run test/public-surface.test.ts -u`) and review the diff. Type-only exports are not
// visible at runtime; the rule for those is in the comment at the top of src/index.ts.

const entries: ReadonlyArray<readonly [entry: string, load: () => Promise<Record<string, unknown>>]> = [
  ['rag-matchers', () => import('../src/index.js')],
  ['rag-matchers/retrieval', () => import('../src/retrieval/public.js')],
  ['rag-matchers/generation', () => import('../src/generation/public.js')],
  ['rag-matchers/judge', () => import('../src/judge/public.js')],
  ['rag-matchers/agreement', () => import('../src/agreement/public.js')],
  ['rag-matchers/eval-set', () => import('../src/eval-set/public.js')],
  ['rag-matchers/report', () => import('../src/report/public.js')],
  ['rag-matchers/adapters', () => import('../src/adapters/public.js')],
  ['rag-matchers/testset', () => import('../src/testset/public.js')],
  ['rag-matchers/matchers', () => import('../runners/matchers.js')],
]

const internals = ['erf', 'logGamma', 'mulberry32', 'pySplit', 'pyRstrip', 'pyStrip', 'pyIsSpace', 'codePoints', 'pyLower', 'makeScore', 'quantileSorted']

describe('public surface', () => {
  it.each(entries)('%s runtime export names', async (_entry, load) => {
    expect(Object.keys(await load()).sort()).toMatchSnapshot()
  })

  it('the root entry stays small', async () => {
    expect(Object.keys(await import('../src/index.js')).length).toBeLessThanOrEqual(150)
  })

  it('the root entry exports no internals', async () => {
    const names = Object.keys(await import('../src/index.js'))
    expect(names.filter((name) => internals.includes(name))).toEqual([])
  })

  it('no family entry exports the internals either', async () => {
    for (const [entry, load] of entries) {
      const names = Object.keys(await load())
      expect({ entry, leaked: names.filter((name) => internals.includes(name)) }).toEqual({ entry, leaked: [] })
    }
  })
})
