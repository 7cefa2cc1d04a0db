/**
 * Un-awaited async matchers. `expect(answer).toBeGroundedIn(contexts)` without `await` returns a
 * promise nobody looks at: the test ends green, and the verdict arrives later as an unhandled
 * rejection blamed on another test (Vitest) or after the environment is torn down (Jest).
 *
 * Each async matcher called as an assertion (not asymmetrically) is recorded here with the stack of
 * its call, and hands the runner a {@link PendingAssertion} instead of a bare promise. Both runners
 * build the promise the user receives from ours, synchronously, by calling `.then`/`.catch` on it
 * (Vitest: `result.then(…)`, plus `.then(…)` again for `expect.soft`; Jest: `result.then(…).catch(…)`),
 * and every such call returns another `PendingAssertion` of the same record, so the user receives
 * one too. A `.then` marks the record awaited unless it is the runner's own plumbing: a call made
 * in the turn that created the record while the user's `expect(…).toM(…)` call is still on the
 * stack (see `see`). `await`, `Promise.all`, `.resolves`/`.rejects` and returning it from the test
 * all call `.then` from elsewhere, most of them in a later microtask (a thenable that is not a
 * native promise is adopted through a job). The runner entries register an `afterEach`
 * ({@link checkPendingAssertions}) that waits for the records of the test that were never awaited,
 * so their verdict cannot leak into another test, and fails that test naming each matcher and its
 * call site.
 */
import { relative } from 'node:path'
import type { MatcherContext, MatcherResult } from './context.js'
import { trimLibraryFrames } from './stack.js'

interface PendingRecord {
  readonly name: string
  /** Captured at the call; its stack is formatted (and source-mapped by the runner) only when reported. */
  readonly site: Error
  /** The verdict, settled either way, for the check to wait on. */
  readonly settled: Promise<unknown>
  /** Still in the turn that created the record: `.then` calls now are the runner's own. */
  creating: boolean
  /** The call site's first user frame, once needed. */
  siteFrame?: string
  awaited: boolean
}

let enabled = false
let pending: PendingRecord[] = []

const noop = (): void => undefined

/** Turns the check on: called by the runner entries, which also register {@link checkPendingAssertions} as an `afterEach`. */
export function enableAwaitCheck(): void {
  enabled = true
}

/** Whether the check is on (for tests). */
export function awaitCheckEnabled(): boolean {
  return enabled
}

/** `file:line:column` of the first frame of a stack that is neither ours nor the runner's (the whole first frame if there is none). */
function userFrame(error: Error): string | undefined {
  const frame = trimLibraryFrames(error)
    .stack?.split('\n')
    .find((l) => /^\s+at /.test(l))
  return frame === undefined ? undefined : (/\(?([^\s()]+:\d+:\d+)\)?\s*$/.exec(frame)?.[1] ?? frame)
}

/**
 * A `.then` (or `.catch`, `.finally`) on one of the record's promise-likes. After the turn that created
 * the record it can only be the user's. In that turn it is the runner's plumbing while the user's
 * `expect(…).toM(…)` call is still running (its frame, at the call site, is the first user frame of
 * both stacks), and the user's otherwise, e.g. Jest's test runner adopting a promise the test returned.
 */
function see(record: PendingRecord): void {
  if (record.awaited) return
  if (!record.creating) {
    record.awaited = true
    return
  }
  const site = (record.siteFrame ??= userFrame(record.site) ?? '')
  if (site === '' || userFrame(captureSite('then', see)) !== site) record.awaited = true
}

/**
 * The promise-like an async matcher hands the runner (and, through the runner, the user). Not a
 * native promise on purpose: a rejected one that nobody handles is no unhandled rejection, and
 * `await` adopts it through a job, in a later turn than the runner's own `.then` calls.
 */
export class PendingAssertion<T> implements PromiseLike<T> {
  readonly #inner: Promise<T>
  readonly #record: PendingRecord
  readonly [Symbol.toStringTag] = 'Promise'

  constructor(inner: Promise<T>, record: PendingRecord) {
    this.#inner = inner
    this.#record = record
  }

