import { denseArray } from '../dense-array.js'
import { MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { makeScore, type Score } from '../score.js'
import { buildSignature } from '../signature.js'
import {
  checkTokenCount,
  checkUnitCount,
  DEFAULT_MAX_LCS_TOKENS,
  DEFAULT_MAX_LSUM_LINES,
  DEFAULT_MAX_LSUM_TOKENS,
  DEFAULT_MAX_TOKENS,
  resolveLimit,
  resolveMaxTokens,
  type InputLimitOptions,
} from './input-limits.js'
import { lcsLengthOf, lcsPathOf } from './lcs.js'
import { asciiLower, HASH_SEED, hashStep, hashText, TokenTable } from './token-table.js'
import { rougeRawTokens, rougeStemTokenUncached } from './tokenizers/rouge-default.js'
import { WordKernel } from './word-kernel.js'

/** `rouge1` … `rouge9`: n-gram overlap (rouge-score accepts exactly these; `rouge0`, `rouge10` are errors). */
export type RougeNType = 'rouge1' | 'rouge2' | 'rouge3' | 'rouge4' | 'rouge5' | 'rouge6' | 'rouge7' | 'rouge8' | 'rouge9'
export type RougeType = RougeNType | 'rougeL' | 'rougeLsum'

/** Every type {@link rougeScore} accepts, in display order. */
export const ROUGE_TYPES: readonly RougeType[] = ['rouge1', 'rouge2', 'rouge3', 'rouge4', 'rouge5', 'rouge6', 'rouge7', 'rouge8', 'rouge9', 'rougeL', 'rougeLsum']

/** What {@link rougeScore} computes when `types` is not given. */
export const DEFAULT_ROUGE_TYPES: readonly RougeType[] = ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']

/** Precision (over the candidate), recall (over the reference) and their harmonic mean. */
export interface RougePrf {
  readonly precision: number
  readonly recall: number
  readonly fmeasure: number
}

export interface RougeDetails extends RougePrf {
  readonly type: RougeType
  readonly stemmer: boolean
  /** The reference whose F is highest (the first on ties), as rouge-score's `score_multi`. */
  readonly bestReferenceIndex: number
  /** P/R/F against each reference, in the order given. */
  readonly perReference: readonly RougePrf[]
  /** For the best reference: candidate and reference n-grams (ROUGE-N) or tokens (ROUGE-L/Lsum). */
  readonly candidateCount: number
  readonly referenceCount: number
  /** Clipped n-gram overlap (ROUGE-N), LCS length (ROUGE-L) or union-LCS hits (ROUGE-Lsum). */
  readonly matchCount: number
  /**
   * The first {@link MISSED_TOKENS_LIMIT} reference units of the best reference that were not matched,
   * in reference order: n-grams joined by a space (ROUGE-N), tokens outside the LCS (ROUGE-L) or
   * without a union-LCS hit (ROUGE-Lsum). Tokens are post-tokenizer (lower-cased, stemmed if on).
   */
  readonly missedReferenceTokens: readonly string[]
  /** All unmatched reference units (= referenceCount − matchCount). */
  readonly missedReferenceTokenCount: number
}

export type RougeScore = Score<RougeDetails>
export type RougeResult = { readonly [K in RougeType]?: RougeScore }

export interface RougeOptions extends InputLimitOptions {
  /** @default ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'] */
  readonly types?: readonly RougeType[]
  /** Porter-stem (NLTK_EXTENSIONS) tokens longer than 3 characters. @default false (rouge-score's `use_stemmer=False`) */
  readonly stemmer?: boolean
  /**
   * The most ROUGE tokens the candidate or any reference may have; more is a MetricInputError.
   * @default 50000 when `types` has rougeL or rougeLsum (an LCS: the cost is the product of the
   * lengths: 16.5 s at 100,000 × 100,000 on a shared 2-core machine, a quarter of that here), but
   * 20000 for rougeLsum when a text has several lines (one LCS per line pair, each a plain table:
   * the full |cand|·|ref| cells), else 1000000. `Infinity` turns the check off.
   */
  readonly maxTokens?: number
  /**
   * ROUGE-Lsum only: the most non-empty `\n` lines the candidate or any reference may have; more is a
   * MetricInputError raised before any alignment (every candidate line is aligned with every
   * reference line, so the work grows with lines × lines). `Infinity` turns the check off.
   * @default 2000
   */
  readonly maxLines?: number
}

/** The keys of {@link RougeOptions}: what rougeScore accepts. */
export const ROUGE_OPTION_KEYS = keysOf<RougeOptions>()('types', 'stemmer', 'maxTokens', 'maxLines')

export const MISSED_TOKENS_LIMIT = 20

const METRIC_NAMES: Readonly<Record<RougeType, string>> = {
  rouge1: 'ROUGE-1',
  rouge2: 'ROUGE-2',
  rouge3: 'ROUGE-3',
  rouge4: 'ROUGE-4',
  rouge5: 'ROUGE-5',
  rouge6: 'ROUGE-6',
  rouge7: 'ROUGE-7',
  rouge8: 'ROUGE-8',
  rouge9: 'ROUGE-9',
  rougeL: 'ROUGE-L',
  rougeLsum: 'ROUGE-Lsum',
}

/**
 * ROUGE-N / ROUGE-L / ROUGE-Lsum of a candidate against one or more references, equal to
 * rouge-score 0.1.2 `RougeScorer(types, use_stemmer).score_multi(references, candidate)` (and to
 * `.score(reference, candidate)` for one reference). Note the argument order: **candidate first**.
 *
 * Tokens: {@link rougeDefaultTokenize} (lower-case; only ASCII `[a-z0-9]` runs are tokens; with
 * `stemmer`, NLTK Porter on tokens longer than 3 characters). For each type, with P over the
 * candidate, R over the reference and `F = 2PR/(P+R)` (0 when P + R = 0):
 * - `rougeN`: clipped n-gram overlap `Σ_g min(ref(g), cand(g))`; `P = overlap / max(#cand n-grams, 1)`,
 *   `R = overlap / max(#ref n-grams, 1)`.
 * - `rougeL`: LCS length over the whole token lists; P = lcs / |cand|, R = lcs / |ref|; 0 if either is empty.
 * - `rougeLsum`: both texts are split on `"\n"` only (empty lines dropped); for each reference line the
 *   union of one LCS per candidate line (rouge-score's backtracking tie-break), each union token counted
 *   at most as often as it occurs on both sides; P = hits / candidate tokens, R = hits / reference tokens.
 * - several references: per type, the reference with the highest F (the first on ties).
 *
 * `value` is F (0–1). The signature records the tokenizer, the stemmer and (Lsum) the line split,
 * e.g. `ROUGE-L|tok:rouge-default|stem:yes|version:0.1.0`.
 *
 * Edge cases: empty or non-ASCII-only text has no tokens and scores 0 (P = R = F = 0), like rouge-score.
 * Parity: every golden rouge-score value (300 cases × 4 types × P/R/F, stemmed and not) to 1e-9
 * relative, and rouge-score's own test cases.
 *
 * @param candidate the generated text
 * @param references one reference or a non-empty list of them
 * Cost: ROUGE-N is linear in the lengths; ROUGE-L is an LCS in bit-parallel form
 * (|cand|·|ref|/32 word operations, memory O(√|ref|·|cand|/32)), so its texts are limited to
 * `maxTokens` (default 50,000) tokens each; ROUGE-Lsum on texts of several lines is one LCS per
 * line pair (|cand|·|ref| table cells and lines × lines pairs), so its texts are then limited to
 * 20,000 tokens by default and to `maxLines` (2,000) lines.
 *
 * @param options `types` (default rouge1, rouge2, rougeL, rougeLsum), `stemmer` (default `false`),
 *   `maxTokens` (default 50,000 with an LCS type, 20,000 for rougeLsum on several lines, else
 *   1,000,000), `maxLines` (rougeLsum; default 2,000)
 * @throws MetricInputError on a non-string text, an empty reference list, an unknown type, or a
 *   text longer than `maxTokens` tokens or (rougeLsum) `maxLines` lines
 * @example
 * const r = rougeScore(
 *   'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.',
 *   'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.',
 *   { types: ['rougeL'], stemmer: true },
 * )
 * r.rougeL?.value // 0.8421052631578947 (16 of 19 tokens in the LCS)
 */
export function rougeScore(candidate: string, references: string | readonly string[], options: RougeOptions = {}): RougeResult {
  const call = readRougeCall(candidate, references, options)
  resetVocabularyIfLarge()
  startIdArena()
  const [cand, prepared] = prepareTexts(call, candidate)
  const v = vocabulary.tokens.length
  const result: { [K in RougeType]?: RougeScore } = {}
  for (const type of call.types) result[type] = scoreType(type, cand, prepared, v, call.stemmer)
  lastPath = null
  return result
}

/** What one {@link rougeScore} call asked for, checked. Kept out of rougeScore so that its hot path stays small. */
interface RougeCall {
  readonly refs: readonly string[]
  /** the references were given as one string (error messages then name `references`) */
  readonly single: boolean
  readonly types: readonly RougeType[]
  readonly stemmer: boolean
  readonly lcsType: RougeType | undefined
  readonly maxTokens: number
  readonly maxLines: number
  readonly wantLines: boolean
  readonly maxTokensGiven: boolean
}

function readRougeCall(candidate: unknown, references: unknown, options: RougeOptions): RougeCall {
  const fn = 'rougeScore'
  if (typeof candidate !== 'string') throw new MetricInputError(fn, 'candidate', 'a string', candidate)
  const refs = normalizeReferences(fn, references)
  if (options === null || typeof options !== 'object') throw new MetricInputError(fn, 'options', 'an object', options)
  checkOptionKeys(fn, options, ROUGE_OPTION_KEYS)
  const types = normalizeTypes(fn, options.types)
  const stemmer = options.stemmer ?? false
  if (typeof stemmer !== 'boolean') throw new MetricInputError(fn, 'options.stemmer', 'a boolean', stemmer)
  const lcsType = types.find((t) => t === 'rougeL' || t === 'rougeLsum')
  const maxTokens = resolveMaxTokens(fn, options.maxTokens, lcsType === undefined ? DEFAULT_MAX_TOKENS : DEFAULT_MAX_LCS_TOKENS)
  const maxLines = resolveLimit(fn, 'maxLines', options.maxLines, DEFAULT_MAX_LSUM_LINES)
  return {
    refs,
    single: typeof references === 'string',
    types,
    stemmer,
    lcsType,
    maxTokens,
    maxLines,
    wantLines: types.includes('rougeLsum'),
    maxTokensGiven: options.maxTokens !== undefined,
  }
}

/** The candidate and references as token ids, each checked against the limits before any LCS work. */
function prepareTexts(call: RougeCall, candidate: string): [Prepared, Prepared[]] {
  const fn = 'rougeScore'
  const { stemmer, wantLines, maxTokens, maxLines } = call
  // tokenizing is linear; the limit is checked before any LCS work
  const cand = prepare(candidate, stemmer, wantLines)
  const what = call.lcsType === undefined ? '' : LIMIT_REASONS[call.lcsType]
  checkTokenCount(fn, 'candidate', cand.ids.length, maxTokens, what)
  if (wantLines) checkLineCount(fn, 'candidate', cand, maxLines)
  const prepared: Prepared[] = []
  for (let k = 0; k < call.refs.length; k++) {
    const ref = prepare(call.refs[k] as string, stemmer, wantLines)
    // the same check as the candidate's, guarded so that the argument's name is only built for a message
    if (ref.ids.length > maxTokens) checkTokenCount(fn, referenceArgument(call, k), ref.ids.length, maxTokens, what)
    if (wantLines) checkLineCount(fn, referenceArgument(call, k), ref, maxLines)
    prepared.push(ref)
  }
  if (wantLines && !call.maxTokensGiven && (isMultiLine(cand) || prepared.some(isMultiLine))) {
    // several lines: one LCS per line pair, each a plain table, so the default is lower (see DEFAULT_MAX_LSUM_TOKENS)
    const several = 'for ROUGE-Lsum on a text of several lines'
    checkTokenCount(fn, 'candidate', cand.ids.length, DEFAULT_MAX_LSUM_TOKENS, several)
    prepared.forEach((ref, k) => checkTokenCount(fn, referenceArgument(call, k), ref.ids.length, DEFAULT_MAX_LSUM_TOKENS, several))
  }
  return [cand, prepared]
}

/** How a message names reference k: `references` when one string was given, else `references[k]`. */
function referenceArgument(call: RougeCall, k: number): string {
  return call.single ? 'references' : `references[${k}]`
}

/** The reason a token limit gives, per LCS type (built once: this is on every call's path). */
const LIMIT_REASONS: Readonly<Record<RougeType, string>> = Object.fromEntries(ROUGE_TYPES.map((type) => [type, `for ${METRIC_NAMES[type]}`])) as Record<RougeType, string>

/** One type's score: the best reference by F-measure (the first wins ties, as numpy.argmax in score_multi). */
function scoreType(type: RougeType, cand: Prepared, prepared: readonly Prepared[], v: number, stemmer: boolean): RougeScore {
  const missed: number[] = []
  let perReference: Counts[]
  let best = 0
  let counts: Counts
  if (prepared.length === 1) {
    // one reference: a single pass that also collects the misses
    counts = computeType(type, cand, prepared[0] as Prepared, v, missed)
    perReference = [counts]
  } else {
    perReference = prepared.map((ref) => computeType(type, cand, ref, v, null))
    for (let i = 1; i < perReference.length; i++) {
      if ((perReference[i] as Counts).fmeasure > (perReference[best] as Counts).fmeasure) best = i
    }
    counts = computeType(type, cand, prepared[best] as Prepared, v, missed)
  }
  const chosen = perReference[best] as Counts
  const details: RougeDetails = {
    precision: chosen.precision,
    recall: chosen.recall,
    fmeasure: chosen.fmeasure,
    type,
    stemmer,
    bestReferenceIndex: best,
    perReference: perReference.map(({ precision, recall, fmeasure }) => ({ precision, recall, fmeasure })),
    candidateCount: counts.candidateCount,
    referenceCount: counts.referenceCount,
    matchCount: counts.matchCount,
    missedReferenceTokens: missedText(type, (prepared[best] as Prepared).ids, missed),
    missedReferenceTokenCount: missed.length,
  }
  return makeScore(METRIC_NAMES[type], chosen.fmeasure, cachedSignature(type, stemmer), details)
}

function missedText(type: RougeType, ids: Int32Array, missed: readonly number[]): string[] {
  const shown = Math.min(missed.length, MISSED_TOKENS_LIMIT)
  const out = new Array<string>(shown)
  const lcs = type === 'rougeL' || type === 'rougeLsum'
  for (let k = 0; k < shown; k++) out[k] = lcs ? vocabularyText(ids[missed[k] as number] as number) : ngramText(ids, missed[k] as number, ngramOrder(type))
  return out
}

function isMultiLine(text: Prepared): boolean {
  return (text.lines?.length ?? 0) > 1
}

/** ROUGE-Lsum's line limit, e.g. ``Expected `candidate` to be a text with at most 2000 lines (ROUGE-Lsum aligns …; raise options.maxLines to allow more)``. */
function checkLineCount(fn: string, argument: string, text: Prepared, maxLines: number): void {
  checkUnitCount(fn, argument, text.lines?.length ?? 0, maxLines, 'lines', 'maxLines', 'ROUGE-Lsum aligns every candidate line with every reference line')
}

/** The signature of one ROUGE type: `ROUGE-Lsum|tok:rouge-default|stem:no|split:newline|version:…`. */
export function rougeSignature(type: RougeType, stemmer: boolean): string {
  return buildSignature(METRIC_NAMES[type], [
    ['tok', 'rouge-default'],
    ['stem', stemmer],
    ['split', type === 'rougeLsum' ? 'newline' : undefined],
  ])
}

// Signatures depend only on (type, stemmer); building them per call showed up in profiles. Per type: [no stem, stem].
const SIGNATURES = new Map<RougeType, [string | undefined, string | undefined]>()

function cachedSignature(type: RougeType, stemmer: boolean): string {
  let pair = SIGNATURES.get(type)
  if (pair === undefined) {
    pair = [undefined, undefined]
    SIGNATURES.set(type, pair)
  }
  const at = stemmer ? 1 : 0
  return (pair[at] ??= rougeSignature(type, stemmer))
}

function normalizeReferences(fn: string, references: unknown): readonly string[] {
  if (typeof references === 'string') return [references]
  if (!Array.isArray(references)) throw new MetricInputError(fn, 'references', 'a string or a non-empty array of strings', references)
  if (references.length === 0) throw new MetricInputError(fn, 'references', 'a string or a non-empty array of strings', references)
  // forEach would skip a hole, which then crashed the scoring
  const dense = denseArray(fn, 'references', references as unknown[], 'a string')
  dense.forEach((r, i) => {
    if (typeof r !== 'string') throw new MetricInputError(fn, `references[${i}]`, 'a string', r)
  })
  return dense as string[]
}

const TYPE_SET: ReadonlySet<string> = new Set(ROUGE_TYPES)
const TYPE_LIST = `one of ${ROUGE_TYPES.map((t) => `'${t}'`).join(', ')}`

function normalizeTypes(fn: string, types: unknown): readonly RougeType[] {
  if (types === undefined) return DEFAULT_ROUGE_TYPES
  if (!Array.isArray(types) || types.length === 0) {
    throw new MetricInputError(fn, 'options.types', 'a non-empty array of ROUGE types', types)
  }
  const out: RougeType[] = []
  types.forEach((t, i) => {
    if (typeof t !== 'string' || !TYPE_SET.has(t)) throw new MetricInputError(fn, `options.types[${i}]`, TYPE_LIST, t)
    if (!out.includes(t as RougeType)) out.push(t as RougeType)
  })
  return out
}

// ---------------------------------------------------------------------------------------------
// preparation: tokens become integer ids so the kernels work on typed arrays

/**
 * Token ids shared by all {@link rougeScore} calls: raw `[a-z0-9]` run → id of its (stemmed) token,
 * one table per stemmer setting, so each token costs one lookup and stemming runs once per word.
 * It is a memo only: results never depend on which ids were handed out. Bounded: when it grows
 * past {@link VOCABULARY_LIMIT} it is cleared at the start of the next call (never during one,
 * so the ids of one call stay consistent).
 */
const VOCABULARY_LIMIT = 200_000

/** Raw run → token id (or {@link NO_TOKEN}); a {@link TokenTable} so that ASCII runs are found without slicing. */
class RawIds {
  readonly table = new TokenTable()
  readonly ids: number[] = []
}

const vocabulary = {
  raw: [new RawIds(), new RawIds()] as [RawIds, RawIds],
  ids: new Map<string, number>(),
  tokens: [] as string[],
}

function resetVocabularyIfLarge(): void {
  if (vocabulary.tokens.length + vocabulary.raw[0].table.size + vocabulary.raw[1].table.size <= VOCABULARY_LIMIT) return
  vocabulary.raw = [new RawIds(), new RawIds()]
  vocabulary.ids.clear()
  vocabulary.tokens = []
  // the kernel's runs map to the ids just forgotten
  kernel?.reset()
  countsA = new Int32Array(0)
  countsB = new Int32Array(0)
}

const NO_TOKEN = -1
const EMPTY_IDS = new Int32Array(0)

/** The id of a raw run (lower-cased), or {@link NO_TOKEN}. */
function runId(part: string, stemmer: boolean): number {
  const token = stemmer ? rougeStemTokenUncached(part) : part
  // rouge-score's final `^[a-z0-9]+$` filter drops an empty stem
  return token.length === 0 ? NO_TOKEN : vocabularyId(token)
}

/** The id of a new raw run (lower-cased), recorded in `raw`. */
function addRawToken(raw: RawIds, part: string, h: number, stemmer: boolean): number {
  const id = runId(part, stemmer)
  raw.table.add(part, h)
  raw.ids.push(id)
  return id
}

/** The WebAssembly tokenizer (ASCII texts), created on first use; null where the runtime has no WebAssembly. */
let kernel: WordKernel | null | undefined

function rougeKernel(): WordKernel | null {
  // setting 1: stemmed
  if (kernel === undefined) kernel = WordKernel.create('alphanumeric-runs', (run, setting) => runId(run, setting === 1))
  return kernel
}

// Output scratch for tokenIds.
let idScratch = new Int32Array(256)

/**
 * The id arrays of one rougeScore call are views into this arena, which the next call reuses
 * ({@link startIdArena}): a fresh typed array per text (stored off the JS heap) cost more than
 * tokenizing it. Nothing keeps an id array past its call. Texts that do not fit in
 * {@link ARENA_LIMIT} ids get arrays of their own, so what stays allocated is bounded.
 */
const ARENA_LIMIT = 1 << 16
let arena = new Int32Array(4096)
let arenaUsed = 0

function startIdArena(): void {
  arenaUsed = 0
}

/** {@link rougeDefaultTokenize} as ids of the shared vocabulary. */
function tokenIds(text: string, stemmer: boolean): Int32Array {
  const fast = rougeKernel()
  let k = fast === null ? -1 : fast.tokens(text, stemmer ? 1 : 0)
  let ids: Int32Array
  if (k >= 0) {
    ids = fast!.out
  } else {
    const raw = vocabulary.raw[stemmer ? 1 : 0]
    if (idScratch.length < text.length) idScratch = new Int32Array(text.length)
    k = asciiTokenIds(text, raw, stemmer) ?? generalTokenIds(text, raw, stemmer)
    ids = idScratch
  }
  if (k === 0) return EMPTY_IDS
  if (arenaUsed + k > arena.length) {
    if (arenaUsed + k > ARENA_LIMIT) return ids.slice(0, k)
    // views handed out earlier keep the old buffer alive, so growing never changes them
    arena = new Int32Array(Math.min(ARENA_LIMIT, Math.max(2 * arena.length, arenaUsed + k)))
    arenaUsed = 0
  }
  const from = arenaUsed
  arena.set(ids.subarray(0, k), from)
  arenaUsed += k
  return arena.subarray(from, from + k)
}

/**
 * The ids of an ASCII text into `idScratch`, in one scan: there `pyLower` is `toLowerCase` and the
 * `[a-z0-9]` runs of the lower-cased text are the `[A-Za-z0-9]` runs of the text. Returns the
 * count, or undefined at the first non-ASCII character (whose lower case may be ASCII: `İ` → `i̇`).
 */
function asciiTokenIds(text: string, raw: RawIds, stemmer: boolean): number | undefined {
  const out = idScratch
  let k = 0
  let start = -1
  let h = HASH_SEED
  for (let at = 0; at <= text.length; at++) {
    const c = at < text.length ? text.charCodeAt(at) : 32
    if (c > 0x7f) return undefined
    const lower = asciiLower(c)
    if ((lower >= 97 && lower <= 122) || (lower >= 48 && lower <= 57)) {
      if (start < 0) {
        start = at
        h = HASH_SEED
      }
      h = hashStep(h, lower)
    } else if (start >= 0) {
      const index = raw.table.findAsciiLower(text, start, at, h)
      const id = index >= 0 ? raw.ids[index]! : addRawToken(raw, text.slice(start, at).toLowerCase(), h, stemmer)
      if (id !== NO_TOKEN) out[k++] = id
      start = -1
    }
  }
  return k
}

/** The ids of any text into `idScratch` ({@link rougeRawTokens}, then the table); returns the count. */
function generalTokenIds(text: string, raw: RawIds, stemmer: boolean): number {
  const parts = rougeRawTokens(text)
  // pyLower can lengthen the text (`İ` → two units), so the scratch may need to grow
  if (idScratch.length < parts.length) idScratch = new Int32Array(parts.length)
  const out = idScratch
  let k = 0
  for (const part of parts) {
    const h = hashText(part)
    const index = raw.table.find(part, h)
    const id = index >= 0 ? raw.ids[index]! : addRawToken(raw, part, h, stemmer)
    if (id !== NO_TOKEN) out[k++] = id
  }
  return k
}

function vocabularyId(token: string): number {
  let id = vocabulary.ids.get(token)
  if (id === undefined) {
    id = vocabulary.tokens.length
    vocabulary.ids.set(token, id)
    vocabulary.tokens.push(token)
  }
  return id
}

function vocabularyText(id: number): string {
  return vocabulary.tokens[id] as string
}

/** Dense ids for the pre-tokenized kernels (any token type, compared with ===). */
class Interner {
  private readonly ids = new Map<unknown, number>()
  get size(): number {
    return this.ids.size
  }
  array(tokens: readonly unknown[]): Int32Array {
    const out = new Int32Array(tokens.length)
    for (let i = 0; i < tokens.length; i++) {
      let id = this.ids.get(tokens[i])
      if (id === undefined) {
        id = this.ids.size
        this.ids.set(tokens[i], id)
      }
      out[i] = id
    }
    return out
  }
}

interface Prepared {
  /** All tokens of the text. */
  readonly ids: Int32Array
  /** Tokens per non-empty `\n` line (rougeLsum only). */
  readonly lines: readonly Int32Array[] | null
}

function prepare(text: string, stemmer: boolean, wantLines: boolean): Prepared {
  if (!wantLines) return { ids: tokenIds(text, stemmer), lines: null }
  const lines = text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => tokenIds(line, stemmer))
  // one line: the same array, so ROUGE-L and ROUGE-Lsum share one LCS path (see pathOf)
  if (lines.length === 1) return { ids: lines[0] as Int32Array, lines }
  // '\n' always separates tokens, so the whole text's tokens are the lines' tokens end to end
  let total = 0
  for (const line of lines) total += line.length
  const ids = new Int32Array(total)
  let offset = 0
  for (const line of lines) {
    ids.set(line, offset)
    offset += line.length
  }
  return { ids, lines }
}

