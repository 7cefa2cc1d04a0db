/**
 * `rag-matchers trec QRELS RUN [-m MEASURE]... [-q] [-c] [-l LEVEL] [-M N] [-n] [-N N] [-J] [--json]`
 *
 * trec_eval 10.0 in Node: same options, same measures, same text output byte for byte (`%-22s\t%s\t%6.4f`,
 * counts as integers, per-topic lines with -q, then the `all` lines). `-` reads a file from stdin. Files are read
 * in chunks and never held as text. Exit codes: 0 ok, 1 usage, 2 unreadable/malformed input, 4 evaluation refused
 * (duplicate docno, qrels topic without results without -c), 70 internal error.
 */
import { MetricInputError } from '../src/errors.js'
import {
  evaluateTrec,
  parseQrelsStream,
  parseRunStream,
  tableToResult,
  type TrecEvalTable,
  TrecEvalError,
  TrecFormatError,
  trecEvalLines,
  type TrecEvalOptions,
  type TrecSource,
} from '../src/retrieval/trec/index.js'
import { evaluateTrecFile } from '../src/retrieval/trec/evaluate-file.js'
import { resolveMeasures } from '../src/retrieval/trec/measures.js'
import { cannotRead, cliMessage, EXIT, reportFailure, writeOut, type CliIo } from './io.js'
import { unknownMeasureMessage } from './trec-measure-hint.js'

const HELP = `Usage: rag-matchers trec QRELS RUN [options]

Evaluate a TREC run against qrels with trec_eval 10.0's rules, measures and output.
QRELS lines: qid iter docno rel      RUN lines: qid iter docno rank sim run_id
Use - for one of the files to read it from stdin.

Options (as trec_eval):
  -m MEASURE[.PARAMS]  measure to compute, repeatable: map, P.5,10, recall.100, ndcg_cut.10,
                       map_cut.100, recip_rank, Rprec, bpref, success.1,5, ndcg, num_q, ...
                       or a set: official (default), set, all_trec
  -q                   also print the value of every topic
  -c                   average over all qrels topics; topics without results score 0
  -l LEVEL             smallest judgment that counts as relevant (default 1)
  -M N                 evaluate only the top N documents of each topic
  -n                   no summary ('all') lines
  -N N                 number of documents in the collection (utility only)
  -J                   evaluate judged documents only (trec_eval: do not use lightly)
  --json               print {perQuery, mean, topics, runId} as JSON at full precision
  -h, --help           this help

Exit codes: 0 ok, 1 usage, 2 unreadable or malformed input, 4 evaluation refused
(duplicate docno, qrels topic without results and no -c), 70 internal error.
`

interface Parsed {
  readonly files: string[]
  readonly measures: string[]
  readonly perQuery: boolean
  readonly summary: boolean
  readonly json: boolean
  readonly help: boolean
  readonly options: TrecEvalOptions
}

class UsageError extends Error {}

const WITH_VALUE = new Set(['m', 'l', 'M', 'N'])
const LONG: Record<string, string> = {
  help: 'h',
  query_eval_wanted: 'q',
  measure: 'm',
  complete_rel_info_wanted: 'c',
  level_for_rel: 'l',
  nosummary: 'n',
  Number_docs_in_coll: 'N',
  Max_retrieved_per_topic: 'M',
  Judged_docs_only: 'J',
}

/** getopt_long-style parsing: clustered flags (`-qc`), attached values (`-mP.10`, `-M100`), options after files. */
function parseArgs(argv: readonly string[]): Parsed {
  const files: string[] = []
  const measures: string[] = []
  let perQuery = false
  let summary = true
  let json = false
  let help = false
  const options: { -readonly [K in keyof TrecEvalOptions]: TrecEvalOptions[K] } = {}
  const integer = (flag: string, text: string, min: number): number => {
    if (!/^[+-]?\d+$/.test(text) || Number(text) < min) {
      throw new UsageError(`option -${flag} expects ${min > 0 ? 'a positive' : min === 0 ? 'a non-negative' : 'an'} integer, got '${text}'`)
    }
    return Number(text)
  }
  const apply = (flag: string, value: string | undefined) => {
    switch (flag) {
      case 'h':
        help = true
        break
      case 'q':
        perQuery = true
        break
      case 'c':
        options.completeTopics = true
        break
      case 'n':
        summary = false
        break
      case 'J':
        options.judgedOnly = true
        break
      case 'm':
        measures.push(value as string)
        break
      case 'l':
        options.relevanceLevel = integer('l', value as string, Number.MIN_SAFE_INTEGER)
        break
      case 'M':
        options.maxRetrieved = integer('M', value as string, 1)
        break
      case 'N':
        options.numDocsInCollection = integer('N', value as string, 0)
        break
      default:
        throw new UsageError(`unknown option -${flag}`)
    }
  }
  let onlyFiles = false
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string
    if (onlyFiles || arg === '-' || !arg.startsWith('-')) {
      files.push(arg)
    } else if (arg === '--') {
      onlyFiles = true
    } else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=')
      const name = arg.slice(2, eq < 0 ? undefined : eq)
      if (name === 'json') {
        json = true
        continue
      }
      const flag = LONG[name]
      if (flag === undefined) throw new UsageError(`unknown option --${name}`)
      let value: string | undefined
      if (WITH_VALUE.has(flag)) {
        value = eq >= 0 ? arg.slice(eq + 1) : argv[++i]
        if (value === undefined) throw new UsageError(`option --${name} needs a value`)
      }
      apply(flag, value)
    } else {
      for (let k = 1; k < arg.length; k += 1) {
        const flag = arg[k] as string
        if (WITH_VALUE.has(flag)) {
          const value = k + 1 < arg.length ? arg.slice(k + 1) : argv[++i]
          if (value === undefined) throw new UsageError(`option -${flag} needs a value`)
          apply(flag, value)
          break
        }
        apply(flag, undefined)
      }
    }
  }
  return { files, measures, perQuery, summary, json, help, options }
}

