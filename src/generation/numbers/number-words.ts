/**
 * English number words → exact integers, for {@link extractNumbers}.
 *
 * Grammar (case-insensitive; words separated by whitespace or ONE hyphen):
 * - units `zero`…`nine`, teens `ten`…`nineteen`, tens `twenty`…`ninety` (`twenty-one`, `twenty one`);
 * - `hundred` after a unit or teen (`three hundred`, `fifteen hundred`), or after a leading `a`/`an`;
 * - scales `thousand`, `million`, `billion`, `trillion` after a group (`two thousand`, `a million`),
 *   each smaller than the one before (`one million two thousand`, never `thousand million`);
 * - `and` only after `hundred` or a scale and only when a number word follows (`one hundred and five`);
 * - ordinals as the LAST word: `third`…`nineteenth`, `twentieth`…`ninetieth`, and `first`/`second`…
 *   `ninth` after a tens word (`twenty-first`). Bare `first` and `second` are not numbers: they are far
 *   more often discourse words ("first, we…") or a time unit ("per second").
 * - `zero` only alone. Plurals (`hundreds`, `thousands`, `dozens`) and vague quantifiers (`a few`,
 *   `several`, `a couple`, `many`) are not numbers; neither are `dozen`, `half` or fractions (`a third`
 *   reads as the ordinal 3 – a documented limitation).
 */

const UNITS: ReadonlyMap<string, number> = new Map([
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
])
const TEENS: ReadonlyMap<string, number> = new Map([
  ['ten', 10],
  ['eleven', 11],
  ['twelve', 12],
  ['thirteen', 13],
  ['fourteen', 14],
  ['fifteen', 15],
  ['sixteen', 16],
  ['seventeen', 17],
  ['eighteen', 18],
  ['nineteen', 19],
])
const TENS: ReadonlyMap<string, number> = new Map([
  ['twenty', 20],
  ['thirty', 30],
  ['forty', 40],
  ['fifty', 50],
  ['sixty', 60],
  ['seventy', 70],
  ['eighty', 80],
  ['ninety', 90],
])
const SCALES: ReadonlyMap<string, bigint> = new Map([
  ['thousand', 1_000n],
  ['million', 1_000_000n],
  ['billion', 1_000_000_000n],
  ['trillion', 1_000_000_000_000n],
])
const ORDINAL_UNITS: ReadonlyMap<string, number> = new Map([
  ['first', 1],
  ['second', 2],
  ['third', 3],
  ['fourth', 4],
  ['fifth', 5],
  ['sixth', 6],
  ['seventh', 7],
  ['eighth', 8],
  ['ninth', 9],
])
const ORDINAL_TEENS: ReadonlyMap<string, number> = new Map([
  ['tenth', 10],
  ['eleventh', 11],
  ['twelfth', 12],
  ['thirteenth', 13],
  ['fourteenth', 14],
  ['fifteenth', 15],
  ['sixteenth', 16],
  ['seventeenth', 17],
  ['eighteenth', 18],
  ['nineteenth', 19],
])
const ORDINAL_TENS: ReadonlyMap<string, number> = new Map([
  ['twentieth', 20],
  ['thirtieth', 30],
  ['fortieth', 40],
  ['fiftieth', 50],
  ['sixtieth', 60],
  ['seventieth', 70],
  ['eightieth', 80],
  ['ninetieth', 90],
])

/** Scale words that may follow a numeral written in digits (`1.5 million`, `3 thousand`). */
export const SCALE_EXPONENTS: ReadonlyMap<string, number> = new Map([
  ['hundred', 2],
  ['thousand', 3],
  ['million', 6],
  ['billion', 9],
  ['trillion', 12],
])

/** True when `word` (any case) can start a number-word phrase. */
export function isNumberWordStart(word: string): boolean {
  const w = word.toLowerCase()
  return (
    UNITS.has(w) || TEENS.has(w) || TENS.has(w) || w === 'zero' || (w !== 'first' && w !== 'second' && ORDINAL_UNITS.has(w)) || ORDINAL_TEENS.has(w) || ORDINAL_TENS.has(w)
  )
}

export interface NumberWordsMatch {
  readonly value: bigint
  /** Offset just after the last word of the phrase. */
  readonly end: number
  readonly ordinal: boolean
  /** How many words the phrase has (a leading `a` counts). */
  readonly words: number
}

