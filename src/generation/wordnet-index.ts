/**
 * One hash index over every key of several {@link Lines} tables: a key's entry gives, for each table
 * (a column), the number of the line with that key, or −1. WordNet's eight tables (index lemmas and
 * `<pos>.exc` forms, per part of speech) share one index, so that a form METEOR looks up is hashed
 * and probed once for all of them, where it used to be hashed and probed once per table.
 *
 * Keys are compared in place in the tables' texts; building makes no per-key string.
 */
import { imul } from '../math-bindings.js'
import { HASH_PRIME, HASH_SEED } from './token-table.js'
import type { Lines } from './wordnet-lines.js'

/** One column: a table, and whether a line's key is its text up to its first space (`form base…`). */
export interface IndexedTable {
  readonly lines: Lines
  readonly keyEndsAtSpace: boolean
}

/** {@link FormIndex.layout}: see the fields of the same names. */
export interface FormIndexLayout {
  readonly slots: Int32Array
  readonly mask: number
  readonly entryMask: number
  readonly column: Uint8Array
  readonly keyStart: Int32Array
  readonly keyLength: Int32Array
  readonly next: Int32Array
  readonly firstRecord: Int32Array
  readonly endRecord: Int32Array
}

// Keys are hashed with token-table.ts's FNV-1a written out where it is used (not a hashStep call per
// code unit): the call is what costs most while the code still runs unoptimised, which is when a fresh
// process does its lookups.

export class FormIndex {
  /** Number of columns (tables). */
  readonly columns: number
  /** Number of distinct keys. */
  readonly size: number
  private readonly texts: readonly string[]
  /**
   * Every line of every column is a record: column c's line k is record `firstRecord[c] + k`, up to
   * `endRecord[c]`. The columns are numbered smallest first (see the constructor). A key's entry is
   * its first record.
   */
  private readonly firstRecord: Int32Array
  private readonly endRecord: Int32Array
  /**
   * Open addressing with linear probing, at most 2/3 full. A slot holds an entry + 1 in its low bits
   * (`entryMask`; 0: empty) and the key hash's other bits above them, so that a probe rejects another
   * key without reading its records.
   */
  private readonly slots: Int32Array
  private readonly mask: number
  private readonly entryMask: number
  /** Per record: its column, where its key starts in that column's text, how many code units it has. */
  private readonly column: Uint8Array
  private readonly keyStart: Int32Array
  private readonly keyLength: Int32Array
  /** Per record: the next record with the same key + 1, or 0. A chain is its entry, then the key's later records, latest first. */
  private readonly next: Int32Array

  constructor(tables: readonly IndexedTable[]) {
    if (tables.length > 256) throw new RangeError('FormIndex: at most 256 columns')
    // Smallest column first: the insertion loop then meets its rare paths (a key already there) in
    // the small tables, while it still runs unoptimised, instead of in optimised code built on the
    // largest table, where each would cost a deoptimisation and a recompilation.
    const order = tables.map((_, c) => c).sort((a, b) => tables[a]!.lines.count - tables[b]!.lines.count || a - b)
    const firstRecord = new Int32Array(tables.length)
    const endRecord = new Int32Array(tables.length)
    let records = 0
    for (const c of order) {
      firstRecord[c] = records
      records += tables[c]!.lines.count
      endRecord[c] = records
    }
    const entryBits = 32 - Math.clz32(records)
    if (entryBits > 30) throw new RangeError('FormIndex: too many lines')
    let size = 16
    while (2 * size < 3 * records) size *= 2
    this.columns = tables.length
    this.texts = tables.map((table) => table.lines.text)
    this.firstRecord = firstRecord
    this.endRecord = endRecord
    this.slots = new Int32Array(size)
    this.mask = size - 1
    this.entryMask = (1 << entryBits) - 1
    this.column = new Uint8Array(records)
    this.keyStart = new Int32Array(records)
    this.keyLength = new Int32Array(records)
    this.next = new Int32Array(records)
    const hashes = new Int32Array(records)
    for (const c of order) {
      const text = this.texts[c]!
      this.column.fill(c, firstRecord[c], endRecord[c])
      if (text.length === 0) continue
      hashKeys(text, text.length, tables[c]!.keyEndsAtSpace ? SPACE : NO_UNIT, firstRecord[c]!, hashes, this.keyStart, this.keyLength)
    }
    this.size = this.insertRecords(hashes)
  }

  /** The index's arrays, read-only, for wordnet-kernel.ts to copy (its lookups then give the same entries). */
  layout(): FormIndexLayout {
    const { slots, mask, entryMask, column, keyStart, keyLength, next, firstRecord, endRecord } = this
    return { slots, mask, entryMask, column, keyStart, keyLength, next, firstRecord, endRecord }
  }

  /** The entry of `key`, or −1. */
  find(key: string): number {
    return this.findJoined(key, 0, key.length, '')
  }

