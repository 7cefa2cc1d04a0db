/**
 * The scripted HTTP server behind fake-ollama.ts and fake-openai.ts: listens on 127.0.0.1 (port 0),
 * records every request, answers from scripts (first match wins, `times` limits uses), and can delay,
 * stream NDJSON, send raw bodies, set headers, or send half a body and drop the connection. Each fake
 * adds only its protocol: built-in routes, its error body shape, and the base URL it hands out.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** A JSON body whose `model` is this string answers with the request's own `model` (a faithful server). */
export const ECHO_MODEL = '<the requested model>'

export interface ScriptedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  body: any
}

export interface ScriptedReply {
  /** HTTP status, default 200. */
  status?: number
  /** JSON body. */
  body?: unknown
  /** NDJSON chunks for streamed replies (each written as one line). */
  stream?: unknown[]
  /** A raw, possibly malformed body, sent as is with `contentType` (default: the server's). */
  raw?: string
  contentType?: string
  /** Extra response headers (e.g. `location` with a 3xx status, `retry-after` with a 429). */
  headers?: Record<string, string>
  /** Wait this long before answering (hang / timeout tests). */
  delayMs?: number
  /** Send the headers (full content-length) and only this many bytes of the JSON body, then drop the connection. */
  hangUpAfterBytes?: number
}

export type ScriptReply<Req, Rep> = Rep | ((req: Req) => Rep)

export interface ScriptedServer<Req extends ScriptedRequest, Rep extends ScriptedReply> {
  readonly port: number
  on(path: string, match: (body: any) => boolean, reply: ScriptReply<Req, Rep>, options?: { times?: number }): void
  /** Every request received, in order. */
  readonly requests: Req[]
  /** Requests no script (or built-in route) answered. */
  readonly unhandled: Req[]
  close(): Promise<void>
}

export interface ScriptedServerProtocol<Rep extends ScriptedReply> {
  /** A built-in answer for a request no script matched (e.g. Ollama's `GET /api/version`). */
  readonly builtIn?: (request: ScriptedRequest) => Rep | undefined
  /** The protocol's error reply, for unscripted requests and reply functions that throw. */
  readonly error: (status: number, message: string) => Rep
  /** Content type of a `raw` reply without its own. */
  readonly rawContentType: string
}

export async function startScriptedServer<Req extends ScriptedRequest, Rep extends ScriptedReply>(
  name: string,
  protocol: ScriptedServerProtocol<Rep>,
): Promise<ScriptedServer<Req, Rep>> {
  const scripts: Array<{ path: string; match: (body: any) => boolean; reply: ScriptReply<Req, Rep>; remaining: number }> = []
  const requests: Req[] = []
  const unhandled: Req[] = []
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
        // keep the raw text so a test can still see what the client sent
        body = text
      }
    }
    const request = { method: req.method ?? 'GET', path, headers: { ...req.headers }, body } as Req
    requests.push(request)

    const script = scripts.find((s) => s.path === path && s.remaining > 0 && safeMatch(s.match, body))
    let reply: Rep
    if (script) {
      script.remaining -= 1
      try {
        reply = typeof script.reply === 'function' ? script.reply(request) : script.reply
      } catch (error) {
        reply = protocol.error(500, `${name} reply function threw: ${String(error)}`)
      }
    } else {
      const builtIn = protocol.builtIn?.(request)
      if (builtIn !== undefined) reply = builtIn
      else {
        unhandled.push(request)
        reply = protocol.error(500, 'unscripted request')
      }
    }

    if (reply.delayMs !== undefined && reply.delayMs > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer)
          resolve()
        }, reply.delayMs)
        timers.add(timer)
        // the client may give up (timeout tests): stop waiting, there is nobody to answer
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
    send(res, reply, protocol.rawContentType)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  return {
    port: (server.address() as AddressInfo).port,
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
        // keep-alive sockets would hold close() open until they time out
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

function send(res: ServerResponse, reply: ScriptedReply, rawContentType: string): void {
  const status = reply.status ?? 200
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value)
  if (reply.stream !== undefined) {
    res.writeHead(status, { 'content-type': 'application/x-ndjson' })
    for (const chunk of reply.stream) res.write(`${JSON.stringify(chunk)}\n`)
    res.end()
    return
  }
  if (reply.raw !== undefined) {
    res.writeHead(status, { 'content-type': reply.contentType ?? rawContentType })
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

/**
 * Registers hooks in the current scope: a fresh server before each test (handed to `use`), closed after it, and
 * the test fails when the server got a request its script had no reply for.
 */
export function serverPerTest<S extends { readonly unhandled: readonly unknown[]; close(): Promise<void> }>(start: () => Promise<S>, use: (server: S) => void): void {
  let server: S | undefined
  beforeEach(async () => {
    server = await start()
    use(server)
  })
  afterEach(async () => {
    if (server === undefined) return
    const unhandled = server.unhandled.length
    await server.close()
    server = undefined
    expect(unhandled).toBe(0)
  })
}
