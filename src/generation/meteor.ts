/**
 * METEOR with NLTK 3.8 parity (`nltk.translate.meteor_score.meteor_score`), WordNet 3.0 synonyms.
 *
 * Written from the algorithm's description (golden README §5c), not ported: NLTK's matching order,
 * its stem-then-synonym quirk and its zero conventions are reproduced because they change numbers.
 */
import { denseArray } from '../dense-array.js'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import { pyLower } from '../text/python-lower.js'
import { pySplit } from '../text/python-string.js'
import { checkTextLength, checkTokenCount, DEFAULT_MAX_TOKENS, resolveMaxTokens } from './input-limits.js'
import { LazyMeteorDetails, type MeteorAlignment, type MeteorDetails, type MeteorMatch, type MeteorNumbers, type MeteorStage, type SnapshotTokens } from './meteor-details.js'
import { STEM_STAGE, SYNONYM_STAGE } from './meteor-kernel.js'
import { alignKernel, intern, splitKernel, splitLowerAscii, startMeteorCall, stemOf, synonymsOf, vocabularyFirstId, vocabularyPlaces, type Token } from './meteor-words.js'
import type { WordKernel } from './word-kernel.js'

export interface MeteorOptions {
  /** Weight of precision against recall in the harmonic mean. @default 0.9 */
  readonly alpha?: number
  /** Exponent of the fragmentation penalty. @default 3 */
  readonly beta?: number
  /** Maximum penalty. @default 0.5 */
  readonly gamma?: number
  /** Run the WordNet 3.0 synonym stage. @default true */
  readonly synonyms?: boolean
  /** Run the Porter (NLTK_EXTENSIONS) stem stage; when off, the synonym stage sees the unstemmed words. @default true */
  readonly stemmer?: boolean
  /**
   * The most tokens (`str.split()` words) the candidate or any reference may have; more is a
   * MetricInputError. The alignment is linear in the lengths, so this only guards memory.
   * `Infinity` turns the check off. @default 1000000
   */
  readonly maxTokens?: number
}

/** The keys of {@link MeteorOptions}: what meteorScore and singleMeteorScore accept. */
export const METEOR_OPTION_KEYS = keysOf<MeteorOptions>()('alpha', 'beta', 'gamma', 'synonyms', 'stemmer', 'maxTokens')

// the result types live beside the class that implements them (meteor-details.ts)
export type { MeteorAlignment, MeteorDetails, MeteorMatch, MeteorStage }

const FN = 'meteorScore'

interface ResolvedOptions {
  readonly alpha: number
  readonly beta: number
  readonly gamma: number
  readonly synonyms: boolean
  readonly stemmer: boolean
  readonly maxTokens: number
}

const DEFAULTS: ResolvedOptions = { alpha: 0.9, beta: 3, gamma: 0.5, synonyms: true, stemmer: true, maxTokens: DEFAULT_MAX_TOKENS }

function resolveOptions(fn: string, options: MeteorOptions | undefined): ResolvedOptions {
  if (options === undefined) return DEFAULTS
  if (options === null || typeof options !== 'object') throw new MetricInputError(fn, 'options', 'an object', options)
  checkOptionKeys(fn, options, METEOR_OPTION_KEYS)
  const { alpha = 0.9, beta = 3, gamma = 0.5, synonyms = true, stemmer = true } = options
  if (typeof alpha !== 'number' || !(alpha >= 0 && alpha <= 1)) {
    throw new MetricInputError(fn, 'options.alpha', 'a number in [0, 1]', alpha)
  }
  if (typeof beta !== 'number' || !Number.isFinite(beta) || beta < 0) {
    throw new MetricInputError(fn, 'options.beta', 'a finite number ≥ 0', beta)
  }
  if (typeof gamma !== 'number' || !(gamma >= 0 && gamma <= 1)) {
    throw new MetricInputError(fn, 'options.gamma', 'a number in [0, 1]', gamma)
  }
  if (typeof synonyms !== 'boolean') throw new MetricInputError(fn, 'options.synonyms', 'a boolean', synonyms)
  if (typeof stemmer !== 'boolean') throw new MetricInputError(fn, 'options.stemmer', 'a boolean', stemmer)
  const maxTokens = resolveMaxTokens(fn, options.maxTokens, DEFAULT_MAX_TOKENS)
  return { alpha, beta, gamma, synonyms, stemmer, maxTokens }
}

