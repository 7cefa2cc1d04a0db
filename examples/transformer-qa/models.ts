/**
 * What the example suite can run on, found without downloading anything: an Ollama server at
 * `OLLAMA_HOST` (and which of the judge and embedding models it has pulled), and the default
 * Transformers.js model in the local cache. Every "no" comes with a reason, which the skipped tests
 * carry in their names.
 *
 * Detection never throws and never hangs: the Ollama probe is bounded by one deadline (default 1 s) and
 * is the only network traffic (to the configured host only); the Transformers.js check only looks at
 * files. The embedder it hands out is built with `allowRemoteModels: false`, so it cannot download either.
 */
import { DEFAULT_OLLAMA_HOST, resolveOllamaHost } from '../../src/ollama-host.js'
import { access } from 'node:fs/promises'
import { join } from 'node:path'
import { ollamaEmbedder, ollamaJudge, transformersEmbedder, type Embedder, type Judge, type JudgeCache } from '../../src/index.js'

export { DEFAULT_OLLAMA_HOST, resolveOllamaHost }
export const DEFAULT_JUDGE_MODEL = 'llama3.1:8b'
export const DEFAULT_OLLAMA_EMBED_MODEL = 'nomic-embed-text'
export const DEFAULT_TRANSFORMERS_MODEL = 'Xenova/all-MiniLM-L6-v2'
/** The whole Ollama probe (version + tags) must finish within this, so an offline run waits at most ~1 s. */
export const DEFAULT_PROBE_TIMEOUT_MS = 1000

/** Whether Ollama's model list holds `wanted`; a name without a tag means `:latest`, as in `ollama pull`. */
export function hasModel(pulled: readonly string[], wanted: string): boolean {
  const norm = (name: string): string => {
    const n = name.trim().toLowerCase()
    const lastSegment = n.slice(n.lastIndexOf('/') + 1)
    return lastSegment.includes(':') ? n : `${n}:latest`
  }
  const target = norm(wanted)
  return pulled.some((name) => norm(name) === target)
}

export interface OllamaStatus {
  /** The host probed (the resolved `OLLAMA_HOST`), or the raw value when it was not a valid host. */
  readonly host: string
  readonly reachable: boolean
  /** Why the server could not be used, when `reachable` is false. */
  readonly reason?: string
  /** `/api/version`'s answer. */
  readonly version?: string
  /** Pulled model names (`/api/tags`); empty when they could not be listed. */
  readonly models: readonly string[]
  /** Why the model list is unknown (the server answered `/api/version` but not `/api/tags`). */
  readonly modelsReason?: string
}

export interface DetectOllamaOptions {
  /** Raw `OLLAMA_HOST` value. @default 'http://127.0.0.1:11434' */
  host?: string
  /** Deadline for the whole probe. @default 1000 */
  timeoutMs?: number
  /** @default globalThis.fetch */
  fetch?: typeof fetch
}

/**
 * Probes an Ollama server: `GET /api/version`, then `GET /api/tags`, both under one deadline.
 * Never throws: an unreachable, slow or odd server gives `reachable: false` with a reason.
 *
 * @example
 * const status = await detectOllama({ host: process.env.OLLAMA_HOST })
 * status.reachable ? status.models : status.reason // ['llama3.1:8b', …] or 'Ollama not reachable at … (ECONNREFUSED)'
 */
export async function detectOllama(options: DetectOllamaOptions = {}): Promise<OllamaStatus> {
  const host = resolveOllamaHost(options.host)
  if (host === undefined) {
    return { host: String(options.host), reachable: false, reason: `OLLAMA_HOST=${JSON.stringify(options.host)} is not a host or URL`, models: [] }
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS
  const doFetch = options.fetch ?? globalThis.fetch
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  // One deadline for both requests; the race also covers a fetch that ignores its signal.
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort()
      resolve('timeout')
    }, timeoutMs)
  })
  const getJson = async (path: string): Promise<unknown> => {
    const response = await doFetch(`${host}${path}`, { signal: controller.signal })
    if (!response.ok) throw new Error(`HTTP ${response.status}`)
    return response.json()
  }
  const within = async <T>(work: Promise<T>): Promise<T | 'timeout'> => Promise.race([work, deadline])
  try {
    let version: unknown
    try {
      version = await within(getJson('/api/version'))
    } catch (error) {
      return { host, reachable: false, reason: `Ollama not reachable at ${host} (${describeError(error)})`, models: [] }
    }
    if (version === 'timeout') return { host, reachable: false, reason: `Ollama at ${host} did not answer /api/version within ${timeoutMs} ms`, models: [] }
    const v = (version as { version?: unknown } | null)?.version
    if (typeof v !== 'string') return { host, reachable: false, reason: `the server at ${host} answered /api/version without a version: is it Ollama?`, models: [] }
    let tags: unknown
    try {
      tags = await within(getJson('/api/tags'))
    } catch (error) {
      return { host, reachable: true, version: v, models: [], modelsReason: `Ollama at ${host} could not list its models (${describeError(error)})` }
    }
    if (tags === 'timeout') return { host, reachable: true, version: v, models: [], modelsReason: `Ollama at ${host} did not list its models within ${timeoutMs} ms` }
    const list = (tags as { models?: unknown } | null)?.models
    const models = Array.isArray(list)
      ? list.map((m) => (m as { name?: unknown; model?: unknown } | null)?.name ?? (m as { model?: unknown } | null)?.model).filter((n): n is string => typeof n === 'string')
      : []
    return { host, reachable: true, version: v, models }
  } finally {
    clearTimeout(timer)
    controller.abort()
  }
}

