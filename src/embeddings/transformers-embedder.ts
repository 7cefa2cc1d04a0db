import { join } from 'node:path'
import { MetricInputError, assertPositiveInteger } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { buildSignature } from '../signature.js'
import { checkVectors } from './cache.js'
import { EmbeddingError, describeCause } from './errors.js'
import type { Embedder } from './types.js'

/** The packages we can run on, in the order we try them. */
export type TransformersPackage = '@huggingface/transformers' | '@xenova/transformers'
const PACKAGES: readonly TransformersPackage[] = ['@huggingface/transformers', '@xenova/transformers']

export type TransformersPooling = 'mean' | 'cls'
/** Weight formats Transformers.js knows; `fp32` loads `onnx/model.onnx`, `q8` `onnx/model_quantized.onnx`, … */
export type TransformersDtype = 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16'
const DTYPES: readonly string[] = ['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4', 'bnb4', 'q4f16']
// File-name suffix per dtype, as Transformers.js names the weight files (for the "put the files here" hint).
const DTYPE_SUFFIX: Record<string, string> = { fp32: '', fp16: '_fp16', q8: '_quantized', int8: '_int8', uint8: '_uint8', q4: '_q4', bnb4: '_bnb4', q4f16: '_q4f16' }

export interface TransformersEmbedderOptions {
  /** Hub id or folder name under `localModelPath`. @default 'Xenova/all-MiniLM-L6-v2' */
  model?: string
  /** How token vectors become one sentence vector; `mean` honours the attention mask. @default 'mean' */
  pooling?: TransformersPooling
  /** L2-normalise the sentence vector. @default true */
  normalize?: boolean
  /** Weight file to load. @default 'fp32' (Transformers.js's own default on CPU) */
  dtype?: TransformersDtype
  /** Folder holding `<model>/config.json`, `<model>/onnx/model.onnx`, …; sets `env.localModelPath` while loading. */
  localModelPath?: string
  /** `false` = never download (offline CI); sets `env.allowRemoteModels` while loading. @default the library's own (true) */
  allowRemoteModels?: boolean
  /** Where downloaded models are cached; sets `env.cacheDir` while loading. */
  cacheDir?: string
  /** Give up loading after this long (the first run downloads the model). @default 120000 */
  loadTimeoutMs?: number
  /** Texts per forward pass; a batch is padded to its longest text. @default 32 */
  batchSize?: number
  /**
   * Advanced: how to import a Transformers.js package. Defaults to a dynamic `import()`, which keeps
   * ONNX Runtime out of projects that never embed. Tests use it to simulate a missing package.
   */
  importModule?: (name: TransformersPackage) => Promise<unknown>
}

/** The keys of {@link TransformersEmbedderOptions}: what transformersEmbedder accepts. */
export const TRANSFORMERS_EMBEDDER_OPTION_KEYS = keysOf<TransformersEmbedderOptions>()(
  'model',
  'pooling',
  'normalize',
  'dtype',
  'localModelPath',
  'allowRemoteModels',
  'cacheDir',
  'loadTimeoutMs',
  'batchSize',
  'importModule',
)

/** The slice of the Transformers.js API we use (identical in @huggingface/transformers 3–4 and @xenova/transformers 2). */
interface TransformersEnv {
  localModelPath: string
  allowRemoteModels: boolean
  allowLocalModels: boolean
  cacheDir: string | null
  version?: string
}
interface TensorLike {
  dims: number[]
  data: ArrayLike<number>
}
type FeaturePipeline = ((texts: string[], options: { pooling: string; normalize: boolean }) => Promise<TensorLike>) & {
  dispose?: () => Promise<void>
}
interface TransformersModule {
  env: TransformersEnv
  pipeline: (task: 'feature-extraction', model: string, options: Record<string, unknown>) => Promise<FeaturePipeline>
}

/** An {@link Embedder} that owns a loaded model; `dispose()` frees the ONNX session. */
export interface TransformersEmbedder extends Embedder {
  readonly model: string
  /** Loads the model now (it is otherwise loaded on the first `embed`); rejects with the loud load error. */
  load(): Promise<void>
  dispose(): Promise<void>
}

const ENV_LOCK = Symbol.for('rag-matchers.transformers-env-lock')

