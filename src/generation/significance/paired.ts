/**
 * Paired significance tests of several systems against a baseline, exactly as sacrebleu 2.6
 * `PairedTest` (significance.py): the paired bootstrap resampling test (`bs`, Koehn 2004, after Moses'
 * `bootstrap-hypothesis-difference-significance.pl`) and the paired approximate randomization test
 * (`ar`, Riezler & Maxwell 2005, after multeval), with numpy's random stream so that p-values, means
 * and intervals match sacrebleu's for the same seed.
 */
import { MetricInputError } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import { checkOptionKeys } from '../../options.js'
import type { SignatureValue } from '../../signature.js'
import { bleuSignificanceKernel, type BleuOptions } from '../bleu.js'
import { chrfSignificanceKernel, type ChrfOptions } from '../chrf.js'
import { checkCorpusArgs, type CorpusReferences } from '../sacrebleu-args.js'
import { terSignificanceKernel, type TerOptions } from '../ter/ter.js'
import { checkResamples, estimateCiNumpy, resampleScores, resolveSeed } from './bootstrap.js'
import type { SignificanceKernel } from './kernel.js'
import { defaultRng, type DrawMatrix } from './random.js'
import { numpyMean } from './summation.js'

/** The metric a paired test compares (sacrebleu's default BLEU / chrF / TER settings unless `metricOptions` says otherwise). */
export type PairedMetric = 'bleu' | 'chrf' | 'ter'

/** One system's output: a name for the report and one hypothesis per segment. */
export interface PairedSystem {
  readonly name: string
  readonly hypotheses: readonly string[]
}

/** Input of {@link pairedBootstrap}. */
export interface PairedBootstrapInput {
  /** The system the others are compared with (sacrebleu's first system). */
  readonly baseline: PairedSystem
  /** The systems to test (at least one), each with as many hypotheses as the baseline. */
  readonly systems: readonly PairedSystem[]
  /** Reference streams, as {@link corpusBleu}: `references[k][i]` = k-th reference of segment i (`null` = absent). */
  readonly references: ReadonlyArray<ReadonlyArray<string | null>>
  readonly metric: PairedMetric
  /** BLEU, chrF or TER options (corpus defaults, as sacrebleu's `BLEU()` / `CHRF()` / `TER()`). */
  readonly metricOptions?: BleuOptions | ChrfOptions | TerOptions
  /** Resamples (`bs`, default 1000) or trials (`ar`, default 10000). */
  readonly nSamples?: number
  /**
   * numpy `default_rng` seed; `null` = unseeded. `0` follows sacrebleu: the baseline's resamples use seed 0,
   * each system's test is unseeded (`seed if seed else None`).
   * @default the `SACREBLEU_SEED` environment variable, else 12345
   */
  readonly seed?: number | null
}

/** Input of {@link pairedApproxRandomization}. */
export interface PairedApproxRandomizationInput extends PairedBootstrapInput {
  /**
   * Bootstrap resamples for each system's mean and 95% interval, drawn after the trials from the same
   * generator (sacrebleu `n_ar_confidence`). Unset or `-1`: none (mean and ci are null); `0`: sacrebleu's default 1000.
   */
  readonly nConfidence?: number
}

/** {@link pairedTest}'s input: either test, chosen by `test`. */
export interface PairedTestInput extends PairedApproxRandomizationInput {
  readonly test: 'bs' | 'ar'
}

/** One printable row: sacrebleu's `Result` for one system. */
export interface PairedSystemResult {
  readonly system: string
  /** The corpus score (0–100). */
  readonly score: number
  /** `(#{trials at least as extreme} + 1) / (nSamples + 1)`; null for the baseline. */
  readonly pValue: number | null
  /** Mean of the bootstrap resample scores (`np.mean`), null without resampling (AR without `nConfidence`). */
  readonly mean: number | null
  /** Half-width of the 95% bootstrap interval, null likewise. */
  readonly ci: number | null
}

