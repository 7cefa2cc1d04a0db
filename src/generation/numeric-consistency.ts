import { MetricInputError, assertString } from '../errors.js'
import { type Score, makeScore } from '../score.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { buildSignature } from '../signature.js'
import { checkTextLength, checkUnitCount, DEFAULT_MAX_TOKENS, resolveLimit, resolveMaxTokens } from './input-limits.js'
import { maxWeightMatching } from './numbers/assignment.js'
import { type Decimal, decimalEquals, decimalFrom, normalize, roundTo, shift } from './numbers/decimal.js'
import {
  EXTRACT_NUMBERS_OPTION_KEYS,
  type ExtractNumbersOptions,
  type IgnorableNumbers,
  type NumberMention,
  extractMentions,
  extractNumbers,
  validateExtractOptions,
} from './numbers/extract-numbers.js'
import { STOPWORDS, WEAK_UNITS, normalizeWord, sameWord } from './numbers/vocabulary.js'

export { extractNumbers } from './numbers/extract-numbers.js'
export type { ExtractNumbersOptions, IgnorableNumbers, NumberKind, NumberMention } from './numbers/extract-numbers.js'

export interface NumericConsistencyOptions extends ExtractNumbersOptions {
  /**
   * Two plain numbers are equal when |a − b| ≤ relativeTolerance × max(|a|, |b|). Default `0`
   * (exact decimal equality, which already makes 28.4 = 28.40 = 2.84e1). Must be in [0, 1).
   * Never applies to years, dates, ordinals or versions.
   */
  readonly relativeTolerance?: number
  /**
   * Accept a number written with fewer decimals when the other rounds to it (half away from zero):
   * 28.43 ≈ 28.4, 28.4 ≈ 28. Default `false`. Never applies to years, dates, ordinals or versions.
   */
  readonly rounding?: boolean
  /**
   * Use units (glued, `GB`, `percent`…) and the words right after a number (`heads`) to tell
   * quantities apart. Default `true`. With `false` they still count as context words, but a shared
   * unit adds no weight and different units never separate two quantities.
   */
  readonly units?: boolean
  /**
   * A reference without any number has nothing to check. `true`: refused with a MetricInputError.
   * `false`: value 1 with `details.reason`. Default `false` here; the `toStateNumbersOf` matcher
   * defaults to `true`, because an assertion with nothing to check proves nothing.
   */
  readonly requireNumbers?: boolean
  /** The most whitespace-separated words the candidate or reference may have; more is a MetricInputError (`Infinity`: no limit). @default 1000000 */
  readonly maxTokens?: number
  /**
   * The most number mentions the candidate or reference may have; more is a MetricInputError
   * (`Infinity`: no limit). Pairing mentions is quadratic in their count (1,000 a side took about
   * 4 s on a 2-core machine, 3,000 about 30 s). @default 1000
   */
  readonly maxNumbers?: number
}

/** The keys of {@link NumericConsistencyOptions}: what numericConsistency accepts. */
export const NUMERIC_CONSISTENCY_OPTION_KEYS = keysOf<NumericConsistencyOptions>()(
  ...EXTRACT_NUMBERS_OPTION_KEYS,
  'relativeTolerance',
  'rounding',
  'units',
  'requireNumbers',
  'maxTokens',
  'maxNumbers',
)

/** A reference number the candidate states correctly. */
export interface NumericMatch {
  readonly reference: NumberMention
  readonly candidate: NumberMention
  /**
   * `aligned`: the two were paired one-to-one. `repeated`: one side states the same fact once more
   * (same value, a shared context word or unit, no conflicting unit) and its partner was already used.
   */
  readonly via: 'aligned' | 'repeated'
  /** Context words the two share (normalised), e.g. `['bleu', 'score']`. */
  readonly context: readonly string[]
}

/** A reference number the candidate gives a different value for. */
export interface NumericContradiction {
  readonly reference: NumberMention
  readonly candidate: NumberMention
  /** The shared context words that show both talk about the same quantity. */
  readonly context: readonly string[]
  /** True when the unit or the words right after the number agree (`heads` / `heads`). */
  readonly sameUnit: boolean
}