/** Python `s.split()` then `str.lower()` per token; token arrays are only lower-cased. */
function preprocess(fn: string, argument: string, input: unknown, maxTokens: number): Token[] {
  // checked before interning anything: an oversized text costs one scan, not a vocabulary
  if (typeof input === 'string') checkTextLength(fn, argument, input, maxTokens)
  else if (Array.isArray(input)) checkTokenCount(fn, argument, input.length, maxTokens)
  if (typeof input === 'string') {
    // Non-ASCII: lower-case token by token, as NLTK maps str.lower over the token list (final
    // sigma depends on where the token ends).
    return splitLowerAscii(input) ?? pySplit(input).map((token) => intern(pyLower(token)))
  }
  if (!Array.isArray(input)) throw new MetricInputError(fn, argument, 'a string or an array of token strings', input)
  const out = new Array<Token>(input.length)
  for (let i = 0; i < input.length; i++) {
    const token: unknown = input[i]
    if (typeof token !== 'string') {
      throw new MetricInputError(fn, `${argument}[${i}]`, 'a token string', token)
    }
    out[i] = intern(pyLower(token))
  }
  return out
}

function preprocessReferences(fn: string, references: unknown, maxTokens: number): Token[][] {
  if (typeof references === 'string') return [preprocess(fn, 'references', references, maxTokens)]
  if (!Array.isArray(references)) {
    throw new MetricInputError(fn, 'references', 'a string, an array of strings or an array of token arrays', references)
  }
  if (references.length === 0) {
    // NLTK: max() of an empty sequence raises; a score against nothing has no meaning.
    throw new MetricInputError(fn, 'references', 'at least one reference', references)
  }
  // map would skip a hole and leave one in the result, which then crashed
  return denseArray(fn, 'references', references as unknown[], 'a string or an array of token strings').map((reference: unknown, k) => {
    if (typeof reference !== 'string' && !Array.isArray(reference)) {
      throw new MetricInputError(fn, `references[${k}]`, 'a string or an array of token strings', reference)
    }
    return preprocess(fn, `references[${k}]`, reference, maxTokens)
  })
}

/**
 * METEOR on the kernels, or undefined for what they do not take (token arrays, a non-ASCII or long text, no
 * WebAssembly); the JS path then gives the same score (meteor-kernel.test.ts holds them to each other).
 * `references`: one string, or (`single` false) an array of strings; `name` is its argument's name.
 */
function scoreInKernel(fn: string, candidate: unknown, references: unknown, name: string, o: ResolvedOptions): Score<MeteorDetails> | undefined {
  if (typeof candidate !== 'string') return undefined
  const single = typeof references === 'string'
  if (!single) {
    if (!Array.isArray(references) || references.length === 0) return undefined
    for (let k = 0; k < references.length; k++) if (typeof references[k] !== 'string') return undefined
  }
  const align = alignKernel()
  if (align === null) return undefined
  const words = splitKernel() as WordKernel
  checkTextLength(fn, 'candidate', candidate, o.maxTokens)
  const H = words.tokens(candidate, 0)
  if (H < 0) return undefined
  copyPlaces(words.out, align.hyp, H)
  const flags = (o.stemmer ? STEM_STAGE : 0) | (o.synonyms ? SYNONYM_STAGE : 0)
  const count = single ? 1 : (references as string[]).length
  const referenceScores: number[] = []
  let best = -1
  let bestNumbers: MeteorNumbers | undefined
  let bestCodes: number[] = []
  let bestLength = 0
  for (let k = 0; k < count; k++) {
    const text = single ? (references as string) : (references as string[])[k]!
    checkTextLength(fn, single ? name : `${name}[${k}]`, text, o.maxTokens)
    const R = words.tokens(text, 0)
    if (R < 0) return undefined
    copyPlaces(words.out, align.ref, R)
    const m = align.align(H, R, flags, vocabularyPlaces())
    const r = align.result
    const numbers = meteorNumbers(m, H, R, r[3]!, [r[0]!, r[1]!, r[2]!], o)
    referenceScores.push(numbers.score)
    // Python's max() keeps the first of equal maxima.
    if (bestNumbers === undefined || numbers.score > bestNumbers.score) {
      best = k
      bestNumbers = numbers
      bestCodes = copyOut(align.codes, H)
      bestLength = R
    }
  }
  const bestText = single ? (references as string) : (references as string[])[best]!
  const details = buildDetails(candidate, bestText, bestLength, bestCodes, bestNumbers!, best, referenceScores, o)
  return makeScore('METEOR', details.score, signatureFor(o), details)
}

