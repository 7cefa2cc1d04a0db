import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { pyLower } from '../text/python-lower.js'
import { pyIsSpaceCode, pySplit } from '../text/python-string.js'
import { checkCorpusArgs, checkSegmentArgs, checkSentenceArgs, lazySegments } from './sacrebleu-args.js'
import { checkTextLength, DEFAULT_MAX_TOKENS, resolveMaxTokens } from './input-limits.js'
import { CodePointInterner, DenseNgrams, Interner, ZeroedCounts } from './ngrams.js'
import { bootstrapCorpus, bootstrapEntries, bootstrapOptions, type BootstrapEstimate } from './significance/bootstrap.js'
import type { SignificanceKernel } from './significance/kernel.js'
import type { SignatureValue } from '../signature.js'

/** Options of the chrF functions (sacrebleu `CHRF(...)` arguments, camelCased). */
export interface ChrfOptions {
  /** Character n-gram order. @default 6 */
  readonly charOrder?: number
  /** Word n-gram order; 2 gives chrF++. @default 0 */
  readonly wordOrder?: number
  /** Recall weight β of the F-score. @default 2 */
  readonly beta?: number
  /** chrF++.py/Moses/NLTK-style ε smoothing instead of sacrebleu's effective-order averaging. @default false */
  readonly epsSmoothing?: boolean
  /** Python `str.lower()` both sides first. @default false */
  readonly lowercase?: boolean
  /** Keep whitespace inside character n-grams (sacrebleu `whitespace=True`). @default false */
  readonly keepWhitespace?: boolean
  /** The most whitespace-separated words one candidate or reference may have; more is a MetricInputError (`Infinity`: no limit). @default 1000000 */
  readonly maxTokens?: number
}

/** {@link chrfFromStats} options: the chrF options plus the reference count, for the signature only. */
export interface ChrfFromStatsOptions extends ChrfOptions {
  /** Printed as `nrefs:` in the signature (`'var'` when it varies); omitted when not given. */
  readonly nrefs?: number | 'var'
}

