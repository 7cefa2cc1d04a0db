import { MetricInputError, assertPositiveInteger } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { EmbeddingError } from './errors.js'
import type { Embedder } from './types.js'

/** Counters of an {@link EmbeddingCache}, for tests and benchmarks. */
export interface EmbeddingCacheStats {
  readonly hits: number
  readonly misses: number
  readonly evictions: number
}

/** Options of the {@link EmbeddingCache} constructor. */
export interface EmbeddingCacheOptions {
  /** Most vectors kept across all embedders. @default 10000 */
  maxEntries?: number
  /** Receives warnings (an entry that no longer matches its request). Defaults to `process.emitWarning` with type `RagEmbeddingCacheWarning`. */
  onWarning?: (message: string) => void
}

/** The keys of {@link EmbeddingCacheOptions}: what `new EmbeddingCache(options)` accepts. */
export const EMBEDDING_CACHE_OPTION_KEYS = keysOf<EmbeddingCacheOptions>()('maxEntries', 'onWarning')

/** One cached vector with the request it answers, so a read can check it still does. */
interface CachedVector {
  readonly embedderId: string
  readonly text: string
  readonly vector: Float32Array
}

/**
 * A bounded, in-memory LRU cache of embedding vectors, passed explicitly to the functions that embed.
 *
 * Why an explicit object and not a module-level map: the core keeps no module-level state (the ESM and
 * CJS copies of the package could otherwise hold two diverging caches), and the owner decides its
 * lifetime — the matcher layer keeps one for the whole test run, a script can keep one per job.
 *
 * Vectors are partitioned by embedder OBJECT, not by `embedder.id`: two function embedders can share a
 * default id while computing different vectors, and object identity can never confuse them. Create an
 * embedder once and reuse it (which also loads its model once). Cached vectors are shared: do not mutate them.
 *
 * Concurrent requests for the same text share one in-flight embedding, so `Promise.all` over many
 * comparisons still embeds each distinct text once.
 *
 * Integrity, as for the judge cache: every entry keeps the request it answers (embedder id and text)
 * and a read checks them again: an entry whose embedder now has another id, or whose vector was changed
 * to hold a non-finite value, is reported, dropped and embedded again, never served.
 *
 * @example
 * const cache = new EmbeddingCache({ maxEntries: 5000 })
 * await semanticSimilarity('a cat', 'a dog', embedder, { cache })
 * cache.stats // { hits: 0, misses: 2, evictions: 0 }
 */
export class EmbeddingCache {
  /** Most vectors kept across all embedders; the least recently used is dropped first. @default 10000 */
  readonly maxEntries: number
  // Map iteration order is insertion order: re-inserting on a hit keeps the oldest entry first.
  readonly #entries = new Map<string, CachedVector>()
  readonly #inflight = new Map<string, Promise<Float32Array>>()
  readonly #tokens = new WeakMap<Embedder, number>()
  #nextToken = 0
  #hits = 0
  #misses = 0
  #evictions = 0
  readonly #warn: (message: string) => void

  constructor(options: EmbeddingCacheOptions = {}) {
    checkOptionKeys('EmbeddingCache', options, EMBEDDING_CACHE_OPTION_KEYS)
    const maxEntries = options.maxEntries ?? 10_000
    assertPositiveInteger('EmbeddingCache', 'maxEntries', maxEntries)
    if (options.onWarning !== undefined && typeof options.onWarning !== 'function')
      throw new MetricInputError('EmbeddingCache', 'onWarning', 'a function (message) => void', options.onWarning)
    this.maxEntries = maxEntries
    this.#warn = options.onWarning ?? ((message) => process.emitWarning(message, 'RagEmbeddingCacheWarning'))
  }

  get size(): number {
    return this.#entries.size
  }

  get stats(): EmbeddingCacheStats {
    return { hits: this.#hits, misses: this.#misses, evictions: this.#evictions }
  }

  /** The cached vector of `text` for this embedder, or `undefined`; a hit makes it most recently used. */
  get(embedder: Embedder, text: string): Float32Array | undefined {
    const key = this.#key(embedder, text)
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    this.#entries.delete(key)
    const problem = entryProblem(entry, embedder, text)
    if (problem !== undefined) {
      this.#warn(`rag-matchers embedding cache: ignoring the cached vector of ${JSON.stringify(text.slice(0, 60))} for ${embedder.id}: ${problem}; it will be embedded again.`)
      return undefined
    }
    this.#entries.set(key, entry)
    return entry.vector
  }

  set(embedder: Embedder, text: string, vector: Float32Array): void {
    const key = this.#key(embedder, text)
    this.#entries.delete(key)
    this.#entries.set(key, { embedderId: embedder.id, text, vector })
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string
      this.#entries.delete(oldest)
      this.#evictions += 1
    }
  }

