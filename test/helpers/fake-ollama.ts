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
import { ECHO_MODEL, startScriptedServer, type ScriptedReply, type ScriptedRequest } from './scripted-server.js'

export { ECHO_MODEL }

/** A recorded request (method, path, headers, parsed JSON body or the raw text). */
export type FakeRequest = ScriptedRequest

/**
 * A scripted reply: `status` (default 200), a JSON `body` (e.g. `{ error: 'model "x" not found, try pulling
 * it first' }` with 404), NDJSON `stream` chunks, a `raw` body, `delayMs`, `headers` (e.g. `location` with
 * a 3xx), or `hangUpAfterBytes` (half a body, then the connection drops).
 */
export type FakeReply = ScriptedReply

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

export async function startFakeOllama(): Promise<FakeOllama> {
  const server = await startScriptedServer<FakeRequest, FakeReply>('fake-ollama', {
    builtIn: (req) => (req.method === 'GET' && req.path === '/api/version' ? { body: { version: '0.0.0-fake' } } : undefined),
    error: (status, message) => ({ status, body: { error: message } }),
    rawContentType: 'application/json',
  })
  return {
    host: `http://127.0.0.1:${server.port}`,
    on: server.on,
    requests: server.requests,
    unhandled: server.unhandled,
    close: server.close,
  }
}