// Grow-only counters shared by all calls: allocating fresh typed arrays per pair costs more than the
// work on short texts. They hold nothing between calls: they are indexed by token id and every
// kernel sets the entries it touched back to 0. (The LCS kernels and their buffers are in lcs.ts.)
let countsA = new Int32Array(0)
let countsB = new Int32Array(0)
function counters(size: number): readonly [Int32Array, Int32Array] {
  if (countsA.length < size) {
    const grown = Math.max(size, 2 * countsA.length, 1024)
    countsA = new Int32Array(grown)
    countsB = new Int32Array(grown)
  }
  return [countsA, countsB]
}

interface Counts extends RougePrf {
  readonly candidateCount: number
  readonly referenceCount: number
  readonly matchCount: number
}

function ngramOrder(type: RougeType): number {
  return Number(type.slice(5))
}

/** `v`: the number of distinct token ids in use (ids are below it). */
function computeType(type: RougeType, cand: Prepared, ref: Prepared, v: number, missed: number[] | null): Counts {
  if (type === 'rougeL') return lcsCounts(cand.ids, ref.ids, missed)
  if (type === 'rougeLsum') return lsumCounts(cand.lines ?? [], ref.lines ?? [], v, missed)
  return ngramCounts(cand.ids, ref.ids, ngramOrder(type), v, missed)
}

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
}

