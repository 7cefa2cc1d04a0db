import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import type { JudgeCache } from './cache.js'
import { JudgeError } from './errors.js'
import { createJudgeClient, tokenUsage, type BackendAnswer, type BackendCall, type JudgeBackend } from './judge-client.js'
import { importOpenAI, lazyOpenAIClient, MissingOpenAIPackageError, openAIServerLabel, resolveOpenAIEndpoint, retryAfterMs, type OpenAIImporter } from './openai-module.js'
import { boundedFetch, classifyNetworkError, MAX_REDIRECTS } from './transport.js'
import type { Judge } from './types.js'

export interface OpenAIJudgeOptions {
  /** Model name as the server knows it (`gpt-4o-mini`, or the name vLLM / llama.cpp / LM Studio serves). */
  readonly model: string
  /** The API root, ending in `/v1` for most servers. @default `OPENAI_BASE_URL`, else 'https://api.openai.com/v1' */
  readonly baseURL?: string
  /** @default `OPENAI_API_KEY`; may be left out for a server on localhost / 127.0.0.1 */
  readonly apiKey?: string
  /** @default 0 */
  readonly temperature?: number
  /** Sent as `seed`; servers that support it make replies reproducible. @default 42 */
  readonly seed?: number
  /** Per attempt, including reading the body. @default 120000 */
  readonly timeoutMs?: number
  /** Extra attempts after a malformed reply, HTTP 5xx/429 or a connection closed mid-reply. @default 2 */
  readonly retries?: number
  /** Requests in flight at once (cache hits do not count). @default 2 */
  readonly concurrency?: number
  /** Recorded replies; without one every call goes to the server. */
  readonly cache?: JudgeCache
  /** Extra HTTP headers on every request (an organisation, a gateway's routing header). */
  readonly headers?: Readonly<Record<string, string>>
  /** The fetch the client uses (tests, proxies). @default globalThis.fetch */
  readonly fetch?: typeof fetch
  /** How the optional `openai` package is loaded (tests fake a missing package). @default () => import('openai') */
  readonly importer?: OpenAIImporter
}

/** The keys of {@link OpenAIJudgeOptions}: what openaiJudge accepts. */
export const OPENAI_JUDGE_OPTION_KEYS = keysOf<OpenAIJudgeOptions>()(
  'model',
  'baseURL',
  'apiKey',
  'temperature',
  'seed',
  'timeoutMs',
  'retries',
  'concurrency',
  'cache',
  'headers',
  'fetch',
  'importer',
)

/** How structured output is asked for; a server that ignores or rejects one mode gets the next. */
export type OpenAIOutputMode = 'json_schema' | 'json_object' | 'prompt'

/**
 * A {@link Judge} over the OpenAI chat-completions protocol: OpenAI itself, or any compatible server
 * (vLLM, llama.cpp `llama-server`, LM Studio, LiteLLM, Ollama's `/v1`), through the official `openai`
 * package, an optional peer dependency imported on the first call.
 *
 * Every request is `POST {baseURL}/chat/completions` with `temperature`, `seed` and
 * `response_format: { type: 'json_schema', json_schema: { name, schema, strict: true } }`. Prompts,
 * schema validation, repair retries, the cache and replay are those of `ollamaJudge` (one shared
 * implementation). What real servers do is handled: 401/403 (`auth`), 404 (`model-not-found`), 429
 * with `Retry-After` (bounded backoff, then `rate-limited`), 5xx (retried, then `server`), a `refusal`
 * (`refusal`), `finish_reason: 'length'` (`truncated`), a reply for another model (`wrong-model`). A
 * server that rejects `json_schema` (HTTP 400) or ignores it and answers plain text is asked with
 * `json_object` next, then with the prompt alone (validation and retries still apply); the mode used is
 * recorded in the signature (`format:`) and the cache entry.
 *
 * Signatures and cache keys record the backend and the base URL's host, so replies recorded against one
 * server are never replayed for another. A missing API key is an error only when a call goes to a
 * non-local host, so replaying a committed cache needs no key.
 *
 * @example
 * const judge = openaiJudge({ model: 'gpt-4o-mini', cache: judgeCache({ dir: '__rag_judge_cache__' }) })
 * const local = openaiJudge({ model: 'Qwen/Qwen2.5-7B-Instruct', baseURL: 'http://127.0.0.1:8000/v1' }) // vLLM
 */
