import { evaluateTrec, TrecEvaluation, type TrecEvalOptions, type TrecEvalTable } from './evaluate.js'
import { TrecEvalError } from './errors.js'
import type { TrecQrels } from './qrels.js'
import { COLUMN_ROWS } from './run-kernel.js'
import { parseRun, RunBuilder, type RunReaderMode, type TrecRun } from './run.js'
import { parseRunStream, pump } from './stream.js'

/**
 * Documents per batch: large enough that per-batch work is negligible, small enough (~1.5 MB of columns) that a
 * batch is still in cache when it is evaluated right after being parsed (measured faster than 2^18 here).
 */
const BATCH_DOCS = 1 << 16

/** Thrown inside the reader to stop it: a topic's lines resumed after another's. */
class TopicResumed extends Error {}

export interface EvaluateFileOptions {
  /** the function name in errors */
  readonly fn?: string
  /** the run's name in error messages (defaults to the path) */
  readonly source?: string
  /** documents per batch (tests make it small to cross many batch boundaries) */
  readonly batchDocs?: number
  /** how lines are read (tests: `wasm` for every block, `js` never) */
  readonly mode?: RunReaderMode
  /**
   * rows a batch may keep in the WebAssembly kernel's memory, where the kernel also ranks them (tests make it
   * small so that batches outgrow it); 0: none
   */
  readonly residentRows?: number
}

/**
 * {@link evaluateTrec} on a run file, without holding the run: the file is read in batches of whole topics, each
 * batch is evaluated and its memory reused for the next. Runs list each topic as one stretch of lines (trec_eval's
 * own output and every tool we know write them so); when a topic's lines resume after another topic's, or anything
 * is irregular before the first batch (invalid measures or options, empty qrels), the file is read again the
 * ordinary way ({@link parseRunStream}, then {@link evaluateTrec}), so the table and every error are exactly theirs.
 * Errors keep `evaluateTrec`'s precedence: a malformed line anywhere first, then the first qrels topic (in
 * trec_eval's order) that has no results or a duplicate docno.
 *
 * Why: the whole-run columns of a 250 MB run are ~160 MB of fresh memory, and first-touching fresh pages costs
 * more on our CI machines than parsing the bytes that fill them. Two threads were tried and measured slower on
 * the 2-core machines we run on: evaluating the second half of the file in a worker (its start-up and its own
 * qrels index cost more than the half of the parse it saves), and parsing in a worker while this thread evaluates
 * the batch before (1.05 s against 0.96 s, with 30% more CPU: the transferred batches arrive cold in this core's
 * cache, and the reader thread competes with the I/O and GC threads for the second core).
 */
export async function evaluateTrecFile(
  qrels: TrecQrels,
  runPath: string,
  measures: readonly string[],
  options: TrecEvalOptions = {},
  { fn = 'evaluateTrecFile', source = runPath, batchDocs = BATCH_DOCS, mode = 'auto', residentRows = COLUMN_ROWS }: EvaluateFileOptions = {},
): Promise<TrecEvalTable> {
  const ordinary = async () => evaluateTrec(qrels, await parseRunStream(runPath, { source }), measures, options, fn)
  let evaluation: TrecEvaluation
  try {
    evaluation = new TrecEvaluation(qrels, measures, options, fn)
  } catch {
    return ordinary()
  }
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

  const builder = new RunBuilder(fn, source, BATCH_DOCS * 40, mode, residentRows)
  try {
    await pump(fn, runPath, {
      readBuffers: (size, fileBytes) => builder.readBuffers(size, fileBytes),
      push(chunk) {
        builder.push(chunk)
        if (builder.topicsResumed) throw new TopicResumed()
        if (builder.size < batchDocs) return
        const finished = builder.finishedTopics()
        if (finished === null) return
        evaluateBatch(finished)
        builder.dropFinished()
      },
    })
  } catch (error) {
    if (error instanceof TopicResumed) return ordinary()
    throw error
  }
  const last = builder.finishBatches()
  if (builder.topicsResumed) return ordinary()
  evaluateBatch(last)

  // topics without results rank trec_eval's bogus docno, which needs no run
  const ranker = evaluation.ranker(parseRun(''))
  for (let q = 0; q < topics.length; q += 1) {
    const error = errors[q]
    if (error) throw error
    if (seen[q]) continue
    evaluation.missing(q)
    evaluation.row(ranker, q, -1)
  }
  return evaluation.table(last.runId)
}