function prfCounts(matchCount: number, candidateCount: number, referenceCount: number, precisionDenominator: number, recallDenominator: number): Counts {
  const precision = precisionDenominator > 0 ? matchCount / precisionDenominator : 0
  const recall = recallDenominator > 0 ? matchCount / recallDenominator : 0
  return { precision, recall, fmeasure: fmeasure(precision, recall), candidateCount, referenceCount, matchCount }
}

function increment(counts: Int32Array, id: number, by: number): void {
  counts[id] = (counts[id] as number) + by
}

const ZERO_FILLED = (candidateCount: number, referenceCount: number): Counts => ({
  precision: 0,
  recall: 0,
  fmeasure: 0,
  candidateCount,
  referenceCount,
  matchCount: 0,
})

// ---------------------------------------------------------------------------------------------
// ROUGE-N

function ngramText(ids: Int32Array, start: number, n: number): string {
  const parts: string[] = []
  for (let k = 0; k < n; k++) parts.push(vocabularyText(ids[start + k] as number))
  return parts.join(' ')
}

/**
 * Clipped overlap by consuming candidate counts along the reference: reference occurrence k of an
 * n-gram matches iff the candidate has ≥ k of it, which sums to Σ_g min(ref(g), cand(g)).
 */
function ngramCounts(cand: Int32Array, ref: Int32Array, n: number, v: number, missed: number[] | null): Counts {
  const candCount = Math.max(cand.length - n + 1, 0)
  const refCount = Math.max(ref.length - n + 1, 0)
  let overlap = 0
  if (n === 1) {
    const [counts] = counters(v)
    for (let i = 0; i < cand.length; i++) increment(counts, cand[i] as number, 1)
    for (let i = 0; i < ref.length; i++) {
      const id = ref[i] as number
      if ((counts[id] as number) > 0) {
        increment(counts, id, -1)
        overlap++
      } else if (missed !== null) {
        missed.push(i)
      }
    }
    for (let i = 0; i < cand.length; i++) counts[cand[i] as number] = 0
  } else {
    const counts = new Map<number | string, number>()
    const key = (ids: Int32Array, i: number): number | string =>
      n === 2 ? (ids[i] as number) * v + (ids[i + 1] as number) : Array.prototype.join.call(ids.subarray(i, i + n), ',')
    for (let i = 0; i < candCount; i++) {
      const k = key(cand, i)
      counts.set(k, (counts.get(k) ?? 0) + 1)
    }
    for (let i = 0; i < refCount; i++) {
      const k = key(ref, i)
      const c = counts.get(k) ?? 0
      if (c > 0) {
        counts.set(k, c - 1)
        overlap++
      } else if (missed !== null) {
        missed.push(i)
      }
    }
  }
  // rouge-score divides by max(count, 1)
  return prfCounts(overlap, candCount, refCount, Math.max(candCount, 1), Math.max(refCount, 1))
}

