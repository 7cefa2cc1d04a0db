/**
 * Loading a resource (see src/ui/keys.ts): from the server (`api/<name>`), or in a static export from
 * `data/<name>.js`, a script of the export's own folder that hands its JSON to `ragUiData` (a page
 * opened from disk may load scripts next to it, but may not fetch files).
 */

import { requestResource } from './route.js'

/** The resource does not exist: an unknown run, set or case, or a comparison the export did not write. */
export class NotFoundError extends Error {}

export const mode: 'server' | 'static' = document.querySelector('meta[name="rag-ui-mode"]')?.getAttribute('content') === 'static' ? 'static' : 'server'

const cache = new Map<string, Promise<unknown>>()
const waiting = new Map<string, (value: unknown) => void>()

declare global {
  interface Window {
    ragUiData?: (name: string, value: unknown) => void
  }
}
window.ragUiData = (name: string, value: unknown) => {
  waiting.get(name)?.(value)
  waiting.delete(name)
}

function fromScript(name: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = `data/${name}.js`
    waiting.set(name, resolve)
    script.addEventListener('error', () => {
      waiting.delete(name)
      reject(new NotFoundError(`${name} is not in this export`))
    })
    // the data script calls ragUiData before its load event; a script without that call is not ours
    script.addEventListener('load', () => {
      script.remove()
      if (waiting.has(name)) {
        waiting.delete(name)
        reject(new Error(`data/${name}.js did not hold ${name}`))
      }
    })
    document.head.appendChild(script)
  })
}

/** The requests boot.ts made before the app loaded: taken once, each answer used once, forgotten by clearCache(). */
const early = window.ragUiEarly ?? new Map<string, Promise<Response>>()
delete window.ragUiEarly

/** boot.ts's answer for `name` when it has one, else a new request. */
function request(name: string): Promise<Response> {
  const answer = early.get(name)
  if (answer === undefined) return requestResource(name)
  early.delete(name)
  return answer.catch(() => requestResource(name))
}

async function fromServer(name: string): Promise<unknown> {
  const res = await request(name)
  const body = (await res.json().catch(() => ({}))) as { error?: string }
  if (res.status === 404) throw new NotFoundError(body.error ?? `${name} not found`)
  if (!res.ok) throw new Error(body.error ?? `the server answered ${res.status}`)
  return body
}

/** The resource, loaded once until clearCache(). */
export function load<T>(name: string): Promise<T> {
  let p = cache.get(name)
  if (!p) {
    p = mode === 'static' ? fromScript(name) : fromServer(name)
    cache.set(name, p)
    // a failure is asked again next time; a 404 stands until a new run lands (clearCache)
    p.catch((error: unknown) => {
      if (!(error instanceof NotFoundError)) cache.delete(name)
    })
  }
  return p as Promise<T>
}

/** Polled without the cache: the newest run id. */
export async function latest(): Promise<{ latest: string | null; runs: number }> {
  return (await fromServer('latest')) as { latest: string | null; runs: number }
}

/** Forget what was loaded (a new run landed: every list and series changed). */
export function clearCache(): void {
  cache.clear()
  early.clear()
}
