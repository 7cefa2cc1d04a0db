/**
 * Recording matcher results for the rag-matchers reporters (`rag-matchers/reporter` for Vitest,
 * `rag-matchers/jest-reporter` for Jest). The reporters never recompute a metric: everything they
 * show comes from the `meta` each matcher already returns, captured here right after the matcher ran.
 *
 * Where a result goes:
 * - Vitest (≥ 4.1 gives matchers `this.task`, the running test): appended to `task.meta.ragMatchers`.
 *   Vitest sends `task.meta` to reporters, also through `--reporter=blob` / `--merge-reports`.
 * - Jest (no task object): one JSON line per result, appended to `<RAG_MATCHERS_RESULTS_DIR>/<pid>-<thread>.jsonl`.
 *   The Jest reporter sets that variable in its constructor, which runs before Jest forks its workers,
 *   so the workers inherit it. Without the variable (no rag-matchers reporter configured) nothing is written.
 *   Vitest falls back to this channel too when `this.task` is missing.
 */
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { RESULTS_DIR_ENV, TASK_META_KEY, toErrorRecord, toRecord, type RecordedAssertion } from '../src/report/record.js'
import type { MatcherContext, MatcherResult } from './context.js'

export { RECORD_LIMITS, RESULTS_DIR_ENV, TASK_META_KEY, toErrorRecord, toRecord, type RecordedAssertion } from '../src/report/record.js'

type AnyMatcher = (this: MatcherContext, received: unknown, ...args: never[]) => MatcherResult | Promise<MatcherResult>

/**
 * Wraps every matcher so that, after it ran (sync or async), its `meta` is recorded for the reporters.
 * The wrapped function returns exactly what the matcher returned (a sync result stays sync, so
 * asymmetric use keeps working) and never changes `pass` or the message.
 *
 * Only direct assertions are recorded: runners give those a `promise` field in the matcher state
 * (`''`, `'resolves'` or `'rejects'`); an asymmetric matcher (`expect.toHaveNdcgAtK(…)` inside
 * `toEqual`) gets no such field, and may be called any number of times, so it is not recorded.
 * A matcher that throws (a Matcher error: wrong arguments, a case with bad ground truth; or a rejected
 * promise) is recorded as an assertion with status `error` and the error's message, and the error is
 * rethrown unchanged: the report counts it as failed. Recording never throws into the test.
 *
 * @example
 * export const allMatchers = withRecording({ toHitWithin: retrieval.toHitWithin })
 */
export function withRecording<T extends Record<string, AnyMatcher>>(matchers: T, scales: Readonly<Record<string, number>> = {}): T {
  const out: Record<string, AnyMatcher> = {}
  for (const [name, fn] of Object.entries(matchers)) {
    const wrapped = function (this: MatcherContext, received: unknown, ...args: never[]): MatcherResult | Promise<MatcherResult> {
      const direct = isDirectAssertion(this)
      let result: MatcherResult | Promise<MatcherResult>
      try {
        result = fn.call(this, received, ...args)
      } catch (error) {
        if (direct) safeRecordError(this, name, received, error, scales[name])
        throw error
      }
      if (!direct) return result
      if (isPromiseLike(result)) {
        return result.then(
          (r) => {
            safeRecord(this, name, received, r, scales[name])
            return r
          },
          (error: unknown) => {
            safeRecordError(this, name, received, error, scales[name])
            throw error
          },
        )
      }
      safeRecord(this, name, received, result, scales[name])
      return result
    }
    Object.defineProperty(wrapped, 'name', { value: fn.name || name })
    out[name] = wrapped
  }
  return out as T
}

function isDirectAssertion(ctx: MatcherContext | undefined): boolean {
  return ctx !== undefined && ctx !== null && typeof ctx.promise === 'string'
}

function isPromiseLike(value: unknown): value is Promise<MatcherResult> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function'
}

function safeRecord(ctx: MatcherContext, name: string, received: unknown, result: MatcherResult, scale: number | undefined): void {
  try {
    const meta = result?.meta
    if (meta === undefined || meta === null) return
    const record = toRecord(ctx, name, received, result.pass, meta)
    deliver(ctx, scale === undefined ? record : { ...record, scale })
  } catch {
    // A reporter aid must never fail or change a test.
  }
}

function safeRecordError(ctx: MatcherContext, name: string, received: unknown, error: unknown, scale: number | undefined): void {
  try {
    const record = toErrorRecord(ctx, name, received, error)
    deliver(ctx, scale === undefined ? record : { ...record, scale })
  } catch {
    // A reporter aid must never fail or change a test.
  }
}

interface VitestTaskLike {
  type?: string
  name?: string
  fullTestName?: string
  meta: Record<string, unknown>
  suite?: { name?: string; suite?: unknown } | undefined
  file?: { filepath?: string }
  result?: { retryCount?: number; repeatCount?: number }
}

function asTask(task: unknown): VitestTaskLike | undefined {
  if (task === null || typeof task !== 'object') return undefined
  const t = task as VitestTaskLike
  return t.meta !== null && typeof t.meta === 'object' ? t : undefined
}

let seq = 0

function deliver(ctx: MatcherContext, record: RecordedAssertion): void {
  const task = asTask(ctx.task)
  if (task !== undefined) {
    const existing = task.meta[TASK_META_KEY]
    // A new array each time: Vitest copies suite meta into test meta shallowly, so never push into one we did not create.
    task.meta[TASK_META_KEY] = [
      ...(Array.isArray(existing) ? existing : []),
      {
        ...record,
        test: { name: task.name, fullName: task.fullTestName, file: task.file?.filepath ?? ctx.testPath, describe: describePath(task) },
        attempt: task.result?.retryCount ?? 0,
        repeat: task.result?.repeatCount ?? 0,
      },
    ]
    return
  }
  const dir = process.env[RESULTS_DIR_ENV]
  if (dir === undefined || dir === '') return
  const line = { ...record, test: { fullName: ctx.currentTestName, file: ctx.testPath }, seq: seq++, pid: process.pid }
  appendFileSync(join(dir, `${process.pid}-${threadId}.jsonl`), `${JSON.stringify(line)}\n`)
}

function describePath(task: VitestTaskLike): string[] {
  const names: string[] = []
  let suite = task.suite as { name?: string; suite?: unknown; type?: string; filepath?: string } | undefined
  // The file itself is the outermost suite in Vitest (it has a `filepath`); stop there.
  while (suite !== undefined && suite !== null && suite.filepath === undefined) {
    if (typeof suite.name === 'string' && suite.name !== '') names.unshift(suite.name)
    suite = suite.suite as typeof suite
  }
  return names
}
