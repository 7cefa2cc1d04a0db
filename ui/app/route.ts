/**
 * The hash route and the resource a page needs besides the index. Shared by the app and by boot.ts,
 * which asks for both before the app's script has even been parsed.
 */
import { keyOf } from '../../src/ui/keys.js'

export interface Route {
  readonly page: string
  readonly parts: readonly string[]
  readonly query: URLSearchParams
}

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#\/?/, '')
  const [path = '', search = ''] = text.split('?', 2)
  const parts =
    path === ''
      ? []
      : path.split('/').map((p) => {
          try {
            return decodeURIComponent(p)
          } catch {
            return p
          }
        })
  return { page: parts[0] ?? 'runs', parts: parts.slice(1), query: new URLSearchParams(search) }
}

/** The page's own resource (loaded alongside the index: both are needed before anything is drawn), if it has one. */
export function pageResource(r: Route): string | undefined {
  if (r.page === 'runs') return `runs/${Math.max(0, Number.parseInt(r.parts[0] ?? '0', 10) || 0)}`
  if (r.page === 'set' && r.parts[0] !== undefined) return `set/${keyOf(r.parts[0])}`
  if (r.page === 'run' && r.parts[0] !== undefined && /^[0-9a-f]{1,64}$/.test(r.parts[0])) return `run/${r.parts[0]}`
  if (r.page === 'compare') return 'runlist'
  return undefined
}

/** The request of resource `name` from the server (boot.ts and data.ts ask the same way). */
export function requestResource(name: string): Promise<Response> {
  return fetch(`api/${name}`, { headers: { Accept: 'application/json' }, cache: 'no-store' })
}
