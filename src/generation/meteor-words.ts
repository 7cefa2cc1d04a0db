/**
 * METEOR's words: the vocabulary that interns them (so the alignments compare integers), each word's Porter stem and
 * WordNet synonyms asked once, the word kernel that splits ASCII texts into the vocabulary's places, and the METEOR
 * kernel that aligns them, with the callbacks it asks a new word's stem, synonyms and WordNet form entry through.
 * meteor.ts calls {@link startMeteorCall} at the start of every call.
 */
import { pyIsSpaceCode } from '../text/python-string.js'
import { MeteorKernel } from './meteor-kernel.js'
import { porterStemNltkUncached } from './stemmers/porter.js'
import { asciiLower, HASH_SEED, hashStep, hashText, TokenTable } from './token-table.js'
import { WordKernel } from './word-kernel.js'
import { synonymsUncached, visitSynonymNames, wordNetFormEntry, wordNetGeneration, wordNetKernel } from './wordnet.js'

/**
 * A lower-cased token, interned so that the matching loops compare integers and each distinct word
 * is stemmed and looked up in WordNet once. `stem` and `synonyms` are filled on first need.
 */
export interface Token {
  readonly text: string
  readonly id: number
  stem: Token | undefined
  synonyms: ReadonlySet<string> | undefined
}

/** Tokens by text (see {@link TokenTable} for why it is not a Map). */
class Vocabulary {
  private readonly table = new TokenTable()
  private readonly tokens: Token[] = []
  /** The id of this vocabulary's first word: a word's place in it is `id - firstId`. */
  readonly firstId = nextTokenId

  /** One more than the highest place a word of this vocabulary has (its words' ids are below `firstId + nextIndex`). */
  get nextIndex(): number {
    return nextTokenId - this.firstId
  }

  get size(): number {
    return this.tokens.length
  }

  /** The token for `text`. */
  intern(text: string): Token {
    const h = hashText(text)
    const index = this.table.find(text, h)
    return index >= 0 ? this.tokens[index]! : this.add(text, h)
  }

  /**
   * The token for the ASCII word `source[start, end)` lower-cased, whose hash (of the lower-cased
   * units) is `h`. Only a new word is sliced and lower-cased (for ASCII, per word equals per text).
   */
  internAsciiRange(source: string, start: number, end: number, h: number): Token {
    const index = this.table.findAsciiLower(source, start, end, h)
    return index >= 0 ? this.tokens[index]! : this.add(source.slice(start, end).toLowerCase(), h)
  }

  /** The token for `source[start, end)`, which has no A–Z (so it is its own ASCII lower-case) and hashes to `h`. */
  internUncapitalRange(source: string, start: number, end: number, h: number): Token {
    const index = this.table.findAsciiLower(source, start, end, h)
    return index >= 0 ? this.tokens[index]! : this.add(source.slice(start, end), h)
  }

  /** The token at `index` (its id minus {@link firstId}). */
  at(index: number): Token {
    return this.tokens[index]!
  }

  private add(text: string, h: number): Token {
    const token: Token = { text, id: nextTokenId++, stem: undefined, synonyms: undefined }
    this.table.add(text, h)
    this.tokens.push(token)
    return token
  }
}

// Bounded: replaced by a fresh vocabulary at the start of a call once it holds this many words.
// Ids keep growing across generations, so a token never equals one of another generation; a call
// never mixes generations because the swap only happens between calls.
const VOCABULARY_LIMIT = 200_000
let nextTokenId = 0
let vocabulary = new Vocabulary()

export function intern(text: string): Token {
  return vocabulary.intern(text)
}

export function stemOf(token: Token): Token {
  if (token.stem === undefined) {
    const stem = porterStemNltkUncached(token.text)
    // many words are their own stem: no lookup for those (the vocabulary's token for the text is this one)
    token.stem = stem === token.text ? token : intern(stem)
  }
  return token.stem
}

export function synonymsOf(token: Token): ReadonlySet<string> {
  return (token.synonyms ??= synonymsUncached(token.text))
}

/**
 * The WebAssembly split (ASCII texts up to its size), created on first use; null where the runtime has no WebAssembly.
 * Its ids are places in the current vocabulary; startMeteorCall resets it with the vocabulary.
 */
let kernel: WordKernel | null | undefined