// Loops, not subarray()/set()/Array.from(): a typed array view costs more than copying a sentence's places.
function copyPlaces(from: Int32Array, to: Int32Array, n: number): void {
  for (let k = 0; k < n; k++) to[k] = from[k]!
}

function copyOut(from: Int32Array, n: number): number[] {
  const out = new Array<number>(n)
  for (let k = 0; k < n; k++) out[k] = from[k]!
  return out
}

const STAGE_EXACT = 1
const STAGE_STEM = 2
const STAGE_SYNONYM = 3

/** The alignment as positions only; pairs and token lists are built for the reported reference alone. */
interface RawAlignment extends MeteorNumbers {
  /** per candidate position: the aligned reference position, or -1 */
  readonly refOf: Int32Array
  /** per candidate position: STAGE_* or 0 */
  readonly stageOf: Uint8Array
  readonly refMatched: Uint8Array
}

/**
 * A matching stage over the candidate's first H and the reference's first R tokens: it fills refOf, stageOf and
 * refMatched for the pairs it aligns and returns how many; `Extra` are its own parameters.
 */
type Stage<Extra extends unknown[]> = (
  hyp: readonly Token[],
  H: number,
  ref: readonly Token[],
  R: number,
  refOf: Int32Array,
  stageOf: Uint8Array,
  refMatched: Uint8Array,
  ...extra: Extra
) => number

/** Stage 3; `room`: reference positions still unaligned (the stage stops when none is left). */
type SynonymStage = Stage<[room: number]>

/**
 * One matching stage over the still-unaligned words: candidate positions from last to first, each
 * taking the LAST unaligned reference position with an equal word. This is NLTK's reversed double
 * loop with pop(i)/pop(j): popping never reorders what is left, so it visits the same items.
 *
 * Done in O(H + R) without allocating: per word, its unaligned reference positions form a list,
 * highest first (`lastOf` indexed by the word's place in the vocabulary, `nextDown` by position),
 * so "the last unaligned position with an equal word" is the list's head. Why not NLTK's scan:
 * its H·R compares were a quarter of a warm pass on sentences of 20 words.
 */
const matchEqual: Stage<[stage: number, nextDown: Int32Array]> = (hyp, H, ref, R, refOf, stageOf, refMatched, stage, nextDown) => {
  const base = vocabularyFirstId()
  const lastOf = lastPositionScratch(vocabularyPlaces())
  for (let j = 0; j < R; j++) {
    if (refMatched[j] !== 0) continue
    const w = (ref[j] as Token).id - base
    nextDown[j] = lastOf[w] as number
    lastOf[w] = j
  }
  let count = 0
  for (let i = H - 1; i >= 0; i--) {
    if (stageOf[i] !== 0) continue
    const w = (hyp[i] as Token).id - base
    const j = lastOf[w] as number
    if (j < 0) continue
    lastOf[w] = nextDown[j] as number
    refOf[i] = j
    stageOf[i] = stage
    refMatched[j] = 1
    count++
  }
  // back to all -1 for the next stage or call
  for (let j = 0; j < R; j++) lastOf[(ref[j] as Token).id - base] = -1
  return count
}

/** Per word of the vocabulary, a list head; all -1 between uses. */
let lastPositions = new Int32Array(1024).fill(-1)

function lastPositionScratch(words: number): Int32Array {
  if (lastPositions.length < words) lastPositions = new Int32Array(Math.max(words, 2 * lastPositions.length)).fill(-1)
  return lastPositions
}

/**
 * Stage 3, as NLTK's loops: candidate positions from last to first; each takes the last unaligned
 * reference position whose word is in the candidate word's synonym set (WordNet names ∪ the word
 * itself). `room`: reference positions still unaligned (the stage stops when none is left).
 */
