/**
 * Longest common subsequence kernels on integer token ids, for ROUGE-L and ROUGE-Lsum.
 *
 * Two families, chosen by size (see {@link lcsLengthOf}, {@link lcsPathOf}):
 * - small pairs: the plain DP with two rows for the length, and for the path bit-parallel rows that
 *   are all kept, in a shared scratch — fastest on sentence-sized input, where allocating anything
 *   costs more than the work. The path comes from the WebAssembly kernel (lcs-kernel.wat, the same
 *   rows and walk, no JIT warm-up) where the runtime has it and the pair fits, else from
 *   {@link lcsPathRows}; the tests hold both to the plain DP table walk;
 * - long pairs: bit-parallel LCS (Allison–Dix, in Hyyrö's form) over 32-bit words, so a DP row is
 *   `⌈|can|/32⌉` words and the time is |ref|·|can|/32 word steps; rows are only touched where the
 *   row's token occurs (plus carry runs), which skips most of the work for rare tokens.
 *
 * The path is rouge-score's `_backtrack_norec` walk over `_lcs_table`, reproduced exactly: on a
 * mismatch the walk goes left only if `t[i][j-1] > t[i-1][j]`, else up. In the long form the walk
 * needs the rows in reverse order, so the forward pass keeps every B-th row (B = ⌈√|ref|⌉) as a
 * checkpoint and the walk recomputes one block of B rows at a time: 2 passes of time and
 * O(√|ref| · |can|/32) words of memory instead of |ref|·|can| cells.
 */

import { LcsKernel } from './lcs-kernel.js'

// ---------------------------------------------------------------------------------------------
// small pairs: the plain DP

// Grow-only scratch table shared by the small kernels (cells are written before they are read).
let sharedTable = new Int32Array(4096)

/** Pairs with at most this many DP cells use the plain DP; it is also the largest table kept. */
export const SMALL_LCS_CELLS = 1 << 20

function tableOfSize(cells: number): Int32Array {
  if (sharedTable.length >= cells) return sharedTable
  if (cells > SMALL_LCS_CELLS) return new Int32Array(cells)
  sharedTable = new Int32Array(Math.max(cells, 2 * sharedTable.length))
  return sharedTable
}

/** LCS length with two rolling rows (O(|a|·|b|) time, O(|b|) memory). */
export function lcsLengthTable(a: Int32Array, b: Int32Array): number {
  const cols = b.length + 1
  const rows = tableOfSize(2 * cols)
  rows.fill(0, 0, 2 * cols)
  let prev = 0
  let cur = cols
  for (let i = 0; i < a.length; i++) {
    const ai = a[i] as number
    for (let j = 1; j < cols; j++) {
      if (ai === b[j - 1]) {
        rows[cur + j] = (rows[prev + j - 1] as number) + 1
      } else {
        const up = rows[prev + j] as number
        const left = rows[cur + j - 1] as number
        rows[cur + j] = up > left ? up : left
      }
    }
    const t = prev
    prev = cur
    cur = t
  }
  return rows[prev + cols - 1] as number
}

function reverseTail(out: number[], start: number): void {
  for (let a = start, b = out.length - 1; a < b; a++, b--) {
    const x = out[a] as number
    out[a] = out[b] as number
    out[b] = x
  }
}

// ---------------------------------------------------------------------------------------------
// long pairs: bit-parallel rows
//
// Row i (after ref[0..i)) is a bit vector V over the columns of `can`: bit j is 0 exactly where
// t[i][j+1] = t[i][j] + 1, so t[i][j] = number of 0 bits below j. V starts all ones; for the token
// x of row i, with U = V & match(x): V ← (V + U) | (V − U), where V − U = V & ~U because U ⊆ V, so
// only the addition carries between words. Bits at and above |can| stay 1.

/** Positions of each token of `can` (CSR over token ids), ascending. */
interface Postings {
  readonly start: Int32Array
  readonly positions: Int32Array
}

