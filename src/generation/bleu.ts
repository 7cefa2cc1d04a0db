import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { pyLower } from '../text/python-lower.js'
import { checkCorpusArgs, checkSegmentArgs, checkSentenceArgs, lazySegments } from './sacrebleu-args.js'
import { checkTokenCount, DEFAULT_MAX_TOKENS, resolveMaxTokens } from './input-limits.js'
import { DenseNgrams, SpanInterner, ZeroedCounts } from './ngrams.js'
import { BleuKernel } from './bleu-kernel.js'
import { prepare13a } from './tokenizers/tokenizer-13a.js'
import { isPyWhitespaceUnit, SpanBuffer, spanNgramText, type TokenSpans } from './tokenizers/spans.js'
import { BLEU_TOKENIZER_NAMES, getBleuTokenizer, isBleuTokenizerName, type BleuTokenizer, type BleuTokenizerName } from './tokenizers/index.js'
import { bootstrapCorpus, bootstrapEntries, bootstrapOptions, type BootstrapEstimate } from './significance/bootstrap.js'
import type { SignificanceKernel } from './significance/kernel.js'
import type { SignatureValue } from '../signature.js'

/**
 * sacrebleu's smoothing methods (Chen & Cherry 2014): `none`; `floor` (method 1: a zero count
 * becomes `smoothValue`, default 0.1); `add-k` (method 2: `smoothValue`, default 1, is added to the
 * counts and totals of orders ≥ 2); `exp` (method 3, mteval's NIST smoothing: the k-th order with a
 * zero count gets precision `1/(2^k · total)`).
 */
export type BleuSmoothing = 'exp' | 'floor' | 'add-k' | 'none'

const SMOOTHINGS: readonly BleuSmoothing[] = ['exp', 'floor', 'add-k', 'none']
/** sacrebleu's `BLEU.SMOOTH_DEFAULTS` for the methods that take a value. */
const SMOOTH_DEFAULTS: Readonly<Record<BleuSmoothing, number | undefined>> = { exp: undefined, floor: 0.1, 'add-k': 1, none: undefined }

/** Options of {@link sentenceBleu}, {@link corpusBleu}, {@link bleuStats} and {@link bleuFromStats}. */
export interface BleuOptions {
  /** Tokenizer, sacrebleu's name. @default '13a' */
  readonly tokenize?: BleuTokenizerName
  /** Smoothing method. @default 'exp' */
  readonly smooth?: BleuSmoothing
  /** Value for `floor` (default 0.1) and `add-k` (default 1); ignored by `exp` and `none`. */
  readonly smoothValue?: number
  /** Python `str.lower()` both sides before tokenizing. @default false */
  readonly lowercase?: boolean
  /**
   * Average only the orders up to the highest one with a non-zero total (sacrebleu `use_effective_order`).
   * @default true for {@link sentenceBleu}, false for {@link corpusBleu} and {@link bleuFromStats} (as in sacrebleu)
   */
  readonly effectiveOrder?: boolean
  /** Highest n-gram order N. @default 4 */
  readonly maxNgramOrder?: number
  /** The most tokens one candidate or reference may have; more is a MetricInputError (`Infinity`: no limit). @default 1000000 */
  readonly maxTokens?: number
}

/** {@link bleuFromStats} options: the BLEU options plus the reference count, for the signature only. */
export interface BleuFromStatsOptions extends BleuOptions {
  /** Printed as `nrefs:` in the signature (`'var'` when it varies); omitted when not given. */
  readonly nrefs?: number | 'var'
}

/** {@link corpusBleu} options: the BLEU options plus sacrebleu's bootstrap confidence interval. */
export interface CorpusBleuOptions extends BleuOptions {
  /**
   * Resample count (≥ 2) for a 95% bootstrap confidence interval, sacrebleu `corpus_score(..., n_bootstrap=N)`;
   * the result then carries `details.bootstrap` and the signature `bs:N|seed:S`. Unset: no resampling.
   */
  readonly nBootstrap?: number
  /**
   * Seed of numpy's `default_rng` for the resamples (only with `nBootstrap`); `null` = unseeded.
   * @default the `SACREBLEU_SEED` environment variable, else 12345 (as sacrebleu)
   */
  readonly seed?: number | null
}

/** The keys of {@link BleuOptions}: what sentenceBleu, corpusBleu and bleuStats accept. */
export const BLEU_OPTION_KEYS = keysOf<BleuOptions>()('tokenize', 'smooth', 'smoothValue', 'lowercase', 'effectiveOrder', 'maxNgramOrder', 'maxTokens')
/** The keys of {@link BleuFromStatsOptions}: what bleuFromStats accepts. */
export const BLEU_FROM_STATS_OPTION_KEYS = keysOf<BleuFromStatsOptions>()(...BLEU_OPTION_KEYS, 'nrefs')
/** The keys of {@link CorpusBleuOptions}: what corpusBleu accepts. */
export const CORPUS_BLEU_OPTION_KEYS = keysOf<CorpusBleuOptions>()(...BLEU_OPTION_KEYS, 'nBootstrap', 'seed')

