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
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A completion or embeddings body whose `model` is this string answers with the request's own model. */
export const ECHO_MODEL = '<the requested model>'

export interface FakeOpenAIRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: any
}

export interface FakeOpenAIReply {
  /** HTTP status, default 200. */
  status?: number
  /** JSON body. */
  body?: unknown
  /** A raw body sent as is, with `contentType` (default text/plain). */
  raw?: string
  contentType?: string
  headers?: Record<string, string>
  /** Wait this long before answering (hang / timeout tests). */
  delayMs?: number
  /** Send the headers (full content-length) and only this many bytes of the JSON body, then drop the connection. */
  hangUpAfterBytes?: number
}

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

interface Script {
  path: string
  match: (body: any) => boolean
  reply: FakeOpenAIReply | ((req: FakeOpenAIRequest) => FakeOpenAIReply)
  remaining: number
}

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const scripts: Script[] = []
  const requests: FakeOpenAIRequest[] = []
  const unhandled: FakeOpenAIRequest[] = []
  const timers = new Set<NodeJS.Timeout>()

  const server = createServer((req, res) => {
    void handle(req, res)
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req)
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    let body: any
    if (text.length > 0) {
      try {
        body = JSON.parse(text)
      } catch {
        body = text
      }
    }
    const request: FakeOpenAIRequest = { method: req.method ?? 'GET', path, headers: { ...req.headers }, body }
    requests.push(request)
    const script = scripts.find((s) => s.path === path && s.remaining > 0 && safeMatch(s.match, body))
    let reply: FakeOpenAIReply
    if (script) {
      script.remaining -= 1
      try {
        reply = typeof script.reply === 'function' ? script.reply(request) : script.reply
      } catch (error) {
        reply = openAIError(500, `fake-openai reply function threw: ${String(error)}`)
      }
    } else {
      unhandled.push(request)
      reply = openAIError(500, 'unscripted request')
    }
    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer)
          resolve()
        }, reply.delayMs)
        timers.add(timer)
        res.once('close', () => {
          clearTimeout(timer)
          timers.delete(timer)
          resolve()
        })
      })
    }
    if (res.destroyed || res.writableEnded) return
    const echoed = reply.body as { model?: unknown } | undefined
    if (echoed !== null && typeof echoed === 'object' && echoed.model === ECHO_MODEL)
      reply = { ...reply, body: { ...echoed, model: (body as { model?: unknown } | undefined)?.model } }
    send(res, reply)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    host: `127.0.0.1:${port}`,
    on(path, match, reply, options) {
      scripts.push({ path, match, reply, remaining: options?.times ?? Number.POSITIVE_INFINITY })
    },
    requests,
    unhandled,
    close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
}

/** A chat completion whose message content is `value` (JSON-encoded unless a string). */
export function completion(value: unknown, options: { model?: string; finishReason?: string; refusal?: string | null } = {}): FakeOpenAIReply {
  const content = options.refusal ? null : typeof value === 'string' ? value : JSON.stringify(value)
  return {
    body: {
      id: 'chatcmpl-fake',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: options.model ?? ECHO_MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content, refusal: options.refusal ?? null }, finish_reason: options.finishReason ?? 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
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

function safeMatch(match: (body: any) => boolean, body: any): boolean {
  try {
    return Boolean(match(body))
  } catch {
    return false
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function send(res: ServerResponse, reply: FakeOpenAIReply): void {
  const status = reply.status ?? 200
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value)
  if (reply.raw !== undefined) {
    res.writeHead(status, { 'content-type': reply.contentType ?? 'text/plain' })
    res.end(reply.raw)
    return
  }
  const payload = Buffer.from(JSON.stringify(reply.body ?? {}))
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': payload.length })
  if (reply.hangUpAfterBytes !== undefined) {
    res.write(payload.subarray(0, reply.hangUpAfterBytes), () => res.socket?.destroy())
    return
  }
  res.end(payload)
}
