// sacrebleu 2.6.0 (numpy 1.24) parity for bootstrap confidence intervals and paired significance
// tests: every `bootstrap_ci` and `paired` case of the golden extras. Fixture provenance:
// fixtures/PROVENANCE.md (sacrebleu-extra/significance.json).
import { corpusBleu, type CorpusBleuOptions } from '../../src/generation/bleu.js'
import { corpusChrf, type CorpusChrfOptions } from '../../src/generation/chrf.js'
import { bootstrapCorpus } from '../../src/generation/significance/bootstrap.js'
import { bleuSignificanceKernel } from '../../src/generation/bleu.js'
import { chrfSignificanceKernel } from '../../src/generation/chrf.js'
import { pairedApproxRandomization, pairedBootstrap, pairedTest } from '../../src/generation/significance/paired.js'
import { checkCorpusArgs } from '../../src/generation/sacrebleu-args.js'
import { VERSION } from '../../src/version.js'
import { loadFixture } from './fixtures/load.js'
import { expectPairedRows, type PairedGoldenRow } from './paired-rows.js'

interface BootstrapMetric {
  score: number
  mean: number
  ci: number
  signature: string
  segment_stats: number[][]
  bootstrap_scores: number[]
  sorted_lower: number
  sorted_upper: number
  lower_idx: number
  upper_idx: number
}
interface BootstrapCase {
  id: string
  n_segments: number
  seed: number
  n_bootstrap: number
  hypotheses: string[]
  references: string[][]
  idxs_first_rows: number[][]
  idxs_last_row: number[]
  bleu: BootstrapMetric
  chrf: BootstrapMetric
}
interface PairedCase {
  id: string
  n_segments: number
  seed: number
  references: string[][]
  systems: Array<{ name: string; hypotheses: string[] }>
  tests: Array<{
    test_type: 'bs' | 'ar'
    n_samples: number
    n_ar_confidence: number
    signatures: { BLEU: string; chrF2: string }
    results: { BLEU: PairedGoldenRow[]; chrF2: PairedGoldenRow[] }
  }>
}

const golden = loadFixture<{ bootstrap_ci: BootstrapCase[]; paired: PairedCase[] }>('sacrebleu-extra/significance.json')

/**
 * README tolerances: BLEU 1e-9 (its float32 statistics are exact, but `Math.exp`/`Math.log` may differ
 * from libm by an ulp). chrF has no exp/log and its float32 quotients are emulated with `Math.fround`,
 * so its resample scores, means, intervals and p-values are held to bitwise equality (stricter than
 * the README's 1e-5 and ±2/(n+1)); this also pins the exact `statistics.mean` and numpy's pairwise
 * `np.mean`, which a naive sum misses by ~1e-14 on these cases.
 */
const TOL = 1e-9

/** Our signature without the name and with sacrebleu's version, to compare with sacrebleu's string. */
function asSacrebleu(signature: string): string {
  return signature.slice(signature.indexOf('|') + 1).replace(`version:${VERSION}`, 'version:2.6.0')
}

function worstDiff(ours: ArrayLike<number>, theirs: readonly number[]): number {
  let worst = 0
  for (let i = 0; i < theirs.length; i++) worst = Math.max(worst, Math.abs(ours[i]! - theirs[i]!))
  return ours.length === theirs.length ? worst : Number.POSITIVE_INFINITY
}

