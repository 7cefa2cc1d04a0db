/**
 * The few WebAssembly JS API members the project's kernels use (run-kernel.ts, bleu-kernel.ts, word-kernel.ts,
 * lcs-kernel.ts), typed here: the project's lib has no DOM types.
 */
export interface WasmGlobal {
  readonly value: unknown
}
export interface WasmMemory {
  readonly buffer: ArrayBuffer
  grow(pages: number): number
}
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object
  readonly Instance: new (module: object, imports?: object) => { readonly exports: unknown }
}

const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly

/**
 * The module a kernel's base64 text holds, or null where this runtime cannot compile it (no WebAssembly, or a
 * feature it lacks such as SIMD): the caller then takes its JS path.
 */
export function compileKernel(base64: string): object | null {
  try {
    return wasm === undefined ? null : new wasm.Module(Buffer.from(base64, 'base64'))
  } catch {
    return null
  }
}

/** A fresh instance of a compiled kernel (its own memory), given the functions it imports; its exports as the caller declares them. */
export function instantiateKernel<T>(module: object, imports?: object): T {
  return new wasm!.Instance(module, imports).exports as T
}