function describeError(error: unknown): string {
  const e = error as { name?: string; message?: string; cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } } | null
  const code = e?.cause?.code ?? e?.cause?.errors?.[0]?.code
  if (typeof code === 'string') return code
  if (e?.name === 'AbortError' || e?.name === 'TimeoutError') return 'timed out'
  return e?.message ?? String(error)
}

export interface TransformersStatus {
  readonly model: string
  readonly available: boolean
  /** Why the model cannot be used offline, when `available` is false. */
  readonly reason?: string
  /** The package found, e.g. `@huggingface/transformers 4.3.2`. */
  readonly package?: string
  /** The folder holding the model files, when found. */
  readonly dir?: string
  /** The folders looked in. */
  readonly searched: readonly string[]
}

export interface DetectTransformersOptions {
  /** @default 'Xenova/all-MiniLM-L6-v2' */
  model?: string
  /** Advanced: how to import a Transformers.js package (tests simulate a missing one). */
  importModule?: (name: string) => Promise<unknown>
}

/** Files a feature-extraction model needs to load offline with the default fp32 weights. */
const REQUIRED_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', join('onnx', 'model.onnx')]

/**
 * Whether Transformers.js can load `model` without the network: imports the package (to learn the
 * folders it uses, `env.localModelPath` and `env.cacheDir`) and checks that one of `<folder>/<model>/`
 * holds config.json, tokenizer.json, tokenizer_config.json and onnx/model.onnx. Looks at files only.
 * Never throws.
 *
 * @example
 * const status = await detectTransformersModel()
 * status.available ? status.dir : status.reason // '…/.cache/Xenova/all-MiniLM-L6-v2' or 'Transformers.js model … not in the local cache'
 */
export async function detectTransformersModel(options: DetectTransformersOptions = {}): Promise<TransformersStatus> {
  const model = options.model ?? DEFAULT_TRANSFORMERS_MODEL
  const importModule = options.importModule ?? ((name: string) => import(name) as Promise<unknown>)
  let found: { name: string; env: { localModelPath?: unknown; cacheDir?: unknown; allowLocalModels?: unknown; version?: unknown } } | undefined
  const missing: string[] = []
  for (const name of ['@huggingface/transformers', '@xenova/transformers']) {
    try {
      const raw = (await importModule(name)) as { env?: unknown; default?: { env?: unknown } } | null
      const env = (raw?.env ?? raw?.default?.env) as NonNullable<typeof found>['env'] | undefined
      if (env === undefined || env === null || typeof env !== 'object') {
        return { model, available: false, reason: `${name} has no \`env\` export (unsupported version)`, searched: [] }
      }
      found = { name, env }
      break
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (/Cannot find (module|package)|ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND/.test(`${message} ${(error as { code?: unknown }).code ?? ''}`)) {
        missing.push(name)
        continue
      }
      return { model, available: false, reason: `${name} could not be imported (${message.split('\n')[0]})`, searched: [] }
    }
  }
  if (found === undefined) {
    return { model, available: false, reason: `Transformers.js is not installed (${missing.join(', ')})`, searched: [] }
  }
  const env = found.env
  const pkg = `${found.name}${typeof env.version === 'string' ? ` ${env.version}` : ''}`
  const folders: string[] = []
  if (env.allowLocalModels !== false && typeof env.localModelPath === 'string' && env.localModelPath !== '') folders.push(join(env.localModelPath, model))
  if (typeof env.cacheDir === 'string' && env.cacheDir !== '') folders.push(join(env.cacheDir, model))
  for (const dir of folders) {
    const present = await Promise.all(
      REQUIRED_FILES.map((f) =>
        access(join(dir, f)).then(
          () => true,
          () => false,
        ),
      ),
    )
    if (present.every(Boolean)) return { model, available: true, package: pkg, dir, searched: folders }
  }
  return { model, available: false, reason: `Transformers.js model ${model} not in the local cache`, package: pkg, searched: folders }
}

/** An embedder the suite can use, or why there is none. */
export type EmbedderChoice =
  | { readonly available: true; readonly backend: 'transformers' | 'ollama'; readonly label: string; create(): Embedder }
  | { readonly available: false; readonly reason: string }

/** The judge the suite can use, or why there is none. */
export type JudgeChoice =
  | { readonly available: true; readonly model: string; readonly host: string; create(cache?: JudgeCache): Judge }
  | { readonly available: false; readonly reason: string; readonly model: string }