export interface NumericConsistencyDetails {
  /** No reference number contradicted or omitted (value === 1). */
  readonly consistent: boolean
  readonly referenceNumbers: readonly NumberMention[]
  readonly candidateNumbers: readonly NumberMention[]
  readonly matched: readonly NumericMatch[]
  readonly contradicted: readonly NumericContradiction[]
  /** Reference numbers the candidate does not state at all. */
  readonly omitted: readonly NumberMention[]
  /** Candidate numbers with no counterpart in the reference (they never lower the score). */
  readonly added: readonly NumberMention[]
  /** Reference numbers stated correctly, and all reference numbers: value = stated / total. */
  readonly stated: number
  readonly total: number
  /** Set when the value is 1 for want of reference numbers. */
  readonly reason?: string
}

type NumberClass = 'version' | 'month' | 'day' | 'number'

interface Resolved {
  readonly units: boolean
  readonly words: boolean
  readonly tol: number
  readonly rounding: boolean
  readonly ignore: ReadonlySet<IgnorableNumbers>
  readonly requireNumbers: boolean
  readonly maxTokens: number
  readonly maxNumbers: number
}

interface PairInfo {
  readonly weight: number
  readonly equal: boolean
  readonly shared: readonly string[]
  readonly sameUnit: boolean
  readonly conflict: boolean
}

const FN = 'numericConsistency'
const IGNORE_ORDER: readonly IgnorableNumbers[] = ['years', 'dates', 'ordinals', 'versions']

/**
 * Deterministic numeric-fact check: does the candidate state the reference's numbers, and does it
 * state any of them with a different value? Lexical metrics miss a wrong number in a well-phrased
 * sentence ("BLEU 41.0" for "28.4" still scores BLEU 76 against the reference); this does not.
 *
 * **Numbers** come from {@link extractNumbers} (digits, words, percents, ranges, date parts,
 * versions as one token; digits inside names such as `WMT14`, `GPT-4`, `P100` are not numbers).
 *
 * **Equality.** Mentions compare only within a class: versions with versions, months with months,
 * days with days, everything else (integers, decimals, percents, ordinals, scientific, years and the
 * year of a date) together.
 * - plain numbers: exact decimal equality (28.4 = 28.40, 1,000 = 1000, 1e-3 = 0.001, "eight" = 8,
 *   "8 %" = "8%" = "8 percent"); a percent also equals the same number without `%` and its fraction
 *   (92.4 % = 92.4 = 0.924). Then, if set, `relativeTolerance` and `rounding` (not for years, date
 *   parts or ordinals, which are always exact);
 * - versions: equal dotted components after dropping trailing `.0` (v2.6.0 = 2.6, but 3.10 ≠ 3.1).
 *
 * **Alignment.** Each reference/candidate pair of the same class gets a weight from these terms.
 * The *description* of a number is its `context` (≤3 content words before it in its sentence, and a
 * prepositional phrase after it, see {@link NumberMention}) plus its `unitWords` (≤3 content words
 * right after it), plus the parts of hyphenated words ("english-to-french" adds english, french).
 * `shared` = how many description words the two have in common (word match: equal after light
 * normalisation, or one a ≥4-letter prefix of the other), counted from each side, the smaller
 * count, at most 3. The *unit terms* of a number are its non-generic unit (`gb`, `day`; percent,
 * currencies and `times` are too generic to tell quantities apart) plus its `unitWords`.
 * `sameUnit` = the unit terms of the two overlap; `conflict` = both carry a unit and the units
 * differ, or both have unit terms and none overlap ("8 heads" vs "8 layers", "8 GPUs" vs "8 days");
 * `disjoint` = both descriptions are non-empty and share nothing. With `units: false`, `sameUnit`
 * and `conflict` are always false.
 * - equal values: weight = 4 + 2·shared + 2·sameUnit − 3·(conflict or disjoint) (always ≥ 1);
 * - different values: allowed only when there is no conflict and (shared ≥ 1 or sameUnit);
 *   weight = 2·shared + 2·sameUnit.
 * Two numbers *state the same fact* when their values are equal, there is no conflict, and
 * shared ≥ 1 or sameUnit. A reference number with such a partner anywhere in the candidate is
 * never paired with a different value. The pairing is one-to-one and lexicographic: first the most
 * same-fact pairs, then the largest total weight. So an exact value always wins over a contradiction
 * ("Pro tickets within 8 business hours and Enterprise tickets within 1 hour" states the "1 hour"
 * of "Enterprise tickets receive a first response within 1 hour", in either clause order), while a
 * better-supported alignment still wins over an equal value that does not state the same fact:
 * "8 heads and 6 layers" vs "6 heads and 8 layers" pairs heads with heads and reports two
 * contradictions. The pairing does not depend on where numbers sit in either text: ties go by what
 * the mentions look like (value, unit, context, text), never by their positions, so reordering the
 * sentences, or clauses whose numbers are described by their own words, changes nothing.
 *
 * **Outcome** for each reference number:
 * - `matched`: paired with an equal value, or (`repeated`) unpaired but the candidate has a number
 *   that states the same fact ("encoder and decoder each have 6 layers");
 * - `contradicted`: paired with a different value (`context` lists the words that tie them); only
 *   a reference number that no candidate number states the same fact for;
 * - `omitted`: otherwise.
 * A candidate number is `added` when it is unpaired and states no reference number's fact. Added
 * numbers are reported but never lower the score: the reference cannot judge them.
 *
 * **Value** = stated / total = matched reference numbers / reference numbers, in [0, 1]; `1` when the
 * reference has no numbers (with `details.reason`). The check passes only at 1: nothing contradicted,
 * nothing omitted (`details.consistent`).
 *
 * Defaults: `units: true`, `words: true`, `relativeTolerance: 0`, `rounding: false`, `ignore: []`.
 * Signature: `NumCheck|units:yes|words:yes|tol:0|round:no|ignore:none|version:…`.
 *
 * Parity: no reference implementation exists; the rules above are the specification and the test
 * table in `test/src/generation/numeric-consistency.test.ts` pins them. Cost: extraction is linear;
 * alignment scores every reference × candidate pair and solves each connected group of allowed
 * pairs with the Hungarian method (~1 ms for 20 × 20 numbers, ~1 s for 1,600 × 1,600).
 *
 * @example
 * const s = numericConsistency(
 *   'Their big model achieved a BLEU score of 41.0 on the WMT 2014 English-to-German translation task.',
 *   'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.',
 * )
 * s.value // 0.5 (2014 stated, 28.4 contradicted)
 * s.details.contradicted.map((c) => [c.reference.raw, c.candidate.raw]) // [['28.4', '41.0']]
 */
