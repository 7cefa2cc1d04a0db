import { defaultOllamaHost } from '../ollama-host.js'
import { Ollama } from 'ollama'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import type { JudgeCache, JudgeCacheEntry } from './cache.js'
import { JUDGE_CACHE_FORMAT } from './cache.js'
import { JudgeError } from './errors.js'
import { canonicalJson, sha256Hex } from './hash.js'
import { validateJson } from './schema.js'
import type { JsonSchema, Judge, JudgeReply, JudgeRequest } from './types.js'

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

interface ChatMessage {
  role: string
  content: string
}

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
 * JSON of `{ model, options, format, messages }`, so the same question is asked once and replayed after.
 * Identical concurrent questions share one request. The host is not part of the key.
 *
 * Failures are `JudgeError`s that say what to do: unreachable (name the host, `ollama serve`), 404
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

  return createJudge(options, semaphore(concurrency), cache)
}

/** The judge proper; `withCache` re-enters here so derived judges share the concurrency limit. */
function createJudge(options: OllamaJudgeOptions, limit: <T>(task: () => Promise<T>) => Promise<T>, cache: JudgeCache | undefined): Judge {
  const { model, host = defaultOllamaHost(), temperature = 0, seed = 42, numCtx, timeoutMs = 120_000, retries = 2 } = options
  const baseFetch = options.fetch ?? globalThis.fetch
  const hostLabel = host.replace(/\/+$/, '')
  const inflight = new Map<string, Promise<JudgeReply<unknown>>>()

  const judge: Judge = {
    id: `ollama:${model}`,
    model,
    temperature,
    seed,
    ...(numCtx === undefined ? {} : { numCtx }),
    ...(cache === undefined ? {} : { cache }),
    withCache(next: JudgeCache): Judge {
      if (next === null || typeof next !== 'object' || typeof next.read !== 'function') throw new MetricInputError('withCache', 'cache', 'a cache from judgeCache()', next)
      return createJudge(options, limit, next)
    },
    ask<T>(request: JudgeRequest): Promise<JudgeReply<T>> {
      const requestSeed = request.seed ?? seed
      if (!Number.isSafeInteger(requestSeed)) return Promise.reject(new MetricInputError('Judge.ask', 'seed', 'an integer', request.seed))
      const callOptions: Record<string, number> = { temperature, seed: requestSeed }
      if (numCtx !== undefined) callOptions['num_ctx'] = numCtx
      const messages: ChatMessage[] = [
        { role: 'system', content: request.system },
        { role: 'user', content: request.prompt },
      ]
      const key = sha256Hex(canonicalJson({ model, options: callOptions, format: request.schema, messages }))
      let pending = inflight.get(key)
      if (pending === undefined) {
        pending = run(request, key, callOptions, messages, requestSeed).finally(() => inflight.delete(key))
        inflight.set(key, pending)
      }
      return pending as Promise<JudgeReply<T>>
    },
  }
  return judge

  async function run(request: JudgeRequest, key: string, callOptions: Record<string, number>, messages: ChatMessage[], requestSeed: number): Promise<JudgeReply<unknown>> {
    const mode = cache?.mode ?? 'off'
    let corrupt: string | undefined
    if (cache !== undefined && mode !== 'off') {
      const read = await cache.read(key, (entry) => replyProblems(request, entry.reply.value))
      if (read.status === 'hit') {
        return { value: read.entry.reply.value, raw: read.entry.reply.content, key, cached: true, seed: requestSeed, attempts: 0 }
      }
      if (read.status === 'corrupt') corrupt = read.problem
      if (mode === 'replay') {
        throw new JudgeError(
          'cache-miss',
          `Judge cache (mode replay) has no ${corrupt === undefined ? '' : 'valid '}entry for this request: ` +
            `${cache.fileFor(key)} ${corrupt === undefined ? 'does not exist' : `is corrupt (${corrupt})`} ` +
            `[key ${key}, template ${request.template}, model ${model}, seed ${requestSeed}]. ` +
            'To record it: run the tests once with the model available (`ollama serve`) and cache mode `readwrite`, then commit the cache folder.',
          { key, file: cache.fileFor(key), template: request.template },
        )
      }
    }

    const { content, value, attempts } = await limit(() => askModel(request, callOptions, messages))
    if (cache !== undefined && mode === 'readwrite') {
      const entry: JudgeCacheEntry = {
        format: JUDGE_CACHE_FORMAT,
        key,
        template: request.template,
        model,
        options: callOptions,
        schema: request.schema,
        messages,
        reply: { content, value, attempts },
      }
      await cache.write(entry)
    }
    return { value, raw: content, key, cached: false, seed: requestSeed, attempts }
  }

  async function askModel(
    request: JudgeRequest,
    callOptions: Record<string, number>,
    messages: ChatMessage[],
  ): Promise<{ content: string; value: unknown; attempts: number }> {
    const conversation = [...messages]
    let lastProblems: readonly string[] = []
    let lastContent = ''
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      let content: string
      try {
        content = await chat(conversation, request.schema, callOptions)
      } catch (error) {
        const mapped = mapError(error)
        const retryable = mapped.kind === 'server' || (mapped.kind === 'invalid-reply' && mapped.info['transport'] === true)
        if (retryable && attempt <= retries) {
          await sleep(200 * attempt)
          continue
        }
        throw mapped
      }
      lastContent = content
      let value: unknown
      let problems: readonly string[]
      try {
        value = JSON.parse(content)
        problems = replyProblems(request, value)
      } catch (error) {
        problems = [`not valid JSON (${(error as Error).message})`]
      }
      if (problems.length === 0) return { content, value, attempts: attempt }
      lastProblems = problems
      // Deterministic repair: the model sees its own reply and what was wrong with it, so a retry at
      // temperature 0 is a different question rather than the same one asked again.
      conversation.push(
        { role: 'assistant', content },
        {
          role: 'user',
          content:
            `Your reply did not match the required JSON schema: ${problems.slice(0, 5).join('; ')}. ` +
            'Reply again with only the JSON object, following the schema and the instructions above.',
        },
      )
    }
    throw new JudgeError(
      'invalid-reply',
      `Judge model ${model} at ${hostLabel} gave no valid reply for ${request.template} after ${retries + 1} attempt(s): ` +
        `${lastProblems.slice(0, 5).join('; ')}. Last reply began: ${JSON.stringify(lastContent.slice(0, 200))}. ` +
        'Try a larger or instruction-tuned model, or raise `retries`.',
      { template: request.template, problems: lastProblems, raw: lastContent.slice(0, 2000) },
    )
  }

  async function chat(messages: ChatMessage[], format: JsonSchema, callOptions: Record<string, number>): Promise<string> {
    const controller = new AbortController()
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`timed out after ${timeoutMs} ms`)
        error.name = 'TimeoutError'
        controller.abort(error)
        reject(error)
      }, timeoutMs)
    })
    // A fresh client per call: the client cannot abort a non-streamed request itself, so each call gets a
    // fetch bound to its own abort signal (the race below also covers a fetch that ignores signals).
    const client = new Ollama({
      host,
      fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => baseFetch(input, { ...init, signal: controller.signal })) as typeof fetch,
    })
    try {
      const response = await Promise.race([client.chat({ model, messages, format: format as object, options: callOptions, stream: false }), timeout])
      const content = (response as { message?: { content?: unknown } } | null)?.message?.content
      if (typeof content !== 'string') {
        throw new JudgeError('invalid-reply', `Ollama at ${hostLabel} answered /api/chat without message.content.`, { transport: true })
      }
      return content
    } finally {
      clearTimeout(timer)
    }
  }

  function mapError(error: unknown): JudgeError {
    if (error instanceof JudgeError) return error
    const e = error as { name?: string; message?: string; status_code?: number; cause?: unknown }
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
      return new JudgeError(
        'timeout',
        `Ollama at ${hostLabel} did not answer within ${timeoutMs} ms (model ${model}). ` +
          'A cold model can take a while to load: raise `timeoutMs`, use a smaller model, or check the server is not busy.',
        { host: hostLabel, timeoutMs },
      )
    }
    if (e?.name === 'ResponseError' && typeof e.status_code === 'number') {
      const status = e.status_code
      const serverMessage = e.message ?? ''
      if (status === 404) {
        return new JudgeError(
          'model-not-found',
          `Ollama at ${hostLabel} answered 404 for model ${model}: ${serverMessage}. Run \`ollama pull ${model}\` (or fix the model tag).`,
          { host: hostLabel, status },
        )
      }
      if (status >= 500) {
        return new JudgeError(
          'server',
          `Ollama at ${hostLabel} failed with HTTP ${status} (model ${model}) after ${retries + 1} attempt(s): ${serverMessage}. ` +
            'Check the server log (`ollama serve` output); the model may be out of memory.',
          { host: hostLabel, status },
        )
      }
      return new JudgeError('http', `Ollama at ${hostLabel} answered HTTP ${status} (model ${model}): ${serverMessage}.`, { host: hostLabel, status })
    }
    if (error instanceof SyntaxError) {
      return new JudgeError('invalid-reply', `Ollama at ${hostLabel} sent a response body that is not JSON (${error.message}).`, {
        host: hostLabel,
        transport: true,
      })
    }
    const code = networkCode(e?.cause) ?? networkCode(error)
    return new JudgeError(
      'unreachable',
      `Cannot reach Ollama at ${hostLabel}${code === undefined ? '' : ` (${code})`}: ${e?.message ?? String(error)}. ` +
        'Start it with `ollama serve`, or point the judge at the right host (`host`, or OLLAMA_HOST).',
      { host: hostLabel, code },
    )
  }

  function replyProblems(request: JudgeRequest, value: unknown): readonly string[] {
    const problems = validateJson(request.schema, value)
    if (problems.length > 0 || request.check === undefined) return problems
    try {
      return request.check(value)
    } catch (error) {
      return [`check failed: ${(error as Error).message}`]
    }
  }
}

function networkCode(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const v = value as { code?: unknown; errors?: unknown[] }
  if (typeof v.code === 'string') return v.code
  // Happy-eyeballs connects fail with an AggregateError holding one error per address.
  if (Array.isArray(v.errors)) return networkCode(v.errors[0])
  return undefined
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** At most `n` tasks run at once; the rest wait in FIFO order. */
function semaphore(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0
  const waiting: Array<() => void> = []
  return async <T>(task: () => Promise<T>): Promise<T> => {
    // A released slot is handed straight to the next waiter, so a newcomer can never slip in between.
    if (active >= n) await new Promise<void>((resolve) => waiting.push(resolve))
    else active++
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next === undefined) active--
      else next()
    }
  }
}
