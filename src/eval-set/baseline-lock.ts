/**
 * An owned, synchronous file lock for baseline read-modify-write (the baseline matcher is a sync
 * matcher, so the lock is too).
 *
 * - Taking it: `open(<file>.lock, 'wx')` (fails when it exists) and write a token of our own into it
 *   (pid, time, random). Only the owner of a token may remove the lock.
 * - Releasing it: rename the lock to a name of our own, read it, and delete it only if it holds our
 *   token; if it holds another writer's (ours was taken over as stale), put it back with `link`,
 *   which refuses to overwrite, so nobody else's lock is ever removed.
 * - A stale lock (older than `staleMs`: a crashed writer) is taken over atomically: under a second
 *   lock `<file>.lock.break` that serialises breakers, the breaker re-reads the lock, renames it to a
 *   name of its own (at most one rename of an inode succeeds), checks that what it renamed is the
 *   token it judged stale, and deletes it; a lock that changed in between is put back. The old
 *   stat-then-unlink let a second waiter delete the lock the first had just taken.
 *
 * What it cannot do: a writer that is still alive but holds the lock for longer than `staleMs` is
 * treated as crashed (a lease, as in every stale-lock scheme); writes take milliseconds, the default
 * `staleMs` is 10 s.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs'

export interface LockOptions {
  /** Give up waiting for the lock after this long. @default 30_000 */
  readonly timeoutMs?: number
  /** A lock file older than this is left over from a crashed writer and is taken over. @default 10_000 */
  readonly staleMs?: number
}

/** A held lock: release it exactly once. */
export interface HeldLock {
  readonly file: string
  readonly token: string
  release(): void
}

const sleeper = new Int32Array(new SharedArrayBuffer(4))

function sleep(ms: number): void {
  // A synchronous wait that does not spin the CPU.
  Atomics.wait(sleeper, 0, 0, ms)
}

function newToken(): string {
  return `${process.pid} ${Date.now().toString(36)} ${Math.random().toString(36).slice(2, 12)}${Math.random().toString(36).slice(2, 12)}`
}

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // already gone
  }
}

/** Creates `file` holding `token` if it does not exist; false when it exists. */
function tryCreate(file: string, token: string): boolean {
  let fd: number
  try {
    fd = openSync(file, 'wx')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  }
  try {
    writeSync(fd, `${token}\n`)
  } finally {
    closeSync(fd)
  }
  return true
}

/**
 * Removes `file` only if it holds `token`: rename it aside (atomic), compare, then delete or put it
 * back with `link` (which never overwrites). Returns whether our token was removed.
 */
function removeIfOwned(file: string, token: string): boolean {
  const aside = `${file}.${Math.random().toString(36).slice(2, 12)}.release`
  try {
    renameSync(file, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
  const content = readOrUndefined(aside)
  if (content?.trim() === token) {
    unlinkQuietly(aside)
    return true
  }
  try {
    linkSync(aside, file)
  } catch {
    // a newer lock is in place already; the one we moved is no longer the current one
  }
  unlinkQuietly(aside)
  return false
}

function ageMs(file: string): number | undefined {
  try {
    return Date.now() - statSync(file).mtimeMs
  } catch {
    return undefined
  }
}

/**
 * Takes over `lockFile` if it is (still) stale, serialised by `<lockFile>.break`. Returns true when
 * a stale lock was removed (the caller then competes for the lock as usual).
 */
function breakStale(lockFile: string, staleMs: number): boolean {
  const breakFile = `${lockFile}.break`
  const breakToken = newToken()
  if (!tryCreate(breakFile, breakToken)) {
    // a breaker that crashed mid-break leaves its own lock behind: take that one over the same way
    const age = ageMs(breakFile)
    if (age !== undefined && age > staleMs) {
      const seen = readOrUndefined(breakFile)?.trim()
      if (seen !== undefined) removeIfOwned(breakFile, seen)
    }
    return false
  }
  try {
    const age = ageMs(lockFile)
    if (age === undefined || age <= staleMs) return false
    const seen = readOrUndefined(lockFile)?.trim()
    if (seen === undefined) return false
    return removeIfOwned(lockFile, seen)
  } finally {
    removeIfOwned(breakFile, breakToken)
  }
}

/**
 * Waits for and takes the lock `lockFile` (retrying with a short, jittered backoff).
 * @throws Error after `timeoutMs`, naming the lock file
 * @example
 * const lock = acquireLock('/repo/test/__rag_baselines__/qa.test.ts.json.lock')
 * try { … } finally { lock.release() }
 */
export function acquireLock(lockFile: string, options: LockOptions = {}): HeldLock {
  const timeoutMs = options.timeoutMs ?? 30_000
  const staleMs = options.staleMs ?? 10_000
  const deadline = Date.now() + timeoutMs
  const token = newToken()
  let delay = 2
  for (;;) {
    if (tryCreate(lockFile, token)) {
      let released = false
      return {
        file: lockFile,
        token,
        release: () => {
          if (released) return
          released = true
          removeIfOwned(lockFile, token)
        },
      }
    }
    const age = ageMs(lockFile)
    if (age === undefined) continue // released between our open and stat: try again at once
    if (age > staleMs && breakStale(lockFile, staleMs)) continue
    if (Date.now() > deadline) {
      throw new Error(`Timed out after ${timeoutMs} ms waiting for the baseline lock ${lockFile}. If no test run is writing baselines, delete the lock file.`)
    }
    // jittered backoff, capped low: a write holds the lock for milliseconds
    sleep(delay + Math.floor(Math.random() * delay))
    delay = Math.min(delay * 2, 20)
  }
}