export function numericConsistency(candidate: string, reference: string, options: NumericConsistencyOptions = {}): Score<NumericConsistencyDetails> {
  assertString(FN, 'candidate', candidate)
  assertString(FN, 'reference', reference)
  const opts = resolveOptions(options)
  checkTextLength(FN, 'candidate', candidate, opts.maxTokens)
  checkTextLength(FN, 'reference', reference, opts.maxTokens)
  const extract = { words: opts.words, ignore: [...opts.ignore] }
  const { mentions: refs, outOfRange } = extractMentions(FN, reference, extract)
  // a number beyond a double's range cannot be compared; read as no number it would let any answer pass
  if (outOfRange.length > 0) {
    throw new MetricInputError(
      FN,
      'reference',
      `a text whose numbers are within the range of a double (magnitude below 1.8e308); ${JSON.stringify(outOfRange[0])} is out of range and cannot be compared`,
      reference,
    )
  }
  checkNumberCount('reference', refs.length, opts.maxNumbers)
  if (opts.requireNumbers && refs.length === 0) {
    throw new MetricInputError(FN, 'reference', 'a text that states at least one number (pass { requireNumbers: false } to accept one without)', reference)
  }
  const cands = extractNumbers(candidate, extract)
  checkNumberCount('candidate', cands.length, opts.maxNumbers)
  const signature = buildSignature('NumCheck', [
    ['units', opts.units],
    ['words', opts.words],
    ['tol', opts.tol],
    ['round', opts.rounding],
    ['ignore', opts.ignore.size === 0 ? 'none' : IGNORE_ORDER.filter((k) => opts.ignore.has(k)).join(',')],
  ])

  const fr = refs.map(features)
  const fc = cands.map(features)
  const info: Array<Array<PairInfo | null>> = fr.map((r) => fc.map((c) => pairInfo(r, c, opts)))
  // A reference number with a candidate number anywhere that states the same fact can only be
  // matched: never contradicted, never omitted, wherever that number sits in the candidate.
  const restated = info.map((row) => row.some(sameFact))
  const refKeys = refs.map(orderKey)
  const candKeys = cands.map(orderKey)
  const pairs = align(info, restated, refKeys, candKeys)

  const matched: NumericMatch[] = []
  const contradicted: NumericContradiction[] = []
  const omitted: NumberMention[] = []
  const refPaired = new Map<number, number>()
  const candPaired = new Set<number>()
  for (const [i, j] of pairs) {
    refPaired.set(i, j)
    candPaired.add(j)
  }
  let stated = 0
  refs.forEach((r, i) => {
    const row = info[i] as ReadonlyArray<PairInfo | null>
    const j = refPaired.get(i)
    if (j !== undefined) {
      const p = row[j] as PairInfo
      const c = cands[j] as NumberMention
      if (p.equal) {
        matched.push({ reference: r, candidate: c, via: 'aligned', context: p.shared })
        stated += 1
      } else {
        contradicted.push({ reference: r, candidate: c, context: p.shared, sameUnit: p.sameUnit })
      }
      return
    }
    // Its equal partners all went to other reference numbers stating the same value.
    const k = restated[i] ? bestPartner(row, candKeys, sameFact) : -1
    if (k >= 0) {
      const p = row[k] as PairInfo
      matched.push({ reference: r, candidate: cands[k] as NumberMention, via: 'repeated', context: p.shared })
      stated += 1
    } else {
      omitted.push(r)
    }
  })
  const added: NumberMention[] = []
  cands.forEach((c, j) => {
    if (candPaired.has(j)) return
    const k = bestPartner(
      info.map((row) => row[j] ?? null),
      refKeys,
      sameFact,
    )
    if (k >= 0) {
      const p = info[k]?.[j] as PairInfo
      matched.push({ reference: refs[k] as NumberMention, candidate: c, via: 'repeated', context: p.shared })
    } else {
      added.push(c)
    }
  })
  matched.sort((a, b) => a.reference.start - b.reference.start || a.candidate.start - b.candidate.start)

  const total = refs.length
  const value = total === 0 ? 1 : stated / total
  const details: NumericConsistencyDetails = {
    consistent: stated === total,
    referenceNumbers: refs,
    candidateNumbers: cands,
    matched,
    contradicted,
    omitted,
    added,
    stated,
    total,
    ...(total === 0 ? { reason: 'the reference states no numbers, so none can be contradicted or omitted' } : {}),
  }
  return makeScore('NumCheck', value, signature, details)
}