function postingsOf(ref: Int32Array, can: Int32Array): Postings {
  let maxId = 0
  for (let k = 0; k < can.length; k++) if ((can[k] as number) > maxId) maxId = can[k] as number
  for (let k = 0; k < ref.length; k++) if ((ref[k] as number) > maxId) maxId = ref[k] as number
  const start = new Int32Array(maxId + 2)
  for (let k = 0; k < can.length; k++) {
    const slot = (can[k] as number) + 1
    start[slot] = (start[slot] as number) + 1
  }
  for (let id = 0; id <= maxId; id++) start[id + 1] = (start[id + 1] as number) + (start[id] as number)
  const fill = start.slice(0, maxId + 1)
  const positions = new Int32Array(can.length)
  for (let k = 0; k < can.length; k++) {
    const id = can[k] as number
    positions[fill[id] as number] = k
    fill[id] = (fill[id] as number) + 1
  }
  return { start, positions }
}

const TWO_32 = 4294967296

/** One DP row step in place on `v[base .. base + words)` for a token whose `can` positions are `positions[from .. to)`. */
function stepRow(v: Int32Array, base: number, words: number, positions: Int32Array, from: number, to: number): void {
  let k = from
  let carry = 0
  while (k < to) {
    const w = (positions[k] as number) >>> 5
    let m = 0
    while (k < to && (positions[k] as number) >>> 5 === w) {
      m |= 1 << ((positions[k] as number) & 31)
      k++
    }
    const x = (v[base + w] as number) >>> 0
    const u = (x & m) >>> 0
    const sum = x + u + carry
    carry = sum >= TWO_32 ? 1 : 0
    v[base + w] = (sum >>> 0) | (x & ~u)
    // a carry runs on through words without matches until it meets a 0 bit
    let next = w + 1
    const nextMatchWord = k < to ? (positions[k] as number) >>> 5 : words
    while (carry === 1 && next < nextMatchWord) {
      const y = (v[base + next] as number) >>> 0
      const s = y + 1
      carry = s >= TWO_32 ? 1 : 0
      v[base + next] = (s >>> 0) | y
      next++
    }
  }
}

function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555)
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333)
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

/** t[row][j] of the row stored at `v[base ..]`: the 0 bits below column j. */
function prefixValue(v: Int32Array, base: number, j: number): number {
  let ones = 0
  const full = j >>> 5
  for (let w = 0; w < full; w++) ones += popcount(v[base + w] as number)
  const rest = j & 31
  if (rest !== 0) ones += popcount((v[base + full] as number) & ((1 << rest) - 1))
  return j - ones
}

/** 1 when t[row][c + 1] = t[row][c] + 1 (bit c of the row is 0). */
function stepAt(v: Int32Array, base: number, c: number): number {
  return ((v[base + (c >>> 5)] as number) >>> (c & 31)) & 1 ? 0 : 1
}

/** LCS length by bit-parallel rows: O(|ref|·|can|/32) time, O(|can|/32 + distinct ids) memory. */
export function lcsLengthBits(ref: Int32Array, can: Int32Array): number {
  if (ref.length === 0 || can.length === 0) return 0
  const words = (can.length + 31) >>> 5
  const { start, positions } = postingsOf(ref, can)
  const v = new Int32Array(words).fill(-1)
  for (let i = 0; i < ref.length; i++) {
    const id = ref[i] as number
    const from = start[id] as number
    const to = start[id + 1] as number
    if (from < to) stepRow(v, 0, words, positions, from, to)
  }
  let ones = 0
  for (let w = 0; w < words; w++) ones += popcount(v[w] as number)
  // the padding bits above |can| are all 1
  return 32 * words - ones
}

/**
 * rouge-score's path (its `_lcs_table` + `_backtrack_norec` walk), with bit-parallel rows and √-checkpoints: ascending
 * indices into `ref`, appended to `out`.
 */
