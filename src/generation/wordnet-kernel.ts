/**
 * The WebAssembly path of METEOR's WordNet lookups (`wordnet-kernel.wat`, assembled into `wordnet-kernel-wasm.ts`): a
 * lower-case ASCII word's synonym names as form entries, and a word's own form entry. It reads copies of the loaded
 * tables and of the form index's arrays, so its entries are the JS index's; meteor-words.ts asks it first and takes the
 * JS lookup (wordnet.ts) for what it hands back, and where the runtime has no WebAssembly or the data is not ASCII.
 */
import { WORDNET_KERNEL_WASM } from './wordnet-kernel-wasm.js'
import type { FormIndexLayout } from './wordnet-index.js'
import { compileKernel, instantiateKernel, type WasmMemory } from '../wasm-api.js'

/** A longer word takes the JS lookup. */
export const WORDNET_KERNEL_MAX_UNITS = 1024

/** A table as wordnet-lines.ts holds it: its text and where each line starts (then the text's length + 1). */
export interface KernelLines {
  readonly text: string
  readonly lineStarts: Int32Array
}

/** Per part of speech n, v, a, r (wordnet.ts PosTable). */
export interface KernelPosTables {
  readonly lemmas: KernelLines
  readonly lemmaSynsets: KernelLines
  readonly synsets: KernelLines
  readonly exceptions: KernelLines
}

interface KernelExports {
  readonly memory: WasmMemory
  formEntry(length: number): number
  synonymKeys(length: number): number
  wordAt(): number
  outAt(): number
}

// the layout (see the .wat): the fixed regions end after the output's 65,536 entries and morphy's rounds; the tables follow
const TABLES_AT = 4096 + 4 * 65536 + 65536

export class WordNetKernel {
  private readonly exports: KernelExports
  private readonly word: Uint8Array
  private readonly out: Int32Array

  private constructor(exports: KernelExports) {
    this.exports = exports
    this.word = new Uint8Array(exports.memory.buffer, exports.wordAt(), WORDNET_KERNEL_MAX_UNITS)
    this.out = new Int32Array(exports.memory.buffer, exports.outAt(), 65536)
  }

  /**
   * A kernel over these tables (n, v, a, r) and their form index (columns: the four lemma tables, then the four
   * exception tables), or null where this runtime has no WebAssembly or a table is not ASCII.
   */
  static create(byPos: readonly KernelPosTables[], index: FormIndexLayout): WordNetKernel | null {
    const texts = byPos.flatMap((t) => [t.lemmas.text, t.lemmaSynsets.text, t.synsets.text, t.exceptions.text])
    // the kernel reads a unit as a byte
    if (texts.some((text) => Buffer.byteLength(text, 'utf8') !== text.length)) return null
    const module = compileKernel(WORDNET_KERNEL_WASM)
    if (module === null) return null
    const exports = instantiateKernel<KernelExports>(module)
    const records = index.column.length
    let size = TABLES_AT + 4 * index.slots.length + 3 * 4 * records
    for (const t of byPos) {
      size += align(t.lemmas.text.length) + align(t.exceptions.text.length) + 4 * t.exceptions.lineStarts.length
      size += align(t.lemmaSynsets.text.length) + 4 * t.lemmaSynsets.lineStarts.length
      size += align(t.synsets.text.length) + 4 * t.synsets.lineStarts.length
    }
    const memory = exports.memory
    memory.grow(Math.ceil(size / 65536) - memory.buffer.byteLength / 65536)
    const buffer = memory.buffer
    const bytes = Buffer.from(buffer)
    const meta = new Int32Array(buffer, 0, 64)
    let at = TABLES_AT
    const ints = (from: Int32Array): number => {
      new Int32Array(buffer, at, from.length).set(from)
      const start = at
      at += 4 * from.length
      return start
    }
    const text = (from: string): number => {
      bytes.write(from, at, 'latin1')
      const start = at
      at += align(from.length)
      return start
    }
    meta[0] = ints(index.slots)
    meta[1] = index.mask
    meta[2] = index.entryMask
    // a record's key address and length side by side, written once the texts are placed
    const keys = new Int32Array(buffer, at, 2 * records)
    meta[3] = at
    at += 8 * records
    meta[6] = ints(index.next)
    for (let p = 0; p < 4; p++) {
      const t = byPos[p]!
      meta[8 + p] = text(t.lemmas.text)
      meta[12 + p] = text(t.exceptions.text)
      meta[52 + p] = ints(t.exceptions.lineStarts)
      meta[32 + 4 * p] = text(t.lemmaSynsets.text)
      meta[33 + 4 * p] = ints(t.lemmaSynsets.lineStarts)
      meta[34 + 4 * p] = text(t.synsets.text)
      meta[35 + 4 * p] = ints(t.synsets.lineStarts)
      meta[48 + p] = t.synsets.lineStarts.length - 1
    }
    for (let c = 0; c < 8; c++) {
      meta[16 + c] = index.firstRecord[c]!
      meta[24 + c] = index.endRecord[c]!
    }
    placeKeys(keys, meta, index)
    return new WordNetKernel(exports)
  }

  /** The form entry of `word` (wordnet.ts wordNetFormEntry), or undefined for a word the kernel does not take. */
  formEntry(word: string): number | undefined {
    return this.write(word, false) ? this.exports.formEntry(word.length) : undefined
  }

  /**
   * Sets `out` to the form entries of the names of `word`'s synsets (a lower-case word; names with a capital left
   * out), in the order the JS lookup visits them; false for a word the kernel hands back (`out` then holds nothing
   * to use).
   */
  synonymKeys(word: string, out: number[]): boolean {
    if (!this.write(word, true)) return false
    const count = this.exports.synonymKeys(word.length)
    if (count < 0) return false
    const from = this.out
    out.length = count
    for (let k = 0; k < count; k++) out[k] = from[k]!
    return true
  }

  /** Writes `word` as bytes; false when it is too long, not ASCII, or (`lower`) has a capital. */
  private write(word: string, lower: boolean): boolean {
    const n = word.length
    if (n > WORDNET_KERNEL_MAX_UNITS) return false
    const bytes = this.word
    for (let k = 0; k < n; k++) {
      const c = word.charCodeAt(k)
      if (c > 0x7f || (lower && c >= 0x41 && c <= 0x5a)) return false
      bytes[k] = c
    }
    return true
  }
}

/**
 * Record r's key address (its column's text, `meta[8 + column]`, + its start) and length at `keys[2r]`, `keys[2r + 1]`:
 * the kernel reads both from one cache line, where the index's three arrays cost three. A function of its own, only
 * its loop, so that it is optimised while it runs.
 */
function placeKeys(keys: Int32Array, meta: Int32Array, index: FormIndexLayout): void {
  const { column, keyStart, keyLength } = index
  for (let r = 0; r < column.length; r++) {
    keys[2 * r] = meta[8 + column[r]!]! + keyStart[r]!
    keys[2 * r + 1] = keyLength[r]!
  }
}

/** `n` rounded up to a multiple of 4, so that the Int32Arrays after a text are aligned. */
function align(n: number): number {
  return (n + 3) & ~3
}
