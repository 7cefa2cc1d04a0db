/**
 * Runs a RAG pipeline over an eval set: bounded concurrency, a timeout per case, failures recorded
 * on the case instead of aborting the run, and a progress line for people watching a terminal.
 */
import type { EvalCase } from '../eval-case.js'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import type { RetrievedItem } from '../retrieval/types.js'
import { keywordGroundTruth, resolveCorpus, type CorpusSource } from './load-dataset.js'
import { isCiEnvironment, progressPrinter, shouldShowProgress, type ProgressMode, type ProgressStream } from './progress.js'

export { isCiEnvironment, type ProgressStream }

/**
 * What a pipeline returns for one question. Extra fields are kept on the case. These fields come only
 * from the pipeline: a dataset item that carries `retrieved`, `answer` or `contexts` is refused (see
 * {@link OUTPUT_FIELDS}), and a failed case has none of them.
 */
export interface PipelineOutput {
  readonly retrieved?: readonly RetrievedItem[]
  readonly answer?: string
  readonly contexts?: readonly string[]
  readonly [extra: string]: unknown
}

/** Passed as the pipeline's third argument. */
export interface PipelineContext {
  /** Aborted when the case times out, so a pipeline that honours it can stop its requests. */
  readonly signal: AbortSignal
  /** Position of the item in the dataset. */
  readonly index: number
}

/** The item type a run accepts: anything with a question (usually an {@link EvalItem} from `loadDataset`). */
export interface EvalRunItem {
  readonly id?: string | number
  readonly question: string
  readonly [field: string]: unknown
}

export type Pipeline<I extends EvalRunItem = EvalRunItem> = (question: string, item: I, context: PipelineContext) => PipelineOutput | Promise<PipelineOutput>

/** A failed case's error, reduced to plain data (what was thrown, or `TimeoutError`). */
export interface EvalCaseError {
  readonly name: string
  readonly message: string
}

/** An item merged with its pipeline output, with its timing and, when it failed, the error. */
export type EvalRunCase<I extends EvalRunItem = EvalRunItem> = I &
  EvalCase &
  PipelineOutput & {
    readonly timing: { readonly ms: number }
    readonly error?: EvalCaseError
    /** Calls made for this case: 1, plus the retries it needed (options.retries). */
    readonly attempts: number
  }

/** The result of {@link runEvalSet}: an object with `cases`, which every set matcher accepts. */
export interface EvalRun<I extends EvalRunItem = EvalRunItem> {
  /** One case per dataset item, in dataset order, failed ones included. */
  readonly cases: Array<EvalRunCase<I>>
  /** ISO 8601 time the run started. */
  readonly startedAt: string
  readonly durationMs: number
  /** How many cases failed (threw, returned a bad value, or timed out). */
  readonly errors: number
}

export interface EvalProgress {
  readonly done: number
  readonly total: number
  readonly failed: number
  readonly elapsedMs: number
  /** Estimated time left, `elapsed / done · (total − done)`; undefined before the first case finishes. */
  readonly etaMs: number | undefined
  /** The case that just finished. */
  readonly id: string
}

export interface RunEvalSetOptions {
  /** Cases in flight at once. @default 4 */
  readonly concurrency?: number
  /** Per-case limit in ms; `Infinity` for none. @default 60_000 */
  readonly timeoutMs?: number
  /** Called after each case. */
  readonly onProgress?: (progress: EvalProgress) => void
  /**
   * Progress on the stream: `'on'` always, `'off'` never, `'auto'` when a person is watching (the
   * stream, or under a test runner its main process's stderr, is a TTY) and `CI` is not set.
   * Unset: the `RAG_PROGRESS` environment variable (`on`/`off`/`auto`), else `'auto'`.
   */
  readonly progress?: ProgressMode
  /** Eval set name shown in the progress line (describeEvalSet passes its block name). */
  readonly name?: string
  /** @default process.stderr */
  readonly stream?: ProgressStream
  /**
   * How many more times a failed call is tried (an integer ≥ 0): a case is failed only when every
   * attempt threw, rejected or timed out. A return value of the wrong shape is not retried (the same
   * code would return it again). Each case records `attempts`. @default 0
   */
  readonly retries?: number
  /** Wait before the first retry, in ms; doubled before each further one (exponential backoff). @default 500 */
  readonly retryDelayMs?: number
  /**
   * Chunks `{ id, text }` (an array, a JSON/JSONL file path, or a function returning them) from which
   * an item with `keyword` and no `relevant` gets `relevant`: the chunks whose text contains the
   * keyword, case-insensitively (relevantBySubstring). A keyword found in no chunk fails the run
   * before any pipeline call, naming the item and the keyword.
   */
  readonly corpus?: CorpusSource
}

