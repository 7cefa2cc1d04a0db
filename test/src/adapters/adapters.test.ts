// The adapters' contract without the frameworks: plain objects shaped like LangChain Documents and LlamaIndex
// NodeWithScore entries, the refused inputs (each a MetricInputError naming the position), and the built output
// loading neither framework at run time.
import { buildSync } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { fromLangChainDocuments, fromLlamaIndexNodes, MetricInputError } from '../../../src/adapters/public.js'

const doc = (docId: unknown, pageContent = `text of ${String(docId)}`) => ({ pageContent, metadata: { docId } })
const node = (docId: unknown, score?: unknown, text = `text of ${String(docId)}`) => ({ node: { text, metadata: { docId } }, score })

function inputError(fn: () => unknown): MetricInputError {
  try {
    fn()
  } catch (error) {
    if (error instanceof MetricInputError) return error
    throw error
  }
  throw new Error('expected a MetricInputError, but nothing was thrown')
}

describe('fromLangChainDocuments', () => {
  it('maps Document[] to { id, text } in order, without a score', () => {
    expect(fromLangChainDocuments([doc('a'), doc(7)], { id: 'docId' })).toEqual([
      { id: 'a', text: 'text of a' },
      { id: 7, text: 'text of 7' },
    ])
  })
  it('keeps the score of [Document, score] pairs', () => {
    expect(fromLangChainDocuments([[doc('a'), 0.25] as const, [doc('b'), -1] as const], { id: 'docId' })).toEqual([
      { id: 'a', score: 0.25, text: 'text of a' },
      { id: 'b', score: -1, text: 'text of b' },
    ])
  })
  it('takes the id from a function of the document and its position', () => {
    const items = fromLangChainDocuments([[doc('a'), 1] as const], { id: (d, i) => `${String(d.metadata.docId)}-${i}` })
    expect(items).toEqual([{ id: 'a-0', score: 1, text: 'text of a' }])
  })
  it('gives an empty list for no results', () => {
    expect(fromLangChainDocuments([], { id: 'docId' })).toEqual([])
  })

  it.each([
    ['a missing metadata key', [doc('a'), { pageContent: 'x', metadata: {} }], 'docs[1].metadata["docId"]'],
    ['a null id', [doc(null)], 'docs[0].metadata["docId"]'],
    ['an empty-string id', [doc('')], 'docs[0].metadata["docId"]'],
    ['a non-finite numeric id', [doc(Number.NaN)], 'docs[0].metadata["docId"]'],
    ['an object id', [doc({ id: 1 })], 'docs[0].metadata["docId"]'],
    [
      'a missing id inside a pair',
      [
        [doc('a'), 1],
        [doc(undefined), 0.5],
      ],
      'docs[1][0].metadata["docId"]',
    ],
    ['a pair with a NaN score', [[doc('a'), Number.NaN]], 'docs[0][1]'],
    ['a pair with a string score', [[doc('a'), '0.9']], 'docs[0][1]'],
    ['a pair of three', [[doc('a'), 1, 2]], 'docs[0]'],
    ['something that is not a Document', [doc('a'), 'b'], 'docs[1]'],
    ['a Document without pageContent', [{ metadata: { docId: 'a' } }], 'docs[0]'],
  ])('refuses %s, naming the position', (_what, docs, argument) => {
    const e = inputError(() => fromLangChainDocuments(docs as never, { id: 'docId' }))
    expect(e.fn).toBe('fromLangChainDocuments')
    expect(e.argument).toBe(argument)
  })
  it('refuses a function id that returns no id', () => {
    const e = inputError(() => fromLangChainDocuments([doc('a'), doc('b')], { id: (_d, i) => (i === 1 ? undefined : 'x') as never }))
    expect(e.argument).toBe('options.id(docs[1])')
    expect(e.message).toContain('to return an id (a non-empty string or a finite number)')
  })
  it('says which metadata key it read', () => {
    expect(inputError(() => fromLangChainDocuments([doc(undefined)], { id: 'docId' })).message).toBe(
      'fromLangChainDocuments: Expected `docs[0].metadata["docId"]` to be an id (a non-empty string or a finite number); options.id names this metadata key, got `undefined`',
    )
  })
  it.each([
    ['no options', undefined, 'options'],
    ['no id', {}, 'options.id'],
    ['an empty key', { id: '' }, 'options.id'],
    ['a numeric key', { id: 3 }, 'options.id'],
  ])('refuses %s', (_what, options, argument) => {
    expect(inputError(() => fromLangChainDocuments([doc('a')], options as never)).argument).toBe(argument)
  })
  it('refuses an unknown option key, suggesting the near one', () => {
    expect(inputError(() => fromLangChainDocuments([doc('a')], { id: 'docId', idd: 'x' } as never)).message).toMatch(/idd/)
  })
  it('refuses docs that are not an array', () => {
    expect(inputError(() => fromLangChainDocuments({ length: 0 } as never, { id: 'docId' })).argument).toBe('docs')
  })
})

