import { MetricInputError } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import { checkOptionKeys } from '../../options.js'
import { buildSignature, type SignatureValue } from '../../signature.js'
import { pyIsSpaceCode, pyRstrip } from '../../text/python-string.js'
import { checkCorpusArgs, checkSegmentArgs, checkSentenceArgs, type CorpusReferences } from '../sacrebleu-args.js'
import { bootstrapCorpus, bootstrapEntries, bootstrapOptions, type BootstrapEstimate } from '../significance/bootstrap.js'
import type { SignificanceKernel } from '../significance/kernel.js'
import { checkTokenCount, resolveMaxTokens } from '../input-limits.js'
import { asciiLower, HASH_SEED, hashStep, hashText, TokenTable } from '../token-table.js'
import { EditMatrix } from './edit-distance.js'
import { bestShift, MAX_SHIFT_CANDIDATES, performShift, ShiftScratch } from './shifts.js'
import { tokensTercom, type TercomSettings } from './tokenizer-tercom.js'

/** Options of {@link sentenceTer} and {@link corpusTer} (sacrebleu's `TER(...)` arguments). */
export interface TerOptions {
  /** Tercom normalisation: unescape XML entities, split punctuation, `'s`, numbers (sacrebleu `normalized`). @default false */
  readonly normalized?: boolean
  /** Delete `.,?:;!"()` (and CJK/full-width punctuation with `asianSupport`) (sacrebleu `no_punct`). @default false */
  readonly noPunct?: boolean
  /** Split CJK characters and punctuation; the splitting needs `normalized` (sacrebleu `asian_support`). @default false */
  readonly asianSupport?: boolean
  /** Compare case-sensitively; otherwise both sides are lower-cased (sacrebleu `case_sensitive`). @default false */
  readonly caseSensitive?: boolean
  /**
   * The most TER tokens the candidate or any reference may have; more is a MetricInputError, raised
   * before any alignment. TER's edit matrices have (|cand|+1)·(|ref|+1) cells (8 bytes each) and its
   * shift search grows with the product too, so this bounds both memory and time. `Infinity` lifts it.
   * @default 5000 ({@link DEFAULT_MAX_TER_TOKENS})
   */
  readonly maxTokens?: number
}

/** The keys of {@link TerOptions}. */
export const TER_OPTION_KEYS = keysOf<TerOptions>()('normalized', 'noPunct', 'asianSupport', 'caseSensitive', 'maxTokens')

/**
 * Default `maxTokens` of TER: two 5,000-token texts need 2 · 5001² · 4 bytes ≈ 200 MB of edit
 * matrices and a few seconds (bench/long-inputs.mjs); 20,000 tokens took 29 s and 3.3 GB, 200,000
 * could not allocate at all.
 */
export const DEFAULT_MAX_TER_TOKENS = 5_000

/** {@link corpusTer} options: the TER options plus sacrebleu's bootstrap confidence interval. */
export interface CorpusTerOptions extends TerOptions {
  /**
   * Resample count (≥ 2) for a 95% bootstrap confidence interval, sacrebleu `corpus_score(..., n_bootstrap=N)`;
   * the result then carries `bootstrap` and the signature `bs:N|seed:S`. Unset: no resampling.
   */
  readonly nBootstrap?: number
  /**
   * Seed of numpy's `default_rng` for the resamples (only with `nBootstrap`); `null` = unseeded.
   * @default the `SACREBLEU_SEED` environment variable, else 12345
   */
  readonly seed?: number | null
}

/** The keys of {@link CorpusTerOptions}. */
export const CORPUS_TER_OPTION_KEYS = keysOf<CorpusTerOptions>()(...TER_OPTION_KEYS, 'nBootstrap', 'seed')

/** A sentence TER. */
export interface TerScore {
  /** `100 · numEdits / refLength` on sacrebleu's 0–100 scale (can exceed 100); lower is better. */
  readonly score: number
  /** Shifts plus word insertions, deletions and substitutions against the closest reference. */
  readonly numEdits: number
  /** The AVERAGE reference length in words (sacrebleu's rule, not the best reference's length). */
  readonly refLength: number
  /** Index of the reference with the fewest edits (the first on ties). */
  readonly bestReference: number
  /** `TER|nrefs:…|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:…` */
  readonly signature: string
}

