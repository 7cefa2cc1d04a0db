/**
 * HTTP plumbing shared by the judges and the HTTP embedders: a fetch that follows at most a handful of
 * redirects, and a classifier that tells "nothing listens there" from "it answered, then hung up".
 * Both exist because undici's own behaviour (20 redirects, then a bare "fetch failed"; a body cut short
 * surfacing as "terminated") gives messages that send users looking in the wrong place.
 */

/** Redirects followed before giving up; real servers need one or two (http → https, a trailing slash). */
export const MAX_REDIRECTS = 5

/** Thrown by {@link boundedFetch} when a server keeps redirecting. */
export class TooManyRedirectsError extends Error {
  override readonly name = 'TooManyRedirectsError'
  constructor(
    readonly url: string,
    readonly hops: readonly string[],
  ) {
    super(`more than ${MAX_REDIRECTS} redirects (${hops.slice(0, 3).join(' → ')}${hops.length > 3 ? ' → …' : ''})`)
  }
}

/**
 * `fetch` with `redirect: 'manual'`, following 301/302/303/307/308 itself at most {@link MAX_REDIRECTS}
 * times. A 303 (and a 301/302 after POST, as browsers do) becomes a GET without a body; 307/308 keep the
 * method and body. Headers are kept only while the origin stays the same (an API key must not follow a
 * redirect to another host).
 */
export function boundedFetch(base: typeof fetch): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    let url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    let current: RequestInit = { ...init, redirect: 'manual' }
    const origin = new URL(url).origin
    const hops: string[] = [url]
    for (let hop = 0; ; hop++) {
      const response = await base(url, current)
      const location = response.headers.get('location')
      if (![301, 302, 303, 307, 308].includes(response.status) || location === null) return response
      // Drain the redirect body so the socket can be reused.
      await response.body?.cancel().catch(() => undefined)
      if (hop >= MAX_REDIRECTS) throw new TooManyRedirectsError(url, hops)
      url = new URL(location, url).href
      hops.push(url)
      const method = (current.method ?? 'GET').toUpperCase()
      const toGet = response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')
      current = {
        ...current,
        ...(toGet ? { method: 'GET', body: null } : {}),
        ...(new URL(url).origin === origin ? {} : { headers: {} }),
      }
    }
  }) as typeof fetch
}

/** What went wrong on the wire, as far as the error lets us tell. */
export type NetworkFault =
  | { readonly kind: 'connect'; readonly code?: string }
  | { readonly kind: 'closed'; readonly code?: string }
  | { readonly kind: 'redirects'; readonly detail: string }
  | { readonly kind: 'timeout' }

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT', 'ECONNABORTED'])
const CLOSED_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH'])

/**
 * Classifies a thrown fetch/client error by walking its `cause` chain: a connect-phase code means the
 * server was never reached; a socket closed or reset after connecting (undici's "other side closed",
 * "terminated" while reading the body) means it was reached and hung up mid-reply.
 */
export function classifyNetworkError(error: unknown): NetworkFault | undefined {
  const seen = new Set<unknown>()
  let closed: string | undefined
  let terminated = false
  for (let e: unknown = error; e !== null && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e)
    const { name, message, code, errors } = e as { name?: unknown; message?: unknown; code?: unknown; errors?: unknown }
    if (e instanceof TooManyRedirectsError || name === 'TooManyRedirectsError') return { kind: 'redirects', detail: String(message) }
    if (typeof message === 'string' && /redirect count exceeded/i.test(message)) return { kind: 'redirects', detail: message }
    if (name === 'TimeoutError') return { kind: 'timeout' }
    if (typeof code === 'string' && CONNECT_CODES.has(code)) return { kind: 'connect', code }
    if (typeof code === 'string' && CLOSED_CODES.has(code)) closed ??= code
    if (typeof message === 'string' && /^terminated$|other side closed|socket hang up|premature close/i.test(message)) terminated = true
    // Happy-eyeballs connects fail with an AggregateError holding one error per address.
    if (Array.isArray(errors) && errors.length > 0) {
      const inner = classifyNetworkError(errors[0])
      if (inner !== undefined) return inner
    }
  }
  if (closed !== undefined || terminated) return closed === undefined ? { kind: 'closed' } : { kind: 'closed', code: closed }
  return undefined
}

/** `host[:port]` of a URL, for messages, signatures and cache identities. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** Loopback hosts, where a local server (vLLM, llama.cpp, LM Studio) may run without an API key. */
export function isLocalHost(url: string): boolean {
  let hostname: string
  try {
    hostname = new URL(url).hostname
  } catch {
    return false
  }
  return hostname === 'localhost' || hostname === '::1' || hostname === '[::1]' || /^127\./.test(hostname) || hostname === '0.0.0.0'
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Runs `task` with an abort signal and rejects with a `TimeoutError` after `ms`, even when the task
 * ignores the signal (a user function, a fetch that does not honour it). `describe` names what timed out.
 */
export async function withTimeout<T>(ms: number, describe: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`${describe} did not settle within ${ms} ms`)
      error.name = 'TimeoutError'
      controller.abort(error)
      reject(error)
    }, ms)
  })
  try {
    return await Promise.race([task(controller.signal), timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** At most `n` tasks run at once; the rest wait in FIFO order. */
export function semaphore(n: number): <T>(task: () => Promise<T>) => Promise<T> {
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
