/**
 * The beam-limited word Levenshtein distance TER uses, with sacrebleu 2.6.0 `lib_ter`'s semantics:
 * unit costs, a band of cells around the length-scaled diagonal (width 25, wider for very unequal
 * lengths, the whole last row), and its tie-breaking, which decides the alignment and so which
 * shifts are tried.
 *
 * Rows are indexed by hypothesis position i (0…n), columns by reference position j (0…m). Each
 * cell keeps a cost and the operation that reached it. Row 0 is `j` insertions. In row i, only the
 * band `[max(0, ⌊i·m/n⌋ − w), min(m + 1, ⌊i·m/n⌋ + w))` is computed (the last row entirely); cells
 * outside it stay "infinite" and are never chosen. A cell takes the first strictly cheaper of
 * (diagonal: match 0 / substitution 1, up: deletion of a hypothesis word, left: insertion of a
 * reference word), in that order, so ties prefer match/substitution, then deletion, then insertion.
 */

/** Operation codes in the cost matrix (one byte per cell). */
export const OP_MATCH = 0
export const OP_SUB = 1
/** Consumes a reference word (an insertion when rewriting the hypothesis into the reference). */
export const OP_INS = 2
/** Consumes a hypothesis word. */
export const OP_DEL = 3
/** A cell outside the band. */
export const OP_UNDEF = 4

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
 * A cost/operation matrix for one reference and hypotheses of one length (TER's shifts keep the
 * length), filled row by row. Row `i` depends only on the first `i` hypothesis words, so a caller
 * that changes only a suffix can refill from the first changed row ({@link EditMatrix.fill}).
 */
export class EditMatrix {
  readonly costs: Int32Array
  readonly ops: Uint8Array
  private readonly cols: number
  private readonly ratio: number
  private readonly width: number

  constructor(
    private readonly ref: Int32Array,
    private readonly n: number,
  ) {
    const m = ref.length
    this.cols = m + 1
    this.costs = new Int32Array((n + 1) * this.cols)
    this.ops = new Uint8Array((n + 1) * this.cols)
    this.ratio = n > 0 ? m / n : 1
    this.width = beamWidth(n, m)
    for (let j = 0; j <= m; j++) {
      this.costs[j] = j
      this.ops[j] = OP_INS
    }
  }

  /**
   * Computes rows `from + 1 … n` for `hyp` (rows ≤ `from` must already hold `hyp`'s prefix, or be
   * copied in with {@link EditMatrix.copyRows}) and returns the distance.
   */
  fill(hyp: Int32Array, from: number): number {
    const { costs, ops, cols, ref, n, ratio, width } = this
    const m = ref.length
    for (let i = from + 1; i <= n; i++) {
      const row = i * cols
      const prev = row - cols
      costs.fill(INF, row, row + cols)
      ops.fill(OP_UNDEF, row, row + cols)
      const diag = Math.floor(i * ratio)
      const minJ = Math.max(0, diag - width)
      const maxJ = i === n ? m + 1 : Math.min(m + 1, diag + width)
      const word = hyp[i - 1]
      for (let j = minJ; j < maxJ; j++) {
        if (j === 0) {
          costs[row] = costs[prev]! + 1
          ops[row] = OP_DEL
          continue
        }
        let best = INF
        let op = OP_UNDEF
        const match = word === ref[j - 1]
        const viaDiag = costs[prev + j - 1]! + (match ? 0 : 1)
        if (best > viaDiag) {
          best = viaDiag
          op = match ? OP_MATCH : OP_SUB
        }
        const viaUp = costs[prev + j]! + 1
        if (best > viaUp) {
          best = viaUp
          op = OP_DEL
        }
        const viaLeft = costs[row + j - 1]! + 1
        if (best > viaLeft) {
          best = viaLeft
          op = OP_INS
        }
        costs[row + j] = best
        ops[row + j] = op
      }
    }
    return costs[n * cols + m]!
  }

  /** Copies rows `1 … upTo` from another matrix of the same shape. */
  copyRows(other: EditMatrix, upTo: number): void {
    const end = (upTo + 1) * this.cols
    this.costs.set(other.costs.subarray(this.cols, end), this.cols)
    this.ops.set(other.ops.subarray(this.cols, end), this.cols)
  }

  /** The distance in the last row (valid after a fill). */
  distance(): number {
    return this.costs[this.n * this.cols + this.ref.length]!
  }

  /**
   * The operations from (0, 0) to (n, m), read back from the end cell (sacrebleu's trace).
   * @throws Error if the path leaves the band, which sacrebleu treats as an internal error too
   */
  trace(): Uint8Array {
    const { ops, cols } = this
    const path: number[] = []
    let i = this.n
    let j = this.ref.length
    while (i > 0 || j > 0) {
      const op = ops[i * cols + j]!
      path.push(op)
      if (op === OP_MATCH || op === OP_SUB) {
        i--
        j--
      } else if (op === OP_INS) {
        j--
      } else if (op === OP_DEL) {
        i--
      } else {
        throw new Error(`TER edit distance: no path through cell (${i}, ${j})`)
      }
    }
    return Uint8Array.from(path.reverse())
  }
}
