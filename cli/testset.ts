/**
 * `rag-matchers testset generate`: an eval set written by a model from your chunks, its ground truth
 * checked (the command form of generateEvalSet, docs/testset.md).
 *
 *   rag-matchers testset generate --chunks chunks.jsonl | --corpus DIR [--chunk-size N] --out eval/qa.jsonl --judge ollama:MODEL|openai:MODEL
 *       [--host URL] [--base-url URL] [-n 50] [--seed 1] [--kinds factual=3,numeric=1] [--cache DIR]
 *       [--cache-mode readwrite|read|replay|off] [--timeout-ms MS] [--concurrency C] [--max-keyword-share S] [--max-question-overlap O]
 *
 * Writes OUT (JSON Lines that loadDataset reads) and OUT's name with `.summary.json` (the summary and every
 * rejected question with its reason), each through a temporary file renamed into place, so an interrupted or
 * failed run leaves no partial file under either name. Prints the summary. Exit codes: 0 written (a set
 * smaller than asked, when the corpus ran out, is written and said so), 1 usage, 2 input (a chunks file
 * that cannot be read or is malformed, an empty corpus, duplicate ids, -n larger than the corpus supports,
 * a model that cannot be reached or used, a replay cache with nothing recorded). On a terminal (stderr a TTY,
 * `CI` unset, or `RAG_PROGRESS=on`) a progress bar is drawn on stderr and cleared line by line; nothing
 * otherwise.
 */