  /**
   * The entry of the key `head.slice(from, to) + tail`, or −1, without making that string (a form a
   * morphy rule makes from a word, a base form written in an `.exc` line).
   */
  findJoined(head: string, from: number, to: number, tail: string): number {
    let h = HASH_SEED
    for (let i = from; i < to; i++) h = imul(h ^ head.charCodeAt(i), HASH_PRIME)
    for (let i = 0; i < tail.length; i++) h = imul(h ^ tail.charCodeAt(i), HASH_PRIME)
    const { slots, mask, entryMask, keyLength } = this
    const tag = h & ~entryMask
    const length = to - from + tail.length
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const value = slots[slot]!
      if (value === 0) return -1
      if ((value & ~entryMask) !== tag) continue
      const entry = (value & entryMask) - 1
      if (keyLength[entry] === length && keyEquals(this.texts[this.column[entry]!]!, this.keyStart[entry]!, head, from, to, tail)) return entry
    }
  }

  /** The line of `entry`'s key in `column`, or −1 (also for entry −1: an absent key is on no line). */
  line(entry: number, column: number): number {
    const first = this.firstRecord[column]!
    const end = this.endRecord[column]!
    // the smallest record in the column: the key's first line there
    let found = -1
    for (let record = entry; record >= 0; record = this.next[record]! - 1) if (record >= first && record < end && (found < 0 || record < found)) found = record
    return found < 0 ? -1 : found - first
  }

  /**
   * The line of `entry`'s key in every column at once: `out[c]` for column c (−1: none; all −1 for
   * entry −1). `out` has at least {@link columns} elements.
   */
  linesOf(entry: number, out: Int32Array): void {
    out.fill(-1, 0, this.columns)
    const { column, firstRecord, next } = this
    for (let record = entry; record >= 0; record = next[record]! - 1) {
      const c = column[record]!
      const line = record - firstRecord[c]!
      // the smallest record in the column: the key's first line there
      if (out[c]! < 0 || line < out[c]!) out[c] = line
    }
  }

  /** The key of `entry` (for tests; lookups never make it). */
  key(entry: number): string {
    const start = this.keyStart[entry]!
    return this.texts[this.column[entry]!]!.slice(start, start + this.keyLength[entry]!)
  }

  /**
   * Files every record under its key's entry, in record order (so an entry is its key's first record);
   * returns the number of entries. A method of its own, only its loop: a loop is optimised while it
   * runs (on-stack replacement), and code after it that had never run would throw that work away again.
   */
  private insertRecords(hashes: Int32Array): number {
    const { slots, mask, entryMask, keyLength, keyStart, column, next, texts } = this
    let entries = 0
    for (let record = 0; record < hashes.length; record++) {
      const h = hashes[record]!
      const tag = h & ~entryMask
      const length = keyLength[record]!
      let slot = h & mask
      for (; ; slot = (slot + 1) & mask) {
        const value = slots[slot]!
        if (value === 0) break
        if ((value & ~entryMask) !== tag) continue
        const entry = (value & entryMask) - 1
        const text = texts[column[record]!]!
        const from = keyStart[record]!
        if (keyLength[entry] === length && keyEquals(texts[column[entry]!]!, keyStart[entry]!, text, from, from + length, '')) break
      }
      const value = slots[slot]!
      if (value === 0) {
        slots[slot] = tag | (record + 1)
        entries++
        continue
      }
      // after the entry: one path for every repeat, so that it is met early (see the constructor)
      const entry = (value & entryMask) - 1
      next[record] = next[entry]!
      next[entry] = record + 1
    }
    return entries
  }
}

/** Whether `text[at, at + (to − from) + tail.length)` equals `head[from, to) + tail`. */
function keyEquals(text: string, at: number, head: string, from: number, to: number, tail: string): boolean {
  for (let i = from; i < to; i++) if (head.charCodeAt(i) !== text.charCodeAt(at++)) return false
  for (let i = 0; i < tail.length; i++) if (tail.charCodeAt(i) !== text.charCodeAt(at++)) return false
  return true
}

const SPACE = 32
/** A value no code unit has: a key that ends at it is the whole line. */
const NO_UNIT = -1

/**
 * For each line of `text` (n > 0 code units; record `first + k` for line k), the hash of its key, where
 * the key starts and its length; the key is the line up to its first `keyEnd` unit (SPACE: `form base…`),
 * or all of it. One scan, in a function of its own (see {@link FormIndex.insertRecords}), up to n so that
 * the end of the text ends the last line without code after the loop; `n` is an argument because a
 * property read before the loop had no feedback yet when the loop was optimised, and the next call threw
 * that code away.
 */
function hashKeys(text: string, n: number, keyEnd: number, first: number, hashes: Int32Array, keyStart: Int32Array, keyLength: Int32Array): void {
  let record = first
  let from = 0
  let end = -1
  let h = HASH_SEED
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 10
    if (c === 10) {
      hashes[record] = h
      keyStart[record] = from
      keyLength[record++] = (end < 0 ? i : end) - from
      from = i + 1
      end = -1
      h = HASH_SEED
    } else if (end < 0) {
      if (c === keyEnd) end = i
      else h = imul(h ^ c, HASH_PRIME)
    }
  }
}
