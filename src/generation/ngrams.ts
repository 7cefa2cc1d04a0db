/**
 * N-gram counting on integer ids, shared by the generation metrics (BLEU, chrF; ROUGE may reuse it).
 *
 * Why integers: building a string per n-gram (`"a b c"`) and hashing it dominates the cost of
 * sentence BLEU. Instead the tokens of one segment (candidate and references together) are mapped
 * to dense ids `0…V-1` ({@link Interner}, {@link SpanInterner}, {@link CodePointInterner}).
 *
 * BLEU and chrF count with {@link DenseNgrams}: at every order the n-grams are numbered densely
 * again (n-gram = pair of its (n−1)-gram id and its last token), so ids stay below the number of
 * positions and counts live in plain typed arrays indexed by id ({@link ZeroedCounts}), with no
 * hashing of large keys in the inner loops.
 */

import { spanHash, type TokenSpans } from './tokenizers/spans.js'
import { imul } from '../math-bindings.js'

/** Maps tokens (strings, code points…) to dense ids `0, 1, 2…` in order of first appearance. */
export class Interner<T> {
  private readonly ids = new Map<T, number>()

  /** The number of distinct tokens seen so far. */
  get size(): number {
    return this.ids.size
  }

  /** The id of one token, assigning the next free id to a new one. */
  id(token: T): number {
    let id = this.ids.get(token)
    if (id === undefined) {
      id = this.ids.size
      this.ids.set(token, id)
    }
    return id
  }

  /** The ids of a token sequence. */
  intern(tokens: readonly T[]): number[] {
    const out = new Array<number>(tokens.length)
    for (let i = 0; i < tokens.length; i++) out[i] = this.id(tokens[i]!)
    return out
  }
}

/**
 * Maps code points to dense ids `0, 1, 2…` in order of first appearance, like an
 * `Interner<number>` but through a direct table for the BMP (chrF interns every character).
 * Meant to be reused: {@link CodePointInterner.reset} before each segment.
 */
export class CodePointInterner {
  private ids = new Int32Array(0)
  private stamps = new Uint32Array(0)
  private stamp = 1
  private readonly astral = new Map<number, number>()
  /** The number of distinct code points since the last reset. */
  size = 0

  /** Forgets all code points. */
  reset(): void {
    if (this.ids.length === 0) {
      this.ids = new Int32Array(0x10000)
      this.stamps = new Uint32Array(0x10000)
    }
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0)
      this.stamp = 1
    }
    // (clearing an empty Map is not free, and astral characters are rare)
    if (this.astral.size > 0) this.astral.clear()
    this.size = 0
  }

  /** The id of one code point, assigning the next free id to a new one. */
  id(code: number): number {
    if (code >= 0x10000) {
      let id = this.astral.get(code)
      if (id === undefined) {
        id = this.size++
        this.astral.set(code, id)
      }
      return id
    }
    if (this.stamps[code] !== this.stamp) {
      this.stamps[code] = this.stamp
      this.ids[code] = this.size++
    }
    return this.ids[code]!
  }
}

/**
 * Interns tokens given as spans of source strings (see `tokenizers/spans.ts`) without creating a
 * string per token: an open-addressing table keyed by an FNV-1a hash of the UTF-16 units (the
 * tokenizer's, when it computed them), compared unit by unit. Meant to be reused: {@link SpanInterner.reset} before each segment.
 */
export class SpanInterner {
  private hashes = new Int32Array(256)
  private ids = new Int32Array(256)
  private starts = new Int32Array(256)
  private lens = new Int32Array(256)
  private stamps = new Uint32Array(256)
  private sources: string[] = new Array<string>(256).fill('')
  private bits = 8
  private stamp = 1
  /** Number of distinct tokens since the last reset. */
  size = 0

