import { computeMetric, mergeSignatures, metricKind, metricOptionKeys, metricRunOf, metricScale, METRIC_NAMES, resolveMetricSpec } from '../../../src/eval-set/metrics.js'
import { sentenceBleu } from '../../../src/generation/bleu.js'
import { sentenceChrf } from '../../../src/generation/chrf.js'
import { meteorScore } from '../../../src/generation/meteor.js'
import { rougeScore } from '../../../src/generation/rouge.js'
import { MetricInputError } from '../../../src/errors.js'
import { averagePrecision, hitRateAtK, ndcgAtK, precisionAtK, recallAtK, reciprocalRank } from '../../../src/index.js'

const answer = 'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.'
const reference = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'
const c = { id: 'q1', retrieved: ['d7', 'd2', 'd9', 'd4'], relevant: { d2: 1, d4: 2 }, answer, reference }

describe('computeMetric', () => {
  it('computes each retrieval metric with the core function and its signature', () => {
    const cases: Array<[string, { value: number; signature: string }]> = [
      ['recall@3', recallAtK(c, 3)],
      ['precision@2', precisionAtK(c, 2)],
      ['ndcg@4', ndcgAtK(c, 4)],
      ['hit@1', hitRateAtK(c, 1)],
      ['map@10', averagePrecision(c, 10)],
      ['mrr', reciprocalRank(c)],
    ]
    for (const [name, core] of cases) expect([name, computeMetric(name, c)]).toEqual([name, { value: core.value, signature: core.signature }])
    expect(computeMetric('recall@3', c).value).toBe(0.5)
    expect(computeMetric('mrr', c).value).toBe(0.5)
  })

  it('computes the generation metrics: sentence BLEU/chrF on 0–100, ROUGE F with stemming, METEOR', () => {
    expect(computeMetric('bleu', c)).toEqual({ value: sentenceBleu(answer, [reference]).value, signature: sentenceBleu(answer, [reference]).signature })
    expect(computeMetric('bleu', c).value).toBeCloseTo(76.24658586234858, 9)
    expect(computeMetric('chrf', c).value).toBeCloseTo(sentenceChrf(answer, reference).value, 12)
    const rougeL = rougeScore(answer, [reference], { types: ['rougeL'], stemmer: true }).rougeL!
    expect(computeMetric('rougeL', c).value).toBe(rougeL.details.fmeasure)
    expect(computeMetric('rougeL', c).value).toBeCloseTo(0.8421052631578947, 12)
    expect(computeMetric('rougeL', c).signature).toMatch(/^ROUGE-L\|tok:rouge-default\|stem:yes\|measure:F\|version:/)
    expect(computeMetric('rougeLsum', c).signature).toMatch(/^ROUGE-Lsum\|tok:rouge-default\|stem:yes\|split:newline\|measure:F\|version:/)
    for (const t of ['rouge1', 'rouge2'] as const) {
      expect(computeMetric(t, c).value).toBe(rougeScore(answer, [reference], { types: [t], stemmer: true })[t]!.details.fmeasure)
    }
    expect(computeMetric('meteor', c)).toEqual({ value: meteorScore(answer, [reference]).value, signature: meteorScore(answer, [reference]).signature })
  })

  it('uses every reference of `references`', () => {
    const multi = { answer, references: ['something else entirely', reference] }
    expect(computeMetric('bleu', multi).value).toBe(sentenceBleu(answer, multi.references).value)
    expect(computeMetric('bleu', multi).signature).toContain('nrefs:2')
  })

  it('refuses unknown names and lists the known ones', () => {
    for (const bad of ['recall', 'recall@0', 'Recall@3', 'ndcg@-1', 'bleurt', 'rougeX', 'toString', '__proto__']) {
      expect(() => computeMetric(bad, c)).toThrow(MetricInputError)
    }
    expect(() => computeMetric('bleurt', c)).toThrow(
      "computeMetric: Expected `name` to be one of 'recall@k', 'precision@k', 'ndcg@k', 'mrr', 'hit@k', 'map@k', 'sentenceBleu', 'sentenceChrf', 'bleu', 'chrf', 'rouge1', 'rouge2', 'rougeL', 'rougeLsum', 'meteor', 'ter' (k a positive integer, e.g. 'recall@3'), got `\"bleurt\"` (string)",
    )
    expect(METRIC_NAMES).toHaveLength(16)
  })

  it('names the missing field of a case', () => {
    expect(() => computeMetric('recall@3', { answer })).toThrow('computeMetric: Expected `evalCase.retrieved (for recall@3)` to be an array of ids')
    expect(() => computeMetric('bleu', { retrieved: [], relevant: [] })).toThrow('computeMetric: Expected `evalCase.answer (for bleu)` to be a string')
    expect(() => computeMetric('meteor', { answer })).toThrow('Expected `evalCase.reference (for meteor)`')
  })

  it('knows scales and kinds', () => {
    expect(metricScale('bleu')).toBe(100)
    expect(metricScale('chrf')).toBe(100)
    expect(metricScale('rougeL')).toBe(1)
    expect(metricScale('ndcg@5')).toBe(1)
    expect(metricScale('custom')).toBe(1)
    expect(metricKind('map@3')).toBe('retrieval')
    expect(metricKind('meteor')).toBe('generation')
  })
})

describe('mergeSignatures', () => {
  it('keeps a shared signature and marks differing keys var', () => {
    expect(mergeSignatures(['A|k:1|version:0.1.0', 'A|k:1|version:0.1.0'])).toBe('A|k:1|version:0.1.0')
    expect(mergeSignatures(['BLEU|nrefs:1|case:mixed|version:0.1.0', 'BLEU|nrefs:2|case:mixed|version:0.1.0'])).toBe('BLEU|nrefs:var|case:mixed|version:0.1.0')
    expect(() => mergeSignatures([])).toThrow(MetricInputError)
  })
})

