import { randomUUID } from 'node:crypto'
import { readFile, rename, unlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { MetricInputError } from '../errors.js'
import { makeFolder } from '../make-folder.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { JudgeError } from './errors.js'
import { canonicalJson, sha256Hex } from './hash.js'

/** Default folder name for recorded judge replies; meant to be committed next to the tests. */
export const DEFAULT_JUDGE_CACHE_DIR = '__rag_judge_cache__'

/** Tag written into every entry; bump it when the entry layout changes. */
export const JUDGE_CACHE_FORMAT = 'rag-matchers/judge-cache@2'

/**
 * - `readwrite` (default): serve hits, call the model on a miss and record the reply;
 * - `read`: serve hits, call the model on a miss but never write (e.g. CI on a read-only checkout);
 * - `off`: neither read nor write;
 * - `replay`: serve hits only; a miss FAILS (no model needed: CI without Ollama).
 */
export type JudgeCacheMode = 'readwrite' | 'read' | 'off' | 'replay'

const MODES: readonly JudgeCacheMode[] = ['readwrite', 'read', 'off', 'replay']

/**
 * Which server answered, as far as it changes the answer: `{ kind: 'ollama' }` (the Ollama host is left
 * out on purpose: the same model tag gives the same weights anywhere), `{ kind: 'openai', host }` (an
 * OpenAI-compatible server: `gpt-4o` on api.openai.com and a local model served under that name differ),
 * `{ kind: 'function', id }`.
 */
export interface JudgeBackendIdentity {
  readonly kind: string
  readonly host?: string
  readonly id?: string
}

/** The request part of an entry: everything its key is computed from. */
export interface JudgeCacheRequest {
  /** Template step that produced the prompt, its version hash included (`groundedness.verify@1a2b3c4d`). */
  readonly template: string
  /** Absent in entries of judges that predate backends; treated as Ollama. */
  readonly backend?: JudgeBackendIdentity
  readonly model: string
  readonly options: Readonly<Record<string, unknown>>
  readonly schema: unknown
  readonly messages: ReadonlyArray<{ readonly role: string; readonly content: string }>
}

/** One recorded request and its validated reply, stored as `<dir>/<key>.json`. */
export interface JudgeCacheEntry extends JudgeCacheRequest {
  readonly format: typeof JUDGE_CACHE_FORMAT
  /** {@link judgeCacheKey} of the request part; also the file name. */
  readonly key: string
  /**
   * `content` is what the model said; `value` is its parse, kept for readers (the cache re-parses
   * `content` on every read and refuses an entry whose `value` differs or is missing). `sha256` is the
   * digest of the key and `content` ({@link judgeReplyDigest}), written by the cache: an entry whose
   * content was edited by hand (or copied from another entry) no longer matches it and is never replayed.
   * `model` is the model the server said answered, `mode` how structured output was requested
   * (OpenAI-compatible servers).
   */
  readonly reply: {
    readonly content: string
    readonly value: unknown
    /** Set by {@link JudgeCache.write}; required on read. */
    readonly sha256?: string
    readonly attempts: number
    readonly model?: string
    readonly mode?: string
    /** Tokens the server reported when the reply was recorded (summed over its attempts). */
    readonly usage?: { readonly promptTokens: number; readonly completionTokens: number }
  }
}

/**
 * The content address of a judge request: sha256 of the canonical JSON of backend, model, options,
 * schema, messages and template version. Recomputed from the stored request on every read, so an entry
 * edited to another model, prompt or template no longer matches its file name and is never replayed.
 */
export function judgeCacheKey(request: JudgeCacheRequest): string {
  return sha256Hex(
    canonicalJson({
      backend: request.backend ?? { kind: 'ollama' },
      model: request.model,
      options: request.options,
      format: request.schema,
      messages: request.messages,
      template: request.template,
    }),
  )
}

/**
 * The digest stored with a reply: sha256 of the canonical JSON of the entry's key and the reply's
 * content, so the reply is bound both to its request and to its own text. It detects an edited or
 * transplanted reply; it is not a signature (whoever edits the file can recompute it on purpose).
 */
export function judgeReplyDigest(key: string, content: string): string {
  return sha256Hex(canonicalJson({ key, content }))
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
  /** Reports a problem that does not fail the assertion (a corrupt entry, a failed write). */
  warn?(message: string): void
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
        const problem = `cannot read ${file}: ${fsCause(error, dir)}`
        warn(`rag-matchers judge cache: ${problem}; ignoring the entry.`)
        return { status: 'corrupt', problem }
      }
      const checked = checkEntry(text, key, accept)
      if (typeof checked !== 'string') return { status: 'hit', entry: checked }
      warn(`rag-matchers judge cache: corrupt entry ${file} (${checked}); ignoring it${mode === 'readwrite' ? ', it will be rewritten' : ''}.`)
      return { status: 'corrupt', problem: checked }
    },
    async write(entry) {
      const file = fileFor(entry.key)
      const actual = judgeCacheKey(entry)
      if (actual !== entry.key)
        throw new JudgeError('cache-write', `Judge cache: refusing to write ${file}: the entry's request hashes to ${actual}, not to its key.`, { dir, file })
      const temp = `${file}.${process.pid}-${threadId}-${randomUUID()}.tmp`
      const sealed: JudgeCacheEntry = { ...entry, reply: { ...entry.reply, sha256: judgeReplyDigest(entry.key, entry.reply.content) } }
      try {
        // EROFS, not the ENOENT a recursive mkdir answers on a read-only file system (src/make-folder.ts)
        await makeFolder(dir)
        await writeFile(temp, `${JSON.stringify(sealed, null, 2)}\n`, 'utf8')
      } catch (error) {
        await unlink(temp).catch(() => undefined)
        throw writeError(dir, file, error)
      }
      try {
        await rename(temp, file)
      } catch (error) {
        await unlink(temp).catch(() => undefined)
        // Windows refuses to rename over a file another process has open; that process is writing the
        // same content-addressed entry, so losing this copy loses nothing.
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY') throw writeError(dir, file, error)
      }
    },
    warn,
  }
}