/** A corpus TER: edits and average reference lengths summed over segments. */
export interface CorpusTerScore {
  /** `100 · numEdits / refLength` over the summed statistics; lower is better. */
  readonly score: number
  readonly numEdits: number
  readonly refLength: number
  /** Per segment, the stream index of the reference with the fewest edits (the first on ties). */
  readonly bestReference: number[]
  /** As {@link TerScore.signature}; `nrefs:var` when segments have different reference counts. */
  readonly signature: string
  /** With `nBootstrap`: sacrebleu's `μ = mean ± ci` over the resamples. */
  readonly bootstrap?: BootstrapEstimate
}

/** One segment's sufficient statistics and its closest reference. */
export interface TerSegmentStats {
  readonly numEdits: number
  readonly refLength: number
  /** Index into the segment's references. */
  readonly bestReference: number
}

/** The Tercom settings and the token limit. */
interface ResolvedTer extends TercomSettings {
  readonly maxTokens: number
}

const DEFAULTS: ResolvedTer = { normalized: false, noPunct: false, asianSupport: false, caseSensitive: false, maxTokens: DEFAULT_MAX_TER_TOKENS }
/** The keys of {@link TerOptions} that are Tercom tokenizer switches (all but `maxTokens`). */
export const TERCOM_SETTING_KEYS = ['normalized', 'noPunct', 'asianSupport', 'caseSensitive'] as const

function resolveTerOptions(fn: string, options: unknown, keys: readonly string[] = TER_OPTION_KEYS): ResolvedTer {
  if (options === undefined || options === null) return DEFAULTS
  if (typeof options !== 'object' || Array.isArray(options)) throw new MetricInputError(fn, 'options', 'an options object', options)
  checkOptionKeys(fn, options, keys)
  const o = options as TerOptions
  const out: Record<keyof TercomSettings, boolean> = { ...DEFAULTS }
  for (const key of TERCOM_SETTING_KEYS) {
    const value: unknown = o[key]
    if (value === undefined) continue
    if (typeof value !== 'boolean') throw new MetricInputError(fn, `options.${key}`, 'a boolean', value)
    out[key] = value
  }
  return { ...out, maxTokens: resolveMaxTokens(fn, o.maxTokens, DEFAULT_MAX_TER_TOKENS) }
}

/** Why TER's inputs are limited, for the limit's message. */
const TER_LIMIT_REASON = 'for TER, whose edit matrices have (|candidate|+1)·(|reference|+1) cells'

function terSignature(s: TercomSettings, nrefs: number | 'var', extra: ReadonlyArray<readonly [string, SignatureValue]> = []): string {
  return buildSignature('TER', [
    ['nrefs', nrefs],
    ...extra,
    ['case', s.caseSensitive ? 'mixed' : 'lc'],
    ['tok', 'tercom'],
    ['norm', s.normalized],
    ['punct', !s.noPunct],
    ['asian', s.asianSupport],
  ])
}

/**
 * sacrebleu's score rule: edits per reference word ×100; 100 for edits against empty references, 0 when
 * both are empty. `float32`: the sums are float32 (bootstrap resamples), so is their quotient, and numpy
 * 1.24 then multiplies by 100 in double.
 */
function scoreOf(numEdits: number, refLength: number, float32 = false): number {
  if (refLength > 0) return 100 * (float32 ? Math.fround(numEdits / refLength) : numEdits / refLength)
  return numEdits > 0 ? 100 : 0
}

/**
 * Word ids shared by all TER calls: only equality within a segment matters, so any consistent
 * numbering does, and a shared table lets the ASCII scan find a word without slicing it out.
 * Bounded: replaced by a fresh table between segments once it holds this many words.
 */
const VOCABULARY_LIMIT = 200_000
let vocabulary = new TokenTable()

function wordId(word: string, h: number): number {
  const id = vocabulary.find(word, h)
  return id >= 0 ? id : vocabulary.add(word, h)
}

/** The ids of a side's TER tokens, in `buffer`. */
function tokenIds(text: string, s: TercomSettings, buffer: IdBuffer): Int32Array {
  if (!s.normalized && !s.noPunct && !s.caseSensitive) {
    // at most one token per two characters (plus one)
    const out = buffer.room((text.length >>> 1) + 1)
    const count = asciiLowerIds(text, out)
    if (count !== undefined) return out.subarray(0, count)
  }
  const words = terTokens(text, s)
  const out = buffer.room(words.length)
  for (let i = 0; i < words.length; i++) out[i] = wordId(words[i]!, hashText(words[i]!))
  return out.subarray(0, words.length)
}

/**
 * The default settings' tokens of an ASCII text (Python `lower()` then `split()`, which for ASCII
 * are `toLowerCase` and splitting on \t \n \v \f \r, U+001C–U+001F and space) in one scan;
 * undefined at the first non-ASCII character.
 */