/**
 * Local sentence embeddings with Transformers.js (ONNX Runtime on the CPU, no server).
 *
 * Runs `pipeline('feature-extraction', model)` and calls it with `{ pooling, normalize }`: the vector of a
 * text is the mean of its token vectors over the attention mask (or the [CLS] vector), L2-normalised
 * by default — the sentence-transformers recipe for all-MiniLM-L6-v2.
 *
 * - Uses `@huggingface/transformers` (v3+), or `@xenova/transformers` (v2) when only that is installed;
 *   both are optional peers, imported lazily, so projects that never embed never install ONNX Runtime.
 *   Nothing special is needed to install them: the CPU binary ships inside `onnxruntime-node`.
 * - The model loads on the first `embed` (or `load()`), once per embedder: create it once and reuse it.
 * - `localModelPath`, `allowRemoteModels` and `cacheDir` are written to the library's GLOBAL `env`
 *   just before the pipeline is created and restored afterwards; pipeline creations are serialised per
 *   `env` object so two embedders with different settings cannot see each other's values.
 *   (A load that outlives `loadTimeoutMs` keeps running in the background with the restored values.)
 * - Failures are loud `EmbeddingError`s: a missing package says what to install; a load failure names the
 *   model, the local and cache paths tried and how to fix it; a load longer than `loadTimeoutMs` is `load-timeout`.
 * - `id`: `transformers.js|model:<model>|pool:<pooling>|norm:<yes|no>|dtype:<dtype>`.
 *
 * @throws MetricInputError for malformed options (synchronously, before anything loads).
 * @example
 * const embedder = transformersEmbedder() // Xenova/all-MiniLM-L6-v2, mean pooling, normalised, fp32
 * embedder.id // 'transformers.js|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32'
 * const [v] = await embedder.embed(['The capital of France is Paris.']) // Float32Array(384)
 * @example
 * // offline CI: a model folder checked in or restored from a cache
 * transformersEmbedder({ model: 'all-MiniLM-L6-v2', localModelPath: './models', allowRemoteModels: false })
 */
