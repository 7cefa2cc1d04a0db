import { MetricInputError, assertPositiveInteger } from '../errors.js'
import { sameModel } from '../judge/cache.js'
import {
  importOpenAI,
  lazyOpenAIClient,
  MissingOpenAIPackageError,
  openAIServerLabel,
  resolveOpenAIEndpoint,
  type OpenAIClientLike,
  type OpenAIImporter,
} from '../judge/openai-module.js'
import { boundedFetch, classifyNetworkError, MAX_REDIRECTS, withTimeout } from '../judge/transport.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { buildSignature } from '../signature.js'
import { checkVectors } from './cache.js'
import { EmbeddingError, describeCause } from './errors.js'
import type { Embedder } from './types.js'

export interface OpenAIEmbedderOptions {
  /** Embedding model as the server names it (`text-embedding-3-small`, or what vLLM / llama.cpp / LM Studio serves). */
  model: string
  /** The API root. @default `OPENAI_BASE_URL`, else 'https://api.openai.com/v1' */
  baseURL?: string
  /** @default `OPENAI_API_KEY`; may be left out for a server on localhost / 127.0.0.1 */
  apiKey?: string
  /** Ask for shorter vectors (text-embedding-3 models); recorded in the id. */
  dimensions?: number
  /** Texts per `/embeddings` request. @default 64 */
  batchSize?: number
  /** Per request, including reading the answer. @default 60000 */
  timeoutMs?: number
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>
  /** The fetch the client uses (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch
  /** How the optional `openai` package is loaded (tests fake a missing package). @default () => import('openai') */
  importer?: OpenAIImporter
}

/** The keys of {@link OpenAIEmbedderOptions}: what openaiEmbedder accepts. */
export const OPENAI_EMBEDDER_OPTION_KEYS = keysOf<OpenAIEmbedderOptions>()(
  'model',
  'baseURL',
  'apiKey',
  'dimensions',
  'batchSize',
  'timeoutMs',
  'headers',
  'fetch',
  'importer',
)

/**
 * Embeddings over the OpenAI protocol (`POST {baseURL}/embeddings`): OpenAI itself or any compatible
 * server, through the official `openai` package (an optional peer dependency, imported on first use).
 *
 * - Texts go `batchSize` at a time as `{ model, input: [...], encoding_format: 'float'[, dimensions] }`;
 *   vectors are placed by their `index` (the protocol does not promise order), one per text, checked
 *   finite and of equal dimension.
 * - A reply for another model is an error (`bad-response`), as for the judge.
 * - Failures are `EmbeddingError`s naming the server and the model: `unreachable` (cannot connect, too
 *   many redirects, connection closed mid-reply), `model-not-found` (404), `auth` (no key for a remote
 *   host, 401/403), `timeout`, `server-error` (429, 5xx, other statuses), `missing-package`.
 * - `id`: `openai|model:<model>|host:<host>` (+ `|dims:<n>`): the same model name on two servers can be
 *   two different models, so the host is part of it.
 *
 * @example
 * const embedder = openaiEmbedder({ model: 'text-embedding-3-small' }) // OPENAI_API_KEY from the environment
 * const local = openaiEmbedder({ model: 'nomic-embed-text', baseURL: 'http://127.0.0.1:8080/v1' }) // llama.cpp
 */
