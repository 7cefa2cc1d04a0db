import { MetricInputError, assertString } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import { checkOptionKeys } from '../../options.js'
import { type Decimal, decimalFrom, decimalFromBigInt, negate, shift, toCanonical, toNumber } from './decimal.js'
import { SCALE_EXPONENTS, isNumberWordStart, parseNumberWords } from './number-words.js'
import {
  ATTACHED_UNITS,
  CURRENCY_SYMBOLS,
  MAGNITUDE_SUFFIXES,
  MONTHS,
  ONE_PRONOUN_BEFORE,
  STOPWORDS,
  UNIT_PHRASES,
  UNIT_WORDS,
  VERSION_CUES,
  YEAR_PREFIXES,
  normalizeWord,
} from './vocabulary.js'

/**
 * How a number is written. `year` is a bare four-digit integer 1900–2099 with no unit; `date` is a
 * part (year, month or day) of a full date; `version` is one token however many dots it has.
 */
export type NumberKind = 'integer' | 'decimal' | 'percent' | 'ordinal' | 'scientific' | 'year' | 'date' | 'version'

/** One numeric mention found in a text. Offsets are UTF-16 indices into that text (`text.slice(start, end) === raw`). */
export interface NumberMention {
  /** The value as a double (`-0.5`, `1500000`, `92.4` for "92.4 %"); `null` only for versions. */
  readonly value: number | null
  /** Exact comparison form: plain decimal text (`"0.001"` for "1e-3", `"1000"` for "1,000"); for a version the dotted components without trailing `.0`. */
  readonly canonical: string
  readonly raw: string
  readonly start: number
  readonly end: number
  readonly kind: NumberKind
  /** `words` for number words ("eight", "a hundred"); `digits` otherwise, including "1.5 million". */
  readonly written: 'digits' | 'words'
  /** An explicit sign as written: `-1` for "-"/"−"/"minus", `1` for "+", `0` when none. */
  readonly sign: -1 | 0 | 1
  /** Canonical measurement unit, glued or next word: `percent`, `gb`, `hour`, `dollar`, `times`…; `null` when none. */
  readonly unit: string | null
  /** Up to three content words right after the number (or after its unit), normalised: "8 attention heads" → `['attention', 'head']`. */
  readonly unitWords: readonly string[]
  /**
   * Words that describe the number, normalised: up to three content words before it in its sentence
   * (nearest first, not crossing another number or its words), then up to three of a prepositional
   * phrase after it ("41.8 on English-to-French") unless that phrase runs into another number.
   */
  readonly context: readonly string[]
  /** Power of ten of the last written digit: "28.4" → -1, "28.40" → -2, "1.5 million" → 5, words → 0. */
  readonly precision: number
  /** Set on both endpoints of "10–20", "10-20", "10 to 20", "between 10 and 20"; `partner` indexes the same list. */
  readonly range?: { readonly role: 'start' | 'end'; readonly partner: number }
  /** Set on the parts of a full date ("March 3, 2017", "2017-03-03"). */
  readonly datePart?: 'year' | 'month' | 'day'
}

/** Mention kinds that can be left out of extraction. `years` covers bare years and the year of a date. */
export type IgnorableNumbers = 'years' | 'dates' | 'ordinals' | 'versions'

export interface ExtractNumbersOptions {
  /** Read number words (`eight`, `twenty-one`, `a hundred`, `third`). Default `true`. */
  readonly words?: boolean
  /** Kinds to leave out. Default none. */
  readonly ignore?: readonly IgnorableNumbers[]
}

/** The keys of {@link ExtractNumbersOptions}: what extractNumbers accepts. */
export const EXTRACT_NUMBERS_OPTION_KEYS = keysOf<ExtractNumbersOptions>()('words', 'ignore')

const IGNORABLE: ReadonlySet<string> = new Set(['years', 'dates', 'ordinals', 'versions'])

// ---------------------------------------------------------------------------------------------
// Tokens

interface Draft {
  start: number
  end: number
  dec: Decimal | null
  version: string[] | null
  kind: NumberKind
  written: 'digits' | 'words'
  sign: -1 | 0 | 1
  unit: string | null
  unitWords: string[]
  /** Content words before the number (nearest first). */
  before: string[]
  /** Content words of a prepositional phrase after the number ("on English-to-French"). */
  trailing: string[]
  datePart?: 'year' | 'month' | 'day'
  rangeRole?: 'start' | 'end'
  partner?: Draft
  /** A bare four-digit integer 1900–2099: a year unless a unit follows. */
  yearCandidate: boolean
  /** Plain digits with at most one dot and nothing around them: can become a version after a cue word. */
  plain: boolean
}

interface WordTok {
  readonly type: 'word'
  readonly start: number
  readonly end: number
  readonly lower: string
  readonly norm: string
  readonly stop: boolean
  owned: boolean
}
interface PunctTok {
  readonly type: 'punct'
  readonly start: number
  readonly end: number
  readonly ch: string
  readonly boundary: boolean
}
interface NumTok {
  readonly type: 'num'
  start: number
  end: number
  readonly mentions: Draft[]
  readonly isDate: boolean
  /** Index of the first token after the number's unit phrase (set by attachUnits). */
  tail?: number
}
type Token = WordTok | PunctTok | NumTok

