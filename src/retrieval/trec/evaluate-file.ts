import { evaluateTrec, TrecEvaluation, type TrecEvalOptions, type TrecEvalTable } from './evaluate.js'
import { TrecEvalError } from './errors.js'
import type { TrecQrels } from './qrels.js'
import { parseRun, RunBuilder, type TrecRun } from './run.js'
import { parseRunStream, pump } from './stream.js'
import { evaluateInWorker, findTopicBoundary, SPLIT_MAX_JUDGMENTS, SPLIT_MIN_BYTES, workerModule, workerThreads, type RangeOutcome } from './split-run.js'

/** Documents per batch: large enough that per-batch work is negligible, small enough to stay in cache. */
const BATCH_DOCS = 1 << 18

/** Thrown inside the reader to stop it: a topic's lines resumed after another's. */
class TopicResumed extends Error {}

export interface EvaluateFileOptions {
  /** the function name in errors */
  readonly fn?: string
  /** the run's name in error messages (defaults to the path) */
  readonly source?: string
  /** documents per batch (tests make it small to cross many batch boundaries) */
  readonly batchDocs?: number
  /**
   * Threads: 1 reads the file in this thread; 2 evaluates the second half in a worker thread. Default: 2 for a
   * file of at least 32 MB with at most 100,000 judgments, on a machine with two or more cores (when the worker
   * module is found), else 1.
   */
  readonly threads?: number
}

/**
 * {@link evaluateTrec} on a run file, without holding the run: the file is read in batches of whole topics, each
 * batch is evaluated and its memory reused for the next; on two cores the second half of a large file is
 * evaluated at the same time in a worker thread (split at a topic boundary). Runs list each topic as one stretch
 * of lines (trec_eval's own output and every tool we know write them so); when a topic's lines resume after
 * another topic's, or anything is irregular (a malformed line, invalid measures or options, empty qrels, a worker
 * that fails), the file is read again the ordinary way ({@link parseRunStream}, then {@link evaluateTrec}), so the
 * table and every error are exactly theirs.
 *
 * Why: the whole-run columns of a 250 MB run are ~160 MB of fresh memory, and first-touching fresh pages costs
 * more on our CI machines than parsing the bytes that fill them; and trec_eval's work is independent per topic.
 */
export async function evaluateTrecFile(
  qrels: TrecQrels,
  runPath: string,
  measures: readonly string[],
  options: TrecEvalOptions = {},
  { fn = 'evaluateTrecFile', source = runPath, batchDocs = BATCH_DOCS, threads }: EvaluateFileOptions = {},
): Promise<TrecEvalTable> {
  const ordinary = async () => evaluateTrec(qrels, await parseRunStream(runPath, { source }), measures, options, fn)
  let evaluation: TrecEvaluation
  try {
    evaluation = new TrecEvaluation(qrels, measures, options, fn)
  } catch {
    return ordinary()
  }

  const { stat } = await import('node:fs/promises')
  const size = (await stat(runPath)).size
  const useThreads = threads ?? (size >= SPLIT_MIN_BYTES && qrels.size <= SPLIT_MAX_JUDGMENTS ? workerThreads() : 1)
  if (useThreads > 1 && workerModule() === undefined) throw new Error(`${fn}: cannot use ${useThreads} threads: the worker module is not next to this build`)
  const split = useThreads > 1 ? await findTopicBoundary(runPath, size) : -1
  if (split < 0) {
    const outcome = await evaluateRange(evaluation, runPath, { fn, source, batchDocs })
    return outcome.resumed ? ordinary() : finish(evaluation, [outcome])
  }

  const worker = evaluateInWorker({ qrels, measures, options, fn, source, runPath, batchDocs, start: split, end: size })
  let first: RangeOutcome
  let second: Awaited<typeof worker>
  try {
    first = await evaluateRange(evaluation, runPath, { fn, source, batchDocs, start: 0, end: split })
    second = await worker
  } catch {
    // a malformed line or unreadable bytes in either half: the ordinary reading reports it exactly
    await worker.catch(() => undefined)
    return ordinary()
  }
  const firstTopics = new Set(first.topics)
  if (first.resumed || second.outcome.resumed || second.outcome.topics.some((t) => firstTopics.has(t))) return ordinary()
  second.outcome.seen.forEach((seen, q) => {
    if (seen) evaluation.adoptRow(q, second.values, second.relstrings[q] ?? '')
  })
  return finish(evaluation, [first, second.outcome])
}

/** Merges the ranges (in file order) into the table, raising the first error in trec_eval's topic order. */
function finish(evaluation: TrecEvaluation, ranges: readonly RangeOutcome[]): TrecEvalTable {
  const topics = evaluation.topics
  // topics without results rank trec_eval's bogus docno, which needs no run
  const ranker = evaluation.ranker(parseRun(''))
  for (let q = 0; q < topics.length; q += 1) {
    const holder = ranges.find((r) => r.seen[q] === 1)
    if (holder) {
      const error = holder.errors[q]
      if (error) throw error
      continue
    }
    evaluation.missing(q)
    evaluation.row(ranker, q, -1)
  }
  let runId = ''
  for (const r of ranges) if (r.topics.length > 0) runId = r.runId
  return evaluation.table(runId)
}

/**
 * Evaluates bytes `[start, end)` of the run file (the whole file by default), batch by batch, into the rows of
 * `evaluation`. Stops early (resumed: true) when a topic's lines resume after another's.
 */
export async function evaluateRange(
  evaluation: TrecEvaluation,
  runPath: string,
  { fn, source, batchDocs, start, end }: { fn: string; source: string; batchDocs: number; start?: number; end?: number },
): Promise<RangeOutcome> {
  const topics = evaluation.topics
  const seen = new Uint8Array(topics.length)
  const errors: Array<TrecEvalError | undefined> = new Array<TrecEvalError | undefined>(topics.length)
  const evaluateBatch = (run: TrecRun): void => {
    const ranker = evaluation.ranker(run)
    for (let t = 0; t < run.topicIds.length; t += 1) {
      const q = evaluation.topicIndex(run.topicIds[t] as string)
      if (q < 0) continue
      seen[q] = 1
      try {
        evaluation.row(ranker, q, t)
      } catch (error) {
        // kept until the end: an earlier topic's error (or a malformed line further on) takes precedence
        if (!(error instanceof TrecEvalError)) throw error
        errors[q] = error
      }
    }
  }

  const range = start === undefined || end === undefined ? undefined : { start, end }
  const builder = new RunBuilder(fn, source, BATCH_DOCS * 40, (range?.start ?? 0) === 0)
  const stopped = { resumed: true, topics: [], runId: '', seen, errors }
  try {
    await pump(
      fn,
      runPath,
      {
        push(chunk) {
          builder.push(chunk)
          if (builder.topicsResumed) throw new TopicResumed()
          if (builder.size < batchDocs) return
          const finished = builder.finishedTopics()
          if (finished === null) return
          evaluateBatch(finished)
          builder.dropFinished()
        },
      },
      range,
    )
  } catch (error) {
    if (error instanceof TopicResumed) return stopped
    throw error
  }
  const last = builder.finishBatches()
  if (builder.topicsResumed) return stopped
  evaluateBatch(last)
  return { resumed: false, topics: builder.topics, runId: builder.lastRunId, seen, errors }
}