/** {@link corpusChrf} options: the chrF options plus sacrebleu's bootstrap confidence interval. */
export interface CorpusChrfOptions extends ChrfOptions {
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

/** The keys of {@link ChrfOptions}: what sentenceChrf, corpusChrf and chrfStats accept. */
export const CHRF_OPTION_KEYS = keysOf<ChrfOptions>()('charOrder', 'wordOrder', 'beta', 'epsSmoothing', 'lowercase', 'keepWhitespace', 'maxTokens')
/** The keys of {@link ChrfFromStatsOptions}: what chrfFromStats accepts. */
export const CHRF_FROM_STATS_OPTION_KEYS = keysOf<ChrfFromStatsOptions>()(...CHRF_OPTION_KEYS, 'nrefs')
/** The keys of {@link CorpusChrfOptions}: what corpusChrf accepts. */
export const CORPUS_CHRF_OPTION_KEYS = keysOf<CorpusChrfOptions>()(...CHRF_OPTION_KEYS, 'nBootstrap', 'seed')

/** One n-gram order of a chrF computation. */
export interface ChrfOrderStats {
  readonly kind: 'char' | 'word'
  readonly n: number
  /** Candidate n-grams (0 when the reference has none of this order, as sacrebleu counts them). */
  readonly hyp: number
  /** Reference n-grams. */
  readonly ref: number
  /** Matching n-grams, `Σ min(count_cand, count_ref)`. */
  readonly match: number
  /** `match / hyp`, or null when `hyp` is 0. */
  readonly precision: number | null
  /** `match / ref`, or null when `ref` is 0. */
  readonly recall: number | null
}

/** What a chrF failure message needs. */
export interface ChrfDetails {
  /** sacrebleu's flat statistics: `[hyp, ref, match]` per order, character orders 1…C then word orders 1…W. */
  readonly stats: number[]
  /** The same, one entry per order. */
  readonly orders: ChrfOrderStats[]
  /** Mean precision over the orders with `hyp > 0` and `ref > 0` (0–1; 0 when there is none). */
  readonly precision: number
  /** Mean recall over those orders (0–1). */
  readonly recall: number
  /** How many orders were averaged. */
  readonly effectiveOrder: number
  /** {@link sentenceChrf}: index of the reference whose statistics were kept (highest sentence F, first on ties). */
  readonly bestReference?: number
  /** {@link corpusChrf}: per segment, the stream index k of the reference kept. */
  readonly bestReferences?: number[]
  /** {@link corpusChrf} with `nBootstrap`: sacrebleu's `μ = mean ± ci` over the resamples. */
  readonly bootstrap?: BootstrapEstimate
}

/** A chrF / chrF++ score: `value` on sacrebleu's 0–100 scale, not rounded. */
export type ChrfScore = Score<ChrfDetails>

interface ResolvedChrf {
  readonly charOrder: number
  readonly wordOrder: number
  readonly beta: number
  readonly epsSmoothing: boolean
  readonly lowercase: boolean
  readonly keepWhitespace: boolean
  readonly maxTokens: number
  /** Signatures by reference count, for the shared default settings only. */
  readonly signatures?: Map<number | 'var' | undefined, string>
}

/**
 * Sentence-level chrF (Popović 2015) or, with `wordOrder: 2`, chrF++ (Popović 2017), exactly as
 * sacrebleu 2.6.0 `sentence_chrf`.
 *
 * Character n-grams (n = 1…6) over the code points of each side with all Python whitespace removed
 * (no rstrip, no tokenizer); word n-grams over `split()` words with one leading or trailing ASCII
 * punctuation character split off (`(hi)` → `(hi`, `)`). Per order: `[hyp, ref, match]` with
 * `match = Σ min(counts)` and `hyp` counted as 0 when the reference has no n-gram of that order.
 * `P`, `R` = mean precision and recall over the orders with `hyp > 0` and `ref > 0`;
 * `chrF = 100 · ((1+β²)·P·R) / (β²·P + R)` (0 when P + R = 0). With `epsSmoothing` instead:
 * `100 · mean over all orders of ((1+β²)·p·r/(β²p + r))`, where a zero count becomes ε = 1e-16.
 * With several references, the statistics of the one with the highest F are kept (the first on ties).
 *
 * Defaults: charOrder 6, wordOrder 0, β 2, no ε smoothing, case-sensitive, whitespace removed.
 * Metric name `chrF2` (`chrF2++` with wordOrder 2: one `+` per word order). Signature
 * `chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:…` (sacrebleu's keys and order;
 * `eff:no` means ε smoothing).
 *
 * Parity: equals sacrebleu 2.6.0 `sentence_chrf(candidate, references, …).score` (golden set: all 300
 * cases, chrF, chrF++ and every variant, to 1e-9).
 *
 * @param candidate the generated text
 * @param references one reference or a non-empty array of them
 * @param options see {@link ChrfOptions}
 * @throws MetricInputError for a non-string candidate or reference, an empty reference array, or a bad option
 * @example
 * sentenceChrf(
 *   'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.',
 *   'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.',
 * ).value // → 88.90607187878506
 */
export function sentenceChrf(candidate: string, references: string | readonly string[], options?: ChrfOptions): ChrfScore {
  const fn = 'sentenceChrf'
  const refs = checkSentenceArgs(fn, candidate, references)
  const r = resolveChrfOptions(fn, options, CHRF_OPTION_KEYS)
  const { stats, best } = segmentStats(candidate, refs, r)
  return scoreFromStats(stats, r, refs.length, { bestReference: best })
}

/**
 * Corpus-level chrF / chrF++, exactly as sacrebleu 2.6.0 `corpus_chrf(candidates, referenceStreams)`:
 * each segment keeps the statistics of its best reference (as {@link sentenceChrf}), the statistics
 * are summed over segments, and one F is computed from the sums (a micro-average).
 *
 * `referenceStreams[k][i]` is the k-th reference of segment i; `null` = absent for that segment.
 * Options and signature as {@link sentenceChrf}; `nrefs` is `var` when the per-segment count varies.
 *
 * Parity: equals sacrebleu 2.6.0 `corpus_chrf` (golden corpora and sacrebleu's own test vectors, to 1e-9).
 *
 * With `nBootstrap: N` (and optionally `seed`), also sacrebleu's 95% bootstrap confidence interval:
 * `details.bootstrap = { mean, ci, nBootstrap, seed }` and `bs:N|seed:S` in the signature, the resamples
 * scored from float32 statistics as sacrebleu does (golden bootstrap corpora: bit-for-bit).
 *
 * @param candidates one string per segment (non-empty array)
 * @param referenceStreams the reference streams (non-empty array of arrays of `string | null`)
 * @param options see {@link CorpusChrfOptions}
 * @throws MetricInputError as {@link corpusBleu} does, or for a bad option
 * @example
 * corpusChrf(['abcdefg'], [['hijklmnop']], { beta: 3 }).value // → 0
 */
export function corpusChrf(candidates: readonly string[], referenceStreams: ReadonlyArray<ReadonlyArray<string | null>>, options?: CorpusChrfOptions): ChrfScore {
  const fn = 'corpusChrf'
  const segments = checkCorpusArgs(fn, candidates, referenceStreams)
  const r = resolveChrfOptions(fn, options, CORPUS_CHRF_OPTION_KEYS)
  const resampling = bootstrapOptions(fn, options)
  const perSegment: number[][] = []
  const sums = new Array<number>(3 * (r.charOrder + r.wordOrder)).fill(0)
  const bestReferences: number[] = []
  for (let i = 0; i < candidates.length; i++) {
    const { stats, best } = segmentStats(candidates[i]!, segments.refs(i), r)
    bestReferences.push(segments.stream(i, best))
    if (resampling !== undefined) perSegment.push(stats)
    for (let j = 0; j < stats.length; j++) sums[j]! += stats[j]!
  }
  const nrefs = segments.nrefs
  if (resampling === undefined) return scoreFromStats(sums, r, nrefs, { bestReferences })
  const { nBootstrap, seed } = resampling
  const run = bootstrapCorpus(perSegment, (s, f32) => fScore(s, r, f32).score, nBootstrap, seed)
  const bootstrap: BootstrapEstimate = { mean: run.mean, ci: run.ci, nBootstrap, seed }
  const score = scoreFromStats(sums, r, nrefs, { bestReferences, bootstrap })
  return { ...score, signature: chrfSignature(r, nrefs, bootstrapEntries(nBootstrap, seed)) }
}

/**
 * chrF for the significance tests (significance/paired.ts): per-segment statistics (best reference),
 * the stats → score kernel and the signature under one resolution of `options`.
 * @throws MetricInputError for a bad option
 */
export function chrfSignificanceKernel(fn: string, options: ChrfOptions | undefined): SignificanceKernel {
  const r = resolveChrfOptions(fn, options, CHRF_OPTION_KEYS)
  return {
    name: chrfName(r),
    segmentStats: (candidates, segments) => candidates.map((candidate, i) => segmentStats(candidate, segments.refs(i), r).stats),
    score: (sums, float32) => fScore(sums, r, float32).score,
    signature: (nrefs, extra) => chrfSignature(r, nrefs, extra),
  }
}

/** What {@link chrfSegments} returns: the corpus score and one sentence score per segment. */
export interface ChrfSegments {
  /** Equals {@link corpusChrf} over the same segments (`bestReferences[i]` indexes `references[i]`). */
  readonly corpus: ChrfScore
  /** `segments[i]` equals {@link sentenceChrf}`(candidates[i], references[i])`. */
  readonly segments: ChrfScore[]
}

/**
 * Corpus chrF and every segment's sentence chrF from one pass: each candidate and reference is
 * lowercased (if asked), split into characters and words and counted once; the statistics of each
 * segment's best reference give its sentence score and are summed for the corpus score. The same
 * numbers as {@link corpusChrf} (references laid out as streams without gaps) and
 * {@link sentenceChrf} per segment, for half the work.
 *
 * Parity: `corpus` equals sacrebleu 2.6.0 `corpus_chrf` and `segments[i]` `sentence_chrf`
 * (bit-for-bit the values of {@link corpusChrf} and {@link sentenceChrf}).
 *
 * @param candidates one string per segment (non-empty array)
 * @param references per segment, a non-empty array of reference strings (as long as `candidates`)
 * @param options see {@link ChrfOptions}
 * @throws MetricInputError for a non-string candidate or reference, a `references` array of the
 *   wrong length, a segment without references, or a bad option
 * @example
 * const { corpus, segments } = chrfSegments(['abcdefg', 'abc'], [['hijklmnop'], ['abc', 'x']], { beta: 3 })
 * segments[0]!.value // → 0
 * segments[1]!.details.bestReference // → 0
 * corpus.details.bestReferences // → [0, 0]
 */
export function chrfSegments(candidates: readonly string[], references: ReadonlyArray<readonly string[]>, options?: ChrfOptions): ChrfSegments {
  const fn = 'chrfSegments'
  checkSegmentArgs(fn, candidates, references)
  const r = resolveChrfOptions(fn, options, CHRF_OPTION_KEYS)
  const sums = new Array<number>(3 * (r.charOrder + r.wordOrder)).fill(0)
  const bestReferences: number[] = []
  const refCounts = new Set<number>()
  // Sentence scores are built on first read: a passing set assertion never shows them.
  const builders: Array<() => ChrfScore> = []
  // every segment's signature comes from the same settings: built once per reference count
  const signatures = new Map<number | 'var' | undefined, string>()
  for (let i = 0; i < candidates.length; i++) {
    const refs = references[i]!
    refCounts.add(refs.length)
    const { stats, best } = segmentStats(candidates[i]!, refs, r)
    bestReferences.push(best)
    for (let j = 0; j < stats.length; j++) sums[j]! += stats[j]!
    builders.push(() => scoreFromStats(stats, r, refs.length, { bestReference: best }, signatures))
  }
  const nrefs = refCounts.size === 1 ? [...refCounts][0]! : 'var'
  return lazySegments(scoreFromStats(sums, r, nrefs, { bestReferences }), builders)
}

/**
 * chrF statistics of one segment: `[hyp, ref, match]` per order (character orders 1…C, then word
 * orders 1…W) for the reference with the highest sentence-level F (first on ties). Summing these
 * over segments and passing the sum to {@link chrfFromStats} gives {@link corpusChrf}.
 *
 * Parity: sacrebleu 2.6.0 `CHRF._extract_corpus_statistics` for one segment.
 *
 * @param candidate the generated text
 * @param references one reference or a non-empty array of them
 * @param options see {@link ChrfOptions}
 * @throws MetricInputError as {@link sentenceChrf}
 * @example
 * chrfStats('ab', 'abc', { charOrder: 2 }) // → [2, 3, 2, 1, 2, 1]
 */
export function chrfStats(candidate: string, references: string | readonly string[], options?: ChrfOptions): number[] {
  const fn = 'chrfStats'
  const refs = checkSentenceArgs(fn, candidate, references)
  return segmentStats(candidate, refs, resolveChrfOptions(fn, options, CHRF_OPTION_KEYS)).stats
}

/**
 * chrF from (summed) statistics, see {@link sentenceChrf} for the formula. The vector length must be
 * `3 · (charOrder + wordOrder)`.
 *
 * Parity: sacrebleu 2.6.0 `CHRF._compute_f_score`.
 *
 * @param stats `[hyp, ref, match]` per order (non-negative finite numbers)
 * @param options see {@link ChrfFromStatsOptions}
 * @throws MetricInputError for a vector of the wrong length or with negative or non-finite entries, or a bad option
 * @example
 * chrfFromStats([2, 3, 2, 1, 2, 1], { charOrder: 2 }).value // → 63.636363636363626
 */
export function chrfFromStats(stats: readonly number[], options?: ChrfFromStatsOptions): ChrfScore {
  const fn = 'chrfFromStats'
  const r = resolveChrfOptions(fn, options, CHRF_FROM_STATS_OPTION_KEYS)
  const expected = 3 * (r.charOrder + r.wordOrder)
  if (!Array.isArray(stats) || stats.length !== expected || !stats.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0)) {
    throw new MetricInputError(fn, 'stats', `an array of ${expected} non-negative finite numbers ([hyp, ref, match] per order)`, stats)
  }
  const nrefs = options?.nrefs
  if (nrefs !== undefined && nrefs !== 'var' && !(typeof nrefs === 'number' && Number.isInteger(nrefs) && nrefs > 0)) {
    throw new MetricInputError(fn, 'options.nrefs', "a positive integer or 'var'", nrefs)
  }
  return scoreFromStats(stats.slice(), r, nrefs, {})
}

