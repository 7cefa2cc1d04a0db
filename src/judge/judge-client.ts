import { MetricInputError } from '../errors.js'
import type { JudgeBackendIdentity, JudgeCache, JudgeCacheEntry } from './cache.js'
import { JUDGE_CACHE_FORMAT, judgeCacheKey, sameModel } from './cache.js'
import { JudgeError } from './errors.js'
import { validateJson } from './schema.js'
import { semaphore, sleep, withTimeout } from './transport.js'
import type { JsonSchema, Judge, JudgeReply, JudgeRequest, JudgeTokenUsage } from './types.js'

/**
 * The part of a judge every backend shares (Ollama, OpenAI-compatible, a user function): cache lookup
 * and replay, the content-addressed key, schema validation with deterministic repair retries, bounded
 * retries with backoff for transient faults, the per-attempt timeout, the concurrency limit and the
 * sharing of identical in-flight questions. A backend only turns one conversation into reply text.
 */

export interface ChatMessage {
  role: string
  content: string
}

/** One model call, as a backend sees it. */
export interface BackendCall {
  readonly messages: readonly ChatMessage[]
  readonly schema: JsonSchema
  readonly template: string
  /** `{ temperature, seed[, num_ctx] }`, as keyed. */
  readonly options: Readonly<Record<string, number>>
  readonly signal: AbortSignal
  /** 1 for the first call of a question. */
  readonly attempt: number
}

/** The model's reply text and, when the server says, which model produced it. */
export interface BackendAnswer {
  readonly content: string
  readonly model?: string
  /** How structured output was requested (recorded in cache entries and signatures). */
  readonly mode?: string
  /** Tokens the server reported for this call, when it did. */
  readonly usage?: JudgeTokenUsage
}

/** Non-negative integer token counts, or undefined when the server reported neither. */
export function tokenUsage(prompt: unknown, completion: unknown): JudgeTokenUsage | undefined {
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : undefined)
  const p = count(prompt)
  const c = count(completion)
  if (p === undefined && c === undefined) return undefined
  return { promptTokens: p ?? 0, completionTokens: c ?? 0 }
}

/** A recorded usage that is sound (two non-negative counts), else undefined. */
function storedUsage(value: unknown): JudgeTokenUsage | undefined {
  if (value === null || typeof value !== 'object') return undefined
  const u = value as { promptTokens?: unknown; completionTokens?: unknown }
  return tokenUsage(u.promptTokens, u.completionTokens)
}

export interface JudgeBackend {
  /** Cache-key identity of the server kind (and host where it matters). */
  readonly identity: JudgeBackendIdentity
  /** `Ollama at http://127.0.0.1:11434`: the subject of every message. */
  readonly label: string
  /** What to do on a replay miss: how to record the entry. */
  readonly recordHint: string
  /** What to do after a timeout. */
  readonly timeoutHint: string
  /**
   * One call. Throws a JudgeError for a fault it recognises; `info.retryable: true` asks for another
   * attempt (5xx, 429, a connection closed mid-reply), `info.retryAfterMs` for a wait before it.
   */
  send(call: BackendCall): Promise<BackendAnswer>
  /**
   * Runs once before the attempts of a question, outside their timeout: loading an optional client
   * package, checking configuration. Throws a JudgeError.
   */
  prepare?(): Promise<void>
  /** Turns anything else `send` threw into a JudgeError. */
  classify(error: unknown): JudgeError
  /** Told when a reply did not parse as JSON (a server that ignores the structured-output mode). */
  onUnparsable?(mode: string | undefined): void
  /** Told about every reply served from the cache (e.g. to sign with the recorded mode). */
  onCacheHit?(entry: JudgeCacheEntry): void
  /** Extra signature parts (backend, host, structured-output mode). */
  signatureExtras?(): ReadonlyArray<readonly [string, string | number | undefined]>
}

export interface JudgeClientSettings {
  readonly id: string
  readonly model: string
  readonly temperature: number
  readonly seed: number
  readonly numCtx?: number
  readonly timeoutMs: number
  readonly retries: number
  readonly concurrency: number
  readonly cache?: JudgeCache
}

/** Longest wait between attempts, whatever `Retry-After` asks for: a test run must not stall. */
const MAX_BACKOFF_MS = 10_000

