/**
 * Which history store a command reads (`rag-matchers history`, `rag-matchers compare` with run references):
 * the one given (`--store` / `--history`), else `RAG_MATCHERS_HISTORY` (unless off), else the nearest
 * `.rag-matchers/history.sqlite` from the current folder up, so a command run in a subfolder finds the
 * project's store.
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { DEFAULT_HISTORY_FILE, HISTORY_ENV, parseTarget, type HistoryTarget } from '../src/history/target.js'

export function historyTarget(given: string | undefined, cwd: string, env: NodeJS.ProcessEnv = process.env): HistoryTarget {
  if (given !== undefined) return parseTarget(given, cwd)
  const fromEnv = env[HISTORY_ENV]
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const t = parseTarget(fromEnv, cwd)
    if (t.kind !== 'off') return t
  }
  for (let dir = cwd; ; dir = dirname(dir)) {
    const file = join(dir, DEFAULT_HISTORY_FILE)
    if (existsSync(file)) return { kind: 'sqlite', path: file }
    if (dirname(dir) === dir) break
  }
  return { kind: 'sqlite', path: resolve(cwd, DEFAULT_HISTORY_FILE) }
}