export function transformersEmbedder(options: TransformersEmbedderOptions = {}): TransformersEmbedder {
  const fn = 'transformersEmbedder'
  if (typeof options !== 'object' || options === null) throw new MetricInputError(fn, 'options', 'an options object', options)
  checkOptionKeys(fn, options, TRANSFORMERS_EMBEDDER_OPTION_KEYS)
  const model = options.model ?? 'Xenova/all-MiniLM-L6-v2'
  if (typeof model !== 'string' || model.trim() === '') throw new MetricInputError(fn, 'model', 'a model id such as "Xenova/all-MiniLM-L6-v2"', model)
  const pooling = options.pooling ?? 'mean'
  if (pooling !== 'mean' && pooling !== 'cls') throw new MetricInputError(fn, 'pooling', '"mean" or "cls"', pooling)
  const normalize = options.normalize ?? true
  if (typeof normalize !== 'boolean') throw new MetricInputError(fn, 'normalize', 'a boolean', normalize)
  const dtype = options.dtype ?? 'fp32'
  if (!DTYPES.includes(dtype)) throw new MetricInputError(fn, 'dtype', `one of ${DTYPES.join(', ')}`, dtype)
  for (const key of ['localModelPath', 'cacheDir'] as const) {
    const value = options[key]
    if (value !== undefined && (typeof value !== 'string' || value === '')) throw new MetricInputError(fn, key, 'a folder path', value)
  }
  if (options.allowRemoteModels !== undefined && typeof options.allowRemoteModels !== 'boolean') {
    throw new MetricInputError(fn, 'allowRemoteModels', 'a boolean', options.allowRemoteModels)
  }
  const loadTimeoutMs = options.loadTimeoutMs ?? 120_000
  assertPositiveInteger(fn, 'loadTimeoutMs', loadTimeoutMs)
  const batchSize = options.batchSize ?? 32
  assertPositiveInteger(fn, 'batchSize', batchSize)
  const importModule = options.importModule ?? ((name: TransformersPackage) => import(name) as Promise<unknown>)
  if (typeof importModule !== 'function') throw new MetricInputError(fn, 'importModule', 'a function', importModule)

  const id = buildSignature('transformers.js', [
    ['model', model],
    ['pool', pooling],
    ['norm', normalize],
    ['dtype', dtype],
  ]).replace(/\|version:[^|]*$/, '') // an embedder id names the model, not our version

  let loading: Promise<FeaturePipeline> | undefined

  async function load(): Promise<FeaturePipeline> {
    const { mod, name } = await importBackend(id, model, importModule)
    const env = mod.env
    return withEnvLock(env, async () => {
      const saved = { localModelPath: env.localModelPath, allowRemoteModels: env.allowRemoteModels, allowLocalModels: env.allowLocalModels, cacheDir: env.cacheDir }
      try {
        if (options.localModelPath !== undefined) {
          env.localModelPath = options.localModelPath
          env.allowLocalModels = true
        }
        if (options.allowRemoteModels !== undefined) env.allowRemoteModels = options.allowRemoteModels
        if (options.cacheDir !== undefined) env.cacheDir = options.cacheDir
        const where = {
          local: env.allowLocalModels ? join(env.localModelPath, model) : undefined,
          cache: env.cacheDir ? join(env.cacheDir, model) : undefined,
          remote: env.allowRemoteModels,
        }
        const pipelineOptions: Record<string, unknown> =
          name === '@xenova/transformers'
            ? { quantized: dtype === 'q8', ...(env.allowRemoteModels ? {} : { local_files_only: true }), ...(options.cacheDir ? { cache_dir: options.cacheDir } : {}) }
            : { dtype, ...(env.allowRemoteModels ? {} : { local_files_only: true }), ...(options.cacheDir ? { cache_dir: options.cacheDir } : {}) }
        if (name === '@xenova/transformers' && dtype !== 'fp32' && dtype !== 'q8') {
          throw new EmbeddingError(
            'load-failed',
            id,
            `transformersEmbedder: dtype "${dtype}" needs @huggingface/transformers (v3+); @xenova/transformers only has fp32 and q8. Install it with \`npm install --save-dev @huggingface/transformers\`.`,
          )
        }
        let timer: NodeJS.Timeout | undefined
        const creation = mod.pipeline('feature-extraction', model, pipelineOptions)
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new EmbeddingError(
                  'load-timeout',
                  id,
                  loadMessage(model, dtype, name, env.version, where, `loading took longer than loadTimeoutMs (${loadTimeoutMs} ms)`, true),
                ),
              ),
            loadTimeoutMs,
          )
        })
        try {
          return await Promise.race([creation, timeout])
        } catch (error) {
          // A creation that finishes after the timeout is released, not leaked.
          creation.then(
            (pipe) => pipe.dispose?.(),
            () => undefined,
          )
          if (error instanceof EmbeddingError) throw error
          throw new EmbeddingError('load-failed', id, loadMessage(model, dtype, name, env.version, where, describeCause(error), false), { cause: error })
        } finally {
          clearTimeout(timer)
        }
      } finally {
        env.localModelPath = saved.localModelPath
        env.allowRemoteModels = saved.allowRemoteModels
        env.allowLocalModels = saved.allowLocalModels
        env.cacheDir = saved.cacheDir
      }
    })
  }

  function pipelineOnce(): Promise<FeaturePipeline> {
    if (loading === undefined) {
      const attempt = load()
      loading = attempt
      // A failed load is not remembered: the next call tries again (the model may have been fixed).
      attempt.catch(() => {
        if (loading === attempt) loading = undefined
      })
    }
    return loading
  }

  return {
    id,
    model,
    async load() {
      await pipelineOnce()
    },
    async dispose() {
      const current = loading
      loading = undefined
      if (current)
        await current.then(
          (pipe) => pipe.dispose?.(),
          () => undefined,
        )
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      if (!Array.isArray(texts)) throw new MetricInputError('transformersEmbedder.embed', 'texts', 'an array of strings', texts)
      texts.forEach((t, i) => {
        if (typeof t !== 'string') throw new MetricInputError('transformersEmbedder.embed', `texts[${i}]`, 'a string', t)
      })
      if (texts.length === 0) return []
      const pipe = await pipelineOnce()
      const out: Float32Array[] = []
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize)
        let tensor: TensorLike
        try {
          tensor = await pipe(batch, { pooling, normalize })
        } catch (error) {
          throw new EmbeddingError('embed-failed', id, `transformersEmbedder: model "${model}" failed while embedding ${batch.length} text(s): ${describeCause(error)}`, {
            cause: error,
          })
        }
        const [rows, dims] = tensor.dims
        if (tensor.dims.length !== 2 || rows !== batch.length || !dims) {
          throw new EmbeddingError(
            'bad-response',
            id,
            `transformersEmbedder: model "${model}" returned a tensor of shape [${tensor.dims.join(', ')}] for ${batch.length} text(s); expected [${batch.length}, dims]. Is it a feature-extraction model?`,
          )
        }
        const data = tensor.data
        const rowsOut: ArrayLike<number>[] = []
        // Copy each row into a Float32Array of OUR realm (under Jest the tensor's arrays come from another one).
        for (let r = 0; r < rows; r++) rowsOut.push(Array.prototype.slice.call(data, r * dims, (r + 1) * dims) as number[])
        out.push(...checkVectors(id, rowsOut, batch.length))
      }
      return out
    },
  }
}