const matchSynonymsScan: SynonymStage = (hyp, H, ref, R, refOf, stageOf, refMatched, room) => {
  let count = 0
  for (let i = H - 1; i >= 0 && count < room; i--) {
    if (stageOf[i] !== 0) continue
    const word = hyp[i] as Token
    const syn = synonymsOf(word)
    // Only a WordNet name can qualify, never the word itself: the stage before (stem, or exact when
    // not stemming) aligned every candidate word that had an equal unaligned reference word, and
    // nothing was unaligned since. So a word without synonyms (most are) skips the scan.
    if (syn.size === 0) continue
    for (let j = R - 1; j >= 0; j--) {
      if (refMatched[j] !== 0) continue
      if (syn.has((ref[j] as Token).text)) {
        refOf[i] = j
        stageOf[i] = STAGE_SYNONYM
        refMatched[j] = 1
        count++
        break
      }
    }
  }
  return count
}

/**
 * The same rule without the scan over the reference (which made long texts quadratic: NLTK's own
 * loop is O(H·R)): the unaligned reference positions of each word, ascending, so "the last
 * qualifying position" is the largest last element over the words of the synonym set —
 * O(H·|synonyms| + R).
 */
const matchSynonymsIndexed: SynonymStage = (hyp, H, ref, R, refOf, stageOf, refMatched, room) => {
  const positions = new Map<string, number[]>()
  for (let j = 0; j < R; j++) {
    if (refMatched[j] !== 0) continue
    const text = (ref[j] as Token).text
    const list = positions.get(text)
    if (list === undefined) positions.set(text, [j])
    else list.push(j)
  }
  let count = 0
  for (let i = H - 1; i >= 0 && count < room; i--) {
    if (stageOf[i] !== 0) continue
    const word = hyp[i] as Token
    let best: number[] | undefined = positions.get(word.text)
    let bestLast = best !== undefined && best.length > 0 ? (best[best.length - 1] as number) : -1
    for (const name of synonymsOf(word)) {
      const list = positions.get(name)
      if (list === undefined || list.length === 0) continue
      const last = list[list.length - 1] as number
      if (last > bestLast) {
        best = list
        bestLast = last
      }
    }
    if (bestLast < 0) continue
    ;(best as number[]).pop()
    refOf[i] = bestLast
    stageOf[i] = STAGE_SYNONYM
    refMatched[bestLast] = 1
    count++
  }
  return count
}

/**
 * Writes into `out` the first `n` tokens with every still-unaligned one replaced by its Porter stem
 * (aligned ones are never read again); `out` is a buffer reused across calls.
 */
function stemUnaligned(tokens: readonly Token[], n: number, aligned: Uint8Array, out: Token[]): Token[] {
  for (let k = 0; k < n; k++) {
    const token = tokens[k] as Token
    out[k] = aligned[k] === 0 ? stemOf(token) : token
  }
  return out
}

// Error-free product of two doubles (Dekker/Veltkamp; JS has no FMA): a·b = p + e exactly.
const SPLITTER = 134217729 // 2^27 + 1
function twoProduct(a: number, b: number): [number, number] {
  const p = a * b
  let c = SPLITTER * a
  const ah = c - (c - a)
  const al = a - ah
  c = SPLITTER * b
  const bh = c - (c - b)
  const bl = b - bh
  return [p, al * bl - (p - ah * bh - al * bh - ah * bl)]
}

const POW_MIN = 2 ** -15 // x^64 stays far from subnormals and overflow inside these bounds
const POW_MAX = 2 ** 15

/**
 * `x ** n` as close to CPython's float pow (glibc `pow`) as we can get without porting glibc.
 * V8's `**` is off by one ulp on some inputs (3/13 cubed: V8 0.01228948566226673, glibc
 * 0.012289485662266729), which moved a golden METEOR value by one ulp. For integer n in 1..64 we
 * multiply in double-double (~106 bits) and round once, i.e. return the correctly rounded power.
 * Checked ad hoc against Python on 99,800 powers (c/m)^n: V8 `**` differed on 8,763, this on 91 —
 * all 91 cases where glibc itself is not correctly rounded (its bound is 0.52 ulp), so we differ by
 * one ulp there. Other exponents, and x outside [2^-15, 2^15], use `**`.
 *
 * @example
 * pythonPow(3 / 13, 3) // 0.012289485662266729
 */
