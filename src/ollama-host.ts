/** Where Ollama listens when nothing says otherwise. */
export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434'

/**
 * `OLLAMA_HOST` as Ollama itself reads it: `host`, `host:port` or a URL; no scheme means http on port
 * 11434; `0.0.0.0` (a listen address) is reached on 127.0.0.1. Empty or unset gives the default.
 * Returns the origin (`http://127.0.0.1:11434`), or `undefined` when the value is not a host at all.
 *
 * @example resolveOllamaHost('localhost') // 'http://localhost:11434'
 * @example resolveOllamaHost('https://ollama.internal') // 'https://ollama.internal'
 */
export function resolveOllamaHost(raw: string | undefined): string | undefined {
  const value = raw?.trim() ?? ''
  if (value === '') return DEFAULT_OLLAMA_HOST
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
  let url: URL
  try {
    url = new URL(hasScheme ? value : `http://${value}`)
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  // Without a scheme Ollama defaults the port to 11434; with one, the scheme's own port applies.
  if (!hasScheme && url.port === '') url.port = '11434'
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1'
  if (url.hostname === '[::]') url.hostname = '[::1]'
  return url.origin
}

/**
 * The host the Ollama clients use when none is passed: `OLLAMA_HOST`, as every Ollama tool reads it,
 * else 127.0.0.1:11434. This is the one place the core reads the environment, because users expect
 * the variable they already set for `ollama` itself to apply. An unusable value is an error, not a
 * silent fallback to another server.
 */
export function defaultOllamaHost(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const raw = env['OLLAMA_HOST']
  const host = resolveOllamaHost(raw)
  if (host === undefined) throw new Error(`OLLAMA_HOST=${JSON.stringify(raw)} is not a host, host:port or http(s) URL`)
  return host
}
