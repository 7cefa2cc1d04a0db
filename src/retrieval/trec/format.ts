import { formatFixed, formatLong, padRight } from './c-format.js'
import { keysOf } from '../../option-keys.js'
import { checkOptionKeys } from '../../options.js'
import type { TrecEvalColumn, TrecEvalTable } from './evaluate.js'

export interface TrecFormatOptions {
  /** `-q`: per-topic lines before the summary. Default false. */
  readonly perQuery?: boolean
  /** the `all` summary lines (`-n` turns them off). Default true. */
  readonly summary?: boolean
}

/** The keys of {@link TrecFormatOptions}: what trecEvalLines and formatTrecEval accept. */
export const TREC_FORMAT_OPTION_KEYS = keysOf<TrecFormatOptions>()('perQuery', 'summary')

function value(column: TrecEvalColumn, v: number): string {
  return column.kind === 'long' ? formatLong(v) : formatFixed(v, 4, 6)
}

/**
 * trec_eval's text output, line by line (no `\n`): `%-22s\t%s\t%6.4f` for reals, `%ld` for counts, `'…'` for
 * relstring, `runid` as text; per-topic lines (with `perQuery`) topic by topic in trec_eval's order, then the
 * `all` lines. `%6.4f` rounds half to even on the exact binary value, as glibc does.
 *
 * @example
 * const table = evaluateTrec(parseQrels('q 0 a 1\n'), parseRun('q Q0 a 1 1 myrun\n'), ['P.1', 'runid'])
 * [...trecEvalLines(table, { perQuery: true })]
 * // ['P_1                   \tq\t1.0000', 'runid                 \tall\tmyrun', 'P_1                   \tall\t1.0000']
 */
export function trecEvalLines(table: TrecEvalTable, options: TrecFormatOptions = {}): Generator<string> {
  // checked here, not inside the generator, so a bad key throws at the call rather than at the first `next()`
  checkOptionKeys('trecEvalLines', options, TREC_FORMAT_OPTION_KEYS)
  return lines(table, options)
}

function* lines(table: TrecEvalTable, options: TrecFormatOptions): Generator<string> {
  const { columns, topics, values, width, summary } = table
  if (options.perQuery) {
    for (let t = 0; t < topics.length; t += 1) {
      const qid = topics[t] as string
      for (const c of columns) {
        if (!c.perQuery) continue
        if (c.slot < 0) yield `${padRight(c.name, 22)}\t${qid}\t'${table.relstrings?.[t] ?? ''}'`
        else yield `${padRight(c.name, 22)}\t${qid}\t${value(c, values[t * width + c.slot] as number)}`
      }
    }
  }
  if (options.summary ?? true) {
    for (const c of columns) {
      if (!c.summary) continue
      if (c.slot < 0) yield `${padRight(c.name, 22)}\tall\t${table.runId}`
      else yield `${padRight(c.name, 22)}\tall\t${value(c, summary[c.slot] as number)}`
    }
  }
}

/**
 * trec_eval's stock output as one string (each line ends with `\n`), byte for byte what trec_eval 10.0 prints for
 * the same measures and options.
 *
 * @example
 * const qrels = parseQrels('q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\n')
 * const run = parseRun('q1 Q0 d2 1 0.9 r\nq1 Q0 d1 2 0.9 r\nq1 Q0 d3 3 0.1 r\n')
 * formatTrecEval(evaluateTrec(qrels, run, ['P.5', 'map']))
 * // 'map                   \tall\t0.5833\nP_5                   \tall\t0.4000\n' (trec_eval's order, not the request's)
 */
export function formatTrecEval(table: TrecEvalTable, options: TrecFormatOptions = {}): string {
  checkOptionKeys('formatTrecEval', options, TREC_FORMAT_OPTION_KEYS)
  let out = ''
  for (const line of lines(table, options)) out += `${line}\n`
  return out
}