// ---------------------------------------------------------------------------------------------
// ROUGE-L

/**
 * {@link lcsPathOf} with a one-entry memo on the arrays' identity: a one-line text's ROUGE-L and
 * ROUGE-Lsum ask for the same path, which on long texts is the expensive part. Cleared after each
 * rougeScore call so a long document is not pinned.
 */
let lastPath: { ref: Int32Array; can: Int32Array; indices: readonly number[] } | null = null

/** rouge-score's LCS of (ref, can) as ascending indices into `ref` (the memo's array: read it, do not keep it). */
function pathOf(ref: Int32Array, can: Int32Array): readonly number[] {
  if (lastPath === null || lastPath.ref !== ref || lastPath.can !== can) {
    const indices: number[] = []
    lcsPathOf(ref, can, indices)
    lastPath = { ref, can, indices }
  }
  return lastPath.indices
}

function lcsCounts(cand: Int32Array, ref: Int32Array, missed: number[] | null): Counts {
  if (cand.length === 0 || ref.length === 0) {
    if (missed !== null) for (let i = 0; i < ref.length; i++) missed.push(i)
    return ZERO_FILLED(cand.length, ref.length)
  }
  let lcs: number
  if (missed === null) {
    lcs = lcsLengthOf(ref, cand)
  } else {
    const kept = pathOf(ref, cand)
    lcs = kept.length
    let k = 0
    for (let i = 0; i < ref.length; i++) {
      if (k < kept.length && kept[k] === i) k++
      else missed.push(i)
    }
  }
  return prfCounts(lcs, cand.length, ref.length, cand.length, ref.length)
}