function asciiLowerIds(text: string, out: Int32Array): number | undefined {
  let count = 0
  let start = -1
  let h = HASH_SEED
  for (let at = 0; at <= text.length; at++) {
    const c = at < text.length ? text.charCodeAt(at) : 32
    if (c > 0x7f) return undefined
    if (pyIsSpaceCode(c)) {
      if (start >= 0) {
        const id = vocabulary.findAsciiLower(text, start, at, h)
        out[count++] = id >= 0 ? id : vocabulary.add(text.slice(start, at).toLowerCase(), h)
        start = -1
      }
    } else {
      if (start < 0) {
        start = at
        h = HASH_SEED
      }
      h = hashStep(h, asciiLower(c))
    }
  }
  return count
}

/**
 * An id buffer reused across calls (a fresh typed array per text cost more than tokenizing it).
 * The views it hands out are valid until its next use; translationEditRate copies what it keeps.
 * Needs past KEPT_IDS get arrays of their own, so what stays allocated is bounded.
 */
class IdBuffer {
  private buffer = new Int32Array(256)

  /** A buffer of at least `size` ids. */
  room(size: number): Int32Array {
    if (this.buffer.length >= size) return this.buffer
    const fresh = new Int32Array(Math.max(size, 2 * this.buffer.length))
    if (fresh.length <= KEPT_IDS) this.buffer = fresh
    return fresh
  }
}

const KEPT_IDS = 1 << 16
// the hypothesis' ids stay in use while each reference is scored, so they need their own
const hypBuffer = new IdBuffer()
const refBuffer = new IdBuffer()

/** Buffers of one TER computation. */
interface Workspace {
  readonly base: EditMatrix
  readonly shifts: ShiftScratch
  words: Int32Array
  next: Int32Array
}

function newWorkspace(): Workspace {
  return { base: new EditMatrix(), shifts: new ShiftScratch(), words: new Int32Array(0), next: new Int32Array(0) }
}

// Reused across calls: TER is synchronous and never re-entered, and the buffers carry no results
// from one call to the next, only memory. Inputs larger than this many matrix cells get buffers
// of their own, so what stays allocated is bounded (about 0.6 MB).
const KEPT_CELLS = 1 << 16
const shared = newWorkspace()

/**
 * TER edits of a tokenized hypothesis against one tokenized reference (sacrebleu
 * `translation_edit_rate`): repeat the best block shift while it lowers the edit distance (and the
 * budget of evaluated shifts is not used up), then count shifts + the remaining distance. An empty
 * reference costs one edit per hypothesis word.
 */
export function translationEditRate(hyp: Int32Array, ref: Int32Array): number {
  const n = hyp.length
  const m = ref.length
  if (m === 0) return n
  const ws = (n + 1) * (m + 1) <= KEPT_CELLS ? shared : newWorkspace()
  if (ws.words.length < n) {
    ws.words = new Int32Array(n)
    ws.next = new Int32Array(n)
  }
  let words = ws.words.subarray(0, n)
  let next = ws.next.subarray(0, n)
  words.set(hyp)
  const { base, shifts } = ws
  base.reset(ref, n)
  shifts.reset(n, m)
  shifts.indexReference(ref)
  base.fill(words, 0, n)
  let edits = 0
  let checked = 0
  for (;;) {
    const round = bestShift(words, ref, base, shifts, checked)
    checked = round.checked
    // sacrebleu stops as soon as the budget is spent, without applying that round's shift
    if (checked >= MAX_SHIFT_CANDIDATES || round.gain <= 0) break
    edits++
    performShift(words, round.start, round.length, round.target, next)
    let same = 0
    while (same < n && next[same] === words[same]) same++
    let end = n
    while (end > same && next[end - 1] === words[end - 1]) end--
    const previous = words
    words = next
    next = previous
    base.fill(words, same, end)
  }
  return edits + base.distance()
}

/** TER's tokens of one side: `rstrip()`, then the Tercom tokenizer. */
function terTokens(text: string, s: TercomSettings): string[] {
  // Trailing whitespace matters only to the normaliser (padding, `'s` at the end); otherwise the
  // final split drops it anyway, so the strip is skipped.
  return tokensTercom(s.normalized ? pyRstrip(text) : text, s)
}

