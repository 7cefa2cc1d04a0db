import { defaultOllamaHost } from '../ollama-host.js'
import { Ollama } from 'ollama'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import type { JudgeCache } from './cache.js'
import { JudgeError } from './errors.js'
import { createJudgeClient, tokenUsage, type JudgeBackend } from './judge-client.js'
import { boundedFetch, classifyNetworkError, MAX_REDIRECTS } from './transport.js'
import type { Judge } from './types.js'

export { DEFAULT_OLLAMA_HOST } from '../ollama-host.js'

export interface OllamaJudgeOptions {
  /** Model tag as `ollama list` prints it, e.g. `llama3.1:8b`. */
  readonly model: string
  /** @default `OLLAMA_HOST` when set (as Ollama reads it), else 'http://127.0.0.1:11434' */
  readonly host?: string
  /** @default 0 */
  readonly temperature?: number
  /** @default 42 */
  readonly seed?: number
  /** `options.num_ctx`; unset = the server's default. */
  readonly numCtx?: number
  /** Per request, including reading the body. @default 120000 (a cold model can take a minute to load) */
  readonly timeoutMs?: number
  /** Requests in flight at once (cache hits do not count). @default 2 */
  readonly concurrency?: number
  /** Extra attempts after a malformed reply or an HTTP 5xx. @default 2 */
  readonly retries?: number
  /** Recorded replies; without one every call goes to the model. */
  readonly cache?: JudgeCache
  /** The fetch the `ollama` client uses (tests, proxies). @default globalThis.fetch */
  readonly fetch?: typeof fetch
}

/** The keys of {@link OllamaJudgeOptions}: what ollamaJudge accepts. */
export const OLLAMA_JUDGE_OPTION_KEYS = keysOf<OllamaJudgeOptions>()('model', 'host', 'temperature', 'seed', 'numCtx', 'timeoutMs', 'concurrency', 'retries', 'cache', 'fetch')

/**
 * A {@link Judge} backed by a local Ollama server through the `ollama` npm client.
 *
 * Every request is `POST /api/chat` with `stream: false`, `format` = the request's JSON schema (structured
 * outputs) and `options: { temperature, seed[, num_ctx] }`. The reply's `message.content` must parse as
 * JSON, validate against the schema and pass the request's `check`; otherwise the judge asks again,
 * showing the model its invalid reply and the problems (at most `retries` times), then fails with
 * `invalid-reply`. HTTP 5xx is retried the same way; 404, connection errors and timeouts fail at once.
 *
 * Determinism: temperature 0 and a fixed seed by default, and the cache key is the sha256 of the canonical
 * JSON of `{ backend, model, options, format, messages, template }` (see `judgeCacheKey`), so the same
 * question is asked once and replayed after. Identical concurrent questions share one request. The host
 * is not part of the key. A reply that says it came from another model is refused (`wrong-model`).
 *
 * Failures are `JudgeError`s that say what to do: cannot connect (name the host, `ollama serve`), the
 * connection closed mid-reply (retried), too many redirects (at most 5 are followed), 404
 * (`ollama pull <model>`), timeout, 5xx, schema violations after the retries, replay misses.
 *
 * @example
 * const judge = ollamaJudge({ model: 'llama3.1:8b', cache: judgeCache({ dir: '__rag_judge_cache__' }) })
 * const score = await groundedness('Paris is the capital of France.', ['Paris is France’s capital.'], judge)
 * score.value // 1 (one claim, supported)
 */
export function ollamaJudge(options: OllamaJudgeOptions): Judge {
  const fn = 'ollamaJudge'
  if (options === null || typeof options !== 'object') throw new MetricInputError(fn, 'options', 'an object with `model`', options)
  checkOptionKeys(fn, options, OLLAMA_JUDGE_OPTION_KEYS)
  const { model, host = defaultOllamaHost(), temperature = 0, seed = 42, numCtx, timeoutMs = 120_000, concurrency = 2, retries = 2, cache } = options
  if (typeof model !== 'string' || model.trim() === '') throw new MetricInputError(fn, 'model', 'a non-empty model tag such as `llama3.1:8b`', model)
  if (typeof host !== 'string' || !/^https?:\/\/[^\s/]+/.test(host)) throw new MetricInputError(fn, 'host', 'an http(s) URL such as `http://127.0.0.1:11434`', host)
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0) throw new MetricInputError(fn, 'temperature', 'a finite number ≥ 0', temperature)
  if (!Number.isSafeInteger(seed)) throw new MetricInputError(fn, 'seed', 'an integer', seed)
  if (numCtx !== undefined && !(Number.isSafeInteger(numCtx) && numCtx > 0)) throw new MetricInputError(fn, 'numCtx', 'a positive integer', numCtx)
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs)))
    throw new MetricInputError(fn, 'timeoutMs', 'a positive number of milliseconds', timeoutMs)
  if (!(Number.isSafeInteger(concurrency) && concurrency > 0)) throw new MetricInputError(fn, 'concurrency', 'a positive integer', concurrency)
  if (!(Number.isSafeInteger(retries) && retries >= 0)) throw new MetricInputError(fn, 'retries', 'a non-negative integer', retries)
  if (cache !== undefined && (cache === null || typeof cache.read !== 'function')) throw new MetricInputError(fn, 'cache', 'a cache from judgeCache()', cache)
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new MetricInputError(fn, 'fetch', 'a fetch function', options.fetch)

  return createJudgeClient(
    {
      id: `ollama:${model}`,
      model,
      temperature,
      seed,
      ...(numCtx === undefined ? {} : { numCtx }),
      timeoutMs,
      retries,
      concurrency,
      ...(cache === undefined ? {} : { cache }),
    },
    ollamaBackend(model, host, options.fetch ?? globalThis.fetch),
  )
}