/** What a BLEU failure message needs. Arrays are indexed by order − 1. */
export interface BleuDetails {
  /** Modified n-gram precisions on 0–100, after smoothing (0 for orders never reached). */
  readonly precisions: number[]
  /** Brevity penalty `exp(1 − refLen/sysLen)` when `sysLen < refLen` (0 when `sysLen` is 0), else 1. */
  readonly bp: number
  /** Candidate length in tokens (summed over a corpus). */
  readonly sysLen: number
  /** Closest reference length (shorter one on ties), summed over a corpus. */
  readonly refLen: number
  /** Clipped matching n-gram counts (with `add-k`, including the added k for orders ≥ 2 as sacrebleu reports them). */
  readonly counts: number[]
  /** Candidate n-gram totals (with `add-k` likewise). */
  readonly totals: number[]
  /** `sysLen / refLen` (0 when `refLen` is 0). */
  readonly ratio: number
  /**
   * Up to {@link UNMATCHED_NGRAMS_PER_ORDER} distinct candidate n-grams per order that occur in no
   * reference (clipped n-grams that do occur are not listed), in order of first appearance, tokens
   * joined by a space; over a corpus, the first ones met. Empty for {@link bleuFromStats}. A getter
   * on the details object, built on first read (included by `JSON.stringify`).
   */
  readonly unmatchedNgrams: string[][]
  /** {@link corpusBleu} with `nBootstrap`: sacrebleu's `μ = mean ± ci` over the resamples. */
  readonly bootstrap?: BootstrapEstimate
}

/** A BLEU score: `value` on sacrebleu's 0–100 scale, not rounded. */
export type BleuScore = Score<BleuDetails>

/** How many unmatched n-grams per order {@link BleuDetails.unmatchedNgrams} keeps. */
export const UNMATCHED_NGRAMS_PER_ORDER = 5

interface ResolvedBleu {
  readonly tokenizer: BleuTokenizer
  readonly smooth: BleuSmoothing
  readonly smoothValue: number | undefined
  readonly lowercase: boolean
  readonly effectiveOrder: boolean
  readonly maxOrder: number
  readonly maxTokens: number
  /** Signatures by reference count, for the shared default settings only. */
  readonly signatures?: Map<number | 'var' | undefined, string>
}

/**
 * Sentence-level BLEU of one candidate against one or more references, exactly as sacrebleu 2.6.0
 * `sentence_bleu` (which is `corpus_bleu` over one segment).
 *
 * Each side: optional Python `lower()`, Python `rstrip()`, the tokenizer, Python `split()`. For
 * n = 1…N: `counts[n] = Σ_g min(c_cand(g), max_ref c_ref(g))`, `totals[n]` = candidate n-grams;
 * `precision[n] = 100·counts/totals` (smoothed when 0, see {@link BleuSmoothing});
 * `BLEU = BP · exp(Σ_{n≤N'} log p_n / N')` with N' = N, or with effective order the highest n whose
 * total is > 0; `BP = exp(1 − r/c)` if c < r (0 if c = 0), else 1, where r is the reference length
 * closest to c (the shorter on ties).
 *
 * Defaults: tokenize `13a`, smooth `exp`, effective order **on**, case-sensitive, N = 4.
 * Edge cases (sacrebleu's): no matching n-gram of any order → 0 (even with smoothing); an empty
 * candidate → 0; an empty reference is a real reference of length 0; a precision of 0 that is
 * averaged in gives 0. Signature `BLEU|nrefs:R|case:mixed|eff:yes|tok:13a|smooth:exp|version:…`
 * (sacrebleu's keys and order; `floor`/`add-k` print their value as `smooth:floor[0.10]`; an
 * `ngram:N` key is added only when N ≠ 4).
 *
 * Parity: equals sacrebleu 2.6.0 `sentence_bleu(candidate, references, …).score` and its counts,
 * totals, precisions, bp and lengths (golden set: all 300 cases and every variant, to 1e-9).
 *
 * @param candidate the generated text
 * @param references one reference or a non-empty array of them
 * @param options see {@link BleuOptions}
 * @throws MetricInputError for a non-string candidate or reference, an empty reference array, or a bad option
 * @example
 * sentenceBleu(
 *   'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.',
 *   'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.',
 * ).value // → 76.24658586234858
 */
export function sentenceBleu(candidate: string, references: string | readonly string[], options?: BleuOptions): BleuScore {
  const fn = 'sentenceBleu'
  const refs = checkSentenceArgs(fn, candidate, references)
  const r = resolveBleuOptions(fn, options, true, BLEU_OPTION_KEYS)
  const stats = countSegment(candidate, refs, r)
  // the unmatched n-grams are rarely read (most scores pass), so the hot path notes nothing; a caller's
  // array may change, so a copy of it is kept
  return scoreFromStats(stats, r, refs.length, recountUnmatched(candidate, typeof references === 'string' ? refs : refs.slice(), r))
}

