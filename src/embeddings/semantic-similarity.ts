import { MetricInputError, assertString } from '../errors.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature, type SignatureValue } from '../signature.js'
import { assertEmbedder, EMBED_TEXTS_OPTION_KEYS, embedTexts, type EmbedTextsOptions } from './cache.js'
import { cosineSimilarity, l2Norm } from './similarity.js'
import type { Embedder } from './types.js'

export type SemanticSimilarityOptions = EmbedTextsOptions

/** The keys of {@link SemanticSimilarityOptions}: what semanticSimilarity, semanticSimilarities and meanSemanticSimilarity accept. */
export const SEMANTIC_SIMILARITY_OPTION_KEYS = EMBED_TEXTS_OPTION_KEYS

export interface EmbedSimDetails {
  /** Dimension of both vectors. */
  readonly dims: number
  /** Euclidean norms before any comparison (≈1 for normalising embedders). */
  readonly norms: { readonly candidate: number; readonly reference: number }
  /** `embedder.id`: backend, model, pooling, normalisation, dtype. */
  readonly embedderId: string
  /** Why `value` is NaN (a zero vector has no direction). */
  readonly reason?: string
}

export interface EmbedSimPairInput {
  readonly candidate: string
  readonly reference: string
}

export interface EmbedSimSetDetails {
  readonly n: number
  readonly dims: number
  readonly embedderId: string
  /** Every pair's score, in input order. */
  readonly pairs: ReadonlyArray<Score<EmbedSimDetails>>
  /** Pair indices from least to most similar (NaN first, ties by index): what a failure message lists. */
  readonly lowest: readonly number[]
  readonly reason?: string
}

/**
 * The `EmbedSim` signature for an embedder: the embedder's own settings (model, pooling,
 * normalisation, dtype…, taken from its `id`), then `backend`, `sim:cos` and `rescale:none`.
 *
 * @example
 * embedSimSignature('transformers.js|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32')
 * // 'EmbedSim|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32|backend:transformers.js|sim:cos|rescale:none|version:0.1.0'
 */
export function embedSimSignature(embedderId: string): string {
  const parsed = parseEmbedderId(embedderId)
  const entries: Array<[string, SignatureValue]> = []
  for (const [key, value] of parsed.entries) {
    // the signature's own keys win; an id cannot smuggle in a second `version`
    if (key === 'version' || key === 'backend' || key === 'sim' || key === 'rescale') continue
    entries.push([key, value])
  }
  entries.push(['backend', parsed.name], ['sim', 'cos'], ['rescale', 'none'])
  return buildSignature('EmbedSim', entries)
}

/**
 * Splits an embedder id like a signature. User ids are free text, so unlike `parseSignature` this never
 * throws: a value that is not valid percent-encoding (`a%b`) is kept as written.
 */
function parseEmbedderId(id: string): { name: string; entries: Array<[string, string]> } {
  const [name = '', ...pairs] = id.split('|')
  const entries: Array<[string, string]> = []
  for (const pair of pairs) {
    const colon = pair.indexOf(':')
    if (colon < 0) {
      entries.push([pair, ''])
      continue
    }
    const raw = pair.slice(colon + 1)
    let value = raw
    try {
      value = decodeURIComponent(raw)
    } catch {
      // not percent-encoded by us: keep it
    }
    entries.push([pair.slice(0, colon), value])
  }
  return { name, entries }
}

function pairScore(embedderId: string, signature: string, candidate: Float32Array, reference: Float32Array): Score<EmbedSimDetails> {
  const value = cosineSimilarity(candidate, reference)
  const norms = { candidate: l2Norm(candidate), reference: l2Norm(reference) }
  const zero = [norms.candidate === 0 ? 'candidate' : undefined, norms.reference === 0 ? 'reference' : undefined].filter(Boolean)
  const details: EmbedSimDetails = {
    dims: candidate.length,
    norms,
    embedderId,
    ...(Number.isNaN(value) ? { reason: `cosine is undefined: the ${zero.join(' and ')} vector is all zeros` } : {}),
  }
  return makeScore('EmbedSim', value, signature, details)
}

/**
 * Semantic similarity of a candidate and a reference text: the cosine of their embedding vectors,
 * `cos(e(c), e(r)) = e(c)·e(r) / (‖e(c)‖·‖e(r)‖)`, on [-1, 1] (sentence embedders mostly give 0–1).
 *
 * - The cosine is computed from the raw vectors, so it is right whether or not the embedder normalises.
 * - Both texts go to the embedder in one call (one batch); with a `cache`, known texts are not re-embedded.
 * - A zero vector makes the value `NaN` with `details.reason`; embedder failures reject with an
 *   `EmbeddingError` (which names the model and how to fix it), never a number.
 * - No reference implementation: the numbers are the embedder's. A threshold only means something for
 *   one exact embedder, which is why the signature records backend, model, pooling, normalisation and dtype.
 *
 * @throws MetricInputError when a text is not a string or `embedder` is not an embedder.
 * @example
 * const embedder = transformersEmbedder()
 * const score = await semanticSimilarity('Paris is the capital of France.', 'The capital of France is Paris.', embedder)
 * score.value     // close to 1 for a paraphrase; exactly 1 for identical texts
 * score.signature // 'EmbedSim|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32|backend:transformers.js|sim:cos|rescale:none|version:0.1.0'
 */