// ---------------------------------------------------------------------------------------------

/** Validates `(candidates, references)` of {@link chrfSegments}: per segment, a non-empty array of strings. */

const EPS = 1e-16

/**
 * sacrebleu `CHRF._compute_f_score`, with the float operations in its order. `float32`: the statistics
 * are numpy float32 (bootstrap resamples), so each `n_match / n_hyp` and `n_match / n_ref` is a
 * float32 quotient (`Math.fround` of the double quotient is that quotient: double rounding is
 * harmless for division at 53 ≥ 2·24 + 2 bits); everything after it mixes with Python floats and is double.
 */
function fScore(stats: readonly number[], r: ResolvedChrf, float32 = false): { score: number; precision: number; recall: number; effectiveOrder: number } {
  const order = r.charOrder + r.wordOrder
  const factor = r.beta * r.beta
  let score = 0
  let effectiveOrder = 0
  let avgPrec = 0
  let avgRec = 0
  for (let i = 0; i < order; i++) {
    const nHyp = stats[3 * i]!
    const nRef = stats[3 * i + 1]!
    const nMatch = stats[3 * i + 2]!
    const prec = nHyp > 0 ? (float32 ? Math.fround(nMatch / nHyp) : nMatch / nHyp) : EPS
    const rec = nRef > 0 ? (float32 ? Math.fround(nMatch / nRef) : nMatch / nRef) : EPS
    const denom = factor * prec + rec
    score += denom > 0 ? ((1 + factor) * prec * rec) / denom : EPS
    if (nHyp > 0 && nRef > 0) {
      avgPrec += prec
      avgRec += rec
      effectiveOrder++
    }
  }
  if (effectiveOrder === 0) {
    avgPrec = 0
    avgRec = 0
  } else {
    avgPrec /= effectiveOrder
    avgRec /= effectiveOrder
  }
  if (r.epsSmoothing) return { score: (100 * score) / order, precision: avgPrec, recall: avgRec, effectiveOrder }
  if (avgPrec + avgRec === 0) return { score: 0, precision: avgPrec, recall: avgRec, effectiveOrder }
  let s = (1 + factor) * avgPrec * avgRec
  s /= factor * avgPrec + avgRec
  return { score: 100 * s, precision: avgPrec, recall: avgRec, effectiveOrder }
}