/** What a paired test returns: the settings and one row per system, the baseline first. */
export interface PairedTestResult {
  /** `BLEU`, `chrF2`, … as sacrebleu names the metric. */
  readonly metric: string
  /** sacrebleu's signature with the test's keys: `BLEU|nrefs:1|bs:1000|seed:12345|case:mixed|…`. */
  readonly signature: string
  readonly test: 'bs' | 'ar'
  readonly nSamples: number
  /** Bootstrap resamples behind mean/ci: `nSamples` for `bs`, `nConfidence` for `ar` (null when none). */
  readonly nConfidence: number | null
  /** The seed used (null = unseeded). */
  readonly seed: number | null
  readonly results: PairedSystemResult[]
}

/** The keys of {@link PairedBootstrapInput}. */
export const PAIRED_BOOTSTRAP_KEYS = keysOf<PairedBootstrapInput>()('baseline', 'systems', 'references', 'metric', 'metricOptions', 'nSamples', 'seed')
/** The keys of {@link PairedApproxRandomizationInput}. */
export const PAIRED_AR_KEYS = keysOf<PairedApproxRandomizationInput>()(...PAIRED_BOOTSTRAP_KEYS, 'nConfidence')
/** The keys of {@link PairedTestInput}. */
export const PAIRED_TEST_KEYS = keysOf<PairedTestInput>()(...PAIRED_AR_KEYS, 'test')

/** sacrebleu `PairedTest._DEFAULT_SAMPLES`. */
const DEFAULT_SAMPLES = { bs: 1000, ar: 10000 } as const

/**
 * Paired bootstrap resampling, as sacrebleu 2.6 `PairedTest(..., test_type='bs')`.
 *
 * Indices `idxs = default_rng(seed).choice(n, (nSamples, n))` (a fresh generator per system, so with a
 * seed every system and the baseline see the same resamples); resample scores from float32 statistics;
 * per system `d = |sys − bl|` per resample, `p = (#(d − mean(d) > |Δ|) + 1) / (nSamples + 1)` with Δ the
 * difference of the corpus scores; mean and ci of the system's resample scores (`np.mean`, 95%).
 *
 * Parity: sacrebleu 2.6.0 / numpy 1.24 (golden paired corpora: scores exact, BLEU p-values exact,
 * means and intervals to 1e-9).
 *
 * @throws MetricInputError for an unknown or ill-typed input key, systems of different lengths,
 *   bad references, a bad metric option or sample count
 * @example
 * pairedBootstrap({ baseline: { name: 'base', hypotheses: hypsA }, systems: [{ name: 'new', hypotheses: hypsB }],
 *   references: [refs], metric: 'bleu', seed: 12345 }).results[1]!.pValue // e.g. 0.000999000999000999 (= 1/1001)
 */
export function pairedBootstrap(input: PairedBootstrapInput): PairedTestResult {
  return run('pairedBootstrap', input, 'bs', PAIRED_BOOTSTRAP_KEYS)
}

/**
 * Paired approximate randomization, as sacrebleu 2.6 `PairedTest(..., test_type='ar')`.
 *
 * Per system, one generator `default_rng(seed)` draws `sel = integers(2, (nSamples, n), dtype=bool)`;
 * trial k swaps segment i's statistics between the baseline and the system where `sel[k, i]`; the
 * statistic is `|score(A_k) − score(B_k)|` (integer statistics, double arithmetic), and
 * `p = (#(stat > |Δ|) + 1) / (nSamples + 1)`. With `nConfidence`, the same generator then draws bootstrap
 * indices for the system's mean and ci; the baseline's come from a fresh `default_rng(seed)`.
 *
 * Parity: sacrebleu 2.6.0 / numpy 1.24 (golden paired corpora: scores and p-values exact, means and
 * intervals to 1e-9).
 *
 * @throws MetricInputError as {@link pairedBootstrap}, or for a bad `nConfidence`
 * @example
 * pairedApproxRandomization({ baseline, systems, references: [refs], metric: 'chrf', seed: 12345 }).results[1]!.pValue
 */