/** The keys of {@link RunEvalSetOptions}: what runEvalSet accepts. */
export const RUN_EVAL_SET_OPTION_KEYS = keysOf<RunEvalSetOptions>()(
  'concurrency',
  'timeoutMs',
  'onProgress',
  'progress',
  'name',
  'stream',
  'retries',
  'retryDelayMs',
  'corpus',
)

/**
 * The fields a case takes only from its pipeline. A dataset item carrying one of them is refused
 * before any call: merged under the pipeline's output, the item's own `answer` (or `retrieved`,
 * `contexts`) would survive a pipeline that threw or returned `{}` and be scored as if the pipeline had
 * produced it. `error`, `timing` and `attempts` are set by runEvalSet itself.
 */
export const OUTPUT_FIELDS = ['retrieved', 'answer', 'contexts'] as const
const RESERVED_FIELDS = ['error', 'timing', 'attempts'] as const
/** An agent's outputs (issue #31): refused on an item for the same reason; expected calls go in `expectedToolCalls`. */
export const AGENT_OUTPUT_FIELDS = ['toolCalls', 'usage'] as const

/** Refuses an item that carries an output field (or a field runEvalSet sets), naming the item and the field. */
function refuseOutputFields(item: EvalRunItem, i: number): void {
  const label = item.id !== undefined ? `item ${JSON.stringify(String(item.id))} (dataset[${i}])` : `dataset[${i}]`
  for (const field of OUTPUT_FIELDS) {
    if (!Object.prototype.hasOwnProperty.call(item, field) || item[field] === undefined) continue
    const hint =
      field === 'answer'
        ? 'A reference answer belongs in `reference` (or `references`).'
        : field === 'retrieved'
          ? 'Ground truth belongs in `relevant` (or `keyword`).'
          : 'Give the pipeline its input contexts under another name (e.g. `givenContexts`; it receives the whole item) and return them as `contexts` if the answer is judged against them.'
    const error = new MetricInputError(FN, `${label}.${field}`, 'absent: it is a pipeline output', item[field])
    error.message =
      `${FN}: ${label} carries \`${field}\`, which is a pipeline output, not a dataset field: a case's \`retrieved\`, \`answer\` and \`contexts\` come only from the pipeline, ` +
      `so a case whose pipeline failed is never scored on the dataset's copy. Rename the field. ${hint}`
    throw error
  }
  for (const field of AGENT_OUTPUT_FIELDS) {
    if (!Object.prototype.hasOwnProperty.call(item, field) || item[field] === undefined) continue
    const hint = field === 'toolCalls' ? 'The calls a case should make belong in `expectedToolCalls`.' : 'Token usage comes from the pipeline (the agent adapters return it).'
    const error = new MetricInputError(FN, `${label}.${field}`, 'absent: it is a pipeline output', item[field])
    error.message = `${FN}: ${label} carries \`${field}\`, which is a pipeline output, not a dataset field: a case whose pipeline failed must not be scored on the dataset's copy. Rename the field. ${hint}`
    throw error
  }
  for (const field of RESERVED_FIELDS) {
    if (!Object.prototype.hasOwnProperty.call(item, field) || item[field] === undefined) continue
    const error = new MetricInputError(FN, `${label}.${field}`, 'absent: runEvalSet sets it on each case', item[field])
    error.message = `${FN}: ${label} carries \`${field}\`, which runEvalSet sets on each case (${field === 'error' ? 'a failed pipeline call' : field}). Rename the field.`
    throw error
  }
}

class PipelineTimeoutError extends Error {
  override readonly name = 'TimeoutError'
}

/** A return value of the wrong shape: the same code returns it again, so it is not retried. */
class BadOutputError extends Error {}

const FN = 'runEvalSet'

function toCaseError(error: unknown): EvalCaseError {
  if (error instanceof Error) return { name: error.name, message: error.message }
  if (error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
    const e = error as { name?: unknown; message: string }
    return { name: typeof e.name === 'string' ? e.name : 'Error', message: e.message }
  }
  return { name: 'Error', message: String(error) }
}

function checkOutput(output: unknown): PipelineOutput {
  const expected = 'an object `{ retrieved?, answer?, contexts? }`'
  if (output === null || typeof output !== 'object' || Array.isArray(output)) throw new MetricInputError('pipeline', 'the return value', expected, output)
  const o = output as PipelineOutput
  if (o.retrieved !== undefined && !Array.isArray(o.retrieved)) throw new MetricInputError('pipeline', 'retrieved', 'an array of ids or `{ id }` objects', o.retrieved)
  if (o.answer !== undefined && typeof o.answer !== 'string') throw new MetricInputError('pipeline', 'answer', 'a string', o.answer)
  if (o.contexts !== undefined && (!Array.isArray(o.contexts) || o.contexts.some((c) => typeof c !== 'string'))) {
    throw new MetricInputError('pipeline', 'contexts', 'an array of strings', o.contexts)
  }
  return o
}

