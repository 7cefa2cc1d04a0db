/**
 * `npm run example -- --live`: regenerates the example's answers with a local Ollama model, from the
 * contexts the pipeline retrieves, and writes them to `data/answers.live.json` (git-ignored), which the
 * suite then uses for that run. `examples/run-example.mjs` calls {@link prepareLiveRun} before Vitest.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Ollama } from 'ollama'
import { MetricInputError } from '../../src/index.js'
import { DEFAULT_JUDGE_MODEL, detectModels, detectOllama, hasModel } from './models.js'
import { LIVE_ANSWERS_FILE, requestedRetriever, retrieveEvalSet, type Retrieved } from './pipeline.js'

/** Sampling options of every answer request: greedy and seeded, so a rerun gives the same answers. */
export const LIVE_OPTIONS = { temperature: 0, seed: 42 } as const

const SYSTEM_PROMPT =
  'You answer questions about the Transformer neural network architecture. Use only the numbered context ' +
  'passages you are given. Answer in one short sentence that states the exact figures from the passages. ' +
  'If the passages do not contain the answer, say that they do not.'

/**
 * The chat messages for one question: a system message with the rules, and a user message with the
 * retrieved passages, numbered in rank order, followed by the question.
 *
 * @example buildAnswerMessages('How many layers?', [{ id: 'encoder-p1', score: 1, text: 'N = 6 layers.' }])[1].content
 * // 'Context passages:\n[1] N = 6 layers.\n\nQuestion: How many layers?'
 */
export function buildAnswerMessages(question: string, contexts: readonly Retrieved[]): Array<{ role: 'system' | 'user'; content: string }> {
  const passages = contexts.map((c, i) => `[${i + 1}] ${c.text}`).join('\n')
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Context passages:\n${passages}\n\nQuestion: ${question}` },
  ]
}

export interface GenerateLiveAnswersOptions {
  /** Ollama origin, e.g. `http://127.0.0.1:11434`. */
  host: string
  /** Chat model tag. */
  model: string
  /** File to write. @default data/answers.live.json */
  out?: string
  /** Retriever label to record in the file. */
  retriever: string
  /** One entry per question: its id, text and retrieved contexts. */
  items: ReadonlyArray<{ id: string; question: string; contexts: readonly Retrieved[] }>
  /** Per request. @default 600000 (a cold model on a CPU is slow) */
  timeoutMs?: number
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** Progress lines. @default console.info */
  log?: (line: string) => void
}

export interface LiveAnswersFile {
  about: string
  model: string
  retriever: string
  options: typeof LIVE_OPTIONS
  generatedAt: string
  answers: Record<string, string>
}

/**
 * Asks `model` each question through `POST /api/chat` (the `ollama` client, `stream: false`,
 * `options: { temperature: 0, seed: 42 }`) with its retrieved contexts in the prompt
 * ({@link buildAnswerMessages}), one question at a time (a local model serves one request well), then
 * writes `{ about, model, retriever, options, generatedAt, answers }` atomically (temp file + rename).
 * The reply is trimmed; an empty reply is an error (the suite would only fail later, less clearly).
 *
 * @throws MetricInputError for malformed options; rejects with the client's error (message prefixed
 *   with the question id) when a request fails.
 * @example
 * await generateLiveAnswers({ host: 'http://127.0.0.1:11434', model: 'llama3.1:8b', retriever: 'BM25 (minisearch)', items })
 */
