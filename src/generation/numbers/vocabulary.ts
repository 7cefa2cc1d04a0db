/**
 * Word lists for the numeric-fact check: measurement units, stopwords, months, version cues, and the
 * light word normalisation used to compare context words. Our own lists, kept small on purpose: they
 * decide which words describe a number, not grammar.
 */

/**
 * Units written as a SEPARATE word after a number (`8 GB`, `3 days`, `92.4 percent`), lower-cased,
 * mapped to a canonical name. Single letters are left out on purpose (`8 h` is rare, `h = 8` common).
 */
export const UNIT_WORDS: ReadonlyMap<string, string> = new Map([
  ['percent', 'percent'], ['pct', 'percent'], ['pp', 'pp'],
  ['usd', 'dollar'], ['dollar', 'dollar'], ['dollars', 'dollar'], ['eur', 'euro'], ['euro', 'euro'], ['euros', 'euro'],
  ['gbp', 'pound-sterling'], ['jpy', 'yen'], ['yen', 'yen'],
  ['times', 'times'],
  ['kb', 'kb'], ['kilobyte', 'kb'], ['kilobytes', 'kb'], ['mb', 'mb'], ['megabyte', 'mb'], ['megabytes', 'mb'],
  ['gb', 'gb'], ['gigabyte', 'gb'], ['gigabytes', 'gb'], ['tb', 'tb'], ['terabyte', 'tb'], ['terabytes', 'tb'],
  ['pb', 'pb'], ['petabyte', 'pb'], ['petabytes', 'pb'], ['kib', 'kib'], ['mib', 'mib'], ['gib', 'gib'], ['tib', 'tib'],
  ['ns', 'ns'], ['nanosecond', 'ns'], ['nanoseconds', 'ns'], ['µs', 'us'], ['microsecond', 'us'], ['microseconds', 'us'],
  ['ms', 'ms'], ['millisecond', 'ms'], ['milliseconds', 'ms'],
  ['sec', 'second'], ['secs', 'second'], ['second', 'second'], ['seconds', 'second'],
  ['min', 'minute'], ['mins', 'minute'], ['minute', 'minute'], ['minutes', 'minute'],
  ['hr', 'hour'], ['hrs', 'hour'], ['hour', 'hour'], ['hours', 'hour'],
  ['day', 'day'], ['days', 'day'], ['week', 'week'], ['weeks', 'week'], ['month', 'month'], ['months', 'month'],
  ['year', 'year'], ['years', 'year'], ['yr', 'year'], ['yrs', 'year'],
  ['hz', 'hz'], ['khz', 'khz'], ['mhz', 'mhz'], ['ghz', 'ghz'],
  ['nm', 'nm'], ['mm', 'mm'], ['cm', 'cm'], ['km', 'km'], ['meter', 'meter'], ['meters', 'meter'], ['metre', 'meter'], ['metres', 'meter'],
  ['mg', 'mg'], ['kg', 'kg'], ['gram', 'gram'], ['grams', 'gram'],
  ['px', 'pixel'], ['pixel', 'pixel'], ['pixels', 'pixel'], ['fps', 'fps'], ['db', 'db'],
  ['watt', 'watt'], ['watts', 'watt'], ['kw', 'kw'],
])

/** Two-word unit phrases (`per cent`, `percentage points`). */
export const UNIT_PHRASES: ReadonlyArray<readonly [RegExp, string]> = [
  [/per[ \t\u00a0]+cent(?![\p{L}\p{N}_])/iuy, 'percent'],
  [/percentage[ \t\u00a0]+points?(?![\p{L}\p{N}_])/iuy, 'pp'],
]

/**
 * Letters glued to a numeral (`8GB`, `100ms`, `3.5GHz`, `2x`). Case-sensitive: `M` is a million but
 * `m` is a metre. Magnitude suffixes multiply instead (see {@link MAGNITUDE_SUFFIXES}).
 */
export const ATTACHED_UNITS: ReadonlyMap<string, string> = new Map([
  ['KB', 'kb'], ['kB', 'kb'], ['MB', 'mb'], ['GB', 'gb'], ['TB', 'tb'], ['PB', 'pb'],
  ['KiB', 'kib'], ['MiB', 'mib'], ['GiB', 'gib'], ['TiB', 'tib'],
  ['ns', 'ns'], ['us', 'us'], ['µs', 'us'], ['ms', 'ms'], ['s', 'second'], ['sec', 'second'],
  ['min', 'minute'], ['h', 'hour'], ['hr', 'hour'], ['hrs', 'hour'], ['d', 'day'],
  ['Hz', 'hz'], ['kHz', 'khz'], ['MHz', 'mhz'], ['GHz', 'ghz'],
  ['nm', 'nm'], ['mm', 'mm'], ['cm', 'cm'], ['m', 'meter'], ['km', 'km'], ['mg', 'mg'], ['g', 'gram'], ['kg', 'kg'],
  ['px', 'pixel'], ['fps', 'fps'], ['dB', 'db'], ['W', 'watt'], ['kW', 'kw'], ['pp', 'pp'],
  ['x', 'times'], ['X', 'times'], ['×', 'times'],
])

