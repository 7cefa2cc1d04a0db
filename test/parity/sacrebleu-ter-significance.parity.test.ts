// TER bootstrap intervals and paired tests against sacrebleu 2.6.0 / numpy 1.24, recorded by
// fixtures/sacrebleu-extra/make_ter_significance.py (the shared golden extras hold none for TER;
// provenance: fixtures/sacrebleu-extra/ter-significance.PROVENANCE.md).
import { checkCorpusArgs } from '../../src/generation/sacrebleu-args.js'
import { bootstrapCorpus } from '../../src/generation/significance/bootstrap.js'
import { pairedApproxRandomization, pairedBootstrap } from '../../src/generation/significance/paired.js'
import { corpusTer, terSignificanceKernel, type TerOptions } from '../../src/generation/ter/ter.js'
import { VERSION } from '../../src/version.js'
import { loadFixture } from './fixtures/load.js'
import { expectPairedRows, type PairedGoldenRow } from './paired-rows.js'

interface PyTerOptions {
  normalized?: boolean
  no_punct?: boolean
  asian_support?: boolean
  case_sensitive?: boolean
}
interface BootstrapCase {
  id: string
  seed: number
  n_bootstrap: number
  options: PyTerOptions
  hypotheses?: string[]
  source_case: string
  references: string[][]
  segment_stats: number[][]
  score: number
  mean: number
  ci: number
  format: string
  signature: string
  bootstrap_scores: number[]
}
interface PairedCase {
  id: string
  seed: number
  options: PyTerOptions
  references: string[][]
  systems: Array<{ name: string; hypotheses: string[] }>
  tests: Array<{ test_type: 'bs' | 'ar'; n_samples: number; n_ar_confidence: number; signature: string; results: PairedGoldenRow[] }>
}

const recorded = loadFixture<{ bootstrap: BootstrapCase[]; paired: PairedCase[] }>('sacrebleu-extra/ter-significance.json')
const inputs = loadFixture<{ bootstrap_ci: Array<{ id: string; hypotheses: string[] }> }>('sacrebleu-extra/significance.json')

function terOptions(o: PyTerOptions): TerOptions {
  return {
    ...(o.normalized !== undefined && { normalized: o.normalized }),
    ...(o.no_punct !== undefined && { noPunct: o.no_punct }),
    ...(o.asian_support !== undefined && { asianSupport: o.asian_support }),
    ...(o.case_sensitive !== undefined && { caseSensitive: o.case_sensitive }),
  }
}

function asSacrebleu(signature: string): string {
  return signature.slice(signature.indexOf('|') + 1).replace(`version:${VERSION}`, 'version:2.6.0')
}

function hypothesesOf(c: BootstrapCase): string[] {
  return inputs.bootstrap_ci.find((x) => x.id === c.source_case)!.hypotheses
}

test('the recording covers seven bootstrap cases (one with three references) and four paired corpora', () => {
  expect(recorded.bootstrap).toHaveLength(7)
  expect(recorded.paired).toHaveLength(4)
  expect(recorded.bootstrap.some((c) => c.references.length === 3)).toBe(true)
})

describe.each(recorded.bootstrap)('TER bootstrap $id', (c) => {
  const hyps = hypothesesOf(c)
  const options = terOptions(c.options)

  test('segment statistics and every resample score equal sacrebleu bit for bit', () => {
    const kernel = terSignificanceKernel('test', options)
    const stats = kernel.segmentStats(hyps, checkCorpusArgs('test', hyps, c.references))
    expect(stats).toEqual(c.segment_stats)
    const run = bootstrapCorpus(stats, kernel.score, c.n_bootstrap, c.seed)
    expect(Array.from(run.scores)).toEqual(c.bootstrap_scores)
  })

  test('corpusTer with nBootstrap: score, mean, ci and signature equal sacrebleu', () => {
    const s = corpusTer(hyps, c.references, { ...options, nBootstrap: c.n_bootstrap, seed: c.seed })
    expect(s.score).toBe(c.score)
    expect(s.bootstrap).toEqual({ mean: c.mean, ci: c.ci, nBootstrap: c.n_bootstrap, seed: c.seed })
    expect(asSacrebleu(s.signature)).toBe(c.signature)
    expect(s.score).toBe(corpusTer(hyps, c.references, options).score)
  })
})

describe.each(recorded.paired)('TER paired tests $id', (c) => {
  const [baseline, ...systems] = c.systems as [PairedCase['systems'][number], ...PairedCase['systems']]
  test.each(c.tests.map((t) => ({ ...t, label: `${t.test_type} ${t.n_samples}${t.n_ar_confidence > 0 ? ` + ${t.n_ar_confidence} confidence` : ''}` })))(
    '$label: every row equals sacrebleu bit for bit',
    (t) => {
      const common = { baseline, systems, references: c.references, metric: 'ter' as const, metricOptions: terOptions(c.options), nSamples: t.n_samples, seed: c.seed }
      const result =
        t.test_type === 'bs' ? pairedBootstrap(common) : pairedApproxRandomization({ ...common, ...(t.n_ar_confidence > 0 && { nConfidence: t.n_ar_confidence }) })
      expect(result.metric).toBe('TER')
      expect(asSacrebleu(result.signature)).toBe(t.signature)
      expectPairedRows(result.results, t.results, { score: 0, meanCi: 0 })
    },
  )
})

test('corpusTer refuses a seed without nBootstrap and a bad resample count, naming the option', () => {
  expect(() => corpusTer(['a b'], [['a b']], { seed: 1 })).toThrow(/options\.seed/)
  expect(() => corpusTer(['a b'], [['a b']], { nBootstrap: 1 })).toThrow(/options\.nBootstrap/)
  expect(() => corpusTer(['a b'], [['a b']], { nBootstrap: 1.5 })).toThrow(/options\.nBootstrap/)
  expect(() => corpusTer(['a b'], [['a b']], { bootstrap: 10 } as never)).toThrow(/bootstrap/)
})