/** Default `maxNumbers`: about 4 s of pairing at 1,000 mentions a side. */
const DEFAULT_MAX_NUMBERS = 1000

function checkNumberCount(argument: string, count: number, limit: number): void {
  checkUnitCount(FN, argument, count, limit, 'numbers', 'maxNumbers', 'pairing them is quadratic')
}

function resolveOptions(options: unknown): Resolved {
  const { words, ignore } = validateExtractOptions(FN, options)
  checkOptionKeys(FN, options, NUMERIC_CONSISTENCY_OPTION_KEYS)
  const o = options as NumericConsistencyOptions
  const tol = o.relativeTolerance === undefined ? 0 : o.relativeTolerance
  if (typeof tol !== 'number' || !Number.isFinite(tol) || tol < 0 || tol >= 1) {
    throw new MetricInputError(FN, 'options.relativeTolerance', 'a number in [0, 1)', tol)
  }
  const rounding = o.rounding === undefined ? false : o.rounding
  if (typeof rounding !== 'boolean') throw new MetricInputError(FN, 'options.rounding', 'a boolean', rounding)
  const units = o.units === undefined ? true : o.units
  if (typeof units !== 'boolean') throw new MetricInputError(FN, 'options.units', 'a boolean', units)
  const requireNumbers = o.requireNumbers === undefined ? false : o.requireNumbers
  if (typeof requireNumbers !== 'boolean') throw new MetricInputError(FN, 'options.requireNumbers', 'a boolean', requireNumbers)
  const maxTokens = resolveMaxTokens(FN, o.maxTokens, DEFAULT_MAX_TOKENS)
  const maxNumbers = resolveLimit(FN, 'maxNumbers', o.maxNumbers, DEFAULT_MAX_NUMBERS)
  return { units, words, tol, rounding, ignore, requireNumbers, maxTokens, maxNumbers }
}

// ---------------------------------------------------------------------------------------------
// Pair weights

/** What the pair rules need from one mention, computed once. */
interface Features {
  readonly m: NumberMention
  readonly cls: NumberClass
  /** Context words before plus words after, de-duplicated. */
  readonly desc: readonly string[]
  /** Non-generic unit plus the words after the number. */
  readonly units: readonly string[]
  /** Exact value with its written precision; null for versions. */
  readonly dec: Decimal | null
  /** Years, date parts and ordinals compare exactly. */
  readonly strict: boolean
}