export function pairedApproxRandomization(input: PairedApproxRandomizationInput): PairedTestResult {
  return run('pairedApproxRandomization', input, 'ar', PAIRED_AR_KEYS)
}

/**
 * Either test by name (`test: 'bs' | 'ar'`), for callers that take the choice from a flag
 * (sacrebleu's `--paired-bs` / `--paired-ar`).
 * @throws MetricInputError as the chosen test, or for a `test` that is neither
 */
export function pairedTest(input: PairedTestInput): PairedTestResult {
  const fn = 'pairedTest'
  if (input === null || typeof input !== 'object') throw new MetricInputError(fn, 'input', 'an object', input)
  if (input.test !== 'bs' && input.test !== 'ar') throw new MetricInputError(fn, 'input.test', "'bs' or 'ar'", input.test)
  return run(fn, input, input.test, PAIRED_TEST_KEYS)
}

// ---------------------------------------------------------------------------------------------

interface Checked {
  readonly kernel: SignificanceKernel
  readonly segments: CorpusReferences
  readonly nrefs: number | 'var'
  readonly systems: readonly PairedSystem[]
  readonly nSamples: number
  readonly nConfidence: number | null
  readonly seed: number | null
}

function run(fn: string, input: PairedApproxRandomizationInput, test: 'bs' | 'ar', keys: readonly string[]): PairedTestResult {
  const c = checkInput(fn, input, test, keys)
  const rows = test === 'bs' ? bootstrapRows(c) : approxRandomizationRows(c)
  const extra: Array<[string, SignatureValue]> = []
  if (c.nConfidence !== null) extra.push(['bs', c.nConfidence])
  if (test === 'ar') extra.push(['ar', c.nSamples])
  extra.push(['seed', c.seed ?? 'none'])
  return {
    metric: c.kernel.name,
    signature: c.kernel.signature(c.nrefs, extra),
    test,
    nSamples: c.nSamples,
    nConfidence: c.nConfidence,
    seed: c.seed,
    results: rows,
  }
}

function sumStats(stats: readonly number[][]): number[] {
  const sums = new Array<number>(stats[0]!.length).fill(0)
  for (const row of stats) for (let j = 0; j < row.length; j++) sums[j]! += row[j]!
  return sums
}

/**
 * sacrebleu `_compute_p_value` (after multeval): only strictly greater statistics count (a zero difference
 * is not attributed to chance), plus one; so a system identical to the baseline gets `1 / (n + 1)`.
 */
function pValue(stats: ArrayLike<number>, realDifference: number): number {
  let count = 0
  for (let i = 0; i < stats.length; i++) if (stats[i]! > realDifference) count++
  return (count + 1) / (stats.length + 1)
}

/** The generator seed of each system's test: sacrebleu passes `seed if seed else None`. */
function systemSeed(seed: number | null): number | null {
  return seed ? seed : null
}

