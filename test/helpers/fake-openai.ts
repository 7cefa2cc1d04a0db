/**
 * A scripted OpenAI-protocol server on 127.0.0.1 (the chat-completions and embeddings routes), for the
 * openaiJudge / openaiEmbedder tests; the counterpart of fake-ollama.ts.
 *
 * Every request is recorded with its headers; a request no script matches gets a 500 OpenAI-style
 * error and is listed in `unhandled`, which tests assert stays empty. Scripts can answer JSON, raw text,
 * any status with headers (401, 404, 429 + Retry-After, 500), hang (`delayMs`), or send half a body and
 * drop the connection (`hangUpAfterBytes`). `chatShapeProblems` checks a request is what the protocol
 * expects (response_format, seed, temperature, auth header).
 */
import { ECHO_MODEL, startScriptedServer, type ScriptedReply, type ScriptedRequest } from './scripted-server.js'

export { ECHO_MODEL }

/** A recorded request, with its headers (the auth header is checked). */
export type FakeOpenAIRequest = ScriptedRequest

/** A scripted reply: JSON `body`, `raw` text with `contentType` (default text/plain), `status`, `headers`, `delayMs`, `hangUpAfterBytes`. */
export type FakeOpenAIReply = Omit<ScriptedReply, 'stream'>

export interface FakeOpenAI {
  /** `http://127.0.0.1:<port>/v1`, as `baseURL`. */
  readonly baseURL: string
  /** `127.0.0.1:<port>` */
  readonly host: string
  /** Requests to `path` (e.g. '/v1/chat/completions') whose body satisfies `match` get `reply`; first match wins. */
  on(path: string, match: (body: any) => boolean, reply: FakeOpenAIReply | ((req: FakeOpenAIRequest) => FakeOpenAIReply), options?: { times?: number }): void
  readonly requests: FakeOpenAIRequest[]
  readonly unhandled: FakeOpenAIRequest[]
  close(): Promise<void>
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const server = await startScriptedServer<FakeOpenAIRequest, FakeOpenAIReply>('fake-openai', {
    error: (status, message) => openAIError(status, message),
    rawContentType: 'text/plain',
  })
  return {
    baseURL: `http://127.0.0.1:${server.port}/v1`,
    host: `127.0.0.1:${server.port}`,
    on: server.on,
    requests: server.requests,
    unhandled: server.unhandled,
    close: server.close,
  }
}

/** A chat completion whose message content is `value` (JSON-encoded unless a string). */
export function completion(
  value: unknown,
  options: { model?: string; finishReason?: string; refusal?: string | null; usage?: { prompt_tokens: number; completion_tokens: number } | null } = {},
): FakeOpenAIReply {
  const content = options.refusal ? null : typeof value === 'string' ? value : JSON.stringify(value)
  return {
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: options.model ?? ECHO_MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: options.refusal ?? null }, finish_reason: options.finishReason ?? 'stop' }],
      // usage as OpenAI sends it (null: a server that reports none)
      ...(options.usage === null
        ? {}
        : {
            usage: options.usage
              ? { ...options.usage, total_tokens: options.usage.prompt_tokens + options.usage.completion_tokens }
              : { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
    },
  }
}

/** An embeddings list, one `data` item per vector (optionally out of order, as the spec allows). */
export function embeddingsReply(vectors: readonly (readonly number[])[], options: { model?: string; reverse?: boolean } = {}): FakeOpenAIReply {
  const data = vectors.map((embedding, index) => ({ object: 'embedding', index, embedding }))
  return { body: { object: 'list', data: options.reverse ? [...data].reverse() : data, model: options.model ?? ECHO_MODEL, usage: { prompt_tokens: 1, total_tokens: 1 } } }
}

/** An OpenAI-style error body: `{ error: { message, type, code } }`. */
export function openAIError(status: number, message: string, options: { type?: string; code?: string; headers?: Record<string, string> } = {}): FakeOpenAIReply {
  return {
    status,
    body: { error: { message, type: options.type ?? 'invalid_request_error', param: null, code: options.code ?? null } },
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  }
}

/**
 * What is wrong with a chat-completions request for a judge: the response_format shape (json_schema,
 * strict, a valid name, the schema) unless `mode` says otherwise, an integer seed, a numeric temperature,
 * and the bearer token (or its absence).
 */
export function chatShapeProblems(
  req: FakeOpenAIRequest,
  expected: { apiKey?: string; mode?: 'json_schema' | 'json_object' | 'prompt'; temperature?: number; seed?: number },
): string[] {
  const problems: string[] = []
  const b = req.body ?? {}
  if (req.method !== 'POST') problems.push(`method ${req.method}`)
  if (typeof b.model !== 'string') problems.push('no model')
  if (!Array.isArray(b.messages) || b.messages.some((m: any) => typeof m?.role !== 'string' || typeof m?.content !== 'string'))
    problems.push('messages are not {role, content} strings')
  if (typeof b.temperature !== 'number' || (expected.temperature !== undefined && b.temperature !== expected.temperature))
    problems.push(`temperature ${JSON.stringify(b.temperature)}`)
  if (!Number.isInteger(b.seed) || (expected.seed !== undefined && b.seed !== expected.seed)) problems.push(`seed ${JSON.stringify(b.seed)}`)
  const mode = expected.mode ?? 'json_schema'
  const rf = b.response_format
  if (mode === 'prompt' && rf !== undefined) problems.push('response_format sent in prompt mode')
  if (mode === 'json_object' && rf?.type !== 'json_object') problems.push(`response_format ${JSON.stringify(rf)}`)
  if (mode === 'json_schema') {
    if (rf?.type !== 'json_schema') problems.push(`response_format.type ${JSON.stringify(rf?.type)}`)
    else {
      if (!/^[a-zA-Z0-9_-]{1,64}$/.test(rf.json_schema?.name ?? '')) problems.push(`json_schema.name ${JSON.stringify(rf.json_schema?.name)}`)
      if (rf.json_schema?.strict !== true) problems.push('json_schema.strict is not true')
      if (rf.json_schema?.schema?.type !== 'object') problems.push('json_schema.schema is not an object schema')
    }
  }
  const auth = req.headers['authorization']
  if (expected.apiKey === undefined ? auth !== undefined : auth !== `Bearer ${expected.apiKey}`) problems.push(`authorization ${JSON.stringify(auth)}`)
  return problems
}
