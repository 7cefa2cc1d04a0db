// Runs under Vitest AND Jest (globals only). Issue #26 item 5: baseline metrics take the matchers' options,
// each metric's signature is stored and shown, and values stored with other settings are refused, never
// reported as a regression or an improvement.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { toMatchMetricBaseline, type MetricBaselineOptions } from '../../matchers/baseline.js'
import { readBaselineFile } from '../../src/eval-set/baseline-file.js'
import { metricRunOf } from '../../src/eval-set/metrics.js'
import { LOCAL, runnerState, withRunner } from '../helpers/baseline-runner.js'
import { failureOf, stripAnsi } from '../helpers/failure.js'

/** Runs `fn` as a local run (no CI), with the update switch as given. */
const locally = <T>(fn: () => T, update?: string): T => withRunner({ ...LOCAL, baselines: update }, fn)

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rag-baseline-options-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))
const file = () => join(dir, 'baseline-options.test.ts.json')
const opts = (metrics: MetricBaselineOptions['metrics'], extra: Partial<MetricBaselineOptions> = {}): MetricBaselineOptions => ({
  metrics,
  dir,
  onWrite: () => undefined,
  ...extra,
})

const ids = Array.from({ length: 20 }, (_, i) => `q${String(i).padStart(2, '0')}`)
/**
 * The reproduction: every relevant document comes 4th in array order but has the highest score, so
 * nDCG@3 is 1 with `order: 'score'` and 0 with the default `order: 'given'`.
 */
const scored = {
  cases: ids.map((id, i) => ({
    id,
    relevant: [`d${i}`],
    retrieved: [
      { id: 'x', score: 0.3 },
      { id: 'y', score: 0.2 },
      { id: 'z', score: 0.1 },
      { id: `d${i}`, score: 0.9 },
    ],
    answer: 'The base Transformer uses h = 8 attention heads.',
    reference: 'The base Transformer uses h = 8 parallel attention heads.',
  })),
}
/** The same run with the relevant document first in array order too (nDCG@3 1 either way). */
const inOrder = { cases: scored.cases.map((c) => ({ ...c, retrieved: [c.retrieved[3]!, ...c.retrieved.slice(0, 3)] })) }

const ctx = () => ({ ...runnerState(), isNot: false, utils: { matcherHint: (m: string) => m, printReceived: String, printExpected: String } }) as never
type Extra = { metrics: Array<{ metric: string; status: string; signature?: string; baselineSignature?: string }> }

