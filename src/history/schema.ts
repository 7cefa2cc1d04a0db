/**
 * The history schema, versioned in the `meta` table (`schema_version`) and brought forward by
 * {@link MIGRATIONS} when a store is opened for writing. A store written by a newer version is refused,
 * never rewritten. The DDL is portable: TEXT, INTEGER, DOUBLE PRECISION, composite primary keys, no
 * autoincrement; two dialect markers are mapped by each backend's `ddl`: `{{WITHOUT_ROWID}}`, SQLite's
 * table option for key-only tables (PostgreSQL: nothing), and `{{BLOB}}`, a byte column (SQLite BLOB,
 * PostgreSQL BYTEA).
 *
 * Tables (version 2): `runs` (one row per run: its facts for `list`, and the report's skeleton, deflated,
 * in `report_packed`), `eval_sets`, `metric_rows` (one per metric row: value, threshold, … for trends, and
 * the row's per-case values packed in `case_values`/`case_passes`, see blob-codec.ts) and `cases` (each
 * case's id and texts, for `history case`). Every per-case fact is stored once; `readRun` puts the report
 * back together (packed-report.ts). Version 1 kept the whole report JSON, each case's JSON and one row per
 * case value (`case_values`): 128 MB and 4 s for a run of 200,000 case values. Version 3 adds the covering
 * indexes `metric_rows_trend` and `metric_rows_by_run` (what the history UI and `trend` read) and the
 * baseline comparison's interval (`baseline_ci_low`, `baseline_ci_high`). Version 4 adds `ratings`: people's
 * ratings of a run's cases from the UI's rate view (src/history/ratings.ts).
 */
import type { HistoryBackend } from './backend.js'
import { repackV1Runs } from './repack-v1.js'

/** The schema version this version of rag-matchers writes and reads. */
export const SCHEMA_VERSION = 4

/**
 * The oldest version a read-only open reads as it is (without migrating): version 3 adds indexes and two
 * nullable columns only the UI reads (and only from a version 3 store), so every query of the store gives
 * the same answers on a version 2 store, more slowly; its next recorded run migrates it. Version 4 adds the
 * ratings table, which a read-only open of an older store reads as empty (ratings.ts checks for it).
 */
export const OLDEST_READABLE_VERSION = 2

/** A migration step: a DDL statement (dialect markers mapped by the backend), or code that rewrites stored rows. */
export type MigrationStep = string | ((backend: HistoryBackend) => Promise<void>)

/** MIGRATIONS[i] brings a store from version i to i + 1 (its steps run in order, in one transaction). */
export const MIGRATIONS: readonly (readonly MigrationStep[])[] = [
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
  // 1 → 2: per-case values packed into their metric row, case texts once, the report as a deflated skeleton.
  // The derived tables are rebuilt from each run's report_json (repack-v1.ts), then report_json goes.
  [
    `DROP TABLE case_values`,
    `DROP TABLE cases`,
    `DROP TABLE metric_rows`,
    `DROP TABLE eval_sets`,
    `CREATE TABLE eval_sets (
      run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
      set_index INTEGER NOT NULL,
      set_key TEXT NOT NULL,
      name TEXT NOT NULL,
      source TEXT NOT NULL,
      pass INTEGER NOT NULL,
      metrics INTEGER NOT NULL,
      cases INTEGER NOT NULL,
      PRIMARY KEY (run_id, set_index)
    ) {{WITHOUT_ROWID}}`,
    `CREATE INDEX eval_sets_name ON eval_sets (name, run_id)`,
    // A rowid table, not WITHOUT ROWID: its rows carry kilobytes of packed values, and SQLite keeps large
    // rows better in a rowid table; the trend reads the columns before the blobs.
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
      value_count INTEGER,
      case_values {{BLOB}},
      case_passes {{BLOB}},
      case_ids {{BLOB}},
      PRIMARY KEY (run_id, set_index, metric_index),
      FOREIGN KEY (run_id, set_index) REFERENCES eval_sets (run_id, set_index) ON DELETE CASCADE
    )`,
    `CREATE INDEX metric_rows_series ON metric_rows (set_name, metric, run_id)`,
    `CREATE TABLE cases (
      run_id TEXT NOT NULL,
      set_index INTEGER NOT NULL,
      case_index INTEGER NOT NULL,
      set_name TEXT NOT NULL,
      case_id TEXT NOT NULL,
      texts TEXT NOT NULL,
      PRIMARY KEY (run_id, set_index, case_index),
      FOREIGN KEY (run_id, set_index) REFERENCES eval_sets (run_id, set_index) ON DELETE CASCADE
    ) {{WITHOUT_ROWID}}`,
    `CREATE INDEX cases_by_id ON cases (set_name, case_id, run_id)`,
    `ALTER TABLE runs ADD COLUMN report_packed {{BLOB}}`,
    repackV1Runs,
    `ALTER TABLE runs DROP COLUMN report_json`,
  ],
  // 2 → 3: two covering indexes over the metric rows' small columns, so that a set's trend (by set name) and
  // the newest runs' rows (by run id) are read from the index alone: a metric row also carries its run's
  // per-case values (8 kB for 1,000 cases), and reading 200,000 such rows through the table took seconds.
  // metric_rows_trend starts with the columns of metric_rows_series, which it replaces.
  // It also adds the bootstrap interval of the change against the baseline that a baseline assertion computed
  // (the band of the UI's set charts): null in rows written before.
  [
    `ALTER TABLE metric_rows ADD COLUMN baseline_ci_low DOUBLE PRECISION`,
    `ALTER TABLE metric_rows ADD COLUMN baseline_ci_high DOUBLE PRECISION`,
    `DROP INDEX metric_rows_series`,
    `CREATE INDEX metric_rows_trend ON metric_rows (set_name, metric, run_id, set_index, metric_index, matcher, comparator, value, threshold, pass, direction, scale, baseline_mean, baseline_ci_low, baseline_ci_high)`,
    `CREATE INDEX metric_rows_by_run ON metric_rows (run_id, set_index, metric_index, set_name, metric, matcher, comparator, value, threshold, pass, direction, scale, baseline_mean)`,
  ], // 3 → 4: people's ratings of a run's cases (the UI's rate view, `rag-matchers ui --rate`). One row per rater,
  // case, dimension and (pairwise) other run: a rater who rates again replaces their rating (an upsert on the
  // key), so two raters never overwrite each other and one rater's last answer counts. `score` holds a number
  // on the rubric's scale, `choice` a label (`pass`/`fail`) or a pairwise winner (`a`, `b`, `tie`: a is run_id,
  // b other_run_id); `shown_first` is the run whose answer the page showed first (the order is randomised).
  // other_run_id is '' for a direct rating (a key column is never null on PostgreSQL).
  [
    `CREATE TABLE IF NOT EXISTS ratings (
      run_id TEXT NOT NULL,
      set_name TEXT NOT NULL,
      case_id TEXT NOT NULL,
      rater TEXT NOT NULL,
      dimension TEXT NOT NULL,
      other_run_id TEXT NOT NULL,
      score DOUBLE PRECISION,
      choice TEXT,
      shown_first TEXT,
      rated_at TEXT NOT NULL,
      PRIMARY KEY (run_id, set_name, other_run_id, dimension, case_id, rater)
    ) {{WITHOUT_ROWID}}`,
  ],
]