/** `/api/chat` through the `ollama` client, with bounded redirects and the judge's abort signal. */
function ollamaBackend(model: string, host: string, baseFetch: typeof fetch): JudgeBackend {
  const hostLabel = host.replace(/\/+$/, '')
  const label = `Ollama at ${hostLabel}`
  const fetchWithRedirects = boundedFetch(baseFetch)
  return {
    identity: { kind: 'ollama' },
    label,
    recordHint: '`ollama serve`',
    timeoutHint: 'A cold model can take a while to load: raise `timeoutMs`, use a smaller model, or check the server is not busy.',
    async send({ messages, schema, options, signal }) {
      // A fresh client per call: the client cannot abort a non-streamed request itself, so each call gets a
      // fetch bound to its own abort signal (the judge's timeout race also covers a fetch that ignores it).
      const client = new Ollama({
        host,
        fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => fetchWithRedirects(input, { ...init, signal })) as typeof fetch,
      })
      const response = await client.chat({ model, messages: [...messages], format: schema as object, options, stream: false })
      const r = response as {
        model?: unknown
        message?: { content?: unknown }
        prompt_eval_count?: unknown
        eval_count?: unknown
        done?: unknown
        done_reason?: unknown
      } | null
      const content = r?.message?.content
      // A reply cut off (num_predict or the context window reached, or a stream that never finished) is not
      // a judgement, even when the part that arrived happens to parse: refused like OpenAI's finish_reason 'length'.
      if (r?.done === false || r?.done_reason === 'length') {
        const why = r?.done_reason === 'length' ? "done_reason: 'length'" : 'done: false'
        throw new JudgeError(
          'truncated',
          `${label} (model ${model}) cut the reply off (${why}), so it is not a complete judgement. ` +
            'Raise the context window (`numCtx`) or the output limit (num_predict in the Modelfile), or shorten the input.',
          { host: hostLabel, raw: typeof content === 'string' ? content.slice(0, 2000) : undefined },
        )
      }
      if (typeof content !== 'string') {
        throw new JudgeError('invalid-reply', `${label} answered /api/chat without message.content (model ${model}).`, { host: hostLabel, retryable: true })
      }
      const usage = tokenUsage(r?.prompt_eval_count, r?.eval_count)
      return { content, ...(typeof r?.model === 'string' ? { model: r.model } : {}), ...(usage === undefined ? {} : { usage }) }
    },
    classify(error) {
      const e = error as { name?: string; message?: string; status_code?: number }
      if (e?.name === 'ResponseError' && typeof e.status_code === 'number') {
        const status = e.status_code
        const serverMessage = e.message ?? ''
        if (status === 404) {
          return new JudgeError('model-not-found', `${label} answered 404 for model ${model}: ${serverMessage}. Run \`ollama pull ${model}\` (or fix the model tag).`, {
            host: hostLabel,
            status,
          })
        }
        if (status >= 500) {
          return new JudgeError(
            'server',
            `${label} failed with HTTP ${status} (model ${model}): ${serverMessage}. Check the server log (\`ollama serve\` output); the model may be out of memory.`,
            { host: hostLabel, status, retryable: true },
          )
        }
        return new JudgeError('http', `${label} answered HTTP ${status} (model ${model}): ${serverMessage}.`, { host: hostLabel, status })
      }
      const fault = classifyNetworkError(error)
      const cause = e?.message ?? String(error)
      if (fault?.kind === 'closed') {
        return new JudgeError(
          'connection-closed',
          `${label} closed the connection before the reply was complete (model ${model}${fault.code === undefined ? '' : `, ${fault.code}`}): ${cause}. ` +
            'The server was reached; check its log (`ollama serve` output): it may have crashed or run out of memory.',
          { host: hostLabel, code: fault.code, retryable: true },
        )
      }
      if (fault?.kind === 'redirects') {
        return new JudgeError(
          'redirects',
          `${label} redirected more than ${MAX_REDIRECTS} times (model ${model}): ${fault.detail}. Point the judge at the server itself (\`host\`, or OLLAMA_HOST), not at a proxy that loops.`,
          { host: hostLabel },
        )
      }
      if (error instanceof SyntaxError) {
        return new JudgeError('invalid-reply', `${label} sent a response body that is not JSON (${error.message}; model ${model}).`, { host: hostLabel, retryable: true })
      }
      const code = fault?.kind === 'connect' ? fault.code : undefined
      if (fault?.kind === 'connect' || /fetch failed/i.test(cause)) {
        return new JudgeError(
          'unreachable',
          `Cannot reach Ollama at ${hostLabel}${code === undefined ? '' : ` (${code})`}: cannot connect: ${cause}. ` +
            'Start it with `ollama serve`, or point the judge at the right host (`host`, or OLLAMA_HOST).',
          { host: hostLabel, code },
        )
      }
      return new JudgeError('http', `The request to ${label} failed (model ${model}): ${cause}.`, { host: hostLabel })
    },
  }
}