// ---------------------------------------------------------------------------------------------
// ROUGE-Lsum

function lsumCounts(candLines: readonly Int32Array[], refLines: readonly Int32Array[], v: number, missed: number[] | null): Counts {
  let n = 0
  for (const line of candLines) n += line.length
  let m = 0
  for (const line of refLines) m += line.length
  if (candLines.length === 0 || refLines.length === 0 || n === 0 || m === 0) {
    if (missed !== null) for (let i = 0; i < m; i++) missed.push(i)
    return ZERO_FILLED(n, m)
  }
  const [cc, cr] = counters(v)
  for (const line of candLines) for (let i = 0; i < line.length; i++) increment(cc, line[i] as number, 1)
  for (const line of refLines) for (let i = 0; i < line.length; i++) increment(cr, line[i] as number, 1)

  let hits = 0
  let offset = 0
  for (const r of refLines) {
    const inUnion = new Uint8Array(r.length)
    for (const c of candLines) for (const idx of pathOf(r, c)) inUnion[idx] = 1
    // the union in ascending order; each token counted at most as often as both sides still have it
    for (let i = 0; i < r.length; i++) {
      const tok = r[i] as number
      if (inUnion[i] === 1 && (cc[tok] as number) > 0 && (cr[tok] as number) > 0) {
        hits++
        increment(cc, tok, -1)
        increment(cr, tok, -1)
      } else if (missed !== null) {
        missed.push(offset + i)
      }
    }
    offset += r.length
  }
  for (const line of candLines) for (let i = 0; i < line.length; i++) cc[line[i] as number] = 0
  for (const line of refLines) for (let i = 0; i < line.length; i++) cr[line[i] as number] = 0
  return prfCounts(hits, n, m, n, m)
}

