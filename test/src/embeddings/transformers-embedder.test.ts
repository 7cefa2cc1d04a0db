/**
 * Transformers.js through its REAL loading path (tokenizer.json, config.json, onnx/model.onnx read from
 * `localModelPath`, ONNX Runtime inference), on the tiny BERT that scripts/make-tiny-bert.mjs writes.
 * The expected vectors are computed independently in plain JS from the same weights.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tinyBertIds, tinyBertReference, writeTinyBert } from '../../../scripts/make-tiny-bert.mjs'
import { EmbeddingError } from '../../../src/embeddings/errors.js'
import { semanticSimilarity } from '../../../src/embeddings/semantic-similarity.js'
import { l2Norm } from '../../../src/embeddings/similarity.js'
import { transformersEmbedder, type TransformersEmbedder, type TransformersPackage } from '../../../src/embeddings/transformers-embedder.js'

const root = mkdtempSync(join(tmpdir(), 'rag-matchers-tiny-bert-'))
const models = join(root, 'models')
writeTinyBert(models) // 'tiny-bert'
const embedders: TransformersEmbedder[] = []

function tiny(options: Parameters<typeof transformersEmbedder>[0] = {}): TransformersEmbedder {
  const embedder = transformersEmbedder({ model: 'tiny-bert', localModelPath: models, allowRemoteModels: false, ...options })
  embedders.push(embedder)
  return embedder
}

afterAll(async () => {
  await Promise.all(embedders.map((e) => e.dispose()))
  rmSync(root, { recursive: true, force: true })
})

/** Mean of the reference token states over `count` leading tokens (all of them by default), optionally L2-normalised. */
function referenceVector(ids: number[], { normalize = true, pooling = 'mean', seed }: { normalize?: boolean; pooling?: 'mean' | 'cls'; seed?: number } = {}): number[] {
  const states = tinyBertReference(ids, undefined, seed === undefined ? {} : { seed })
  const dims = (states[0] as Float64Array).length
  const pooled =
    pooling === 'cls' ? Array.from(states[0] as Float64Array) : Array.from({ length: dims }, (_, h) => states.reduce((sum, s) => sum + (s[h] as number), 0) / states.length)
  if (!normalize) return pooled
  const norm = Math.sqrt(pooled.reduce((s, x) => s + x * x, 0))
  return pooled.map((x) => x / norm)
}

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length)
  let max = 0
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] as number) - (b[i] as number)))
  return max
}