export function pythonPow(x: number, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 64 || !(x >= POW_MIN && x <= POW_MAX)) return x ** n
  let hi = x
  let lo = 0
  for (let k = 1; k < n; k++) {
    const [p, e] = twoProduct(hi, x)
    const err = e + lo * x
    hi = p + err
    lo = err - (hi - p)
  }
  return hi + lo
}

/**
 * The per-position arrays of one alignment, reused across calls (small typed arrays are allocated
 * off the JS heap, which cost more than aligning short sentences). Only the first H / R entries
 * are meaningful.
 */
class AlignmentBuffers {
  refOf = new Int32Array(64)
  stageOf = new Uint8Array(64)
  refMatched = new Uint8Array(64)
  /** Scratch for the matching stages: per reference position, the next lower one with the same word. */
  nextDown = new Int32Array(64)
  /** The words the stem and synonym stages see (first H / R entries), reused instead of a copy per call. */
  readonly hypWords: Token[] = []
  readonly refWords: Token[] = []

  /** Clears the first `H` / `R` entries, growing the arrays if needed. */
  prepare(H: number, R: number): void {
    if (this.refOf.length < H) {
      this.refOf = new Int32Array(H)
      this.stageOf = new Uint8Array(H)
    }
    if (this.refMatched.length < R) {
      this.refMatched = new Uint8Array(R)
      this.nextDown = new Int32Array(R)
    }
    this.refOf.fill(-1, 0, H)
    this.stageOf.fill(0, 0, H)
    this.refMatched.fill(0, 0, R)
  }
}

// Two sets: the best reference's alignment so far and the one being computed. Inputs longer than
// KEPT_POSITIONS get their own, so what stays allocated is bounded.
const KEPT_POSITIONS = 4096
const sharedBuffers = [new AlignmentBuffers(), new AlignmentBuffers()] as const

function buffersFor(hyp: readonly Token[], refs: readonly (readonly Token[])[]): readonly [AlignmentBuffers, AlignmentBuffers] {
  const fits = hyp.length <= KEPT_POSITIONS && refs.every((ref) => ref.length <= KEPT_POSITIONS)
  return fits ? sharedBuffers : [new AlignmentBuffers(), new AlignmentBuffers()]
}

function align(hyp: readonly Token[], ref: readonly Token[], o: ResolvedOptions, buffers: AlignmentBuffers): RawAlignment {
  const H = hyp.length
  const R = ref.length
  buffers.prepare(H, R)
  const { refOf, stageOf, refMatched } = buffers
  const counts: [number, number, number] = [0, 0, 0]

  counts[0] = matchEqual(hyp, H, ref, R, refOf, stageOf, refMatched, STAGE_EXACT, buffers.nextDown)
  let m = counts[0]
  let hypWords = hyp
  let refWords = ref
  // (Stages are skipped once either side is fully aligned: they could not match anything.)
  if (o.stemmer && m < H && m < R) {
    // NLTK replaces every remaining word on both sides by its stem; stage 3 then sees the stems.
    hypWords = stemUnaligned(hyp, H, stageOf, buffers.hypWords)
    refWords = stemUnaligned(ref, R, refMatched, buffers.refWords)
    counts[1] = matchEqual(hypWords, H, refWords, R, refOf, stageOf, refMatched, STAGE_STEM, buffers.nextDown)
    m += counts[1]
  }
  if (o.synonyms && m < H && m < R) {
    const found = (H - m) * (R - m) <= 4096 ? matchSynonymsScan : matchSynonymsIndexed
    const added = found(hypWords, H, refWords, R, refOf, stageOf, refMatched, R - m)
    counts[2] = added
    m += added
  }

  let chunks = 0
  let previous = -2
  let previousRef = -2
  for (let i = 0; i < H; i++) {
    const j = refOf[i] as number
    if (j < 0) continue
    if (!(i === previous + 1 && j === previousRef + 1)) chunks++
    previous = i
    previousRef = j
  }

  return { refOf, stageOf, refMatched, ...meteorNumbers(m, H, R, chunks, counts, o) }
}

