/**
 * The history UI's HTTP server (Node's http module, no framework): GET/HEAD only, the app's own files
 * from a fixed list, and the read-only JSON resources at `/api/<name>`. Every answer carries the
 * security headers of security.ts; anything else is a 404 page (or 405 for another method).
 *
 * With `--rate` (a RatingDesk in the resources) there is exactly one write: POST `/api/rate`, one
 * rating as JSON, checked by rate-request.ts (same origin, custom header, JSON, size) and then by the
 * desk (fields, run, case, rubric scale); and one more read, the ratings export
 * `/ratings/<runId>/<setKey>[/<otherId>].jsonl`.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname } from 'node:path'
import { HistoryError } from '../history/public.js'
import { appFiles, CONTENT_TYPES } from './app-files.js'
import { NotFound, type UiResources } from './resources.js'
import { RatingInputError, RatingNotFound } from './rating.js'
import { readRateRequest, RATE_PATH, RateRequestError } from './rate-request.js'
import { hostAllowed, SECURITY_HEADERS } from './security.js'

export interface UiServerOptions {
  readonly resources: UiResources
  /** The built app (findAppDir()). */
  readonly appDir: string
  readonly host: string
  /** 0: any free port. */
  readonly port: number
}

export interface RunningUi {
  readonly server: Server
  /** `http://127.0.0.1:5178/` */
  readonly url: string
  close(): Promise<void>
}

/** The page for a URL that names nothing (the app's own routes live after `#`, so every other path is unknown). */
const NOT_FOUND_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found · rag-matchers history</title><link rel="stylesheet" href="/app.css"></head>
<body><main id="main"><h1>Not found</h1><p>Nothing is served at this address. <a href="/">Open the run history</a>.</p></main></body></html>
`

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra })
  res.end(res.req.method === 'HEAD' ? undefined : body)
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  send(res, status, CONTENT_TYPES['.json'] as string, JSON.stringify(value), { 'Cache-Control': 'no-store' })
}

/** A file of the app, read once at start (a few small files; a rebuild of dist/ while serving changes nothing). */
interface AppFile {
  readonly type: string
  readonly body: Buffer
  /** Of the body: a reload revalidates and gets 304, so the browser keeps the compiled script (V8's code cache follows the cached response). */
  readonly etag: string
}

/** Answers one request. Exported for the unit tests. */
/** `/ratings/<runId>/<setKey>[/<otherId>].jsonl`: a set's ratings as the agreement API reads them. */
const EXPORT_PATH = /^\/ratings\/([0-9a-f]{1,64})\/([0-9a-f]{16})(?:\/([0-9a-f]{1,64}))?\.jsonl$/

/** The one write of rate mode: a rating. Every refusal is JSON `{ error }` with the status that fits. */
async function rate(req: IncomingMessage, res: ServerResponse, options: UiServerOptions): Promise<void> {
  const desk = options.resources.desk
  try {
    if (!desk) throw new RateRequestError(405, 'read-only: rating is off (start the UI with --rate)')
    const body = await readRateRequest(req)
    const stored = await desk.save(body)
    sendJson(res, 200, { stored: true, rating: stored })
  } catch (error) {
    if (error instanceof RateRequestError) sendJson(res, error.status, { error: error.message })
    else if (error instanceof RatingInputError) sendJson(res, 400, { error: error.message })
    else if (error instanceof RatingNotFound) sendJson(res, 404, { error: error.message })
    else if (error instanceof HistoryError) sendJson(res, 503, { error: error.message })
    else throw error
  }
}

export async function handle(req: IncomingMessage, res: ServerResponse, options: UiServerOptions, files: ReadonlyMap<string, AppFile>): Promise<void> {
  // The path is matched as sent (percent-escapes included): `/%2e%2e/` or `/..%2f` never equals a listed file.
  const path = (req.url ?? '/').split(/[?#]/, 1)[0] as string
  if (req.method === 'POST' && path === RATE_PATH && options.resources.desk) {
    if (!hostAllowed(req.headers.host, options.host)) {
      sendJson(res, 403, { error: 'this server answers requests for its own address only' })
      return
    }
    await rate(req, res, options)
    return
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const allow = options.resources.desk ? `GET and HEAD, and POST ${RATE_PATH} only` : 'GET and HEAD only'
    send(res, 405, 'text/plain; charset=utf-8', `read-only: ${allow}\n`, { Allow: 'GET, HEAD' })
    return
  }
  if (!hostAllowed(req.headers.host, options.host)) {
    send(res, 403, 'text/plain; charset=utf-8', 'this server answers requests for its own address only\n')
    return
  }
  const exported = EXPORT_PATH.exec(path)
  if (exported && options.resources.desk) {
    try {
      const [, run = '', setKey = '', other] = exported
      const body = await options.resources.desk.exportJsonl(run, setKey, other)
      send(res, 200, 'application/x-ndjson; charset=utf-8', body, {
        'Cache-Control': 'no-store',
        'Content-Disposition': `attachment; filename="ratings-${run}-${setKey}${other !== undefined ? `-vs-${other}` : ''}.jsonl"`,
      })
    } catch (error) {
      if (error instanceof RatingNotFound) sendJson(res, 404, { error: error.message })
      else throw error
    }
    return
  }
  if (path.startsWith('/api/')) {
    try {
      sendJson(res, 200, await options.resources.get(path.slice('/api/'.length)))
    } catch (error) {
      if (error instanceof NotFound || error instanceof RatingNotFound) sendJson(res, 404, { error: error.message })
      else if (error instanceof HistoryError) sendJson(res, 503, { error: error.message })
      else sendJson(res, 500, { error: `internal error: ${error instanceof Error ? error.message : String(error)}` })
    }
    return
  }
  const file = files.get(path === '/' ? '/index.html' : path)
  if (file === undefined) {
    send(res, 404, CONTENT_TYPES['.html'] as string, NOT_FOUND_PAGE, { 'Cache-Control': 'no-store' })
    return
  }
  if (req.headers['if-none-match'] === file.etag) {
    res.writeHead(304, { ...SECURITY_HEADERS, ETag: file.etag, 'Cache-Control': 'no-cache' })
    res.end()
    return
  }
  send(res, 200, file.type, file.body, { 'Cache-Control': 'no-cache', ETag: file.etag })
}

/** A port that is taken, or a host that cannot be bound: the CLI prints it as one line and exits 2. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/** Starts the server; rejects with a ListenError naming the port (and `--port`) when it is in use. */
export async function startUiServer(options: UiServerOptions): Promise<RunningUi> {
  const files = new Map(
    [...appFiles(options.appDir)].map(([path, file]) => {
      const body = readFileSync(file)
      return [path, { type: CONTENT_TYPES[extname(file)] as string, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }]
    }),
  )
  const server = createServer((req, res) => {
    handle(req, res, options, files).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `internal error: ${String(error)}` })
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new ListenError(`port ${options.port} on ${options.host} is already in use: stop what runs there, or pick another port with --port`, error.code))
      } else if (error.code === 'EACCES') {
        reject(new ListenError(`no permission to listen on port ${options.port}: pick a port above 1023 with --port`, error.code))
      } else {
        reject(new ListenError(`cannot listen on ${options.host}:${options.port}: ${error.message}`, error.code))
      }
    })
    server.listen(options.port, options.host, () => resolve())
  })
  const address = server.address() as AddressInfo
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    server,
    url: `http://${shown}:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
