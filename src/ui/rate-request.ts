/**
 * What a rating request must be before its body is even looked at (server.ts, rate mode). A page on
 * another site can make a browser send a simple POST to 127.0.0.1 (a form, `fetch` with `no-cors`), but it
 * cannot add a custom header or a JSON content type without a CORS preflight, which this server never
 * answers with permission; and a browser names the page's origin in `Origin` and `Sec-Fetch-Site`. So a
 * rating needs the header `X-Rag-Matchers: rate`, `Content-Type: application/json`, and an `Origin`
 * (when sent) that is this server's own address, as the Host header names it (itself checked by
 * hostAllowed: a DNS-rebinding page sends its own host name).
 */
import type { IncomingMessage } from 'node:http'

/** The one path that writes. */
export const RATE_PATH = '/api/rate'
/** The header the app sends with each rating; a cross-site page cannot send it without a preflight. */
export const RATE_HEADER = 'x-rag-matchers'
export const RATE_HEADER_VALUE = 'rate'
/** A rating is a few short fields: a larger body is refused unread. */
export const MAX_RATE_BODY = 16 * 1024

/** A request refused before its body is checked: the status and the message of the JSON answer. */
export class RateRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** Checks origin, header, type and size, and parses the JSON body (its fields are the desk's to check). */
export async function readRateRequest(req: IncomingMessage): Promise<unknown> {
  const h = req.headers
  const site = h['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin') throw new RateRequestError(403, `a rating must come from this server's own page (Sec-Fetch-Site: ${site})`)
  const origin = h.origin
  if (origin !== undefined && origin !== `http://${h.host ?? ''}`) throw new RateRequestError(403, `a rating must come from this server's own page, not ${origin}`)
  if (h[RATE_HEADER] !== RATE_HEADER_VALUE) throw new RateRequestError(403, `a rating needs the header X-Rag-Matchers: ${RATE_HEADER_VALUE} (the app sends it)`)
  const type = (h['content-type'] ?? '').split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/json') throw new RateRequestError(415, 'a rating is sent as Content-Type: application/json')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_RATE_BODY) throw new RateRequestError(413, `a rating is at most ${MAX_RATE_BODY} bytes`)
    chunks.push(chunk)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown
  } catch (error) {
    throw new RateRequestError(400, `the body is not JSON: ${(error as Error).message}`)
  }
}