/** The score and the ratios of an alignment with m matches: NLTK's arithmetic, shared by the JS and the kernel path. */
function meteorNumbers(m: number, H: number, R: number, chunks: number, counts: [number, number, number], o: ResolvedOptions): MeteorNumbers {
  const precision = H > 0 ? m / H : 0
  const recall = R > 0 ? m / R : 0
  // NLTK catches ZeroDivisionError (empty side or no match) and returns 0.0.
  if (m === 0) return { counts, chunks: 0, score: 0, precision, recall, fmean: 0, fragmentation: 0, penalty: 0 }
  // Same operation order as NLTK, so the doubles agree: (1 - alpha) is 0.09999999999999998 for 0.9.
  const fmean = (precision * recall) / (o.alpha * precision + (1 - o.alpha) * recall)
  const fragmentation = chunks / m
  const penalty = o.gamma * pythonPow(fragmentation, o.beta)
  const score = (1 - penalty) * fmean
  return { counts, chunks, score, precision, recall, fmean, fragmentation, penalty }
}

/** The codes the details read (see AlignmentSnapshot), copied: the alignment's buffers are reused by the next call. */
function codesOf(a: RawAlignment, H: number): number[] {
  const codes = new Array<number>(H)
  for (let i = 0; i < H; i++) {
    const j = a.refOf[i]!
    codes[i] = j < 0 ? -1 : 4 * j + a.stageOf[i]!
  }
  return codes
}

/** The score's details: counts and ratios now, the per-token lists on first read (see meteor-details.ts). */
function buildDetails(
  hyp: SnapshotTokens,
  ref: SnapshotTokens,
  referenceLength: number,
  codes: number[],
  numbers: MeteorNumbers,
  bestReferenceIndex: number,
  referenceScores: readonly number[],
  o: ResolvedOptions,
): MeteorDetails {
  return new LazyMeteorDetails(
    numbers,
    { hyp, ref, referenceLength, codes, pairs: undefined, unmatchedCandidate: undefined, unmatchedReference: undefined },
    bestReferenceIndex,
    referenceScores,
    o.alpha,
    o.beta,
    o.gamma,
  )
}

const signatures = new Map<string, string>()

let defaultSignature: string | undefined

function signatureFor(o: ResolvedOptions): string {
  // the usual call: no options, so no key to format
  if (o === DEFAULTS) return (defaultSignature ??= signatureOf(o))
  const key = `${o.alpha}|${o.beta}|${o.gamma}|${o.stemmer}|${o.synonyms}`
  let signature = signatures.get(key)
  if (signature === undefined) {
    signature = signatureOf(o)
    if (signatures.size < 64) signatures.set(key, signature)
  }
  return signature
}

function signatureOf(o: ResolvedOptions): string {
  return buildSignature('METEOR', [
    ['pre', 'lower'],
    ['stem', o.stemmer ? 'porter' : 'none'],
    ['syn', o.synonyms ? 'wordnet-3.0' : 'none'],
    ['alpha', o.alpha],
    ['beta', o.beta],
    ['gamma', o.gamma],
  ])
}