/**
 * Corpus-level BLEU, exactly as sacrebleu 2.6.0 `corpus_bleu(candidates, referenceStreams)`: the
 * per-segment sufficient statistics ({@link bleuStats}) are summed, then one BLEU is computed from
 * the sums (so it is not the mean of sentence BLEUs).
 *
 * `referenceStreams[k][i]` is the k-th reference of segment i (sacrebleu's layout: one array per
 * reference "stream", each as long as `candidates`); `null` marks an absent reference for that
 * segment, `''` is a real, empty reference. Defaults as sacrebleu `corpus_bleu`: tokenize `13a`,
 * smooth `exp`, effective order **off** (so a corpus without any 4-gram scores 0), N = 4.
 * The signature's `nrefs` is the per-segment reference count, `var` when it differs between segments.
 *
 * Parity: equals sacrebleu 2.6.0 `corpus_bleu` (golden corpora and sacrebleu's own test vectors, to 1e-9).
 *
 * With `nBootstrap: N` (and optionally `seed`), also sacrebleu's 95% bootstrap confidence interval
 * (`corpus_score(..., n_bootstrap=N)`): `details.bootstrap = { mean, ci, nBootstrap, seed }`, printed by
 * sacrebleu as `μ = mean ± ci`, and `bs:N|seed:S` in the signature; numpy's `default_rng(seed)` resamples
 * (golden bootstrap corpora: every resample, mean and ci to 1e-9).
 *
 * @param candidates one string per segment (non-empty array)
 * @param referenceStreams the reference streams (non-empty array of arrays of `string | null`)
 * @param options see {@link CorpusBleuOptions}
 * @throws MetricInputError for a non-string candidate, a stream of the wrong length, an entry that is
 *   neither a string nor null, a segment with no reference, or a bad option
 * @example
 * corpusBleu(
 *   ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.'],
 *   [
 *     ['The dog bit the man.', 'It was not unexpected.', 'The man bit him first.'],
 *     ['The dog had bit the man.', 'No one was surprised.', 'The man had bitten the dog.'],
 *   ],
 * ).value // → 48.530827009929865
 */
export function corpusBleu(candidates: readonly string[], referenceStreams: ReadonlyArray<ReadonlyArray<string | null>>, options?: CorpusBleuOptions): BleuScore {
  const fn = 'corpusBleu'
  const segments = checkCorpusArgs(fn, candidates, referenceStreams)
  const r = resolveBleuOptions(fn, options, false, CORPUS_BLEU_OPTION_KEYS)
  const resampling = bootstrapOptions(fn, options)
  const perSegment: number[][] = []
  const unmatched = new UnmatchedNgrams(r.maxOrder)
  const sums = new Array<number>(2 + 2 * r.maxOrder).fill(0)
  for (let i = 0; i < candidates.length; i++) {
    const refs = segments.refs(i)
    // once the unmatched n-grams are all found, nothing is noted and the kernel can count
    let stats = unmatched.allFull() ? kernelStats(candidates[i]!, refs, r) : undefined
    if (stats === undefined) {
      const hyp = preprocess(candidates[i]!, r, pooledSpans(0))
      stats = segmentStats(hyp, preprocessRefs(refs, r), r.maxOrder, unmatched.allFull() ? undefined : unmatched)
      unmatched.flush(hyp)
    }
    if (resampling !== undefined) perSegment.push(stats.slice())
    for (let j = 0; j < stats.length; j++) sums[j]! += stats[j]!
  }
  const score = scoreFromStats(sums, r, segments.nrefs, () => unmatched.flush(EMPTY_SPANS))
  if (resampling === undefined) return score
  const { nBootstrap, seed } = resampling
  const run = bootstrapCorpus(perSegment, (s, f32) => computeBleuOf(s, r, f32), nBootstrap, seed)
  ;(score.details as LazyBleuDetails).bootstrap = { mean: run.mean, ci: run.ci, nBootstrap, seed }
  return { ...score, signature: buildBleuSignature(r, segments.nrefs, bootstrapEntries(nBootstrap, seed)) }
}

/** BLEU of summed statistics under resolved options (the significance kernel's scorer). */
function computeBleuOf(stats: readonly number[], r: ResolvedBleu, float32: boolean): number {
  const N = r.maxOrder
  return computeBleu(stats.slice(2, 2 + N), stats.slice(2 + N, 2 + 2 * N), stats[0]!, stats[1]!, r, float32).score
}

/**
 * BLEU for the significance tests (significance/paired.ts), with the corpus defaults: per-segment
 * statistics, the stats → score kernel and the signature under one resolution of `options`.
 * @throws MetricInputError for a bad option
 */
export function bleuSignificanceKernel(fn: string, options: BleuOptions | undefined): SignificanceKernel {
  const r = resolveBleuOptions(fn, options, false, BLEU_OPTION_KEYS)
  return {
    name: 'BLEU',
    segmentStats: (candidates, segments) =>
      candidates.map((candidate, i) => segmentStats(preprocess(candidate, r, pooledSpans(0)), preprocessRefs(segments.refs(i), r), r.maxOrder)),
    score: (sums, float32) => computeBleuOf(sums, r, float32),
    signature: (nrefs, extra) => buildBleuSignature(r, nrefs, extra),
  }
}

/** What {@link bleuSegments} returns: the corpus score and one sentence score per segment. */
export interface BleuSegments {
  /** Equals {@link corpusBleu} over the same segments (corpus defaults: effective order off). */
  readonly corpus: BleuScore
  /** `segments[i]` equals {@link sentenceBleu}`(candidates[i], references[i])` (sentence defaults: effective order on). */
  readonly segments: BleuScore[]
}

