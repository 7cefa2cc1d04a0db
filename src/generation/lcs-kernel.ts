/**
 * The WebAssembly path of rouge-score's LCS for sentence-sized pairs (`lcs-kernel.wat`, assembled into
 * `lcs-kernel-wasm.ts`). lcs.ts uses it when the runtime has WebAssembly and the pair fits its memory.
 */
import { LCS_KERNEL_WASM } from './lcs-kernel-wasm.js'
import { compileKernel, instantiateKernel, type WasmMemory } from '../wasm-api.js'

/** A pair fits when each side has at most this many ids and the rows hold at most {@link KERNEL_MAX_CELLS} cells. */
export const KERNEL_MAX_SIDE = 4096
export const KERNEL_MAX_CELLS = 1 << 18

// the layout: ref, can and its 4 ids of -1, the rows ((rows + 1) · ⌈cols / 32⌉ words), the path
const REF_AT = 0
const CAN_AT = REF_AT + 4 * KERNEL_MAX_SIDE
const ROWS_AT = CAN_AT + 4 * (KERNEL_MAX_SIDE + 4)
const ROW_WORDS = KERNEL_MAX_CELLS / 32 + KERNEL_MAX_SIDE + KERNEL_MAX_SIDE / 32 + 1
const OUT_AT = ROWS_AT + 4 * ROW_WORDS
const END = OUT_AT + 4 * KERNEL_MAX_SIDE

interface KernelExports {
  readonly memory: WasmMemory
  setup(ref: number, can: number, rows: number, out: number): void
  path(rows: number, cols: number): number
}

export class LcsKernel {
  private readonly exports: KernelExports
  private readonly ref: Int32Array
  private readonly can: Int32Array
  /** What {@link path} wrote: the path's indices into `ref`, ascending (valid until the next call). */
  readonly out: Int32Array

  private constructor(module: object) {
    this.exports = instantiateKernel<KernelExports>(module)
    const memory = this.exports.memory
    memory.grow(Math.ceil(END / 65536) - memory.buffer.byteLength / 65536)
    this.exports.setup(REF_AT, CAN_AT, ROWS_AT, OUT_AT)
    this.ref = new Int32Array(memory.buffer, REF_AT, KERNEL_MAX_SIDE)
    this.can = new Int32Array(memory.buffer, CAN_AT, KERNEL_MAX_SIDE + 4)
    this.out = new Int32Array(memory.buffer, OUT_AT, KERNEL_MAX_SIDE)
  }

  /** The kernel, or null where this runtime has no WebAssembly (then lcs.ts stays in JS). */
  static create(): LcsKernel | null {
    const module = compileKernel(LCS_KERNEL_WASM)
    return module === null ? null : new LcsKernel(module)
  }

  /** Whether a pair of these lengths fits the kernel. */
  static fits(rows: number, cols: number): boolean {
    return rows <= KERNEL_MAX_SIDE && cols <= KERNEL_MAX_SIDE && rows * cols <= KERNEL_MAX_CELLS
  }

  /** rouge-score's LCS of a pair that {@link fits}: writes its indices into `ref` to {@link out}, returns how many. */
  path(ref: Int32Array, can: Int32Array): number {
    this.ref.set(ref)
    this.can.set(can)
    // 4-wide loads past the candidate's end must match nothing (ids are ≥ 0)
    this.can.fill(-1, can.length, can.length + 4)
    return this.exports.path(ref.length, can.length)
  }
}