/**
 * Calls `pipeline(question, item, { signal, index })` once per dataset item and collects the cases.
 *
 * - At most `concurrency` calls are in flight (default 4); a sync pipeline is fine too.
 * - A call that throws, rejects, returns something other than `{ retrieved?, answer?, contexts? }`
 *   or takes longer than `timeoutMs` (default 60 000) becomes a case with
 *   `error: { name, message }` (`name: 'TimeoutError'` for a timeout, whose `signal` is then
 *   aborted). Failed cases are never dropped: set matchers report them by id.
 * - With `retries: n` a call that throws, rejects or times out is tried again up to n times, waiting
 *   `retryDelayMs` (500), then twice that, and so on; a case fails only after its last attempt, and
 *   every case records `attempts`.
 * - With `corpus` (chunks `{ id, text }`, a JSON/JSONL file, or a function returning them), an item
 *   with `keyword` and no `relevant` gets `relevant` from the chunks containing the keyword
 *   (case-insensitive). A keyword in no chunk is a MetricInputError before any call, naming each such
 *   item and keyword: it is a dataset mistake, not a pipeline failure, and left alone it would score
 *   0 on every retrieval metric.
 * - Each case is `{ ...item, ...output, timing: { ms }, attempts }` (the item's `id` and `question` win), in
 *   dataset order whatever the completion order. `retrieved`, `answer` and `contexts` come only from
 *   the pipeline: an item carrying one of them (or `error`, `timing`, `attempts`) is a MetricInputError
 *   before any call, naming the item and the field, and a failed case, or one whose pipeline returned
 *   `{}`, has none of them, so the matchers fail naming it instead of scoring a leftover.
 * - Progress (name, done/total, failures, elapsed, ETA) goes to `stream` (stderr) when `progress`
 *   is `'on'`, or `'auto'` and a person is watching and `CI` is not set (see progress.ts): one
 *   rewritten line on a TTY, else a line per second (a test worker, whose stderr the runner forwards).
 *
 * A timed-out call cannot be stopped from outside; its slot is freed anyway so one hung request does
 * not stall the run, and its eventual result is ignored.
 *
 * @throws MetricInputError for a dataset that is not a non-empty array of `{ question }` items, an
 *   item carrying a pipeline output (`retrieved`, `answer`, `contexts`), a pipeline that is not a function, a bad option, a bad corpus, or a keyword found in no corpus chunk
 * @example
 * const run = await runEvalSet(loadDataset('eval.json'), async (question) => {
 *   const hits = await search(question)
 *   return { retrieved: hits.map((h) => h.id), answer: await generate(question, hits) }
 * })
 * expect(run).toHaveRecallAtK(3, 0.8)
 */