// ---------------------------------------------------------------------------------------------
// public kernels on pre-tokenized input (any tokens compared with ===)

function assertTokenArray(fn: string, argument: string, value: unknown): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) throw new MetricInputError(fn, argument, 'an array of tokens', value)
}

function assertLineArray(fn: string, argument: string, value: unknown): asserts value is ReadonlyArray<readonly unknown[]> {
  if (!Array.isArray(value)) throw new MetricInputError(fn, argument, 'an array of token arrays', value)
  value.forEach((line, i) => assertTokenArray(fn, `${argument}[${i}]`, line))
}

function prf(counts: Counts): RougePrf {
  return { precision: counts.precision, recall: counts.recall, fmeasure: counts.fmeasure }
}

/**
 * ROUGE-N on token lists (rouge-score `_score_ngrams` on `_create_ngrams`): clipped n-gram overlap,
 * `P = overlap / max(#cand n-grams, 1)`, `R = overlap / max(#ref n-grams, 1)`, `F = 2PR/(P+R)` or 0.
 *
 * @example
 * rougeN(['testing', 'one'], ['testing', 'one', 'two'], 2) // { precision: 1, recall: 0.5, fmeasure: 0.6666666666666666 }
 */
export function rougeN<T>(candidateTokens: readonly T[], referenceTokens: readonly T[], n: number): RougePrf {
  assertTokenArray('rougeN', 'candidateTokens', candidateTokens)
  assertTokenArray('rougeN', 'referenceTokens', referenceTokens)
  if (typeof n !== 'number' || !Number.isInteger(n) || n <= 0) throw new MetricInputError('rougeN', 'n', 'a positive integer', n)
  const interner = new Interner()
  const cand = interner.array(candidateTokens)
  const ref = interner.array(referenceTokens)
  return prf(ngramCounts(cand, ref, n, interner.size, null))
}