  /** Forgets all tokens and makes room for `expected` distinct ones. */
  reset(expected: number): void {
    let bits = this.bits
    while (bits < 30 && 1 << bits < expected * 2) bits++
    if (bits !== this.bits) {
      const cap = 1 << bits
      this.hashes = new Int32Array(cap)
      this.ids = new Int32Array(cap)
      this.starts = new Int32Array(cap)
      this.lens = new Int32Array(cap)
      this.stamps = new Uint32Array(cap)
      this.sources = new Array<string>(cap).fill('')
      this.bits = bits
      this.stamp = 1
    } else if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0)
      this.stamp = 1
    }
    this.size = 0
  }

  /** The ids of the tokens of `spans`; the table must have room (see {@link SpanInterner.reset}). */
  intern(spans: TokenSpans): number[] {
    const out = new Array<number>(spans.count)
    for (let t = 0; t < spans.count; t++) out[t] = this.idOf(spans.source, spans.starts[t]!, spans.ends[t]!, spanHash(spans.source, spans.starts[t]!, spans.ends[t]!))
    return out
  }

  /** Writes the ids of the tokens of `spans` to `out` from index `at` (no array per segment). */
  internInto(spans: TokenSpans, out: Int32Array, at: number): void {
    const { source, starts, ends, count, hashes } = spans
    if (hashes === undefined) {
      for (let t = 0; t < count; t++) out[at + t] = this.idOf(source, starts[t]!, ends[t]!, spanHash(source, starts[t]!, ends[t]!))
    } else {
      for (let t = 0; t < count; t++) out[at + t] = this.idOf(source, starts[t]!, ends[t]!, hashes[t]!)
    }
  }

  /** The id of `source[start, end)` whose {@link spanHash} is `h`, assigning the next one to a new token. */
  private idOf(source: string, start: number, end: number, h: number): number {
    const len = end - start
    const mask = (1 << this.bits) - 1
    const stamps = this.stamps
    let k = imul(h, 0x9e3779b1) >>> (32 - this.bits)
    while (stamps[k] === this.stamp) {
      if (this.hashes[k] === h && this.lens[k] === len && sameUnits(this.sources[k]!, this.starts[k]!, source, start, len)) return this.ids[k]!
      k = (k + 1) & mask
    }
    const id = this.size++
    stamps[k] = this.stamp
    this.hashes[k] = h
    this.lens[k] = len
    this.starts[k] = start
    this.sources[k] = source
    this.ids[k] = id
    return id
  }
}

function sameUnits(a: string, aStart: number, b: string, bStart: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (a.charCodeAt(aStart + i) !== b.charCodeAt(bStart + i)) return false
  return true
}

/** Largest `distinct × vocabulary` for which {@link DenseNgrams} numbers pairs through a direct table. */
const PAIR_DIRECT_LIMIT = 1 << 16

/**
 * N-gram ids numbered densely at every order, so that counts live in plain arrays indexed by id.
 *
 * Several sequences of token ids are laid out back to back. At order 1 the ids are the tokens'
 * (dense, in order of first appearance); each {@link DenseNgrams.advance} gives the n-gram at
 * position i the number of the pair (id of its (n−1)-gram at i, token i+n−1), numbered 0, 1, 2…
 * in order of first appearance, sequence by sequence. Hence ids stay below the number of
 * positions (no hashing of large keys), and an n-gram first met in sequence s has an id
 * ≥ {@link DenseNgrams.distinctBefore}(s): "occurs in an earlier sequence" is one comparison.
 * Meant to be reused across segments (synchronous use only).
 */
export class DenseNgrams {
  /** Token ids of all sequences, back to back (write through {@link DenseNgrams.append}). */
  tokens = new Int32Array(256)
  /** Ids of the current order's n-grams by starting position; valid for the first `length(s)` positions of each sequence. */
  keys = new Int32Array(256)
  /** The current order n. */
  order = 1
  /** Number of distinct n-grams of the current order. */
  size = 0
  private offsets = new Int32Array(9)
  private before = new Int32Array(9)
  private sequences = 0
  private total = 0
  private vocab = 1
  // pair → id tables: direct (index a·vocab + b) for small products, else hashed (cleared by stamp)
  private directIds = new Int32Array(0)
  private pairs = new Int32Array(0)
  private counts = new Int32Array(0)
  private hashA = new Int32Array(0)
  private hashB = new Int32Array(0)
  private hashIds = new Int32Array(0)
  private hashStamps = new Uint32Array(0)
  private stamp = 0

  /** Forgets all sequences and makes room for `positions` token ids in total (more grows the arrays). */
  reset(positions: number): void {
    if (this.tokens.length < positions) this.tokens = new Int32Array(Math.max(positions, 2 * this.tokens.length))
    this.sequences = 0
    this.total = 0
    this.order = 1
    this.size = 0
  }

