/**
 * The WebAssembly fast path of the run reader (`run-kernel.wat`, assembled into `run-kernel-wasm.ts`). One
 * kernel owns one memory laid out as below; {@link RunBuilder} copies a window of whole lines in (or has the file
 * read into the kernel's buffers) and lets the kernel read rows out of it, either into columns in the kernel's
 * memory that the builder uses as its own ({@link RunKernel.scores} and the rest: batch reading, whose columns
 * stay small) or into those columns' first rows, which the builder copies out. Every line the kernel declines is
 * read by the builder's exact JS path, so this module only has to be fast, never complete. For a run whose columns are the
 * kernel's, the kernel also ranks each topic ({@link order}, {@link index}: `Ranker` in evaluate.ts).
 */
import { EXACT_POW10 } from './bytes.js'
import { RUN_KERNEL_WASM } from './run-kernel-wasm.js'
import { compileKernel, instantiateKernel, type WasmGlobal, type WasmMemory } from '../../wasm-api.js'

/** Input bytes per kernel window: a 1 MiB read chunk plus the line it finishes fits in one. */
export const KERNEL_WINDOW = 2 << 20

// The kernel reads up to 64 bytes past a line start and writes docnos 16 bytes at a time.
const SLACK = 64
const QID_AT = 256
/** Longer qids are never matched by the kernel, so every such line takes the JS path (correct, only slower). */
const QID_CAP = 4096
const INPUT_AT = QID_AT + QID_CAP + SLACK
/** Size of each of the two buffers a file is read into ({@link RunKernel.readBuffers}). */
const READ_BUFFER = 1 << 20
const READ_AT = INPUT_AT + KERNEL_WINDOW + SLACK
/**
 * Rows and docno bytes the columns hold. A builder that reads in batches keeps a batch plus one block here
 * (`BATCH_DOCS` in evaluate-file.ts is 65,536 rows); one kernel call writes at most a window's rows
 * (a run line that the kernel accepts has at least 12 bytes, `a b c d 1 f\n`) and a window's bytes.
 * Pages never written stay virtual, so the size costs no memory.
 */
export const COLUMN_ROWS = 1 << 20
const COLUMN_BYTES = 16 << 20
/** Slots of the largest ranking table (keys and ranks, 4 bytes each): at least 2 per row of a topic. */
export const TABLE_SLOTS = 1 << 21

interface KernelExports {
  readonly memory: WasmMemory
  setup(scores: number, starts: number, hashes: number, arena: number, qid: number): void
  parse(from: number, end: number, rowBase: number, apStart: number, apBias: number, qidLen: number): number
  setupRank(idx: number, keys: number, ranks: number): void
  order(from: number, n: number): number
  index(n: number, mask: number): number
  readonly outP: WasmGlobal
  readonly outN: WasmGlobal
  readonly outAp: WasmGlobal
  readonly runIdStart: WasmGlobal
  readonly runIdEnd: WasmGlobal
}

let compiled: object | null | undefined

/** The compiled module, or null where this runtime cannot compile it (no WebAssembly SIMD): then JS reads all. */
function kernelModule(): object | null {
  if (compiled === undefined) compiled = compileKernel(RUN_KERNEL_WASM)
  return compiled
}

export class RunKernel {
  /** The columns {@link parse} writes rows to: score, docno start (in {@link arena}), docno hash. */
  readonly scores: Float64Array
  /** {@link COLUMN_ROWS} + 1 entries, for the end sentinel of the last row's docno. */
  readonly starts: Uint32Array
  readonly hashes: Int32Array
  /** Docno bytes of the rows, back to back. */
  readonly arena: Uint8Array
  /** The ranking's scratch ({@link order}, {@link index}): rank order, then the table of ranked docnos. */
  readonly idx: Uint32Array
  readonly keys: Int32Array
  readonly ranks: Int32Array
  private readonly bytes: Uint8Array
  private readonly exports: KernelExports
  private qidVersion = -1
  private qidLen = 0

