import { defaultOllamaHost } from '../ollama-host.js'
import { sameModel } from '../judge/cache.js'
import { boundedFetch, classifyNetworkError, MAX_REDIRECTS } from '../judge/transport.js'
import { MetricInputError, assertPositiveInteger } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { buildSignature } from '../signature.js'
import { checkVectors } from './cache.js'
import { EmbeddingError, describeCause } from './errors.js'
import type { Embedder } from './types.js'

export interface OllamaEmbedderOptions {
  /** An embedding model pulled into Ollama. @default 'nomic-embed-text' */
  model?: string
  /** Server address. @default `OLLAMA_HOST` when set (as Ollama reads it), else 'http://127.0.0.1:11434' */
  host?: string
  /** Texts per `/api/embed` request. @default 32 */
  batchSize?: number
  /** Per-request timeout, including reading the answer. @default 60000 */
  timeoutMs?: number
  /** The `fetch` to use (a proxy-aware one, a recorder in tests). @default globalThis.fetch */
  fetch?: typeof fetch
  /** Ask the model for fewer dimensions (Matryoshka models only); recorded in the id. */
  dimensions?: number
  /** How long Ollama keeps the model loaded after the request (`'5m'`, seconds, `-1`). */
  keepAlive?: string | number
}

/** The keys of {@link OllamaEmbedderOptions}: what ollamaEmbedder accepts. */
export const OLLAMA_EMBEDDER_OPTION_KEYS = keysOf<OllamaEmbedderOptions>()('model', 'host', 'batchSize', 'timeoutMs', 'fetch', 'dimensions', 'keepAlive')

/**
 * Embeddings from a local Ollama server through the `ollama` client's `/api/embed`.
 *
 * - Inputs are sent `batchSize` at a time as `{ model, input: [...] }`; one vector comes back per text.
 * - Every request runs with `AbortSignal.timeout(timeoutMs)` (through the `fetch` handed to the client).
 * - Failures are `EmbeddingError`s that say what to do: `unreachable` (names the host, suggests
 *   `ollama serve`), `model-not-found` on 404 (suggests `ollama pull <model>`), `timeout`, `server-error`
 *   for other statuses, `bad-response` when the answer does not hold one vector per text.
 * - `id`: `ollama|model:<model>` (+ `|dims:<n>` when `dimensions` is set). The host is not part of it:
 *   it does not change the numbers.
 *
 * @throws MetricInputError for malformed options.
 * @example
 * const embedder = ollamaEmbedder({ model: 'nomic-embed-text' }) // after `ollama pull nomic-embed-text`
 * await semanticSimilarity('a cat', 'a kitten', embedder)
 */