export function lcsPathBits(ref: Int32Array, can: Int32Array, out: number[]): void {
  const rows = ref.length
  if (rows === 0 || can.length === 0) return
  const words = (can.length + 31) >>> 5
  const { start, positions } = postingsOf(ref, can)
  const block = Math.max(1, Math.ceil(Math.sqrt(rows)))
  const checkpointCount = Math.floor((rows - 1) / block) + 1
  // checkpoint k holds row k·block; row 0 is all ones
  const checkpoints = new Int32Array(checkpointCount * words)
  const v = new Int32Array(words).fill(-1)
  checkpoints.set(v, 0)
  for (let i = 1; i < rows; i++) {
    const id = ref[i - 1] as number
    if ((start[id] as number) < (start[id + 1] as number)) stepRow(v, 0, words, positions, start[id] as number, start[id + 1] as number)
    if (i % block === 0) checkpoints.set(v, (i / block) * words)
  }

  // rows base .. base + block of the current block, recomputed from its checkpoint
  const buffer = new Int32Array((block + 1) * words)
  let base = -1
  const load = (k: number): void => {
    base = k * block
    buffer.set(checkpoints.subarray(k * words, (k + 1) * words), 0)
    const top = Math.min(base + block, rows)
    for (let r = base + 1; r <= top; r++) {
      const offset = (r - base) * words
      buffer.copyWithin(offset, offset - words, offset)
      const id = ref[r - 1] as number
      if ((start[id] as number) < (start[id + 1] as number)) stepRow(buffer, offset, words, positions, start[id] as number, start[id + 1] as number)
    }
  }
  const rowAt = (r: number): number => (r - base) * words

  const first = out.length
  let i = rows
  let j = can.length
  load(Math.floor((rows - 1) / block))
  // cur = t[i][j], up = t[i-1][j]
  let cur = prefixValue(buffer, rowAt(i), j)
  let up = prefixValue(buffer, rowAt(i - 1), j)
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.push(i - 1)
      i--
      j--
      cur--
      if (i > 0) {
        if (i - 1 < base) load(Math.floor((i - 1) / block))
        up = prefixValue(buffer, rowAt(i - 1), j)
      }
      continue
    }
    const left = cur - stepAt(buffer, rowAt(i), j - 1)
    if (left > up) {
      j--
      cur = left
      up -= stepAt(buffer, rowAt(i - 1), j)
    } else {
      i--
      cur = up
      if (i > 0) {
        if (i - 1 < base) load(Math.floor((i - 1) / block))
        up = prefixValue(buffer, rowAt(i - 1), j)
      }
    }
  }
  reverseTail(out, first)
}

/** Candidates longer than this build their match masks by scanning (see {@link lcsPathRows}). */
const MASKED_COLUMNS = 4096

// Grow-only scratch of lcsPathRows' match masks: id → 1 + its slot (0 when the id is not in `can`; every entry set
// is put back to 0), and per slot the id's words of match bits.
let slotOfId = new Int32Array(1024)
let masks = new Int32Array(1024)

/**
 * rouge-score's path (its `_lcs_table` + `_backtrack_norec` walk), from bit-parallel rows that are all kept (|ref| + 1 rows
 * of ⌈|can|/32⌉ words, in the shared scratch). A row is built from per-word match masks with no
 * chain of dependent cells, which on sentence-sized pairs is several times faster than the table.
 */
export function lcsPathRows(ref: Int32Array, can: Int32Array, out: number[]): void {
  const rows = ref.length
  const cols = can.length
  if (rows === 0 || cols === 0) return
  const words = (cols + 31) >>> 5
  const v = tableOfSize((rows + 1) * words)
  for (let w = 0; w < words; w++) v[w] = -1
  if (cols <= MASKED_COLUMNS) maskedRows(ref, can, v, words)
  else scannedRows(ref, can, v, words)
  // rouge-score's walk, with t[i][j] read off the rows: cur = t[i][j], up = t[i-1][j]
  const first = out.length
  let i = rows
  let j = cols
  let cur = prefixValue(v, i * words, j)
  let up = prefixValue(v, (i - 1) * words, j)
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.push(i - 1)
      i--
      j--
      cur--
      if (i > 0) up = prefixValue(v, (i - 1) * words, j)
      continue
    }
    const left = cur - stepAt(v, i * words, j - 1)
    if (left > up) {
      j--
      cur = left
      up -= stepAt(v, (i - 1) * words, j)
    } else {
      i--
      cur = up
      if (i > 0) up = prefixValue(v, (i - 1) * words, j)
    }
  }
  reverseTail(out, first)
}