export async function semanticSimilarity(candidate: string, reference: string, embedder: Embedder, options: SemanticSimilarityOptions = {}): Promise<Score<EmbedSimDetails>> {
  assertString('semanticSimilarity', 'candidate', candidate)
  assertString('semanticSimilarity', 'reference', reference)
  assertEmbedder('semanticSimilarity', 'embedder', embedder)
  checkOptionKeys('semanticSimilarity', options, SEMANTIC_SIMILARITY_OPTION_KEYS)
  const [c, r] = await embedTexts(embedder, [candidate, reference], options)
  return pairScore(embedder.id, embedSimSignature(embedder.id), c as Float32Array, r as Float32Array)
}

function assertPairs(fn: string, pairs: unknown): asserts pairs is readonly EmbedSimPairInput[] {
  if (!Array.isArray(pairs)) throw new MetricInputError(fn, 'pairs', 'an array of `{ candidate, reference }` pairs', pairs)
  pairs.forEach((pair: unknown, i) => {
    const ok =
      typeof pair === 'object' && pair !== null && typeof (pair as EmbedSimPairInput).candidate === 'string' && typeof (pair as EmbedSimPairInput).reference === 'string'
    if (!ok) throw new MetricInputError(fn, `pairs[${i}]`, '`{ candidate: string, reference: string }`', pair)
  })
}

/**
 * {@link semanticSimilarity} for many pairs at once: all distinct texts (candidates and references
 * together) are embedded once, in batches of `batchSize`, then each pair gets its own `Score`.
 * With a shared `cache`, texts seen in earlier calls are not embedded again.
 *
 * @example
 * const scores = await semanticSimilarities([{ candidate: 'a cat', reference: 'a kitten' }, { candidate: 'a cat', reference: 'a car' }], embedder)
 * scores.map((s) => s.value) // 'a cat' was embedded once
 */
export async function semanticSimilarities(
  pairs: readonly EmbedSimPairInput[],
  embedder: Embedder,
  options: SemanticSimilarityOptions = {},
): Promise<Array<Score<EmbedSimDetails>>> {
  assertPairs('semanticSimilarities', pairs)
  assertEmbedder('semanticSimilarities', 'embedder', embedder)
  checkOptionKeys('semanticSimilarities', options, SEMANTIC_SIMILARITY_OPTION_KEYS)
  const texts = pairs.flatMap((p) => [p.candidate, p.reference])
  const vectors = await embedTexts(embedder, texts, options)
  const signature = embedSimSignature(embedder.id)
  return pairs.map((_, i) => pairScore(embedder.id, signature, vectors[2 * i] as Float32Array, vectors[2 * i + 1] as Float32Array))
}

/**
 * Mean semantic similarity over an eval set: `(1/n) Σ cos(e(cᵢ), e(rᵢ))`, with every pair's score in
 * `details.pairs` and the pair indices ordered from least to most similar in `details.lowest`.
 *
 * - The set must not be empty (a mean of nothing is undefined).
 * - If any pair is NaN (a zero vector), the mean is NaN and `details.reason` names the pairs.
 *
 * @throws MetricInputError for an empty or malformed `pairs` array.
 * @example
 * const set = await meanSemanticSimilarity([{ candidate: 'a cat', reference: 'a kitten' }], embedder)
 * set.value // the mean cosine; set.details.lowest[0] is the least similar pair
 */
export async function meanSemanticSimilarity(
  pairs: readonly EmbedSimPairInput[],
  embedder: Embedder,
  options: SemanticSimilarityOptions = {},
): Promise<Score<EmbedSimSetDetails>> {
  assertPairs('meanSemanticSimilarity', pairs)
  if (pairs.length === 0) throw new MetricInputError('meanSemanticSimilarity', 'pairs', 'a non-empty array of pairs', pairs)
  checkOptionKeys('meanSemanticSimilarity', options, SEMANTIC_SIMILARITY_OPTION_KEYS)
  const scores = await semanticSimilarities(pairs, embedder, options)
  const undefinedPairs = scores.flatMap((s, i) => (Number.isNaN(s.value) ? [i] : []))
  const value = undefinedPairs.length > 0 ? Number.NaN : scores.reduce((sum, s) => sum + s.value, 0) / scores.length
  const values = scores.map((s) => s.value)
  const lowest = values
    .map((_, i) => i)
    .sort((a, b) => {
      const va = values[a] as number
      const vb = values[b] as number
      // NaN first (the most alarming), then ascending, ties by input order: a stable, deterministic list
      if (Number.isNaN(va) || Number.isNaN(vb)) return Number.isNaN(va) && Number.isNaN(vb) ? a - b : Number.isNaN(va) ? -1 : 1
      return va === vb ? a - b : va - vb
    })
  const details: EmbedSimSetDetails = {
    n: scores.length,
    dims: (scores[0] as Score<EmbedSimDetails>).details.dims,
    embedderId: embedder.id,
    pairs: scores,
    lowest,
    ...(undefinedPairs.length > 0 ? { reason: `the mean is undefined: pair(s) ${undefinedPairs.join(', ')} have a zero vector` } : {}),
  }
  return makeScore('EmbedSim', value, embedSimSignature(embedder.id), details)
}