  clear(): void {
    this.#entries.clear()
    this.#hits = 0
    this.#misses = 0
    this.#evictions = 0
  }

  #key(embedder: Embedder, text: string): string {
    let token = this.#tokens.get(embedder)
    if (token === undefined) {
      token = this.#nextToken++
      this.#tokens.set(embedder, token)
    }
    return `${token}\u0000${text}`
  }

  /** @internal used by {@link embedTexts} */
  lookup(embedder: Embedder, text: string): Float32Array | Promise<Float32Array> | undefined {
    const hit = this.get(embedder, text)
    if (hit !== undefined) {
      this.#hits += 1
      return hit
    }
    const pending = this.#inflight.get(this.#key(embedder, text))
    if (pending !== undefined) {
      // Another call is embedding this text right now; waiting for it counts as a hit.
      this.#hits += 1
      return pending
    }
    this.#misses += 1
    return undefined
  }

  /** @internal used by {@link embedTexts} */
  track(embedder: Embedder, text: string, pending: Promise<Float32Array>): void {
    const key = this.#key(embedder, text)
    this.#inflight.set(key, pending)
    const done = (): void => {
      if (this.#inflight.get(key) === pending) this.#inflight.delete(key)
    }
    pending.then(done, done)
  }
}

export interface EmbedTextsOptions {
  /** Reuse vectors across calls; without one, only duplicates within this call are shared. */
  cache?: EmbeddingCache
  /** Texts per `embedder.embed` call. @default 64 */
  batchSize?: number
}

/** The keys of {@link EmbedTextsOptions}: what embedTexts (and semanticSimilarity, semanticSimilarities, meanSemanticSimilarity) accept. */
export const EMBED_TEXTS_OPTION_KEYS = keysOf<EmbedTextsOptions>()('cache', 'batchSize')

/** What makes a cached vector unfit to serve for (embedder, text), if anything. */
function entryProblem(entry: CachedVector, embedder: Embedder, text: string): string | undefined {
  if (entry.embedderId !== embedder.id) return `it was embedded by ${entry.embedderId}, and the embedder's id is now ${embedder.id}`
  if (entry.text !== text) return 'it belongs to another text'
  for (let i = 0; i < entry.vector.length; i++) {
    if (!Number.isFinite(entry.vector[i])) return `it now holds a non-finite value (${entry.vector[i]}) at position ${i} (was a cached vector mutated?)`
  }
  return undefined
}

/** Checks an object really is an {@link Embedder} before anything calls it. */
export function assertEmbedder(fn: string, argument: string, value: unknown): asserts value is Embedder {
  const ok = typeof value === 'object' && value !== null && typeof (value as Embedder).id === 'string' && typeof (value as Embedder).embed === 'function'
  if (!ok) throw new MetricInputError(fn, argument, 'an embedder `{ id: string, embed(texts) }` (transformersEmbedder(), ollamaEmbedder(), functionEmbedder())', value)
}

/**
 * Embeds `texts` with `embedder` and returns one vector per text, in order.
 *
 * Each distinct text is embedded once (duplicates share a vector), cached vectors are reused, the rest is
 * sent in batches of `batchSize`. Every vector the embedder returns is checked: one per text, finite
 * numbers, the same dimension for all texts of the call; anything else is an `EmbeddingError`
 * (`bad-response`) naming the embedder, never a silently wrong score.
 *
 * @example
 * const [a, b] = await embedTexts(embedder, ['a cat', 'a cat']) // embedded once; a === b
 */