function scoreFromStats(
  stats: number[],
  r: ResolvedChrf,
  nrefs: number | 'var' | undefined,
  extra: { bestReference?: number; bestReferences?: number[]; bootstrap?: BootstrapEstimate },
  signatures?: Map<number | 'var' | undefined, string>,
): ChrfScore {
  const f = fScore(stats, r)
  const orders: ChrfOrderStats[] = []
  for (let i = 0; i < r.charOrder + r.wordOrder; i++) {
    const hyp = stats[3 * i]!
    const ref = stats[3 * i + 1]!
    const match = stats[3 * i + 2]!
    const isChar = i < r.charOrder
    orders.push({
      kind: isChar ? 'char' : 'word',
      n: isChar ? i + 1 : i - r.charOrder + 1,
      hyp,
      ref,
      match,
      precision: hyp > 0 ? match / hyp : null,
      recall: ref > 0 ? match / ref : null,
    })
  }
  const details: ChrfDetails = { stats, orders, precision: f.precision, recall: f.recall, effectiveOrder: f.effectiveOrder, ...extra }
  // the defaults are resolved once, so their signatures can be remembered per reference count
  const known = signatures ?? r.signatures
  let signature = known?.get(nrefs)
  if (signature === undefined) {
    signature = chrfSignature(r, nrefs)
    known?.set(nrefs, signature)
  }
  return makeScore(chrfName(r), f.score, signature, details)
}

