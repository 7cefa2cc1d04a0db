import { MetricInputError } from '../../errors.js'

/**
 * A line of a qrels or run file that trec_eval would refuse ("Malformed line"). Never skipped: the message names
 * the source and the 1-based physical line number, and quotes the line.
 *
 * `parseRun: Expected `run.txt line 3` to be a run line `qid iter docno rank sim run_id`, got `"301 Q0 D1"` (string)`
 */
export class TrecFormatError extends MetricInputError {
  constructor(
    fn: string,
    readonly source: string,
    readonly line: number,
    expected: string,
    readonly text: string,
  ) {
    super(fn, `${source} line ${line}`, expected, text)
  }
}

export type TrecEvalErrorCode = 'duplicate-docno' | 'duplicate-qrels-docno' | 'missing-topic' | 'empty-qrels'

/**
 * Input that parses but that trec_eval 10.0 refuses to evaluate (it exits with status 4): a docno retrieved twice
 * for one topic, a docno judged twice for one topic, or (without `-c`) a qrels topic with no results in the run.
 */
export class TrecEvalError extends MetricInputError {
  constructor(
    fn: string,
    argument: string,
    expected: string,
    readonly code: TrecEvalErrorCode,
    readonly topic: string | undefined,
    readonly docno: string | undefined,
  ) {
    super(fn, argument, expected, docno === undefined ? { topic } : { topic, docno })
  }
}
