import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'

/** Default folder name for recorded judge replies; meant to be committed next to the tests. */
export const DEFAULT_JUDGE_CACHE_DIR = '__rag_judge_cache__'

/** Tag written into every entry; bump it when the entry layout changes. */
export const JUDGE_CACHE_FORMAT = 'rag-matchers/judge-cache@1'

/**
 * - `readwrite` (default): serve hits, call the model on a miss and record the reply;
 * - `read`: serve hits, call the model on a miss but never write (e.g. CI on a read-only checkout);
 * - `off`: neither read nor write;
 * - `replay`: serve hits only; a miss FAILS (no model needed: CI without Ollama).
 */
export type JudgeCacheMode = 'readwrite' | 'read' | 'off' | 'replay'

const MODES: readonly JudgeCacheMode[] = ['readwrite', 'read', 'off', 'replay']

/** One recorded request and its validated reply, stored as `<dir>/<key>.json`. */
export interface JudgeCacheEntry {
  readonly format: typeof JUDGE_CACHE_FORMAT
  /** sha256 over model, options, schema and messages (see `ollama-judge.ts`). */
  readonly key: string
  /** Template step that produced the prompt, for reviewers (`groundedness.verify@1a2b3c4d`). */
  readonly template: string
  readonly model: string
  readonly options: Readonly<Record<string, unknown>>
  readonly schema: unknown
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
  readonly reply: { readonly content: string; readonly value: unknown; readonly attempts: number }
}

export type CacheRead = { readonly status: 'hit'; readonly entry: JudgeCacheEntry } | { readonly status: 'miss' } | { readonly status: 'corrupt'; readonly problem: string }

export interface JudgeCache {
  readonly dir: string
  readonly mode: JudgeCacheMode
  /** Absolute or dir-relative path of the entry file for `key`. */
  fileFor(key: string): string
  /**
   * Reads the entry for `key`. `accept` returns problems with a parsed entry (e.g. the value no longer
   * matches the schema); any problem, unreadable JSON or a key mismatch makes the read `corrupt`, and a
   * warning is emitted. Never throws for a missing or broken file.
   */
  read(key: string, accept?: (entry: JudgeCacheEntry) => readonly string[]): Promise<CacheRead>
  /** Writes atomically (temp file in the same folder + rename): readers see the old entry or the new one, never a part. */
  write(entry: JudgeCacheEntry): Promise<void>
}

export interface JudgeCacheOptions {
  /** Folder holding one JSON file per entry; created on first write. The core never picks it for you. */
  readonly dir: string
  /** @default 'readwrite' */
  readonly mode?: JudgeCacheMode
  /** Receives warnings (corrupt entries). Defaults to `process.emitWarning` with type `RagJudgeCacheWarning`. */
  readonly onWarning?: (message: string) => void
}

/** The keys of {@link JudgeCacheOptions}: what judgeCache accepts. */
export const JUDGE_CACHE_OPTION_KEYS = keysOf<JudgeCacheOptions>()('dir', 'mode', 'onWarning')

/**
 * A content-addressed, committable cache of judge replies: one pretty-printed JSON file per request,
 * named by the sha256 of the request, so a re-run with the same model, options, schema and prompt is
 * served from disk and a changed prompt is a new entry (old ones can be deleted by hand).
 *
 * Parallel test workers may write the same entry at the same time: each writes its own temp file and
 * renames it over the target, which POSIX makes atomic, so the last complete write wins and no reader
 * sees a torn file. A corrupt entry (bad JSON, wrong key, value failing the schema) is treated as a miss,
 * with a warning, and is rewritten on the next successful call in `readwrite` mode.
 *
 * @example
 * const cache = judgeCache({ dir: 'test/__rag_judge_cache__', mode: process.env.CI ? 'replay' : 'readwrite' })
 * const judge = ollamaJudge({ model: 'llama3.1:8b', cache })
 */
export function judgeCache(options: JudgeCacheOptions): JudgeCache {
  if (options === null || typeof options !== 'object') throw new MetricInputError('judgeCache', 'options', 'an object with `dir`', options)
  checkOptionKeys('judgeCache', options, JUDGE_CACHE_OPTION_KEYS)
  const { dir, mode = 'readwrite' } = options
  if (typeof dir !== 'string' || dir.length === 0) throw new MetricInputError('judgeCache', 'dir', 'a non-empty folder path', dir)
  if (!MODES.includes(mode)) throw new MetricInputError('judgeCache', 'mode', `one of ${MODES.map((m) => `'${m}'`).join(', ')}`, mode)
  const warn = options.onWarning ?? ((message: string) => process.emitWarning(message, 'RagJudgeCacheWarning'))

  const fileFor = (key: string): string => {
    // Keys are hex digests; anything else must not be able to escape the folder.
    if (!/^[0-9a-f]{64}$/.test(key)) throw new MetricInputError('judgeCache', 'key', 'a sha256 hex digest', key)
    return join(dir, `${key}.json`)
  }

  return {
    dir,
    mode,
    fileFor,
    async read(key, accept) {
      const file = fileFor(key)
      let text: string
      try {
        text = await readFile(file, 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'miss' }
        const problem = `cannot read ${file}: ${(error as Error).message}`
        warn(`rag-matchers judge cache: ${problem}; ignoring the entry.`)
        return { status: 'corrupt', problem }
      }
      const problem = entryProblem(text, key, accept)
      if (problem === undefined) return { status: 'hit', entry: JSON.parse(text) as JudgeCacheEntry }
      warn(`rag-matchers judge cache: corrupt entry ${file} (${problem}); ignoring it${mode === 'readwrite' ? ', it will be rewritten' : ''}.`)
      return { status: 'corrupt', problem }
    },
    async write(entry) {
      const file = fileFor(entry.key)
      await mkdir(dir, { recursive: true })
      const temp = `${file}.${process.pid}-${threadId}-${randomUUID()}.tmp`
      await writeFile(temp, `${JSON.stringify(entry, null, 2)}\n`, 'utf8')
      try {
        await rename(temp, file)
      } catch (error) {
        await unlink(temp).catch(() => undefined)
        // Windows refuses to rename over a file another process has open; that process is writing the
        // same content-addressed entry, so losing this copy loses nothing.
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY') throw error
      }
    },
  }
}

function entryProblem(text: string, key: string, accept?: (entry: JudgeCacheEntry) => readonly string[]): string | undefined {
  let entry: unknown
  try {
    entry = JSON.parse(text)
  } catch (error) {
    return `invalid JSON: ${(error as Error).message}`
  }
  if (entry === null || typeof entry !== 'object') return 'not a JSON object'
  const e = entry as Partial<JudgeCacheEntry>
  if (e.format !== JUDGE_CACHE_FORMAT) return `format is ${JSON.stringify(e.format)}, expected ${JSON.stringify(JUDGE_CACHE_FORMAT)}`
  if (e.key !== key) return `key ${JSON.stringify(e.key)} does not match the file name`
  if (e.reply === null || typeof e.reply !== 'object' || typeof e.reply.content !== 'string' || !('value' in e.reply)) return 'missing reply'
  const problems = accept?.(e as JudgeCacheEntry) ?? []
  return problems.length > 0 ? problems.slice(0, 3).join('; ') : undefined
}
