/**
 * The WebAssembly path of NLTK's Porter stemmer in NLTK_EXTENSIONS mode (`porter-kernel.wat`, assembled into
 * `porter-kernel-wasm.ts`), for lower-case ASCII words: porter.ts sends a word here once it has checked the irregular
 * forms and the words of two letters or fewer, and keeps its JS rules for other words, other modes and runtimes
 * without WebAssembly.
 */
import { PORTER_KERNEL_WASM } from './porter-kernel-wasm.js'
import { compileKernel, instantiateKernel, type WasmMemory } from '../../wasm-api.js'

/** A longer word takes the JS path (the kernel's page holds the word after its rule tables). */
export const PORTER_KERNEL_MAX_UNITS = 1024

interface KernelExports {
  readonly memory: WasmMemory
  /** The stem's length + 65536 × how many of its first letters are the word's own (the rest are written over the word's). */
  stem(length: number): number
  wordAt(): number
}

export class PorterKernel {
  private readonly exports: KernelExports
  private readonly bytes: Uint8Array

  private constructor(module: object) {
    this.exports = instantiateKernel<KernelExports>(module)
    // a stem is never longer than its word plus one letter per step
    this.bytes = new Uint8Array(this.exports.memory.buffer, this.exports.wordAt(), PORTER_KERNEL_MAX_UNITS + 16)
  }

  /** The kernel, or null where this runtime has no WebAssembly. */
  static create(): PorterKernel | null {
    const module = compileKernel(PORTER_KERNEL_WASM)
    return module === null ? null : new PorterKernel(module)
  }

  /**
   * Steps 1a–5b of `word`, a lower-case ASCII word of 3 to {@link PORTER_KERNEL_MAX_UNITS} letters (porter.ts checks
   * both, and the irregular forms, before).
   */
  stem(word: string): string {
    // Loops over a few letters, not Buffer#write/#toString: their wrappers cost more than the stemming, and a stem is
    // mostly a prefix of its word, so only the letters after that prefix are read back (ASCII: one byte a unit).
    const bytes = this.bytes
    const n = word.length
    for (let k = 0; k < n; k++) bytes[k] = word.charCodeAt(k)
    const result = this.exports.stem(n)
    const length = result & 0xffff
    const kept = result >>> 16
    if (kept === n) return word
    let stem = word.slice(0, kept)
    for (let k = kept; k < length; k++) stem += String.fromCharCode(bytes[k]!)
    return stem
  }
}