export function openaiJudge(options: OpenAIJudgeOptions): Judge {
  const fn = 'openaiJudge'
  if (options === null || typeof options !== 'object') throw new MetricInputError(fn, 'options', 'an object with `model`', options)
  checkOptionKeys(fn, options, OPENAI_JUDGE_OPTION_KEYS)
  const { model, temperature = 0, seed = 42, timeoutMs = 120_000, concurrency = 2, retries = 2, cache, headers = {} } = options
  if (typeof model !== 'string' || model.trim() === '') throw new MetricInputError(fn, 'model', 'a non-empty model name such as `gpt-4o-mini`', model)
  if (options.baseURL !== undefined && (typeof options.baseURL !== 'string' || !/^https?:\/\/[^\s/]+/.test(options.baseURL)))
    throw new MetricInputError(fn, 'baseURL', 'an http(s) URL such as `http://127.0.0.1:8000/v1`', options.baseURL)
  if (options.apiKey !== undefined && (typeof options.apiKey !== 'string' || options.apiKey === ''))
    throw new MetricInputError(fn, 'apiKey', 'a non-empty string', '<redacted>')
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0) throw new MetricInputError(fn, 'temperature', 'a finite number ≥ 0', temperature)
  if (!Number.isSafeInteger(seed)) throw new MetricInputError(fn, 'seed', 'an integer', seed)
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs)))
    throw new MetricInputError(fn, 'timeoutMs', 'a positive number of milliseconds', timeoutMs)
  if (!(Number.isSafeInteger(concurrency) && concurrency > 0)) throw new MetricInputError(fn, 'concurrency', 'a positive integer', concurrency)
  if (!(Number.isSafeInteger(retries) && retries >= 0)) throw new MetricInputError(fn, 'retries', 'a non-negative integer', retries)
  if (cache !== undefined && (cache === null || typeof cache.read !== 'function')) throw new MetricInputError(fn, 'cache', 'a cache from judgeCache()', cache)
  if (headers === null || typeof headers !== 'object' || Object.values(headers).some((v) => typeof v !== 'string'))
    throw new MetricInputError(fn, 'headers', 'an object of string header values', headers)
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new MetricInputError(fn, 'fetch', 'a fetch function', options.fetch)
  if (options.importer !== undefined && typeof options.importer !== 'function')
    throw new MetricInputError(fn, 'importer', 'a function returning import("openai")', options.importer)

  const endpoint = resolveOpenAIEndpoint(options.baseURL, options.apiKey)
  return createJudgeClient(
    { id: `openai:${model}@${endpoint.host}`, model, temperature, seed, timeoutMs, retries, concurrency, ...(cache === undefined ? {} : { cache }) },
    openaiBackend(model, endpoint, headers, timeoutMs, options.fetch ?? globalThis.fetch, options.importer ?? importOpenAI),
  )
}

const NEXT_MODE: Record<OpenAIOutputMode, OpenAIOutputMode | undefined> = { json_schema: 'json_object', json_object: 'prompt', prompt: undefined }