const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u
const LETTER = /[\p{L}_]/u
const DIGIT = /[0-9]/
const SIGNS: ReadonlyMap<string, -1 | 1> = new Map([
  ['-', -1],
  ['\u2212', -1],
  ['+', 1],
])
const BOUNDARY = new Set(['.', '!', '?', ';', '\n', '\u2026'])
const SPACE = /[ \t\v\f\r\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]/u

// Words may continue with an apostrophe (don't), a hyphen (GPT-4), a dot before a digit (v2.6.0)
// or `@` and digits (Recall@10, nDCG@5: a metric cutoff is part of the name).
const WORD_AT = /[\p{L}\p{M}_][\p{L}\p{M}\p{N}_]*(?:['’][\p{L}\p{M}]+|-[\p{L}\p{M}\p{N}_]+|\.\p{N}[\p{L}\p{M}\p{N}_]*|@\p{N}+)*/uy
const IDENT_REST_AT = /[\p{L}\p{M}\p{N}_]*(?:['’][\p{L}\p{M}]+|-[\p{L}\p{M}\p{N}_]+|\.\p{N}[\p{L}\p{M}\p{N}_]*|@\p{N}+)*/uy
const DOTTED_VERSION_AT = /\d+(?:\.\d+){2,}(?![\p{L}\p{M}\p{N}_]|\.\d)/uy
// Thousands groups: commas, or no-break / thin / narrow no-break spaces (an ordinary space is NOT a
// separator: "sizes 64 128 256" are three numbers).
const LITERAL_AT = /(\d{1,3}(?:,\d{3})+(?!\d)|\d{1,3}(?:[\u00a0\u2009\u202f]\d{3})+(?!\d)|\d+)(?:\.(\d+))?|\.(\d+)/y
const EXPONENT_AT = /[eE]([-+\u2212]?\d{1,3})(?![\p{L}\p{M}\p{N}_])/uy
const TIMES_TEN_AT = /[ \t\u00a0]*[×x*·][ \t\u00a0]*10\^([-+\u2212]?\d{1,3})/y
const POWER_AT = /\^([-+\u2212]?\d{1,3})/y
const SUFFIX_AT = /[\p{L}µ][\p{L}\p{M}\p{N}_]*/uy
const DEGREE_AT = /°[CF](?![\p{L}\p{M}\p{N}_])/uy
const PERCENT_AT = /[ \t\u00a0\u202f]?%/y
const SCALE_WORD_AT = /[ \t\u00a0]+(hundred|thousand|million|billion|trillion)(?![\p{L}\p{M}\p{N}_])/iuy
const ISO_DATE_AT = /(\d{4})-(\d{1,2})-(\d{1,2})(?![\p{L}\p{M}\p{N}_]|-\d)/uy
const MONTH_NAMES = [...MONTHS.keys()].sort((a, b) => b.length - a.length).join('|')
const MONTH_FIRST_AT = new RegExp(
  `(${MONTH_NAMES})(?![\\p{L}\\p{M}\\p{N}_])(\\.)?(?:[ \\t\\u00a0]+(\\d{1,2})(st|nd|rd|th)?(?![\\p{L}\\p{M}\\p{N}_]|[.,]\\d))?(?:,?[ \\t\\u00a0]+(\\d{4})(?![\\p{L}\\p{M}\\p{N}_]|[.,]\\d))?`,
  'uy',
)
const DAY_FIRST_AT = new RegExp(
  `(\\d{1,2})(st|nd|rd|th)?[ \\t\\u00a0]+(?:of[ \\t\\u00a0]+)?(${MONTH_NAMES})(?![\\p{L}\\p{M}\\p{N}_])(\\.)?(?:,?[ \\t\\u00a0]+(\\d{4})(?![\\p{L}\\p{M}\\p{N}_]|[.,]\\d))?`,
  'uy',
)

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch)
}

function draft(start: number, end: number, partial: Partial<Draft> & Pick<Draft, 'kind'>): Draft {
  return {
    start,
    end,
    dec: null,
    version: null,
    written: 'digits',
    sign: 0,
    unit: null,
    unitWords: [],
    before: [],
    trailing: [],
    yearCandidate: false,
    plain: false,
    ...partial,
  }
}

function execAt(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos
  return re.exec(text)
}

// ---------------------------------------------------------------------------------------------
// Scanner

class Scanner {
  readonly tokens: Token[] = []
  /** Numerals beyond the range of a double (`1e400`), read as names; numericConsistency refuses them in a reference. */
  readonly outOfRange: string[] = []
  private pos = 0

  constructor(
    private readonly text: string,
    private readonly words: boolean,
  ) {}

  run(): Token[] {
    const { text } = this
    while (this.pos < text.length) {
      const ch = text[this.pos] as string
      if (ch === '\n' || ch === '\u2028' || ch === '\u2029') {
        this.punct(this.pos, 1, '\n')
        continue
      }
      if (SPACE.test(ch)) {
        this.pos += 1
        continue
      }
      const prev = text[this.pos - 1]
      const afterWord = isWordChar(prev)
      if (!afterWord && DIGIT.test(ch) && this.tryDigitDate()) continue
      if (!afterWord && /[A-Z]/.test(ch) && this.tryMonthDate()) continue
      if (!afterWord && this.tryNumber()) continue
      if (LETTER.test(ch) && this.tryWord()) continue
      // Anything else is one punctuation code point.
      const cp = String.fromCodePoint(text.codePointAt(this.pos) as number)
      this.punct(this.pos, cp.length, cp)
    }
    return this.tokens
  }

  private punct(start: number, length: number, ch: string): void {
    this.tokens.push({ type: 'punct', start, end: start + length, ch, boundary: BOUNDARY.has(ch) })
    this.pos = start + length
  }

  private pushWord(start: number, end: number): void {
    const raw = this.text.slice(start, end)
    const lower = raw.toLowerCase()
    this.tokens.push({ type: 'word', start, end, lower, norm: normalizeWord(raw), stop: STOPWORDS.has(lower), owned: false })
    this.pos = end
  }

  private pushNum(mentions: Draft[], isDate = false): void {
    const start = Math.min(...mentions.map((m) => m.start))
    const end = Math.max(...mentions.map((m) => m.end))
    this.tokens.push({ type: 'num', start, end, mentions, isDate })
    this.pos = end
  }

  /** "2017-06-12" and "3 March 2017" / "3rd of March". */
  private tryDigitDate(): boolean {
    const { text, pos } = this
    const iso = execAt(ISO_DATE_AT, text, pos)
    if (iso) {
      const [all, y, mo, d] = iso as unknown as [string, string, string, string]
      const month = Number(mo)
      const day = Number(d)
      if (month >= 1 && month <= 12 && day >= 1 && day <= 31) {
        const yEnd = pos + y.length
        const moStart = yEnd + 1
        const dStart = moStart + mo.length + 1
        this.pushNum(
          [
            dateDraft(pos, yEnd, BigInt(y), 'year', 'digits'),
            dateDraft(moStart, moStart + mo.length, BigInt(month), 'month', 'digits'),
            dateDraft(dStart, pos + all.length, BigInt(day), 'day', 'digits'),
          ],
          true,
        )
        return true
      }
    }
    const dm = execAt(DAY_FIRST_AT, text, pos)
    if (dm) {
      const [, d, ord, name, , y] = dm as unknown as [string, string, string | undefined, string, string | undefined, string | undefined]
      const day = Number(d)
      if (day >= 1 && day <= 31) {
        const parts: Draft[] = [dateDraft(pos, pos + d.length + (ord?.length ?? 0), BigInt(day), 'day', 'digits')]
        const nameStart = text.indexOf(name, pos + d.length)
        parts.push(dateDraft(nameStart, nameStart + name.length, BigInt(MONTHS.get(name) as number), 'month', 'words'))
        if (y !== undefined) {
          const yStart = pos + dm[0].length - y.length
          parts.push(dateDraft(yStart, yStart + 4, BigInt(y), 'year', 'digits'))
        }
        this.pushNum(parts, true)
        return true
      }
    }
    return false
  }

  /** "March 3, 2017", "March 2017", "Mar. 3". A month name alone is a word. */
  private tryMonthDate(): boolean {
    const { text, pos } = this
    const m = execAt(MONTH_FIRST_AT, text, pos)
    if (!m) return false
    const [all, name, , d, ord, y] = m as unknown as [string, string, string | undefined, string | undefined, string | undefined, string | undefined]
    const day = d === undefined ? undefined : Number(d)
    if (day !== undefined && (day < 1 || day > 31)) return false
    if (day === undefined && y === undefined) return false
    const parts: Draft[] = [dateDraft(pos, pos + name.length, BigInt(MONTHS.get(name) as number), 'month', 'words')]
    if (d !== undefined) {
      const dStart = text.indexOf(d, pos + name.length)
      parts.push(dateDraft(dStart, dStart + d.length + (ord?.length ?? 0), BigInt(day as number), 'day', 'digits'))
    }
    if (y !== undefined) {
      const yStart = pos + all.length - y.length
      parts.push(dateDraft(yStart, yStart + 4, BigInt(y), 'year', 'digits'))
    }
    this.pushNum(parts, true)
    return true
  }

  /** A numeral in digits with its sign, currency, grouping, fraction, exponent, glued unit or percent. */
  private tryNumber(): boolean {
    const { text } = this
    const start = this.pos
    let p = start
    let sign: -1 | 0 | 1 = 0
    let currency: string | null = null
    const leading = signAt(text, p)
    if (leading !== 0) {
      sign = leading
      p += 1
    }
    if (CURRENCY_SYMBOLS.has(text[p] ?? '')) {
      currency = CURRENCY_SYMBOLS.get(text[p] as string) as string
      p += 1
      const inner = sign === 0 ? signAt(text, p) : 0
      if (inner !== 0) {
        sign = inner
        p += 1
      }
    }
    const first = text[p] ?? ''
    if (!(DIGIT.test(first) || (first === '.' && DIGIT.test(text[p + 1] ?? '') && !DIGIT.test(text[p - 1] ?? '')))) return false
    if (isWordChar(text[p - 1])) return false

    if (sign === 0 && currency === null) {
      const dotted = execAt(DOTTED_VERSION_AT, text, p)
      if (dotted) {
        this.pushNum([versionDraft(p, p + dotted[0].length, dotted[0].split('.'))])
        return true
      }
    }
    const lit = execAt(LITERAL_AT, text, p)
    if (!lit) return false
    const intRaw = lit[1] ?? ''
    const fracRaw = lit[2] ?? lit[3] ?? ''
    const intDigits = intRaw.replace(/[,\u00a0\u2009\u202f]/g, '')
    let dec = decimalFrom(intDigits, fracRaw, sign === -1)
    let q = p + lit[0].length
    let kind: NumberKind = fracRaw !== '' ? 'decimal' : 'integer'
    let unit: string | null = currency
    let magnitude = false
    const grouped = intRaw !== intDigits

    // Scientific notation: 1e-3, 2.5E+5, 3 × 10^5, 10^-3.
    const exp = execAt(EXPONENT_AT, text, q) ?? execAt(TIMES_TEN_AT, text, q)
    const power = exp ? null : intRaw === '10' && fracRaw === '' ? execAt(POWER_AT, text, q) : null
    if (exp) {
      dec = shift(dec, Number((exp[1] as string).replace('\u2212', '-')))
      q += exp[0].length
      kind = 'scientific'
    } else if (power) {
      dec = shift(decimalFromBigInt(sign === -1 ? -1n : 1n), Number((power[1] as string).replace('\u2212', '-')))
      q += power[0].length
      kind = 'scientific'
    }

    // Letters glued to the numeral: ordinal, magnitude, unit, or else this is a name ("3D", "1080p").
    const suffix = execAt(SUFFIX_AT, text, q)
    if (suffix) {
      const s = suffix[0]
      const isYearShaped = /^\d{4}$/.test(intRaw) && fracRaw === ''
      if (kind === 'integer' && /^(?:st|nd|rd|th)$/i.test(s)) {
        kind = 'ordinal'
        q += s.length
      } else if (MAGNITUDE_SUFFIXES.has(s) && kind !== 'scientific') {
        dec = shift(dec, MAGNITUDE_SUFFIXES.get(s) as number)
        magnitude = true
        q += s.length
      } else if (ATTACHED_UNITS.has(s) && unit === null && !(s === 's' && isYearShaped)) {
        unit = ATTACHED_UNITS.get(s) as string
        q += s.length
      } else {
        return this.nameFrom(start)
      }
    } else if (text[q] === '×' && !isWordChar(text[q + 1])) {
      unit = 'times'
      q += 1
    } else {
      const deg = execAt(DEGREE_AT, text, q)
      if (deg) {
        unit = deg[0] === '°C' ? 'celsius' : 'fahrenheit'
        q += deg[0].length
      }
    }
    if (isWordChar(text[q])) return this.nameFrom(start)

    const pct = unit === null ? execAt(PERCENT_AT, text, q) : null
    if (pct) {
      unit = 'percent'
      kind = 'percent'
      q += pct[0].length
    } else if (!magnitude && unit === currency && kind !== 'scientific' && kind !== 'ordinal') {
      // "1.5 million", "$5 billion": a scale word after the numeral multiplies it.
      const scale = execAt(SCALE_WORD_AT, text, q)
      if (scale) {
        dec = shift(dec, SCALE_EXPONENTS.get((scale[1] as string).toLowerCase()) as number)
        q += scale[0].length
        magnitude = true
      }
    }

    const plain = sign === 0 && currency === null && unit === null && !magnitude && !grouped && (kind === 'integer' || kind === 'decimal') && lit[1] !== undefined
    const value = toNumber(dec)
    // Beyond the range of a double ("1e999", 400 digits) the text is not a quantity we can report.
    if (!Number.isFinite(value)) {
      this.outOfRange.push(text.slice(start, q))
      return this.nameFrom(start)
    }
    const yearCandidate = plain && kind === 'integer' && /^\d{4}$/.test(intRaw) && value >= 1900 && value <= 2099
    this.pushNum([draft(start, q, { dec, kind, sign, unit, yearCandidate, plain })])
    return true
  }

  /** Everything from `start` up to the end of the identifier is a name, not a number. */
  private nameFrom(start: number): boolean {
    const { text } = this
    let p = start
    // A sign or currency symbol in front stays punctuation.
    while (p < text.length && !DIGIT.test(text[p] as string)) {
      this.punct(p, 1, text[p] as string)
      p += 1
    }
    const m = execAt(IDENT_REST_AT, text, p)
    this.pushWord(p, p + (m ? m[0].length : 0))
    return true
  }

  private tryWord(): boolean {
    const { text, pos } = this
    if (this.words && this.tryNumberWords()) return true
    const m = execAt(WORD_AT, text, pos)
    if (!m) return false
    const raw = m[0]
    const end = pos + raw.length
    // Lower-case only: "v2.6.0" is a version, "V100" a GPU.
    const version = /^v(\d+(?:\.\d+)*)$/.exec(raw)
    if (version) {
      this.pushNum([versionDraft(pos, end, (version[1] as string).split('.'))])
      return true
    }
    const prefixed = /^([A-Za-z]+)-(\d{4})$/.exec(raw)
    if (prefixed && YEAR_PREFIXES.has((prefixed[1] as string).toLowerCase())) {
      const y = Number(prefixed[2])
      if (y >= 1900 && y <= 2099) {
        const yStart = end - 4
        this.pushWord(pos, yStart - 1)
        this.punct(yStart - 1, 1, '-')
        const dec = decimalFromBigInt(BigInt(y))
        this.pushNum([draft(yStart, end, { dec, kind: 'integer', yearCandidate: true, plain: true })])
        return true
      }
    }
    this.pushWord(pos, end)
    return true
  }

  /** "eight", "twenty-one", "a hundred", "third"; bare "one" only when it is clearly a count. */
  private tryNumberWords(): boolean {
    const { text, pos } = this
    const first = /^[A-Za-z]+/.exec(text.slice(pos, pos + 20))?.[0] ?? ''
    const lower = first.toLowerCase()
    if (!(isNumberWordStart(lower) || lower === 'a' || lower === 'an')) return false
    const parsed = parseNumberWords(text, pos)
    if (!parsed) return false
    if (parsed.value === 1n && parsed.words === 1 && !parsed.ordinal && !this.oneIsCount(parsed.end)) return false
    let end = parsed.end
    let kind: NumberKind = parsed.ordinal ? 'ordinal' : 'integer'
    let unit: string | null = null
    if (!parsed.ordinal) {
      const pct = execAt(PERCENT_AT, text, end)
      if (pct) {
        end += pct[0].length
        kind = 'percent'
        unit = 'percent'
      }
    }
    this.pushNum([draft(pos, end, { dec: decimalFromBigInt(parsed.value), kind, unit, written: 'words' })])
    return true
  }

  /**
   * A bare "one" is the number 1 only before a content word and not after a determiner:
   * "one GPU" and "only one layer" count; "one of the", "the one that", "one-hot" do not.
   */
  private oneIsCount(end: number): boolean {
    const { text } = this
    if (text[end] === '-') return false
    const next = /^[ \t\u00a0]+([\p{L}][\p{L}\p{M}\p{N}_]*)/u.exec(text.slice(end, end + 40))
    if (!next || STOPWORDS.has((next[1] as string).toLowerCase())) return false
    const prev = this.tokens[this.tokens.length - 1]
    if (prev?.type === 'word' && ONE_PRONOUN_BEFORE.has(prev.lower)) return false
    return true
  }
}

/**
 * The sign at `i`, or 0. A sign needs a digit (or `.digit`, or a currency symbol and a digit) right
 * after it and no word character, closing bracket or `%` right before it, so "10-20" is a range and
 * "x-8" an identifier, while "(-3)" and "= -3" are negative.
 */
function signAt(text: string, i: number): -1 | 0 | 1 {
  const s = SIGNS.get(text[i] ?? '')
  if (s === undefined) return 0
  const before = text[i - 1]
  if (isWordChar(before) || before === ')' || before === ']' || before === '%') return 0
  let j = i + 1
  if (CURRENCY_SYMBOLS.has(text[j] ?? '')) j += 1
  const c = text[j] ?? ''
  if (DIGIT.test(c) || (c === '.' && DIGIT.test(text[j + 1] ?? ''))) return s
  return 0
}

function dateDraft(start: number, end: number, value: bigint, part: 'year' | 'month' | 'day', written: 'digits' | 'words'): Draft {
  return draft(start, end, { dec: decimalFromBigInt(value), kind: 'date', datePart: part, written })
}

function versionDraft(start: number, end: number, components: string[]): Draft {
  return draft(start, end, { kind: 'version', version: components })
}

// ---------------------------------------------------------------------------------------------
// Passes over the tokens

function adjacent(a: Token, b: Token, text: string): boolean {
  // Only horizontal whitespace between a and b.
  return /^[ \t\u00a0\u202f\u2009]*$/.test(text.slice(a.end, b.start))
}

/** The words after a number: unit word or phrase, then up to three content words. Marks them owned. */
function attachUnits(tokens: Token[], text: string): void {
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as Token
    if (tok.type !== 'num' || tok.isDate) continue
    const m = tok.mentions[0] as Draft
    if (m.kind === 'version') continue
    let j = i + 1
    let next = tokens[j]
    const collected: WordTok[] = []
    let gluedWord = false
    // "512-dimensional", "8-head": a hyphen glued on both sides to a word.
    if (next?.type === 'punct' && next.ch === '-' && next.start === tok.end) {
      const after = tokens[j + 1]
      if (after?.type === 'word' && after.start === next.end && !after.stop) {
        collected.push(after)
        gluedWord = true
        j += 2
      }
    } else if (next?.type === 'word' && adjacent(tok, next, text)) {
      // A unit written as a word: "8 GB", "92.4 percent", "per cent", "percentage points".
      let unitPhrase: [number, string] | null = null
      for (const [re, canonical] of UNIT_PHRASES) {
        const hit = execAt(re, text, next.start)
        if (hit) unitPhrase = [next.start + hit[0].length, canonical]
      }
      if (unitPhrase && m.unit === null) {
        m.unit = unitPhrase[1]
        while ((tokens[j]?.start ?? Infinity) < unitPhrase[0]) {
          const t = tokens[j] as Token
          if (t.type === 'word') t.owned = true
          j += 1
        }
      } else if (UNIT_WORDS.has(next.lower) && m.unit === null) {
        m.unit = UNIT_WORDS.get(next.lower) as string
        next.owned = true
        j += 1
      }
      if (m.unit === 'percent') m.kind = 'percent'
    }
    // Then up to three content words, each separated from the previous token by spaces only.
    let prevTok: Token = (tokens[j - 1] as Token) ?? tok
    next = tokens[j]
    while (collected.length < 3 && next?.type === 'word' && !next.stop && adjacent(prevTok, next, text)) {
      collected.push(next)
      prevTok = next
      j += 1
      next = tokens[j]
    }
    // A bare year takes words only when they look like a counted noun ("2048 tokens"), so that
    // "WMT 2014 English-German" keeps 2014 a year.
    if (m.yearCandidate) {
      const firstWord = collected[0]
      const counted = m.unit !== null || gluedWord || (firstWord !== undefined && /[^s]s$/.test(firstWord.lower))
      if (!counted) {
        m.kind = 'year'
        continue
      }
      m.yearCandidate = false
    }
    for (const w of collected) {
      w.owned = true
      m.unitWords.push(w.norm)
    }
    tok.tail = j
  }
}

const PREPOSITIONS: ReadonlySet<string> = new Set(['on', 'in', 'at', 'for', 'over', 'across', 'with', 'from', 'under', 'during', 'within', 'via', 'against', 'among', 'per'])
const ARTICLES: ReadonlySet<string> = new Set(['the', 'a', 'an'])

/**
 * "41.8 on English-to-French, …": up to three content words of a prepositional phrase right after
 * the number (and its unit words) describe it too. Not when the phrase runs straight into another
 * number ("28.4 on the WMT 2014"): then the words label that number. Taken words are owned, so the
 * next number's context does not pick them up again.
 */
function attachTrailing(tokens: Token[], text: string): void {
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as Token
    if (tok.type !== 'num') continue
    let j = tok.tail ?? i + 1
    const prep = tokens[j]
    if (prep?.type !== 'word' || !PREPOSITIONS.has(prep.lower) || !adjacent(tokens[j - 1] as Token, prep, text)) continue
    j += 1
    let prev: Token = prep
    while (tokens[j]?.type === 'word' && ARTICLES.has((tokens[j] as WordTok).lower) && adjacent(prev, tokens[j] as Token, text)) {
      prev = tokens[j] as Token
      j += 1
    }
    const words: WordTok[] = []
    let next = tokens[j]
    while (words.length < 3 && next?.type === 'word' && !next.stop && !next.owned && adjacent(prev, next, text)) {
      words.push(next)
      prev = next
      j += 1
      next = tokens[j]
    }
    if (words.length === 0 || (next?.type === 'num' && adjacent(prev, next, text))) continue
    for (const w of words) w.owned = true
    for (const m of tok.mentions) m.trailing = words.map((w) => w.norm)
  }
}

