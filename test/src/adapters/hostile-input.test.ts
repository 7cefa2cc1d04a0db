// Issue #27: the adapters used to keep a hole of their input (`map` skips it) and read options of any
// object; a hole and an options object that is not a plain object are MetricInputErrors now.
import { fromLangChainDocuments, fromLlamaIndexNodes, MetricInputError } from '../../../src/adapters/public.js'

const doc = (docId: string) => ({ pageContent: `text of ${docId}`, metadata: { docId } })
const node = (docId: string) => ({ node: { text: `text of ${docId}`, metadata: { docId } }, score: 0.5 })

function withHole<T>(first: T, last: T): T[] {
  const out: T[] = new Array(3)
  out[0] = first
  out[2] = last
  return out
}

describe('adapters refuse holes', () => {
  it('fromLangChainDocuments names the empty slot', () => {
    expect(() => fromLangChainDocuments(withHole(doc('a'), doc('b')), { id: 'docId' })).toThrow(
      'fromLangChainDocuments: Expected `docs[1]` to be a Document or a [Document, score] pair, got a hole (an empty slot in a sparse array)',
    )
  })
  it('fromLlamaIndexNodes names the empty slot', () => {
    expect(() => fromLlamaIndexNodes(withHole(node('a'), node('b')) as never, { id: 'docId' })).toThrow(
      'fromLlamaIndexNodes: Expected `nodes[1]` to be a NodeWithScore `{ node, score }`, got a hole (an empty slot in a sparse array)',
    )
  })
  it('an output without holes stays as it was', () => {
    expect(fromLangChainDocuments([doc('a'), doc('b')], { id: 'docId' }).map((d) => d.id)).toEqual(['a', 'b'])
  })
})

describe('adapters take plain options objects only', () => {
  class IdOptions {
    id = 'docId'
  }
  const hostile: Array<[string, unknown]> = [
    ['a Map', new Map([['id', 'docId']])],
    ['a class instance', new IdOptions()],
    ['an inherited id', Object.create({ id: 'docId' }) as object],
    ['a symbol key', { id: 'docId', [Symbol('x')]: 1 }],
    ['a non-enumerable id', Object.defineProperty({}, 'id', { value: 'docId', enumerable: false })],
  ]
  it.each(hostile)('refuses %s', (_what, options) => {
    expect(() => fromLangChainDocuments([doc('a')], options as never)).toThrow(MetricInputError)
    expect(() => fromLlamaIndexNodes([node('a')] as never, options as never)).toThrow(MetricInputError)
    expect(() => fromLlamaIndexNodes([node('a')] as never, options as never)).toThrow('fromLlamaIndexNodes: Expected `options` to be')
  })
})