import { randomBytes } from 'node:crypto'
import { rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { loadCorpus, type CorpusChunk } from '../src/eval-set/load-dataset.js'
import { DEFAULT_JUDGE_CACHE_DIR, judgeCache, type JudgeCacheMode } from '../src/judge/cache.js'
import { JudgeError } from '../src/judge/errors.js'
import { ollamaJudge } from '../src/judge/ollama-judge.js'
import { openaiJudge } from '../src/judge/openai-judge.js'
import type { Judge } from '../src/judge/types.js'
import {
  chunkFolder,
  DEFAULT_CHUNK_SIZE,
  evalSetToJsonl,
  generateEvalSet,
  REJECTION_REASONS,
  TESTSET_KINDS,
  type GeneratedEvalSet,
  type TestsetKind,
} from '../src/testset/public.js'
import { shouldShowProgress } from '../src/eval-set/progress.js'
import { cannotRead, cliMessage, EXIT, reportFailure, writeOut, type CliIo } from './io.js'
import { progressBar } from './testset-progress.js'

export const TESTSET_USAGE = `usage: rag-matchers testset generate --chunks FILE | --corpus DIR --out FILE --judge ollama:MODEL|openai:MODEL [options]
  --chunks FILE            your chunks { id, text }: .jsonl, .ndjson or .json, ids as your retriever returns them
  --corpus DIR             or a folder of .txt/.md files, chunked by paragraphs (ids PATH#N, docs/testset.md)
  --chunk-size N           with --corpus: most characters per chunk (default ${DEFAULT_CHUNK_SIZE})
  --out FILE               the eval set (JSON Lines); the summary goes to FILE's name + .summary.json
  --judge KIND:MODEL       ollama:llama3.1:8b, or openai:gpt-4o-mini (OPENAI_API_KEY, OPENAI_BASE_URL)
  --host URL               the Ollama server (default OLLAMA_HOST, else http://127.0.0.1:11434)
  --base-url URL           the OpenAI-compatible server (default OPENAI_BASE_URL, else api.openai.com)
  -n N                     questions wanted (default 50)
  --seed S                 seeds the chunk sample (default 1)
  --kinds K=W,...          the mix of ${TESTSET_KINDS.join(', ')} (default factual=3,numeric=1)
  --cache DIR              recorded replies (default ${DEFAULT_JUDGE_CACHE_DIR}); commit it to regenerate the set with no model
  --cache-mode MODE        readwrite (default), read, replay (no model: a miss rejects the question), off
  --timeout-ms MS          per model call (default 120000)
  --concurrency C          most model calls in flight at once (default 2)
  --max-keyword-share S    reject a keyword found in more than this share of the chunks (default 0.2)
  --max-question-overlap O reject a question whose word-bigram overlap with a kept one is >= O (default 0.6)
  exit 0: written; 2: bad input or a model that cannot be used; 1: usage`

interface Parsed {
  readonly chunks?: string
  readonly corpus?: string
  readonly chunkSize?: number
  readonly out: string
  readonly judge: { readonly kind: 'ollama' | 'openai'; readonly model: string }
  readonly host?: string
  readonly baseURL?: string
  readonly n: number
  readonly seed: number
  readonly kinds?: Partial<Record<TestsetKind, number>>
  readonly cache: string
  readonly cacheMode: JudgeCacheMode
  readonly timeoutMs?: number
  readonly concurrency?: number
  readonly maxKeywordShare?: number
  readonly maxQuestionOverlap?: number
}

const CACHE_MODES: readonly JudgeCacheMode[] = ['readwrite', 'read', 'replay', 'off']

function parseArgs(argv: readonly string[]): Parsed | string {
  const out: { -readonly [K in keyof Parsed]?: Parsed[K] } = { n: 50, seed: 1, cache: DEFAULT_JUDGE_CACHE_DIR, cacheMode: 'readwrite' }
  const integer = (flag: string, v: string | undefined, min: number): number | string => {
    const n = v === undefined || !/^-?\d+$/.test(v) ? Number.NaN : Number(v)
    return Number.isSafeInteger(n) && n >= min ? n : `${flag} needs an integer ≥ ${min}, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`
  }
  const share = (flag: string, v: string | undefined): number | string => {
    const n = v === undefined || v.trim() === '' ? Number.NaN : Number(v)
    return n > 0 && n <= 1 ? n : `${flag} needs a number in (0, 1], got ${v === undefined ? 'nothing' : JSON.stringify(v)}`
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined]
    const value = () => inline ?? argv[++i]
    const text = (): string | undefined => {
      const v = value()
      return v === undefined || v === '' ? undefined : v
    }
    let problem: string | undefined
    switch (flag) {
      case '--chunks':
      case '--corpus':
      case '--out':
      case '--host':
      case '--base-url':
      case '--cache': {
        const v = text()
        if (v === undefined) return `${flag} needs a value`
        if (flag === '--chunks') out.chunks = v
        else if (flag === '--corpus') out.corpus = v
        else if (flag === '--out') out.out = v
        else if (flag === '--host') out.host = v
        else if (flag === '--base-url') out.baseURL = v
        else out.cache = v
        break
      }
      case '--judge': {
        const v = value() ?? ''
        const m = /^(ollama|openai):(.+)$/.exec(v)
        if (m === null) return `--judge needs ollama:MODEL or openai:MODEL, got ${JSON.stringify(v)}`
        out.judge = { kind: m[1] as 'ollama' | 'openai', model: m[2] as string }
        break
      }
      case '-n':
      case '--n': {
        const n = integer('-n', value(), 1)
        if (typeof n === 'string') return n
        out.n = n
        break
      }
      case '--seed': {
        const n = integer(flag, value(), Number.MIN_SAFE_INTEGER)
        if (typeof n === 'string') return n
        out.seed = n
        break
      }
      case '--chunk-size': {
        const n = integer(flag, value(), 1)
        if (typeof n === 'string') return n
        out.chunkSize = n
        break
      }
      case '--timeout-ms':
      case '--concurrency': {
        const n = integer(flag, value(), 1)
        if (typeof n === 'string') return n
        if (flag === '--timeout-ms') out.timeoutMs = n
        else out.concurrency = n
        break
      }
      case '--max-keyword-share':
      case '--max-question-overlap': {
        const n = share(flag, value())
        if (typeof n === 'string') return n
        if (flag === '--max-keyword-share') out.maxKeywordShare = n
        else out.maxQuestionOverlap = n
        break
      }
      case '--cache-mode': {
        const v = value()
        if (!CACHE_MODES.includes(v as JudgeCacheMode)) return `--cache-mode must be one of ${CACHE_MODES.join(', ')}, got ${JSON.stringify(v ?? '')}`
        out.cacheMode = v as JudgeCacheMode
        break
      }
      case '--kinds': {
        const kinds = parseKinds(value() ?? '')
        if (typeof kinds === 'string') return kinds
        out.kinds = kinds
        break
      }
      default:
        problem = arg.startsWith('-') ? `unknown option ${flag}` : `unexpected argument ${JSON.stringify(arg)}`
    }
    if (problem !== undefined) return problem
  }
  if ((out.chunks === undefined) === (out.corpus === undefined)) return 'give either --chunks FILE or --corpus DIR'
  if (out.chunkSize !== undefined && out.corpus === undefined) return '--chunk-size goes with --corpus'
  if (out.out === undefined) return '--out is required'
  if (out.judge === undefined) return '--judge is required'
  if (out.host !== undefined && out.judge.kind !== 'ollama') return '--host is for an ollama: judge; use --base-url with openai:'
  if (out.baseURL !== undefined && out.judge.kind !== 'openai') return '--base-url is for an openai: judge; use --host with ollama:'
  return out as Parsed
}

/** `factual=3,numeric=1` or `factual,numeric` (equal weights). */
function parseKinds(v: string): Partial<Record<TestsetKind, number>> | string {
  const kinds: Partial<Record<TestsetKind, number>> = {}
  for (const part of v.split(',')) {
    const [name, weight] = part.split('=') as [string, string | undefined]
    if (!TESTSET_KINDS.includes(name as TestsetKind)) return `--kinds: unknown kind ${JSON.stringify(name)} (one of ${TESTSET_KINDS.join(', ')})`
    const w = weight === undefined ? 1 : Number(weight)
    if (!(Number.isFinite(w) && w >= 0) || weight === '') return `--kinds: the weight of ${name} must be a number ≥ 0, got ${JSON.stringify(weight)}`
    kinds[name as TestsetKind] = w
  }
  return kinds
}

