/**
 * Where history goes: the reporter option `history` (false, or a path/URL) and the environment variable
 * `RAG_MATCHERS_HISTORY` (`off`, or a path/URL; it wins over the option). Default: the SQLite file
 * `.rag-matchers/history.sqlite` under the project root.
 */
import { isAbsolute, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HistoryError } from './errors.js'

export const HISTORY_ENV = 'RAG_MATCHERS_HISTORY'
export const DEFAULT_HISTORY_DIR = '.rag-matchers'
export const DEFAULT_HISTORY_FILE = '.rag-matchers/history.sqlite'

export type HistoryTarget = { readonly kind: 'off' } | { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string }

const OFF = new Set(['off', 'false', '0', 'no', 'none'])

/**
 * A URL for messages: without its password. Everything between `user:` and the last `@` goes, so a
 * password with a raw `@`, `/` or `#` (a malformed URL, named in an error) is not shown either; so does a
 * `password=` query parameter.
 */
export function redactUrl(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:(?:\/\/)?)([^]*)$/i.exec(url)
  if (!m) return url
  const [, scheme, rest] = m as unknown as [string, string, string]
  const at = rest.lastIndexOf('@')
  let out = rest
  if (at >= 0) {
    const userinfo = rest.slice(0, at)
    const colon = userinfo.indexOf(':')
    if (colon >= 0) out = `${userinfo.slice(0, colon)}:***${rest.slice(at)}`
  }
  return `${scheme}${out.replace(/([?&]password=)[^&#]*/gi, '$1***')}`
}

/**
 * Checks a `postgres://` URL the way the driver will read it, so a malformed one is a usage error naming
 * what is wrong (with the password hidden) before any connection is tried. Host, port, database and
 * user may be left out (libpq's defaults: localhost, 5432, the user's name).
 */
function checkPostgresUrl(text: string): void {
  const bad = (why: string): never => {
    throw new HistoryError(`malformed PostgreSQL URL '${redactUrl(text)}': ${why} (expected postgres://user:password@host:port/database)`, 'usage')
  }
  if (!/^postgres(?:ql)?:\/\//i.test(text)) bad('it must start with postgres:// (or postgresql://)')
  // The port is not echoed: with a raw `/` or `#` in the password, what the parser takes for the port is part of it.
  const authority = /^[^:]+:\/\/([^/?#]*)/.exec(text)?.[1] ?? ''
  const port = /^(?:\[[^\]]*\]|[^:[]*):(.*)$/.exec(authority.slice(authority.lastIndexOf('@') + 1))?.[1]
  if (port !== undefined && port !== '') {
    if (!/^\d+$/.test(port)) bad('the port is not a number (in a password, write / @ : # ? as %-escapes)')
    if (Number(port) < 1 || Number(port) > 65535) bad('the port is not from 1 to 65535')
  }
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return bad('not a valid URL (in a password, write / @ : # ? as %-escapes)')
  }
  for (const [what, part] of [
    ['user name', url.username],
    ['password', url.password],
    ['database name', url.pathname.slice(1)],
  ] as const) {
    try {
      decodeURIComponent(part)
    } catch {
      bad(`the ${what} has a % that is not a %-escape (write % as %25)`)
    }
  }
  if (url.pathname.slice(1).includes('/')) bad('the database name has a /')
  if (url.hash !== '') bad('a # in the URL (write # in a password as %23)')
}

/**
 * Parses a history target: a path (relative to `root`), `sqlite:PATH`, `file:PATH`, `postgres://…` or
 * `postgresql://…` (checked: a malformed URL throws a usage HistoryError), `off`. Any other URL scheme
 * throws a HistoryError naming it.
 *
 * @example
 * parseTarget('.rag-matchers/history.sqlite', '/repo') // { kind: 'sqlite', path: '/repo/.rag-matchers/history.sqlite' }
 */
export function parseTarget(value: string, root: string): HistoryTarget {
  const text = value.trim()
  if (OFF.has(text.toLowerCase())) return { kind: 'off' }
  if (text === '') return { kind: 'sqlite', path: resolve(root, DEFAULT_HISTORY_FILE) }
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(text)?.[1]?.toLowerCase()
  if (scheme === undefined) return { kind: 'sqlite', path: isAbsolute(text) ? text : resolve(root, text) }
  if (scheme === 'postgres' || scheme === 'postgresql') {
    checkPostgresUrl(text)
    return { kind: 'postgres', url: text }
  }
  if (scheme === 'file' && text.startsWith('file://')) return { kind: 'sqlite', path: fileURLToPath(text) }
  if (scheme === 'sqlite' || scheme === 'file') {
    const rest = text.slice(scheme.length + 1).replace(/^\/\/(?=\/)/, '')
    if (rest === '') throw new HistoryError(`history target '${text}' names no file`, 'usage')
    return { kind: 'sqlite', path: isAbsolute(rest) ? rest : resolve(root, rest) }
  }
  throw new HistoryError(`unknown history store scheme '${scheme}:' in '${redactUrl(text)}' (use a SQLite file path, sqlite:PATH, or postgres://…)`, 'usage')
}

/**
 * The target of a reporter: `RAG_MATCHERS_HISTORY` when set, else the option (`false` turns it off,
 * a string is a target), else the default file under `root`.
 */
export function resolveTarget(option: string | boolean | undefined, root: string, env: NodeJS.ProcessEnv = process.env): HistoryTarget {
  const fromEnv = env[HISTORY_ENV]
  if (fromEnv !== undefined && fromEnv.trim() !== '') return parseTarget(fromEnv, root)
  if (option === false) return { kind: 'off' }
  if (typeof option === 'string' && option.trim() !== '') return parseTarget(option, root)
  return { kind: 'sqlite', path: resolve(root, DEFAULT_HISTORY_FILE) }
}

/** A target for messages. */
export function targetText(target: HistoryTarget): string {
  return target.kind === 'sqlite' ? target.path : target.kind === 'postgres' ? redactUrl(target.url) : 'off'
}