/** Version cues: "Python 3.11", "version 2" make the following plain numeral a version. */
function applyVersionCues(tokens: Token[], text: string): void {
  for (let i = 1; i < tokens.length; i++) {
    const tok = tokens[i] as Token
    const prev = tokens[i - 1] as Token
    if (tok.type !== 'num' || tok.isDate || prev.type !== 'word' || !VERSION_CUES.has(prev.lower)) continue
    const m = tok.mentions[0] as Draft
    if (!m.plain || !adjacent(prev, tok, text)) continue
    const raw = text.slice(m.start, m.end)
    m.kind = 'version'
    m.version = raw.split('.')
    m.dec = null
    m.yearCandidate = false
    m.unitWords.length = 0
  }
}

/** "minus 5": the word is a sign. */
function applyMinusWords(tokens: Token[], text: string): void {
  for (let i = 1; i < tokens.length; i++) {
    const tok = tokens[i] as Token
    const prev = tokens[i - 1] as Token
    if (tok.type !== 'num' || tok.isDate || prev.type !== 'word' || prev.lower !== 'minus') continue
    const m = tok.mentions[0] as Draft
    if (m.sign !== 0 || m.dec === null || !adjacent(prev, tok, text)) continue
    m.sign = -1
    m.dec = negate(m.dec)
    m.start = prev.start
    tok.start = prev.start
    m.yearCandidate = false
    m.plain = false
    if (m.kind === 'year') m.kind = 'integer'
    tokens.splice(i - 1, 1)
    i -= 1
  }
}

