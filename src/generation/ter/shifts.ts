/**
 * TER's block shifts, with sacrebleu 2.6.0 `lib_ter`'s heuristics (after Tercom): which moves are
 * tried, in which order, how they are ranked, and the global budget of evaluated candidates.
 */
import type { EditMatrix } from './edit-distance.js'

/** Longest block moved at once. */
export const MAX_SHIFT_SIZE = 10
/** Largest distance between a block's hypothesis and reference start. */
export const MAX_SHIFT_DIST = 50
/** Evaluated candidates per TER computation, over all rounds (sacrebleu's own limit). */
export const MAX_SHIFT_CANDIDATES = 1000

/** `words` with the block `[start, start + length)` moved to before `target` (sacrebleu `_perform_shift`). */
export function performShift(words: Int32Array, start: number, length: number, target: number, out: Int32Array): void {
  const n = words.length
  let k = 0
  const copy = (from: number, to: number): void => {
    const a = Math.max(0, Math.min(n, from))
    const b = Math.max(a, Math.min(n, to))
    out.set(words.subarray(a, b), k)
    k += b - a
  }
  if (target < start) {
    copy(0, target)
    copy(start, start + length)
    copy(target, start)
    copy(start + length, n)
  } else if (target > start + length) {
    copy(0, start)
    copy(start + length, target)
    copy(start, start + length)
    copy(target, n)
  } else {
    // a target inside the block: the words after the block move in front of it (Python slicing, clamped)
    copy(0, start)
    copy(start + length, length + target)
    copy(start, start + length)
    copy(length + target, n)
  }
}

/**
 * Per-computation buffers of the shift search, reused across calls (allocation dominated the
 * search on short sentences). Views are cut to the current lengths by {@link ShiftScratch.reset}.
 */
export class ShiftScratch {
  /** The candidate being scored; equal to the current words outside the moved region. */
  candidate: Int32Array = new Int32Array(0)
  align: Int32Array = new Int32Array(0)
  refErr: Int32Array = new Int32Array(0)
  hypErr: Int32Array = new Int32Array(0)
  /** Moves (length, target) of the current block start already scored, marked with `epoch`. */
  seen: Int32Array = new Int32Array(0)
  epoch = 0
  /** Per reference position, the next position with the same word (−1: none). */
  refNext: Int32Array = new Int32Array(0)
  private store = new Int32Array(0)
  /** Word → its first reference position, open addressing: keys and positions (−1: empty). */
  private keys = new Int32Array(64)
  private firsts = new Int32Array(64)
  private mask = 63

  reset(n: number, m: number): void {
    const seenSize = (MAX_SHIFT_SIZE + 1) * (n + 1)
    const size = n + m + (m + 1) + (n + 1) + seenSize + m
    if (this.store.length < size) this.store = new Int32Array(size)
    let at = 0
    const view = (length: number): Int32Array => this.store.subarray(at, (at += length))
    this.candidate = view(n)
    this.align = view(m)
    this.refErr = view(m + 1)
    this.hypErr = view(n + 1)
    // marks from another shape would alias, so every computation starts clean
    this.seen = view(seenSize)
    this.seen.fill(0)
    this.epoch = 0
    this.refNext = view(m)
  }

  /** Indexes `ref`'s positions by word, so a block start visits only the positions of its word. */
  indexReference(ref: Int32Array): void {
    const m = ref.length
    let size = 64
    while (size < 2 * m) size *= 2
    if (this.keys.length < size) {
      this.keys = new Int32Array(size)
      this.firsts = new Int32Array(size)
    }
    this.firsts.fill(-1, 0, size)
    this.mask = size - 1
    // from the end, so each word's slot ends at its first position and the chains ascend
    for (let r = m - 1; r >= 0; r--) {
      const slot = this.slotOf(ref[r]!)
      this.refNext[r] = this.firsts[slot]!
      this.keys[slot] = ref[r]!
      this.firsts[slot] = r
    }
  }

  /** The first reference position of `word`, or −1. */
  firstInReference(word: number): number {
    return this.firsts[this.slotOf(word)]!
  }

  private slotOf(word: number): number {
    let slot = (Math.imul(word, 0x9e3779b1) >>> 7) & this.mask
    while (this.firsts[slot] !== -1 && this.keys[slot] !== word) slot = (slot + 1) & this.mask
    return slot
  }
}

/** The result of one round: the gain of the best shift (0 when none) and where it moves. */
export interface ShiftRound {
  readonly gain: number
  readonly checked: number
  readonly start: number
  readonly length: number
  readonly target: number
}