describe('metricRunOf', () => {
  const cases = [
    { id: 'a', retrieved: ['x', 'y'], relevant: ['y'], answer: 'the cat', reference: 'the cat sat' },
    { id: 2, retrieved: ['y', 'x'], relevant: ['y'], answer: 'a dog', references: ['a dog ran', 'the dog'] },
  ]
  it('builds a baseline entry: values per case id and one signature per metric', () => {
    const run = metricRunOf(cases, ['mrr', 'bleu'])
    expect(Object.keys(run.metrics)).toEqual(['mrr', 'bleu'])
    expect({ ...run.metrics.mrr!.values }).toEqual({ a: 0.5, 2: 1 })
    expect(run.metrics.mrr!.signature).toBe(reciprocalRank(cases[0]!).signature)
    expect(run.metrics.bleu!.signature).toContain('nrefs:var')
  })
  it('refuses duplicate ids, failed cases and missing fields, naming the case', () => {
    expect(() => metricRunOf([cases[0]!, cases[0]!], ['mrr'])).toThrow('metricRunOf: Expected `cases[1].id` to be unique (cases[0] has the same id)')
    expect(() => metricRunOf([{ ...cases[0]!, error: { name: 'TimeoutError', message: 'too slow' } }], ['mrr'])).toThrow('failed: too slow')
    expect(() => metricRunOf([{ id: 'q9', answer: 'x' }], ['recall@3'])).toThrow(
      'metricRunOf: Expected `cases[0].retrieved` to be an array of ids or `{ id }` objects (case q9, metric recall@3)',
    )
    expect(() => metricRunOf(cases, ['nope'])).toThrow("Expected `name` to be one of 'recall@k'")
  })
})

describe('ter in the registry', () => {
  it('is sacrebleu sentence TER on the 0–100 scale, lower is better, and metricRunOf carries the direction', async () => {
    const { sentenceTer } = await import('../../../src/generation/ter/ter.js')
    const c = { id: 'q1', answer: 'the cat sat on the mat', reference: 'the cat is on the mat' }
    const expected = sentenceTer(c.answer, [c.reference])
    expect(computeMetric('ter', c)).toEqual({ value: expected.score, signature: expected.signature })
    expect(metricScale('ter')).toBe(100)
    const run = metricRunOf([c], ['ter', 'bleu'])
    expect(run.metrics.ter?.higherIsBetter).toBe(false)
    expect(run.metrics.bleu?.higherIsBetter).toBeUndefined()
  })
})

describe('metrics with options (issue #26 item 5)', () => {
  const scored = {
    id: 'q1',
    retrieved: [
      { id: 'x', score: 0.1 },
      { id: 'y', score: 0.2 },
      { id: 'z', score: 0.3 },
      { id: 'd', score: 0.9 },
    ],
    relevant: ['d'],
    answer,
    reference,
  }

  it('passes the options to the core function, whose signature records them', () => {
    expect(computeMetric('ndcg@3', scored, { order: 'score', gain: 'exponential' })).toEqual({
      value: ndcgAtK(scored, 3, { order: 'score', gain: 'exponential' }).value,
      signature: ndcgAtK(scored, 3, { order: 'score', gain: 'exponential' }).signature,
    })
    expect(computeMetric('ndcg@3', scored, { order: 'score' }).value).toBe(1)
    expect(computeMetric('ndcg@3', scored).value).toBe(0)
    expect(computeMetric('sentenceBleu', c, { tokenize: 'intl' }).signature).toContain('tok:intl')
    expect(computeMetric('rougeL', c, { stemmer: false }).signature).toContain('stem:no')
    const run = metricRunOf([scored], ['recall@3', { metric: 'ndcg@3', order: 'score' }, { metric: 'sentenceBleu', tokenize: 'intl' }])
    expect(Object.keys(run.metrics)).toEqual(['recall@3', 'ndcg@3', 'sentenceBleu'])
    expect(run.metrics['ndcg@3']!.signature).toMatch(/^nDCG\|k:3\|gain:linear\|empty:zero\|dup:first\|order:score\|version:/)
  })

  it('refuses an unknown option naming the metric and the nearest key, a metric listed twice, and corpus scores', () => {
    expect(resolveMetricSpec({ metric: 'ndcg@3', order: 'score' })).toEqual({ name: 'ndcg@3', options: { order: 'score' } })
    expect(() => resolveMetricSpec({ metric: 'ndcg@3', gian: 'exponential' })).toThrow("ndcg@3 unknown option 'gian' — did you mean 'gain'?")
    expect(() => computeMetric('mrr', c, { gain: 'exponential' })).toThrow("mrr unknown option 'gain'")
    expect(metricOptionKeys('rouge1')).toEqual(['stemmer', 'maxTokens'])
    expect(() => metricRunOf([c], ['mrr', { metric: 'mrr', order: 'score' }])).toThrow('each metric once (mrr is listed twice')
    expect(() => computeMetric('corpusBleu', c)).toThrow('corpus BLEU (what toScoreBleuAbove computes for a set) sums n-gram statistics')
    // bleu keeps meaning what baselines stored under it: the mean of sentence BLEU
    expect(computeMetric('bleu', c)).toEqual(computeMetric('sentenceBleu', c))
    expect(computeMetric('chrf', c)).toEqual(computeMetric('sentenceChrf', c))
  })
})
