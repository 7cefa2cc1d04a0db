import type { JudgeCache } from './cache.js'

/**
 * The judge contract. Metrics depend only on this interface, so a judge backed by another server (or a
 * scripted one) can replace {@link ../ollama-judge.js ollamaJudge} without touching any metric.
 */

/** The JSON-Schema subset the judge sends as Ollama `format` and validates replies against (see `schema.ts`). */
export interface JsonSchema {
  readonly type?: JsonType | readonly JsonType[]
  readonly title?: string
  readonly description?: string
  readonly properties?: Readonly<Record<string, JsonSchema>>
  readonly required?: readonly string[]
  readonly additionalProperties?: boolean
  readonly items?: JsonSchema
  readonly enum?: readonly (string | number | boolean | null)[]
  readonly minimum?: number
  readonly maximum?: number
  readonly minItems?: number
  readonly maxItems?: number
  readonly minLength?: number
  readonly maxLength?: number
}

export type JsonType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null'

/** One structured question to the judge model. */
export interface JudgeRequest {
  /** `id.step@hash8` of the template step that produced the prompt; stored in cache entries for reviewers. */
  readonly template: string
  /** System message (the judge's role). */
  readonly system: string
  /** User message: instructions plus delimited data (see `prompt.ts`). */
  readonly prompt: string
  /** Sent as Ollama `format`; the reply must validate against it. */
  readonly schema: JsonSchema
  /** Overrides the judge's seed for this call (self-consistency runs). */
  readonly seed?: number
  /**
   * Checks the schema cannot express (one verdict per claim, indices in range). Returns problems; a
   * non-empty list makes the reply invalid, exactly like a schema violation (retried, then reported).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly check?: (value: any) => readonly string[]
}

/** A validated reply. */
export interface JudgeReply<T = unknown> {
  readonly value: T
  /** The model's raw `message.content`. */
  readonly raw: string
  /** sha256 content address of the request (model, options, schema, messages); the cache file name. */
  readonly key: string
  /** Whether the reply came from the cache. */
  readonly cached: boolean
  /** The seed the request was made with. */
  readonly seed: number
  /** Model calls it took to obtain a valid reply (0 when cached). */
  readonly attempts: number
  /**
   * Tokens the server reported for this reply, summed over its attempts (repair retries included); for a
   * cached reply, what was recorded with it. Absent when the server reported none (a function judge).
   */
  readonly usage?: JudgeTokenUsage
}

/** Token counts a judge server reports: OpenAI `usage.prompt_tokens`/`completion_tokens`, Ollama `prompt_eval_count`/`eval_count`. */
export interface JudgeTokenUsage {
  readonly promptTokens: number
  readonly completionTokens: number
}

/** A judge answers structured questions about texts. */
export interface Judge {
  /** Human-readable identity, e.g. `ollama:llama3.1:8b`. */
  readonly id: string
  /** Model tag, colons kept (`llama3.1:8b`); recorded in signatures. */
  readonly model: string
  /** Sampling temperature sent with every request. */
  readonly temperature: number
  /** Base seed; self-consistency run i uses `seed + i`. */
  readonly seed: number
  /** Context window (`options.num_ctx`) when set; recorded in signatures because truncation changes verdicts. */
  readonly numCtx?: number
  /**
   * Signature parts beyond model, temperature, seed and context, e.g. `[['backend', 'openai'],
   * ['host', 'api.openai.com'], ['format', 'json_schema']]`: what else decides the verdicts. Judges
   * without it (Ollama) sign as before.
   */
  readonly signatureExtras?: ReadonlyArray<readonly [string, string | number | undefined]>
  /** Ask one structured question. Rejects with a `JudgeError` that says what to do. */
  ask<T = unknown>(request: JudgeRequest): Promise<JudgeReply<T>>
  /** The cache the judge records to and replays from, if any. */
  readonly cache?: JudgeCache
  /**
   * The same judge (model, options, concurrency limit) with another cache. Lets the matcher layer
   * give a cache-less judge the default committed folder without knowing how the judge was built.
   */
  withCache?(cache: JudgeCache): Judge
}
