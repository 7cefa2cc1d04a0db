import { MetricInputError } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import { checkOptionKeys } from '../../options.js'
import { buildSignature } from '../../signature.js'
import { pyRstrip } from '../../text/python-string.js'
import { checkCorpusArgs, checkSegmentArgs, checkSentenceArgs } from '../sacrebleu-args.js'
import { EditMatrix } from './edit-distance.js'
import { bestShift, MAX_SHIFT_CANDIDATES } from './shifts.js'
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
}

/** The keys of {@link TerOptions}. */
export const TER_OPTION_KEYS = keysOf<TerOptions>()('normalized', 'noPunct', 'asianSupport', 'caseSensitive')

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
}

/** One segment's sufficient statistics and its closest reference. */
export interface TerSegmentStats {
  readonly numEdits: number
  readonly refLength: number
  /** Index into the segment's references. */
  readonly bestReference: number
}

const DEFAULTS: TercomSettings = { normalized: false, noPunct: false, asianSupport: false, caseSensitive: false }

function resolveTerOptions(fn: string, options: unknown): TercomSettings {
  if (options === undefined || options === null) return DEFAULTS
  if (typeof options !== 'object' || Array.isArray(options)) throw new MetricInputError(fn, 'options', 'an options object', options)
  checkOptionKeys(fn, options, TER_OPTION_KEYS)
  const o = options as TerOptions
  const out: Record<keyof TercomSettings, boolean> = { ...DEFAULTS }
  for (const key of TER_OPTION_KEYS) {
    const value: unknown = o[key]
    if (value === undefined) continue
    if (typeof value !== 'boolean') throw new MetricInputError(fn, `options.${key}`, 'a boolean', value)
    out[key] = value
  }
  return out
}

function terSignature(s: TercomSettings, nrefs: number | 'var'): string {
  return buildSignature('TER', [
    ['nrefs', nrefs],
    ['case', s.caseSensitive ? 'mixed' : 'lc'],
    ['tok', 'tercom'],
    ['norm', s.normalized],
    ['punct', !s.noPunct],
    ['asian', s.asianSupport],
  ])
}

/** sacrebleu's score rule: edits per reference word ×100; 100 for edits against empty references, 0 when both are empty. */
function scoreOf(numEdits: number, refLength: number): number {
  if (refLength > 0) return 100 * (numEdits / refLength)
  return numEdits > 0 ? 100 : 0
}

/** Word ids for one segment: equal words get equal ids. */
function intern(words: readonly string[], ids: Map<string, number>): Int32Array {
  const out = new Int32Array(words.length)
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!
    let id = ids.get(w)
    if (id === undefined) {
      id = ids.size
      ids.set(w, id)
    }
    out[i] = id
  }
  return out
}

/**
 * TER edits of a tokenized hypothesis against one tokenized reference (sacrebleu
 * `translation_edit_rate`): repeat the best block shift while it lowers the edit distance (and the
 * budget of evaluated shifts is not used up), then count shifts + the remaining distance. An empty
 * reference costs one edit per hypothesis word.
 */
export function translationEditRate(hyp: Int32Array, ref: Int32Array): number {
  const n = hyp.length
  if (ref.length === 0) return n
  const base = new EditMatrix(ref, n)
  base.fill(hyp, 0)
  const scratch = new EditMatrix(ref, n)
  let words = hyp
  let shifts = 0
  let checked = 0
  for (;;) {
    const round = bestShift(words, ref, base, scratch, checked)
    checked = round.checked
    // sacrebleu stops as soon as the budget is spent, without applying that round's shift
    if (checked >= MAX_SHIFT_CANDIDATES || round.gain <= 0) break
    shifts++
    let same = 0
    while (same < n && round.words[same] === words[same]) same++
    words = round.words
    base.fill(words, same)
  }
  return shifts + base.distance()
}

/** The statistics of one segment from its raw strings (sacrebleu `_compute_segment_statistics`). */
function segmentStats(hypothesis: string, references: readonly string[], s: TercomSettings): TerSegmentStats {
  const ids = new Map<string, number>()
  const hyp = intern(tokensTercom(pyRstrip(hypothesis), s), ids)
  let best = -1
  let bestReference = 0
  let lengths = 0
  for (let k = 0; k < references.length; k++) {
    const ref = intern(tokensTercom(pyRstrip(references[k]!), s), ids)
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
 * Parity: equals sacrebleu 2.6.0 on the 10 golden corpora under 9 option combinations, signature included.
 *
 * @param candidates one string per segment (non-empty array)
 * @param referenceStreams the reference streams (non-empty array of arrays of `string | null`)
 * @param options see {@link TerOptions}
 * @throws MetricInputError for a non-string candidate, a stream of the wrong length, an entry that is
 *   neither a string nor null, a segment with no reference, or a bad option
 * @example
 * corpusTer(['the cat sat on the mat', 'a dog'], [['the cat sat on a mat', 'the dog']]).score // → 25
 */
export function corpusTer(candidates: readonly string[], referenceStreams: ReadonlyArray<ReadonlyArray<string | null>>, options?: TerOptions): CorpusTerScore {
  const fn = 'corpusTer'
  const segments = checkCorpusArgs(fn, candidates, referenceStreams)
  const s = resolveTerOptions(fn, options)
  let numEdits = 0
  let refLength = 0
  const bestReference: number[] = []
  const refCounts = new Set<number>()
  for (let i = 0; i < candidates.length; i++) {
    const seg = segments[i]!
    refCounts.add(seg.refs.length)
    const stats = segmentStats(candidates[i]!, seg.refs, s)
    numEdits += stats.numEdits
    refLength += stats.refLength
    bestReference.push(seg.streams[stats.bestReference]!)
  }
  const nrefs = refCounts.size === 1 ? [...refCounts][0]! : 'var'
  return { score: scoreOf(numEdits, refLength), numEdits, refLength, bestReference, signature: terSignature(s, nrefs) }
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
