// Exact means, numpy's pairwise sum, seed resolution and the nBootstrap / seed options of corpusBleu
// and corpusChrf (sacrebleu parity itself: test/parity/sacrebleu-significance.parity.test.ts).
import { corpusBleu, sentenceBleu } from '../../../../src/generation/bleu.js'
import { corpusChrf } from '../../../../src/generation/chrf.js'
import { MetricInputError } from '../../../../src/errors.js'
import { DEFAULT_SEED, estimateCiExact, estimateCiNumpy, resolveSeed } from '../../../../src/generation/significance/bootstrap.js'
import { exactMean, numpyMean, pairwiseSum, roundRatio } from '../../../../src/generation/significance/summation.js'

const hyps = ['The cat sat on the mat.', 'A dog barked at the mailman twice.', 'It rained all day in Paris.', 'We met at noon.', 'He left early.']
const refs = [['The cat sat on a mat.', 'A dog barked at the postman twice.', 'It rained all day long in Paris.', 'We met at noon.', 'She left early.']]

afterEach(() => {
  vi.unstubAllEnvs()
})

describe('exactMean (Python statistics.mean)', () => {
  test('rounds the exact rational mean once', () => {
    // the float sum 0.1 + 0.2 + 0.3 rounds up; the exact mean of the three doubles rounds to 0.2
    expect((0.1 + 0.2 + 0.3) / 3).toBe(0.20000000000000004)
    expect(exactMean([0.1, 0.2, 0.3])).toBe(0.2)
  })

  test('does not overflow where a float sum would', () => {
    expect(exactMean([1e308, 1e308, -1e308])).toBe(1e308 / 3)
  })

  test('rounds subnormal results half to even', () => {
    expect(exactMean([5e-324, 0])).toBe(0)
    expect(exactMean([5e-324, 5e-324, 5e-324, 0])).toBe(5e-324)
    expect(exactMean([-2.5, 2.5, -0])).toBe(0)
  })

  test('roundRatio rounds ties to even and past ties up', () => {
    // 2^53 + 1 is a tie between 2^53 and 2^53 + 2: even wins; a hair above rounds up
    expect(roundRatio(2n ** 53n + 1n, 1n, 0)).toBe(2 ** 53)
    expect(roundRatio(2n ** 54n + 3n, 2n, 0)).toBe(2 ** 53 + 2)
    expect(roundRatio(1n, 3n, 0)).toBe(1 / 3)
    expect(roundRatio(-7n, 2n, 1)).toBe(-7)
  })

  test('refuses empty and non-finite input', () => {
    expect(() => exactMean([])).toThrow(RangeError)
    expect(() => exactMean([1, Number.NaN])).toThrow(RangeError)
  })
})

describe('numpy pairwise summation', () => {
  test('fewer than 8 values add left to right', () => {
    expect(pairwiseSum([1, 1e100, 1, -1e100])).toBe(0)
  })

  test('8 to 128 values use 8 accumulators combined pairwise', () => {
    // left to right this is 1; numpy's ((a0+a1)+(a2+a3))+… gives 0
    const a = [1e100, 1, -1e100, 1, 0, 0, 0, 0]
    expect(a.reduce((s, x) => s + x, 0)).toBe(1)
    expect(pairwiseSum(a)).toBe(0)
    // the 9th value is added after the combination
    expect(pairwiseSum([...a, 1])).toBe(1)
    // with 16 values, accumulator j holds a[j] + a[j + 8]
    expect(pairwiseSum([1e100, 0, 0, 0, 0, 0, 0, 0, -1e100, 1, 0, 0, 0, 0, 0, 0])).toBe(1)
  })

  test('numpyMean divides the pairwise sum by n', () => {
    expect(numpyMean([1, 2, 3, 4])).toBe(2.5)
  })

  test('estimate_ci bounds: lo = N // 40, hi = N − lo − 1 of the sorted scores', () => {
    const scores = Array.from({ length: 80 }, (_, i) => 79 - i)
    // lo = 2, hi = 77 → 0.5 · (77 − 2)
    expect(estimateCiExact(scores)).toEqual({ mean: 39.5, ci: 37.5 })
    expect(estimateCiNumpy(scores)).toEqual({ mean: 39.5, ci: 37.5 })
    expect(estimateCiExact([3, 1]).ci).toBe(1)
  })
})