describe('toMatchMetricBaseline: metrics with the matchers’ options (issue #26 item 5)', () => {
  it("reproduction: nDCG@3 with order:'score' is the matcher's number, and a baseline stored with order:given is refused, not 'regressed'", () => {
    // the matcher ranks by score: mean nDCG@3 1.0000 ≥ 0.7 (and 0 as given)
    expect(scored).toHaveNdcgAtK(3, 0.99, { order: 'score' })
    expect(scored).not.toHaveNdcgAtK(3, 0.01)
    // the baseline was stored with the default order while the array order was still right
    locally(() => expect(inOrder).toMatchMetricBaseline('qa', opts(['ndcg@3'])))
    expect(readBaselineFile(file())!.entries.qa!.metrics['ndcg@3']!.signature).toBe('nDCG|k:3|gain:linear|empty:zero|dup:first|order:given|rev:1')

    // before: the default (given) order against a run ranked by score read "1.0000 → 0.0000 regressed"
    // under the same label as the matcher's row; the report's label now says which order it used
    const given = locally(() => toMatchMetricBaseline.call(ctx(), scored, 'qa', opts(['ndcg@3'])))
    expect(given.pass).toBe(false)
    expect((given.meta!.extra as Extra).metrics[0]).toMatchObject({ metric: 'mean nDCG@3 [order:given]', status: 'regressed' })

    // after: the same options as the matcher; the stored values were ranked otherwise, so no comparison
    const spec = { metric: 'ndcg@3', order: 'score' } as const
    const message = locally(() => failureOf(() => expect(scored).toMatchMetricBaseline('qa', opts([spec]))))
    expect(message).toContain(
      'Baseline "qa" cannot be compared: mean nDCG@3 (ndcg@3 order:score) (order:given → order:score) was computed with different settings than the baseline.',
    )
    expect(message).toMatch(/mean nDCG@3 \(ndcg@3 order:score\)\s+n\/a\s+n\/a\s+n\/a\s+n\/a\s+—\s+0\.0200\s+not comparable: order:given → order:score/)
    expect(message).toContain('    baseline signature: nDCG|k:3|gain:linear|empty:zero|dup:first|order:given|rev:1')
    expect(message).toContain('    current signature:  nDCG|k:3|gain:linear|empty:zero|dup:first|order:score|rev:1')
    expect(message).toContain('so neither a regression nor an improvement is reported')
    expect(message).toContain('If the new settings are intended, update the baseline on purpose')
    expect(message).toContain('RAG_MATCHERS_UPDATE_BASELINES=1 npx vitest run ')
    expect(message).not.toMatch(/\bregressed\b|\bimproved\b|NaN/)
    const refused = locally(() => toMatchMetricBaseline.call(ctx(), scored, 'qa', opts([spec])))
    expect((refused.meta!.extra as Extra).metrics[0]).toMatchObject({
      metric: 'mean nDCG@3 [order:score]',
      status: 'incomparable: order:given → order:score',
      signature: 'nDCG|k:3|gain:linear|empty:zero|dup:first|order:score|rev:1',
      baselineSignature: 'nDCG|k:3|gain:linear|empty:zero|dup:first|order:given|rev:1',
    })

    // updating on purpose stores the new signature; then the gate compares the matcher's number (1.0)
    locally(() => expect(scored).toMatchMetricBaseline('qa', opts([spec])), '1')
    const stored = readBaselineFile(file())!.entries.qa!.metrics['ndcg@3']!
    expect(stored.signature).toBe('nDCG|k:3|gain:linear|empty:zero|dup:first|order:score|rev:1')
    expect(stored.measure).toBe('mean nDCG@3 [order:score]')
    expect(Object.values(stored.values).every((v) => v === 1)).toBe(true)
    const held = locally(() => toMatchMetricBaseline.call(ctx(), scored, 'qa', opts([spec])))
    expect(held.pass).toBe(true)
    const text = stripAnsi(held.message())
    expect(text).toMatch(/mean nDCG@3 \(ndcg@3 order:score\)\s+1\.0000\s+1\.0000\s+0\.0000/)
    // every message shows each metric's signature
    expect(text).toContain("signatures (every setting that changes the numbers, and the metric's revision):")
    expect(text).toContain('  mean nDCG@3 (ndcg@3 order:score): nDCG|k:3|gain:linear|empty:zero|dup:first|order:score|rev:1')
  })

  it('stores the signature each option gives and refuses a change of any of them, naming the keys', () => {
    const metrics = ['recall@3', { metric: 'ndcg@3', order: 'score', gain: 'exponential' }, { metric: 'sentenceBleu', tokenize: 'intl' }] as const
    locally(() => expect(scored).toMatchMetricBaseline('qa', opts([...metrics])))
    const stored = readBaselineFile(file())!.entries.qa!.metrics
    expect(stored['recall@3']!.signature).toBe('R|k:3|empty:zero|dup:first|order:given|rev:1')
    expect(stored['recall@3']!.measure).toBe('mean recall@3 [order:given]')
    expect(stored['ndcg@3']!.signature).toBe('nDCG|k:3|gain:exponential|empty:zero|dup:first|order:score|rev:1')
    expect(stored['ndcg@3']!.measure).toBe('mean nDCG@3 [order:score gain:exponential]')
    expect(stored.sentenceBleu!.signature).toMatch(/^BLEU\|nrefs:1\|case:mixed\|eff:yes\|tok:intl\|smooth:exp\|rev:1$/)
    expect(stored.sentenceBleu!.measure).toBe('mean sentence BLEU [tokenize:intl]')
    // the same options: compared, and it holds
    locally(() => expect(scored).toMatchMetricBaseline('qa', opts([...metrics])))
    // other options: refused, each key named
    const message = locally(() => failureOf(() => expect(scored).toMatchMetricBaseline('qa', opts(['recall@3', { metric: 'ndcg@3', order: 'score' }, 'sentenceBleu']))))
    expect(message).toContain('mean nDCG@3 (ndcg@3 order:score) (gain:exponential → gain:linear)')
    expect(message).toContain('mean sentence BLEU (sentenceBleu) (tok:intl → tok:13a)')
    // the retrieved items carry scores, so every ranked label states its order
    expect(message).toMatch(/mean recall@3 \(recall@3 order:given\)\s+0\.0000\s+0\.0000\s+0\.0000.*ok/)
  })

  it('refuses an unknown option naming the metric and the nearest valid key, with and without .not', () => {
    const bad: Array<[MetricBaselineOptions['metrics'][number], string]> = [
      [
        { metric: 'ndcg@3', gian: 'exponential' } as never,
        "options.metrics[0] (ndcg@3): unknown option 'gian' — did you mean 'gain'? (ndcg@3 takes duplicates, allowEmptyRelevant, order, gain)",
      ],
      [{ metric: 'sentenceBleu', tokenise: 'intl' } as never, "options.metrics[0] (sentenceBleu): unknown option 'tokenise' — did you mean 'tokenize'?"],
      [{ metric: 'recall@3', gain: 'exponential' } as never, "options.metrics[0] (recall@3): unknown option 'gain'; known: 'duplicates', 'allowEmptyRelevant', 'order'"],
      [{ metric: 'rougeL', types: ['rouge1'] } as never, "options.metrics[0] (rougeL): unknown option 'types'; known: 'stemmer', 'maxTokens'"],
      [{ metric: 'ndcg@0', order: 'score' } as never, 'options.metrics[0].metric is not a known metric'],
      [{ order: 'score' } as never, 'options.metrics[0].metric is not a known metric'],
      [42 as never, 'options.metrics[0] must be a metric name or { metric, ...options }'],
      ['corpusBleu', 'options.metrics[0]: corpusBleu is a corpus score'],
    ]
    for (const [metric, problem] of bad) {
      expect(() => expect(scored).toMatchMetricBaseline('qa', opts([metric]))).toThrow(`Matcher error: ${problem}`)
      expect(() => expect(scored).not.toMatchMetricBaseline('qa', opts([metric]))).toThrow(`Matcher error: ${problem}`)
    }
    // one key holds one setting
    expect(() => expect(scored).toMatchMetricBaseline('qa', opts(['ndcg@3', { metric: 'ndcg@3', order: 'score' }]))).toThrow(
      'Matcher error: options.metrics[1]: ndcg@3 is listed twice with different options',
    )
    // a wrong value is refused by the core function, naming the case and the metric: never a pass
    expect(() => locally(() => expect(scored).toMatchMetricBaseline('qa', opts([{ metric: 'ndcg@3', order: 'random' } as never])))).toThrow(
      /Matcher error: metricRunOf: .*order.*\(case q00, metric ndcg@3\)/,
    )
    expect(() => readFileSync(file())).toThrow()
  })

  it('names BLEU as what it is: sentenceBleu and the older bleu are the mean of sentence BLEU, not the corpus BLEU of toScoreBleuAbove', () => {
    const run = metricRunOf(scored.cases, ['sentenceBleu', 'bleu'])
    expect(run.metrics.sentenceBleu).toEqual(run.metrics.bleu)
    locally(() => expect(scored).toMatchMetricBaseline('qa', opts(['sentenceBleu', 'bleu'])))
    const stored = readBaselineFile(file())!.entries.qa!.metrics
    expect(stored.sentenceBleu!.measure).toBe('mean sentence BLEU')
    expect(stored.bleu!.measure).toBe('mean sentence BLEU')
    const held = locally(() => toMatchMetricBaseline.call(ctx(), scored, 'qa', opts(['sentenceBleu'])))
    expect(stripAnsi(held.message())).toMatch(/mean sentence BLEU \(sentenceBleu\)\s+\d+\.\d{2}\s+\d+\.\d{2}/)
  })

  it('compares a metric stored without a signature as computed with the default settings, and says so', () => {
    const values = metricRunOf(inOrder.cases, ['ndcg@3']).metrics['ndcg@3']!.values
    writeFileSync(file(), JSON.stringify({ version: 2, entries: { qa: { metrics: { 'ndcg@3': { values } } } } }))
    const held = locally(() => toMatchMetricBaseline.call(ctx(), inOrder, 'qa', opts(['ndcg@3'])))
    expect(held.pass).toBe(true)
    expect(stripAnsi(held.message())).toContain(
      'ndcg@3: stored without a signature (an older or hand-written file), so taken as computed with the default settings; RAG_MATCHERS_UPDATE_BASELINES=1 stores the signature.',
    )
    // asked for with other options now: refused like any other change of settings
    const message = locally(() => failureOf(() => expect(scored).toMatchMetricBaseline('qa', opts([{ metric: 'ndcg@3', order: 'score' }]))))
    expect(message).toContain('(order:given → order:score) was computed with different settings than the baseline.')
    expect(message).toContain('stored without a signature')
    // the file is written back unchanged in shape (no empty signature) until an update stores one
    expect(readBaselineFile(file())!.entries.qa!.metrics['ndcg@3']!.unsigned).toBe(true)
    locally(() => expect(inOrder).toMatchMetricBaseline('qa', opts(['ndcg@3'])), '1')
    expect(readBaselineFile(file())!.entries.qa!.metrics['ndcg@3']!.signature).toBe('nDCG|k:3|gain:linear|empty:zero|dup:first|order:given|rev:1')
  })
})

describe('toMatchMetricBaseline: never NaN in what the reports read', () => {
  it('records null, not NaN, for a metric it could not compare', () => {
    locally(() => expect(inOrder).toMatchMetricBaseline('qa', opts(['ndcg@3'])))
    const refused = locally(() => toMatchMetricBaseline.call(ctx(), scored, 'qa', opts([{ metric: 'ndcg@3', order: 'score' }])))
    const m = (refused.meta!.extra as { metrics: Array<Record<string, unknown>> }).metrics[0]!
    expect([m.baseline, m.current, m.delta, m.pValue]).toEqual([null, null, null, null])
    expect(JSON.stringify(refused.meta)).not.toContain('NaN')
    expect(stripAnsi(refused.message())).not.toContain('NaN')
  })
})
