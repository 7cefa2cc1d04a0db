// Input checks and seed semantics of the paired tests (sacrebleu parity:
// test/parity/sacrebleu-significance.parity.test.ts).
import { MetricInputError } from '../../../../src/errors.js'
import { corpusBleu } from '../../../../src/generation/bleu.js'
import { pairedApproxRandomization, pairedBootstrap, pairedTest } from '../../../../src/generation/significance/paired.js'

const references = [['The cat sat on a mat.', 'A dog barked at the postman twice.', 'It rained all day long in Paris.', 'We met at noon.', 'She left early.']]
const baseline = { name: 'base', hypotheses: ['The cat sat on the mat.', 'A dog barked twice.', 'It rained in Paris.', 'We met at noon.', 'He left.'] }
const better = {
  name: 'better',
  hypotheses: ['The cat sat on a mat.', 'A dog barked at the postman twice.', 'It rained all day in Paris.', 'We met at noon.', 'She left early.'],
}
const input = { baseline, systems: [better], references, metric: 'bleu' as const, nSamples: 100, seed: 5 }

describe('paired tests: results', () => {
  test('rows: the baseline first with a null p-value, scores equal corpusBleu', () => {
    const r = pairedBootstrap(input)
    expect(r.results.map((x) => x.system)).toEqual(['base', 'better'])
    expect(r.results[0]!.pValue).toBeNull()
    expect(r.results[0]!.score).toBe(corpusBleu(baseline.hypotheses, references).value)
    expect(r.results[1]!.score).toBe(corpusBleu(better.hypotheses, references).value)
    expect(r.results[1]!.pValue).toBeGreaterThan(0)
    expect(r.results[1]!.pValue).toBeLessThanOrEqual(1)
    expect(r).toMatchObject({ metric: 'BLEU', test: 'bs', nSamples: 100, nConfidence: 100, seed: 5 })
    expect(r.signature).toMatch(/^BLEU\|nrefs:1\|bs:100\|seed:5\|case:mixed/)
  })

  test('AR without nConfidence reports no mean or ci; with it, both', () => {
    const plain = pairedApproxRandomization(input)
    expect(plain.results.every((x) => x.mean === null && x.ci === null)).toBe(true)
    expect(plain.nConfidence).toBeNull()
    expect(plain.signature).toMatch(/\|ar:100\|seed:5\|/)
    const conf = pairedApproxRandomization({ ...input, nConfidence: 50 })
    expect(conf.results.every((x) => Number.isFinite(x.mean) && Number.isFinite(x.ci))).toBe(true)
    expect(conf.signature).toMatch(/\|bs:50\|ar:100\|seed:5\|/)
    // the trials come first from the same generator: the p-values do not change
    expect(conf.results.map((x) => x.pValue)).toEqual(plain.results.map((x) => x.pValue))
    expect(pairedApproxRandomization({ ...input, nConfidence: 0 }).nConfidence).toBe(1000)
    expect(pairedApproxRandomization({ ...input, nConfidence: -1 }).nConfidence).toBeNull()
  })

  test('a copy of the baseline gets p = 1/(n + 1): sacrebleu counts only strictly larger statistics', () => {
    const copy = [{ name: 'copy', hypotheses: baseline.hypotheses }]
    expect(pairedBootstrap({ ...input, systems: copy }).results[1]!.pValue).toBe(1 / 101)
    expect(pairedApproxRandomization({ ...input, systems: copy }).results[1]!.pValue).toBe(1 / 101)
  })

  test('seed 0 follows sacrebleu: the baseline resamples with seed 0, the systems unseeded', () => {
    const r = pairedBootstrap({ ...input, seed: 0 })
    expect(r.seed).toBe(0)
    const bootstrapped = corpusBleu(baseline.hypotheses, references, { nBootstrap: 100, seed: 0 })
    // the baseline row uses np.mean, the corpus score statistics.mean: equal to rounding
    expect(r.results[0]!.mean).toBeCloseTo(bootstrapped.details.bootstrap!.mean, 10)
    expect(r.results[0]!.ci).toBe(bootstrapped.details.bootstrap!.ci)
  })
})

describe('paired tests: input errors are MetricInputErrors', () => {
  test.each([
    ['a system of another length', { systems: [{ name: 's', hypotheses: ['only one'] }] }, /`input.systems\[0\].hypotheses` to be an array of 5 strings/],
    ['no systems', { systems: [] }, /input.systems/],
    ['a non-string hypothesis', { systems: [{ name: 's', hypotheses: [1, 2, 3, 4, 5] }] }, /input.systems\[0\].hypotheses\[0\]/],
    ['a nameless system', { systems: [{ hypotheses: better.hypotheses }] }, /input.systems\[0\].name/],
    ['repeated names', { systems: [{ name: 'base', hypotheses: better.hypotheses }] }, /distinct names/],
    ['an unknown system key', { systems: [{ ...better, hyps: [] }] }, /input.systems\[0\].hyps/],
    ['an unknown metric', { metric: 'meteor' }, /`input.metric` to be 'bleu', 'chrf' or 'ter'/],
    ['a bad metric option', { metricOptions: { tokenize: 'xx' } }, /`input.metricOptions.tokenize`/],
    ['an unknown metric option', { metric: 'chrf', metricOptions: { charOrdr: 5 } }, /input.metricOptions.charOrdr/],
    ['references of the wrong length', { references: [['a', 'b']] }, /`input.references\[0\]` to be an array of 5 entries/],
    ['no references', { references: [] }, /input.references/],
    ['nSamples 0', { nSamples: 0 }, /`input.nSamples` to be an integer from 1/],
    ['a fractional nSamples', { nSamples: 10.5 }, /input.nSamples/],
    ['a negative seed', { seed: -2 }, /options.seed/],
    ['an unknown key', { nSample: 10 }, /unknown option 'nSample' — did you mean 'nSamples'\?/],
    ['nConfidence on the bootstrap', { nConfidence: 10 }, /input.nConfidence/],
  ])('%s', (_label, change, message) => {
    expect(() => pairedBootstrap({ ...input, ...change } as never)).toThrow(MetricInputError)
    expect(() => pairedBootstrap({ ...input, ...change } as never)).toThrow(message)
  })

  test('AR: a bad nConfidence, and pairedTest: a bad test name', () => {
    expect(() => pairedApproxRandomization({ ...input, nConfidence: 2.5 })).toThrow(/`input.nConfidence` to be an integer from 1/)
    expect(() => pairedApproxRandomization({ ...input, nConfidence: -2 })).toThrow(MetricInputError)
    expect(() => pairedTest({ ...input, test: 'perm' } as never)).toThrow(/`input.test` to be 'bs' or 'ar'/)
    expect(() => pairedTest({ ...input, test: 'bs', nConfidence: 5 })).toThrow(/input.nConfidence/)
    expect(() => pairedBootstrap(null as never)).toThrow(MetricInputError)
  })
})
