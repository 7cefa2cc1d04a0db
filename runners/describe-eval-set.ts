import { MetricInputError } from '../src/errors.js'
import { loadDataset, type CorpusSource } from '../src/eval-set/load-dataset.js'
import { keysOf } from '../src/option-keys.js'
import { checkOptionKeys } from '../src/options.js'
import { runEvalSet, type EvalProgress, type EvalRun, type EvalRunCase, type EvalRunItem, type Pipeline } from '../src/eval-set/run-eval-set.js'

// The hook this module registers is async; typing it so keeps Jest's stricter `TestFn` assignable.
type Hook = (fn: () => Promise<void>, timeout?: number) => unknown
type Describe = (name: string, fn: () => void) => unknown

/** The runner functions `describeEvalSet` registers with; the globals by default. */
export interface EvalSetRunner {
  readonly describe: Describe
  readonly beforeAll: Hook
}

export interface DescribeEvalSetOptions<I extends EvalRunItem> {
  /** The items, a dataset file path (`loadDataset`), or a function returning the items (called once, in `beforeAll`). */
  readonly dataset: readonly I[] | string | (() => readonly I[] | Promise<readonly I[]>)
  readonly pipeline: Pipeline<I>
  /** @default 4 */
  readonly concurrency?: number
  /** Per-case timeout. @default 60_000 */
  readonly timeoutMs?: number
  /**
   * Progress naming the block, through the runner's main process: shown when the run is interactive
   * and `CI` is not set (`'auto'`), or forced `'on'`/`'off'`. Unset: `RAG_PROGRESS`, else `'auto'`.
   */
  readonly progress?: 'auto' | 'on' | 'off'
  readonly onProgress?: (progress: EvalProgress) => void
  /**
   * Timeout of the `beforeAll` hook that runs the set. Default: enough for every attempt of every case
   * to hit its own timeout (`⌈n / concurrency⌉ · (timeoutMs · (retries + 1) + backoff)` + 30 s), or
   * one hour when `dataset` is a function.
   */
  readonly hookTimeoutMs?: number
  /** For Vitest without `globals: true`: `{ describe, beforeAll }` imported from 'vitest'. */
  readonly runner?: EvalSetRunner
  /** More attempts for a case whose call failed (an integer ≥ 0), with exponential backoff; see runEvalSet. @default 0 */
  readonly retries?: number
  /** Wait before the first retry in ms, doubled before each further one. @default 500 */
  readonly retryDelayMs?: number
  /**
   * Chunks `{ id, text }`, a JSON/JSONL file of them, or a function returning them: an item with
   * `keyword` and no `relevant` gets `relevant` from the chunks containing the keyword; a keyword
   * found in no chunk fails the block's run naming the item and the keyword. See runEvalSet.
   */
  readonly corpus?: CorpusSource
  /**
   * Trials for the judge-backed assertions on this block's run (`expect(run)` or `expect(run.cases)`): each
   * asks its judge this many times with seeds `seed … seed+trials−1` and reports mean, min, max, pass rate,
   * flip rate and self-consistency. Wins over `configure({ trials })` and `RAG_MATCHERS_TRIALS`; a matcher's
   * own `repeat` wins over it. Embedding and lexical metrics are deterministic and never repeat.
   * An integer from 1 to 100.
   */
  readonly trials?: number
}

/** The keys of {@link DescribeEvalSetOptions}: what describeEvalSet accepts. */
export const DESCRIBE_EVAL_SET_OPTION_KEYS = keysOf<DescribeEvalSetOptions<EvalRunItem>>()(
  'dataset',
  'pipeline',
  'concurrency',
  'timeoutMs',
  'progress',
  'onProgress',
  'hookTimeoutMs',
  'runner',
  'retries',
  'retryDelayMs',
  'corpus',
  'trials',
)

const MAX_TIMEOUT = 2 ** 31 - 1

/**
 * The run of a `describeEvalSet` block. It is created while tests are collected and filled by the
 * block's `beforeAll`, so read it inside tests: `run.cases`, `run.run`, `run.errors`. It can be passed
 * straight to the set matchers (`expect(run).toHaveRecallAtK(3, 0.8)`), which read its `.cases`.
 */
export class EvalRunHandle<I extends EvalRunItem = EvalRunItem> {
  #result: EvalRun<I> | undefined
  #failure: unknown
  readonly #name: string
  readonly #trials: number | undefined

  constructor(name: string, trials?: number) {
    this.#name = name
    this.#trials = trials
  }