function rangeable(tok: Token | undefined): tok is NumTok {
  if (tok?.type !== 'num' || tok.isDate) return false
  const m = tok.mentions[0] as Draft
  return m.kind !== 'version'
}

/** "10–20", "10-20", "10 to 20", "from 10 to 20", "between 10 and 20". */
function linkRanges(tokens: Token[], text: string): void {
  for (let i = 0; i + 2 < tokens.length; i++) {
    const a = tokens[i]
    const mid = tokens[i + 1] as Token
    const b = tokens[i + 2]
    if (!rangeable(a) || !rangeable(b)) continue
    const ma = a.mentions[0] as Draft
    const mb = b.mentions[0] as Draft
    if (ma.rangeRole !== undefined) continue
    let isRange = false
    if (mid.type === 'punct') {
      if (mid.ch === '-') isRange = mid.start === a.end && b.start === mid.end && mb.sign === 0
      else if (mid.ch === '–' || mid.ch === '—') isRange = adjacent(a, mid, text) && adjacent(mid, b, text)
    } else if (mid.type === 'word' && adjacent(a, mid, text) && adjacent(mid, b, text)) {
      if (mid.lower === 'to') isRange = true
      else if (mid.lower === 'and') {
        const before = tokens[i - 1]
        isRange = before?.type === 'word' && before.lower === 'between' && adjacent(before, a, text)
      }
    }
    // A start that already has words of its own ("3-layer to 6") is two quantities, not a range.
    if (!isRange || ma.unitWords.length > 0) continue
    ma.rangeRole = 'start'
    mb.rangeRole = 'end'
    ma.partner = mb
    mb.partner = ma
    // "10 to 20 %", "10–20 epochs": the unit written once belongs to both ends.
    if (ma.unit === null && mb.unit !== null) {
      ma.unit = mb.unit
      if (mb.kind === 'percent') ma.kind = 'percent'
    }
    if (ma.unitWords.length === 0) ma.unitWords.push(...mb.unitWords)
    if (ma.kind === 'year' && (ma.unit !== null || ma.unitWords.length > 0)) ma.kind = 'integer'
  }
}

