/**
 * Loading a resource (see src/ui/keys.ts): from the server (`api/<name>`), or in a static export from
 * `data/<name>.js`, a script of the export's own folder that hands its JSON to `ragUiData` (a page
 * opened from disk may load scripts next to it, but may not fetch files).
 */

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

async function fromServer(name: string): Promise<unknown> {
  const res = await fetch(`api/${name}`, { headers: { Accept: 'application/json' }, cache: 'no-store' })
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
    p.catch(() => cache.delete(name))
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
}