/**
 * The distance of `words` with the block `[start, start + length)` moved before `target`, written
 * into `cand` only where it differs (the region `[min(start, target), …)` that the move touches),
 * scored from the changed rows only, and put back.
 */
function shiftedDistance(words: Int32Array, cand: Int32Array, start: number, length: number, target: number, matrix: EditMatrix): number {
  const n = words.length
  let lo: number
  let hi: number
  if (target < start) {
    lo = target
    hi = start + length
    for (let k = 0; k < length; k++) cand[target + k] = words[start + k]!
    for (let k = target; k < start; k++) cand[k + length] = words[k]!
  } else {
    // a target inside the block moves it past as many following words as fit (Python slicing)
    const end = target > start + length ? target : Math.min(n, target + length)
    lo = start
    hi = end
    for (let k = start + length; k < end; k++) cand[k - length] = words[k]!
    for (let k = 0; k < length; k++) cand[end - length + k] = words[start + k]!
  }
  let a = lo
  while (a < hi && cand[a] === words[a]) a++
  let b = hi
  while (b > a && cand[b - 1] === words[b - 1]) b--
  const distance = matrix.distanceWith(cand, a, b)
  for (let k = lo; k < hi; k++) cand[k] = words[k]!
  return distance
}

/**
 * One round of sacrebleu's `_shift`: every matching block (hypothesis start, reference start,
 * length ≤ 10, starts at most 50 apart, in that loop order) that is wrong on both sides and not
 * already aligned within itself is moved before each aligned position of the reference words from
 * one before its start to its end; each move is scored by the edit distance it saves. Ranking:
 * larger gain, then longer block, then earlier start, then earlier target.
 *
 * @param words the current hypothesis (word ids)
 * @param ref the reference (word ids)
 * @param matrix the edit matrix, filled for `words`
 * @param s buffers, reset for these lengths
 * @param checked candidates evaluated so far in this TER computation
 */
export function bestShift(words: Int32Array, ref: Int32Array, matrix: EditMatrix, s: ShiftScratch, checked: number): ShiftRound {
  const n = words.length
  const m = ref.length
  const preScore = matrix.distance()
  const { align, refErr, hypErr, candidate, seen, refNext } = s
  matrix.traceFlags(align, refErr, hypErr)
  for (let r = 0; r < m; r++) refErr[r + 1]! += refErr[r]!
  for (let h = 0; h < n; h++) hypErr[h + 1]! += hypErr[h]!
  candidate.set(words)
  let found = false
  let bestGain = 0
  let bestLength = 0
  let bestStart = 0
  let bestTarget = 0
  outer: for (let startH = 0; startH < n; startH++) {
    // The same move (block start, length, target) comes up again for every reference position the
    // block matches. It still counts as a checked candidate each time, as in sacrebleu, but it is
    // the same tuple, so it never ranks above its first evaluation and need not be scored again.
    const epoch = ++s.epoch
    // only reference positions of this word can start a matching block (ascending, as sacrebleu's loop)
    for (let startR = s.firstInReference(words[startH]!); startR >= 0; startR = refNext[startR]!) {
      if (Math.abs(startR - startH) > MAX_SHIFT_DIST) continue
      for (let length = 1; length <= MAX_SHIFT_SIZE; length++) {
        if (words[startH + length - 1] !== ref[startR + length - 1]) break
        if (hypErr[startH + length]! - hypErr[startH]! !== 0 && refErr[startR + length]! - refErr[startR]! !== 0) {
          const at = align[startR]!
          if (!(startH <= at && at < startH + length)) {
            let prevIdx = -1
            for (let offset = -1; offset < length; offset++) {
              // every reference position is aligned, so only the position before the start is special
              const idx = startR + offset === -1 ? 0 : align[startR + offset]! + 1
              if (idx === prevIdx) continue
              prevIdx = idx
              checked++
              const slot = length * (n + 1) + idx
              if (seen[slot] === epoch) continue
              seen[slot] = epoch
              const gain = preScore - shiftedDistance(words, candidate, startH, length, idx, matrix)
              if (
                !found ||
                gain > bestGain ||
                (gain === bestGain && (length > bestLength || (length === bestLength && (startH < bestStart || (startH === bestStart && idx < bestTarget)))))
              ) {
                found = true
                bestGain = gain
                bestLength = length
                bestStart = startH
                bestTarget = idx
              }
            }
            if (checked >= MAX_SHIFT_CANDIDATES) break outer
          }
        }
        if (startH + length === n || startR + length === m) break
      }
    }
  }
  return { gain: found ? bestGain : 0, checked, start: bestStart, length: bestLength, target: bestTarget }
}