function openaiBackend(
  model: string,
  endpoint: ReturnType<typeof resolveOpenAIEndpoint>,
  headers: Readonly<Record<string, string>>,
  timeoutMs: number,
  baseFetch: typeof fetch,
  importer: OpenAIImporter,
): JudgeBackend {
  const label = openAIServerLabel(endpoint.baseURL)
  // Shared by every call of this judge (and its withCache copies): once a server has shown it ignores
  // json_schema, asking again with it only wastes an attempt.
  let mode: OpenAIOutputMode = 'json_schema'
  // The mode of the last reply served (live or recorded): what the signature reports.
  let lastMode: OpenAIOutputMode | undefined
  const getClient = lazyOpenAIClient({ importer, caller: 'openaiJudge', endpoint, timeoutMs, headers, fetch: boundedFetch(baseFetch) })

  function responseFormat(call: BackendCall, m: OpenAIOutputMode): Record<string, unknown> {
    if (m === 'prompt') return {}
    if (m === 'json_object') return { response_format: { type: 'json_object' } }
    // Names allow [a-zA-Z0-9_-]{1,64}; the template id says which question this is.
    const name = call.template.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64) || 'judge_reply'
    return { response_format: { type: 'json_schema', json_schema: { name, schema: call.schema, strict: true } } }
  }

  return {
    identity: { kind: 'openai', host: endpoint.host },
    label,
    recordHint: `${label} with a valid OPENAI_API_KEY`,
    timeoutHint: 'Raise `timeoutMs`, use a smaller model, or check the server is not overloaded.',
    async prepare() {
      if (endpoint.apiKey === undefined && !endpoint.local) {
        throw new JudgeError(
          'config',
          `openaiJudge: no API key for ${label} (model ${model}): set OPENAI_API_KEY or pass \`apiKey\`. ` + 'Only a server on localhost / 127.0.0.1 may go without one.',
          { host: endpoint.host },
        )
      }
      try {
        await getClient()
      } catch (error) {
        if (error instanceof MissingOpenAIPackageError) throw new JudgeError('missing-package', error.message, { package: 'openai' })
        throw error
      }
    },
    async send(call) {
      const openai = await getClient()
      for (;;) {
        const used = mode
        const body = {
          model,
          messages: call.messages.map((m) => ({ role: m.role, content: m.content })),
          temperature: call.options['temperature'],
          seed: call.options['seed'],
          ...responseFormat(call, used),
        }
        let completion: unknown
        try {
          completion = await openai.chat.completions.create(body, { signal: call.signal })
        } catch (error) {
          // A 400 that names the response format: the server does not support this mode; try the next.
          const status = (error as { status?: unknown })?.status
          const text = (error as Error)?.message ?? ''
          const next = NEXT_MODE[used]
          if (status === 400 && next !== undefined && /response_format|json_schema|json_object|schema|grammar|not supported/i.test(text)) {
            if (mode === used) mode = next
            continue
          }
          throw error
        }
        return readCompletion(completion, used)
      }
    },
    onUnparsable(used) {
      // Plain text where JSON was asked for: the server ignored the mode. json_object is the next try;
      // after that, validation and the repair retries are all that is left.
      if (used === 'json_schema' && mode === 'json_schema') mode = 'json_object'
    },
    onCacheHit(entry) {
      const recorded = entry.reply.mode
      if (recorded === 'json_schema' || recorded === 'json_object' || recorded === 'prompt') lastMode = recorded
    },
    signatureExtras: () => [
      ['backend', 'openai'],
      ['host', endpoint.host],
      ['format', lastMode ?? mode],
    ],
    classify(error) {
      return classify(error)
    },
  }

  function readCompletion(completion: unknown, used: OpenAIOutputMode): BackendAnswer {
    if (completion === null || typeof completion !== 'object') {
      throw new JudgeError(
        'invalid-reply',
        `${label} answered /chat/completions with ${typeof completion === 'string' ? `text, not JSON: ${JSON.stringify(completion.slice(0, 120))}` : 'no body'} (model ${model}).`,
        {
          host: endpoint.host,
          retryable: true,
        },
      )
    }
    const c = completion as {
      model?: unknown
      choices?: Array<{ finish_reason?: unknown; message?: { content?: unknown; refusal?: unknown } }>
      usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null
    }
    const choice = Array.isArray(c.choices) ? c.choices[0] : undefined
    if (choice === undefined) throw new JudgeError('invalid-reply', `${label} answered without any choice (model ${model}).`, { host: endpoint.host, retryable: true })
    const answered = typeof c.model === 'string' ? { model: c.model } : {}
    const refusal = choice.message?.refusal
    if (typeof refusal === 'string' && refusal.trim() !== '') {
      throw new JudgeError(
        'refusal',
        `${label} (model ${model}) refused to judge: ${JSON.stringify(refusal.slice(0, 300))}. The judge cannot score this input; check it is not flagged by the provider's policy, or use another model.`,
        { host: endpoint.host, refusal },
      )
    }
    if (choice.finish_reason === 'length') {
      throw new JudgeError(
        'truncated',
        `${label} (model ${model}) cut the reply off (finish_reason: length), so its JSON is incomplete. ` +
          "Raise the server's output or context limit (vLLM --max-model-len, llama.cpp -c / -n, LM Studio context length), or shorten the input.",
        { host: endpoint.host, raw: typeof choice.message?.content === 'string' ? choice.message.content.slice(0, 2000) : undefined },
      )
    }
    const content = choice.message?.content
    if (typeof content !== 'string') {
      throw new JudgeError('invalid-reply', `${label} answered without message.content (model ${model}, finish_reason ${JSON.stringify(choice.finish_reason)}).`, {
        host: endpoint.host,
        retryable: true,
      })
    }
    lastMode = used
    const usage = tokenUsage(c.usage?.prompt_tokens, c.usage?.completion_tokens)
    return { content, ...answered, mode: used, ...(usage === undefined ? {} : { usage }) }
  }

  function classify(error: unknown): JudgeError {
    const e = error as { name?: string; message?: string; status?: unknown; headers?: unknown }
    const cause = e?.message ?? String(error)
    const status = typeof e?.status === 'number' ? e.status : undefined
    if (status !== undefined) {
      const info = { host: endpoint.host, status }
      if (status === 401 || status === 403) {
        return new JudgeError(
          'auth',
          `${label} rejected the request with HTTP ${status} (model ${model}): ${cause}. ` +
            `${endpoint.apiKey === undefined ? 'No API key was sent: set OPENAI_API_KEY or pass `apiKey`.' : 'Check OPENAI_API_KEY / `apiKey` is a valid key for this server.'}`,
          info,
        )
      }
      if (status === 404) {
        return new JudgeError(
          'model-not-found',
          `${label} answered 404 for model ${model}: ${cause}. Check the model name (GET ${endpoint.baseURL}/models lists what the server serves) and that \`baseURL\` ends in the API root (usually /v1).`,
          info,
        )
      }
      if (status === 429) {
        const wait = retryAfterMs(e.headers)
        return new JudgeError(
          'rate-limited',
          `${label} rate-limited the judge with HTTP 429 (model ${model}): ${cause}. Lower \`concurrency\`, raise \`retries\`, or check the account's quota.`,
          { ...info, retryable: true, ...(wait === undefined ? {} : { retryAfterMs: wait }) },
        )
      }
      if (status >= 500) {
        const wait = retryAfterMs(e.headers)
        return new JudgeError('server', `${label} failed with HTTP ${status} (model ${model}): ${cause}. Check the server log, or retry later.`, {
          ...info,
          retryable: true,
          ...(wait === undefined ? {} : { retryAfterMs: wait }),
        })
      }
      return new JudgeError('http', `${label} answered HTTP ${status} (model ${model}): ${cause}.`, info)
    }
    if (e?.name === 'APIConnectionTimeoutError') {
      return new JudgeError('timeout', `${label} did not answer within ${timeoutMs} ms (model ${model}).`, { host: endpoint.host, timeoutMs })
    }
    const fault = classifyNetworkError(error)
    if (fault?.kind === 'timeout') return new JudgeError('timeout', `${label} did not answer within ${timeoutMs} ms (model ${model}).`, { host: endpoint.host, timeoutMs })
    if (fault?.kind === 'closed') {
      return new JudgeError(
        'connection-closed',
        `${label} closed the connection before the reply was complete (model ${model}${fault.code === undefined ? '' : `, ${fault.code}`}). The server was reached; check its log: it may have crashed or restarted.`,
        { host: endpoint.host, code: fault.code, retryable: true },
      )
    }
    if (fault?.kind === 'redirects') {
      return new JudgeError('redirects', `${label} redirected more than ${MAX_REDIRECTS} times (model ${model}): ${fault.detail}. Fix \`baseURL\` (or OPENAI_BASE_URL).`, {
        host: endpoint.host,
      })
    }
    if (error instanceof SyntaxError) {
      return new JudgeError('invalid-reply', `${label} sent a response body that is not JSON (${error.message}; model ${model}).`, { host: endpoint.host, retryable: true })
    }
    if (fault?.kind === 'connect' || e?.name === 'APIConnectionError') {
      const code = fault?.kind === 'connect' ? fault.code : undefined
      return new JudgeError(
        'unreachable',
        `Cannot reach ${label}${code === undefined ? '' : ` (${code})`}: cannot connect (model ${model}). Start the server, or fix \`baseURL\` (or OPENAI_BASE_URL).`,
        { host: endpoint.host, code },
      )
    }
    return new JudgeError('http', `The request to ${label} failed (model ${model}): ${cause}.`, { host: endpoint.host })
  }
}
