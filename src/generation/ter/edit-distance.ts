/**
 * The beam-limited word Levenshtein distance TER uses, with sacrebleu 2.6.0 `lib_ter`'s semantics:
 * unit costs, a band of cells around the length-scaled diagonal (width 25, wider for very unequal
 * lengths, the whole last row), and its tie-breaking, which decides the alignment and so which
 * shifts are tried.
 *
 * Rows are indexed by hypothesis position i (0…n), columns by reference position j (0…m). Each
 * cell has a cost and the operation that reached it. Row 0 is `j` insertions. In row i, only the
 * band `[max(0, ⌊i·m/n⌋ − w), min(m + 1, ⌊i·m/n⌋ + w))` is computed (the last row entirely); cells
 * outside it stay "infinite" and are never chosen. A cell takes the first strictly cheaper of
 * (diagonal: match 0 / substitution 1, up: deletion of a hypothesis word, left: insertion of a
 * reference word), in that order, so ties prefer match/substitution, then deletion, then insertion.
 */

/** Operation codes of the edit path (recomputed from the costs, see {@link EditMatrix}). */
export const OP_MATCH = 0
export const OP_SUB = 1
/** Consumes a reference word (an insertion when rewriting the hypothesis into the reference). */
export const OP_INS = 2
/** Consumes a hypothesis word. */
export const OP_DEL = 3

const BEAM_WIDTH = 25
// Larger than any real distance; `INF + 1 > INF` keeps out-of-band cells from ever being chosen,
// exactly as sacrebleu's integer infinity does.
const INF = 0x3fffffff

/** The band half-width for a hypothesis of `n` and a reference of `m` words (sacrebleu's rule). */
export function beamWidth(n: number, m: number): number {
  const ratio = n > 0 ? m / n : 1
  return BEAM_WIDTH < ratio / 2 ? Math.ceil(ratio / 2 + BEAM_WIDTH) : BEAM_WIDTH
}

/**
 * The edit matrices of one reference against hypotheses of one length (TER's shifts keep the
 * length). Besides sacrebleu's forward costs it keeps the backward costs (cell → end) of the
 * current hypothesis: a shift candidate that differs from it only in words `[a, b)` then costs
 * `min_j fwd'[b][j] + back[b][j]` over row b's band, with only rows a+1…b recomputed. That is the
 * same minimum over the same band paths, so the same number. Backward rows are computed when a
 * candidate first needs them (many rounds score few candidates, or none).
 *
 * No operation matrix is stored: a cell's operation is the first of (diagonal, up, left) whose cost
 * equals the cell's, which the trace recomputes from the costs.
 *
 * Buffers are reused across {@link EditMatrix.reset} calls: on short sentences, allocating typed
 * arrays cost more than filling them.
 */
export class EditMatrix {
  private costs = new Int32Array(0)
  private back = new Int32Array(0)
  /** Two rolling rows for scoring candidates. */
  private rows = new Int32Array(0)
  /** Band `[lo[i], hi[i])` of each row. */
  private lo = new Int32Array(0)
  private hi = new Int32Array(0)
  private ref: Int32Array = new Int32Array(0)
  private n = 0
  private cols = 1
  /** The hypothesis the matrices are filled for, and the first row whose backward costs are valid. */
  private hyp: Int32Array = new Int32Array(0)
  private backFrom = 0

  /** Shapes the matrix for `ref` and hypotheses of `n` words; rows 1…n are filled by {@link EditMatrix.fill}. */
  reset(ref: Int32Array, n: number): void {
    const m = ref.length
    const cols = m + 1
    const cells = (n + 1) * cols
    if (this.costs.length < cells) {
      this.costs = new Int32Array(cells)
      this.back = new Int32Array(cells)
    }
    if (this.rows.length < 2 * cols) this.rows = new Int32Array(2 * cols)
    if (this.lo.length < n + 1) {
      this.lo = new Int32Array(n + 1)
      this.hi = new Int32Array(n + 1)
    }
    this.ref = ref
    this.n = n
    this.cols = cols
    this.backFrom = n
    const ratio = n > 0 ? m / n : 1
    const width = beamWidth(n, m)
    this.lo[0] = 0
    this.hi[0] = cols
    for (let i = 1; i <= n; i++) {
      const diag = Math.floor(i * ratio)
      this.lo[i] = Math.max(0, diag - width)
      this.hi[i] = i === n ? cols : Math.min(cols, diag + width)
    }
    for (let j = 0; j <= m; j++) {
      this.costs[j] = j
      // the last row is whole: only insertions are left
      this.back[n * cols + j] = m - j
    }
  }

  /**
   * Row i of the forward costs into `dst` at `cur`, from row i − 1 in `src` at `prev`, for a
   * hypothesis whose word i − 1 is `word`. Cells outside the band are INF, so that the plain
   * minimum of the three ways in is sacrebleu's cost.
   */
  private forwardRow(src: Int32Array, prev: number, dst: Int32Array, cur: number, i: number, word: number): void {
    const { cols, ref } = this
    const minJ = this.lo[i]!
    const maxJ = this.hi[i]!
    // plain loops: `fill` on a few cells costs more than the cells
    for (let j = 0; j < minJ; j++) dst[cur + j] = INF
    for (let j = maxJ; j < cols; j++) dst[cur + j] = INF
    let j = minJ
    if (j === 0) {
      dst[cur] = src[prev]! + 1
      j = 1
    }
    let left = dst[cur + j - 1]!
    for (; j < maxJ; j++) {
      let best = src[prev + j - 1]! + (word === ref[j - 1] ? 0 : 1)
      const viaUp = src[prev + j]! + 1
      if (viaUp < best) best = viaUp
      if (left + 1 < best) best = left + 1
      dst[cur + j] = best
      left = best
    }
  }