  /** The block's `trials` option, which the judge matchers read from the run (undefined when not set). */
  get trials(): number | undefined {
    return this.#trials
  }

  /** Whether the set has run. */
  get ready(): boolean {
    return this.#result !== undefined
  }

  /** The whole {@link EvalRun}. */
  get run(): EvalRun<I> {
    if (this.#result !== undefined) return this.#result
    if (this.#failure !== undefined) {
      const reason = this.#failure instanceof Error ? this.#failure.message : String(this.#failure)
      throw new Error(`describeEvalSet("${this.#name}"): the eval set could not be run: ${reason}`)
    }
    throw new Error(
      `describeEvalSet("${this.#name}"): the eval set has not run yet. Read \`run.cases\` inside a test (it/test) or a hook: ` +
        'the describe body runs while tests are collected, before beforeAll.',
    )
  }

  /** One case per item, in dataset order, failed ones with `error`. */
  get cases(): Array<EvalRunCase<I>> {
    return this.run.cases
  }

  /** Number of failed cases. */
  get errors(): number {
    return this.run.errors
  }

  get durationMs(): number {
    return this.run.durationMs
  }

  get startedAt(): string {
    return this.run.startedAt
  }

  /** @internal filled by the beforeAll hook */
  _settle(result: EvalRun<I> | undefined, failure?: unknown): void {
    this.#result = result
    this.#failure = failure
  }

  toJSON(): EvalRun<I> | { pending: string } {
    return this.#result ?? { pending: this.#name }
  }
}

function globalRunner(): EvalSetRunner | undefined {
  const g = globalThis as { describe?: unknown; beforeAll?: unknown }
  return typeof g.describe === 'function' && typeof g.beforeAll === 'function' ? { describe: g.describe as Describe, beforeAll: g.beforeAll as Hook } : undefined
}

/**
 * Declares a `describe` block whose tests share ONE run of an eval set:
 *
 *   describeEvalSet('transformer QA', { dataset: 'eval/qa.json', pipeline }, (run) => {
 *     it('retrieves the answer', () => expect(run).toHaveRecallAtK(3, 0.8))
 *     it('answers well', () => expect(run.cases).toScoreRougeLAbove(0.4))
 *     it('holds the baseline', () => expect(run).toMatchMetricBaseline('qa', { metrics: ['recall@3', 'rougeL'] }))
 *   })
 *
 * The callback runs at collection time and receives an {@link EvalRunHandle}; a `beforeAll` in the
 * block calls {@link runEvalSet} once (bounded concurrency, per-case timeout, failures recorded on the
 * case) and fills the handle, so however many tests (and nested describes) read `run.cases`, the
 * pipeline runs once per item. A dataset path is loaded at collection time; a loading error fails
 * the block's tests with the file, line and field instead of breaking the whole file.
 *
 * Imported from 'rag-matchers/vitest' (or '/jest', '/jest-globals') it uses that runner's own
 * `describe`/`beforeAll`, so no globals are needed; from 'rag-matchers/matchers' it uses the globals
 * unless `runner: { describe, beforeAll }` is passed.
 *
 * @throws MetricInputError for a bad name, options or callback, or when no runner globals exist
 * @example
 * describeEvalSet('qa', { dataset: 'eval/qa.json', pipeline: (q) => myRag(q), concurrency: 2 }, (run) => {
 *   it('finds the passage', () => expect(run).toHaveRecallAtK(3, 0.8))
 *   it('holds the baseline', () => expect(run).toMatchMetricBaseline('qa', { metrics: ['recall@3', 'bleu'] }))
 * })
 */
export function describeEvalSet<I extends EvalRunItem>(name: string, options: DescribeEvalSetOptions<I>, fn: (run: EvalRunHandle<I>) => void): void {
  const FN = 'describeEvalSet'
  if (typeof name !== 'string' || name.length === 0) throw new MetricInputError(FN, 'name', 'a non-empty string', name)
  if (options === null || typeof options !== 'object') throw new MetricInputError(FN, 'options', 'an object `{ dataset, pipeline }`', options)
  if (typeof fn !== 'function') throw new MetricInputError(FN, 'fn', 'a function `(run) => { it(…) }`', fn)
  checkOptionKeys(FN, options, DESCRIBE_EVAL_SET_OPTION_KEYS)
  const {
    dataset,
    pipeline,
    concurrency = 4,
    timeoutMs = 60_000,
    progress,
    onProgress,
    hookTimeoutMs,
    runner = globalRunner(),
    retries = 0,
    retryDelayMs = 500,
    corpus,
    trials,
  } = options
  // checked here too (runEvalSet checks them again), so a wrong one fails at collection, not in beforeAll
  if (!Number.isInteger(retries) || retries < 0) throw new MetricInputError(FN, 'options.retries', 'an integer ≥ 0', retries)
  if (typeof retryDelayMs !== 'number' || !Number.isFinite(retryDelayMs) || retryDelayMs < 0)
    throw new MetricInputError(FN, 'options.retryDelayMs', 'a finite number of milliseconds ≥ 0', retryDelayMs)
  if (corpus !== undefined && !(Array.isArray(corpus) || typeof corpus === 'string' || typeof corpus === 'function')) {
    throw new MetricInputError(FN, 'options.corpus', 'an array of chunks `{ id, text }`, a JSON/JSONL file path, or a function returning chunks', corpus)
  }
  if (trials !== undefined && !(Number.isSafeInteger(trials) && trials >= 1 && trials <= 100)) {
    throw new MetricInputError(FN, 'options.trials', 'an integer from 1 to 100', trials)
  }
  if (typeof pipeline !== 'function') throw new MetricInputError(FN, 'options.pipeline', 'a function `(question, item) => ({ retrieved, answer })`', pipeline)
  if (!(Array.isArray(dataset) || typeof dataset === 'string' || typeof dataset === 'function')) {
    throw new MetricInputError(FN, 'options.dataset', 'an array of items, a dataset file path, or a function returning items', dataset)
  }
  if (runner === undefined || typeof runner.describe !== 'function' || typeof runner.beforeAll !== 'function') {
    throw new MetricInputError(
      FN,
      'options.runner',
      "the runner's `{ describe, beforeAll }` (no globals found: import describeEvalSet from 'rag-matchers/vitest', 'rag-matchers/jest' or 'rag-matchers/jest-globals', which bind their runner, or pass them)",
      runner,
    )
  }
  if (hookTimeoutMs !== undefined && (typeof hookTimeoutMs !== 'number' || !(hookTimeoutMs > 0))) {
    throw new MetricInputError(FN, 'options.hookTimeoutMs', 'a positive number of milliseconds', hookTimeoutMs)
  }

  let items: readonly I[] | undefined
  let loadError: unknown
  if (typeof dataset === 'string') {
    try {
      items = loadDataset(dataset) as unknown as I[]
    } catch (error) {
      loadError = error
    }
  } else if (Array.isArray(dataset)) {
    items = dataset
  }
  // every attempt may hit its timeout, plus the backoff waits between them
  const backoff = retryDelayMs * (2 ** retries - 1)
  const perCase = Number.isFinite(timeoutMs) ? timeoutMs * (retries + 1) + backoff : MAX_TIMEOUT
  const derived = items !== undefined && Number.isInteger(concurrency) && concurrency > 0 ? Math.ceil(items.length / concurrency) * perCase + 30_000 : 60 * 60_000
  const timeout = Math.min(hookTimeoutMs ?? derived, MAX_TIMEOUT)

  const handle = new EvalRunHandle<I>(name, trials)
  runner.describe(name, () => {
    runner.beforeAll(async () => {
      try {
        // eslint-disable-next-line @typescript-eslint/only-throw-error
        if (loadError !== undefined) throw loadError
        const list = items ?? (await (dataset as () => readonly I[] | Promise<readonly I[]>)())
        const result = await runEvalSet(list, pipeline, {
          concurrency,
          timeoutMs,
          name,
          retries,
          retryDelayMs,
          ...(corpus !== undefined ? { corpus } : {}),
          ...(progress !== undefined ? { progress } : {}),
          ...(onProgress !== undefined ? { onProgress } : {}),
        })
        // `expect(run.cases)` carries the block's trials too: not enumerable, so the cases print and serialise as before.
        if (trials !== undefined) Object.defineProperty(result.cases, 'trials', { value: trials, enumerable: false })
        handle._settle(result)
      } catch (error) {
        handle._settle(undefined, error)
        throw error
      }
    }, timeout)
    fn(handle)
  })
}

/**
 * `describeEvalSet` with `runner` defaulting to the given one (a getter is called per block, so an
 * entry can resolve its runner lazily). An explicit `options.runner` still wins.
 */
export function bindDescribeEvalSet(runner: EvalSetRunner | (() => EvalSetRunner | undefined)): typeof describeEvalSet {
  return (name, options, fn) => {
    const bound =
      options !== null && typeof options === 'object' && options.runner === undefined ? { ...options, runner: typeof runner === 'function' ? runner() : runner } : options
    describeEvalSet(name, bound as typeof options, fn)
  }
}