describe.each(golden.bootstrap_ci)('bootstrap CI $id ($n_segments segments, seed $seed, $n_bootstrap resamples)', (c) => {
  const kernels = {
    bleu: bleuSignificanceKernel('test', undefined),
    chrf: chrfSignificanceKernel('test', undefined),
  }
  const segments = checkCorpusArgs('test', c.hypotheses, c.references)

  test.each(['bleu', 'chrf'] as const)('%s: segment statistics, index rows and every resample score match sacrebleu', (metric) => {
    const kernel = kernels[metric]
    const stats = kernel.segmentStats(c.hypotheses, segments)
    expect(stats).toEqual(c[metric].segment_stats)
    const run = bootstrapCorpus(stats, kernel.score, c.n_bootstrap, c.seed)
    const n = c.n_segments
    const row = (k: number) => Array.from(run.idxs.data.subarray(k * n, (k + 1) * n))
    expect([row(0), row(1)]).toEqual(c.idxs_first_rows)
    expect(row(c.n_bootstrap - 1)).toEqual(c.idxs_last_row)
    if (metric === 'chrf') expect(Array.from(run.scores)).toEqual(c.chrf.bootstrap_scores)
    else expect(worstDiff(run.scores, c.bleu.bootstrap_scores)).toBeLessThanOrEqual(TOL)
    const sorted = Float64Array.from(run.scores).sort()
    expect(Math.abs(sorted[c[metric].lower_idx]! - c[metric].sorted_lower)).toBeLessThanOrEqual(TOL)
    expect(Math.abs(sorted[c[metric].upper_idx]! - c[metric].sorted_upper)).toBeLessThanOrEqual(TOL)
  })

  test('corpusBleu with nBootstrap: score, mean, ci and signature match sacrebleu', () => {
    const options: CorpusBleuOptions = { nBootstrap: c.n_bootstrap, seed: c.seed }
    const s = corpusBleu(c.hypotheses, c.references, options)
    expect(s.value).toBeCloseTo(c.bleu.score, 9)
    expect(s.details.bootstrap).toEqual({ mean: expect.any(Number), ci: expect.any(Number), nBootstrap: c.n_bootstrap, seed: c.seed })
    expect(Math.abs(s.details.bootstrap!.mean - c.bleu.mean)).toBeLessThanOrEqual(TOL)
    expect(Math.abs(s.details.bootstrap!.ci - c.bleu.ci)).toBeLessThanOrEqual(TOL)
    expect(asSacrebleu(s.signature)).toBe(c.bleu.signature)
    // the unresampled value is the plain corpus score
    expect(s.value).toBe(corpusBleu(c.hypotheses, c.references).value)
  })

  test('corpusChrf with nBootstrap: score exact, mean and ci match sacrebleu', () => {
    const options: CorpusChrfOptions = { nBootstrap: c.n_bootstrap, seed: c.seed }
    const s = corpusChrf(c.hypotheses, c.references, options)
    expect(s.value).toBe(c.chrf.score)
    expect(s.details.bootstrap).toEqual({ mean: c.chrf.mean, ci: c.chrf.ci, nBootstrap: c.n_bootstrap, seed: c.seed })
    expect(asSacrebleu(s.signature)).toBe(c.chrf.signature)
  })
})

describe.each(golden.paired)('paired tests $id ($n_segments segments, seed $seed)', (c) => {
  const [baseline, ...systems] = c.systems as [PairedCase['systems'][number], ...PairedCase['systems']]
  test.each(c.tests.map((t) => ({ ...t, label: `${t.test_type} ${t.n_samples}${t.n_ar_confidence > 0 ? ` + ${t.n_ar_confidence} confidence` : ''}` })))(
    '$label: BLEU and chrF2 rows match sacrebleu',
    (t) => {
      for (const [metric, key] of [
        ['bleu', 'BLEU'],
        ['chrf', 'chrF2'],
      ] as const) {
        const common = { baseline, systems, references: c.references, metric, nSamples: t.n_samples, seed: c.seed }
        const result =
          t.test_type === 'bs' ? pairedBootstrap(common) : pairedApproxRandomization({ ...common, ...(t.n_ar_confidence > 0 && { nConfidence: t.n_ar_confidence }) })
        expect(result.metric).toBe(key)
        expect(asSacrebleu(result.signature)).toBe(t.signatures[key])
        expectPairedRows(result.results, t.results[key], { score: 1e-12, meanCi: metric === 'chrf' ? 0 : TOL })
      }
    },
  )
})

test('pairedTest dispatches on `test` and equals the named functions', () => {
  const c = golden.paired[0]!
  const [baseline, ...systems] = c.systems as [PairedCase['systems'][number], ...PairedCase['systems']]
  const input = { baseline, systems: systems.slice(0, 1), references: c.references, metric: 'bleu' as const, nSamples: 200, seed: 7 }
  expect(pairedTest({ ...input, test: 'bs' })).toEqual(pairedBootstrap(input))
  expect(pairedTest({ ...input, test: 'ar' })).toEqual(pairedApproxRandomization(input))
})