describe('transformersEmbedder on the generated tiny BERT', () => {
  it('names backend, model, pooling, normalisation and dtype in its id', () => {
    expect(tiny().id).toBe('transformers.js|model:tiny-bert|pool:mean|norm:yes|dtype:fp32')
    expect(transformersEmbedder().id).toBe('transformers.js|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32')
    expect(transformersEmbedder({ pooling: 'cls', normalize: false, dtype: 'q8' }).id).toBe('transformers.js|model:Xenova/all-MiniLM-L6-v2|pool:cls|norm:no|dtype:q8')
  })

  it('gives the masked mean of the token states, L2-normalised (checked against a JS forward pass)', async () => {
    const text = 'The cat sat on the mat .'
    const [vector] = await tiny().embed([text])
    expect(vector).toBeInstanceOf(Float32Array)
    expect(vector).toHaveLength(32)
    expect(l2Norm(vector as Float32Array)).toBeCloseTo(1, 6)
    expect(maxAbsDiff(vector as Float32Array, referenceVector(tinyBertIds(text)))).toBeLessThan(1e-6)
  })

  it('splits words into WordPiece pieces and maps unknown words to [UNK]', async () => {
    const [pieces] = await tiny().embed(['cats'])
    // 'cats' → [CLS] cat ##s [SEP]
    const ids = [2, tinyBertIds('cat')[1] as number, tinyBertIds('##s')[1] as number, 3]
    expect(maxAbsDiff(pieces as Float32Array, referenceVector(ids))).toBeLessThan(1e-6)
    const [unknown] = await tiny().embed(['zebra'])
    expect(maxAbsDiff(unknown as Float32Array, referenceVector([2, 1, 3]))).toBeLessThan(1e-6)
  })

  it('honours normalize: false and pooling: cls', async () => {
    const text = 'quick brown fox'
    const [raw] = await tiny({ normalize: false }).embed([text])
    expect(maxAbsDiff(raw as Float32Array, referenceVector(tinyBertIds(text), { normalize: false }))).toBeLessThan(1e-6)
    expect(Math.abs(l2Norm(raw as Float32Array) - 1)).toBeGreaterThan(0.01)
    const [cls] = await tiny({ pooling: 'cls' }).embed([text])
    expect(maxAbsDiff(cls as Float32Array, referenceVector(tinyBertIds(text), { pooling: 'cls' }))).toBeLessThan(1e-6)
  })

  it('does not let padding change a vector: a short text alone and next to a long one', async () => {
    const embedder = tiny({ normalize: false })
    const short = 'dog'
    const long = 'the quick brown fox jumps over the lazy dog and the cat sat on the mat in paris'
    const [alone] = await embedder.embed([short])
    const [inBatch, longVector] = await embedder.embed([short, long])
    expect(maxAbsDiff(alone as Float32Array, inBatch as Float32Array)).toBeLessThan(1e-6)
    expect(maxAbsDiff(longVector as Float32Array, referenceVector(tinyBertIds(long), { normalize: false }))).toBeLessThan(1e-6)

    // The model gives [PAD] positions real, non-zero states (as BERT does), so a pooling that ignored
    // the mask would move the vector: this is what makes the assertion above able to fail.
    const padded = [...tinyBertIds(short)]
    while (padded.length < tinyBertIds(long).length) padded.push(0)
    expect(maxAbsDiff(inBatch as Float32Array, referenceVector(padded, { normalize: false }))).toBeGreaterThan(1e-3)
  })

  it('gives the same vectors whatever the batch size', async () => {
    const texts = ['a cat', 'the dog ran', 'paris is the capital of france', 'blue', 'the lazy dog sat on the sofa .']
    const one = await tiny({ batchSize: 1 }).embed(texts)
    const two = await tiny({ batchSize: 2 }).embed(texts)
    expect(one).toHaveLength(5)
    expect(two).toHaveLength(5)
    for (let i = 0; i < texts.length; i++) expect(maxAbsDiff(one[i] as Float32Array, two[i] as Float32Array)).toBeLessThan(1e-6)
  })

  it('scores identical texts 1, different texts lower, and records the model in the signature', async () => {
    const embedder = tiny()
    const same = await semanticSimilarity('the cat sat on the mat', 'the cat sat on the mat', embedder)
    expect(same.value).toBe(1)
    const different = await semanticSimilarity('the cat sat on the mat', 'berlin is the capital of germany', embedder)
    expect(different.value).toBeLessThan(0.95)
    expect(different.details).toMatchObject({ dims: 32, embedderId: embedder.id })
    expect(different.signature).toBe('EmbedSim|model:tiny-bert|pool:mean|norm:yes|dtype:fp32|backend:transformers.js|sim:cos|rescale:none|version:0.1.0')
  })

  it('embeds an empty list without loading anything, and an empty string as [CLS] [SEP]', async () => {
    const embedder = tiny()
    await expect(embedder.embed([])).resolves.toEqual([])
    const [empty] = await embedder.embed([''])
    expect(maxAbsDiff(empty as Float32Array, referenceVector([2, 3]))).toBeLessThan(1e-6)
  })

  it('restores the global env after loading', async () => {
    const { env } = (await import('@huggingface/transformers')) as unknown as { env: { localModelPath: string; allowRemoteModels: boolean; cacheDir: string | null } }
    const before = { localModelPath: env.localModelPath, allowRemoteModels: env.allowRemoteModels, cacheDir: env.cacheDir }
    await tiny({ cacheDir: join(root, 'cache') }).load()
    expect({ localModelPath: env.localModelPath, allowRemoteModels: env.allowRemoteModels, cacheDir: env.cacheDir }).toEqual(before)
  })

  it('keeps concurrent loads with different localModelPath apart (env is global)', async () => {
    const other = join(root, 'other-models')
    writeTinyBert(other, { seed: 7 }) // same name, different weights
    const a = tiny()
    const b = tiny({ localModelPath: other })
    const [[va], [vb]] = await Promise.all([a.embed(['red fish']), b.embed(['red fish'])])
    expect(maxAbsDiff(va as Float32Array, referenceVector(tinyBertIds('red fish')))).toBeLessThan(1e-6)
    expect(maxAbsDiff(vb as Float32Array, referenceVector(tinyBertIds('red fish'), { seed: 7 }))).toBeLessThan(1e-6)
  })
})