/** A failed write as a `cache-write` JudgeError naming the folder, the entry and what the OS said. */
function writeError(dir: string, file: string, error: unknown): JudgeError {
  return new JudgeError('cache-write', `Judge cache folder ${dir}: cannot write ${file}: ${fsCause(error, dir)}.`, {
    dir,
    file,
    code: (error as NodeJS.ErrnoException).code,
  })
}

/** The OS error in words a user can act on (the codes alone are cryptic). */
function fsCause(error: unknown, dir: string): string {
  const code = (error as NodeJS.ErrnoException).code
  const message = (error as Error).message ?? String(error)
  if (code === 'ENOTDIR' || code === 'EEXIST') return `${dir} (or a folder above it) is a file, not a folder (${code}); move it away or pick another cache dir`
  if (code === 'EISDIR') return `the entry path is a folder, not a file (EISDIR); delete that folder`
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code}); use mode 'read' on a read-only checkout`
  if (code === 'EROFS') return `read-only file system (EROFS); use mode 'read' or 'replay' on a read-only checkout`
  return message
}

/**
 * The entry in `text` when it is sound, else what is wrong with it. Sound means: the right format, the
 * stored key and the key recomputed from the stored request both equal the file name, `reply.content`
 * parses and `reply.value` is that parse (the value handed back is always the parse of the content),
 * `reply.sha256` is the digest of the key and the content, `reply.value` is present, the model that
 * answered (when recorded) is the requested one, and `accept` finds no problem.
 */
function checkEntry(text: string, key: string, accept?: (entry: JudgeCacheEntry) => readonly string[]): JudgeCacheEntry | string {
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
  if (typeof e.model !== 'string' || typeof e.template !== 'string' || !Array.isArray(e.messages) || e.options === null || typeof e.options !== 'object') {
    return 'missing request fields (model, template, options, messages)'
  }
  let actual: string
  try {
    actual = judgeCacheKey(e as JudgeCacheRequest)
  } catch (error) {
    return `cannot hash the stored request: ${(error as Error).message}`
  }
  if (actual !== key)
    return `its stored request (backend, model, options, schema, messages, template) hashes to ${actual}, not to the file name: the entry was edited or belongs to another request`
  const reply = e.reply
  if (reply === null || typeof reply !== 'object' || typeof reply.content !== 'string') return 'missing reply.content'
  let parsed: unknown
  try {
    parsed = JSON.parse(reply.content)
  } catch (error) {
    return `reply.content is not JSON (${(error as Error).message})`
  }
  if (typeof reply.sha256 !== 'string')
    return 'reply.sha256 is missing, so its content cannot be checked against the request: the entry does not match its request (re-record it in readwrite mode)'
  if (reply.sha256 !== judgeReplyDigest(key, reply.content))
    return 'reply.content does not match reply.sha256: the reply was edited (or copied from another entry), so the entry does not match its request'
  if (!('value' in reply)) return 'reply.value is missing: the entry does not match its request'
  if (canonicalJson(reply.value) !== canonicalJson(parsed)) return 'reply.value differs from the parse of reply.content'
  if (reply.model !== undefined && !sameModel(e.model, reply.model))
    return `the reply came from model ${JSON.stringify(reply.model)}, not the requested ${JSON.stringify(e.model)}`
  const sound = { ...(e as JudgeCacheEntry), reply: { ...reply, value: parsed } } as JudgeCacheEntry
  const problems = accept?.(sound) ?? []
  return problems.length > 0 ? problems.slice(0, 3).join('; ') : sound
}

/**
 * Whether a server's `model` answer names the requested model: equal, Ollama's implicit `:latest`
 * tag, or a dated snapshot of an alias (`gpt-4o-mini` answered by `gpt-4o-mini-2024-07-18`).
 */
export function sameModel(requested: string, answered: string): boolean {
  if (requested === answered) return true
  const bare = (m: string): string => m.replace(/:latest$/, '')
  if (bare(requested) === bare(answered)) return true
  return answered.startsWith(`${requested}-`) && /^-\d{4}-?\d{2}-?\d{2}$|^-\d{4}$/.test(answered.slice(requested.length))
}
