/** A history problem the user can act on (a store that cannot be opened, a bad reference, bad input): shown as one line, never with a stack. */
export class HistoryError extends Error {
  /** `input` (bad input: exit 2) or `usage` (a bad target or option: exit 1). */
  readonly kind: 'input' | 'usage'
  constructor(message: string, kind: 'input' | 'usage' = 'input') {
    super(message)
    this.name = 'HistoryError'
    this.kind = kind
  }
}

/**
 * A store opened read-only that holds no history tables yet (a PostgreSQL database no run was recorded in):
 * `rag-matchers ui` shows it as an empty history that says how to record a run, as it does a missing file.
 */
export class EmptyStoreError extends HistoryError {}