  then<A = T, B = never>(onFulfilled?: ((value: T) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): PendingAssertion<A | B> {
    see(this.#record)
    return derive(this.#inner.then(onFulfilled, onRejected), this.#record)
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): PendingAssertion<T | B> {
    return this.then(undefined, onRejected)
  }

  finally(onFinally?: (() => void) | null): PendingAssertion<T> {
    see(this.#record)
    return derive(this.#inner.finally(onFinally), this.#record)
  }
}

function derive<T>(inner: Promise<T>, record: PendingRecord): PendingAssertion<T> {
  // Whoever holds the derived object decides what happens to a rejection; the native promise under
  // it must not be reported as unhandled on its own (the check below reports a forgotten one).
  inner.catch(noop)
  return new PendingAssertion(inner, record)
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyMatcher = (this: MatcherContext, received: unknown, ...args: any[]) => MatcherResult | Promise<MatcherResult>

/** An assertion (`expect(x).toM()`, `.not`, `.resolves`), not an asymmetric `expect.toM()`: the runners set `promise` only there. */
function isAssertion(ctx: MatcherContext | undefined): boolean {
  return ctx !== undefined && ctx !== null && typeof ctx.promise === 'string'
}

function isPromiseLike(value: unknown): value is PromiseLike<MatcherResult> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function'
}

function captureSite(name: string, above: (...args: never[]) => unknown): Error {
  const site = new Error(`${name} was not awaited`)
  const capture = (Error as { captureStackTrace?: (target: object, fn?: unknown) => void }).captureStackTrace
  if (capture !== undefined) {
    const limit = Error.stackTraceLimit
    // The runners' plumbing above the matcher can be a dozen frames deep: keep enough to reach the user's line.
    if (typeof limit === 'number' && limit < 50) Error.stackTraceLimit = 50
    try {
      capture(site, above)
    } finally {
      Error.stackTraceLimit = limit
    }
  }
  return site
}

/**
 * Wraps the async matchers among `matchers` (by name) so a call records itself while the check is
 * enabled. Off (no runner entry loaded), or used asymmetrically, a matcher returns its promise as before.
 */
export function withAwaitCheck<T extends Record<string, AnyMatcher>>(matchers: T, asyncNames: ReadonlySet<string>): T {
  const out: Record<string, AnyMatcher> = { ...matchers }
  for (const [name, fn] of Object.entries(matchers)) {
    if (!asyncNames.has(name)) continue
    const wrapped = function (this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult | Promise<MatcherResult> {
      const result = fn.call(this, received, ...args)
      if (!enabled || !isAssertion(this) || !isPromiseLike(result)) return result
      const inner = Promise.resolve(result)
      const record: PendingRecord = {
        name,
        site: captureSite(name, wrapped),
        settled: inner.then(noop, noop),
        creating: true,
        awaited: false,
      }
      queueMicrotask(() => {
        record.creating = false
      })
      pending.push(record)
      // The runners accept any thenable from a matcher; the type they declare is a Promise.
      return derive(inner, record) as unknown as Promise<MatcherResult>
    }
    Object.defineProperty(wrapped, 'name', { value: fn.name || name })
    out[name] = wrapped
  }
  return out as T
}

/** The error of a test that left async matchers un-awaited; its stack starts at the first one's call. */
export class UnawaitedMatcherError extends Error {
  override name = 'UnawaitedMatcherError'
}

/** `file:line:column` of the first user frame of a recorded call, relative to the working directory. */
export function callSite(site: Error): string | undefined {
  const lines = (trimLibraryFrames(site).stack ?? '').split('\n')
  for (const line of lines) {
    const m = /^\s*at (?:async )?(?:[^(]*\((.+):(\d+):(\d+)\)|(.+):(\d+):(\d+))\s*$/.exec(line)
    if (m === null) continue
    let file = (m[1] ?? m[4]) as string
    if (file.startsWith('file://')) file = decodeURIComponent(new URL(file).pathname)
    const rel = relative(process.cwd(), file)
    const shown = rel !== '' && !rel.startsWith('..') ? rel.split('\\').join('/') : file
    return `${shown}:${m[2] ?? m[5]}:${m[3] ?? m[6]}`
  }
  return undefined
}

function describeRecord(record: PendingRecord): string {
  const where = callSite(record.site)
  return `${record.name} was not awaited${where === undefined ? '' : ` (${where})`}: write \`await expect(…).${record.name}(…)\`.`
}

/**
 * The `afterEach` of the runner entries: the async matchers called since the last check that were
 * never awaited are waited for (their verdict, pass or fail, is dropped), then the test fails naming them.
 */
export async function checkPendingAssertions(): Promise<void> {
  const records = pending
  pending = []
  const forgotten = records.filter((r) => !r.awaited)
  if (forgotten.length === 0) return
  await Promise.all(forgotten.map((r) => r.settled))
  const lines = forgotten.map(describeRecord)
  const message =
    (lines.length === 1 ? lines[0] : `${lines.length} async matchers were not awaited:\n${lines.map((l) => `  - ${l}`).join('\n')}`) +
    ' An async matcher that is not awaited cannot fail the test.'
  const error = new UnawaitedMatcherError(message)
  // Point the runner's code frame at the forgotten call rather than at this hook.
  const site = trimLibraryFrames((forgotten[0] as PendingRecord).site).stack
  const frames = site?.split('\n').filter((l) => /^\s+at /.test(l))
  if (frames !== undefined && frames.length > 0) {
    Object.defineProperty(error, 'stack', { value: `${error.name}: ${message}\n${frames.join('\n')}`, writable: true, configurable: true })
  }
  throw error
}
