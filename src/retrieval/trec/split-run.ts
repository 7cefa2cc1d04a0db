/**
 * Two-thread evaluation of a large run file (see `evaluate-file.ts`): where to split it, and the worker that
 * evaluates the second half. Node-only; loaded by the file reader only.
 */
import { existsSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { TrecEvalError, type TrecEvalErrorCode } from './errors.js'
import type { TrecEvalOptions } from './evaluate.js'
import type { TrecQrels } from './qrels.js'

/** Below this size a second thread costs more (start-up, qrels copy) than it saves. */
export const SPLIT_MIN_BYTES = 32 << 20

/**
 * Above this many judgments, one thread: the worker builds its own index of the qrels, and with hundreds of
 * thousands of judgments (100,000 topics) that costs about as much as the half of the run it would save.
 */
export const SPLIT_MAX_JUDGMENTS = 100_000

/** Bytes read around the middle to find a topic boundary: hundreds of lines of any usual run. */
const WINDOW = 1 << 20

/** Threads to use by default: two on a machine with two or more cores when the worker module is present. */
export function workerThreads(): number {
  return availableParallelism() >= 2 && workerModule() !== undefined ? 2 : 1
}

/**
 * The built worker module. The code that starts it may sit in a chunk at the package's dist root or next to the
 * worker (unbundled); from the TypeScript sources (tests) there is none, and the reader uses one thread.
 */
export function workerModule(): URL | undefined {
  const ext = import.meta.url.endsWith('.cjs') ? 'cjs' : 'js'
  for (const candidate of [`./src/retrieval/trec/range-worker.${ext}`, `./range-worker.${ext}`, `../src/retrieval/trec/range-worker.${ext}`]) {
    const url = new URL(candidate, import.meta.url)
    if (existsSync(fileURLToPath(url))) return url
  }
  return undefined
}

/** C `isspace` except `\n`. */
function isBlank(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13 && c !== 10)
}

/**
 * The offset of a line near the middle of the file whose qid differs from the previous run line's (blank and
 * comment lines skipped), or -1 when the window around the middle has no such change.
 */
export async function findTopicBoundary(runPath: string, size: number): Promise<number> {
  const from = Math.floor(size / 2)
  const buf = new Uint8Array(Math.min(WINDOW, size - from))
  const handle = await open(runPath, 'r')
  try {
    await handle.read(buf, 0, buf.length, from)
  } finally {
    await handle.close()
  }
  let p = buf.indexOf(10) + 1
  if (p === 0) return -1
  let prev: Uint8Array | undefined
  for (;;) {
    const lineEnd = buf.indexOf(10, p)
    if (lineEnd < 0) return -1
    let q = p
    while (q < lineEnd && isBlank(buf[q] as number)) q += 1
    if (q < lineEnd && buf[q] !== 35) {
      let e = q
      while (e < lineEnd && !isBlank(buf[e] as number)) e += 1
      const qid = buf.subarray(q, e)
      if (prev !== undefined && !sameBytes(prev, qid)) return from + p
      prev = qid
    }
    p = lineEnd + 1
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let k = 0; k < a.length; k += 1) if (a[k] !== b[k]) return false
  return true
}

/** What one byte range of the run gave: the rows are in the evaluation it was given. */
export interface RangeOutcome {
  /** a topic's lines resumed after another's: the caller must fall back to the ordinary reading */
  readonly resumed: boolean
  /** run topics in order of first appearance */
  readonly topics: readonly string[]
  /** the run_id of the range's last line ('' when it has none) */
  readonly runId: string
  /** per qrels topic: 1 when the range has its results */
  readonly seen: Uint8Array
  /** per qrels topic: the error its evaluation raised */
  readonly errors: ReadonlyArray<TrecEvalError | undefined>
}

/** What the main thread sends the worker. */
export interface RangeTask {
  readonly qrels: TrecQrels['topics']
  readonly measures: readonly string[]
  readonly options: TrecEvalOptions
  readonly fn: string
  readonly source: string
  readonly runPath: string
  readonly batchDocs: number
  readonly start: number
  readonly end: number
}

/** An error as it crosses threads. */
export interface SentError {
  readonly q: number
  readonly fn: string
  readonly argument: string
  readonly expected: string
  readonly code: TrecEvalErrorCode
  readonly topic: string | undefined
  readonly docno: string | undefined
}

/** What the worker sends back. */
export type RangeReply =
  | {
      readonly ok: true
      readonly resumed: boolean
      readonly topics: readonly string[]
      readonly runId: string
      readonly seen: Uint8Array
      readonly errors: readonly SentError[]
      readonly values: Float64Array
      readonly relstrings: readonly string[]
    }
  | { readonly ok: false; readonly message: string }

/** Evaluates bytes `[start, end)` of the run in a worker thread: the range's outcome and its evaluation's rows. */
export function evaluateInWorker(
  task: Omit<RangeTask, 'qrels'> & { readonly qrels: TrecQrels },
): Promise<{ outcome: RangeOutcome; values: Float64Array; relstrings: readonly string[] }> {
  const url = workerModule()
  if (url === undefined) return Promise.reject(new Error('the trec worker module is missing'))
  const workerData: RangeTask = { ...task, qrels: task.qrels.topics }
  return new Promise((resolve, reject) => {
    const worker = new Worker(url, { workerData })
    worker.once('message', (reply: RangeReply) => {
      if (!reply.ok) {
        reject(new Error(reply.message))
        return
      }
      const errors = new Array<TrecEvalError | undefined>(reply.seen.length)
      for (const e of reply.errors) errors[e.q] = new TrecEvalError(e.fn, e.argument, e.expected, e.code, e.topic, e.docno)
      resolve({
        outcome: { resumed: reply.resumed, topics: reply.topics, runId: reply.runId, seen: reply.seen, errors },
        values: reply.values,
        relstrings: reply.relstrings,
      })
    })
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the trec worker exited with code ${code} before replying`)))
  })
}