type Last = 'none' | 'a' | 'unit' | 'teen' | 'tens' | 'hundred' | 'scale' | 'zero'

const WORD_AT = /[A-Za-z]+/y
const SEPARATOR_AT = /(?:[ \t\u00a0]+|-)/y

/**
 * Parse the longest number-word phrase starting at `start` (which must be the start of a word).
 * Returns null when the text there is not a number phrase (`hundred` alone, `a few`, `first`).
 */
export function parseNumberWords(text: string, start: number): NumberWordsMatch | null {
  let total = 0n
  let group = 0n
  let last: Last = 'none'
  let lastScale = Number.POSITIVE_INFINITY
  let pos = start
  let words = 0
  // The best complete phrase seen so far; a trailing `and` or a dangling `a` is backed off.
  let best: NumberWordsMatch | null = null

  for (;;) {
    WORD_AT.lastIndex = pos
    const m = WORD_AT.exec(text)
    if (!m) break
    const raw = m[0]
    const w = raw.toLowerCase()
    const wordEnd = pos + raw.length
    // A word glued to more letters/digits (`eightfold`, `ten2`) is not a number word.
    if (wordEnd < text.length && /[\p{L}\p{N}_]/u.test(text[wordEnd] ?? '')) break

    let ordinal = false
    if (w === 'and') {
      if (last !== 'hundred' && last !== 'scale') break
      // `and` must be followed by a number word; advance tentatively without recording `best`.
      const next = nextWordStart(text, wordEnd, false)
      if (next < 0) break
      pos = next
      continue
    } else if ((w === 'a' || w === 'an') && last === 'none') {
      last = 'a'
      group = 1n
    } else if (w === 'zero') {
      if (last !== 'none') break
      last = 'zero'
    } else if (UNITS.has(w)) {
      if (!(last === 'none' || last === 'tens' || last === 'hundred' || last === 'scale')) break
      group += BigInt(UNITS.get(w) as number)
      last = 'unit'
    } else if (TEENS.has(w)) {
      if (!(last === 'none' || last === 'hundred' || last === 'scale')) break
      group += BigInt(TEENS.get(w) as number)
      last = 'teen'
    } else if (TENS.has(w)) {
      if (!(last === 'none' || last === 'hundred' || last === 'scale')) break
      group += BigInt(TENS.get(w) as number)
      last = 'tens'
    } else if (w === 'hundred') {
      if (!(last === 'unit' || last === 'teen' || last === 'a') || group >= 100n) break
      group *= 100n
      last = 'hundred'
    } else if (SCALES.has(w)) {
      const scale = SCALES.get(w) as bigint
      if (!(last === 'unit' || last === 'teen' || last === 'tens' || last === 'hundred' || last === 'a')) break
      if (Number(scale) >= lastScale) break
      total += group * scale
      group = 0n
      lastScale = Number(scale)
      last = 'scale'
    } else if (ORDINAL_UNITS.has(w)) {
      const bare = w === 'first' || w === 'second'
      if (!(last === 'tens' || (last === 'none' && !bare) || ((last === 'hundred' || last === 'scale') && !bare))) break
      group += BigInt(ORDINAL_UNITS.get(w) as number)
      ordinal = true
    } else if (ORDINAL_TEENS.has(w)) {
      if (!(last === 'none' || last === 'hundred' || last === 'scale')) break
      group += BigInt(ORDINAL_TEENS.get(w) as number)
      ordinal = true
    } else if (ORDINAL_TENS.has(w)) {
      if (!(last === 'none' || last === 'hundred' || last === 'scale')) break
      group += BigInt(ORDINAL_TENS.get(w) as number)
      ordinal = true
    } else {
      break
    }
    words += 1
    if (last !== 'a') best = { value: total + group, end: wordEnd, ordinal, words }
    if (ordinal || last === 'zero') break
    const next = nextWordStart(text, wordEnd, true)
    if (next < 0) break
    pos = next
  }
  return best
}

/** Start of the next word after one separator (spaces or a single hyphen), or -1. */
function nextWordStart(text: string, from: number, allowHyphen: boolean): number {
  SEPARATOR_AT.lastIndex = from
  const sep = SEPARATOR_AT.exec(text)
  if (!sep) return -1
  if (sep[0] === '-' && !allowHyphen) return -1
  const next = from + sep[0].length
  return /[A-Za-z]/.test(text[next] ?? '') ? next : -1
}