/**
 * Corpus BLEU and every segment's sentence BLEU from one pass: each candidate and reference is
 * preprocessed and tokenized once (again only for a segment whose unmatched n-grams are read), its
 * segment's sufficient statistics give the sentence score and are summed for the corpus score. The
 * same numbers as calling {@link corpusBleu} (with the references laid out as streams) and
 * {@link sentenceBleu} per segment, for half the work.
 *
 * `references[i]` lists the references of segment i (not sacrebleu's stream layout). The options
 * are resolved twice, as each function would: the corpus score uses the corpus defaults
 * (effective order off, `nrefs` the per-segment count or `var`), the segment scores the sentence
 * defaults (effective order on). Pass `effectiveOrder` to use the same setting for both.
 * `details.unmatchedNgrams` of the corpus score is the corpus's (the first ones met), of each
 * segment score that segment's own (counted again on first read).
 *
 * Parity: `corpus` equals sacrebleu 2.6.0 `corpus_bleu` and `segments[i]` `sentence_bleu`
 * (bit-for-bit the values of {@link corpusBleu} and {@link sentenceBleu}).
 *
 * @param candidates one string per segment (non-empty array)
 * @param references per segment, a non-empty array of reference strings (as long as `candidates`)
 * @param options see {@link BleuOptions}
 * @throws MetricInputError for a non-string candidate or reference, a `references` array of the
 *   wrong length, a segment without references, or a bad option
 * @example
 * const { corpus, segments } = bleuSegments(
 *   ['The dog bit the man.', "It wasn't surprising.", 'The man had just bitten him.'],
 *   [
 *     ['The dog bit the man.', 'The dog had bit the man.'],
 *     ['It was not unexpected.', 'No one was surprised.'],
 *     ['The man bit him first.', 'The man had bitten the dog.'],
 *   ],
 * )
 * corpus.value // → 48.530827009929865
 * segments[0]!.value // → 100.00000000000004 (= sentenceBleu of the first segment)
 */
export function bleuSegments(candidates: readonly string[], references: ReadonlyArray<readonly string[]>, options?: BleuOptions): BleuSegments {
  const fn = 'bleuSegments'
  checkSegmentArgs(fn, candidates, references)
  const rCorpus = resolveBleuOptions(fn, options, false, BLEU_OPTION_KEYS)
  const resolvedSentence = resolveBleuOptions(fn, options, true, BLEU_OPTION_KEYS)
  // every segment's signature is built from the same settings: remember them for this call at least
  const rSentence: ResolvedBleu = resolvedSentence.signatures ? resolvedSentence : { ...resolvedSentence, signatures: new Map() }
  const N = rCorpus.maxOrder
  const corpusUnmatched = new UnmatchedNgrams(N)
  const sums = new Array<number>(2 + 2 * N).fill(0)
  const refCounts = new Set<number>()
  // Sentence scores are built on first read: a passing set assertion never shows them.
  const builders: Array<() => BleuScore> = []
  for (let i = 0; i < candidates.length; i++) {
    const refs = references[i]!
    const candidate = candidates[i]!
    refCounts.add(refs.length)
    // tokenizer and lowercase are the same in both resolutions: the statistics serve both scores.
    // Once the corpus's unmatched n-grams are all found, the kernel can count (as in corpusBleu)
    const counted = corpusUnmatched.allFull() ? kernelStats(candidate, refs, rCorpus) : undefined
    let stats: number[]
    // a segment's own unmatched n-grams are rarely read (a per-case table shows values only): counted
    // again on first read, from the kept spans or from (a copy of) the texts
    let unmatchedOf: () => string[][]
    if (counted === undefined) {
      const hyp = preprocess(candidate, rCorpus)
      const refSpans = refs.map((ref) => preprocess(ref, rCorpus))
      // the corpus's unmatched n-grams are noted exactly as corpusBleu notes them
      stats = segmentStats(hyp, refSpans, N, corpusUnmatched.allFull() ? undefined : corpusUnmatched)
      corpusUnmatched.flush(hyp)
      unmatchedOf = () => segmentUnmatched(hyp, refSpans, N)
    } else {
      stats = counted
      unmatchedOf = recountUnmatched(candidate, refs.slice(), rCorpus)
    }
    for (let j = 0; j < stats.length; j++) sums[j]! += stats[j]!
    builders.push(() => scoreFromStats(stats, rSentence, refs.length, unmatchedOf))
  }
  const nrefs = refCounts.size === 1 ? [...refCounts][0]! : 'var'
  return lazySegments(
    scoreFromStats(sums, rCorpus, nrefs, () => corpusUnmatched.flush(EMPTY_SPANS)),
    builders,
  )
}

/**
 * BLEU's sufficient statistics for one segment, in sacrebleu's layout:
 * `[sysLen, refLen, counts_1…counts_N, totals_1…totals_N]` (N = `maxNgramOrder`, default 4).
 * Summing these vectors over segments and passing the sum to {@link bleuFromStats} gives
 * {@link corpusBleu}. Only `tokenize`, `lowercase` and `maxNgramOrder` matter here.
 *
 * Parity: sacrebleu 2.6.0 `BLEU._extract_corpus_statistics` for one segment.
 *
 * @param candidate the generated text
 * @param references one reference or a non-empty array of them
 * @param options see {@link BleuOptions}
 * @throws MetricInputError as {@link sentenceBleu}
 * @example
 * bleuStats('the cat sat', 'the cat sat down') // → [3, 4, 3, 2, 1, 0, 3, 2, 1, 0]
 */
export function bleuStats(candidate: string, references: string | readonly string[], options?: BleuOptions): number[] {
  const fn = 'bleuStats'
  const refs = checkSentenceArgs(fn, candidate, references)
  const r = resolveBleuOptions(fn, options, true, BLEU_OPTION_KEYS)
  return countSegment(candidate, refs, r)
}