/** Up to three content words before each number, within its sentence, not crossing another number or its own words. */
function attachContext(tokens: Token[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as Token
    if (tok.type !== 'num') continue
    const words: string[] = []
    for (let j = i - 1; j >= 0 && words.length < 3; j--) {
      const t = tokens[j] as Token
      if (t.type === 'num') break
      if (t.type === 'punct') {
        if (t.boundary) break
        continue
      }
      if (t.owned) break
      if (!t.stop && !words.includes(t.norm)) words.push(t.norm)
    }
    for (const m of tok.mentions) m.before = words
  }
  // Both ends of a range share one description ("BLEU from 26.3 to 28.4 on dev"): the words before
  // the start and those after the end.
  for (const tok of tokens) {
    if (tok.type !== 'num') continue
    for (const m of tok.mentions) {
      if (m.rangeRole !== 'end' || !m.partner) continue
      m.before = m.partner.before
      if (m.partner.trailing.length === 0) m.partner.trailing = m.trailing
    }
  }
}

function finish(d: Draft, text: string): NumberMention {
  const base = {
    raw: text.slice(d.start, d.end),
    start: d.start,
    end: d.end,
    kind: d.kind,
    written: d.written,
    sign: d.sign,
    unit: d.unit,
    unitWords: [...d.unitWords],
    context: [...new Set([...d.before, ...d.trailing])],
  }
  if (d.kind === 'version') {
    const comps = (d.version ?? []).map((c) => BigInt(c).toString())
    while (comps.length > 1 && comps[comps.length - 1] === '0') comps.pop()
    return { ...base, value: null, canonical: comps.join('.'), precision: 0 }
  }
  const dec = d.dec as Decimal
  const canonical = toCanonical(dec)
  return {
    ...base,
    value: Number(canonical),
    canonical,
    precision: d.written === 'words' ? 0 : dec.scale,
    ...(d.datePart ? { datePart: d.datePart } : {}),
  }
}

