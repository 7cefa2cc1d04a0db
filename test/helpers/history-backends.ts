// The history tests run on both backends: a SQLite file in a temp folder, and a database on a real
// PostgreSQL server. The server is RAG_MATCHERS_TEST_POSTGRES_URL when set (the `postgres` stage of
// scripts/run-tests.mjs starts one cluster for the whole suite), else a throw-away cluster this test
// file starts itself from the installed binaries (scripts/pg-cluster.mjs; about a second), so a plain
// `vitest run test/history` covers PostgreSQL too. Only where neither is possible are the PostgreSQL
// variants skipped, with the reason in their title; the `postgres` stage never skips them.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll } from 'vitest'
import { findPostgresBin, POSTGRES_URL_ENV, startCluster, type PostgresCluster } from '../../scripts/pg-cluster.mjs'
import type { HistoryTarget } from '../../src/history/target.js'

export const BACKENDS = ['sqlite', 'postgres'] as const
export type BackendName = (typeof BACKENDS)[number]

/** Why the PostgreSQL variants cannot run here; undefined when they can. */
export const postgresSkip: string | undefined =
  process.env[POSTGRES_URL_ENV] || findPostgresBin()
    ? undefined
    : `no PostgreSQL here: set ${POSTGRES_URL_ENV}, install Debian's postgresql (.ci/install-postgresql), or run \`node scripts/run-tests.mjs postgres\``

// Said once per test file as well, since the default reporter does not list skipped blocks by title.
if (postgresSkip) console.warn(`PostgreSQL variants of the history tests skipped: ${postgresSkip}`)

/** A describe title for backend `kind`, naming why it is skipped when it is. */
export const backendTitle = (title: string, kind: BackendName): string => `${title} (${kind})${kind === 'postgres' && postgresSkip ? ` — skipped: ${postgresSkip}` : ''}`

export const skipBackend = (kind: BackendName): boolean => kind === 'postgres' && postgresSkip !== undefined

export interface StoreFixture {
  readonly kind: BackendName
  /** A new, empty store: a file path in a fresh temp folder, or a fresh database on the server. */
  fresh(): Promise<{ target: HistoryTarget; text: string; dir: string }>
  /** A fresh temp folder (removed after the file's tests). */
  tempDir(): string
  /** The server's URL (postgres only) with another password, user or database. */
  serverUrl(change?: { password?: string; database?: string; port?: number }): string
}

/**
 * The stores of one backend for the tests of a describe block: registers the hooks that start the server
 * (or use the given one) and clean up after the block's tests. Call it inside the describe.
 */
export function storeFixture(kind: BackendName): StoreFixture {
  const dirs: string[] = []
  const databases: string[] = []
  let cluster: PostgresCluster | undefined
  let base = ''
  let counter = 0
  const tempDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'rag-history-'))
    dirs.push(dir)
    return dir
  }
  const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: base })
    await client.connect()
    try {
      return await fn(client)
    } finally {
      await client.end()
    }
  }
  if (kind === 'postgres') {
    beforeAll(async () => {
      const given = process.env[POSTGRES_URL_ENV]
      if (given) base = given
      else {
        cluster = await startCluster()
        base = cluster.url
      }
    }, 60_000)
    afterAll(async () => {
      // A server we were given keeps running: drop what we made there. Our own cluster goes whole.
      if (!cluster && databases.length > 0) {
        await admin(async (c) => {
          for (const d of databases) await c.query(`DROP DATABASE IF EXISTS ${d} WITH (FORCE)`)
        })
      }
      cluster?.stop()
    }, 60_000)
  }
  afterAll(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  const serverUrl = (change: { password?: string; database?: string; port?: number } = {}): string => {
    const url = new URL(base)
    if (change.password !== undefined) url.password = change.password
    if (change.database !== undefined) url.pathname = `/${change.database}`
    if (change.port !== undefined) url.port = String(change.port)
    return url.toString()
  }
  return {
    kind,
    tempDir,
    serverUrl,
    async fresh() {
      const dir = tempDir()
      if (kind === 'sqlite') {
        const path = join(dir, 'h.sqlite')
        return { target: { kind: 'sqlite', path }, text: path, dir }
      }
      // One database per store: as a user's would be, and nothing shared between tests running at once.
      const name = `rag_${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`
      await admin((c) => c.query(`CREATE DATABASE ${name}`))
      databases.push(name)
      const url = serverUrl({ database: name })
      return { target: { kind: 'postgres', url }, text: url, dir }
    },
  }
}