/** Builds a {@link Judge} on `backend`; derived judges (`withCache`) share the concurrency limit. */
export function createJudgeClient(settings: JudgeClientSettings, backend: JudgeBackend): Judge {
  return build(settings, backend, semaphore(settings.concurrency), settings.cache)
}

function build(settings: JudgeClientSettings, backend: JudgeBackend, limit: <T>(task: () => Promise<T>) => Promise<T>, cache: JudgeCache | undefined): Judge {
  const { model, temperature, seed, numCtx, timeoutMs, retries } = settings
  const inflight = new Map<string, Promise<JudgeReply<unknown>>>()

  const judge: Judge = {
    id: settings.id,
    model,
    temperature,
    seed,
    ...(numCtx === undefined ? {} : { numCtx }),
    ...(cache === undefined ? {} : { cache }),
    withCache(next: JudgeCache): Judge {
      if (next === null || typeof next !== 'object' || typeof next.read !== 'function') throw new MetricInputError('withCache', 'cache', 'a cache from judgeCache()', next)
      return build(settings, backend, limit, next)
    },
    ask<T>(request: JudgeRequest): Promise<JudgeReply<T>> {
      const requestSeed = request.seed ?? seed
      if (!Number.isSafeInteger(requestSeed)) return Promise.reject(new MetricInputError('Judge.ask', 'seed', 'an integer', request.seed))
      const options: Record<string, number> = { temperature, seed: requestSeed }
      if (numCtx !== undefined) options['num_ctx'] = numCtx
      const messages: ChatMessage[] = [
        { role: 'system', content: request.system },
        { role: 'user', content: request.prompt },
      ]
      const key = judgeCacheKey({ backend: backend.identity, model, options, schema: request.schema, messages, template: request.template })
      let pending = inflight.get(key)
      if (pending === undefined) {
        pending = run(request, key, options, messages, requestSeed).finally(() => inflight.delete(key))
        inflight.set(key, pending)
      }
      return pending as Promise<JudgeReply<T>>
    },
  }
  // A live getter (object spread would freeze it): the structured-output mode can change after a fallback.
  if (backend.signatureExtras !== undefined) Object.defineProperty(judge, 'signatureExtras', { get: () => backend.signatureExtras?.(), enumerable: true })
  return judge

  async function run(request: JudgeRequest, key: string, options: Record<string, number>, messages: ChatMessage[], requestSeed: number): Promise<JudgeReply<unknown>> {
    const mode = cache?.mode ?? 'off'
    let corrupt: string | undefined
    if (cache !== undefined && mode !== 'off') {
      const read = await cache.read(key, (entry) => replyProblems(request, entry.reply.value))
      if (read.status === 'hit') {
        backend.onCacheHit?.(read.entry)
        const usage = storedUsage(read.entry.reply.usage)
        return { value: read.entry.reply.value, raw: read.entry.reply.content, key, cached: true, seed: requestSeed, attempts: 0, ...(usage === undefined ? {} : { usage }) }
      }
      if (read.status === 'corrupt') corrupt = read.problem
      if (mode === 'replay') {
        throw new JudgeError(
          'cache-miss',
          `Judge cache (mode replay) has no ${corrupt === undefined ? '' : 'valid '}entry for this request: ` +
            `${cache.fileFor(key)} ${corrupt === undefined ? 'does not exist' : `is corrupt (${corrupt})`} ` +
            `[key ${key}, template ${request.template}, model ${model}, ${backend.label}, seed ${requestSeed}]. ` +
            `To record it: run the tests once with the model available (${backend.recordHint}) and cache mode \`readwrite\`, then commit the cache folder.`,
          { key, file: cache.fileFor(key), template: request.template },
        )
      }
    }

    const answer = await limit(() => askModel(request, options, messages))
    if (cache !== undefined && mode === 'readwrite') {
      const entry: JudgeCacheEntry = {
        format: JUDGE_CACHE_FORMAT,
        key,
        template: request.template,
        backend: backend.identity,
        model,
        options,
        schema: request.schema,
        messages,
        reply: {
          content: answer.content,
          value: answer.value,
          attempts: answer.attempts,
          ...(answer.model === undefined ? {} : { model: answer.model }),
          ...(answer.mode === undefined ? {} : { mode: answer.mode }),
          ...(answer.usage === undefined ? {} : { usage: answer.usage }),
        },
      }
      try {
        await cache.write(entry)
      } catch (error) {
        // The reply is good; losing the recording must not fail the assertion, but must not go unnoticed.
        const message =
          error instanceof JudgeError ? error.message : `Judge cache folder ${cache.dir}: cannot write ${cache.fileFor(key)}: ${(error as Error)?.message ?? String(error)}.`
        const warn = cache.warn?.bind(cache) ?? ((m: string) => process.emitWarning(m, 'RagJudgeCacheWarning'))
        warn(`rag-matchers judge cache: ${message} The reply was used but not recorded.`)
      }
    }
    return {
      value: answer.value,
      raw: answer.content,
      key,
      cached: false,
      seed: requestSeed,
      attempts: answer.attempts,
      ...(answer.usage === undefined ? {} : { usage: answer.usage }),
    }
  }

  async function askModel(
    request: JudgeRequest,
    options: Record<string, number>,
    messages: ChatMessage[],
  ): Promise<{ content: string; value: unknown; attempts: number; model?: string; mode?: string; usage?: JudgeTokenUsage }> {
    await backend.prepare?.()
    const conversation = [...messages]
    // Tokens of every answered attempt: a repair retry costs as much as the first call.
    let usage: JudgeTokenUsage | undefined
    const addUsage = (u: JudgeTokenUsage | undefined) => {
      if (u !== undefined) usage = { promptTokens: (usage?.promptTokens ?? 0) + u.promptTokens, completionTokens: (usage?.completionTokens ?? 0) + u.completionTokens }
    }
    let lastProblems: readonly string[] = []
    let lastContent = ''
    for (let attempt = 1; attempt <= retries + 1; attempt++) {
      let answer: BackendAnswer
      try {
        answer = await withTimeout(timeoutMs, `${backend.label} (model ${model})`, (signal) =>
          backend.send({ messages: conversation, schema: request.schema, template: request.template, options, signal, attempt }),
        )
      } catch (error) {
        const mapped = error instanceof JudgeError ? error : (error as { name?: unknown })?.name === 'TimeoutError' ? timeoutError() : backend.classify(error)
        if (mapped.info['retryable'] === true && attempt <= retries) {
          const asked = mapped.info['retryAfterMs']
          await sleep(Math.min(MAX_BACKOFF_MS, typeof asked === 'number' && asked >= 0 ? asked : 200 * attempt))
          continue
        }
        throw mapped
      }
      if (answer.model !== undefined && answer.model !== '' && !sameModel(model, answer.model)) {
        throw new JudgeError(
          'wrong-model',
          `${backend.label} answered for model ${answer.model}, but the judge asked for ${model}; the reply is not used. ` +
            'Check that the server serves the requested model under that name (a proxy or router may substitute another).',
          { requested: model, answered: answer.model },
        )
      }
      addUsage(answer.usage)
      const { content } = answer
      lastContent = content
      let value: unknown
      let problems: readonly string[]
      try {
        value = JSON.parse(content)
        problems = replyProblems(request, value)
      } catch (error) {
        problems = [`not valid JSON (${(error as Error).message})`]
        backend.onUnparsable?.(answer.mode)
      }
      if (problems.length === 0)
        return {
          content,
          value,
          attempts: attempt,
          ...(answer.model === undefined ? {} : { model: answer.model }),
          ...(answer.mode === undefined ? {} : { mode: answer.mode }),
          ...(usage === undefined ? {} : { usage }),
        }
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
      `Judge model ${model} on ${backend.label} gave no valid reply for ${request.template} after ${retries + 1} attempt(s): ` +
        `${lastProblems.slice(0, 5).join('; ')}. Last reply began: ${JSON.stringify(lastContent.slice(0, 200))}. ` +
        'Try a larger or instruction-tuned model, or raise `retries`.',
      { template: request.template, problems: lastProblems, raw: lastContent.slice(0, 2000) },
    )
  }

  function timeoutError(): JudgeError {
    return new JudgeError('timeout', `${backend.label} did not answer within ${timeoutMs} ms (model ${model}). ${backend.timeoutHint}`, { timeoutMs })
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