/**
 * The rows of {@link lcsPathRows} from each token's match mask, built once per distinct token of `can`: |can| + |ref|·words
 * steps instead of the |ref|·|can| comparisons of {@link scannedRows}.
 */
function maskedRows(ref: Int32Array, can: Int32Array, v: Int32Array, words: number): void {
  const cols = can.length
  let maxId = 0
  for (let j = 0; j < cols; j++) if ((can[j] as number) > maxId) maxId = can[j] as number
  if (slotOfId.length <= maxId) slotOfId = new Int32Array(Math.max(maxId + 1, 2 * slotOfId.length))
  if (masks.length < cols * words) masks = new Int32Array(Math.max(cols * words, 2 * masks.length))
  let slots = 0
  for (let j = 0; j < cols; j++) {
    const id = can[j] as number
    let slot = slotOfId[id] as number
    if (slot === 0) {
      slot = ++slots
      slotOfId[id] = slot
      // a loop: most candidates fit in a word or two, and a fill() call per token cost more
      for (let w = (slot - 1) * words; w < slot * words; w++) masks[w] = 0
    }
    const at = (slot - 1) * words + (j >>> 5)
    masks[at] = (masks[at] as number) | (1 << (j & 31))
  }
  for (let i = 1; i <= ref.length; i++) {
    const x = ref[i - 1] as number
    const slot = x <= maxId ? (slotOfId[x] as number) : 0
    const base = i * words
    if (slot === 0) {
      // no match in the row: it equals the row above
      for (let w = 0; w < words; w++) v[base + w] = v[base - words + w] as number
      continue
    }
    stepMasked(v, base, words, masks, (slot - 1) * words)
  }
  for (let j = 0; j < cols; j++) slotOfId[can[j] as number] = 0
}

/** The row step of lcsLengthBits, (V + U) | (V & ~U), from the row above into the row at `base`, for every word. */
function stepMasked(v: Int32Array, base: number, words: number, m: Int32Array, at: number): void {
  const prev = base - words
  let carry = 0
  for (let w = 0; w < words; w++) {
    const y = (v[prev + w] as number) >>> 0
    const u = (y & (m[at + w] as number)) >>> 0
    const sum = y + u + carry
    carry = sum >= TWO_32 ? 1 : 0
    v[base + w] = (sum >>> 0) | (y & ~u)
  }
}

/** The rows of {@link lcsPathRows} for a long `can` (few rows): each row's mask by comparing every column. */
function scannedRows(ref: Int32Array, can: Int32Array, v: Int32Array, words: number): void {
  const cols = can.length
  const m = new Int32Array(words)
  for (let i = 1; i <= ref.length; i++) {
    const x = ref[i - 1] as number
    m.fill(0)
    for (let j = 0; j < cols; j++) if (can[j] === x) m[j >>> 5] = (m[j >>> 5] as number) | (1 << (j & 31))
    stepMasked(v, i * words, words, m, 0)
  }
}

// ---------------------------------------------------------------------------------------------
// dispatch

/** LCS length of two id sequences, by the kernel that suits their size. */
export function lcsLengthOf(a: Int32Array, b: Int32Array): number {
  if (a.length === 0 || b.length === 0) return 0
  return a.length * b.length <= SMALL_LCS_CELLS ? lcsLengthTable(a, b) : lcsLengthBits(a, b)
}

/** The WebAssembly kernel for sentence-sized pairs, created on first use; null where the runtime has no WebAssembly. */
let kernel: LcsKernel | null | undefined

/** rouge-score's LCS of (ref, can) as ascending indices into `ref`, appended to `out`. */
export function lcsPathOf(ref: Int32Array, can: Int32Array, out: number[]): void {
  if (ref.length === 0 || can.length === 0) return
  if (kernel === undefined) kernel = LcsKernel.create()
  if (kernel !== null && LcsKernel.fits(ref.length, can.length)) {
    const n = kernel.path(ref, can)
    const path = kernel.out
    for (let k = 0; k < n; k++) out.push(path[k] as number)
  } else if (ref.length * can.length <= SMALL_LCS_CELLS) lcsPathRows(ref, can, out)
  else lcsPathBits(ref, can, out)
}