/**
 * Find the numeric mentions in a text, in order.
 *
 * What counts as a number:
 * - digits with optional sign (`-`, `+`, U+2212 `−`, or the word `minus`), currency (`$5`), thousands
 *   groups (`1,000.50`; no-break/thin spaces `100 000` — an ordinary space never groups, so "64 128" is
 *   two numbers), fraction (`.5`), exponent (`1e-3`, `3 × 10^5`, `10^-3`), percent (`92.4 %`,
 *   `92.4 percent`), magnitude (`7B`, `10k`, `1.5 million`), glued unit (`8GB`, `100ms`, `2×`) and
 *   ordinal suffix (`3rd`);
 * - number words (see `number-words.ts`): `eight`, `twenty-one`, `a hundred`, `third`; a bare `one`
 *   only before a content word and not after a determiner. Vague quantities (`a few`, `several`,
 *   `dozens`, `hundreds of`) are NOT numbers;
 * - ranges `10–20`, `10-20`, `10 to 20`, `between 10 and 20`: two mentions marked `range`, the unit
 *   written once applies to both;
 * - dates `March 3, 2017`, `3 March 2017`, `March 2017`, `2017-03-03`: one mention per part (`datePart`
 *   year/month/day, kind `date`); a bare four-digit 1900–2099 integer without a counted noun after it
 *   is kind `year` (`WMT 2014`; but `2048 tokens` is an integer). Slash dates (`3/4/2017`) are not
 *   recognised (day/month order is ambiguous): they read as plain integers;
 * - versions are ONE mention, never several numbers: `v2.6.0` (lower-case `v`: `V100` is a name), any `a.b.c`, and a plain numeral after
 *   a cue word (`Python 3.11`, `version 2`, `CUDA 12.1`).
 *
 * Not numbers: digits inside names — a token mixing letters and digits (`WMT14`, `P100`, `V100`, `x86`,
 * `3D`, `1080p`, the decade `1990s`), letters-hyphen-digits (`GPT-4`, `ResNet-50`, `top-5`), metric
 * cutoffs (`Recall@10`) — except `mid-2017`-style years. Numbers beyond the range of a double are
 * left out too.
 *
 * Each mention also records its unit and the words that describe it (`unitWords` right after it,
 * `context` before it and in a prepositional phrase after it), which `numericConsistency` uses to
 * tell which quantity a number is about.
 *
 * @example
 * extractNumbers('The big model scored 28.4 BLEU with 8 heads.').map((m) => [m.canonical, m.unitWords])
 * // → [['28.4', ['bleu']], ['8', ['head']]]
 */