/**
 * BLEU from (summed) sufficient statistics `[sysLen, refLen, counts_1…N, totals_1…N]`: sacrebleu's
 * `BLEU.compute_bleu`, with the corpus defaults (smooth `exp`, effective order off, N = 4; N is read
 * from `maxNgramOrder` and must match the vector's length `2 + 2N`). See {@link sentenceBleu} for the
 * formula and edge cases. `details.unmatchedNgrams` is empty (the statistics do not carry n-grams).
 *
 * Parity: equals sacrebleu 2.6.0 `BLEU.compute_bleu(correct, total, sys_len, ref_len, …)` (its
 * own `test_scoring` and `test_degenerate_statistics` vectors).
 *
 * @param stats the statistics vector (non-negative finite numbers)
 * @param options see {@link BleuFromStatsOptions}
 * @throws MetricInputError for a vector of the wrong length or with negative or non-finite entries, or a bad option
 * @example
 * bleuFromStats([11, 11, 9, 7, 5, 3, 10, 8, 6, 4], { smooth: 'none' }).value
 * // → 83.7592239708627 (sacrebleu: 83.75922397086269; `Math.exp`/`Math.log` may differ from libm by 1 ulp)
 */
export function bleuFromStats(stats: readonly number[], options?: BleuFromStatsOptions): BleuScore {
  const fn = 'bleuFromStats'
  const r = resolveBleuOptions(fn, options, false, BLEU_FROM_STATS_OPTION_KEYS)
  const expected = 2 + 2 * r.maxOrder
  if (!Array.isArray(stats) || stats.length !== expected || !stats.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0)) {
    throw new MetricInputError(fn, 'stats', `an array of ${expected} non-negative finite numbers ([sysLen, refLen, counts×${r.maxOrder}, totals×${r.maxOrder}])`, stats)
  }
  const nrefs = options?.nrefs
  if (nrefs !== undefined && nrefs !== 'var' && !(typeof nrefs === 'number' && Number.isInteger(nrefs) && nrefs > 0)) {
    throw new MetricInputError(fn, 'options.nrefs', "a positive integer or 'var'", nrefs)
  }
  return scoreFromStats(stats, r, nrefs, () => Array.from({ length: r.maxOrder }, () => []))
}

// ---------------------------------------------------------------------------------------------

/** Validates `(candidates, references)` of {@link bleuSegments}: per segment, a non-empty array of strings. */
const EMPTY_SPANS: TokenSpans = { source: '', starts: [], ends: [], count: 0 }

/**
 * {@link BleuDetails} with `unmatchedNgrams` built on first read: most scores pass and are never
 * shown, and building those strings is a good part of a sentence BLEU's cost. (A class getter, not
 * a getter in an object literal: per-object accessor closures made V8 promote every score to the
 * old generation.) `toJSON` includes it.
 */