export async function generateLiveAnswers(options: GenerateLiveAnswersOptions): Promise<LiveAnswersFile> {
  const fn = 'generateLiveAnswers'
  if (typeof options?.host !== 'string' || !/^https?:\/\//.test(options.host)) throw new MetricInputError(fn, 'host', 'an http(s) URL', options?.host)
  if (typeof options.model !== 'string' || options.model.trim() === '') throw new MetricInputError(fn, 'model', 'a model tag such as "llama3.1:8b"', options.model)
  if (!Array.isArray(options.items) || options.items.length === 0) throw new MetricInputError(fn, 'items', 'a non-empty array of { id, question, contexts }', options.items)
  const out = options.out ?? LIVE_ANSWERS_FILE
  const timeoutMs = options.timeoutMs ?? 600_000
  const log = options.log ?? ((line: string) => console.info(line))
  const baseFetch = options.fetch ?? globalThis.fetch
  const client = new Ollama({
    host: options.host,
    // The client cannot time a non-streamed request out by itself; each request gets its own deadline.
    fetch: ((input: Parameters<typeof fetch>[0], init?: RequestInit) => baseFetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) })) as typeof fetch,
  })
  const answers: Record<string, string> = {}
  for (const item of options.items) {
    let content: unknown
    try {
      const response = await client.chat({ model: options.model, messages: buildAnswerMessages(item.question, item.contexts), options: { ...LIVE_OPTIONS }, stream: false })
      content = response?.message?.content
    } catch (error) {
      throw new Error(`live answer for "${item.id}" failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error })
    }
    if (typeof content !== 'string' || content.trim() === '') throw new Error(`live answer for "${item.id}": ${options.model} returned an empty answer`)
    answers[item.id] = content.trim()
    log(`  ${item.id}: ${answers[item.id]}`)
  }
  const file: LiveAnswersFile = {
    about: 'Answers generated by `npm run example -- --live` with a local Ollama model from the retrieved contexts. Not committed: they depend on the model.',
    model: options.model,
    retriever: options.retriever,
    options: LIVE_OPTIONS,
    generatedAt: new Date().toISOString(),
    answers,
  }
  await mkdir(dirname(out), { recursive: true })
  const temp = `${out}.${process.pid}.tmp`
  await writeFile(temp, `${JSON.stringify(file, null, 2)}\n`, 'utf8')
  await rename(temp, out)
  return file
}

export interface PrepareLiveRunOptions {
  /** Where OLLAMA_HOST, RAG_MATCHERS_ANSWER_MODEL / RAG_MATCHERS_JUDGE_MODEL and RAG_MATCHERS_RETRIEVER are read. @default process.env */
  env?: NodeJS.ProcessEnv
  /** @default data/answers.live.json */
  out?: string
  log?: (line: string) => void
  /** Reachability probe deadline. @default 1000 */
  probeTimeoutMs?: number
  /** Per answer request. @default 600000 */
  timeoutMs?: number
}

/**
 * The `--live` step: checks Ollama (host `OLLAMA_HOST`) answers and has the answer model
 * (`RAG_MATCHERS_ANSWER_MODEL`, else `RAG_MATCHERS_JUDGE_MODEL`, else `llama3.1:8b`), retrieves with the
 * retriever the suite will use (dense when requested and an embedder is available), generates the
 * answers and writes them. Returns the process exit code: 0 when the file was written, 1 with a clear
 * message (how to start Ollama or pull the model) otherwise. Never throws.
 *
 * @example
 * const code = await prepareLiveRun() // 0, and data/answers.live.json written
 */
export async function prepareLiveRun(options: PrepareLiveRunOptions = {}): Promise<number> {
  const env = options.env ?? process.env
  const log = options.log ?? ((line: string) => console.info(line))
  const model = env['RAG_MATCHERS_ANSWER_MODEL']?.trim() || env['RAG_MATCHERS_JUDGE_MODEL']?.trim() || DEFAULT_JUDGE_MODEL
  try {
    const ollama = await detectOllama({
      ...(env['OLLAMA_HOST'] === undefined ? {} : { host: env['OLLAMA_HOST'] }),
      ...(options.probeTimeoutMs ? { timeoutMs: options.probeTimeoutMs } : {}),
    })
    if (!ollama.reachable) {
      log(
        `--live needs a running Ollama server: ${ollama.reason}.\nStart it with \`ollama serve\` (and \`ollama pull ${model}\`), or set OLLAMA_HOST; or run without --live to use the recorded answers.`,
      )
      return 1
    }
    if (ollama.modelsReason !== undefined || !hasModel(ollama.models, model)) {
      log(
        `--live: ${ollama.modelsReason ?? `Ollama at ${ollama.host} does not have ${model}`}.\nRun \`ollama pull ${model}\`, or choose a pulled model with RAG_MATCHERS_ANSWER_MODEL (\`ollama list\`).`,
      )
      return 1
    }
    let embedder
    let embedderReason: string | undefined
    if (requestedRetriever(env) === 'dense') {
      const report = await detectModels({ env, ...(options.probeTimeoutMs ? { timeoutMs: options.probeTimeoutMs } : {}) })
      if (report.embedder.available) embedder = report.embedder.create()
      else embedderReason = report.embedder.reason
    }
    const run = await retrieveEvalSet({ retriever: requestedRetriever(env), ...(embedder ? { embedder } : {}), ...(embedderReason ? { embedderReason } : {}) })
    await (embedder as { dispose?: () => Promise<void> } | undefined)?.dispose?.()
    const out = options.out ?? LIVE_ANSWERS_FILE
    log(
      `--live: answering ${run.evalSet.length} questions with ${model} at ${ollama.host} (temperature ${LIVE_OPTIONS.temperature}, seed ${LIVE_OPTIONS.seed}); retriever: ${run.retriever}${run.note ? ` (${run.note})` : ''}`,
    )
    await generateLiveAnswers({
      host: ollama.host,
      model,
      out,
      retriever: run.retriever,
      items: run.evalSet.map((item, i) => ({ id: item.id, question: item.question, contexts: run.results[i] ?? [] })),
      log,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    })
    log(`--live: wrote ${out}; the suite uses it for this run.`)
    return 0
  } catch (error) {
    log(`--live failed: ${error instanceof Error ? error.message : String(error)}`)
    return 1
  }
}
