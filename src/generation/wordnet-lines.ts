/**
 * A newline-separated list searched where it lies: the WordNet data file holds each table as one long
 * string with one entry per line. Only where each line starts is recorded (one `indexOf` scan), so
 * loading makes no per-entry strings; a line is sliced out when it is read, and a lookup hashes the
 * lines' keys in place (an index built on the first lookup) and compares code units in place.
 */
import { HASH_SEED, hashStep, hashText } from './token-table.js'

export class Lines {
  readonly text: string
  /** `starts[k]` is where line k begins; `starts[count]` is `text.length + 1` (one past the last line's end). */
  private readonly starts: Int32Array
  /** Number of lines; an empty text has none. */
  readonly count: number

  constructor(text: string) {
    this.text = text
    const count = text.length === 0 ? 0 : countNewlines(text) + 1
    const starts = new Int32Array(count + 1)
    recordLineStarts(text, starts)
    starts[count] = text.length + 1
    this.starts = starts
    this.count = count
  }

  /** Where line `k` begins in {@link text}. */
  start(k: number): number {
    return this.starts[k]!
  }

  /** Where line `k` ends (exclusive: its `\n` or the end of the text). */
  end(k: number): number {
    return this.starts[k + 1]! - 1
  }

  /** Line `k` as a string. */
  line(k: number): string {
    return this.text.slice(this.starts[k]!, this.starts[k + 1]! - 1)
  }

  /**
   * The number of the line equal to `key`, or −1 (the first such line if several are). With
   * `keyEndsAtSpace`, a line's key is its text up to its first space (`form base…`).
   */
  find(key: string, keyEndsAtSpace = false): number {
    // METEOR looks up ~10 forms per new word, most of them absent: a hash probe instead of a
    // 17-step binary search. The index is built on the first lookup, per key mode.
    const index = keyEndsAtSpace ? (this.byKeyBeforeSpace ??= buildIndex(this, true)) : (this.byLine ??= buildIndex(this, false))
    const { text, starts } = this
    const mask = (index.length >> 1) - 1
    const length = key.length
    const h = hashText(key)
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const line = index[2 * slot + 1]! - 1
      if (line < 0) return -1
      if (index[2 * slot] !== h) continue
      const from = starts[line]!
      const to = keyEnd(text, from, starts[line + 1]! - 1, keyEndsAtSpace)
      if (to - from === length && sameUnits(key, text, from)) return line
    }
  }

  /** Per slot: the key's hash and its line number + 1 (0: empty); built by {@link buildIndex}. */
  private byLine: Int32Array | undefined
  private byKeyBeforeSpace: Int32Array | undefined
}

/** Where the key of the line `text[from, to)` ends: `to`, or its first space with `keyEndsAtSpace`. */
function keyEnd(text: string, from: number, to: number, keyEndsAtSpace: boolean): number {
  if (!keyEndsAtSpace) return to
  const space = text.indexOf(' ', from)
  return space >= 0 && space < to ? space : to
}

function sameUnits(key: string, text: string, from: number): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) !== text.charCodeAt(from + i)) return false
  return true
}

/** Open addressing, at most half full; a key met twice keeps its first line (what a scan finds first). */
function buildIndex(lines: Lines, keyEndsAtSpace: boolean): Int32Array {
  let size = 16
  while (size < 2 * lines.count) size *= 2
  const index = new Int32Array(2 * size)
  const hashes = new Int32Array(lines.count)
  hashLineKeys(lines.text, keyEndsAtSpace, hashes)
  const mask = size - 1
  for (let k = 0; k < lines.count; k++) {
    const h = hashes[k]!
    let slot = h & mask
    while (index[2 * slot + 1] !== 0 && !(index[2 * slot] === h && sameKey(lines, index[2 * slot + 1]! - 1, k, keyEndsAtSpace))) slot = (slot + 1) & mask
    if (index[2 * slot + 1] !== 0) continue
    index[2 * slot] = h
    index[2 * slot + 1] = k + 1
  }
  return index
}

/** `hashes[k]` = the {@link hashText} of line k's key; one scan over the whole text, so it is optimised while it runs. */
function hashLineKeys(text: string, keyEndsAtSpace: boolean, hashes: Int32Array): void {
  let k = 0
  let h = HASH_SEED
  let inKey = true
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) {
      hashes[k++] = h
      h = HASH_SEED
      inKey = true
    } else if (inKey) {
      if (c === 32 && keyEndsAtSpace) inKey = false
      else h = hashStep(h, c)
    }
  }
  if (k < hashes.length) hashes[k] = h
}

/** Whether lines `a` and `b` have the same key. */
function sameKey(lines: Lines, a: number, b: number, keyEndsAtSpace: boolean): boolean {
  const { text } = lines
  const fromA = lines.start(a)
  const fromB = lines.start(b)
  const length = keyEnd(text, fromA, lines.end(a), keyEndsAtSpace) - fromA
  if (keyEnd(text, fromB, lines.end(b), keyEndsAtSpace) - fromB !== length) return false
  for (let i = 0; i < length; i++) if (text.charCodeAt(fromA + i) !== text.charCodeAt(fromB + i)) return false
  return true
}

// The two scans are functions of their own, each only its loop: a loop is optimised while it runs
// (on-stack replacement), and code after it that had never run would throw that work away again.

function countNewlines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
}

/** `starts[k]` = where line k begins, for every line after the first (`starts[0]` stays 0). */
function recordLineStarts(text: string, starts: Int32Array): void {
  let k = 1
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts[k++] = at + 1
}