  /**
   * Makes `hyp` the current hypothesis: computes its forward rows `from + 1 … n` (rows ≤ `from` must
   * already hold `hyp`'s prefix) and drops backward rows before `keepBackFrom` (rows at and after
   * it must hold `hyp`'s suffix; row i depends only on words i…n − 1). Returns the distance.
   */
  fill(hyp: Int32Array, from: number, keepBackFrom: number): number {
    const { costs, cols, n } = this
    this.hyp = hyp
    if (keepBackFrom > this.backFrom) this.backFrom = keepBackFrom
    for (let i = from + 1; i <= n; i++) this.forwardRow(costs, (i - 1) * cols, costs, i * cols, i, hyp[i - 1]!)
    return costs[n * cols + this.ref.length]!
  }

  /** Makes backward rows `upTo … n` valid for the current hypothesis. */
  private backRows(upTo: number): void {
    const { back, cols, ref, lo, hi, hyp } = this
    const m = ref.length
    for (let i = this.backFrom - 1; i >= upTo; i--) {
      const row = i * cols
      const next = row + cols
      const minJ = lo[i]!
      const maxJ = hi[i]!
      for (let j = 0; j < minJ; j++) back[row + j] = INF
      for (let j = maxJ; j < cols; j++) back[row + j] = INF
      const word = hyp[i]
      for (let j = maxJ - 1; j >= minJ; j--) {
        let best = back[next + j]! + 1
        if (j < m) {
          const viaDiag = back[next + j + 1]! + (word === ref[j] ? 0 : 1)
          if (viaDiag < best) best = viaDiag
          const viaRight = back[row + j + 1]! + 1
          if (viaRight < best) best = viaRight
        }
        back[row + j] = best
      }
    }
    if (upTo < this.backFrom) this.backFrom = upTo
  }

  /** The distance of `cand`, which equals the current hypothesis outside positions `[from, to)`. */
  distanceWith(cand: Int32Array, from: number, to: number): number {
    const { costs, rows, cols, lo, hi } = this
    if (to < this.backFrom) this.backRows(to)
    let cur = 0
    for (let j = 0, at = from * cols; j < cols; j++) rows[j] = costs[at + j]!
    for (let i = from + 1; i <= to; i++) {
      const prev = cur
      cur = cols - cur
      this.forwardRow(rows, prev, rows, cur, i, cand[i - 1]!)
    }
    const back = this.back
    let distance = INF
    const row = to * cols
    for (let j = lo[to]!, end = hi[to]!; j < end; j++) {
      const total = rows[cur + j]! + back[row + j]!
      if (total < distance) distance = total
    }
    return distance
  }

  /** The distance in the last row (valid after a fill). */
  distance(): number {
    return this.costs[this.n * this.cols + this.ref.length]!
  }

  /**
   * Reads the edit path of the current hypothesis back from the end cell (sacrebleu's trace) into
   * per-position flags: `align[r]` is the hypothesis position reference word r is aligned to (−1:
   * before the first), `refErr[r + 1]` / `hypErr[h + 1]` are 1 where that word is not matched
   * (`refErr[0]`, `hypErr[0]` are 0), ready to be turned into prefix sums.
   * @throws Error if the path leaves the band, which sacrebleu treats as an internal error too
   */
  traceFlags(align: Int32Array, refErr: Int32Array, hypErr: Int32Array): void {
    const { costs, cols, ref, hyp } = this
    let i = this.n
    let j = ref.length
    refErr[0] = 0
    hypErr[0] = 0
    while (i > 0 || j > 0) {
      const cell = i * cols + j
      const cost = costs[cell]!
      if (cost >= INF) throw new Error(`TER edit distance: no path through cell (${i}, ${j})`)
      // the operation sacrebleu stored: the first way in, in its order, that gives the cell's cost
      let op: number
      if (i === 0) op = OP_INS
      else if (j === 0) op = OP_DEL
      else {
        const match = hyp[i - 1] === ref[j - 1]
        if (costs[cell - cols - 1]! + (match ? 0 : 1) === cost) op = match ? OP_MATCH : OP_SUB
        else if (costs[cell - cols]! + 1 === cost) op = OP_DEL
        else op = OP_INS
      }
      if (op === OP_MATCH || op === OP_SUB) {
        i--
        j--
        align[j] = i
        const err = op === OP_SUB ? 1 : 0
        refErr[j + 1] = err
        hypErr[i + 1] = err
      } else if (op === OP_INS) {
        j--
        align[j] = i - 1
        refErr[j + 1] = 1
      } else {
        i--
        hypErr[i + 1] = 1
      }
    }
  }
}
