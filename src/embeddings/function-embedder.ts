import { MetricInputError, assertPositiveInteger } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { checkVectors } from './cache.js'
import { EmbeddingError } from './errors.js'
import type { Embedder } from './types.js'

/** What a user embedding function may return for one text. */
export type EmbeddingFunctionResult = readonly number[] | Float32Array | Float64Array

export interface FunctionEmbedderOptions {
  /**
   * Names the function's model in signatures and messages. Give a real one (`'my-api|model:e5-large'`)
   * so that recorded signatures tell embedders apart.
   * @default `function|name:<fn.name or anonymous>`
   */
  id?: string
  /** At most this many calls of `fn` run at the same time. @default 8 */
  concurrency?: number
  /**
   * Longest wait for one call of `fn`; a call that has not settled by then rejects with an
   * `EmbeddingError` (`timeout`) naming the embedder, instead of hanging until the runner's own timeout.
   * @default 60000
   */
  timeoutMs?: number
}

/** The keys of {@link FunctionEmbedderOptions}: what functionEmbedder accepts. */
export const FUNCTION_EMBEDDER_OPTION_KEYS = keysOf<FunctionEmbedderOptions>()('id', 'concurrency', 'timeoutMs')

/**
 * Wraps a plain function `(text) => vector` (sync or async) as an {@link Embedder}, e.g. to call a
 * hosted embedding API or a model you already load yourself.
 *
 * - Each text is passed to `fn` on its own, at most `concurrency` at a time; the order of the result
 *   follows the input.
 * - Every result must be a non-empty array of finite numbers (`number[]`, `Float32Array` or
 *   `Float64Array`) and all must have the same dimension; anything else rejects with an
 *   `EmbeddingError` (`bad-response`) naming the text's index. A throw inside `fn` rejects with
 *   `embed-failed`, the original error as `cause`; a call that does not settle within `timeoutMs`
 *   rejects with `timeout`, naming the embedder.
 *
 * @throws MetricInputError when `fn` is not a function or an option is malformed.
 * @example
 * const embedder = functionEmbedder(async (text) => (await myApi.embed(text)).vector, { id: 'my-api|model:e5-large' })
 * await semanticSimilarity('a cat', 'a kitten', embedder)
 */
export function functionEmbedder(fn: (text: string) => EmbeddingFunctionResult | Promise<EmbeddingFunctionResult>, options: FunctionEmbedderOptions = {}): Embedder {
  if (typeof fn !== 'function') throw new MetricInputError('functionEmbedder', 'fn', 'a function (text) => number[] | Float32Array', fn)
  checkOptionKeys('functionEmbedder', options, FUNCTION_EMBEDDER_OPTION_KEYS)
  if (options.id !== undefined && (typeof options.id !== 'string' || options.id.length === 0)) {
    throw new MetricInputError('functionEmbedder', 'options.id', 'a non-empty string', options.id)
  }
  const concurrency = options.concurrency ?? 8
  assertPositiveInteger('functionEmbedder', 'options.concurrency', concurrency)
  const timeoutMs = options.timeoutMs ?? 60_000
  assertPositiveInteger('functionEmbedder', 'options.timeoutMs', timeoutMs)
  const id = options.id ?? `function|name:${fn.name || 'anonymous'}`

  async function callOne(text: string, index: number): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new EmbeddingError(
              'timeout',
              id,
              `${id}: the embedding function did not settle within ${timeoutMs} ms for text ${index}; it may never resolve (a missing await or callback?). Raise \`timeoutMs\` if it is just slow.`,
            ),
          ),
        timeoutMs,
      )
    })
    try {
      return await Promise.race([Promise.resolve().then(() => fn(text)), timeout])
    } catch (error) {
      if (error instanceof EmbeddingError) throw error
      throw new EmbeddingError('embed-failed', id, `${id}: the embedding function threw for text ${index}: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      })
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    id,
    async embed(texts: string[]): Promise<Float32Array[]> {
      const results: unknown[] = new Array(texts.length)
      let next = 0
      // A small worker pool: enough parallelism for remote APIs without flooding them.
      const worker = async (): Promise<void> => {
        while (next < texts.length) {
          const i = next++
          results[i] = await callOne(texts[i] as string, i)
        }
      }
      await Promise.all(Array.from({ length: Math.min(concurrency, texts.length) }, worker))
      const vectors = checkVectors(id, results, texts.length)
      const dims = vectors[0]?.length
      vectors.forEach((v, i) => {
        if (v.length !== dims) {
          throw new EmbeddingError('bad-response', id, `${id}: the embedding function returned ${v.length} dimensions for text ${i} but ${dims} for text 0.`)
        }
      })
      return vectors
    },
  }
}