describe('transformersEmbedder failures are loud', () => {
  it('a missing model names the model, the folder tried and how to fix it', async () => {
    const embedder = tiny({ model: 'no-such-model' })
    const error = await embedder.embed(['hello']).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(EmbeddingError)
    expect(error).toMatchObject({ kind: 'load-failed', embedderId: embedder.id })
    const message = (error as Error).message
    expect(message).toContain('could not load model "no-such-model"')
    expect(message).toContain(join(models, 'no-such-model'))
    expect(message).toContain('allowRemoteModels: false')
    expect(message).toContain('How to fix')
    expect(message).not.toContain('corrupt')
  })

  it('a corrupt model.onnx names the model and the folder, and says the file looks corrupt', async () => {
    const broken = join(root, 'broken')
    const written = writeTinyBert(broken, { name: 'broken-bert' })
    writeFileSync(written.onnxPath, 'this is not an onnx protobuf')
    const error = await transformersEmbedder({ model: 'broken-bert', localModelPath: broken, allowRemoteModels: false })
      .embed(['hello'])
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    expect(error).toBeInstanceOf(EmbeddingError)
    expect(error).toMatchObject({ kind: 'load-failed' })
    expect((error as Error).message).toContain('"broken-bert"')
    expect((error as Error).message).toContain(join(broken, 'broken-bert'))
    expect((error as Error).message).toContain('corrupt')
  })

  it('does not remember a failed load: once the model appears, the next call works', async () => {
    const later = join(root, 'later')
    const embedder = transformersEmbedder({ model: 'late-bert', localModelPath: later, allowRemoteModels: false })
    embedders.push(embedder)
    await expect(embedder.embed(['dog'])).rejects.toThrow(/late-bert/)
    writeTinyBert(later, { name: 'late-bert' })
    const [vector] = await embedder.embed(['dog'])
    expect(maxAbsDiff(vector as Float32Array, referenceVector(tinyBertIds('dog')))).toBeLessThan(1e-6)
  })

  it('a missing package says what to install', async () => {
    const notFound = (name: string): Promise<never> =>
      Promise.reject(Object.assign(new Error(`Cannot find package '${name}' imported from /app/x.js`), { code: 'ERR_MODULE_NOT_FOUND' }))
    const embedder = transformersEmbedder({ importModule: notFound })
    await expect(embedder.embed(['hi'])).rejects.toMatchObject({ kind: 'missing-package' })
    await expect(embedder.embed(['hi'])).rejects.toThrow(/npm install --save-dev @huggingface\/transformers/)
  })

  it('falls back to @xenova/transformers when only that is installed (fp32 → quantized: false)', async () => {
    const real = (await import('@huggingface/transformers')) as unknown as {
      env: object
      pipeline: (...args: unknown[]) => Promise<unknown>
    }
    const calls: unknown[][] = []
    const importModule = (name: TransformersPackage): Promise<unknown> => {
      if (name === '@huggingface/transformers') {
        return Promise.reject(Object.assign(new Error(`Cannot find module '${name}'`), { code: 'MODULE_NOT_FOUND' }))
      }
      // The v2 API has the same pipeline(task, model, options) and env; the real library stands in for it.
      return Promise.resolve({
        env: real.env,
        pipeline: (...args: unknown[]) => {
          calls.push(args)
          return real.pipeline(...args)
        },
      })
    }
    const embedder = tiny({ importModule })
    const [vector] = await embedder.embed(['green tree'])
    expect(maxAbsDiff(vector as Float32Array, referenceVector(tinyBertIds('green tree')))).toBeLessThan(1e-6)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.[2]).toEqual({ quantized: false, local_files_only: true })
    await expect(tiny({ importModule, dtype: 'fp16' }).embed(['x'])).rejects.toThrow(/dtype "fp16" needs @huggingface\/transformers/)
  })

  it('a package that fails to import for another reason is a load failure, not "not installed"', async () => {
    const broken = (): Promise<never> => Promise.reject(new Error('libonnxruntime.so.1: cannot open shared object file'))
    await expect(transformersEmbedder({ importModule: broken }).embed(['x'])).rejects.toMatchObject({
      kind: 'load-failed',
      message: expect.stringContaining('libonnxruntime.so.1'),
    })
  })

  it('a load slower than loadTimeoutMs fails with load-timeout', async () => {
    const { env } = (await import('@huggingface/transformers')) as unknown as { env: object }
    const hanging = (): Promise<unknown> => Promise.resolve({ env, pipeline: () => new Promise(() => undefined) })
    const embedder = transformersEmbedder({ model: 'slow-bert', importModule: hanging, loadTimeoutMs: 50, localModelPath: models })
    await expect(embedder.embed(['x'])).rejects.toMatchObject({
      kind: 'load-timeout',
      message: expect.stringMatching(/"slow-bert"[\s\S]*loadTimeoutMs \(50 ms\)[\s\S]*raise `loadTimeoutMs`/),
    })
  })

  it('refuses malformed options up front', () => {
    expect(() => transformersEmbedder({ pooling: 'max' as never })).toThrow('transformersEmbedder: Expected `pooling` to be "mean" or "cls", got `"max"` (string)')
    expect(() => transformersEmbedder({ dtype: 'fp64' as never })).toThrow(/Expected `dtype` to be one of fp32/)
    expect(() => transformersEmbedder({ loadTimeoutMs: 0 })).toThrow(/`loadTimeoutMs` to be a positive integer/)
    expect(() => transformersEmbedder({ model: '' })).toThrow(/`model`/)
  })
})