export async function embedTexts(embedder: Embedder, texts: readonly string[], options: EmbedTextsOptions = {}): Promise<Float32Array[]> {
  assertEmbedder('embedTexts', 'embedder', embedder)
  if (!Array.isArray(texts)) throw new MetricInputError('embedTexts', 'texts', 'an array of strings', texts)
  texts.forEach((text, i) => {
    if (typeof text !== 'string') throw new MetricInputError('embedTexts', `texts[${i}]`, 'a string', text)
  })
  checkOptionKeys('embedTexts', options, EMBED_TEXTS_OPTION_KEYS)
  const batchSize = options.batchSize ?? 64
  assertPositiveInteger('embedTexts', 'batchSize', batchSize)
  const cache = options.cache
  if (cache !== undefined && !(cache instanceof EmbeddingCache)) {
    throw new MetricInputError('embedTexts', 'cache', 'an EmbeddingCache', cache)
  }

  const found = new Map<string, Float32Array | Promise<Float32Array>>()
  const missing: string[] = []
  for (const text of texts) {
    if (found.has(text)) continue
    const hit = cache?.lookup(embedder, text)
    if (hit !== undefined) {
      found.set(text, hit)
    } else {
      found.set(text, undefined as never) // placeholder keeps first-seen order and de-duplicates
      missing.push(text)
    }
  }

  // Register every missing text as in flight before the first await, so concurrent callers wait for us.
  const batches: string[][] = []
  for (let i = 0; i < missing.length; i += batchSize) batches.push(missing.slice(i, i + batchSize))
  let chain: Promise<unknown> = Promise.resolve()
  for (const batch of batches) {
    // Batches run one after another: local models are CPU bound and Ollama queues requests anyway.
    const result = chain.then(() => embedBatch(embedder, batch))
    chain = result
    batch.forEach((text, i) => {
      const vector = result.then((vectors) => vectors[i] as Float32Array)
      found.set(text, vector)
      if (cache !== undefined) {
        cache.track(embedder, text, vector)
        vector.then(
          (v) => cache.set(embedder, text, v),
          () => undefined,
        )
      }
    })
  }
  // Avoid unhandled rejections on batches nobody awaits after an earlier one failed.
  for (const value of found.values()) if (value instanceof Promise) value.catch(() => undefined)

  // eslint-disable-next-line @typescript-eslint/await-thenable
  const vectors = await Promise.all(texts.map((text) => found.get(text) as Float32Array | Promise<Float32Array>))
  const dims = vectors[0]?.length
  vectors.forEach((vector, i) => {
    if (vector.length !== dims) {
      throw new EmbeddingError(
        'bad-response',
        embedder.id,
        `${embedder.id}: returned vectors of different dimensions (${dims} for text 0, ${vector.length} for text ${i}); an embedder must give every text the same dimension.`,
      )
    }
  })
  return vectors
}

async function embedBatch(embedder: Embedder, batch: string[]): Promise<Float32Array[]> {
  let raw: unknown
  try {
    raw = await embedder.embed(batch)
  } catch (error) {
    if (error instanceof EmbeddingError || error instanceof MetricInputError) throw error
    throw new EmbeddingError('embed-failed', embedder.id, `${embedder.id}: embed() threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
  }
  return checkVectors(embedder.id, raw, batch.length)
}

/**
 * Turns what an embedder returned into `Float32Array`s, refusing anything that is not one finite,
 * non-empty vector per text. Accepts `number[]` rows too (JS users' embedders), and typed arrays from
 * another realm (Jest's VM context), which `instanceof Float32Array` would reject.
 */
export function checkVectors(embedderId: string, raw: unknown, expected: number): Float32Array[] {
  if (!Array.isArray(raw) || raw.length !== expected) {
    const got = Array.isArray(raw) ? `${raw.length} vectors` : `a ${raw === null ? 'null' : typeof raw}`
    throw new EmbeddingError('bad-response', embedderId, `${embedderId}: expected ${expected} vector(s), one per text, got ${got}.`)
  }
  return raw.map((row: unknown, i) => {
    const isVector = (Array.isArray(row) || ArrayBuffer.isView(row)) && !(row instanceof DataView)
    if (!isVector || (row as ArrayLike<unknown>).length === 0) {
      throw new EmbeddingError('bad-response', embedderId, `${embedderId}: vector ${i} is not a non-empty array of numbers.`)
    }
    const source = row as ArrayLike<unknown>
    for (let j = 0; j < source.length; j++) {
      if (typeof (row as ArrayLike<unknown>)[j] !== 'number') {
        throw new EmbeddingError('bad-response', embedderId, `${embedderId}: vector ${i} holds a ${typeof source[j]} at position ${j}.`)
      }
    }
    // Always a copy: it moves typed arrays from another realm into ours and protects cached vectors.
    const vector = new Float32Array(source as ArrayLike<number>)
    for (let j = 0; j < vector.length; j++) {
      if (!Number.isFinite(vector[j])) {
        throw new EmbeddingError('bad-response', embedderId, `${embedderId}: vector ${i} holds a non-finite value (${vector[j]}) at position ${j}.`)
      }
    }
    return vector
  })
}
