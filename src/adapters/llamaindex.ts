/**
 * LlamaIndex.TS results → the retrieved list the retrieval matchers take. Types only: nothing from
 * `llamaindex` is loaded at run time, so the package stays an optional peer.
 */
import type { BaseNode, Metadata, NodeWithScore } from 'llamaindex'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { readOptions } from '../options.js'
import { denseArray } from '../dense-array.js'
import { checkIdSource, readId, readScore, type AdaptedItem, type IdSource } from './item-id.js'

export interface FromLlamaIndexOptions<M extends Metadata = Metadata> {
  /** The metadata key that holds the node's ground-truth id, or a function `(nodeWithScore, index) => id`. */
  readonly id: IdSource<NodeWithScore<M>>
}

/** The keys of {@link FromLlamaIndexOptions}. */
export const FROM_LLAMAINDEX_OPTION_KEYS = keysOf<FromLlamaIndexOptions>()('id')

const FN = 'fromLlamaIndexNodes'

function isNode(value: unknown): value is BaseNode {
  return value !== null && typeof value === 'object' && typeof (value as { metadata?: unknown }).metadata === 'object'
}

/**
 * LlamaIndex `NodeWithScore[]` (what `retriever.retrieve()` and a query response's `sourceNodes` hold) as
 * retrieved items `{ id, score?, text? }`, in the order LlamaIndex returned them.
 *
 * The id comes from `options.id`: a key of the node's metadata (document metadata is copied onto its nodes), or a
 * function of the `{ node, score }` entry and its position. The score is kept when LlamaIndex gave one, so
 * `{ order: 'score' }` can rank by it (highest first); the text is the node's `text` when it has one.
 *
 * @throws MetricInputError naming the position, for an entry without a node, a missing id, or a score that is given but not a finite number
 * @example
 * const hits = await index.asRetriever({ similarityTopK: 5 }).retrieve({ query: 'How many heads?' })
 * expect({ retrieved: fromLlamaIndexNodes(hits, { id: 'docId' }), relevant: ['heads'] }).toHaveRecallAtK(5, 1)
 * fromLlamaIndexNodes([{ node: new TextNode({ text: 'h = 8', metadata: { docId: 'heads' } }), score: 0.91 }], { id: 'docId' })
 * // [{ id: 'heads', score: 0.91, text: 'h = 8' }]
 */
export function fromLlamaIndexNodes<M extends Metadata = Metadata>(nodes: readonly NodeWithScore<M>[], options: FromLlamaIndexOptions<M>): AdaptedItem[] {
  if (!Array.isArray(nodes)) throw new MetricInputError(FN, 'nodes', 'an array of `{ node, score }` (NodeWithScore)', nodes)
  if (options === null || typeof options !== 'object') throw new MetricInputError(FN, 'options', 'an object `{ id }`', options)
  const { id: source } = readOptions<FromLlamaIndexOptions<M>>(FN, options, FROM_LLAMAINDEX_OPTION_KEYS)
  checkIdSource(FN, source)
  const idSource = source as IdSource<NodeWithScore<M>>
  // A hole would be skipped by `map` and come out as a hole in the retrieved list: refused, naming it.
  return denseArray(FN, 'nodes', nodes as readonly unknown[], 'a NodeWithScore `{ node, score }`').map((entry, index) => {
    if (entry === null || typeof entry !== 'object' || !isNode((entry as { node?: unknown }).node)) {
      throw new MetricInputError(FN, `nodes[${index}]`, 'a NodeWithScore `{ node, score }` whose node has `metadata`', entry)
    }
    const withScore = entry as NodeWithScore<M>
    const id = readId(FN, idSource, withScore, withScore.node.metadata, `nodes[${index}].node`, index)
    const score = readScore(FN, withScore.score, `nodes[${index}].score`)
    const text = (withScore.node as { text?: unknown }).text
    return { id, ...(score === undefined ? {} : { score }), ...(typeof text === 'string' ? { text } : {}) }
  })
}