/** The statistics of one segment from its raw strings (sacrebleu `_compute_segment_statistics`). */
function segmentStats(hypothesis: string, references: readonly string[], s: ResolvedTer): TerSegmentStats {
  if (vocabulary.size >= VOCABULARY_LIMIT) vocabulary = new TokenTable()
  const hyp = tokenIds(hypothesis, s, hypBuffer)
  // tokenizing is linear; the limit is checked before any alignment (whose cost is the product)
  checkTokenCount('TER', 'each candidate and reference', hyp.length, s.maxTokens, TER_LIMIT_REASON)
  for (const reference of references) {
    // every reference before the first alignment; a text has at most one token per two characters
    // (per character once the normaliser splits punctuation and CJK), so short ones need no count
    if (reference.length > (s.normalized ? 1 : 2) * s.maxTokens) {
      checkTokenCount('TER', 'each candidate and reference', tokenIds(reference, s, refBuffer).length, s.maxTokens, TER_LIMIT_REASON)
    }
  }
  let best = -1
  let bestReference = 0
  let lengths = 0
  for (let k = 0; k < references.length; k++) {
    const ref = tokenIds(references[k]!, s, refBuffer)
    checkTokenCount('TER', 'each candidate and reference', ref.length, s.maxTokens, TER_LIMIT_REASON)
    const edits = translationEditRate(hyp, ref)
    lengths += ref.length
    if (best < 0 || edits < best) {
      best = edits
      bestReference = k
    }
  }
  return { numEdits: best, refLength: lengths / references.length, bestReference }
}

/**
 * Sentence-level TER (translation edit rate) of one candidate against one or more references,
 * exactly as sacrebleu 2.6.0 `TER(...).sentence_score(hypothesis, references)`.
 *
 * Each side: Python `rstrip()`, the Tercom tokenizer (lower-cased unless `caseSensitive`; see
 * {@link TerOptions}), split on spaces. Per reference: the fewest word edits (insertion, deletion,
 * substitution, and a shift of a block of up to 10 words moved at most 50 positions, found greedily
 * with Tercom's ranking) to turn the candidate into it, with a beam of 25 around the diagonal.
 * `numEdits` is the minimum over references; `refLength` is the **average** reference length;
 * `score = 100 · numEdits / refLength`, 100 when the references are empty and the candidate is not,
 * 0 when both are empty. Lower is better; the score can exceed 100.
 *
 * Parity: equals sacrebleu 2.6.0 `score`, `num_edits` and `ref_length` on all 155 golden cases under
 * 9 option combinations (exact).
 *
 * @param candidate the generated text
 * @param references one reference or a non-empty array of them
 * @param options see {@link TerOptions}
 * @throws MetricInputError for a non-string candidate or reference, an empty reference array, or a bad option
 * @example
 * sentenceTer('The quick brown fox jumps over the dog lazy.', 'The quick brown fox jumps over the lazy dog.')
 * // → { score: 22.22222222222222, numEdits: 2, refLength: 9, bestReference: 0, signature: 'TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:0.1.0' }
 */
export function sentenceTer(candidate: string, references: string | readonly string[], options?: TerOptions): TerScore {
  const fn = 'sentenceTer'
  const refs = checkSentenceArgs(fn, candidate, references)
  const s = resolveTerOptions(fn, options)
  const stats = segmentStats(candidate, refs, s)
  return {
    score: scoreOf(stats.numEdits, stats.refLength),
    numEdits: stats.numEdits,
    refLength: stats.refLength,
    bestReference: stats.bestReference,
    signature: terSignature(s, refs.length),
  }
}

/**
 * Corpus-level TER, exactly as sacrebleu 2.6.0 `TER(...).corpus_score(hypotheses, referenceStreams)`:
 * each segment's edits (minimum over its references) and average reference length are summed, and
 * the score is computed once from the sums (not the mean of sentence scores).
 *
 * `referenceStreams[k][i]` is the k-th reference of segment i; `null` marks an absent reference
 * (the segment then averages over the ones it has, and the signature says `nrefs:var`), `''` is a
 * real, empty reference.
 *
 * With `nBootstrap: N` (and optionally `seed`), also sacrebleu's 95% bootstrap confidence interval:
 * `bootstrap = { mean, ci, nBootstrap, seed }` and `bs:N|seed:S` in the signature, the resamples scored
 * from float32 statistics as sacrebleu does.
 *
 * Parity: equals sacrebleu 2.6.0 on the 10 golden corpora under 9 option combinations, signature included;
 * with `nBootstrap`, every resample score, mean and interval of the recorded sacrebleu 2.6.0 / numpy 1.24
 * runs bit for bit (test/parity/fixtures/sacrebleu-extra/ter-significance.json).
 *
 * @param candidates one string per segment (non-empty array)
 * @param referenceStreams the reference streams (non-empty array of arrays of `string | null`)
 * @param options see {@link CorpusTerOptions}
 * @throws MetricInputError for a non-string candidate, a stream of the wrong length, an entry that is
 *   neither a string nor null, a segment with no reference, or a bad option
 * @example
 * corpusTer(['the cat sat on the mat', 'a dog'], [['the cat sat on a mat', 'the dog']]).score // → 25
 */