  /** Appends a sequence of `length` tokens and returns where its ids go in {@link DenseNgrams.tokens}. */
  append(length: number): number {
    const at = this.total
    if (this.tokens.length < at + length) {
      const grown = new Int32Array(Math.max(at + length, 2 * this.tokens.length))
      grown.set(this.tokens.subarray(0, at))
      this.tokens = grown
    }
    if (this.offsets.length < this.sequences + 2) {
      const grown = new Int32Array(2 * this.offsets.length)
      grown.set(this.offsets)
      this.offsets = grown
      this.before = new Int32Array(grown.length)
    }
    this.offsets[this.sequences++] = at
    this.total = at + length
    this.offsets[this.sequences] = this.total
    return at
  }

  /** Shortens the sequence appended last to `length` tokens (it was given room for more). */
  shrinkLast(length: number): void {
    this.total = this.offsets[this.sequences - 1]! + length
    this.offsets[this.sequences] = this.total
  }

  /** Appends a sequence given as an array of ids. */
  appendIds(ids: readonly number[]): void {
    const at = this.append(ids.length)
    for (let i = 0; i < ids.length; i++) this.tokens[at + i] = ids[i]!
  }

  /**
   * Starts at order 1 once all sequences are appended. The ids must be `0 ≤ id < vocabSize`,
   * numbered in order of first appearance over the sequences (as the interners here number them).
   */
  start(vocabSize: number): void {
    const total = this.total
    if (this.keys.length < total) this.keys = new Int32Array(Math.max(total, 2 * this.keys.length))
    this.keys.set(this.tokens.subarray(0, total))
    // numbered by first appearance: the ids seen before sequence s are exactly 0…max so far
    let seen = 0
    for (let s = 0; s < this.sequences; s++) {
      this.before[s] = seen
      for (let i = this.offsets[s]!; i < this.offsets[s + 1]!; i++) if (this.tokens[i]! >= seen) seen = this.tokens[i]! + 1
    }
    this.before[this.sequences] = seen
    this.order = 1
    this.size = seen
    this.vocab = Math.max(vocabSize, 1)
  }

  /** Where sequence s starts in {@link DenseNgrams.keys}. */
  from(s: number): number {
    return this.offsets[s]!
  }

  /** Number of n-grams of sequence s at the current order: `max(0, len − n + 1)`. */
  length(s: number): number {
    return Math.max(0, this.offsets[s + 1]! - this.offsets[s]! - this.order + 1)
  }

  /** Distinct n-grams in sequences `0…s−1`: the ids below this (and only those) occur there. */
  distinctBefore(s: number): number {
    return this.before[s]!
  }

  /** Moves to the next order. */
  advance(): void {
    this.order++
    if (++this.stamp === 0xffffffff) {
      this.hashStamps.fill(0)
      this.stamp = 1
    }
    if (this.size * this.vocab <= PAIR_DIRECT_LIMIT) this.advanceDirect()
    else this.advanceHashed()
  }

  /**
   * {@link DenseNgrams.advance} for exactly two sequences, returning the new order's
   * `Σ_g min(count_0(g), count_1(g))` (the clipped matches of a candidate against one reference,
   * whichever is sequence 0). On the direct table, counting happens inside the numbering loop:
   * one pass instead of three.
   */
  advanceMatching(): number {
    if (this.sequences !== 2) throw new Error('DenseNgrams.advanceMatching needs exactly two sequences')
    if (this.size * this.vocab > PAIR_DIRECT_LIMIT) {
      this.advance()
      return this.matches()
    }
    this.order++
    this.ensureDirect()
    if (this.counts.length < this.total) this.counts = new Int32Array(Math.max(this.total, 2 * this.counts.length))
    const { keys, tokens, directIds: ids, pairs, counts, vocab } = this
    const last = this.order - 1
    let size = 0
    // sequence 0: number and count (a new id starts at 1, so no clearing is needed)
    for (let i = 0, to = this.length(0); i < to; i++) {
      const pair = keys[i]! * vocab + tokens[i + last]!
      let id = ids[pair]!
      if (id === 0) {
        pairs[size] = pair
        id = ++size
        ids[pair] = id
        counts[id - 1] = 1
      } else {
        counts[id - 1]!++
      }
      keys[i] = id - 1
    }
    const inFirst = size
    // sequence 1: number and take; an id from sequence 1 onwards was never counted
    let matches = 0
    const from = this.offsets[1]!
    for (let i = from, to = from + this.length(1); i < to; i++) {
      const pair = keys[i]! * vocab + tokens[i + last]!
      let id = ids[pair]!
      if (id === 0) {
        pairs[size] = pair
        id = ++size
        ids[pair] = id
      } else if (id <= inFirst && counts[id - 1]! > 0) {
        counts[id - 1]!--
        matches++
      }
      keys[i] = id - 1
    }
    for (let k = 0; k < size; k++) ids[pairs[k]!] = 0
    this.before[0] = 0
    this.before[1] = inFirst
    this.before[2] = size
    this.size = size
    return matches
  }