export function openaiEmbedder(options: OpenAIEmbedderOptions): Embedder {
  const fn = 'openaiEmbedder'
  if (typeof options !== 'object' || options === null) throw new MetricInputError(fn, 'options', 'an options object with `model`', options)
  checkOptionKeys(fn, options, OPENAI_EMBEDDER_OPTION_KEYS)
  const { model, headers = {} } = options
  if (typeof model !== 'string' || model.trim() === '') throw new MetricInputError(fn, 'model', 'an embedding model name such as "text-embedding-3-small"', model)
  if (options.baseURL !== undefined && (typeof options.baseURL !== 'string' || !/^https?:\/\/[^\s/]+/.test(options.baseURL)))
    throw new MetricInputError(fn, 'baseURL', 'an http(s) URL such as "http://127.0.0.1:8080/v1"', options.baseURL)
  if (options.apiKey !== undefined && (typeof options.apiKey !== 'string' || options.apiKey === ''))
    throw new MetricInputError(fn, 'apiKey', 'a non-empty string', '<redacted>')
  const batchSize = options.batchSize ?? 64
  assertPositiveInteger(fn, 'batchSize', batchSize)
  const timeoutMs = options.timeoutMs ?? 60_000
  assertPositiveInteger(fn, 'timeoutMs', timeoutMs)
  if (options.dimensions !== undefined) assertPositiveInteger(fn, 'dimensions', options.dimensions)
  if (headers === null || typeof headers !== 'object' || Object.values(headers).some((v) => typeof v !== 'string'))
    throw new MetricInputError(fn, 'headers', 'an object of string header values', headers)
  const baseFetch = options.fetch ?? globalThis.fetch
  if (typeof baseFetch !== 'function') throw new MetricInputError(fn, 'fetch', 'a fetch function', baseFetch)
  const importer = options.importer ?? importOpenAI
  if (typeof importer !== 'function') throw new MetricInputError(fn, 'importer', 'a function returning import("openai")', importer)

  const endpoint = resolveOpenAIEndpoint(options.baseURL, options.apiKey)
  const label = openAIServerLabel(endpoint.baseURL)
  const id = buildSignature('openai', [
    ['model', model],
    ['host', endpoint.host],
    ['dims', options.dimensions],
  ]).replace(/\|version:[^|]*$/, '')
  const getClient = lazyOpenAIClient({ importer, caller: fn, endpoint, timeoutMs, headers, fetch: boundedFetch(baseFetch) })

  async function embedBatch(batch: string[]): Promise<Float32Array[]> {
    if (endpoint.apiKey === undefined && !endpoint.local) {
      throw new EmbeddingError(
        'auth',
        id,
        `${fn}: no API key for ${label} (model "${model}"): set OPENAI_API_KEY or pass \`apiKey\`. Only a server on localhost / 127.0.0.1 may go without one.`,
      )
    }
    let openai: OpenAIClientLike
    try {
      openai = await getClient()
    } catch (error) {
      if (error instanceof MissingOpenAIPackageError) throw new EmbeddingError('missing-package', id, error.message, { cause: error })
      throw error
    }
    let response: unknown
    try {
      response = await withTimeout(timeoutMs, `${label} (model ${model})`, (signal) =>
        openai.embeddings.create(
          { model, input: batch, encoding_format: 'float', ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }) },
          { signal },
        ),
      )
    } catch (error) {
      throw classify(error)
    }
    const r = response as { model?: unknown; data?: unknown } | null
    if (typeof r?.model === 'string' && r.model !== '' && !sameModel(model, r.model)) {
      throw new EmbeddingError('bad-response', id, `${fn}: ${label} answered for model "${r.model}", but the embedder asked for "${model}"; the vectors are not used.`)
    }
    if (!Array.isArray(r?.data)) throw new EmbeddingError('bad-response', id, `${fn}: ${label} answered /embeddings without a data list (model "${model}").`)
    // Place each vector by its index; a missing or repeated index leaves a hole checkVectors reports.
    const rows: unknown[] = new Array(batch.length)
    for (const item of r.data as Array<{ index?: unknown; embedding?: unknown }>) {
      const at = item?.index
      if (!Number.isInteger(at) || (at as number) < 0 || (at as number) >= batch.length || rows[at as number] !== undefined) {
        throw new EmbeddingError(
          'bad-response',
          id,
          `${fn}: ${label} returned an embedding with index ${JSON.stringify(at)} for a batch of ${batch.length} (model "${model}").`,
        )
      }
      rows[at as number] = item.embedding
    }
    return checkVectors(
      id,
      Array.from(rows, (row) => row ?? null),
      batch.length,
    )
  }

  function classify(error: unknown): EmbeddingError {
    const e = error as { name?: unknown; message?: unknown; status?: unknown }
    const message = typeof e?.message === 'string' ? e.message : String(error)
    const status = typeof e?.status === 'number' ? e.status : undefined
    if (status === 404) {
      return new EmbeddingError(
        'model-not-found',
        id,
        `${fn}: ${label} answered 404 for model "${model}": ${message}. Check the model name (GET ${endpoint.baseURL}/models) and that \`baseURL\` ends in the API root (usually /v1).`,
        {
          cause: error,
        },
      )
    }
    if (status === 401 || status === 403) {
      return new EmbeddingError('auth', id, `${fn}: ${label} rejected the request with HTTP ${status} (model "${model}"): ${message}. Check OPENAI_API_KEY / \`apiKey\`.`, {
        cause: error,
      })
    }
    if (status !== undefined) {
      return new EmbeddingError(
        'server-error',
        id,
        `${fn}: ${label} answered HTTP ${status} for model "${model}": ${message}${status === 429 ? '. Lower `batchSize` or check the quota.' : ''}`,
        { cause: error },
      )
    }
    const fault = classifyNetworkError(error)
    if (e?.name === 'TimeoutError' || e?.name === 'APIConnectionTimeoutError' || fault?.kind === 'timeout') {
      return new EmbeddingError(
        'timeout',
        id,
        `${fn}: ${label} did not answer within timeoutMs (${timeoutMs} ms) for model "${model}". Raise \`timeoutMs\` or lower \`batchSize\`.`,
        { cause: error },
      )
    }
    if (fault?.kind === 'closed') {
      return new EmbeddingError(
        'unreachable',
        id,
        `${fn}: ${label} closed the connection before the reply was complete (model "${model}"); the server was reached, check its log.`,
        { cause: error },
      )
    }
    if (fault?.kind === 'redirects') {
      return new EmbeddingError('unreachable', id, `${fn}: ${label} redirected more than ${MAX_REDIRECTS} times (model "${model}"); fix \`baseURL\`.`, { cause: error })
    }
    if (error instanceof SyntaxError) return new EmbeddingError('bad-response', id, `${fn}: ${label} sent a body that is not JSON (${message}).`, { cause: error })
    return new EmbeddingError('unreachable', id, `${fn}: cannot reach ${label} (${describeCause(error)}): cannot connect. Start the server, or fix \`baseURL\`.`, {
      cause: error,
    })
  }

  return {
    id,
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (!Array.isArray(texts)) throw new MetricInputError('openaiEmbedder.embed', 'texts', 'an array of strings', texts)
      texts.forEach((t, i) => {
        if (typeof t !== 'string') throw new MetricInputError('openaiEmbedder.embed', `texts[${i}]`, 'a string', t)
      })
      const out: Float32Array[] = []
      for (let start = 0; start < texts.length; start += batchSize) out.push(...(await embedBatch(texts.slice(start, start + batchSize))))
      return out
    },
  }
}
