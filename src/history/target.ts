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

/** A URL for messages: without its password. */
export function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, '$1:***@')
}

/**
 * Parses a history target: a path (relative to `root`), `sqlite:PATH`, `file:PATH`, `postgres://…`
 * (recognized, written by a later version), `off`. Any other URL scheme throws a HistoryError naming it.
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
  if (scheme === 'postgres' || scheme === 'postgresql') return { kind: 'postgres', url: text }
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