/**
 * ROUGE-L on token lists (rouge-score `_score_lcs`): `P = lcs/|cand|`, `R = lcs/|ref|`; all 0 if either is empty.
 *
 * @example
 * rougeL(['testing', 'two'], ['testing', 'one', 'two']) // { precision: 1, recall: 0.6666666666666666, fmeasure: 0.8 }
 */
export function rougeL<T>(candidateTokens: readonly T[], referenceTokens: readonly T[]): RougePrf {
  assertTokenArray('rougeL', 'candidateTokens', candidateTokens)
  assertTokenArray('rougeL', 'referenceTokens', referenceTokens)
  const interner = new Interner()
  const cand = interner.array(candidateTokens)
  const ref = interner.array(referenceTokens)
  return prf(lcsCounts(cand, ref, null))
}

/**
 * Summary-level ROUGE-L on token lists per line (rouge-score `_summary_level_lcs`): union LCS per
 * reference line over all candidate lines, hits clipped by token counts; `P = hits/Σ|cand line|`,
 * `R = hits/Σ|ref line|`; all 0 if either side has no lines or no tokens.
 *
 * @example
 * rougeLsum([[1, 2, 6, 7, 8], [1, 3, 8, 9, 5]], [[1, 2, 3, 4, 5]]) // { precision: 0.4, recall: 0.8, fmeasure: 0.5333333333333333 }
 */