function makeJudge(p: Parsed): Judge {
  const common = {
    model: p.judge.model,
    cache: judgeCache({ dir: p.cache, mode: p.cacheMode }),
    ...(p.timeoutMs === undefined ? {} : { timeoutMs: p.timeoutMs }),
    ...(p.concurrency === undefined ? {} : { concurrency: p.concurrency }),
  }
  if (p.judge.kind === 'ollama') return ollamaJudge({ ...common, ...(p.host === undefined ? {} : { host: p.host }) })
  return openaiJudge({ ...common, ...(p.baseURL === undefined ? {} : { baseURL: p.baseURL }) })
}

/** `eval/qa.jsonl` → `eval/qa.summary.json`. */
export function summaryPath(out: string): string {
  const name = basename(out)
  const stem = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name
  return join(dirname(out), `${stem}.summary.json`)
}

/** Writes beside the target and renames: a reader never sees half a file under the final name. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    await writeFile(temp, text, 'utf8')
    await rename(temp, path)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
}

function summaryText(set: GeneratedEvalSet, out: string, summaryFile: string): string {
  const s = set.summary
  const width = Math.max(...REJECTION_REASONS.map((r) => r.length))
  const lines = [
    `generated ${s.generated} questions with ${s.judge} (seed ${s.seed}, ${s.cached} replayed from the cache): kept ${s.kept} of ${s.requested} requested` +
      (s.complete ? '' : ' (the corpus ran out of chunks: every chunk was tried once)'),
    'rejected:',
    ...REJECTION_REASONS.map((r) => `  ${r.padEnd(width)}  ${s.rejected[r]}`),
    `kinds: ${Object.entries(s.kinds)
      .filter(([, k]) => k.requested > 0)
      .map(([name, k]) => `${name} ${k.kept}/${k.requested}`)
      .join(', ')}`,
    `chunks covered: ${s.chunksCovered} of ${s.corpusChunks} (relevant to at least one kept question)`,
    `wrote ${out} and ${summaryFile}`,
  ]
  return `${lines.join('\n')}\n`
}

export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === undefined || sub === '--help' || sub === '-h' || rest.includes('--help') || rest.includes('-h')) {
    ;(sub === undefined ? io.stderr : io.stdout).write(`${TESTSET_USAGE}\n`)
    return sub === undefined ? EXIT.usage : EXIT.ok
  }
  if (sub !== 'generate') return reportFailure(io, 'testset', EXIT.usage, `unknown subcommand ${JSON.stringify(sub)}\n${TESTSET_USAGE}`)
  const parsed = parseArgs(rest)
  if (typeof parsed === 'string') return reportFailure(io, 'testset', EXIT.usage, `${parsed}\n${TESTSET_USAGE}`)

  let chunks: CorpusChunk[]
  const input = (parsed.chunks ?? parsed.corpus) as string
  try {
    chunks = parsed.chunks !== undefined ? loadCorpus(parsed.chunks) : chunkFolder(input, parsed.chunkSize === undefined ? {} : { chunkSize: parsed.chunkSize })
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    if (typeof e.code === 'string' && typeof e.syscall === 'string') return reportFailure(io, 'testset', EXIT.input, cannotRead(e.path ?? input, e))
    if (e.name === 'MetricInputError' || e.name === 'DatasetError') return reportFailure(io, 'testset', EXIT.input, cliMessage(e))
    throw error
  }
  let set: GeneratedEvalSet
  const bar = shouldShowProgress(undefined, io.stderr) ? progressBar(io.stderr) : undefined
  try {
    set = await generateEvalSet({
      chunks,
      judge: makeJudge(parsed),
      n: parsed.n,
      seed: parsed.seed,
      ...(parsed.kinds === undefined ? {} : { kinds: parsed.kinds }),
      ...(parsed.maxKeywordShare === undefined ? {} : { maxKeywordShare: parsed.maxKeywordShare }),
      ...(parsed.maxQuestionOverlap === undefined ? {} : { maxQuestionOverlap: parsed.maxQuestionOverlap }),
      ...(bar === undefined ? {} : { onProgress: bar.draw }),
    })
  } catch (error) {
    const e = error as Error
    if (e.name === 'MetricInputError') return reportFailure(io, 'testset', EXIT.input, `${cliMessage(e)} (${parsed.chunks !== undefined ? 'chunks' : 'corpus'} ${input})`)
    if (error instanceof JudgeError) return reportFailure(io, 'testset', EXIT.input, `the model cannot be used (${error.kind}): ${error.message}`)
    throw error
  } finally {
    bar?.end()
  }
  const summaryFile = summaryPath(parsed.out)
  try {
    // The eval set last: when it is there, so is its summary.
    await writeAtomically(summaryFile, `${JSON.stringify({ summary: set.summary, rejected: set.rejected }, null, 2)}\n`)
    await writeAtomically(parsed.out, evalSetToJsonl(set.items))
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    return reportFailure(io, 'testset', EXIT.input, `cannot write '${parsed.out}': ${e.code ?? e.message}`)
  }
  await writeOut(io.stdout, summaryText(set, parsed.out, summaryFile))
  return EXIT.ok
}