function features(m: NumberMention): Features {
  const cls: NumberClass = m.kind === 'version' ? 'version' : m.datePart === 'month' ? 'month' : m.datePart === 'day' ? 'day' : 'number'
  return {
    m,
    cls,
    desc: withParts([...m.context, ...m.unitWords]),
    units: m.unit !== null && !WEAK_UNITS.has(m.unit) ? [m.unit, ...m.unitWords] : [...m.unitWords],
    dec: m.kind === 'version' ? null : toDecimal(m),
    strict: m.kind === 'year' || m.kind === 'date' || m.kind === 'ordinal',
  }
}

/** The words plus the content parts of hyphenated ones ("english-to-french" → english, french), de-duplicated. */
function withParts(words: readonly string[]): string[] {
  const out = new Set<string>()
  for (const w of words) {
    out.add(w)
    if (!w.includes('-')) continue
    for (const part of w.split('-')) if (part.length >= 2 && !STOPWORDS.has(part)) out.add(normalizeWord(part))
  }
  return [...out]
}

/** Words of `a` that match some word of `b`. */
function sharedFrom(a: readonly string[], b: readonly string[]): string[] {
  return a.filter((x) => b.some((y) => sameWord(x, y)))
}

function pairInfo(r: Features, c: Features, opts: Resolved): PairInfo | null {
  if (r.cls !== c.cls) return null
  const equal = valuesEqual(r, c, opts)
  const fromR = sharedFrom(r.desc, c.desc)
  const shared = Math.min(fromR.length, fromR.length === 0 ? 0 : sharedFrom(c.desc, r.desc).length, 3)
  // A unit that names a quantity (`day`, `gb`) behaves like a word after the number; percent and
  // currencies are too generic to tell two quantities apart.
  const unitsOverlap = r.units.length > 0 && c.units.length > 0 && sharedFrom(r.units, c.units).length > 0
  const sameUnit = opts.units && unitsOverlap
  const conflict = opts.units && ((r.m.unit !== null && c.m.unit !== null && r.m.unit !== c.m.unit) || (r.units.length > 0 && c.units.length > 0 && !unitsOverlap))
  const disjoint = r.desc.length > 0 && c.desc.length > 0 && shared === 0
  let weight: number
  if (equal) {
    weight = 4 + 2 * shared + (sameUnit ? 2 : 0) - (conflict || disjoint ? 3 : 0)
  } else {
    if (conflict || (shared === 0 && !sameUnit)) return null
    weight = 2 * shared + (sameUnit ? 2 : 0)
  }
  return { weight, equal, shared: fromR, sameUnit, conflict }
}

/**
 * The two state the same fact: equal values, no conflicting unit, and a shared context word or unit
 * (the rule that already made an unpaired number a repeat). A reference number with such a partner
 * is matched; one without can be contradicted or omitted.
 */
function sameFact(p: PairInfo | null): boolean {
  return p !== null && p.equal && !p.conflict && (p.shared.length > 0 || p.sameUnit)
}

/**
 * What a mention looks like to the pairing, without its position: everything the pair rules read,
 * plus the text shown in messages. Two mentions with equal keys are interchangeable.
 */
function orderKey(m: NumberMention): string {
  return JSON.stringify([m.canonical, m.kind, m.datePart ?? null, m.unit, m.precision, m.context, m.unitWords, m.raw])
}

/** Code-unit order, the same on every platform and locale. */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Index of the heaviest partner that passes `ok` (ties: the smallest order key, then the first), or -1. */
function bestPartner(row: ReadonlyArray<PairInfo | null>, keys: readonly string[], ok: (p: PairInfo | null) => boolean): number {
  let best = -1
  row.forEach((p, k) => {
    if (!ok(p)) return
    if (best < 0) {
      best = k
      return
    }
    const q = row[best] as PairInfo
    const w = (p as PairInfo).weight
    if (w > q.weight || (w === q.weight && compareKeys(keys[k] as string, keys[best] as string) < 0)) best = k
  })
  return best
}

/**
 * The one-to-one pairing, solved per connected component of allowed pairs. Lexicographic objective:
 * first the most pairs that state the same fact, then the largest total pair weight. A reference
 * number that has such a partner (`restated`) is never paired with a different value. Rows and columns are put in order-key order before solving, so the result does not depend
 * on where the numbers sit in either text (only on what they look like).
 */
