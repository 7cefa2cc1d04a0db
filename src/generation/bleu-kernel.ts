/**
 * The WebAssembly path of BLEU's per-segment statistics (`bleu-kernel.wat`, assembled into `bleu-kernel-wasm.ts`):
 * 13a tokens, their interning and the clipped n-gram counts of one segment in one call. bleu.ts uses it for the
 * 13a tokenizer when a runtime has WebAssembly; everything else (other tokenizers, the unmatched n-grams of a
 * failure message, segments too large for the kernel's memory) stays on the JS path.
 */
import { BLEU_KERNEL_WASM } from './bleu-kernel-wasm.js'
import { compileKernel, instantiateKernel, type WasmMemory } from '../wasm-api.js'
import { ASCII_CLASS } from './tokenizers/tokenizer-13a.js'

/**
 * A segment with more UTF-16 units than this (all its texts together) takes the JS path, so the kernel's memory
 * stays small (about 14 MB at most).
 */
export const KERNEL_MAX_UNITS = 1 << 16
/** A segment with more texts (references + candidate) than this takes the JS path. */
export const KERNEL_MAX_TEXTS = 256
/** The largest n-gram order BLEU accepts (`maxNgramOrder`). */
const MAX_ORDER = 64

// fixed part of the memory: classes, bounds, first tokens, output
const CLASS_AT = 0
const BOUNDS_AT = 128
const TEXT_TOK_AT = BOUNDS_AT + KERNEL_MAX_TEXTS * 8
const OUT_AT = TEXT_TOK_AT + (KERNEL_MAX_TEXTS + 1) * 4
const BYTES_AT = OUT_AT + (KERNEL_MAX_TEXTS + 2 * MAX_ORDER) * 4
/** Table entries are stamped per use; long before the stamp (an i32) wraps, the table is cleared. */
const RESTAMP_AFTER = 1 << 26

interface KernelExports {
  readonly memory: WasmMemory
  setup(
    classes: number,
    bounds: number,
    tokStart: number,
    tokEnd: number,
    ids: number,
    keys: number,
    textTok: number,
    table: number,
    counts: number,
    ones: number,
    out: number,
  ): void
  stats(texts: number, maxOrder: number): number
  restamp(slots: number): void
}

// `isWellFormed` (Node 20+) is not in the project's lib
type MaybeWellFormed = string & { isWellFormed?: () => boolean }

export class BleuKernel {
  private static instance: BleuKernel | null | undefined
  private readonly exports: KernelExports
  /** Bytes the current layout has room for (a power of two). */
  private capacity = 0
  private tableSlots = 0
  private bytes = Buffer.alloc(0)
  private bounds = new Int32Array(0)
  /** What {@link stats} wrote. */
  out = new Int32Array(0)
  private uses = 0

  private constructor(exports: KernelExports) {
    this.exports = exports
    this.layout(1 << 12)
  }

  /** The shared kernel, or null where this runtime has no WebAssembly (then BLEU counts in JS). */
  static get(): BleuKernel | null {
    if (BleuKernel.instance === undefined) {
      const module = compileKernel(BLEU_KERNEL_WASM)
      BleuKernel.instance = module === null ? null : new BleuKernel(instantiateKernel<KernelExports>(module))
    }
    return BleuKernel.instance
  }

  /**
   * Counts one segment: `texts[0, count)` are its references then its candidate, each already lowered, rstripped
   * and through 13a's string rewriting (`prepare13a`). Returns the number of orders counted, then {@link out} holds
   * `[tokens of each text…, (matches, candidate n-grams) per order…]` (see bleu-kernel.wat; valid until the next
   * call, orders past the count are stale); or -1 when the segment is too large for the kernel.
   */
  stats(texts: readonly string[], count: number, maxOrder: number): number {
    if (count > KERNEL_MAX_TEXTS || maxOrder > MAX_ORDER) return -1
    let size = 0
    for (let t = 0; t < count; t++) {
      // a lone surrogate would become U+FFFD in UTF-8, equal to a real one and to other lone surrogates
      if ((texts[t] as MaybeWellFormed).isWellFormed?.() === false) return -1
      size += texts[t]!.length
    }
    if (size > KERNEL_MAX_UNITS) return -1
    // a UTF-16 unit is at most 3 bytes of UTF-8 (a surrogate pair: 4 bytes for 2 units)
    if (3 * size > this.capacity) this.layout(3 * size)
    if (++this.uses === RESTAMP_AFTER) {
      this.exports.restamp(this.tableSlots)
      this.uses = 0
    }
    const bytes = this.bytes
    const bounds = this.bounds
    let p = 0
    for (let t = 0; t < count; t++) {
      bounds[2 * t] = BYTES_AT + p
      // Buffer#write encodes natively and returns a number (TextEncoder#encodeInto returns an object, and a JS
      // copy loop would first have to warm up)
      p += bytes.write(texts[t]!, p)
      bounds[2 * t + 1] = BYTES_AT + p
    }
    return this.exports.stats(count, maxOrder)
  }

  /** Grows the memory for segments of up to `size` bytes and lays it out again. */
  private layout(size: number): void {
    let capacity = Math.max(this.capacity, 1 << 12)
    while (capacity < size) capacity *= 2
    // tokens never outnumber bytes; the table has twice as many slots as bytes
    const slots = 2 * capacity
    // 16 readable bytes after the last text: the kernel loads 16 (letters) or 8 (hashes) at a time
    const tokStart = BYTES_AT + capacity + 16
    const tokEnd = tokStart + 4 * capacity
    const ids = tokEnd + 4 * capacity
    const keys = ids + 4 * capacity
    const counts = keys + 4 * capacity
    const ones = counts + 4 * capacity
    const table = ones + 4 * capacity
    const end = table + 16 * slots
    const memory = this.exports.memory
    const pages = Math.ceil(end / 65536) - memory.buffer.byteLength / 65536
    if (pages > 0) memory.grow(pages)
    // moving the regions leaves old entries in the table, stamped with earlier uses: a fresh start clears them
    this.exports.setup(CLASS_AT, BOUNDS_AT, tokStart, tokEnd, ids, keys, TEXT_TOK_AT, table, counts, ones, OUT_AT)
    this.exports.restamp(slots)
    this.uses = 0
    const buffer = memory.buffer
    new Uint8Array(buffer, CLASS_AT, 128).set(ASCII_CLASS)
    this.bytes = Buffer.from(buffer, BYTES_AT, capacity)
    this.bounds = new Int32Array(buffer, BOUNDS_AT, 2 * KERNEL_MAX_TEXTS)
    this.out = new Int32Array(buffer, OUT_AT, KERNEL_MAX_TEXTS + 2 * MAX_ORDER)
    this.capacity = capacity
    this.tableSlots = slots
  }
}
