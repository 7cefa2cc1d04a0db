/**
 * LangChain.js results → the retrieved list the retrieval matchers take. Types only: nothing from
 * `@langchain/core` is loaded at run time, so the package stays an optional peer.
 */
import type { DocumentInterface } from '@langchain/core/documents'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { readOptions } from '../options.js'
import { denseArray } from '../dense-array.js'
import { checkIdSource, readId, readScore, type AdaptedItem, type IdSource } from './item-id.js'

export interface FromLangChainOptions<M extends Record<string, unknown> = Record<string, unknown>> {
  /** The metadata key that holds the document's ground-truth id, or a function `(doc, index) => id`. */
  readonly id: IdSource<DocumentInterface<M>>
}

/** The keys of {@link FromLangChainOptions}. */
export const FROM_LANGCHAIN_OPTION_KEYS = keysOf<FromLangChainOptions>()('id')

/** What retrievers and vector stores return: `Document[]` (`invoke`, `similaritySearch`) or `[Document, score][]` (`similaritySearchWithScore`). */
export type LangChainResults<M extends Record<string, unknown> = Record<string, unknown>> =
  readonly DocumentInterface<M>[] | ReadonlyArray<readonly [DocumentInterface<M>, number]>

const FN = 'fromLangChainDocuments'

function isDocument(value: unknown): value is DocumentInterface {
  return value !== null && typeof value === 'object' && typeof (value as { pageContent?: unknown }).pageContent === 'string'
}

/**
 * LangChain documents as retrieved items `{ id, score?, text }`, in the order LangChain returned them.
 *
 * The id comes from `options.id`: a metadata key, or a function of the document and its position. The text is
 * `pageContent`. From `[Document, score][]` the score is kept as the store reports it, so
 * `{ order: 'score' }` can rank by it (highest first); stores that report a distance (lower is closer) return
 * their results nearest first already, so keep the default `order: 'given'` for them.
 *
 * @throws MetricInputError naming the position, for a result that is not a document, a missing id, or a score that is not a finite number
 * @example
 * const hits = await store.similaritySearchWithScore('How many heads?', 5)
 * expect({ retrieved: fromLangChainDocuments(hits, { id: 'docId' }), relevant: ['heads'] }).toHaveRecallAtK(5, 1)
 * fromLangChainDocuments([[new Document({ pageContent: 'h = 8', metadata: { docId: 'heads' } }), 0.91]], { id: 'docId' })
 * // [{ id: 'heads', score: 0.91, text: 'h = 8' }]
 */
export function fromLangChainDocuments<M extends Record<string, unknown> = Record<string, unknown>>(
  docs: LangChainResults<M>,
  options: FromLangChainOptions<M>,
): AdaptedItem[] {
  if (!Array.isArray(docs)) throw new MetricInputError(FN, 'docs', 'an array of Documents or of [Document, score] pairs', docs)
  if (options === null || typeof options !== 'object') throw new MetricInputError(FN, 'options', 'an object `{ id }`', options)
  const { id: source } = readOptions<FromLangChainOptions<M>>(FN, options, FROM_LANGCHAIN_OPTION_KEYS)
  checkIdSource(FN, source)
  const idSource = source as IdSource<DocumentInterface<M>>
  // A hole would be skipped by `map` and come out as a hole, shifting no rank but leaving an empty slot: refused.
  return denseArray(FN, 'docs', docs as readonly unknown[], 'a Document or a [Document, score] pair').map((entry, index) => {
    const pair = Array.isArray(entry)
    const doc: unknown = pair ? entry[0] : entry
    const where = pair ? `docs[${index}][0]` : `docs[${index}]`
    if (pair && entry.length !== 2) throw new MetricInputError(FN, `docs[${index}]`, 'a Document or a [Document, score] pair', entry)
    if (!isDocument(doc)) throw new MetricInputError(FN, where, 'a Document (an object with a string `pageContent`)', doc)
    const id = readId(FN, idSource, doc as DocumentInterface<M>, doc.metadata, where, index)
    const score = pair ? readScore(FN, entry[1], `docs[${index}][1]`) : undefined
    return score === undefined ? { id, text: doc.pageContent } : { id, score, text: doc.pageContent }
  })
}