export function ollamaEmbedder(options: OllamaEmbedderOptions = {}): Embedder {
  const fn = 'ollamaEmbedder'
  if (typeof options !== 'object' || options === null) throw new MetricInputError(fn, 'options', 'an options object', options)
  checkOptionKeys(fn, options, OLLAMA_EMBEDDER_OPTION_KEYS)
  const model = options.model ?? 'nomic-embed-text'
  if (typeof model !== 'string' || model.trim() === '') throw new MetricInputError(fn, 'model', 'an Ollama model name such as "nomic-embed-text"', model)
  const host = options.host ?? defaultOllamaHost()
  if (typeof host !== 'string' || host === '') throw new MetricInputError(fn, 'host', 'a URL such as "http://127.0.0.1:11434"', host)
  const batchSize = options.batchSize ?? 32
  assertPositiveInteger(fn, 'batchSize', batchSize)
  const timeoutMs = options.timeoutMs ?? 60_000
  assertPositiveInteger(fn, 'timeoutMs', timeoutMs)
  if (options.dimensions !== undefined) assertPositiveInteger(fn, 'dimensions', options.dimensions)
  const baseFetch = options.fetch ?? globalThis.fetch
  if (typeof baseFetch !== 'function') throw new MetricInputError(fn, 'fetch', 'a fetch function', baseFetch)

  const id = buildSignature('ollama', [
    ['model', model],
    ['dims', options.dimensions],
  ]).replace(/\|version:[^|]*$/, '')

  // At most a handful of redirects (undici follows 20, then says only "fetch failed").
  const redirecting = boundedFetch(baseFetch)
  const timedFetch: typeof fetch = (input, init) => {
    const timeout = AbortSignal.timeout(timeoutMs)
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout
    return redirecting(input, { ...init, signal })
  }

  type Client = { embed(request: Record<string, unknown>): Promise<{ embeddings?: unknown; model?: unknown }> }
  let client: Promise<Client> | undefined
  const getClient = (): Promise<Client> => {
    // Imported lazily so that loading rag-matchers does not load the client for users who never embed.
    client ??= import('ollama').then(({ Ollama }) => new Ollama({ host, fetch: timedFetch }) as unknown as Client)
    return client
  }

  async function embedBatch(batch: string[]): Promise<Float32Array[]> {
    const ollama = await getClient()
    let response: { embeddings?: unknown; model?: unknown }
    try {
      response = await ollama.embed({
        model,
        input: batch,
        ...(options.dimensions !== undefined ? { dimensions: options.dimensions } : {}),
        ...(options.keepAlive !== undefined ? { keep_alive: options.keepAlive } : {}),
      })
    } catch (error) {
      throw classify(error)
    }
    const answered = response?.model
    if (typeof answered === 'string' && answered !== '' && !sameModel(model, answered)) {
      throw new EmbeddingError(
        'bad-response',
        id,
        `ollamaEmbedder: Ollama at ${host} answered for model "${answered}", but the embedder asked for "${model}"; the vectors are not used.`,
      )
    }
    return checkVectors(id, response?.embeddings, batch.length)
  }

  function classify(error: unknown): EmbeddingError {
    const status = (error as { status_code?: unknown } | null)?.status_code
    const message = error instanceof Error ? error.message : String(error)
    if (typeof status === 'number') {
      if (status === 404) {
        return new EmbeddingError(
          'model-not-found',
          id,
          `ollamaEmbedder: Ollama at ${host} does not have model "${model}" (404: ${message}). Run \`ollama pull ${model}\`, or pass the name of a pulled embedding model (\`ollama list\`).`,
          { cause: error },
        )
      }
      return new EmbeddingError(
        'server-error',
        id,
        `ollamaEmbedder: Ollama at ${host} answered ${status} for model "${model}": ${message}${status >= 500 ? '. Check the server log (`ollama serve` output); a model that is not an embedding model also fails here.' : ''}`,
        { cause: error },
      )
    }
    const name = (error as { name?: unknown } | null)?.name
    if (name === 'TimeoutError' || (name === 'AbortError' && /timeout|timed out/i.test(message))) {
      return new EmbeddingError(
        'timeout',
        id,
        `ollamaEmbedder: Ollama at ${host} did not answer within timeoutMs (${timeoutMs} ms) for model "${model}". The first request loads the model; raise \`timeoutMs\` or lower \`batchSize\`.`,
        { cause: error },
      )
    }
    if (error instanceof SyntaxError) {
      return new EmbeddingError('bad-response', id, `ollamaEmbedder: Ollama at ${host} sent a body that is not JSON (${message}).`, { cause: error })
    }
    const fault = classifyNetworkError(error)
    if (fault?.kind === 'closed') {
      return new EmbeddingError(
        'unreachable',
        id,
        `ollamaEmbedder: Ollama at ${host} closed the connection before the reply was complete (model "${model}"); the server was reached, check its log (\`ollama serve\` output).`,
        { cause: error },
      )
    }
    if (fault?.kind === 'redirects') {
      return new EmbeddingError(
        'unreachable',
        id,
        `ollamaEmbedder: Ollama at ${host} redirected more than ${MAX_REDIRECTS} times (model "${model}"); pass the server's own \`host\`.`,
        { cause: error },
      )
    }
    return new EmbeddingError(
      'unreachable',
      id,
      `ollamaEmbedder: cannot reach Ollama at ${host} (${describeCause(error)}). Start it with \`ollama serve\`, or pass the right \`host\`.`,
      { cause: error },
    )
  }

  return {
    id,
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (!Array.isArray(texts)) throw new MetricInputError('ollamaEmbedder.embed', 'texts', 'an array of strings', texts)
      texts.forEach((t, i) => {
        if (typeof t !== 'string') throw new MetricInputError('ollamaEmbedder.embed', `texts[${i}]`, 'a string', t)
      })
      const out: Float32Array[] = []
      for (let start = 0; start < texts.length; start += batchSize) {
        out.push(...(await embedBatch(texts.slice(start, start + batchSize))))
      }
      return out
    },
  }
}