/**
 * METEOR of a candidate against one or more references, on 0–1: the maximum over references of the
 * single-reference score (NLTK 3.8 `meteor_score`).
 *
 * Per reference: tokens are `str.split()` (Python whitespace; punctuation stays attached, so `task.`
 * ≠ `task`) and `str.lower()`. Words are aligned in three stages, each over the words still
 * unaligned, candidate positions from last to first, each taking the last unaligned reference
 * position that qualifies: (1) equal words; (2) equal Porter stems (NLTK_EXTENSIONS), after which the
 * remaining words ARE the stems; (3) the reference stem is in the candidate stem's WordNet 3.0 synonym
 * set (only the candidate's set is consulted; this is why `large`/`big`, stemmed to `larg`, never
 * match while `fast`/`quick` do). With m matches, H candidate and R reference tokens: `P = m/H`,
 * `R = m/R`, `fmean = P·R/(α·P + (1−α)·R)`, `chunks` = runs of pairs adjacent on both sides (pairs in
 * candidate order), `penalty = γ·(chunks/m)^β`, `score = (1 − penalty)·fmean`.
 *
 * Defaults: α 0.9, β 3, γ 0.5, stemmer and synonyms on (NLTK's). Edge cases: an empty candidate or
 * reference, or no match, scores 0 (NLTK's ZeroDivisionError → 0.0), with `chunks` 0.
 *
 * Inputs: `candidate` is a string or a token array. `references` is a string (one reference), an
 * array of strings (several references) or an array of token arrays (several tokenized references);
 * a single tokenized reference must be wrapped: `[tokens]`. NLTK only takes token lists; a string
 * here means its `str.split()`.
 *
 * Parity: equals NLTK 3.8 `meteor_score([r.split() for r in refs], hyp.split())` with WordNet 3.0 on
 * the 300 golden cases (score to 1e-9 relative; per reference the match counts, pairs and chunks
 * exactly) and NLTK's own doctest/unit-test vectors.
 *
 * `details` describe the best reference (`bestReferenceIndex`, the first on ties).
 *
 * Cost: linear in the lengths (the synonym stage looks candidates up by word instead of scanning
 * the reference, as NLTK's O(H·R) loop does); each text is limited to `maxTokens` (1,000,000).
 *
 * @throws MetricInputError for a non-string/non-array input, a non-string token, no reference,
 *   options out of range (α, γ in [0, 1], β ≥ 0, booleans, maxTokens), or a text longer than
 *   `maxTokens` tokens.
 * @example
 * meteorScore(
 *   'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.',
 *   'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.',
 * ).value // 0.8737244897959183 (14 exact matches of 16 tokens, 2 chunks)
 */
export function meteorScore(
  candidate: string | readonly string[],
  references: string | readonly string[] | ReadonlyArray<readonly string[]> | ReadonlyArray<string | readonly string[]>,
  options?: MeteorOptions,
): Score<MeteorDetails> {
  const o = resolveOptions(FN, options)
  startMeteorCall()
  const fast = scoreInKernel(FN, candidate, references, 'references', o)
  if (fast !== undefined) return fast
  const hyp = preprocess(FN, 'candidate', candidate, o.maxTokens)
  const refs = preprocessReferences(FN, references, o.maxTokens)
  const referenceScores: number[] = []
  const buffers = buffersFor(hyp, refs)
  let free = 0
  let best = 0
  let bestAlignment: RawAlignment | undefined
  for (let k = 0; k < refs.length; k++) {
    const a = align(hyp, refs[k] as Token[], o, buffers[free]!)
    referenceScores.push(a.score)
    // Python's max() keeps the first of equal maxima.
    if (bestAlignment === undefined || a.score > bestAlignment.score) {
      best = k
      bestAlignment = a
      free = 1 - free
    }
  }
  const a = bestAlignment as RawAlignment
  const details = buildDetails(hyp, refs[best] as Token[], (refs[best] as Token[]).length, codesOf(a, hyp.length), a, best, referenceScores, o)
  return makeScore('METEOR', details.score, signatureFor(o), details)
}

/**
 * METEOR against exactly one reference (NLTK 3.8 `single_meteor_score`), with the same rules,
 * options and details as {@link meteorScore}. `reference` is a string or one token array.
 *
 * @example
 * singleMeteorScore('on the mat sat the cat', 'The cat sat on the mat').value // 0.5
 */
export function singleMeteorScore(candidate: string | readonly string[], reference: string | readonly string[], options?: MeteorOptions): Score<MeteorDetails> {
  const fn = 'singleMeteorScore'
  if (typeof reference !== 'string' && !Array.isArray(reference)) {
    throw new MetricInputError(fn, 'reference', 'a string or an array of token strings', reference)
  }
  const o = resolveOptions(fn, options)
  startMeteorCall()
  if (typeof reference === 'string') {
    const fast = scoreInKernel(fn, candidate, reference, 'reference', o)
    if (fast !== undefined) return fast
  }
  const hyp = preprocess(fn, 'candidate', candidate, o.maxTokens)
  const ref = preprocess(fn, 'reference', reference, o.maxTokens)
  const a = align(hyp, ref, o, buffersFor(hyp, [ref])[0])
  return makeScore('METEOR', a.score, signatureFor(o), buildDetails(hyp, ref, ref.length, codesOf(a, hyp.length), a, 0, [a.score], o))
}
