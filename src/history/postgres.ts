/**
 * The PostgreSQL backend, for teams whose CI runs on many machines: `RAG_MATCHERS_HISTORY=postgres://…`
 * puts every branch and shard in one history, with the same schema as the SQLite file. The driver is the
 * optional peer dependency `pg`, loaded only when such a store is opened.
 *
 * One connection per store. Every write transaction first takes a transaction-level advisory lock, so
 * writers queue as they do on SQLite (`BEGIN IMMEDIATE`): the store's check-then-insert (a report already
 * stored adds nothing, a migration read again under the lock) stays correct with any number of CI
 * shards, without SERIALIZABLE retries.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { HistoryBackend, SqlValue } from './backend.js'
import { HistoryError } from './errors.js'
import { redactUrl } from './target.js'

/** How long a connection attempt may take before the store counts as unreachable (ms). */
export const CONNECT_TIMEOUT_MS = 10_000
/** How long a writer waits for another writer's transaction (ms); SQLite's busy timeout is 15 s, but a PostgreSQL store is shared by whole CI fleets. */
export const LOCK_TIMEOUT_MS = 120_000
/** The advisory lock every write transaction holds (per database): "rag-matchers history" as a 64-bit key. */
const LOCK_KEY = '7233857512476020071'
/** Rows per multi-row INSERT: fewer round trips, while keeping each statement well under the protocol's 65,535 parameters. */
const MAX_BATCH_ROWS = 1000
const MAX_PARAMS = 65_535

interface QueryResult {
  rows: unknown[]
  rowCount: number | null
}
interface Client {
  connect(): Promise<void>
  query(text: string, values?: unknown[]): Promise<QueryResult>
  end(): Promise<void>
  on(event: 'error', listener: (error: Error) => void): unknown
}
type TypeParser = (text: string) => unknown
interface PgModule {
  Client: new (config: Record<string, unknown>) => Client
  types: { getTypeParser(oid: number, format?: string): TypeParser }
}

let cachedPg: PgModule | undefined

/** `pg`, resolved from this package and then from the project (`root`); a HistoryError naming the package when it is not installed. */
export function loadPg(root: string): PgModule {
  if (cachedPg) return cachedPg
  for (const base of [import.meta.url, join(root, 'package.json')]) {
    let mod: unknown
    try {
      mod = createRequire(base)('pg')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') continue
      throw new HistoryError(`pg could not be loaded: ${(error as Error).message.split('\n')[0] ?? ''}`)
    }
    const pg = ((mod as { default?: unknown }).default ?? mod) as PgModule
    if (typeof pg.Client === 'function') return (cachedPg = pg)
  }
  throw new HistoryError(
    'a PostgreSQL history store needs the optional peer dependency pg, which is not installed (npm install -D pg), or turn history off (history: false / RAG_MATCHERS_HISTORY=off)',
  )
}

/** PostgreSQL type oids the store reads differently from pg's defaults. */
const INT8 = 20
const NUMERIC = 1700
const BYTEA = 17

/**
 * Values as the SQLite backend returns them: BIGINT (COUNT(*), a duration) as a number while it is
 * exact, else a bigint (pg's default is a string); NUMERIC (SUM of integers) as a number; BYTEA as a
 * plain Uint8Array over the driver's Buffer.
 */
function typeParsers(pg: PgModule): { getTypeParser(oid: number, format?: string): TypeParser } {
  const bytea = pg.types.getTypeParser(BYTEA)
  return {
    getTypeParser(oid, format) {
      if (format === 'binary') return pg.types.getTypeParser(oid, format)
      if (oid === INT8) {
        return (text) => {
          const n = Number(text)
          return Number.isSafeInteger(n) ? n : BigInt(text)
        }
      }
      if (oid === NUMERIC) return (text) => Number(text)
      if (oid === BYTEA) {
        return (text) => {
          const b = bytea(text) as Uint8Array
          return new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
        }
      }
      return pg.types.getTypeParser(oid, format)
    },
  }
}

/**
 * `sql` with each `?` outside string literals, quoted identifiers, dollar-quoted strings and comments
 * replaced by `$1…$n` (from `$first`); and how many there were.
 */