export function extractNumbers(text: string, options: ExtractNumbersOptions = {}): NumberMention[] {
  return extractMentions('extractNumbers', text, options).mentions
}

/**
 * {@link extractNumbers} with the numerals it left out because they are beyond the range of a double
 * (`outOfRange`: their text, e.g. `1e400`), so that a caller can refuse them instead of reading them
 * as no number. `fn` names the public function in errors.
 */
export function extractMentions(fn: string, text: string, options: ExtractNumbersOptions = {}): { mentions: NumberMention[]; outOfRange: string[] } {
  assertString(fn, 'text', text)
  const { words, ignore } = validateExtractOptions(fn, options)
  checkOptionKeys(fn, options, EXTRACT_NUMBERS_OPTION_KEYS)
  const scanner = new Scanner(text, words)
  const tokens = scanner.run()
  applyMinusWords(tokens, text)
  applyVersionCues(tokens, text)
  attachUnits(tokens, text)
  linkRanges(tokens, text)
  attachTrailing(tokens, text)
  attachContext(tokens)

  const drafts: Draft[] = []
  for (const tok of tokens) if (tok.type === 'num') drafts.push(...tok.mentions)
  const kept = drafts.filter((d) => !isIgnored(d, ignore))
  const index = new Map(kept.map((d, i) => [d, i]))
  const mentions = kept.map((d) => {
    const mention = finish(d, text)
    const partner = d.partner ? index.get(d.partner) : undefined
    if (d.rangeRole === undefined || partner === undefined) return mention
    return { ...mention, range: { role: d.rangeRole, partner } }
  })
  return { mentions, outOfRange: scanner.outOfRange }
}