function bootstrapRows(c: Checked): PairedSystemResult[] {
  const { kernel, segments, nSamples, seed } = c
  const n = segments.length
  const blStats = kernel.segmentStats(c.systems[0]!.hypotheses, segments)
  const blScore = kernel.score(sumStats(blStats), false)
  // the baseline's own interval comes from `_bootstrap_resample`, seeded with the seed itself (0 included)
  const blIdxs = defaultRng(seed).choice(n, nSamples, n)
  const blScores = resampleScores(blStats, blIdxs, kernel.score)
  const bl = estimateCiNumpy(blScores)
  const rows: PairedSystemResult[] = [{ system: c.systems[0]!.name, score: blScore, pValue: null, mean: bl.mean, ci: bl.ci }]
  const sSeed = systemSeed(seed)
  for (const system of c.systems.slice(1)) {
    // a seeded fresh generator repeats the baseline's indices exactly; only an unseeded one differs
    const shared = sSeed !== null && sSeed === seed
    const idxs = shared ? blIdxs : defaultRng(sSeed).choice(n, nSamples, n)
    const scoresBl = shared ? blScores : resampleScores(blStats, idxs, kernel.score)
    const sysStats = kernel.segmentStats(system.hypotheses, segments)
    const sysScore = kernel.score(sumStats(sysStats), false)
    const scoresSys = resampleScores(sysStats, idxs, kernel.score)
    const { mean, ci } = estimateCiNumpy(scoresSys)
    const diffs = new Float64Array(nSamples)
    for (let k = 0; k < nSamples; k++) diffs[k] = Math.abs(scoresSys[k]! - scoresBl[k]!)
    const diffMean = numpyMean(diffs)
    for (let k = 0; k < nSamples; k++) diffs[k] = diffs[k]! - diffMean
    rows.push({ system: system.name, score: sysScore, pValue: pValue(diffs, Math.abs(blScore - sysScore)), mean, ci })
  }
  return rows
}

function approxRandomizationRows(c: Checked): PairedSystemResult[] {
  const { kernel, segments, nSamples, nConfidence, seed } = c
  const n = segments.length
  const blStats = kernel.segmentStats(c.systems[0]!.hypotheses, segments)
  const blSums = sumStats(blStats)
  const blScore = kernel.score(blSums, false)
  let blMean: number | null = null
  let blCi: number | null = null
  if (nConfidence !== null) {
    const bl = estimateCiNumpy(resampleScores(blStats, defaultRng(seed).choice(n, nConfidence, n), kernel.score))
    blMean = bl.mean
    blCi = bl.ci
  }
  const rows: PairedSystemResult[] = [{ system: c.systems[0]!.name, score: blScore, pValue: null, mean: blMean, ci: blCi }]
  const width = blSums.length
  for (const system of c.systems.slice(1)) {
    const rng = defaultRng(systemSeed(seed))
    const sel = rng.booleans(nSamples, n)
    const bsIdxs: DrawMatrix<Uint32Array> | undefined = nConfidence === null ? undefined : rng.choice(n, nConfidence, n)
    const sysStats = kernel.segmentStats(system.hypotheses, segments)
    const sysSums = sumStats(sysStats)
    const sysScore = kernel.score(sysSums, false)
    // A_k = Σ sel·bl + Σ ¬sel·sys = Σ sys + Σ_sel (bl − sys) and B_k = Σ bl + Σ sys − A_k: integer sums, exact
    const delta = blStats.map((row, i) => row.map((x, j) => x - sysStats[i]![j]!))
    const total = blSums.map((x, j) => x + sysSums[j]!)
    const stats = new Float64Array(nSamples)
    const a = new Array<number>(width)
    const b = new Array<number>(width)
    for (let k = 0; k < nSamples; k++) {
      for (let j = 0; j < width; j++) a[j] = sysSums[j]!
      const base = k * n
      for (let i = 0; i < n; i++) {
        if (sel.data[base + i] === 0) continue
        const d = delta[i]!
        for (let j = 0; j < width; j++) a[j]! += d[j]!
      }
      for (let j = 0; j < width; j++) b[j] = total[j]! - a[j]!
      // scoring may modify its input (add-k smoothing), so each gets a copy
      stats[k] = Math.abs(kernel.score(a.slice(), false) - kernel.score(b.slice(), false))
    }
    let mean: number | null = null
    let ci: number | null = null
    if (bsIdxs !== undefined) ({ mean, ci } = estimateCiNumpy(resampleScores(sysStats, bsIdxs, kernel.score)))
    rows.push({ system: system.name, score: sysScore, pValue: pValue(stats, Math.abs(blScore - sysScore)), mean, ci })
  }
  return rows
}