export function splitKernel(): WordKernel | null {
  if (kernel === undefined) kernel = WordKernel.create('python-split', (word) => intern(word).id - vocabulary.firstId)
  return kernel
}

/**
 * Python `s.split()` + `str.lower()` for ASCII text in one scan (the common case, and the hot path):
 * Python's ASCII whitespace is \t \n \v \f \r, U+001C–U+001F and space. Returns undefined when the
 * text has a non-ASCII character, for the general path.
 */
export function splitLowerAscii(text: string): Token[] | undefined {
  const fast = splitKernel()
  const n = fast === null ? -1 : fast.tokens(text, 0)
  if (n >= 0) {
    const ids = fast!.out
    const tokens = new Array<Token>(n)
    for (let k = 0; k < n; k++) tokens[k] = vocabulary.at(ids[k] as number)
    return tokens
  }
  const tokens: Token[] = []
  let start = -1
  let h = HASH_SEED
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k)
    if (c > 0x7f) return undefined
    if (pyIsSpaceCode(c)) {
      if (start >= 0) {
        tokens.push(vocabulary.internAsciiRange(text, start, k, h))
        start = -1
      }
    } else {
      if (start < 0) {
        start = k
        h = HASH_SEED
      }
      h = hashStep(h, asciiLower(c))
    }
  }
  if (start >= 0) tokens.push(vocabulary.internAsciiRange(text, start, text.length, h))
  return tokens
}

let vocabularyWordNet = wordNetGeneration()

/** Starts the vocabulary over (and the kernels' memos of it) when it is full or the WordNet data changed. */
export function startMeteorCall(): void {
  // Tokens cache their synonym sets, which belong to the WordNet data they were read from.
  const current = wordNetGeneration()
  if (vocabulary.size >= VOCABULARY_LIMIT || current !== vocabularyWordNet) {
    vocabulary = new Vocabulary()
    vocabularyWordNet = current
    // their ids are places in the vocabulary just replaced
    kernel?.reset()
    aligner?.reset()
  }
}

/**
 * The WebAssembly alignment, created on first use; null where the runtime has no WebAssembly. It keeps each word's
 * stem and synonyms by place; startMeteorCall resets it with the vocabulary.
 */
let aligner: MeteorKernel | null | undefined

export function alignKernel(): MeteorKernel | null {
  if (aligner === undefined) aligner = splitKernel() === null ? null : MeteorKernel.create(stemPlace, synonymKeys, formEntry)
  return aligner
}

function stemPlace(place: number): number {
  return stemOf(vocabulary.at(place)).id - vocabulary.firstId
}

// A word's form entry and its synonyms' are asked of WordNet's kernel first: it gives the JS lookup's entries, and
// hands back what it does not take (see wordnet-kernel.ts).

function formEntry(place: number): number {
  const text = vocabulary.at(place).text
  return wordNetKernel()?.formEntry(text) ?? wordNetFormEntry(text)
}

// synonymKeys' output, reused (the kernel copies it)
const nameKeys: number[] = []

function synonymKeys(place: number): number[] {
  const text = vocabulary.at(place).text
  if (wordNetKernel()?.synonymKeys(text, nameKeys) === true) return nameKeys
  nameKeys.length = 0
  visitSynonymNames(text, addNameKey)
  return nameKeys
}

function addNameKey(text: string, start: number, end: number): void {
  for (let k = start; k < end; k++) {
    const c = text.charCodeAt(k)
    // every word METEOR compares is lower-cased, so a name with a capital (`Party`) never equals one
    if (c >= 0x41 && c <= 0x5a) return
  }
  const entry = wordNetFormEntry(text, start, end)
  if (entry >= 0) {
    nameKeys.push(entry)
    return
  }
  // no form (not with WordNet 3.0's data): the name is compared by its place
  let h = HASH_SEED
  for (let k = start; k < end; k++) h = hashStep(h, text.charCodeAt(k))
  nameKeys.push(-(vocabulary.internUncapitalRange(text, start, end, h).id - vocabulary.firstId) - 1)
}

/** The id of the current vocabulary's first word: a word's place in it is `id - vocabularyFirstId()`. */
export function vocabularyFirstId(): number {
  return vocabulary.firstId
}

/** One more than the highest place a word of the current vocabulary has. */
export function vocabularyPlaces(): number {
  return vocabulary.nextIndex
}