function chrfName(r: ResolvedChrf): string {
  return `chrF${r.beta}${'+'.repeat(r.wordOrder)}`
}

function chrfSignature(r: ResolvedChrf, nrefs: number | 'var' | undefined, extra: ReadonlyArray<readonly [string, SignatureValue]> = []): string {
  return buildSignature(chrfName(r), [
    ['nrefs', nrefs],
    ...extra,
    ['case', r.lowercase ? 'lc' : 'mixed'],
    ['eff', !r.epsSmoothing],
    ['nc', r.charOrder],
    ['nw', r.wordOrder],
    ['space', r.keepWhitespace],
  ])
}

/** Appends the code points of `text` to {@link grams} as ids, Python whitespace dropped unless `keepWhitespace`. */
function appendCharIds(text: string, keepWhitespace: boolean): void {
  // at most one id per UTF-16 unit; the unused tail is given back below
  const at = grams.append(text.length)
  const out = grams.tokens
  const len = text.length
  let k = at
  for (let i = 0; i < len; i++) {
    let code = text.charCodeAt(i)
    // combine a surrogate pair into one code point: chrF counts Python characters
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < len) {
      const low = text.charCodeAt(i + 1)
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = (code - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000
        i++
      }
    }
    if (!keepWhitespace && pyIsSpaceCode(code)) continue
    out[k++] = charIds.id(code)
  }
  grams.shrinkLast(k - at)
}

