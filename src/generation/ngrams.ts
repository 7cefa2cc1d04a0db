/**
 * N-gram counting on integer ids, shared by the generation metrics (BLEU, chrF; ROUGE may reuse it).
 *
 * Why integers: building a string per n-gram (`"a b c"`) and hashing it dominates the cost of
 * sentence BLEU. Instead the tokens of one segment (candidate and references together) are mapped
 * to dense ids `0…V-1` ({@link Interner}), and the n-gram starting at i is the number
 * `id_i·V^(n-1) + … + id_(i+n-1)`, computed from the order n-1 key in place (`key·V + next id`).
 * Keys stay below 2^30 so that V8 keeps them as small integers: when the next order could pass
 * that, the combined keys are renumbered densely through a Map instead (exact, only slower).
 * Keys are comparable only between sequences advanced together in one {@link forEachNgramOrder} call.
 */

import type { TokenSpans } from './tokenizers/spans.js'

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
 * Interns tokens given as spans of source strings (see `tokenizers/spans.ts`) without creating a
 * string per token: an open-addressing table keyed by an FNV-1a hash of the UTF-16 units, compared
 * unit by unit. Meant to be reused: {@link SpanInterner.reset} before each segment.
 */
export class SpanInterner {
  private hashes = new Int32Array(256)
  private ids = new Int32Array(256)
  private starts = new Int32Array(256)
  private lens = new Int32Array(256)
  private stamps = new Uint32Array(256)
  private sources: string[] = new Array<string>(256)
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
      this.sources = new Array<string>(cap)
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
    const { source, starts, ends, count } = spans
    const out = new Array<number>(count)
    const mask = (1 << this.bits) - 1
    const shift = 32 - this.bits
    const stamp = this.stamp
    const hashes = this.hashes
    const stamps = this.stamps
    const lens = this.lens
    for (let t = 0; t < count; t++) {
      const start = starts[t]!
      const end = ends[t]!
      const len = end - start
      let h = 0x811c9dc5 | 0
      for (let i = start; i < end; i++) h = Math.imul(h ^ source.charCodeAt(i), 16777619)
      let k = Math.imul(h, 0x9e3779b1) >>> shift
      let id = -1
      while (stamps[k] === stamp) {
        if (hashes[k] === h && lens[k] === len && sameUnits(this.sources[k]!, this.starts[k]!, source, start, len)) {
          id = this.ids[k]!
          break
        }
        k = (k + 1) & mask
      }
      if (id < 0) {
        id = this.size++
        stamps[k] = stamp
        hashes[k] = h
        lens[k] = len
        this.starts[k] = start
        this.sources[k] = source
        this.ids[k] = id
      }
      out[t] = id
    }
    return out
  }
}

function sameUnits(a: string, aStart: number, b: string, bStart: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (a.charCodeAt(aStart + i) !== b.charCodeAt(bStart + i)) return false
  return true
}

/** Keys stay below this bound (V8's small-integer range on every platform). */
const KEY_LIMIT = 2 ** 30

/**
 * Visits n-gram orders 1…`maxOrder` of several id sequences at once.
 *
 * For order n, `keys[s][i]` (i < `lengths[s]`) identifies the n-gram of sequence s starting at
 * position i, `0 ≤ key < 2^30`; equal keys ⇔ equal n-grams, across all sequences of the call.
 * `lengths[s]` is `max(0, len_s − n + 1)`; `bound` is an upper bound of the keys (exclusive). The
 * arrays are overwritten between orders: copy what you keep.
 *
 * @param sequences token ids, each `0 ≤ id < vocabSize`
 * @param vocabSize the number of distinct ids (e.g. {@link Interner.size})
 * @param maxOrder the highest order visited
 * @param visit called once per order, in increasing order
 */
