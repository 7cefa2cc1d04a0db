/**
 * TER's block shifts, with sacrebleu 2.6.0 `lib_ter`'s heuristics (after Tercom): which moves are
 * tried, in which order, how they are ranked, and the global budget of evaluated candidates.
 */
import { EditMatrix, OP_DEL, OP_INS, OP_MATCH, OP_SUB } from './edit-distance.js'

/** Longest block moved at once. */
export const MAX_SHIFT_SIZE = 10
/** Largest distance between a block's hypothesis and reference start. */
export const MAX_SHIFT_DIST = 50
/** Evaluated candidates per TER computation, over all rounds (sacrebleu's own limit). */
export const MAX_SHIFT_CANDIDATES = 1000

/** What the edit path says about each position. */
interface Alignment {
  /** Reference position → hypothesis position it is aligned to (−1: before the first word). */
  readonly align: Int32Array
  /** Prefix sums of "reference word not matched": `refErr[b] − refErr[a]` counts errors in [a, b). */
  readonly refErr: Int32Array
  /** Prefix sums of "hypothesis word not matched". */
  readonly hypErr: Int32Array
}

/**
 * The alignment of an edit path. sacrebleu flips the path (rewriting the reference into the
 * hypothesis) before reading it; in the matrix's own terms: a match or substitution advances
 * both sides and aligns them, a hypothesis-only step marks that hypothesis word wrong, and a
 * reference-only step marks the reference word wrong and aligns it to the last hypothesis position.
 */
function alignmentOf(trace: Uint8Array, n: number, m: number): Alignment {
  const align = new Int32Array(m)
  const refErr = new Int32Array(m + 1)
  const hypErr = new Int32Array(n + 1)
  let h = -1
  let r = -1
  for (const op of trace) {
    if (op === OP_MATCH || op === OP_SUB) {
      h++
      r++
      align[r] = h
      const err = op === OP_SUB ? 1 : 0
      hypErr[h + 1] = hypErr[h]! + err
      refErr[r + 1] = refErr[r]! + err
    } else if (op === OP_DEL) {
      h++
      hypErr[h + 1] = hypErr[h]! + 1
    } else if (op === OP_INS) {
      r++
      align[r] = h
      refErr[r + 1] = refErr[r]! + 1
    }
  }
  return { align, refErr, hypErr }
}

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

/** The result of one round: the gain of the best shift (0 when none) and the words after it. */
export interface ShiftRound {
  readonly gain: number
  readonly words: Int32Array
  readonly checked: number
}

/** Whether candidate a ranks above b: larger gain, then longer block, then earlier start, then earlier target. */
function better(gain: number, length: number, start: number, target: number, best: { gain: number; length: number; start: number; target: number }): boolean {
  if (gain !== best.gain) return gain > best.gain
  if (length !== best.length) return length > best.length
  if (start !== best.start) return start < best.start
  return target < best.target
}

/**
 * One round of sacrebleu's `_shift`: every matching block (hypothesis start, reference start,
 * length ≤ 10, starts at most 50 apart, in that loop order) that is wrong on both sides and not
 * already aligned within itself is moved before each aligned position of the reference words from
 * one before its start to its end; each move is scored by the edit distance it saves.
 *
 * @param words the current hypothesis (word ids)
 * @param ref the reference (word ids)
 * @param base the edit matrix of `words`, filled
 * @param scratch a matrix of the same shape for scoring candidates
 * @param checked candidates evaluated so far in this TER computation
 */
export function bestShift(words: Int32Array, ref: Int32Array, base: EditMatrix, scratch: EditMatrix, checked: number): ShiftRound {
  const n = words.length
  const m = ref.length
  const preScore = base.distance()
  const { align, refErr, hypErr } = alignmentOf(base.trace(), n, m)
  const candidate = new Int32Array(n)
  let best: { gain: number; length: number; start: number; target: number; words: Int32Array } | undefined
  let scratchRows = 0 // rows of `scratch` known to hold `words`' prefix
  // The same move (block start, length, target) comes up again for every reference position the
  // block matches; its distance is the same, so it is computed once per round (sacrebleu's row cache
  // gives the same saving). It still counts as a checked candidate each time, as in sacrebleu.
  const distances = new Map<number, number>()
  outer: for (let startH = 0; startH < n; startH++) {
    for (let startR = 0; startR < m; startR++) {
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
              const key = (startH * (MAX_SHIFT_SIZE + 1) + length) * (n + 1) + idx
              let distance = distances.get(key)
              const cached = distance !== undefined
              if (distance === undefined) {
                performShift(words, startH, length, idx, candidate)
                // rows up to the first changed word are `words`' own; nothing before min(start, target) moves
                let same = Math.min(startH, idx)
                while (same < n && candidate[same] === words[same]) same++
                if (same > scratchRows) {
                  scratch.copyRows(base, same)
                  scratchRows = same
                }
                distance = scratch.fill(candidate, same)
                scratchRows = same
                distances.set(key, distance)
              }
              const gain = preScore - distance
              checked++
              if (best === undefined || better(gain, length, startH, idx, best)) {
                // (a repeated move never ranks above its first evaluation; rebuilt here only for safety)
                if (cached) performShift(words, startH, length, idx, candidate)
                best = { gain, length, start: startH, target: idx, words: candidate.slice() }
              }
            }
            if (checked >= MAX_SHIFT_CANDIDATES) break outer
          }
        }
        if (startH + length === n || startR + length === m) break
      }
    }
  }
  return best === undefined ? { gain: 0, words, checked } : { gain: best.gain, words: best.words, checked }
}