export interface ModelReport {
  readonly ollama: OllamaStatus
  readonly transformers: TransformersStatus
  readonly judgeModel: string
  readonly embedModel: string
  readonly embedder: EmbedderChoice
  readonly judge: JudgeChoice
}

export interface DetectModelsOptions {
  /** Where `OLLAMA_HOST`, `RAG_MATCHERS_JUDGE_MODEL` and `OLLAMA_EMBED_MODEL` are read. @default process.env */
  env?: NodeJS.ProcessEnv
  timeoutMs?: number
  fetch?: typeof fetch
  transformers?: DetectTransformersOptions
  /** `false` skips the Transformers.js check (it imports the package, ~0.3 s) when no embedder is needed. @default true */
  checkTransformers?: boolean
}

/**
 * Everything the example suite needs to decide what runs:
 * - the judge: Ollama reachable at `OLLAMA_HOST` and `RAG_MATCHERS_JUDGE_MODEL` (default `llama3.1:8b`) pulled;
 * - the embedder: the Transformers.js default model if it is in the local cache (the matchers' own
 *   default, so thresholds mean the same as in users' suites), else Ollama's `OLLAMA_EMBED_MODEL`
 *   (default `nomic-embed-text`) if pulled, else none, with both reasons.
 * Both probes run at once; the whole call takes at most about `timeoutMs` (1 s). Never throws.
 *
 * @example
 * const report = await detectModels()
 * report.embedder.available ? report.embedder.label : report.embedder.reason
 * // 'no embedding model (Ollama not reachable at http://127.0.0.1:11434 (ECONNREFUSED); Transformers.js model Xenova/all-MiniLM-L6-v2 not in the local cache)'
 */
export async function detectModels(options: DetectModelsOptions = {}): Promise<ModelReport> {
  const env = options.env ?? process.env
  const judgeModel = env['RAG_MATCHERS_JUDGE_MODEL']?.trim() || DEFAULT_JUDGE_MODEL
  const embedModel = env['OLLAMA_EMBED_MODEL']?.trim() || DEFAULT_OLLAMA_EMBED_MODEL
  const [ollama, transformers] = await Promise.all([
    detectOllama({
      ...(env['OLLAMA_HOST'] === undefined ? {} : { host: env['OLLAMA_HOST'] }),
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    }),
    options.checkTransformers === false
      ? Promise.resolve<TransformersStatus>({ model: DEFAULT_TRANSFORMERS_MODEL, available: false, reason: 'Transformers.js not checked', searched: [] })
      : detectTransformersModel(options.transformers).catch((error: unknown): TransformersStatus => ({
          model: DEFAULT_TRANSFORMERS_MODEL,
          available: false,
          reason: `Transformers.js check failed (${String(error)})`,
          searched: [],
        })),
  ])
  const ollamaModelReason = (model: string): string | undefined => {
    if (!ollama.reachable) return ollama.reason
    if (ollama.modelsReason !== undefined) return ollama.modelsReason
    if (!hasModel(ollama.models, model)) return `${model} not pulled in Ollama at ${ollama.host} (run \`ollama pull ${model}\`)`
    return undefined
  }

  let embedder: EmbedderChoice
  const embedReason = ollamaModelReason(embedModel)
  if (transformers.available) {
    embedder = {
      available: true,
      backend: 'transformers',
      label: `Transformers.js ${transformers.model} (local cache)`,
      create: () => transformersEmbedder({ model: transformers.model, allowRemoteModels: false }),
    }
  } else if (embedReason === undefined) {
    embedder = {
      available: true,
      backend: 'ollama',
      label: `Ollama ${embedModel} at ${ollama.host}`,
      create: () => ollamaEmbedder({ model: embedModel, host: ollama.host }),
    }
  } else {
    embedder = { available: false, reason: `no embedding model (${embedReason}; ${transformers.reason})` }
  }

  const judgeReason = ollamaModelReason(judgeModel)
  const judge: JudgeChoice =
    judgeReason === undefined
      ? {
          available: true,
          model: judgeModel,
          host: ollama.host,
          // A cold 8B model on a CPU can take minutes per call; a timeout here would only hide a slow run.
          create: (cache?: JudgeCache) => ollamaJudge({ model: judgeModel, host: ollama.host, timeoutMs: 600_000, ...(cache ? { cache } : {}) }),
        }
      : { available: false, model: judgeModel, reason: `no judge model (${judgeReason})` }

  return { ollama, transformers, judgeModel, embedModel, embedder, judge }
}

const memo = new Map<boolean, Promise<ModelReport>>()

/**
 * {@link detectModels} with `process.env`, once per process and variant. `{ embedder: false }` skips the
 * Transformers.js check for a file that needs no embedder (its `embedder` then only considers Ollama).
 */
export function exampleModels(options: { embedder?: boolean } = {}): Promise<ModelReport> {
  const withEmbedder = options.embedder ?? true
  let report = memo.get(withEmbedder)
  if (report === undefined) {
    report = detectModels({ checkTransformers: withEmbedder })
    memo.set(withEmbedder, report)
  }
  return report
}