  private constructor(exports: KernelExports) {
    this.exports = exports
    const scoresAt = align8(READ_AT + 2 * (READ_BUFFER + SLACK))
    const startsAt = scoresAt + COLUMN_ROWS * 8
    const hashesAt = startsAt + (COLUMN_ROWS + 4) * 4
    const idxAt = hashesAt + COLUMN_ROWS * 4
    const keysAt = idxAt + COLUMN_ROWS * 4
    const ranksAt = keysAt + TABLE_SLOTS * 4
    const arenaAt = ranksAt + TABLE_SLOTS * 4
    const size = arenaAt + COLUMN_BYTES + SLACK
    exports.memory.grow(Math.ceil(size / 65536) - exports.memory.buffer.byteLength / 65536)
    // the memory never grows again, so these views stay valid
    const buffer = exports.memory.buffer
    this.bytes = new Uint8Array(buffer)
    new Float64Array(buffer, 0, EXACT_POW10.length).set(EXACT_POW10)
    this.scores = new Float64Array(buffer, scoresAt, COLUMN_ROWS)
    this.starts = new Uint32Array(buffer, startsAt, COLUMN_ROWS + 1)
    this.hashes = new Int32Array(buffer, hashesAt, COLUMN_ROWS)
    // the slack after the docno bytes is the kernel's (it copies 16 bytes at a time)
    this.arena = new Uint8Array(buffer, arenaAt, COLUMN_BYTES)
    this.idx = new Uint32Array(buffer, idxAt, COLUMN_ROWS)
    this.keys = new Int32Array(buffer, keysAt, TABLE_SLOTS)
    this.ranks = new Int32Array(buffer, ranksAt, TABLE_SLOTS)
    exports.setup(scoresAt, startsAt, hashesAt, arenaAt, QID_AT)
    exports.setupRank(idxAt, keysAt, ranksAt)
  }

  /** A kernel with its own memory, or null where WebAssembly SIMD is not available. */
  static create(): RunKernel | null {
    const module = kernelModule()
    return module === null ? null : new RunKernel(instantiateKernel<KernelExports>(module))
  }

  /**
   * Two buffers inside the kernel's memory, each followed by the slack the kernel reads past a line: a file read
   * into them is parsed where it lands ({@link addressOf}). Undefined when `size` is larger than they are.
   */
  readBuffers(size: number): readonly [Uint8Array, Uint8Array] | undefined {
    if (size > READ_BUFFER) return undefined
    const buffer = this.bytes.buffer
    return [new Uint8Array(buffer, READ_AT, size), new Uint8Array(buffer, READ_AT + READ_BUFFER + SLACK, size)]
  }

  /**
   * Where the kernel can read `buf[start, …)` in place: its memory address when `buf` is one of the
   * {@link readBuffers}, else -1.
   */
  addressOf(buf: Uint8Array, start: number): number {
    if (buf.buffer !== this.bytes.buffer) return -1
    const at = buf.byteOffset + start
    return at >= READ_AT && at < READ_AT + 2 * (READ_BUFFER + SLACK) ? at : -1
  }

  /**
   * Copies `buf[start, end)` (whole lines, at most {@link KERNEL_WINDOW} bytes) into the window; returns the
   * window's address.
   */
  load(buf: Uint8Array, start: number, end: number): number {
    this.bytes.set(buf.subarray(start, end), INPUT_AT)
    return INPUT_AT
  }

  /**
   * The qid the kernel compares line starts with; `version` changes whenever the builder's previous qid does,
   * so the bytes are only copied then.
   */
  setQid(qid: Uint8Array, length: number, version: number): void {
    if (version === this.qidVersion) return
    this.qidVersion = version
    this.qidLen = length > 0 && length <= QID_CAP ? length : 0
    if (this.qidLen > 0) this.bytes.set(qid.subarray(0, length), QID_AT)
  }

  /**
   * Reads the lines at memory addresses `from` to `end` into rows until one needs the exact path: rows from
   * `rowBase` on, docno bytes from `arena[apStart]` on, each row's docno start plus `apBias`. The caller has made
   * room for a window's rows and bytes. Returns 0 when all were read, else 1 or 2 (see the .wat);
   * {@link stoppedAt} is then that line's address.
   */
  parse(from: number, end: number, rowBase: number, apStart: number, apBias: number): number {
    return this.exports.parse(from, end, rowBase, apStart, apBias, this.qidLen)
  }

  /**
   * Puts rows `from .. from + n` in rank order into {@link idx} when the scores never increase and no stretch of
   * equal scores is longer than 16 (ties by docno descending, trec_eval's rule). Returns 0 then, else 1: the
   * caller orders the topic itself.
   */
  order(from: number, n: number): number {
    return this.exports.order(from, n)
  }

  /**
   * Puts the docnos of rows `idx[0 .. n)` into the table {@link keys}/{@link ranks} of `mask + 1` slots (a power
   * of two, 16 to {@link TABLE_SLOTS}, at least 2n). Returns the row of the smallest docno ranked twice, or -1.
   */
  index(n: number, mask: number): number {
    return this.exports.index(n, mask)
  }

  /** Address of the line the last {@link parse} stopped at. */
  get stoppedAt(): number {
    return this.exports.outP.value as number
  }

  get rows(): number {
    return this.exports.outN.value as number
  }

  /** Docno bytes the last {@link parse} wrote. */
  get arenaBytes(): number {
    return this.exports.outAp.value as number
  }

  /** Addresses of the last row's run_id, or null when the last parse wrote no row. */
  runIdRange(): readonly [number, number] | null {
    const start = this.exports.runIdStart.value as number
    return start < 0 ? null : [start, this.exports.runIdEnd.value as number]
  }
}

function align8(n: number): number {
  return (n + 7) & ~7
}
