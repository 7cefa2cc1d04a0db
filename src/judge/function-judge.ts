import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import type { JudgeCache } from './cache.js'
import { JudgeError } from './errors.js'
import { createJudgeClient } from './judge-client.js'
import type { JsonSchema, Judge } from './types.js'

/** What a judge function is asked: the conversation, the schema the reply must match, and the settings. */
export interface FunctionJudgeRequest {
  /** System message, user prompt and (on a retry) the invalid reply plus what was wrong with it. */
  readonly messages: ReadonlyArray<{ readonly role: 'system' | 'user' | 'assistant'; readonly content: string }>
  /** The reply must validate against it (the library checks; an SDK can also pass it as its output schema). */
  readonly schema: JsonSchema
  /** A name for the schema (`[a-zA-Z0-9_-]`, ≤ 64), derived from the template step. */
  readonly schemaName: string
  /** `id.step@hash8` of the template step. */
  readonly template: string
  readonly model: string
  readonly temperature: number
  readonly seed: number
  /** 1 for the first call of a question. */
  readonly attempt: number
  /** Aborted when the call times out; pass it on to the SDK. */
  readonly signal: AbortSignal
}

/** The JSON value of the reply (an object), or its text (parsed as JSON); a promise of either. */
export type FunctionJudgeResult = unknown

export interface FunctionJudgeOptions {
  /** Names the function's backend in messages, signatures and cache keys (`ai-sdk:openai`). */
  readonly id: string
  /** The model the function calls; recorded in signatures and cache keys. */
  readonly model: string
  /** Passed to the function as `temperature`. @default 0 */
  readonly temperature?: number
  /** Passed to the function as `seed`. @default 42 */
  readonly seed?: number
  /** Longest wait for one call; a function that never settles fails naming the judge. @default 120000 */
  readonly timeoutMs?: number
  /** Extra attempts after a reply that fails the schema. @default 2 */
  readonly retries?: number
  /** Calls in flight at once. @default 2 */
  readonly concurrency?: number
  readonly cache?: JudgeCache
}

/** The keys of {@link FunctionJudgeOptions}: what functionJudge accepts. */
export const FUNCTION_JUDGE_OPTION_KEYS = keysOf<FunctionJudgeOptions>()('id', 'model', 'temperature', 'seed', 'timeoutMs', 'retries', 'concurrency', 'cache')

/**
 * A {@link Judge} backed by your own async function, so any SDK (Vercel AI SDK, LangChain, a provider's
 * client) can judge. The library still does everything around the call: it validates the returned
 * JSON against the schema (and the metric's own checks), asks again with the problems shown on an
 * invalid reply (at most `retries` times), runs each call under `timeoutMs`, caches and replays
 * (keyed on `id`, model, settings and prompt), and signs (`backend:function|fn:<id>`).
 *
 * A throw inside the function fails the call (`function`), not retried: retry inside the function if
 * your SDK needs it.
 *
 * @example
 * const judge = functionJudge(async ({ messages, schema }) => (await myClient.json({ messages, schema })).value, { id: 'my-sdk', model: 'gpt-4o-mini' })
 */
export function functionJudge(fn: (request: FunctionJudgeRequest) => FunctionJudgeResult, options: FunctionJudgeOptions): Judge {
  const name = 'functionJudge'
  if (typeof fn !== 'function') throw new MetricInputError(name, 'fn', 'an async function (request) => JSON value', fn)
  if (options === null || typeof options !== 'object') throw new MetricInputError(name, 'options', 'an object with `id` and `model`', options)
  checkOptionKeys(name, options, FUNCTION_JUDGE_OPTION_KEYS)
  const { id, model, temperature = 0, seed = 42, timeoutMs = 120_000, retries = 2, concurrency = 2, cache } = options
  if (typeof id !== 'string' || id.trim() === '') throw new MetricInputError(name, 'id', 'a non-empty name for the function (e.g. `ai-sdk:openai`)', id)
  if (typeof model !== 'string' || model.trim() === '') throw new MetricInputError(name, 'model', 'a non-empty model name', model)
  if (typeof temperature !== 'number' || !Number.isFinite(temperature) || temperature < 0) throw new MetricInputError(name, 'temperature', 'a finite number ≥ 0', temperature)
  if (!Number.isSafeInteger(seed)) throw new MetricInputError(name, 'seed', 'an integer', seed)
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && Number.isFinite(timeoutMs)))
    throw new MetricInputError(name, 'timeoutMs', 'a positive number of milliseconds', timeoutMs)
  if (!(Number.isSafeInteger(retries) && retries >= 0)) throw new MetricInputError(name, 'retries', 'a non-negative integer', retries)
  if (!(Number.isSafeInteger(concurrency) && concurrency > 0)) throw new MetricInputError(name, 'concurrency', 'a positive integer', concurrency)
  if (cache !== undefined && (cache === null || typeof cache.read !== 'function')) throw new MetricInputError(name, 'cache', 'a cache from judgeCache()', cache)

  const label = `judge function ${id}`
  return createJudgeClient(
    { id: `function:${id}`, model, temperature, seed, timeoutMs, retries, concurrency, ...(cache === undefined ? {} : { cache }) },
    {
      identity: { kind: 'function', id },
      label,
      recordHint: `the function ${id} able to reach its model`,
      timeoutHint: 'The function did not settle: check it awaits its SDK call and honours `signal`, or raise `timeoutMs`.',
      async send(call) {
        let result: unknown
        try {
          result = await fn({
            messages: call.messages.map((m) => ({ role: m.role as 'system' | 'user' | 'assistant', content: m.content })),
            schema: call.schema,
            schemaName: call.template.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64) || 'judge_reply',
            template: call.template,
            model,
            temperature: call.options['temperature'] ?? temperature,
            seed: call.options['seed'] ?? seed,
            attempt: call.attempt,
            signal: call.signal,
          })
        } catch (error) {
          if ((error as { name?: unknown })?.name === 'TimeoutError') throw error
          throw new JudgeError('function', `${label} (model ${model}) threw: ${(error as Error)?.message ?? String(error)}`, { id })
        }
        if (typeof result === 'string') return { content: result }
        let content: string | undefined
        try {
          content = JSON.stringify(result)
        } catch (error) {
          throw new JudgeError('invalid-reply', `${label} (model ${model}) returned a value that is not JSON (${(error as Error).message}).`, { id })
        }
        if (content === undefined) throw new JudgeError('invalid-reply', `${label} (model ${model}) returned ${String(result)}, not a JSON value.`, { id, retryable: true })
        return { content }
      },
      classify(error) {
        return new JudgeError('function', `${label} (model ${model}) failed: ${(error as Error)?.message ?? String(error)}`, { id })
      },
      signatureExtras: () => [
        ['backend', 'function'],
        ['fn', id],
      ],
    },
  )
}