describe('seed resolution (sacrebleu SACREBLEU_SEED)', () => {
  test('the option wins, then the environment, then 12345', () => {
    vi.stubEnv('SACREBLEU_SEED', '7')
    expect(resolveSeed('f', 3)).toBe(3)
    expect(resolveSeed('f', undefined)).toBe(7)
    vi.stubEnv('SACREBLEU_SEED', ' None ')
    expect(resolveSeed('f', undefined)).toBeNull()
    vi.stubEnv('SACREBLEU_SEED', undefined)
    expect(resolveSeed('f', undefined)).toBe(DEFAULT_SEED)
    expect(resolveSeed('f', null)).toBeNull()
  })

  test('a bad seed is a MetricInputError naming where it came from', () => {
    expect(() => resolveSeed('f', -1)).toThrow(/f: Expected `options.seed` to be a non-negative safe integer/)
    expect(() => resolveSeed('f', 1.5)).toThrow(MetricInputError)
    expect(() => resolveSeed('f', '12')).toThrow(MetricInputError)
    vi.stubEnv('SACREBLEU_SEED', '-3')
    expect(() => resolveSeed('f', undefined)).toThrow(/SACREBLEU_SEED \(environment variable\)/)
    vi.stubEnv('SACREBLEU_SEED', '')
    expect(() => resolveSeed('f', undefined)).toThrow(MetricInputError)
  })
})

describe('corpusBleu / corpusChrf with nBootstrap', () => {
  test('the result carries mean, ci, nBootstrap and seed, and the signature bs and seed', () => {
    const s = corpusBleu(hyps, refs, { nBootstrap: 200, seed: 3 })
    expect(s.value).toBe(corpusBleu(hyps, refs).value)
    expect(s.details.bootstrap).toEqual({ mean: expect.any(Number), ci: expect.any(Number), nBootstrap: 200, seed: 3 })
    expect(s.details.bootstrap!.ci).toBeGreaterThan(0)
    expect(s.signature).toMatch(/^BLEU\|nrefs:1\|bs:200\|seed:3\|case:mixed\|eff:no\|tok:13a\|smooth:exp\|version:/)
    expect(JSON.parse(JSON.stringify(s.details)).bootstrap).toEqual(s.details.bootstrap)
    const c = corpusChrf(hyps, refs, { nBootstrap: 200, seed: 3 })
    expect(c.details.bootstrap!.nBootstrap).toBe(200)
    expect(c.signature).toMatch(/^chrF2\|nrefs:1\|bs:200\|seed:3\|case:mixed\|eff:yes\|nc:6\|nw:0\|space:no\|version:/)
  })

  test('without nBootstrap nothing changes', () => {
    const s = corpusBleu(hyps, refs, { tokenize: '13a' })
    expect(s.details.bootstrap).toBeUndefined()
    expect(JSON.parse(JSON.stringify(s.details))).not.toHaveProperty('bootstrap')
    expect(s.signature).not.toMatch(/bs:/)
  })

  test('the seed is reproducible and SACREBLEU_SEED stands in for the option', () => {
    const a = corpusBleu(hyps, refs, { nBootstrap: 100, seed: 11 })
    expect(corpusBleu(hyps, refs, { nBootstrap: 100, seed: 11 }).details.bootstrap).toEqual(a.details.bootstrap)
    vi.stubEnv('SACREBLEU_SEED', '11')
    expect(corpusBleu(hyps, refs, { nBootstrap: 100 }).details.bootstrap).toEqual(a.details.bootstrap)
    expect(corpusBleu(hyps, refs, { nBootstrap: 100, seed: 12 }).details.bootstrap).not.toEqual(a.details.bootstrap)
  })

  test('seed null resamples unseeded and says so in the signature', () => {
    const s = corpusChrf(hyps, refs, { nBootstrap: 50, seed: null })
    expect(s.details.bootstrap!.seed).toBeNull()
    expect(Number.isFinite(s.details.bootstrap!.mean)).toBe(true)
    expect(s.signature).toContain('|bs:50|seed:none|')
  })

  test.each([
    [{ nBootstrap: 1 }, /`options.nBootstrap` to be an integer from 2 to 1000000/],
    [{ nBootstrap: 2.5 }, /options.nBootstrap/],
    [{ nBootstrap: '1000' }, /options.nBootstrap/],
    [{ nBootstrap: Number.NaN }, /options.nBootstrap/],
    [{ nBootstrap: 2_000_000 }, /options.nBootstrap/],
    [{ seed: 5 }, /`options.seed` to be set only together with options.nBootstrap/],
    [{ nBootstrap: 10, seed: -1 }, /options.seed/],
    [{ nBootstrap: 10, seed: '5' }, /options.seed/],
    [{ nBootstraps: 10 }, /unknown option 'nBootstraps' — did you mean 'nBootstrap'\?/],
  ])('%o is a MetricInputError', (options, message) => {
    expect(() => corpusBleu(hyps, refs, options as never)).toThrow(MetricInputError)
    expect(() => corpusBleu(hyps, refs, options as never)).toThrow(message)
    expect(() => corpusChrf(hyps, refs, options as never)).toThrow(MetricInputError)
  })

  test('sentence-level functions do not take the bootstrap options', () => {
    expect(() => sentenceBleu(hyps[0]!, refs[0]![0]!, { nBootstrap: 10 } as never)).toThrow(/unknown option 'nBootstrap'/)
  })
})
