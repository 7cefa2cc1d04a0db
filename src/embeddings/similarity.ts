import { MetricInputError } from '../errors.js'

/** A vector as any array of numbers; embedders return `Float32Array`, users may pass `number[]`. */
export type VectorLike = ArrayLike<number>

function assertVector(fn: string, argument: string, value: unknown): asserts value is VectorLike {
  const ok = (Array.isArray(value) || ArrayBuffer.isView(value)) && !(value instanceof DataView) && typeof (value as ArrayLike<unknown>).length === 'number'
  if (!ok) throw new MetricInputError(fn, argument, 'an array of numbers or a Float32Array', value)
  if ((value as ArrayLike<unknown>).length === 0) throw new MetricInputError(fn, argument, 'a non-empty vector', value)
}

function assertSameDims(fn: string, a: VectorLike, b: VectorLike): void {
  if (a.length !== b.length) {
    throw new MetricInputError(fn, 'b', `a vector of the same dimension as \`a\` (${a.length})`, `a vector of dimension ${b.length}`)
  }
}

/**
 * Dot product `Σ aᵢ·bᵢ`, accumulated in double precision whatever the input type.
 *
 * @throws MetricInputError when either argument is not a non-empty vector or the dimensions differ.
 * @example dotProduct([1, 2, 3], [4, 5, 6]) // 32
 */
export function dotProduct(a: VectorLike, b: VectorLike): number {
  assertVector('dotProduct', 'a', a)
  assertVector('dotProduct', 'b', b)
  assertSameDims('dotProduct', a, b)
  let dot = 0
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number)
  return dot
}

/**
 * Euclidean norm `√(Σ aᵢ²)`, accumulated in double precision.
 *
 * @example l2Norm([3, 4]) // 5
 */
export function l2Norm(a: VectorLike): number {
  assertVector('l2Norm', 'a', a)
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (a[i] as number)
  return Math.sqrt(sum)
}

/**
 * Cosine similarity `a·b / (‖a‖·‖b‖)`, computed from the raw vectors (it does not assume the embedder
 * normalised them, so it is right for `normalize: false`, Ollama and user functions alike).
 *
 * - Accumulates in double precision, even for `Float32Array` input.
 * - The denominator is `√(‖a‖²·‖b‖²)`, so identical vectors give exactly `1` (the square root of a
 *   correctly rounded square is exact). Vectors with huge or tiny elements (beyond 1e±75) are first
 *   divided by their largest element, so squares neither overflow nor underflow.
 * - Clamped to [-1, 1], because rounding can otherwise give `1.0000000000000002`.
 * - A zero vector has no direction: the result is `NaN` (the caller records the reason, see
 *   `semanticSimilarity`), never a made-up 0.
 *
 * @throws MetricInputError when an argument is not a non-empty vector, the dimensions differ or an element is not finite.
 * @example cosineSimilarity([1, 0], [1, 1]) // 0.7071067811865475
 * @example cosineSimilarity([2, 0], [5, 0]) // 1
 */
export function cosineSimilarity(a: VectorLike, b: VectorLike): number {
  assertVector('cosineSimilarity', 'a', a)
  assertVector('cosineSimilarity', 'b', b)
  assertSameDims('cosineSimilarity', a, b)
  const maxA = maxAbs('a', a)
  const maxB = maxAbs('b', b)
  if (maxA === 0 || maxB === 0) return Number.NaN
  // Squares of huge (or tiny) elements overflow (underflow); cosine is scale-free, so divide by the
  // largest element first — only when needed, so ordinary vectors get the plain, exact sums.
  const sa = maxA > SAFE_MAX || maxA < SAFE_MIN ? maxA : 1
  const sb = maxB > SAFE_MAX || maxB < SAFE_MIN ? maxB : 1
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = (a[i] as number) / sa
    const y = (b[i] as number) / sb
    dot += x * y
    na += x * x
    nb += y * y
  }
  let denominator = Math.sqrt(na * nb)
  if (!Number.isFinite(denominator) || denominator === 0) denominator = Math.sqrt(na) * Math.sqrt(nb)
  const cosine = dot / denominator
  return Math.min(1, Math.max(-1, cosine))
}

// Within these bounds ‖a‖²·‖b‖² cannot overflow or underflow for any realistic dimension.
const SAFE_MAX = 1e75
const SAFE_MIN = 1e-75

function maxAbs(argument: string, v: VectorLike): number {
  let max = 0
  for (let i = 0; i < v.length; i++) {
    const x = v[i] as number
    if (typeof x !== 'number' || !Number.isFinite(x)) {
      throw new MetricInputError('cosineSimilarity', argument, 'a vector of finite numbers', Array.from(v).slice(0, 8))
    }
    const abs = Math.abs(x)
    if (abs > max) max = abs
  }
  return max
}