async function importBackend(
  id: string,
  model: string,
  importModule: (name: TransformersPackage) => Promise<unknown>,
): Promise<{ mod: TransformersModule; name: TransformersPackage }> {
  const notFound: string[] = []
  for (const name of PACKAGES) {
    let raw: unknown
    try {
      raw = await importModule(name)
    } catch (error) {
      if (isModuleNotFound(error, name)) {
        notFound.push(name)
        continue
      }
      throw new EmbeddingError(
        'load-failed',
        id,
        `transformersEmbedder: ${name} is installed but could not be imported (${describeCause(error)}). Reinstall it (\`npm install --save-dev ${name}\`); ONNX Runtime's CPU binary ships inside onnxruntime-node and needs no extra step.`,
        { cause: error },
      )
    }
    // CJS interop (Jest) may put the exports under `default`.
    const candidate = (raw as { pipeline?: unknown; default?: unknown } | null)?.pipeline ? raw : (raw as { default?: unknown } | null)?.default
    const mod = candidate as TransformersModule | undefined
    if (typeof mod?.pipeline !== 'function' || typeof mod.env !== 'object' || mod.env === null) {
      throw new EmbeddingError(
        'load-failed',
        id,
        `transformersEmbedder: ${name} was imported but has no \`pipeline\`/\`env\` export; is it a supported version (@huggingface/transformers ≥ 3 or @xenova/transformers 2)?`,
      )
    }
    return { mod, name }
  }
  throw new EmbeddingError(
    'missing-package',
    id,
    `transformersEmbedder: embedding with model "${model}" needs Transformers.js, which is not installed (tried ${notFound.join(', ')}).\n` +
      `Install it with \`npm install --save-dev @huggingface/transformers\` (or the older @xenova/transformers), ` +
      `or pass another embedder: ollamaEmbedder() or functionEmbedder(fn).`,
  )
}

function isModuleNotFound(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code
  const message = error instanceof Error ? error.message : String(error)
  // Only the package itself missing counts; a missing dependency inside it is a broken install.
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || /Cannot find (module|package)/.test(message)) && message.includes(name)
}

function loadMessage(
  model: string,
  dtype: string,
  name: string,
  version: string | undefined,
  where: { local: string | undefined; cache: string | undefined; remote: boolean },
  cause: string,
  timedOut: boolean,
): string {
  const onnxFile = `onnx/model${DTYPE_SUFFIX[dtype] ?? ''}.onnx`
  const lines = [
    `transformersEmbedder: could not load model "${model}" with ${name}${version ? ` ${version}` : ''}: ${cause}`,
    `  local folder tried: ${where.local ?? '(local models disabled: env.allowLocalModels is false)'}  (localModelPath)`,
    `  cache folder:       ${where.cache ?? '(none)'}  (cacheDir)`,
    `  remote download:    ${where.remote ? 'allowed (Hugging Face hub)' : 'disabled (allowRemoteModels: false)'}`,
    'How to fix:',
  ]
  if (timedOut) lines.push('  - the first run downloads the model: raise `loadTimeoutMs`, or download it once and point `localModelPath` at it.')
  if (!where.remote) {
    lines.push(`  - put config.json, tokenizer.json, tokenizer_config.json and ${onnxFile} in ${where.local ?? `<localModelPath>/${model}`},`)
    lines.push('    or allow one download with `allowRemoteModels: true` to fill the cache.')
  } else {
    lines.push('  - check that huggingface.co is reachable (proxy, firewall), or run offline with `localModelPath` + `allowRemoteModels: false`.')
  }
  // "not found" also mentions config.json, so it must not read as corruption
  if (!/not found|ENOENT|no such file/i.test(cause) && /protobuf|corrupt|invalid|Unexpected (token|end)|JSON|SyntaxError/i.test(cause)) {
    lines.push('  - a model file looks corrupt: delete the model folder (local or cache) and download it again.')
  }
  return lines.join('\n')
}

/** Serialises work on one Transformers.js `env` object (a global shared by every embedder). */
async function withEnvLock<T>(env: object, work: () => Promise<T>): Promise<T> {
  // Stored on the env object itself, so every copy of rag-matchers (ESM and CJS) sees the same lock.
  const holder = env as { [ENV_LOCK]?: Promise<unknown> }
  const previous = holder[ENV_LOCK] ?? Promise.resolve()
  const run = previous.then(work, work)
  holder[ENV_LOCK] = run.then(
    () => undefined,
    () => undefined,
  )
  return run
}