const ASCII_PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')

/** sacrebleu `CHRF._remove_punctuation`: one ASCII punctuation character split off each end-word. */
function chrfWords(text: string): string[] {
  const out: string[] = []
  for (const w of pySplit(text)) {
    // Python's len(w) == 1 counts code points: a lone astral character is one
    if (w.length === 1 || (w.length === 2 && w.codePointAt(0)! > 0xffff)) {
      out.push(w)
    } else if (ASCII_PUNCTUATION.has(w[w.length - 1]!)) {
      out.push(w.slice(0, -1), w[w.length - 1]!)
    } else if (ASCII_PUNCTUATION.has(w[0]!)) {
      out.push(w[0]!, w.slice(1))
    } else {
      out.push(w)
    }
  }
  return out
}

// Tables reused across calls (reset before each use); everything here is synchronous.
const charIds = new CodePointInterner()
const grams = new DenseNgrams()
const refCountScratch = new ZeroedCounts()

/**
 * Statistics of one candidate against each reference; keeps the best reference's
 * (sacrebleu `CHRF._compute_segment_statistics`).
 */
function segmentStats(candidate: string, references: readonly string[], r: ResolvedChrf): { stats: number[]; best: number } {
  checkTextLength('chrF', 'each candidate and reference', candidate, r.maxTokens)
  for (const reference of references) checkTextLength('chrF', 'each candidate and reference', reference, r.maxTokens)
  const hyp = r.lowercase ? pyLower(candidate) : candidate
  const refs = r.lowercase ? references.map(pyLower) : references
  const order = r.charOrder + r.wordOrder
  const perRef = refs.map(() => new Array<number>(3 * order).fill(0))

  if (r.charOrder > 0) {
    let units = hyp.length
    for (const ref of refs) units += ref.length
    charIds.reset()
    grams.reset(units)
    appendCharIds(hyp, r.keepWhitespace)
    for (const ref of refs) appendCharIds(ref, r.keepWhitespace)
    grams.start(charIds.size)
    fillOrders(perRef, 0, r.charOrder)
  }
  if (r.wordOrder > 0) {
    const words = new Interner<string>()
    const sequences = [words.intern(chrfWords(hyp)), ...refs.map((ref) => words.intern(chrfWords(ref)))]
    let total = 0
    for (const seq of sequences) total += seq.length
    grams.reset(total)
    for (const seq of sequences) grams.appendIds(seq)
    grams.start(words.size)
    fillOrders(perRef, r.charOrder, r.wordOrder)
  }

  let best = 0
  let bestF = -1
  for (let j = 0; j < perRef.length; j++) {
    const f = fScore(perRef[j]!, r).score
    if (f > bestF) {
      bestF = f
      best = j
    }
  }
  return { stats: perRef[best]!, best }
}

/**
 * `[hyp, ref, match]` of orders 1…`maxOrder` for each reference, written at order index `offset`
 * onwards; {@link grams} holds the candidate (sequence 0) and the references.
 */
