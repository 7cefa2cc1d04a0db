// Types for scripts/pg-cluster.mjs, so the TypeScript tests can import it.
export declare const POSTGRES_URL_ENV: 'RAG_MATCHERS_TEST_POSTGRES_URL'

export interface PostgresCluster {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres */
  readonly url: string
  readonly port: number
  readonly password: string
  /** The temp folder: data directory, socket and log. */
  readonly dir: string
  /** Stops the server and removes the folder (synchronous; safe to call twice). */
  stop(): void
}

export declare function findPostgresBin(): string | undefined
export declare function startCluster(options?: { bin?: string; parent?: string }): Promise<PostgresCluster>