export function forEachNgramOrder(
  sequences: ReadonlyArray<readonly number[]>,
  vocabSize: number,
  maxOrder: number,
  visit: (n: number, keys: readonly number[][], lengths: readonly number[], bound: number) => void,
): void {
  const count = sequences.length
  const keys = sequences.map((seq) => seq.slice())
  const lengths = sequences.map((seq) => seq.length)
  const base = Math.max(vocabSize, 1)
  // every key of the current order is < bound
  let bound = base
  for (let n = 1; n <= maxOrder; n++) {
    if (n > 1) {
      if (bound * base <= KEY_LIMIT) {
        for (let s = 0; s < count; s++) {
          const k = keys[s]!
          const ids = sequences[s]!
          const next = lengths[s]! > 0 ? lengths[s]! - 1 : 0
          for (let i = 0; i < next; i++) k[i] = k[i]! * base + ids[i + n - 1]!
          lengths[s] = next
        }
        bound *= base
      } else {
        // combine exactly in doubles (bound·base < 2^53 as bound ≤ max(2^30, #positions)), then renumber
        const dense = new Map<number, number>()
        for (let s = 0; s < count; s++) {
          const k = keys[s]!
          const ids = sequences[s]!
          const next = lengths[s]! > 0 ? lengths[s]! - 1 : 0
          for (let i = 0; i < next; i++) {
            const combined = k[i]! * base + ids[i + n - 1]!
            let id = dense.get(combined)
            if (id === undefined) {
              id = dense.size
              dense.set(combined, id)
            }
            k[i] = id
          }
          lengths[s] = next
        }
        bound = Math.max(dense.size, 1)
      }
    }
    visit(n, keys, lengths, bound)
  }
}

/** Largest key bound for which {@link KeyCounts} indexes an array directly instead of hashing. */
const DIRECT_LIMIT = 1 << 16

/**
 * A multiset of non-negative integer keys, cleared in O(1) by a generation stamp and meant to be
 * reused across many small counts. Keys below a small bound index arrays directly; otherwise an
 * open-addressing hash table on typed arrays is used.
 */
export class KeyCounts {
  private keys = new Int32Array(64)
  private counts = new Int32Array(64)
  private stamps = new Uint32Array(64)
  private bits = 6
  private directCounts = new Int32Array(0)
  private directStamps = new Uint32Array(0)
  private direct = false
  private used = new Int32Array(64)
  private stamp = 1
  /** Number of distinct keys. */
  size = 0