describe('fromLlamaIndexNodes', () => {
  it('maps NodeWithScore[] to { id, score, text } in order', () => {
    expect(fromLlamaIndexNodes([node('a', 0.9), node('b', 0.1)] as never, { id: 'docId' })).toEqual([
      { id: 'a', score: 0.9, text: 'text of a' },
      { id: 'b', score: 0.1, text: 'text of b' },
    ])
  })
  it('leaves out a score LlamaIndex did not give, and a text the node does not have', () => {
    expect(fromLlamaIndexNodes([{ node: { metadata: { docId: 'a' } } }] as never, { id: 'docId' })).toEqual([{ id: 'a' }])
  })
  it('takes the id from a function of the entry and its position', () => {
    const items = fromLlamaIndexNodes([{ node: { id_: 'n-1', metadata: {} }, score: 1 }] as never, { id: (h) => (h.node as { id_: string }).id_ })
    expect(items).toEqual([{ id: 'n-1', score: 1 }])
  })
  it.each([
    ['a missing metadata key', [node('a', 1), { node: { metadata: {} }, score: 1 }], 'nodes[1].node.metadata["docId"]'],
    ['a null id', [node(null, 1)], 'nodes[0].node.metadata["docId"]'],
    ['a NaN score', [node('a', Number.NaN)], 'nodes[0].score'],
    ['a null score', [node('a', null)], 'nodes[0].score'],
    ['an entry without a node', [{ score: 1 }], 'nodes[0]'],
    ['a bare node instead of { node, score }', [{ metadata: { docId: 'a' } }], 'nodes[0]'],
  ])('refuses %s, naming the position', (_what, nodes, argument) => {
    const e = inputError(() => fromLlamaIndexNodes(nodes as never, { id: 'docId' }))
    expect(e.fn).toBe('fromLlamaIndexNodes')
    expect(e.argument).toBe(argument)
  })
  it('refuses missing options and nodes that are not an array', () => {
    expect(inputError(() => fromLlamaIndexNodes([node('a', 1)] as never, undefined as never)).argument).toBe('options')
    expect(inputError(() => fromLlamaIndexNodes('nodes' as never, { id: 'docId' })).argument).toBe('nodes')
  })
})

describe('the adapters as built', () => {
  // Bundled the way tsup bundles the package (esbuild, packages external): a value import of either framework
  // would survive as an import or require of it; type-only imports are erased.
  const entry = fileURLToPath(new URL('../../../src/adapters/public.ts', import.meta.url))
  it.each(['esm', 'cjs'] as const)('load neither @langchain/core nor llamaindex at run time (%s)', (format) => {
    const out = buildSync({ entryPoints: [entry], bundle: true, packages: 'external', format, platform: 'node', write: false, logLevel: 'silent' })
    const code = out.outputFiles[0]?.text ?? ''
    expect(code).toContain('fromLangChainDocuments')
    expect(code).toContain('fromLlamaIndexNodes')
    expect(code).not.toMatch(/@langchain|llamaindex['"]|from\s+['"]llamaindex|require\(['"]llamaindex/)
  })
})