  /** `Σ_g min(count_0(g), count_1(g))` at the current order (two sequences). */
  matches(): number {
    if (this.counts.length < this.size) this.counts = new Int32Array(Math.max(this.size, 2 * this.counts.length))
    const { keys, counts } = this
    counts.fill(0, 0, this.size)
    for (let i = 0, to = this.length(0); i < to; i++) counts[keys[i]!]!++
    let matches = 0
    const from = this.offsets[1]!
    for (let i = from, to = from + this.length(1); i < to; i++) {
      const key = keys[i]!
      if (counts[key]! > 0) {
        counts[key]!--
        matches++
      }
    }
    return matches
  }

  private ensureDirect(): void {
    if (this.directIds.length === 0) this.directIds = new Int32Array(PAIR_DIRECT_LIMIT)
    if (this.pairs.length < this.total) this.pairs = new Int32Array(Math.max(this.total, 2 * this.pairs.length))
  }

  private advanceDirect(): void {
    this.ensureDirect()
    // ids are stored + 1 so that 0 means "not seen"; the pairs seen are cleared afterwards,
    // cheaper than clearing the table or stamping it (one array touched per position)
    const { keys, tokens, directIds: ids, pairs, vocab } = this
    const last = this.order - 1
    let size = 0
    for (let s = 0; s < this.sequences; s++) {
      this.before[s] = size
      const from = this.offsets[s]!
      const to = from + this.length(s)
      for (let i = from; i < to; i++) {
        const pair = keys[i]! * vocab + tokens[i + last]!
        let id = ids[pair]!
        if (id === 0) {
          pairs[size] = pair
          id = ++size
          ids[pair] = id
        }
        keys[i] = id - 1
      }
    }
    for (let k = 0; k < size; k++) ids[pairs[k]!] = 0
    this.before[this.sequences] = size
    this.size = size
  }

  private advanceHashed(): void {
    // at most one new id per position: a table twice that size stays at most half full
    let bits = 4
    while (1 << bits < 2 * this.total) bits++
    if (this.hashIds.length < 1 << bits) {
      this.hashA = new Int32Array(1 << bits)
      this.hashB = new Int32Array(1 << bits)
      this.hashIds = new Int32Array(1 << bits)
      this.hashStamps = new Uint32Array(1 << bits)
    }
    bits = 31 - Math.clz32(this.hashIds.length)
    const mask = (1 << bits) - 1
    const shift = 32 - bits
    const { keys, tokens, hashA, hashB, hashIds, hashStamps, stamp } = this
    const last = this.order - 1
    let size = 0
    for (let s = 0; s < this.sequences; s++) {
      this.before[s] = size
      const from = this.offsets[s]!
      const to = from + this.length(s)
      for (let i = from; i < to; i++) {
        const a = keys[i]!
        const b = tokens[i + last]!
        let h = (imul(a, 0x9e3779b1) ^ imul(b + 1, 0x85ebca77)) >>> shift
        while (hashStamps[h] === stamp && (hashA[h] !== a || hashB[h] !== b)) h = (h + 1) & mask
        if (hashStamps[h] !== stamp) {
          hashStamps[h] = stamp
          hashA[h] = a
          hashB[h] = b
          hashIds[h] = size++
        }
        keys[i] = hashIds[h]!
      }
    }
    this.before[this.sequences] = size
    this.size = size
  }
}

/** A reusable count array: {@link ZeroedCounts.zeroed} hands out the same memory, cleared. */
export class ZeroedCounts {
  private counts = new Int32Array(256)

  /** An array of at least `size` entries whose first `size` are 0. */
  zeroed(size: number): Int32Array {
    if (this.counts.length < size) this.counts = new Int32Array(Math.max(size, 2 * this.counts.length))
    else this.counts.fill(0, 0, size)
    return this.counts
  }
}