/** Glued magnitude suffixes (`10k`, `7B`, `1.5M`): powers of ten. `b` is a billion, as in `8b` models. */
export const MAGNITUDE_SUFFIXES: ReadonlyMap<string, number> = new Map([
  ['k', 3], ['K', 3], ['M', 6], ['B', 9], ['b', 9], ['bn', 9],
])

export const CURRENCY_SYMBOLS: ReadonlyMap<string, string> = new Map([
  ['$', 'dollar'], ['€', 'euro'], ['£', 'pound-sterling'], ['¥', 'yen'],
])

/** Units that say little about WHICH quantity a number is (many different numbers are percentages). */
export const WEAK_UNITS: ReadonlySet<string> = new Set(['percent', 'pp', 'dollar', 'euro', 'pound-sterling', 'yen', 'times'])

/** Capitalised month names and abbreviations → month number. `May` has no abbreviation issue. */
export const MONTHS: ReadonlyMap<string, number> = new Map([
  ['January', 1], ['February', 2], ['March', 3], ['April', 4], ['May', 5], ['June', 6], ['July', 7], ['August', 8],
  ['September', 9], ['October', 10], ['November', 11], ['December', 12],
  ['Jan', 1], ['Feb', 2], ['Mar', 3], ['Apr', 4], ['Jun', 6], ['Jul', 7], ['Aug', 8], ['Sep', 9], ['Sept', 9],
  ['Oct', 10], ['Nov', 11], ['Dec', 12],
])

/** Words after which a dotted number is a version (`Python 3.11`, `version 2.6`, `CUDA 12.1`). */
export const VERSION_CUES: ReadonlySet<string> = new Set([
  'version', 'versions', 'release', 'python', 'node', 'node.js', 'nodejs', 'npm', 'typescript', 'java', 'ruby', 'php',
  'perl', 'go', 'rust', 'rustc', 'gcc', 'clang', 'llvm', 'cuda', 'cudnn', 'pytorch', 'torch', 'tensorflow', 'numpy',
  'ubuntu', 'debian', 'macos', 'ios', 'android', 'kernel', 'linux', 'sacrebleu', 'vitest', 'jest',
])

/** `mid-2017`, `pre-2020`: a year with a prefix, read as the year. */
export const YEAR_PREFIXES: ReadonlySet<string> = new Set(['mid', 'pre', 'post', 'early', 'late'])

/**
 * Function words: never context, never a unit, and they end a unit phrase. Hand-picked, short:
 * determiners, pronouns, auxiliaries, prepositions, conjunctions, hedges and a few light verbs.
 */
export const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'of', 'in', 'on', 'at', 'to', 'for', 'from', 'by', 'with', 'without',
  'into', 'onto', 'over', 'under', 'above', 'below', 'up', 'down', 'out', 'off', 'per', 'via', 'between', 'among',
  'across', 'through', 'during', 'within', 'after', 'before', 'since', 'until', 'till', 'against', 'like', 'than',
  'and', 'or', 'but', 'nor', 'so', 'yet', 'as', 'if', 'because', 'while', 'whereas', 'although', 'though',
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'has', 'have', 'had', 'having', 'do', 'does', 'did',
  'can', 'could', 'will', 'would', 'should', 'may', 'might', 'must', 'shall',
  'it', 'its', 'they', 'them', 'their', 'theirs', 'we', 'our', 'ours', 'us', 'you', 'your', 'he', 'him', 'his',
  'she', 'her', 'i', 'me', 'my', 'who', 'whom', 'whose', 'which', 'what', 'when', 'where', 'why', 'how',
  'there', 'here', 'then', 'also', 'only', 'just', 'even', 'about', 'around', 'approximately', 'roughly', 'nearly',
  'almost', 'some', 'each', 'every', 'all', 'any', 'both', 'either', 'neither', 'such', 'very', 'more', 'most',
  'less', 'least', 'not', 'no', 'other', 'another', 'same', 'own', 'one', 'ones', 'get', 'gets', 'got',
  'use', 'uses', 'used', 'using', 'make', 'makes', 'made', 'e.g', 'i.e', 'etc',
])

/** Words before a bare `one` that make it a pronoun (`the one`, `each one`), not the number 1. */
export const ONE_PRONOUN_BEFORE: ReadonlySet<string> = new Set([
  'the', 'this', 'that', 'each', 'every', 'any', 'which', 'a', 'an', 'another', 'such', 'no', 'some', 'no-one',
])

/**
 * Normalise a context word: lower-case, drop a possessive, then strip ONE of a plural `-s`
 * (not `-ss`/`-us`/`-is`), `-ing` or `-ed`, keeping at least three letters. Together with
 * {@link sameWord}'s prefix rule this makes `scored`/`score`, `heads`/`head`, `training`/`trained`
 * and `dimension`/`dimensional` meet, which is all the context comparison needs.
 */
export function normalizeWord(word: string): string {
  let w = word.toLowerCase().replace(/['’]s$/u, '')
  if (w.length > 3 && w.endsWith('s') && !/(?:ss|us|is)$/u.test(w)) w = w.slice(0, -1)
  else if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3)
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2)
  return w
}

/**
 * Two normalised words name the same thing when equal, or when the shorter one has at least four
 * characters and starts the longer one (`scor`/`score`, `dimension`/`dimensional`).
 */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  return short.length >= 4 && long.startsWith(short)
}
