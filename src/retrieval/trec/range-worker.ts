/**
 * Worker thread of the two-thread file reader (`split-run.ts`): evaluates one byte range of a run file with the
 * same qrels, measures and options, and sends back the rows it computed. Any failure is sent as a message; the
 * main thread then reads the file the ordinary way, which reports it exactly.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { TrecEvaluation } from './evaluate.js'
import { evaluateRange } from './evaluate-file.js'
import { TrecQrels } from './qrels.js'
import type { RangeReply, RangeTask, SentError } from './split-run.js'

async function evaluate(task: RangeTask): Promise<RangeReply> {
  const evaluation = new TrecEvaluation(new TrecQrels(task.qrels), task.measures, task.options, task.fn)
  const outcome = await evaluateRange(evaluation, task.runPath, task)
  const errors: SentError[] = []
  outcome.errors.forEach((e, q) => {
    if (e) errors.push({ q, fn: e.fn, argument: e.argument, expected: e.expected, code: e.code, topic: e.topic, docno: e.docno })
  })
  const relstrings = evaluation.topics.map((_, q) => evaluation.relstring(q))
  return { ok: true, resumed: outcome.resumed, topics: outcome.topics, runId: outcome.runId, seen: outcome.seen, errors, values: evaluation.values, relstrings }
}

const port = parentPort
if (port) {
  evaluate(workerData as RangeTask).then(
    (reply) => port.postMessage(reply, reply.ok ? [reply.values.buffer as ArrayBuffer, reply.seen.buffer as ArrayBuffer] : []),
    (error: unknown) => port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) } satisfies RangeReply),
  )
}
