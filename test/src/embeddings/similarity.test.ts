import fc from 'fast-check'
import { MetricInputError } from '../../../src/errors.js'
import { cosineSimilarity, dotProduct, l2Norm } from '../../../src/embeddings/similarity.js'

describe('cosineSimilarity', () => {
  it('computes a·b / (‖a‖‖b‖) from raw, non-normalised vectors', () => {
    expect(cosineSimilarity([1, 0], [1, 1])).toBe(1 / Math.SQRT2)
    expect(cosineSimilarity([3, 4], [4, 3])).toBeCloseTo(24 / 25, 15)
    expect(cosineSimilarity([2, 0], [5, 0])).toBe(1)
    expect(cosineSimilarity([1, 2, 3], [-1, -2, -3])).toBe(-1)
    expect(cosineSimilarity([1, 0], [0, 7])).toBe(0)
    // scale does not matter: (1,2,2) and (10,20,20) point the same way
    expect(cosineSimilarity([1, 2, 2], [10, 20, 20])).toBe(1)
  })

  it('accumulates Float32Array input in double precision', () => {
    const a = Float32Array.from({ length: 384 }, (_, i) => Math.sin(i))
    const b = Float32Array.from({ length: 384 }, (_, i) => Math.cos(i * 0.7))
    let dot = 0
    let na = 0
    let nb = 0
    for (let i = 0; i < 384; i++) {
      dot += (a[i] as number) * (b[i] as number)
      na += (a[i] as number) ** 2
      nb += (b[i] as number) ** 2
    }
    expect(cosineSimilarity(a, b)).toBeCloseTo(dot / Math.sqrt(na) / Math.sqrt(nb), 14)
    expect(cosineSimilarity(a, Array.from(b))).toBe(cosineSimilarity(a, b))
  })

  it('gives exactly 1 for identical vectors and stays within [-1, 1]', () => {
    const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true })
    fc.assert(
      fc.property(fc.array(finite, { minLength: 1, maxLength: 64 }), (v) => {
        const value = cosineSimilarity(v, v)
        return v.every((x) => x === 0) ? Number.isNaN(value) : value === 1
      }),
    )
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 32 }).chain((n) => fc.tuple(fc.array(finite, { minLength: n, maxLength: n }), fc.array(finite, { minLength: n, maxLength: n }))),
        ([a, b]) => {
          const value = cosineSimilarity(a, b)
          return Number.isNaN(value) || (value >= -1 && value <= 1 && Math.abs(value - cosineSimilarity(b, a)) < 1e-12)
        },
      ),
    )
  })

  it('survives elements whose squares overflow or underflow', () => {
    expect(cosineSimilarity([1e200, 0], [1e200, 1e200])).toBeCloseTo(1 / Math.SQRT2, 15)
    expect(cosineSimilarity([1e-200, 0], [1e-200, 1e-200])).toBeCloseTo(1 / Math.SQRT2, 15)
    expect(cosineSimilarity([5e-324], [5e-324])).toBe(1)
    expect(cosineSimilarity([1e300, 1e300], [1e-300, 0])).toBeCloseTo(1 / Math.SQRT2, 15)
    expect(cosineSimilarity([1e300, 0], [0, 1e-300])).toBe(0)
    const anyFinite = fc.double({ noNaN: true, noDefaultInfinity: true })
    fc.assert(
      fc.property(fc.array(anyFinite, { minLength: 1, maxLength: 16 }), (v) => {
        const value = cosineSimilarity(v, v)
        return v.every((x) => x === 0) ? Number.isNaN(value) : value === 1
      }),
    )
  })

  it('is NaN for a zero vector (no direction), never a made-up 0', () => {
    expect(cosineSimilarity([0, 0], [1, 1])).toBeNaN()
    expect(cosineSimilarity([1, 1], new Float32Array(2))).toBeNaN()
  })

  it('refuses mismatched dimensions, empty vectors, non-vectors and non-finite values', () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(MetricInputError)
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(
      'cosineSimilarity: Expected `b` to be a vector of the same dimension as `a` (2), got `"a vector of dimension 3"` (string)',
    )
    expect(() => cosineSimilarity([], [])).toThrow('cosineSimilarity: Expected `a` to be a non-empty vector, got `[]` (array)')
    expect(() => cosineSimilarity('abc' as never, [1])).toThrow(/Expected `a` to be an array of numbers or a Float32Array/)
    expect(() => cosineSimilarity([1, Number.NaN], [1, 1])).toThrow(/Expected `a` to be a vector of finite numbers/)
    expect(() => cosineSimilarity([1, 1], [Infinity, 1])).toThrow(/Expected `b` to be a vector of finite numbers/)
  })
})

describe('dotProduct and l2Norm', () => {
  it('compute Σ aᵢbᵢ and √Σ aᵢ²', () => {
    expect(dotProduct([1, 2, 3], [4, 5, 6])).toBe(32)
    expect(l2Norm([3, 4])).toBe(5)
    expect(l2Norm(new Float32Array([0.5, 0.5, 0.5, 0.5]))).toBe(1)
    expect(() => dotProduct([1], [1, 2])).toThrow(/same dimension/)
  })
})
