/**
 * The WebAssembly path of two tokenizers (`word-kernel.wat`, assembled into `word-kernel-wasm.ts`): an ASCII text's
 * words, lower-cased and mapped to the caller's ids, in one call. ROUGE's default tokenizer takes the
 * `[A-Za-z0-9]` runs (rouge.ts); METEOR splits on whitespace as Python's `str.split()` (meteor.ts). The caller supplies
 * the ids (rouge.ts stems a run the first time the kernel meets it) and keeps its JS path for non-ASCII or long texts
 * and for runtimes without WebAssembly.
 */
import { WORD_KERNEL_WASM } from './word-kernel-wasm.js'
import { compileKernel, instantiateKernel, type WasmMemory } from '../wasm-api.js'

/** A text with more UTF-16 units than this takes the JS path. */
export const KERNEL_MAX_UNITS = 1 << 16
/**
 * At most 2^17 slots of 32 bytes (4 MB). The kernel remembers up to half as many distinct words; when a text might not
 * fit, it forgets them all (they are a memo only).
 */
const SLOT_BITS = 17
/**
 * The table starts with 2^12 slots (128 kB) and doubles as words come, so a process that meets a few thousand words
 * touches a few hundred kB of its memory, not 4 MB, and every page first touched is a page fault: a fresh process
 * scoring 300 pairs with ROUGE-L took 2,700-2,870 page faults with the whole table from the start, 870-1,050 with this.
 */
const FIRST_SLOT_BITS = 12
const KEY_BYTES = 1 << 20

// the layout: text (a UTF-16 unit is at most 3 bytes of UTF-8) and 16 readable bytes, out, slots, keys, and the
// scratch copy of a table being doubled (at most half the largest)
const TEXT_AT = 0
const OUT_AT = TEXT_AT + 3 * KERNEL_MAX_UNITS + 16
const SLOTS_AT = OUT_AT + 4 * (KERNEL_MAX_UNITS / 2 + 1)
const KEYS_AT = SLOTS_AT + 32 * (1 << SLOT_BITS)
const SCRATCH_AT = KEYS_AT + KEY_BYTES + 16
const END = SCRATCH_AT + 32 * (1 << (SLOT_BITS - 1))

/** How a text splits into words: ROUGE's `[A-Za-z0-9]` runs, or Python's `str.split()`. */
export type WordRule = 'alphanumeric-runs' | 'python-split'

/** The settings a word has an id for (ROUGE: unstemmed and stemmed). */
export type WordSetting = 0 | 1 | 2

interface KernelExports {
  readonly memory: WasmMemory
  setup(mode: number, text: number, out: number, slots: number, bits: number, keys: number, keyBytes: number, scratch: number): void
  /** The token count, or -1 when the table might not hold the text's runs, -2 when its key bytes might not. */
  tokens(length: number, setting: number): number
  grow(): void
  reset(): void
}

/** The id of a word (lower-cased) under a setting, or -1 for a word that gives no token. */
export type ResolveWord = (word: string, setting: WordSetting) => number

export class WordKernel {
  private readonly exports: KernelExports
  private readonly bytes: Buffer
  /** What {@link tokens} wrote: the ids of the text's tokens (valid until the next call). */
  readonly out: Int32Array
  // the text and setting of the call in progress, for resolve()
  private text = ''
  private setting: WordSetting = 0
  /** log2 of the table's slots now, and the most it may grow to. */
  private slotBits: number
  private readonly maxSlotBits: number

  private constructor(module: object, rule: WordRule, resolve: ResolveWord, slotBits: number) {
    const imports = {
      words: {
        // the kernel hands over ASCII byte offsets, which are UTF-16 offsets too
        resolve: (start: number, end: number): number => resolve(this.text.slice(start, end).toLowerCase(), this.setting),
      },
    }
    this.exports = instantiateKernel<KernelExports>(module, imports)
    const memory = this.exports.memory
    memory.grow(Math.ceil(END / 65536) - memory.buffer.byteLength / 65536)
    this.maxSlotBits = slotBits
    this.slotBits = Math.min(FIRST_SLOT_BITS, slotBits)
    this.exports.setup(rule === 'python-split' ? 1 : 0, TEXT_AT, OUT_AT, SLOTS_AT, this.slotBits, KEYS_AT, KEY_BYTES, SCRATCH_AT)
    this.bytes = Buffer.from(memory.buffer, TEXT_AT, 3 * KERNEL_MAX_UNITS)
    this.out = new Int32Array(memory.buffer, OUT_AT, KERNEL_MAX_UNITS / 2 + 1)
  }

  /**
   * A kernel that splits by `rule` and whose ids come from `resolve`, or null where this runtime has no WebAssembly
   * (then the caller tokenizes in JS). `slotBits` (at most the default) caps the table's size: the tests use it to
   * make words share slots.
   */
  static create(rule: WordRule, resolve: ResolveWord, slotBits = SLOT_BITS): WordKernel | null {
    const module = compileKernel(WORD_KERNEL_WASM)
    return module === null ? null : new WordKernel(module, rule, resolve, Math.min(slotBits, SLOT_BITS))
  }

  /**
   * The number of tokens of `text` written to {@link out}, or -1 when the text is not ASCII or longer than
   * {@link KERNEL_MAX_UNITS} (then the caller tokenizes it in JS).
   */
  tokens(text: string, setting: WordSetting): number {
    if (text.length > KERNEL_MAX_UNITS) return -1
    // every non-ASCII unit takes more than one byte, so an ASCII text is exactly as many bytes as units (the region
    // has room for 3 bytes per unit, so the write is never cut short)
    if (this.bytes.write(text, 0) !== text.length) return -1
    this.text = text
    this.setting = setting
    let count = this.exports.tokens(text.length, setting)
    // the table might not hold this text's words (tokens() then changed nothing): a larger one, else start it over
    while (count === -1 && this.slotBits < this.maxSlotBits) {
      this.exports.grow()
      this.slotBits++
      count = this.exports.tokens(text.length, setting)
    }
    if (count < 0) {
      this.exports.reset()
      count = this.exports.tokens(text.length, setting)
    }
    return count
  }

  /** Forgets every word and the ids `resolve` gave for them (the caller's vocabulary started over). */
  reset(): void {
    this.exports.reset()
  }
}
