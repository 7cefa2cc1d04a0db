/**
 * The history schema, versioned in the `meta` table (`schema_version`) and brought forward by
 * {@link MIGRATIONS} when a store is opened for writing. A store written by a newer version is refused,
 * never rewritten. The DDL is portable: TEXT, INTEGER, DOUBLE PRECISION, composite primary keys, no
 * autoincrement; `{{WITHOUT_ROWID}}` is SQLite's table option for key-only tables (a PostgreSQL backend
 * maps it to nothing).
 *
 * Tables: `runs` (one row per run, with the whole report as `report_json` for a lossless `show`),
 * `eval_sets`, `metric_rows` and `case_values` (normalized, for trends), `cases` (each case's texts and
 * its report JSON, for `history case`).
 */

/** The schema version this version of rag-matchers writes and reads. */
export const SCHEMA_VERSION = 1

/** MIGRATIONS[i] brings a store from version i to i + 1 (statements run in one transaction). */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE runs (
      id TEXT PRIMARY KEY,
      content_hash TEXT NOT NULL UNIQUE,
      source TEXT NOT NULL,
      started_at TEXT,
      ended_at TEXT NOT NULL,
      duration_ms INTEGER,
      runner TEXT NOT NULL,
      runner_version TEXT,
      node_version TEXT,
      rag_matchers_version TEXT,
      report_schema_version INTEGER NOT NULL,
      shard_index INTEGER,
      shard_count INTEGER,
      merged_from INTEGER,
      git_commit TEXT,
      git_branch TEXT,
      git_dirty INTEGER,
      git_subject TEXT,
      ci_provider TEXT,
      ci_sha TEXT,
      ci_ref TEXT,
      ci_run_id TEXT,
      ci_run_url TEXT,
      ci_pr TEXT,
      assertions INTEGER NOT NULL,
      passed INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      errored INTEGER NOT NULL,
      eval_sets INTEGER NOT NULL,
      verdict TEXT NOT NULL,
      verdict_reasons TEXT NOT NULL,
      env_json TEXT NOT NULL,
      report_json TEXT NOT NULL
    )`,
    `CREATE INDEX runs_ended ON runs (ended_at, id)`,
    `CREATE INDEX runs_branch ON runs (git_branch, ended_at)`,
    `CREATE TABLE eval_sets (
      run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      set_index INTEGER NOT NULL,
      set_key TEXT NOT NULL,
      name TEXT NOT NULL,
      source TEXT NOT NULL,
      pass INTEGER NOT NULL,
      metrics INTEGER NOT NULL,
      cases INTEGER NOT NULL,
      files_json TEXT NOT NULL,
      baselines_json TEXT NOT NULL,
      PRIMARY KEY (run_id, set_index)
    ) {{WITHOUT_ROWID}}`,
    `CREATE INDEX eval_sets_name ON eval_sets (name, run_id)`,
    `CREATE TABLE metric_rows (
      run_id TEXT NOT NULL,
      set_index INTEGER NOT NULL,
      metric_index INTEGER NOT NULL,
      set_name TEXT NOT NULL,
      row_key TEXT NOT NULL,
      metric TEXT NOT NULL,
      matcher TEXT NOT NULL,
      signature TEXT NOT NULL,
      value DOUBLE PRECISION,
      threshold DOUBLE PRECISION,
      comparator TEXT NOT NULL,
      is_not INTEGER NOT NULL,
      pass INTEGER NOT NULL,
      scale DOUBLE PRECISION,
      direction TEXT NOT NULL,
      aggregate TEXT NOT NULL,
      n INTEGER NOT NULL,
      assertions INTEGER NOT NULL,
      failed_assertions INTEGER NOT NULL,
      errored INTEGER NOT NULL,
      baseline_mean DOUBLE PRECISION,
      baseline_delta DOUBLE PRECISION,
      baseline_status TEXT,
      row_json TEXT NOT NULL,
      PRIMARY KEY (run_id, set_index, metric_index),
      FOREIGN KEY (run_id, set_index) REFERENCES eval_sets (run_id, set_index) ON DELETE CASCADE
    ) {{WITHOUT_ROWID}}`,
    `CREATE INDEX metric_rows_series ON metric_rows (set_name, metric, run_id)`,
    `CREATE TABLE cases (
      run_id TEXT NOT NULL,
      set_index INTEGER NOT NULL,
      case_index INTEGER NOT NULL,
      set_name TEXT NOT NULL,
      case_id TEXT NOT NULL,
      question TEXT,
      answer TEXT,
      retrieved_json TEXT,
      failing_json TEXT NOT NULL,
      case_json TEXT NOT NULL,
      PRIMARY KEY (run_id, set_index, case_index),
      FOREIGN KEY (run_id, set_index) REFERENCES eval_sets (run_id, set_index) ON DELETE CASCADE
    ) {{WITHOUT_ROWID}}`,
    `CREATE INDEX cases_by_id ON cases (set_name, case_id, run_id)`,
    `CREATE TABLE case_values (
      run_id TEXT NOT NULL,
      set_index INTEGER NOT NULL,
      metric_index INTEGER NOT NULL,
      position INTEGER NOT NULL,
      case_id TEXT NOT NULL,
      value DOUBLE PRECISION,
      pass INTEGER,
      PRIMARY KEY (run_id, set_index, metric_index, position),
      FOREIGN KEY (run_id, set_index, metric_index) REFERENCES metric_rows (run_id, set_index, metric_index) ON DELETE CASCADE
    ) {{WITHOUT_ROWID}}`,
  ],
]
