// The runner state a baseline test runs under: `CI`, `RAG_MATCHERS_UPDATE_BASELINES` and the runner's own
// snapshot update state, which Vitest and Jest both expose as `expect.getState().snapshotState`.

export type UpdateState = 'all' | 'new' | 'none'

export interface RunnerState {
  testPath?: string
  snapshotState?: { _updateSnapshot: UpdateState }
}

/** The running test's matcher state (Vitest and Jest, globals only). */
export const runnerState = (): RunnerState => (expect as unknown as { getState(): RunnerState }).getState()

/**
 * Runs `fn` as if under `CI=<ci>`, `RAG_MATCHERS_UPDATE_BASELINES=<baselines>` and the runner's snapshot
 * update state `update` ('all' is -u, 'new' a local run, 'none' is --ci, which `CI=true` turns on), restoring
 * all three afterwards. The state is the runner's own object, so the matcher reads it exactly as it does in a
 * real run; an unset `ci` or `baselines` is removed from the environment.
 */
export function withRunner<T>(state: { ci?: string; update: UpdateState; baselines?: string }, fn: () => T): T {
  const snapshotState = runnerState().snapshotState!
  const savedUpdate = snapshotState._updateSnapshot
  const saved = { CI: process.env.CI, RAG_MATCHERS_UPDATE_BASELINES: process.env.RAG_MATCHERS_UPDATE_BASELINES }
  const set = (key: keyof typeof saved, value: string | undefined) => (value === undefined ? delete process.env[key] : (process.env[key] = value))
  snapshotState._updateSnapshot = state.update
  set('CI', state.ci)
  set('RAG_MATCHERS_UPDATE_BASELINES', state.baselines)
  try {
    return fn()
  } finally {
    snapshotState._updateSnapshot = savedUpdate
    set('CI', saved.CI)
    set('RAG_MATCHERS_UPDATE_BASELINES', saved.RAG_MATCHERS_UPDATE_BASELINES)
  }
}

/** A local run: no CI, snapshots written when new, no update switch. */
export const LOCAL = { update: 'new' } as const