export function numberPlaceholders(sql: string, first = 1): { text: string; count: number } {
  let out = ''
  let n = first - 1
  let i = 0
  while (i < sql.length) {
    const c = sql[i] as string
    const next = sql[i + 1]
    let end = -1
    if (c === "'") {
      // '…' with '' as a quote; E'…' also has backslash escapes.
      const escapes = i > 0 && /[eE]/.test(sql[i - 1] as string) && !/[\w$]/.test(sql[i - 2] ?? ' ')
      let j = i + 1
      while (j < sql.length) {
        if (escapes && sql[j] === '\\') j += 2
        else if (sql[j] === "'" && sql[j + 1] === "'") j += 2
        else if (sql[j] === "'") break
        else j++
      }
      end = j + 1
    } else if (c === '"') {
      const j = sql.indexOf('"', i + 1)
      end = j < 0 ? sql.length : j + 1
    } else if (c === '-' && next === '-') {
      const j = sql.indexOf('\n', i)
      end = j < 0 ? sql.length : j + 1
    } else if (c === '/' && next === '*') {
      const j = sql.indexOf('*/', i + 2)
      end = j < 0 ? sql.length : j + 2
    } else if (c === '$' && !/[\w$]/.test(sql[i - 1] ?? ' ')) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0]
      if (tag !== undefined) {
        const j = sql.indexOf(tag, i + tag.length)
        end = j < 0 ? sql.length : j + tag.length
      }
    }
    if (end > i) {
      out += sql.slice(i, end)
      i = end
    } else if (c === '?') {
      out += `$${++n}`
      i++
    } else {
      out += c
      i++
    }
  }
  return { text: out, count: n - first + 1 }
}