function checkSystem(fn: string, argument: string, value: unknown, n: number | undefined): PairedSystem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new MetricInputError(fn, argument, 'an object { name, hypotheses }', value)
  checkOptionKeys(fn, value, ['name', 'hypotheses'], argument)
  const { name, hypotheses } = value as { name?: unknown; hypotheses?: unknown }
  if (typeof name !== 'string' || name === '') throw new MetricInputError(fn, `${argument}.name`, 'a non-empty string', name)
  const expected = n === undefined ? 'a non-empty array of strings' : `an array of ${n} strings (as many as the baseline's hypotheses)`
  if (!Array.isArray(hypotheses) || hypotheses.length === 0 || (n !== undefined && hypotheses.length !== n)) {
    throw new MetricInputError(fn, `${argument}.hypotheses`, expected, hypotheses)
  }
  for (let i = 0; i < hypotheses.length; i++) {
    if (typeof hypotheses[i] !== 'string') throw new MetricInputError(fn, `${argument}.hypotheses[${i}]`, 'a string', hypotheses[i])
  }
  return { name, hypotheses: hypotheses as string[] }
}

function checkInput(fn: string, input: PairedApproxRandomizationInput, test: 'bs' | 'ar', keys: readonly string[]): Checked {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw new MetricInputError(fn, 'input', 'an object', input)
  checkOptionKeys(fn, input, keys, 'input')
  const baseline = checkSystem(fn, 'input.baseline', input.baseline, undefined)
  const n = baseline.hypotheses.length
  if (!Array.isArray(input.systems) || input.systems.length === 0) {
    throw new MetricInputError(fn, 'input.systems', 'a non-empty array of { name, hypotheses }', input.systems)
  }
  const systems = [baseline, ...input.systems.map((s: unknown, i) => checkSystem(fn, `input.systems[${i}]`, s, n))]
  const names = new Set<string>()
  for (const s of systems) {
    if (names.has(s.name)) throw new MetricInputError(fn, 'input.systems', `systems with distinct names (${JSON.stringify(s.name)} repeats)`, s.name)
    names.add(s.name)
  }
  let segments: CorpusReferences
  try {
    segments = checkCorpusArgs(fn, baseline.hypotheses, input.references)
  } catch (error) {
    // name the argument as this function calls it
    if (error instanceof MetricInputError) throw new MetricInputError(fn, error.argument.replace(/^referenceStreams/, 'input.references'), error.expected, error.received)
    throw error
  }
  const nrefs = segments.nrefs
  const metric = input.metric as unknown
  if (metric !== 'bleu' && metric !== 'chrf' && metric !== 'ter') throw new MetricInputError(fn, 'input.metric', "'bleu', 'chrf' or 'ter'", metric)
  let kernel: SignificanceKernel
  try {
    kernel =
      metric === 'bleu'
        ? bleuSignificanceKernel(fn, input.metricOptions as BleuOptions)
        : metric === 'chrf'
          ? chrfSignificanceKernel(fn, input.metricOptions as ChrfOptions)
          : terSignificanceKernel(fn, input.metricOptions as TerOptions)
  } catch (error) {
    if (error instanceof MetricInputError) throw new MetricInputError(fn, error.argument.replace(/^options/, 'input.metricOptions'), error.expected, error.received)
    throw error
  }
  const nSamples = input.nSamples === undefined ? DEFAULT_SAMPLES[test] : checkResamples(fn, 'input.nSamples', input.nSamples, 1)
  let nConfidence: number | null = test === 'bs' ? nSamples : null
  if (test === 'ar' && input.nConfidence !== undefined && input.nConfidence !== -1) {
    nConfidence = input.nConfidence === 0 ? DEFAULT_SAMPLES.bs : checkResamples(fn, 'input.nConfidence', input.nConfidence, 1)
  } else if (test === 'bs' && input.nConfidence !== undefined) {
    throw new MetricInputError(fn, 'input.nConfidence', 'not set for the paired bootstrap (its resamples give mean and ci)', input.nConfidence)
  }
  const seed = resolveSeed(fn, input.seed)
  return { kernel, segments, nrefs, systems, nSamples, nConfidence, seed }
}