function fillOrders(perRef: number[][], offset: number, maxOrder: number): void {
  if (perRef.length === 1) {
    fillOrdersOneRef(perRef[0]!, offset, maxOrder)
    return
  }
  for (let n = 1; n <= maxOrder; n++) {
    if (n > 1) grams.advance()
    const keys = grams.keys
    const hypFrom = grams.from(0)
    const hypLen = grams.length(0)
    const at = 3 * (offset + n - 1)
    for (let j = 0; j < perRef.length; j++) {
      const refFrom = grams.from(j + 1)
      const refLen = grams.length(j + 1)
      const stats = perRef[j]!
      // sacrebleu: the candidate's n-grams are not counted when the reference has none of this order
      stats[at] = refLen > 0 ? hypLen : 0
      stats[at + 1] = refLen
      stats[at + 2] = refLen > 0 && hypLen > 0 ? clippedMatches(keys, hypFrom, hypLen, refFrom, refLen, grams.size) : 0
    }
  }
}

/** {@link fillOrders} for the common single reference: numbering and matching in one pass per order. */
function fillOrdersOneRef(stats: number[], offset: number, maxOrder: number): void {
  for (let n = 1; n <= maxOrder; n++) {
    const matches = n > 1 ? grams.advanceMatching() : grams.matches()
    const hypLen = grams.length(0)
    const refLen = grams.length(1)
    const at = 3 * (offset + n - 1)
    // sacrebleu: the candidate's n-grams are not counted when the reference has none of this order
    stats[at] = refLen > 0 ? hypLen : 0
    stats[at + 1] = refLen
    stats[at + 2] = matches
  }
}

/** `Σ_g min(count_cand(g), count_ref(g))` for the ids at `keys[hypFrom…]` and `keys[refFrom…]`. */
function clippedMatches(keys: Int32Array, hypFrom: number, hypLen: number, refFrom: number, refLen: number, size: number): number {
  const remaining = refCountScratch.zeroed(size)
  for (let i = refFrom; i < refFrom + refLen; i++) remaining[keys[i]!]!++
  let matches = 0
  for (let i = hypFrom; i < hypFrom + hypLen; i++) {
    const key = keys[i]!
    if (remaining[key]! > 0) {
      remaining[key]!--
      matches++
    }
  }
  return matches
}

/** The default settings, resolved once. */
const DEFAULTS: ResolvedChrf = { ...resolveChrfOptions('sentenceChrf', {}, CHRF_OPTION_KEYS), signatures: new Map() }

function resolveChrfOptions(fn: string, options: ChrfOptions | undefined, knownKeys: readonly string[]): ResolvedChrf {
  // (the constant itself is built with `{}`, so this never reads it before it exists)
  if (options === undefined || options === null) return DEFAULTS
  if (typeof options !== 'object' || Array.isArray(options)) throw new MetricInputError(fn, 'options', 'an options object', options)
  checkOptionKeys(fn, options, knownKeys)
  const { charOrder = 6, wordOrder = 0, beta = 2, epsSmoothing = false, lowercase = false, keepWhitespace = false } = options
  const isOrder = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x <= 64
  if (!isOrder(charOrder)) throw new MetricInputError(fn, 'options.charOrder', 'an integer from 0 to 64', charOrder)
  if (!isOrder(wordOrder)) throw new MetricInputError(fn, 'options.wordOrder', 'an integer from 0 to 64', wordOrder)
  if (charOrder + wordOrder === 0) throw new MetricInputError(fn, 'options.charOrder', 'positive when wordOrder is 0', charOrder)
  if (typeof beta !== 'number' || !Number.isFinite(beta) || beta < 0) throw new MetricInputError(fn, 'options.beta', 'a non-negative finite number', beta)
  if (typeof epsSmoothing !== 'boolean') throw new MetricInputError(fn, 'options.epsSmoothing', 'a boolean', epsSmoothing)
  if (typeof lowercase !== 'boolean') throw new MetricInputError(fn, 'options.lowercase', 'a boolean', lowercase)
  if (typeof keepWhitespace !== 'boolean') throw new MetricInputError(fn, 'options.keepWhitespace', 'a boolean', keepWhitespace)
  const maxTokens = resolveMaxTokens(fn, options.maxTokens, DEFAULT_MAX_TOKENS)
  return { charOrder, wordOrder, beta, epsSmoothing, lowercase, keepWhitespace, maxTokens }
}
