/**
 * The one interface a history store talks to. SQLite implements it today (src/history/sqlite.ts); a
 * PostgreSQL backend implements the same methods over the same schema (src/history/schema.ts): every
 * statement the store sends uses `?` placeholders, portable types (TEXT, INTEGER, DOUBLE PRECISION, and
 * `{{BLOB}}` for bytes) and no autoincrement (keys are the run id and positions), so a backend only maps
 * `?` to its own placeholders and the DDL markers `{{WITHOUT_ROWID}}` and `{{BLOB}}` to what it has. The methods are asynchronous because a
 * network database is; the SQLite backend answers at once.
 */

/** A value bound to a placeholder: booleans are stored as 0/1, absent values as null, bytes (a `{{BLOB}}` column) as a Uint8Array. */
export type SqlValue = string | number | bigint | null | Uint8Array

export type BackendKind = 'sqlite' | 'postgres'

export interface HistoryBackend {
  readonly kind: BackendKind
  /** Where the store is, for messages: a file path or a URL without its password. */
  readonly location: string
  /** Runs DDL (several statements separated by `;`), with `{{WITHOUT_ROWID}}` and `{{BLOB}}` already mapped by the caller through {@link HistoryBackend.ddl}. */
  exec(sql: string): Promise<void>
  /** Maps the schema's dialect markers for this backend. */
  ddl(sql: string): string
  /** Whether the store has table `name` (SQLite: sqlite_master; PostgreSQL: information_schema). */
  hasTable(name: string): Promise<boolean>
  all<T = Record<string, unknown>>(sql: string, params?: readonly SqlValue[]): Promise<T[]>
  /** Runs one statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>
  /** Runs one statement once per parameter row (a prepared statement, or a multi-row insert). */
  runMany(sql: string, rows: ReadonlyArray<readonly SqlValue[]>): Promise<void>
  /**
   * Runs `fn` in one write transaction: all of it is stored or none. SQLite takes the write lock at the
   * start (`BEGIN IMMEDIATE`), waiting for other writers up to the busy timeout.
   */
  transaction<T>(fn: () => Promise<T>): Promise<T>
  close(): Promise<void>
}
