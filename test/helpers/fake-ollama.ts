/**
 * A scripted stand-in for an Ollama server, shared by the judge and embeddings tests.
 *
 * It speaks just enough of the HTTP protocol for the `ollama` client: JSON bodies, NDJSON streams,
 * raw (possibly malformed) bodies, error statuses and delayed answers. Every request is recorded;
 * a request no script matches gets `500 {error:'unscripted request'}` and is listed in `unhandled`,
 * which tests assert stays empty.
 *
 * Built-in route: `GET /api/version` → `{version:'0.0.0-fake'}` (a script for that path wins).
 * Everything else (`/api/chat`, `/api/generate`, `/api/embed`, `/api/tags`, `/api/show`) is answered
 * from scripts only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A JSON body whose `model` is this string answers with the request's own `model` (a faithful server). */
export const ECHO_MODEL = '<the requested model>'

export interface FakeRequest {
  method: string
  path: string
  body: any
}

export interface FakeReply {
  /** HTTP status, default 200. */
  status?: number
  /** JSON body (non-stream), e.g. `{ error: 'model "x" not found, try pulling it first' }` with status 404. */
  body?: unknown
  /** NDJSON chunks for streamed replies (each written as one line). */
  stream?: unknown[]
  /** A raw, possibly malformed body. */
  raw?: string
  /** Wait this long before answering (for timeout tests). */
  delayMs?: number
  /** Extra response headers (e.g. `location` with a 3xx status). */
  headers?: Record<string, string>
  /** Send the headers (full content-length) and only this many bytes of the JSON body, then drop the connection. */
  hangUpAfterBytes?: number
}

export interface FakeOllama {
  /** `http://127.0.0.1:<port>` (listens on 127.0.0.1, port 0). */
  readonly host: string
  /**
   * Script a reply: requests to `path` whose parsed body satisfies `match` get `reply`
   * (first matching script wins; `times` limits uses, default unlimited).
   */
  on(path: string, match: (body: any) => boolean, reply: FakeReply | ((req: FakeRequest) => FakeReply), options?: { times?: number }): void
  /** Every request received, in order. */
  readonly requests: FakeRequest[]
  /** Requests no script matched: answered 500 `{error:'unscripted request'}`. */
  readonly unhandled: FakeRequest[]
  close(): Promise<void>
}

interface Script {
  path: string
  match: (body: any) => boolean
  reply: FakeReply | ((req: FakeRequest) => FakeReply)
  remaining: number
}

export async function startFakeOllama(): Promise<FakeOllama> {
  const scripts: Script[] = []
  const requests: FakeRequest[] = []
  const unhandled: FakeRequest[] = []
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
        // Keep the raw text so a test can still see what the client sent.
        body = text
      }
    }
    const request: FakeRequest = { method: req.method ?? 'GET', path, body }
    requests.push(request)

    const script = scripts.find((s) => s.path === path && s.remaining > 0 && safeMatch(s.match, body))
    let reply: FakeReply
    if (script) {
      script.remaining -= 1
      try {
        reply = typeof script.reply === 'function' ? script.reply(request) : script.reply
      } catch (error) {
        reply = { status: 500, body: { error: `fake-ollama reply function threw: ${String(error)}` } }
      }
    } else if (request.method === 'GET' && path === '/api/version') {
      reply = { body: { version: '0.0.0-fake' } }
    } else {
      unhandled.push(request)
      reply = { status: 500, body: { error: 'unscripted request' } }
    }

    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer)
          resolve()
        }, reply.delayMs)
        timers.add(timer)
        // The client may give up (timeout test); stop waiting, there is nobody to answer.
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
    host: `http://127.0.0.1:${port}`,
    on(path, match, reply, options) {
      const times = options?.times
      scripts.push({ path, match, reply, remaining: times === undefined ? Number.POSITIVE_INFINITY : times })
    },
    requests,
    unhandled,
    close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      return new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Keep-alive sockets would hold close() open until they time out.
        server.closeAllConnections()
      })
    },
  }
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

function send(res: ServerResponse, reply: FakeReply): void {
  const status = reply.status ?? 200
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value)
  if (reply.hangUpAfterBytes !== undefined) {
    const payload = Buffer.from(JSON.stringify(reply.body ?? {}))
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': payload.length })
    res.write(payload.subarray(0, reply.hangUpAfterBytes), () => res.socket?.destroy())
    return
  }
  if (reply.stream !== undefined) {
    res.writeHead(status, { 'content-type': 'application/x-ndjson' })
    for (const chunk of reply.stream) res.write(`${JSON.stringify(chunk)}\n`)
    res.end()
    return
  }
  if (reply.raw !== undefined) {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(reply.raw)
    return
  }
  const payload = JSON.stringify(reply.body ?? {})
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) })
  res.end(payload)
}