/** An `INSERT … VALUES (…) [suffix]` split around its one row tuple; undefined for any other statement. */
function splitInsert(sql: string): { head: string; tuple: string; tail: string } | undefined {
  const m = /^\s*INSERT\s+INTO\s[^]*?\bVALUES\s*\(/i.exec(sql)
  if (!m) return undefined
  const open = m[0].length - 1
  let depth = 0
  for (let i = open; i < sql.length; i++) {
    const c = sql[i]
    if (c === "'" || c === '"' || c === '$') return undefined // a literal in the tuple: not worth parsing here
    if (c === '(') depth++
    else if (c === ')' && --depth === 0) return { head: sql.slice(0, open), tuple: sql.slice(open, i + 1), tail: sql.slice(i + 1) }
  }
  return undefined
}

/**
 * A value as pg should send it. PostgreSQL's TEXT cannot hold U+0000, which SQLite and the report JSON can:
 * it becomes U+FFFD in the columns kept for queries (a case's question or answer), and the report itself
 * keeps it (its JSON escapes it, its packed form is bytes). Bytes go as a Buffer over the same memory.
 */
function param(value: SqlValue | undefined): unknown {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array && !Buffer.isBuffer(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  return value ?? null
}

/** What went wrong, in one line, for a message that names the store: pg's message and SQLSTATE, or the socket's cause. */
export function pgCause(error: unknown): string {
  // Node ≥ 20 tries each address of a host name (IPv6, IPv4) and may fail with an AggregateError of them.
  const e = (error instanceof AggregateError && error.errors.length > 0 ? error.errors[0] : error) as {
    code?: unknown
    message?: unknown
    address?: unknown
    port?: unknown
    hostname?: unknown
  }
  const code = typeof e?.code === 'string' ? e.code : undefined
  const where = typeof e?.address === 'string' ? ` at ${e.address}${typeof e.port === 'number' ? `:${e.port}` : ''}` : ''
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused${where} (ECONNREFUSED: is the server running?)`
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `unknown host${typeof e.hostname === 'string' ? ` '${e.hostname}'` : ''} (${code})`
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ECONNRESET':
    case 'EPIPE':
      return `${code}${where}`
    case '3D000':
      return `${String(e.message)} (3D000: create it first, e.g. createdb)`
    case '42501':
      return `${String(e.message)} (42501: the store needs a database and schema the user can CREATE TABLE in)`
    case '55P03':
      return `another writer held the store's lock for more than ${LOCK_TIMEOUT_MS / 1000} s (55P03)`
  }
  const message = typeof e?.message === 'string' && e.message !== '' ? (e.message.split('\n')[0] as string) : String(error)
  // pg's connectionTimeoutMillis: "timeout expired" while connecting, "…due to connection timeout" after.
  if (/^timeout expired$|connection timeout/i.test(message)) return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s (connection timeout)`
  return code !== undefined && !message.includes(code) ? `${message} (${code})` : message
}

export class PostgresBackend implements HistoryBackend {
  readonly kind = 'postgres' as const
  private depth = 0
  /** The connection's failure (the server went away): every later call fails with it instead of hanging. */
  private broken: Error | undefined
  private readonly sqlCache = new Map<string, string>()

  private constructor(
    readonly location: string,
    private readonly client: Client,
  ) {}

  /**
   * Connects to the store at `url`. `readOnly` makes every transaction of the session read-only, so the
   * commands that only read (list, show, trend, case, export) cannot change a shared store. A server that
   * is down, a wrong password, an unknown database: one-line HistoryErrors naming the store, its
   * password hidden.
   */
  static async open(url: string, options: { root: string; readOnly: boolean }): Promise<PostgresBackend> {
    const pg = loadPg(options.root)
    const location = redactUrl(url)
    let client: Client
    try {
      client = new pg.Client({
        connectionString: url,
        connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
        application_name: 'rag-matchers history',
        types: typeParsers(pg),
      })
    } catch (error) {
      throw new HistoryError(`${location}: ${pgCause(error)}`, 'usage')
    }
    const backend = new PostgresBackend(location, client)
    // Without a listener, a connection the server drops later would crash the process ('error' event).
    client.on('error', (error) => {
      backend.broken = error
    })
    try {
      await client.connect()
    } catch (error) {
      await client.end().catch(() => undefined)
      throw new HistoryError(`${location}: cannot connect: ${pgCause(error)}`)
    }
    if (options.readOnly) {
      try {
        await backend.query('SET default_transaction_read_only = on')
      } catch (error) {
        await backend.close()
        throw error
      }
    }
    return backend
  }

  ddl(sql: string): string {
    // SQLite's INTEGER is 64-bit, PostgreSQL's 32. Counts, indexes and flags fit 32 bits (and stay int4, so
    // arithmetic on them, as in substr(col, 8 * i + 1, 8), has the argument types the functions take); a
    // run's duration in ms would overflow after 24 days, so it is BIGINT. TEXT compares byte-wise, as
    // SQLite's BINARY collation does, so ORDER BY and LIKE 'prefix%' (run references) give the same
    // answers on both backends and can use the indexes.
    return sql
      .replaceAll('{{WITHOUT_ROWID}}', '')
      .replaceAll('{{BLOB}}', 'BYTEA')
      .replace(/\bduration_ms INTEGER\b/g, 'duration_ms BIGINT')
      .replace(/\bTEXT\b/g, 'TEXT COLLATE "C"')
  }

  private sql(text: string): string {
    let mapped = this.sqlCache.get(text)
    if (mapped === undefined) {
      mapped = numberPlaceholders(text).text
      this.sqlCache.set(text, mapped)
    }
    return mapped
  }

  private fail(error: unknown): HistoryError {
    if (error instanceof HistoryError) return error
    return new HistoryError(`${this.location}: ${pgCause(this.broken ?? error)}`)
  }

  /** The last query sent: each waits for the one before, as on SQLite's one connection (pg wants one query at a time per client). */
  private queue: Promise<unknown> = Promise.resolve()

  private query(text: string, values?: unknown[]): Promise<QueryResult> {
    const result = this.queue.then(async () => {
      if (this.broken) throw this.fail(this.broken)
      try {
        return await this.client.query(text, values)
      } catch (error) {
        throw this.fail(error)
      }
    })
    this.queue = result.catch(() => undefined)
    return result
  }

  async exec(sql: string): Promise<void> {
    // No parameters: pg sends it as a simple query, which may hold several statements.
    await this.query(sql)
  }

  async hasTable(name: string): Promise<boolean> {
    const { rows } = await this.query(
      `SELECT COUNT(*) AS n FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace s ON s.oid = c.relnamespace
       WHERE s.nspname = current_schema() AND c.relname = $1 AND c.relkind IN ('r', 'p')`,
      [name],
    )
    return Number((rows[0] as { n: unknown } | undefined)?.n ?? 0) > 0
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    return (await this.query(this.sql(sql), params.map(param))).rows as T[]
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await this.query(this.sql(sql), params.map(param))).rowCount ?? 0
  }

  /** One multi-row INSERT per batch of rows (a statement that is not a plain INSERT … VALUES (…) runs once per row). */
  async runMany(sql: string, rows: ReadonlyArray<readonly SqlValue[]>): Promise<void> {
    if (rows.length === 0) return
    const parts = splitInsert(sql)
    const width = parts ? numberPlaceholders(parts.tuple).count : 0
    if (!parts || width === 0 || rows.some((r) => r.length !== width)) {
      for (const row of rows) await this.run(sql, row)
      return
    }
    const perBatch = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMS / width)))
    const texts = new Map<number, string>()
    const textFor = (n: number): string => {
      let text = texts.get(n)
      if (text === undefined) {
        const tuples: string[] = []
        for (let r = 0; r < n; r++) tuples.push(numberPlaceholders(parts.tuple, r * width + 1).text)
        text = `${parts.head}${tuples.join(', ')}${parts.tail}`
        texts.set(n, text)
      }
      return text
    }
    for (let start = 0; start < rows.length; start += perBatch) {
      const batch = rows.slice(start, start + perBatch)
      const values: unknown[] = new Array(batch.length * width)
      let k = 0
      for (const row of batch) for (const v of row) values[k++] = param(v)
      await this.query(textFor(batch.length), values)
    }
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return fn()
    await this.query('BEGIN')
    this.depth += 1
    try {
      await this.query(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`)
      await this.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`)
      const out = await fn()
      await this.query('COMMIT')
      return out
    } catch (error) {
      // A dropped connection has rolled back on the server already; otherwise end the failed transaction here.
      // The error goes on as it is: the store's own errors (and its bugs) are not PostgreSQL's to rename.
      if (!this.broken) await this.query('ROLLBACK').catch(() => undefined)
      throw error
    } finally {
      this.depth -= 1
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined)
  }
}
