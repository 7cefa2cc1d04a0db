/**
 * A string → dense index table for the tokenizers' hot paths: METEOR and ROUGE look up every word
 * of every text in a vocabulary of all the words seen. A scan can hash a word while it reads it
 * and find it here without slicing it out of the text first (slicing and hashing fresh strings
 * took most of those metrics' time on short sentences). Each slot holds the hash and where the
 * word's code units sit in one shared array, so a lookup touches two places in memory, not a chain
 * of string objects. Open addressing with linear probing, at most half full.
 */
import { imul } from '../math-bindings.js'

/** FNV-1a over UTF-16 code units: start value, multiplier and one step. */
export const HASH_SEED = 0x811c9dc5 | 0
export const HASH_PRIME = 0x01000193
export function hashStep(h: number, unit: number): number {
  return imul(h ^ unit, HASH_PRIME)
}

/** The {@link hashStep} hash of a whole string. */
export function hashText(text: string): number {
  let h = HASH_SEED
  for (let k = 0; k < text.length; k++) h = hashStep(h, text.charCodeAt(k))
  return h
}

/** `unit` lower-cased if it is an ASCII capital (what `toLowerCase` does to ASCII). */
export function asciiLower(unit: number): number {
  return unit >= 65 && unit <= 90 ? unit + 32 : unit
}

/** Ints per slot: hash, index + 1 (0: empty), start in `units`, length. */
const SLOT = 4

export class TokenTable {
  private count = 0
  private slots = new Int32Array(SLOT * 1024)
  /** The code units of every entry, back to back. */
  private units = new Uint16Array(8192)
  private used = 0

  /** Entries so far; indices are 0 … size − 1 in insertion order. */
  get size(): number {
    return this.count
  }

  /** The index of `text` (hashed `h`), or −1. */
  find(text: string, h: number): number {
    const { slots, units } = this
    const mask = slots.length / SLOT - 1
    const length = text.length
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const at = slot * SLOT
      const index = slots[at + 1]!
      if (index === 0) return -1
      if (slots[at] !== h || slots[at + 3] !== length) continue
      const from = slots[at + 2]!
      let k = 0
      while (k < length && units[from + k] === text.charCodeAt(k)) k++
      if (k === length) return index - 1
    }
  }

  /** The index of `source[start, end)` lower-cased as ASCII (hashed `h` after lower-casing), or −1. */
  findAsciiLower(source: string, start: number, end: number, h: number): number {
    const { slots, units } = this
    const mask = slots.length / SLOT - 1
    const length = end - start
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const at = slot * SLOT
      const index = slots[at + 1]!
      if (index === 0) return -1
      if (slots[at] !== h || slots[at + 3] !== length) continue
      const from = slots[at + 2]!
      let k = 0
      while (k < length && units[from + k] === asciiLower(source.charCodeAt(start + k))) k++
      if (k === length) return index - 1
    }
  }

  /** Adds `text` (hashed `h`, not yet in the table) and returns its index. */
  add(text: string, h: number): number {
    if (this.used + text.length > this.units.length) {
      const units = new Uint16Array(Math.max(this.units.length * 2, this.used + text.length))
      units.set(this.units)
      this.units = units
    }
    const from = this.used
    for (let k = 0; k < text.length; k++) this.units[from + k] = text.charCodeAt(k)
    this.used += text.length
    this.count++
    if (this.count * 2 > this.slots.length / SLOT) this.grow()
    place(this.slots, h, this.count, from, text.length)
    return this.count - 1
  }

  private grow(): void {
    const old = this.slots
    const slots = new Int32Array(old.length * 2)
    for (let at = 0; at < old.length; at += SLOT) {
      if (old[at + 1] !== 0) place(slots, old[at]!, old[at + 1]!, old[at + 2]!, old[at + 3]!)
    }
    this.slots = slots
  }
}

function place(slots: Int32Array, h: number, indexPlusOne: number, from: number, length: number): void {
  const mask = slots.length / SLOT - 1
  let slot = h & mask
  while (slots[slot * SLOT + 1] !== 0) slot = (slot + 1) & mask
  const at = slot * SLOT
  slots[at] = h
  slots[at + 1] = indexPlusOne
  slots[at + 2] = from
  slots[at + 3] = length
}