export async function runEvalSet<I extends EvalRunItem>(items: readonly I[], pipeline: Pipeline<I>, options: RunEvalSetOptions = {}): Promise<EvalRun<I>> {
  let dataset = items
  if (!Array.isArray(dataset) || dataset.length === 0) throw new MetricInputError(FN, 'dataset', 'a non-empty array of items `{ id, question, … }`', dataset)
  dataset.forEach((item, i) => {
    if (item === null || typeof item !== 'object') throw new MetricInputError(FN, `dataset[${i}]`, 'an item object `{ id, question, … }`', item)
    if (typeof item.question !== 'string') throw new MetricInputError(FN, `dataset[${i}].question`, 'a string', item.question)
    refuseOutputFields(item, i)
  })
  if (typeof pipeline !== 'function') throw new MetricInputError(FN, 'pipeline', 'a function `(question, item) => ({ retrieved, answer })`', pipeline)
  if (options === null || typeof options !== 'object') throw new MetricInputError(FN, 'options', 'an object', options)
  checkOptionKeys(FN, options, RUN_EVAL_SET_OPTION_KEYS)
  const { concurrency = 4, timeoutMs = 60_000, onProgress, progress, name, stream = process.stderr, retries = 0, retryDelayMs = 500, corpus } = options
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new MetricInputError(FN, 'options.concurrency', 'a positive integer', concurrency)
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs <= 0)
    throw new MetricInputError(FN, 'options.timeoutMs', 'a positive number of milliseconds (or Infinity)', timeoutMs)
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new MetricInputError(FN, 'options.onProgress', 'a function', onProgress)
  if (progress !== undefined && progress !== 'auto' && progress !== 'on' && progress !== 'off')
    throw new MetricInputError(FN, 'options.progress', "'auto', 'on' or 'off'", progress)
  if (progress !== 'off' && (stream === null || typeof stream !== 'object' || typeof stream.write !== 'function')) {
    throw new MetricInputError(FN, 'options.stream', 'a writable stream (an object with `write`)', stream)
  }
  if (name !== undefined && typeof name !== 'string') throw new MetricInputError(FN, 'options.name', 'a string', name)
  if (!Number.isInteger(retries) || retries < 0) throw new MetricInputError(FN, 'options.retries', 'an integer ≥ 0', retries)
  if (typeof retryDelayMs !== 'number' || !Number.isFinite(retryDelayMs) || retryDelayMs < 0)
    throw new MetricInputError(FN, 'options.retryDelayMs', 'a finite number of milliseconds ≥ 0', retryDelayMs)
  if (corpus !== undefined && !(Array.isArray(corpus) || typeof corpus === 'string' || typeof corpus === 'function')) {
    throw new MetricInputError(FN, 'options.corpus', 'an array of chunks `{ id, text }`, a JSON/JSONL file path, or a function returning chunks', corpus)
  }
  if (corpus !== undefined) dataset = keywordGroundTruth(FN, dataset, await resolveCorpus(FN, corpus))
  const print = shouldShowProgress(progress, stream, process.env) ? progressPrinter(stream, name) : undefined

  const total = dataset.length
  const started = Date.now()
  const startedAt = new Date(started).toISOString()
  const cases = new Array<EvalRunCase<I>>(total)
  let next = 0
  let done = 0
  let failed = 0

  const report = (id: string) => {
    const elapsedMs = Date.now() - started
    const p: EvalProgress = { done, total, failed, elapsedMs, etaMs: done > 0 ? (elapsedMs / done) * (total - done) : undefined, id }
    onProgress?.(p)
    print?.(p)
  }

  /** One call of the pipeline, limited to timeoutMs. */
  const attempt = async (item: I, index: number): Promise<PipelineOutput> => {
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    try {
      const call = Promise.resolve().then(() => pipeline(item.question, item, { signal: controller.signal, index }))
      const limited = Number.isFinite(timeoutMs)
        ? Promise.race([
            call,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                // Name the pipeline and the case, so a failure read far from here still says what hung.
                const label = item.id !== undefined ? `case ${JSON.stringify(String(item.id))}` : `case #${index + 1}`
                const name = pipeline.name === '' ? 'the pipeline' : `pipeline ${pipeline.name}`
                const e = new PipelineTimeoutError(`${name} did not finish ${label} within ${timeoutMs} ms (runEvalSet options.timeoutMs)`)
                controller.abort(e)
                reject(e)
              }, timeoutMs)
            }),
          ])
        : call
      // a late rejection of a timed-out call must not surface as an unhandled rejection
      call.catch(() => undefined)
      const value = await limited
      try {
        return checkOutput(value)
      } catch (e) {
        throw Object.assign(new BadOutputError(), { cause: e })
      }
    } finally {
      if (timer !== undefined) clearTimeout(timer)
    }
  }

  const runOne = async (index: number): Promise<void> => {
    const item = dataset[index] as I
    const t0 = performance.now()
    let output: PipelineOutput | undefined
    let error: EvalCaseError | undefined
    let attempts = 0
    for (;;) {
      attempts++
      try {
        output = await attempt(item, index)
        error = undefined
        break
      } catch (e) {
        error = toCaseError(e instanceof BadOutputError ? e.cause : e)
        if (e instanceof BadOutputError || attempts > retries) break
        // exponential backoff: retryDelayMs, 2·retryDelayMs, 4·retryDelayMs, …
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** (attempts - 1)))
      }
    }
    const ms = performance.now() - t0
    const merged: Record<string, unknown> = { ...item }
    if (output !== undefined) for (const [key, value] of Object.entries(output)) if (value !== undefined) merged[key] = value
    if (item.id !== undefined) merged.id = item.id
    merged.question = item.question
    merged.timing = { ms }
    merged.attempts = attempts
    if (error !== undefined) {
      merged.error = error
      failed++
    }
    cases[index] = merged as EvalRunCase<I>
    done++
    report(item.id !== undefined ? String(item.id) : `#${index + 1}`)
  }

  const worker = async () => {
    while (next < total) {
      const index = next++
      await runOne(index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker))
  return { cases, startedAt, durationMs: Date.now() - started, errors: failed }
}