function isIgnored(d: Draft, ignore: ReadonlySet<IgnorableNumbers>): boolean {
  if (ignore.has('versions') && d.kind === 'version') return true
  if (ignore.has('ordinals') && d.kind === 'ordinal') return true
  if (ignore.has('dates') && d.kind === 'date') return true
  if (ignore.has('years') && (d.kind === 'year' || d.datePart === 'year')) return true
  return false
}

/** Shared option checks for extraction; `fn` names the public function in errors. */
export function validateExtractOptions(fn: string, options: unknown): { words: boolean; ignore: ReadonlySet<IgnorableNumbers> } {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new MetricInputError(fn, 'options', 'an options object', options)
  }
  const o = options as Record<string, unknown>
  const words = o['words'] === undefined ? true : o['words']
  if (typeof words !== 'boolean') throw new MetricInputError(fn, 'options.words', 'a boolean', words)
  const ignore = o['ignore'] === undefined ? [] : o['ignore']
  if (!Array.isArray(ignore) || !ignore.every((v) => typeof v === 'string' && IGNORABLE.has(v))) {
    throw new MetricInputError(fn, 'options.ignore', "an array of 'years' | 'dates' | 'ordinals' | 'versions'", ignore)
  }
  return { words, ignore: new Set(ignore as IgnorableNumbers[]) }
}