function sourceOf(path: string, io: CliIo): TrecSource {
  if (path !== '-') return path
  if (!io.stdin) throw new UsageError("'-' needs standard input, which is not available here")
  return io.stdin
}

/** A file that could not be read (the errno error, with the path we were reading). */
class ReadError extends Error {
  constructor(
    readonly path: string,
    errno: NodeJS.ErrnoException,
  ) {
    super(cannotRead(path, errno), { cause: errno })
  }
}

async function read<T>(path: string, parse: (source: string) => Promise<T>): Promise<T> {
  try {
    return await parse(path === '-' ? '<stdin>' : path)
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    if (typeof e?.code === 'string' && typeof e.syscall === 'string') throw new ReadError(path, e)
    throw error
  }
}

/**
 * Reads both files and evaluates. A run file is evaluated batch by batch as it is read (evaluateTrecFile: same
 * table, same errors, a fraction of the memory); a run on stdin is read whole first.
 */
async function evaluate(qrelsPath: string, runPath: string, measures: readonly string[], options: TrecEvalOptions, io: CliIo): Promise<TrecEvalTable> {
  const qrels = await read(qrelsPath, (source) => parseQrelsStream(sourceOf(qrelsPath, io), { source }))
  if (runPath !== '-') return read(runPath, (source) => evaluateTrecFile(qrels, runPath, measures, options, { fn: 'trec', source }))
  const run = await read(runPath, (source) => parseRunStream(sourceOf(runPath, io), { source }))
  return evaluateTrec(qrels, run, measures, options, 'trec')
}

/** JSON has no NaN/Infinity; write them as strings, as the golden files do. */
function jsonValue(_key: string, value: unknown): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
  return value
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const fail = (code: number, message: string): number => reportFailure(io, 'trec', code, message)
  let parsed: Parsed
  try {
    parsed = parseArgs(argv)
  } catch (error) {
    if (error instanceof UsageError) return fail(EXIT.usage, `${error.message}\n\n${HELP}`)
    throw error
  }
  if (parsed.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const [qrelsPath, runPath] = parsed.files
  if (parsed.files.length !== 2 || qrelsPath === undefined || runPath === undefined) {
    return fail(EXIT.usage, `expected two files, QRELS and RUN, got ${parsed.files.length}\n\n${HELP}`)
  }
  if (qrelsPath === '-' && runPath === '-') return fail(EXIT.usage, "only one of QRELS and RUN can be '-' (stdin)")
  // the measures are checked before the (possibly large) files are read
  try {
    resolveMeasures('trec', parsed.measures.length > 0 ? parsed.measures : ['official'])
  } catch (error) {
    if (error instanceof MetricInputError) {
      const unknown = error.expected.startsWith('a trec_eval measure (') && typeof error.received === 'string'
      return fail(EXIT.usage, unknown ? unknownMeasureMessage(error.received as string) : cliMessage(error))
    }
    throw error
  }

  let table
  try {
    table = await evaluate(qrelsPath, runPath, parsed.measures.length > 0 ? parsed.measures : ['official'], parsed.options, io)
  } catch (error) {
    if (error instanceof UsageError) return fail(EXIT.usage, error.message)
    if (error instanceof TrecFormatError) {
      const what = error.fn.startsWith('parseQrels') ? 'qrels line `qid iter docno rel`' : 'run line `qid iter docno rank sim run_id`'
      return fail(EXIT.input, `${error.source} line ${error.line}: malformed, expected a ${what}: ${JSON.stringify(error.text)}`)
    }
    if (error instanceof ReadError) return fail(EXIT.input, error.message)
    if (error instanceof TrecEvalError) {
      const file = error.code === 'duplicate-qrels-docno' || error.code === 'empty-qrels' ? qrelsPath : runPath
      switch (error.code) {
        case 'missing-topic':
          return fail(
            EXIT.evaluation,
            `topic '${error.topic}' has judgments in ${qrelsPath} but no results in ${runPath}; trec_eval 10.0 refuses this too (exit 4). Use -c to score such topics as 0.`,
          )
        case 'duplicate-docno':
          return fail(EXIT.evaluation, `docno '${error.docno}' is retrieved more than once for topic '${error.topic}' in ${file}; trec_eval refuses duplicates (exit 4).`)
        case 'duplicate-qrels-docno':
          return fail(EXIT.evaluation, `docno '${error.docno}' is judged more than once for topic '${error.topic}' in ${file}; trec_eval refuses duplicates (exit 4).`)
        case 'empty-qrels':
          return fail(EXIT.input, `${file} has no judgments`)
      }
    }
    if (error instanceof MetricInputError) return fail(EXIT.usage, cliMessage(error))
    throw error
  }

  if (parsed.json) {
    const result = tableToResult(table)
    await writeOut(io.stdout, `${JSON.stringify(result, jsonValue, 2)}\n`)
    return EXIT.ok
  }
  // Written in ~256 KB batches: a -q run over 100k topics is millions of lines.
  let batch = ''
  for (const line of trecEvalLines(table, { perQuery: parsed.perQuery, summary: parsed.summary })) {
    batch += `${line}\n`
    if (batch.length >= 1 << 18) {
      await writeOut(io.stdout, batch)
      batch = ''
    }
  }
  if (batch) await writeOut(io.stdout, batch)
  return EXIT.ok
}
