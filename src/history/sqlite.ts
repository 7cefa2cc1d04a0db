/**
 * The SQLite backend: `node:sqlite` where the runtime has it without a flag (Node ≥ 22.13), else the
 * optional peer dependency `better-sqlite3`, loaded only when a store is opened. Both are synchronous
 * and share the calls used here (`exec`, `prepare(…).run/all`), so one class wraps either.
 *
 * The store file is opened in WAL mode with a busy timeout, so concurrent writers (parallel CI jobs on
 * one checkout, several reporters) wait for each other instead of failing; each run is one
 * `BEGIN IMMEDIATE … COMMIT` transaction.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { HistoryBackend, SqlValue } from './backend.js'
import { HistoryError } from './errors.js'
import { retryWhileBusy } from './sqlite-busy.js'
import { makeFolderSync } from '../make-folder.js'

/** How long a writer waits for another one's lock before giving up (ms). */
export const BUSY_TIMEOUT_MS = 15_000

interface Statement {
  run(...params: SqlValue[]): { changes: number | bigint }
  all(...params: SqlValue[]): unknown[]
}
interface Database {
  exec(sql: string): void
  prepare(sql: string): Statement
  close(): void
}
type Open = (path: string, options: { readOnly: boolean }) => Database

let cached: { open: Open; binding: string } | undefined

/** `node:sqlite` when the runtime has it unflagged; undefined otherwise (Node 20, early 22). */
function nodeSqlite(): Open | undefined {
  if (process.env.RAG_MATCHERS_SQLITE === 'better-sqlite3') return undefined
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule
  if (typeof get !== 'function') return undefined
  let mod: { DatabaseSync?: new (path: string, options?: { readOnly?: boolean; timeout?: number }) => Database } | undefined
  try {
    mod = get('node:sqlite') as typeof mod
  } catch {
    return undefined
  }
  const DatabaseSync = mod?.DatabaseSync
  if (typeof DatabaseSync !== 'function') return undefined
  return (path, { readOnly }) => new DatabaseSync(path, { readOnly, timeout: BUSY_TIMEOUT_MS })
}

/** `better-sqlite3`, resolved from this package and then from the project (`root`). */
function betterSqlite(root: string): Open | undefined {
  const bases = [import.meta.url, join(root, 'package.json')]
  for (const base of bases) {
    let ctor: unknown
    try {
      ctor = createRequire(base)('better-sqlite3')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') continue
      throw new HistoryError(`better-sqlite3 could not be loaded: ${(error as Error).message.split('\n')[0] ?? ''}`)
    }
    const Ctor = ((ctor as { default?: unknown }).default ?? ctor) as new (
      path: string,
      options?: { readonly?: boolean; timeout?: number; fileMustExist?: boolean },
    ) => Database
    return (path, { readOnly }) => new Ctor(path, { readonly: readOnly, fileMustExist: readOnly, timeout: BUSY_TIMEOUT_MS })
  }
  return undefined
}

/** The binding this runtime uses, loaded once. Throws a HistoryError naming the package when there is none. */
export function sqliteBinding(root: string): { open: Open; binding: string } {
  if (cached) return cached
  const native = nodeSqlite()
  if (native) return (cached = { open: native, binding: 'node:sqlite' })
  const better = betterSqlite(root)
  if (better) return (cached = { open: better, binding: 'better-sqlite3' })
  throw new HistoryError(
    `run history needs SQLite: this Node (${process.version}) has no node:sqlite, and the optional peer dependency better-sqlite3 is not installed (npm install --save-dev better-sqlite3), or turn history off (history: false / RAG_MATCHERS_HISTORY=off)`,
  )
}

function sqliteMessage(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown }
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0] : String(error)
  return typeof e?.code === 'string' && !String(message).includes(e.code) ? `${message} (${e.code})` : String(message)
}

export class SqliteBackend implements HistoryBackend {
  readonly kind = 'sqlite' as const
  private readonly statements = new Map<string, Statement>()
  private depth = 0

  private constructor(
    readonly location: string,
    private readonly db: Database,
    readonly binding: string,
  ) {}

  /**
   * Opens (creating when `create`) the SQLite file at `path`: WAL, busy timeout, foreign keys. A file
   * that is not a database is reported, never rewritten.
   */
  static open(path: string, options: { root: string; create: boolean }): SqliteBackend {
    const { open, binding } = sqliteBinding(options.root)
    if (options.create) {
      try {
        // makeFolderSync: recursive mkdir says ENOENT where the cause is EROFS or EACCES
        makeFolderSync(dirname(path))
      } catch (error) {
        throw new HistoryError(`cannot create the folder of ${path}: ${sqliteMessage(error)}`)
      }
    }
    let db: Database
    try {
      db = open(path, { readOnly: !options.create })
    } catch (error) {
      throw new HistoryError(`cannot open ${path}: ${sqliteMessage(error)}`)
    }
    try {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
      // A read-only open keeps whatever mode the file has; a writer switches it to WAL once (persistent).
      // The switch can be refused without waiting while another writer holds the lock (sqlite-busy.ts).
      if (options.create) retryWhileBusy(() => db.exec('PRAGMA journal_mode = WAL'), BUSY_TIMEOUT_MS)
      db.exec('PRAGMA synchronous = NORMAL')
      // Foreign keys are declared but not enforced on insert: a run is written whole in one transaction, and
      // per-row checks on 200,000 case values would cost seconds; prune deletes child rows itself.
    } catch (error) {
      db.close()
      throw new HistoryError(`cannot use ${path}: ${sqliteMessage(error)}`)
    }
    return new SqliteBackend(path, db, binding)
  }

  ddl(sql: string): string {
    return sql.replaceAll('{{WITHOUT_ROWID}}', 'WITHOUT ROWID').replaceAll('{{BLOB}}', 'BLOB')
  }

  private prepare(sql: string): Statement {
    let s = this.statements.get(sql)
    if (!s) {
      s = this.db.prepare(sql)
      this.statements.set(sql, s)
    }
    return s
  }

  exec(sql: string): Promise<void> {
    this.db.exec(sql)
    return Promise.resolve()
  }

  hasTable(name: string): Promise<boolean> {
    const rows = this.prepare(`SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ?`).all(name) as Array<{ n: number }>
    return Promise.resolve(Number(rows[0]?.n ?? 0) > 0)
  }

  all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return Promise.resolve(this.prepare(sql).all(...params) as T[])
  }

  run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return Promise.resolve(Number(this.prepare(sql).run(...params).changes))
  }

  runMany(sql: string, rows: ReadonlyArray<readonly SqlValue[]>): Promise<void> {
    const s = this.prepare(sql)
    for (const row of rows) s.run(...row)
    return Promise.resolve()
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return fn()
    this.db.exec('BEGIN IMMEDIATE')
    this.depth += 1
    try {
      const out = await fn()
      this.db.exec('COMMIT')
      return out
    } catch (error) {
      try {
        this.db.exec('ROLLBACK')
      } catch {
        // The transaction is already gone (SQLite rolled it back itself).
      }
      throw error
    } finally {
      this.depth -= 1
    }
  }

  close(): Promise<void> {
    this.statements.clear()
    this.db.close()
    return Promise.resolve()
  }
}

export { sqliteMessage }