function align(
  info: ReadonlyArray<ReadonlyArray<PairInfo | null>>,
  restated: readonly boolean[],
  refKeys: readonly string[],
  candKeys: readonly string[],
): Array<[number, number]> {
  const nr = refKeys.length
  const nc = candKeys.length
  if (nr === 0 || nc === 0) return []
  const allowed = (i: number, j: number): PairInfo | null => {
    const p = info[i]?.[j] ?? null
    return p !== null && (p.equal || !restated[i]) ? p : null
  }

  // Union-find over references 0..nr-1 and candidates nr..nr+nc-1.
  const parent = Array.from({ length: nr + nc }, (_, k) => k)
  const find = (k: number): number => {
    while (parent[k] !== k) {
      parent[k] = parent[parent[k] as number] as number
      k = parent[k] as number
    }
    return k
  }
  for (let i = 0; i < nr; i++) {
    for (let j = 0; j < nc; j++) if (allowed(i, j)) parent[find(i)] = find(nr + j)
  }
  const groups = new Map<number, { rows: number[]; cols: number[] }>()
  for (let k = 0; k < nr + nc; k++) {
    const root = find(k)
    const g = groups.get(root) ?? { rows: [], cols: [] }
    if (k < nr) g.rows.push(k)
    else g.cols.push(k - nr)
    groups.set(root, g)
  }
  const out: Array<[number, number]> = []
  for (const { rows, cols } of groups.values()) {
    if (rows.length === 0 || cols.length === 0) continue
    rows.sort((a, b) => compareKeys(refKeys[a] as string, refKeys[b] as string) || a - b)
    cols.sort((a, b) => compareKeys(candKeys[a] as string, candKeys[b] as string) || a - b)
    let heaviest = 0
    for (const i of rows) for (const j of cols) heaviest = Math.max(heaviest, allowed(i, j)?.weight ?? 0)
    // One more equal pair outweighs any difference in the other weights (integers, at most
    // `heaviest` per pair), so exact values are placed first and context decides the rest.
    const bonus = heaviest * Math.min(rows.length, cols.length) + 1
    const weights = rows.map((i) =>
      cols.map((j) => {
        const p = allowed(i, j)
        return p === null ? 0 : p.weight + (sameFact(p) ? bonus : 0)
      }),
    )
    for (const [a, b] of maxWeightMatching(weights)) out.push([rows[a] as number, cols[b] as number])
  }
  return out.sort((a, b) => a[0] - b[0])
}

// ---------------------------------------------------------------------------------------------
// Value equality

function toDecimal(m: NumberMention): Decimal {
  const neg = m.canonical.startsWith('-')
  const [int = '0', frac = ''] = (neg ? m.canonical.slice(1) : m.canonical).split('.')
  // Re-attach the written precision (canonical drops trailing zeros) for the rounding rule:
  // "28.40" is 2840 × 10^-2, "1.5 million" is 15 × 10^5.
  const d = normalize(decimalFrom(int, frac, neg))
  if (d.scale <= m.precision) return d
  return { ...d, digits: d.digits * 10n ** BigInt(d.scale - m.precision), scale: m.precision }
}

function valuesEqual(r: Features, c: Features, opts: Resolved): boolean {
  // Canonical forms are exact: equal text is equal value (and the only test for versions).
  if (r.m.canonical === c.m.canonical) return true
  if (r.dec === null || c.dec === null || r.strict || c.strict) return false
  const rp = r.m.kind === 'percent'
  const cp = c.m.kind === 'percent'
  const approximate = opts.rounding || opts.tol > 0
  if (!approximate && rp === cp) return false
  const readings: Array<[Decimal, Decimal]> = approximate ? [[r.dec, c.dec]] : []
  // 92.4 % also reads as 0.924 when the other side is a bare number.
  if (rp && !cp) readings.push([shift(r.dec, -2), c.dec])
  if (cp && !rp) readings.push([r.dec, shift(c.dec, -2)])
  return readings.some(([x, y]) => decimalsClose(x, y, opts))
}

function decimalsClose(x: Decimal, y: Decimal, opts: Resolved): boolean {
  if (decimalEquals(x, y)) return true
  if (opts.rounding) {
    const [coarse, fine] = x.scale >= y.scale ? [x, y] : [y, x]
    if (decimalEquals(roundTo(fine, coarse.scale), coarse)) return true
  }
  if (opts.tol > 0) {
    const a = decimalToNumber(x)
    const b = decimalToNumber(y)
    if (Math.abs(a - b) <= opts.tol * Math.max(Math.abs(a), Math.abs(b))) return true
  }
  return false
}

function decimalToNumber(d: Decimal): number {
  return (d.negative ? -1 : 1) * Number(`${d.digits}e${d.scale}`)
}
