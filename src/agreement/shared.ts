import { MetricInputError } from '../errors.js'

/**
 * Helpers shared by the agreement statistics: label handling with numpy's ordering, numpy's summation
 * order, and argument checks with the project's error grammar.
 */

/** A category a rater can assign. One kind per call: all strings, all numbers or all booleans. */
export type Label = string | number | boolean

export type LabelKind = 'string' | 'number' | 'boolean'

/**
 * `np.sum` of a contiguous float64 vector: numpy adds blocks of fewer than 8 values left to right, up to
 * 128 values with 8 interleaved accumulators, and splits longer runs in halves (pairwise summation).
 * Following the same order keeps our sums bit-identical to the references wherever that is possible.
 */
export function pairwiseSum(values: ArrayLike<number>, start = 0, length = values.length - start): number {
  if (length < 8) {
    let sum = 0
    for (let i = start; i < start + length; i += 1) sum += values[i] as number
    return sum
  }
  if (length <= 128) {
    const r = [0, 0, 0, 0, 0, 0, 0, 0]
    for (let j = 0; j < 8; j += 1) r[j] = values[start + j] as number
    const blockEnd = length - (length % 8)
    for (let i = 8; i < blockEnd; i += 8) {
      for (let j = 0; j < 8; j += 1) r[j] = (r[j] as number) + (values[start + i + j] as number)
    }
    let sum = (r[0] as number) + (r[1] as number) + ((r[2] as number) + (r[3] as number)) + ((r[4] as number) + (r[5] as number) + ((r[6] as number) + (r[7] as number)))
    for (let i = blockEnd; i < length; i += 1) sum += values[start + i] as number
    return sum
  }
  let half = Math.floor(length / 2)
  half -= half % 8
  return pairwiseSum(values, start, half) + pairwiseSum(values, start + half, length - half)
}

/** `np.sum` over every cell of a row-major matrix. */
export function matrixSum(matrix: ReadonlyArray<ReadonlyArray<number>>): number {
  return pairwiseSum(matrix.flat())
}

/** `matrix.sum(axis=0)`: numpy accumulates whole rows one after the other. */
export function columnSums(matrix: ReadonlyArray<ReadonlyArray<number>>, width: number): number[] {
  const sums = new Array<number>(width).fill(0)
  for (const row of matrix) for (let j = 0; j < width; j += 1) sums[j] = (sums[j] as number) + (row[j] as number)
  return sums
}

/** `matrix.sum(axis=1)`: each row is a contiguous vector, summed pairwise. */
export function rowSums(matrix: ReadonlyArray<ReadonlyArray<number>>): number[] {
  return matrix.map((row) => pairwiseSum(row))
}

export function labelKind(value: unknown): LabelKind | undefined {
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'boolean'
  if (typeof value === 'number' && Number.isFinite(value)) return 'number'
  return undefined
}

/**
 * Checks that `values` holds labels of one kind and returns that kind. Mixed kinds are refused, as
 * scikit-learn refuses "Mix of label input types (string and number)".
 */
export function assertLabels(fn: string, argument: string, values: unknown, kind?: LabelKind): LabelKind | undefined {
  if (!Array.isArray(values)) throw new MetricInputError(fn, argument, 'an array of labels', values)
  let seen = kind
  for (let i = 0; i < values.length; i += 1) {
    const k = labelKind(values[i])
    if (k === undefined) {
      throw new MetricInputError(fn, `${argument}[${i}]`, 'a label (string, finite number or boolean)', values[i])
    }
    if (seen !== undefined && k !== seen) {
      throw new MetricInputError(fn, `${argument}[${i}]`, `a ${seen} like the other labels (mixed label kinds)`, values[i])
    }
    seen = k
  }
  return seen
}

/** numpy's sort order for one kind of label: numbers numerically, strings by code point, false < true. */
export function compareLabels(a: Label, b: Label): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b)
  const sa = String(a)
  const sb = String(b)
  // Compare by code point (numpy's unicode order), not UTF-16 unit or locale.
  const ca = Array.from(sa)
  const cb = Array.from(sb)
  const n = Math.min(ca.length, cb.length)
  for (let i = 0; i < n; i += 1) {
    const d = (ca[i] as string).codePointAt(0)! - (cb[i] as string).codePointAt(0)!
    if (d !== 0) return d
  }
  return ca.length - cb.length
}

/** Sorted distinct labels (`np.unique`). `0` and `-0` are one label, as in numpy. */
export function uniqueSorted(values: Iterable<Label>): Label[] {
  const seen = new Map<string, Label>()
  for (const v of values) {
    const key = labelKey(v)
    if (!seen.has(key)) seen.set(key, v === 0 ? 0 : v)
  }
  return [...seen.values()].sort(compareLabels)
}

/** A Map key that keeps `1` and `'1'` apart and joins `0` with `-0`. */
export function labelKey(value: Label): string {
  if (typeof value === 'number') return `n:${value === 0 ? 0 : value}`
  if (typeof value === 'boolean') return `b:${value}`
  return `s:${value}`
}

export function assertMatrix(fn: string, argument: string, value: unknown): asserts value is unknown[][] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((row) => Array.isArray(row))) {
    throw new MetricInputError(fn, argument, 'a non-empty array of rows', value)
  }
}

/** Checks a numeric vector (finite numbers) and returns it as a plain array. */
export function finiteVector(fn: string, argument: string, value: unknown): number[] {
  if (!Array.isArray(value) && !ArrayBuffer.isView(value)) throw new MetricInputError(fn, argument, 'an array of finite numbers', value)
  const arr = Array.from(value as ArrayLike<unknown>)
  for (let i = 0; i < arr.length; i += 1) {
    const v = arr[i]
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new MetricInputError(fn, `${argument}[${i}]`, 'a finite number', v)
  }
  return arr as number[]
}

/** Confidence level → alpha, undoing the binary representation error of `1 - 0.95` (0.05000000000000004). */
export function alphaFromConfidence(fn: string, confidence: unknown): number {
  if (typeof confidence !== 'number' || !(confidence > 0 && confidence < 1)) {
    throw new MetricInputError(fn, 'options.confidence', 'a number strictly between 0 and 1', confidence)
  }
  return Number((1 - confidence).toPrecision(15))
}