export function corpusTer(candidates: readonly string[], referenceStreams: ReadonlyArray<ReadonlyArray<string | null>>, options?: CorpusTerOptions): CorpusTerScore {
  const fn = 'corpusTer'
  const segments = checkCorpusArgs(fn, candidates, referenceStreams)
  const s = resolveTerOptions(fn, options, CORPUS_TER_OPTION_KEYS)
  const resampling = bootstrapOptions(fn, options)
  let numEdits = 0
  let refLength = 0
  const bestReference: number[] = []
  const perSegment: number[][] = []
  for (let i = 0; i < candidates.length; i++) {
    const stats = segmentStats(candidates[i]!, segments.refs(i), s)
    numEdits += stats.numEdits
    refLength += stats.refLength
    bestReference.push(segments.stream(i, stats.bestReference))
    if (resampling !== undefined) perSegment.push([stats.numEdits, stats.refLength])
  }
  const nrefs = segments.nrefs
  const score = scoreOf(numEdits, refLength)
  if (resampling === undefined) return { score, numEdits, refLength, bestReference, signature: terSignature(s, nrefs) }
  const { nBootstrap, seed } = resampling
  const run = bootstrapCorpus(perSegment, statsScore, nBootstrap, seed)
  const bootstrap: BootstrapEstimate = { mean: run.mean, ci: run.ci, nBootstrap, seed }
  return { score, numEdits, refLength, bestReference, signature: terSignature(s, nrefs, bootstrapEntries(nBootstrap, seed)), bootstrap }
}

/** The score of summed `[numEdits, refLength]` statistics. */
function statsScore(sums: number[], float32: boolean): number {
  return scoreOf(sums[0]!, sums[1]!, float32)
}

/**
 * TER for the significance tests (significance/paired.ts): per-segment `[numEdits, refLength]`, the
 * stats → score kernel and the signature under one resolution of `options`.
 * @throws MetricInputError for a bad option
 */
export function terSignificanceKernel(fn: string, options: TerOptions | undefined): SignificanceKernel {
  const s = resolveTerOptions(fn, options)
  return {
    name: 'TER',
    segmentStats: (candidates: readonly string[], segments: CorpusReferences) =>
      candidates.map((candidate, i) => {
        const stats = segmentStats(candidate, segments.refs(i), s)
        return [stats.numEdits, stats.refLength]
      }),
    score: statsScore,
    signature: (nrefs, extra) => terSignature(s, nrefs, extra),
  }
}

/**
 * Corpus TER and every segment's sentence TER from one pass (each segment tokenized and aligned
 * once). `references[i]` lists segment i's references. `corpus` equals {@link corpusTer} over the
 * same segments, `segments[i]` {@link sentenceTer}`(candidates[i], references[i])`.
 *
 * @throws MetricInputError as {@link corpusTer}
 */
export function terSegments(
  candidates: readonly string[],
  references: ReadonlyArray<readonly string[]>,
  options?: TerOptions,
): { corpus: CorpusTerScore; segments: TerScore[] } {
  const fn = 'terSegments'
  checkSegmentArgs(fn, candidates, references)
  const s = resolveTerOptions(fn, options)
  let numEdits = 0
  let refLength = 0
  const refCounts = new Set<number>()
  const segments: TerScore[] = []
  for (let i = 0; i < candidates.length; i++) {
    const refs = references[i]!
    refCounts.add(refs.length)
    const stats = segmentStats(candidates[i]!, refs, s)
    numEdits += stats.numEdits
    refLength += stats.refLength
    segments.push({ score: scoreOf(stats.numEdits, stats.refLength), ...stats, signature: terSignature(s, refs.length) })
  }
  const nrefs = refCounts.size === 1 ? [...refCounts][0]! : 'var'
  const corpus = { score: scoreOf(numEdits, refLength), numEdits, refLength, bestReference: segments.map((x) => x.bestReference), signature: terSignature(s, nrefs) }
  return { corpus, segments }
}