class LazyBleuDetails implements BleuDetails {
  #unmatched: string[][] | (() => string[][])
  /** Set by {@link corpusBleu} after resampling. */
  bootstrap?: BootstrapEstimate
  constructor(
    readonly precisions: number[],
    readonly bp: number,
    readonly sysLen: number,
    readonly refLen: number,
    readonly counts: number[],
    readonly totals: number[],
    readonly ratio: number,
    unmatched: () => string[][],
  ) {
    this.#unmatched = unmatched
  }
  get unmatchedNgrams(): string[][] {
    if (typeof this.#unmatched === 'function') this.#unmatched = this.#unmatched()
    return this.#unmatched
  }
  toJSON(): BleuDetails {
    const { precisions, bp, sysLen, refLen, counts, totals, ratio, unmatchedNgrams, bootstrap } = this
    return { precisions, bp, sysLen, refLen, counts, totals, ratio, unmatchedNgrams, ...(bootstrap && { bootstrap }) }
  }
}

function scoreFromStats(stats: readonly number[], r: ResolvedBleu, nrefs: number | 'var' | undefined, unmatched: () => string[][]): BleuScore {
  const N = r.maxOrder
  const sysLen = stats[0]!
  const refLen = stats[1]!
  const result = computeBleu(stats.slice(2, 2 + N), stats.slice(2 + N, 2 + 2 * N), sysLen, refLen, r)
  const details = new LazyBleuDetails(result.precisions, result.bp, sysLen, refLen, result.counts, result.totals, refLen ? sysLen / refLen : 0, unmatched)
  return makeScore<BleuDetails>('BLEU', result.score, bleuSignature(r, nrefs), details)
}

/** sacrebleu's `my_log`: log(0) is a large negative number instead of -Infinity. */
function myLog(x: number): number {
  return x === 0 ? -9999999999 : Math.log(x)
}

/**
 * sacrebleu's `BLEU.compute_bleu`, operation for operation (the order of float operations matters at 1 ulp).
 * `float32`: the statistics are a numpy float32 array (bootstrap resamples), so add-k's in-place `+= k` rounds to float32.
 */
function computeBleu(
  correct: number[],
  total: number[],
  sysLen: number,
  refLen: number,
  r: ResolvedBleu,
  float32 = false,
): { score: number; precisions: number[]; counts: number[]; totals: number[]; bp: number } {
  const N = r.maxOrder
  let bp = 1.0
  if (sysLen < refLen) bp = sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0.0
  const precisions = new Array<number>(N).fill(0)
  // sacrebleu #141: no match of any order → 0, whatever the smoothing
  if (!correct.some((c) => c !== 0)) return { score: 0, precisions, counts: correct, totals: total, bp }

  const k = r.smoothValue ?? 0
  let smoothMteval = 1
  let effOrder = N
  for (let n = 1; n <= N; n++) {
    if (r.smooth === 'add-k' && n > 1) {
      correct[n - 1] = float32 ? Math.fround(correct[n - 1]! + k) : correct[n - 1]! + k
      total[n - 1] = float32 ? Math.fround(total[n - 1]! + k) : total[n - 1]! + k
    }
    if (total[n - 1] === 0) break
    if (r.effectiveOrder) effOrder = n
    const c = correct[n - 1]!
    const t = total[n - 1]!
    if (c === 0) {
      if (r.smooth === 'exp') {
        smoothMteval *= 2
        precisions[n - 1] = 100 / (smoothMteval * t)
      } else if (r.smooth === 'floor') {
        precisions[n - 1] = (100 * k) / t
      }
    } else {
      precisions[n - 1] = (100 * c) / t
    }
  }
  let logSum = 0
  for (let i = 0; i < effOrder; i++) logSum += myLog(precisions[i]!)
  return { score: bp * Math.exp(logSum / effOrder), precisions, counts: correct, totals: total, bp }
}

/** sacrebleu `_get_closest_ref_len` over the references' token counts `refLens[0, R)`: the closest length, the shorter one on a tie. */
function closestRefLen(hypLen: number, refLens: ArrayLike<number>, R: number): number {
  let closestDiff = -1
  let closestLen = -1
  for (let j = 0; j < R; j++) {
    const refLen = refLens[j]!
    const diff = Math.abs(hypLen - refLen)
    if (closestDiff === -1 || diff < closestDiff) {
      closestDiff = diff
      closestLen = refLen
    } else if (diff === closestDiff && refLen < closestLen) {
      closestLen = refLen
    }
  }
  return closestLen
}

/**
 * Collects a bounded list of distinct candidate n-grams that occur in no reference. During counting
 * only (order, key, position) of the current segment are noted, in flat arrays (this runs for every
 * sentence, so it allocates little); {@link UnmatchedNgrams.flush} turns them into text and merges
 * them, distinct by text across segments.
 */
class UnmatchedNgrams {
  /** Per order, the texts found so far (created by the first flush). */
  private lists: string[][] | undefined
  /** Per order, texts kept plus positions noted for the current segment. */
  private readonly taken: number[]
  /** Flat (order, key, start) triples of the current segment. */
  private readonly notes: number[] = []
  constructor(private readonly maxOrder: number) {
    this.taken = new Array<number>(maxOrder).fill(0)
  }
  /** Whether order n needs no more entries. */
  full(n: number): boolean {
    return this.taken[n - 1]! >= UNMATCHED_NGRAMS_PER_ORDER
  }
  /** Whether no order needs more entries. */
  allFull(): boolean {
    for (let n = 1; n <= this.maxOrder; n++) if (!this.full(n)) return false
    return true
  }
  note(n: number, key: number, start: number): void {
    // a few entries at most: a linear search beats a Set
    for (let i = 0; i < this.notes.length; i += 3) if (this.notes[i] === n && this.notes[i + 1] === key) return
    this.notes.push(n, key, start)
    this.taken[n - 1]!++
  }
  /** Moves the notes of the segment whose candidate is `hyp` into the lists and returns them. */
  flush(hyp: TokenSpans): string[][] {
    const lists = (this.lists ??= Array.from({ length: this.maxOrder }, () => []))
    if (this.notes.length === 0) return lists
    const before = lists.map((list) => list.length)
    for (let i = 0; i < this.notes.length; i += 3) {
      const n = this.notes[i]!
      const list = lists[n - 1]!
      const text = spanNgramText(hyp, this.notes[i + 2]!, n)
      // notes of one segment are distinct already (by key); compare with earlier segments' texts only
      let seen = false
      for (let j = 0; j < before[n - 1]! && !seen; j++) seen = list[j] === text
      if (!seen) list.push(text)
    }
    this.notes.length = 0
    for (let n = 1; n <= this.maxOrder; n++) this.taken[n - 1] = lists[n - 1]!.length
    return lists
  }
}

/** A segment's unmatched n-grams counted from its texts when called (`refs` must not change meanwhile). */
function recountUnmatched(candidate: string, refs: readonly string[], r: ResolvedBleu): () => string[][] {
  return () =>
    segmentUnmatched(
      preprocess(candidate, r),
      refs.map((ref) => preprocess(ref, r)),
      r.maxOrder,
    )
}

/** The unmatched n-grams of one tokenized segment, as {@link sentenceBleu} lists them. */
function segmentUnmatched(hyp: TokenSpans, refs: readonly TokenSpans[], maxOrder: number): string[][] {
  const unmatched = new UnmatchedNgrams(maxOrder)
  segmentStats(hyp, refs, maxOrder, unmatched)
  return unmatched.flush(hyp)
}

// Tables reused across calls (reset before each use): allocating them per sentence costs more
// than the counting itself. Everything here is synchronous, so sharing them is safe.
const tokenIds = new SpanInterner()
const grams = new DenseNgrams()
const refMaxScratch = new ZeroedCounts()
const refOneScratch = new ZeroedCounts()
const refLens: number[] = []

/** `[hypLen, refLen, correct_1…N, total_1…N]` for one tokenized segment. */
function segmentStats(hyp: TokenSpans, refs: readonly TokenSpans[], maxOrder: number, unmatched?: UnmatchedNgrams): number[] {
  const stats = new Array<number>(2 + 2 * maxOrder).fill(0)
  const R = refs.length
  let allTokens = hyp.count
  for (const ref of refs) allTokens += ref.count
  stats[0] = hyp.count
  for (let j = 0; j < R; j++) refLens[j] = refs[j]!.count
  stats[1] = closestRefLen(hyp.count, refLens, R)
  // references first, the candidate last: an id ≥ distinctBefore(R) then occurs in no reference
  tokenIds.reset(allTokens)
  grams.reset(allTokens)
  for (const ref of refs) tokenIds.internInto(ref, grams.tokens, grams.append(ref.count))
  tokenIds.internInto(hyp, grams.tokens, grams.append(hyp.count))
  grams.start(tokenIds.size)
  // one reference and nothing to note (the common case): numbering and clipping in one pass per order
  const oneRef = R === 1 && unmatched === undefined
  for (let n = 1; n <= maxOrder; n++) {
    let correct = 0
    if (oneRef) correct = n > 1 ? grams.advanceMatching() : grams.matches()
    else if (n > 1) grams.advance()
    const hypLen = grams.length(R)
    // no candidate n-gram of this order, so none of the higher ones: their counts stay 0
    if (hypLen === 0) break
    stats[1 + maxOrder + n] = hypLen
    stats[1 + n] = oneRef ? correct : clipMatches(n, R, hypLen, unmatched)
  }
  return stats
}

/**
 * `Σ_g min(c_cand(g), max_ref c_ref(g))` at the current order of {@link grams}, noting candidate
 * n-grams that occur in no reference.
 */
function clipMatches(n: number, R: number, hypLen: number, unmatched: UnmatchedNgrams | undefined): number {
  const keys = grams.keys
  const inRefs = grams.distinctBefore(R)
  const available = refMaxCounts(R, inRefs)
  const from = grams.from(R)
  let correct = 0
  for (let i = 0; i < hypLen; i++) {
    const key = keys[from + i]!
    if (key >= inRefs) {
      if (unmatched !== undefined && !unmatched.full(n)) unmatched.note(n, key, i)
    } else if (available[key]! > 0) {
      available[key]!--
      correct++
    }
  }
  return correct
}

/** Per n-gram id below `inRefs`, its highest count in any one reference (the first R sequences of {@link grams}). */
function refMaxCounts(R: number, inRefs: number): Int32Array {
  const keys = grams.keys
  const max = refMaxScratch.zeroed(inRefs)
  if (R === 1) {
    const from = grams.from(0)
    const to = from + grams.length(0)
    for (let i = from; i < to; i++) max[keys[i]!]!++
    return max
  }
  const one = refOneScratch.zeroed(inRefs)
  for (let j = 0; j < R; j++) {
    const from = grams.from(j)
    const to = from + grams.length(j)
    for (let i = from; i < to; i++) one[keys[i]!]!++
    for (let i = from; i < to; i++) {
      const key = keys[i]!
      if (one[key]! > max[key]!) max[key] = one[key]!
    }
    // cleared through the same positions, so the next reference starts from zero
    for (let i = from; i < to; i++) one[keys[i]!] = 0
  }
  return max
}

/**
 * Span buffers reused by the calls that drop the spans once the statistics are counted
 * (the candidate in buffer 0, the references after it); bleuSegments keeps its spans and does not use them.
 */
const spanPool: SpanBuffer[] = []

function pooledSpans(k: number): SpanBuffer {
  while (spanPool.length <= k) spanPool.push(new SpanBuffer())
  // a buffer that grew for one very long text is not kept around
  if (spanPool[k]!.starts.length > 1 << 16) spanPool[k] = new SpanBuffer()
  return spanPool[k]!
}

/** {@link preprocess} of each reference, into pool buffers 1…R. */
function preprocessRefs(refs: readonly string[], r: ResolvedBleu): TokenSpans[] {
  const out = new Array<TokenSpans>(refs.length)
  for (let j = 0; j < refs.length; j++) out[j] = preprocess(refs[j]!, r, pooledSpans(j + 1))
  return out
}

/** sacrebleu `BLEU._preprocess_segment` (optional `lower()`, `rstrip()`, tokenizer) as token spans (in `into` when given). */
function preprocess(text: string, r: ResolvedBleu, into?: SpanBuffer): TokenSpans {
  const spans = r.tokenizer.spans(lowerStrip(text, r), into)
  checkTokenCount('BLEU', 'each candidate and reference', spans.count, r.maxTokens)
  return spans
}

/** The optional `lower()` and the `rstrip()` of sacrebleu `BLEU._preprocess_segment`. */
function lowerStrip(text: string, r: ResolvedBleu): string {
  const lowered = r.lowercase ? pyLower(text) : text
  // Python `rstrip()` as a loop from the end (a `[…]+$` regex retries at every whitespace run)
  let end = lowered.length
  while (end > 0 && isPyWhitespaceUnit(lowered.charCodeAt(end - 1))) end--
  return end === lowered.length ? lowered : lowered.slice(0, end)
}

/** One segment's statistics: from the kernel where it can count them, else from the JS tokenizer and counters. */
function countSegment(candidate: string, refs: readonly string[], r: ResolvedBleu): number[] {
  return kernelStats(candidate, refs, r) ?? segmentStats(preprocess(candidate, r, pooledSpans(0)), preprocessRefs(refs, r), r.maxOrder)
}

/** The texts handed to the kernel (references, then the candidate), reused across calls. */
const kernelTexts: string[] = []

/**
 * {@link segmentStats} of a 13a segment from the WebAssembly kernel (bleu-kernel.ts), with {@link preprocess}'s
 * token limits checked in the same order; undefined for another tokenizer, a runtime without WebAssembly or a
 * segment too large for the kernel (the JS path then counts it).
 */
function kernelStats(candidate: string, refs: readonly string[], r: ResolvedBleu): number[] | undefined {
  if (r.tokenizer.name !== '13a') return undefined
  const kernel = BleuKernel.get()
  if (kernel === null) return undefined
  const R = refs.length
  for (let j = 0; j < R; j++) kernelTexts[j] = prepare13a(lowerStrip(refs[j]!, r))
  kernelTexts[R] = prepare13a(lowerStrip(candidate, r))
  const orders = kernel.stats(kernelTexts, R + 1, r.maxOrder)
  // the caller's texts are not kept alive until the next call
  for (let j = 0; j <= R; j++) kernelTexts[j] = ''
  if (orders < 0) return undefined
  const out = kernel.out
  const N = r.maxOrder
  checkTokenCount('BLEU', 'each candidate and reference', out[R]!, r.maxTokens)
  for (let j = 0; j < R; j++) checkTokenCount('BLEU', 'each candidate and reference', out[j]!, r.maxTokens)
  const stats = new Array<number>(2 + 2 * N).fill(0)
  stats[0] = out[R]!
  stats[1] = closestRefLen(out[R]!, out, R)
  for (let n = 1; n <= orders; n++) {
    stats[1 + n] = out[R + 2 * n - 1]!
    stats[1 + N + n] = out[R + 2 * n]!
  }
  return stats
}

function bleuSignature(r: ResolvedBleu, nrefs: number | 'var' | undefined): string {
  // the defaults are resolved once, so their signatures can be remembered per reference count
  const cached = r.signatures?.get(nrefs)
  if (cached !== undefined) return cached
  const signature = buildBleuSignature(r, nrefs)
  r.signatures?.set(nrefs, signature)
  return signature
}

function buildBleuSignature(r: ResolvedBleu, nrefs: number | 'var' | undefined, extra: ReadonlyArray<readonly [string, SignatureValue]> = []): string {
  const smooth = r.smoothValue === undefined ? r.smooth : `${r.smooth}[${r.smoothValue.toFixed(2)}]`
  return buildSignature('BLEU', [
    ['nrefs', nrefs],
    ...extra,
    ['case', r.lowercase ? 'lc' : 'mixed'],
    ['eff', r.effectiveOrder],
    ['tok', r.tokenizer.name],
    ['smooth', smooth],
    ['ngram', r.maxOrder === 4 ? undefined : r.maxOrder],
  ])
}

/** The default settings, resolved once (sentence: effective order on; corpus: off). */
const DEFAULTS_SENTENCE: ResolvedBleu = { ...resolveBleuOptions('sentenceBleu', {}, true, BLEU_OPTION_KEYS), signatures: new Map() }
const DEFAULTS_CORPUS: ResolvedBleu = { ...resolveBleuOptions('corpusBleu', {}, false, BLEU_OPTION_KEYS), signatures: new Map() }

function resolveBleuOptions(fn: string, options: BleuOptions | undefined, effectiveOrderDefault: boolean, knownKeys: readonly string[]): ResolvedBleu {
  // (the constants themselves are built with `{}`, so this never reads them before they exist)
  if (options === undefined || options === null) return effectiveOrderDefault ? DEFAULTS_SENTENCE : DEFAULTS_CORPUS
  if (typeof options !== 'object' || Array.isArray(options)) throw new MetricInputError(fn, 'options', 'an options object', options)
  checkOptionKeys(fn, options, knownKeys)
  const { tokenize = '13a', smooth = 'exp', smoothValue, lowercase = false, effectiveOrder = effectiveOrderDefault, maxNgramOrder = 4 } = options
  if (!isBleuTokenizerName(tokenize)) {
    throw new MetricInputError(fn, 'options.tokenize', `one of ${BLEU_TOKENIZER_NAMES.map((n) => `'${n}'`).join(', ')}`, tokenize)
  }
  if (!SMOOTHINGS.includes(smooth)) {
    throw new MetricInputError(fn, 'options.smooth', `one of ${SMOOTHINGS.map((s) => `'${s}'`).join(', ')}`, smooth)
  }
  if (smoothValue !== undefined && !(typeof smoothValue === 'number' && Number.isFinite(smoothValue) && smoothValue >= 0)) {
    throw new MetricInputError(fn, 'options.smoothValue', 'a non-negative finite number', smoothValue)
  }
  if (typeof lowercase !== 'boolean') throw new MetricInputError(fn, 'options.lowercase', 'a boolean', lowercase)
  if (typeof effectiveOrder !== 'boolean') throw new MetricInputError(fn, 'options.effectiveOrder', 'a boolean', effectiveOrder)
  if (typeof maxNgramOrder !== 'number' || !Number.isInteger(maxNgramOrder) || maxNgramOrder < 1 || maxNgramOrder > 64) {
    throw new MetricInputError(fn, 'options.maxNgramOrder', 'an integer from 1 to 64', maxNgramOrder)
  }
  const defaultValue = SMOOTH_DEFAULTS[smooth]
  return {
    tokenizer: getBleuTokenizer(tokenize),
    smooth,
    // the value only exists for the methods that use it (as in sacrebleu's signature)
    smoothValue: defaultValue === undefined ? undefined : (smoothValue ?? defaultValue),
    lowercase,
    effectiveOrder,
    maxOrder: maxNgramOrder,
    maxTokens: resolveMaxTokens(fn, options.maxTokens, DEFAULT_MAX_TOKENS),
  }
}