  /**
   * Empties the table and makes room for about `expected` distinct keys (it grows if there are
   * more). When `bound` is given, every key added until the next reset must be `< bound`; a small
   * bound selects direct indexing.
   */
  reset(expected: number, bound = Number.POSITIVE_INFINITY): void {
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0)
      this.directStamps.fill(0)
      this.stamp = 1
    }
    this.size = 0
    if (this.used.length < expected) this.used = new Int32Array(Math.max(expected, 2 * this.used.length))
    this.direct = bound <= DIRECT_LIMIT
    if (this.direct) {
      if (this.directCounts.length < bound) {
        const cap = Math.min(DIRECT_LIMIT, Math.max(bound, 2 * this.directCounts.length))
        this.directCounts = new Int32Array(cap)
        this.directStamps = new Uint32Array(cap)
      }
      return
    }
    let bits = this.bits
    while (bits < 30 && 1 << bits < expected * 2) bits++
    if (bits !== this.bits) {
      const cap = 1 << bits
      this.keys = new Int32Array(cap)
      this.counts = new Int32Array(cap)
      this.stamps = new Uint32Array(cap)
      this.bits = bits
    }
  }

  /** The slot of `key` in the hash table: where it is, or the free slot where it would go. */
  private slot(key: number): number {
    const mask = (1 << this.bits) - 1
    let h = Math.imul(key, 0x9e3779b1) >>> (32 - this.bits)
    while (this.stamps[h] === this.stamp && this.keys[h] !== key) h = (h + 1) & mask
    return h
  }

  /** Adds `by` to the count of `key`. */
  add(key: number, by = 1): void {
    if (this.direct) {
      if (this.directStamps[key] !== this.stamp) {
        if (this.size === this.used.length) this.growUsed()
        this.directStamps[key] = this.stamp
        this.directCounts[key] = by
        this.used[this.size++] = key
      } else {
        this.directCounts[key]! += by
      }
      return
    }
    let h = this.slot(key)
    if (this.stamps[h] !== this.stamp) {
      // keep the table at most half full (more distinct keys than `reset` was told)
      if (2 * (this.size + 1) > 1 << this.bits) {
        this.rehash()
        h = this.slot(key)
      }
      if (this.size === this.used.length) this.growUsed()
      this.stamps[h] = this.stamp
      this.keys[h] = key
      this.counts[h] = by
      this.used[this.size++] = h
    } else {
      this.counts[h]! += by
    }
  }

  private growUsed(): void {
    const used = new Int32Array(Math.max(64, 2 * this.used.length))
    used.set(this.used)
    this.used = used
  }

  /** Doubles the hash table and re-inserts the current keys. */
  private rehash(): void {
    const oldKeys = this.keys
    const oldCounts = this.counts
    this.bits++
    const cap = 1 << this.bits
    this.keys = new Int32Array(cap)
    this.counts = new Int32Array(cap)
    this.stamps = new Uint32Array(cap)
    for (let i = 0; i < this.size; i++) {
      const old = this.used[i]!
      const h = this.slot(oldKeys[old]!)
      this.stamps[h] = this.stamp
      this.keys[h] = oldKeys[old]!
      this.counts[h] = oldCounts[old]!
      this.used[i] = h
    }
  }

  /** Adds one for each of the first `length` keys. */
  addAll(keys: readonly number[], length: number): void {
    for (let i = 0; i < length; i++) this.add(keys[i]!)
  }

  /** Raises the count of `key` to at least `count`. */
  max(key: number, count: number): void {
    const current = this.get(key)
    if (count > current) this.add(key, current < 0 ? count : count - current)
  }

  /** The count of `key`, or -1 when it was never added. */
  get(key: number): number {
    if (this.direct) return this.directStamps[key] === this.stamp ? this.directCounts[key]! : -1
    const h = this.slot(key)
    return this.stamps[h] === this.stamp ? this.counts[h]! : -1
  }

  /**
   * Takes one occurrence of `key`: returns 1 (taken), 0 (present but none left) or -1 (never added).
   * Taking one per candidate n-gram is clipping: `Σ min(count_cand, count_ref)` matches in total.
   */
  take(key: number): number {
    if (this.direct) {
      if (this.directStamps[key] !== this.stamp) return -1
      if (this.directCounts[key] === 0) return 0
      this.directCounts[key]!--
      return 1
    }
    const h = this.slot(key)
    if (this.stamps[h] !== this.stamp) return -1
    if (this.counts[h] === 0) return 0
    this.counts[h]!--
    return 1
  }

  /** Calls `fn(key, count)` for each distinct key, in insertion order. */
  forEach(fn: (key: number, count: number) => void): void {
    for (let i = 0; i < this.size; i++) {
      const at = this.used[i]!
      if (this.direct) fn(at, this.directCounts[at]!)
      else fn(this.keys[at]!, this.counts[at]!)
    }
  }
}

/** Counts the first `length` keys into `into` (reset first) and returns it. */
export function countKeys(keys: readonly number[], length: number, into: KeyCounts = new KeyCounts(), bound?: number): KeyCounts {
  into.reset(length, bound)
  into.addAll(keys, length)
  return into
}

/**
 * `Σ_g min(count_a(g), count_b(g))` where `remaining` holds the counts of b and `keys` lists the
 * n-grams of a (with repetitions). Consumes `remaining`.
 */
export function consumeMatches(keys: readonly number[], length: number, remaining: KeyCounts): number {
  let matches = 0
  for (let i = 0; i < length; i++) if (remaining.take(keys[i]!) === 1) matches++
  return matches
}

/** The text of the n-gram of `tokens` starting at `start`, tokens joined by `separator`. */
export function ngramText(tokens: readonly string[], start: number, n: number, separator = ' '): string {
  return tokens.slice(start, start + n).join(separator)
}
