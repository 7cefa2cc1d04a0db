/**
 * SQLite's "database is locked" where its busy handler is not called. A connection that already reads
 * and then asks to write (switching a rollback-journal file to WAL does) gets SQLITE_BUSY at once while
 * another holds the write lock: waiting could deadlock, so SQLite leaves the retry to the caller. Eight
 * processes opening one new store at the same moment hit this about once in sixty tries.
 */

/** True for SQLITE_BUSY from either binding: better-sqlite3's code string, node:sqlite's numeric errcode. */
export function isBusy(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown } | null | undefined
  if (typeof e?.code === 'string' && e.code.startsWith('SQLITE_BUSY')) return true
  // Extended codes (SQLITE_BUSY_RECOVERY, …) keep the primary code 5 in the low byte.
  return typeof e?.errcode === 'number' && (e.errcode & 0xff) === 5
}

const sleeper = new Int32Array(new SharedArrayBuffer(4))

/** Blocks the thread for `ms`: the bindings are synchronous, so the retry is too. */
function pause(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms)
}

/**
 * Calls `step` again while it fails with SQLITE_BUSY, for up to `timeoutMs`, then lets the last error
 * through. Pauses grow from 5 ms to 100 ms with jitter, so processes that collided do not retry in step.
 * `step` must be safe to repeat (pragmas are).
 */
export function retryWhileBusy<T>(step: () => T, timeoutMs: number, wait: (ms: number) => void = pause): T {
  const deadline = Date.now() + timeoutMs
  for (let backoff = 5; ; backoff = Math.min(backoff * 2, 100)) {
    try {
      return step()
    } catch (error) {
      const ms = Math.round(backoff * (0.5 + Math.random()))
      if (!isBusy(error) || Date.now() + ms > deadline) throw error
      wait(ms)
    }
  }
}