export function rougeLsum<T>(candidateLines: ReadonlyArray<readonly T[]>, referenceLines: ReadonlyArray<readonly T[]>): RougePrf {
  assertLineArray('rougeLsum', 'candidateLines', candidateLines)
  assertLineArray('rougeLsum', 'referenceLines', referenceLines)
  const interner = new Interner()
  const cand = candidateLines.map((l) => interner.array(l))
  const ref = referenceLines.map((l) => interner.array(l))
  const counts = lsumCounts(cand, ref, interner.size, null)
  lastPath = null
  return prf(counts)
}

/**
 * Length of the longest common subsequence of two token lists.
 *
 * @example
 * lcsLength([1, 2, 3, 4, 5], [2, 5, 3, 4]) // 3
 */
export function lcsLength<T>(a: readonly T[], b: readonly T[]): number {
  assertTokenArray('lcsLength', 'a', a)
  assertTokenArray('lcsLength', 'b', b)
  const interner = new Interner()
  const ia = interner.array(a)
  const ib = interner.array(b)
  return lcsLengthOf(ia, ib)
}

/**
 * The LCS rouge-score picks (`_backtrack_norec`), as ascending indices into `reference`.
 *
 * @example
 * lcsIndices([1, 2, 3, 4, 5], [2, 5, 3, 4]) // [1, 2, 3]
 */
export function lcsIndices<T>(reference: readonly T[], candidate: readonly T[]): number[] {
  assertTokenArray('lcsIndices', 'reference', reference)
  assertTokenArray('lcsIndices', 'candidate', candidate)
  const interner = new Interner()
  const ref = interner.array(reference)
  const can = interner.array(candidate)
  const out: number[] = []
  lcsPathOf(ref, can, out)
  return out
}

/**
 * The union of {@link lcsIndices}(reference, line) over the candidate lines, sorted (rouge-score
 * `_find_union` of the `_union_lcs` index lists).
 *
 * @example
 * unionLcsIndices([1, 2, 3, 4, 5], [[1, 2, 6, 7, 8], [1, 3, 8, 9, 5]]) // [0, 1, 2, 4]
 */
export function unionLcsIndices<T>(reference: readonly T[], candidateLines: ReadonlyArray<readonly T[]>): number[] {
  assertTokenArray('unionLcsIndices', 'reference', reference)
  assertLineArray('unionLcsIndices', 'candidateLines', candidateLines)
  const interner = new Interner()
  const ref = interner.array(reference)
  const lines = candidateLines.map((l) => interner.array(l))
  const union = new Set<number>()
  const indices: number[] = []
  for (const line of lines) {
    indices.length = 0
    lcsPathOf(ref, line, indices)
    for (const i of indices) union.add(i)
  }
  return [...union].sort((x, y) => x - y)
}
