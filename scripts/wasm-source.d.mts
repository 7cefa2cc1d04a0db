// Types for scripts/wasm-source.mjs, so the TypeScript tests can import it.
/** A WebAssembly kernel of the project: its .wat, the generated module and the constant that module exports. */
export interface Kernel {
  readonly wat: string
  readonly ts: string
  readonly constant: string
}
export declare const KERNELS: readonly [Kernel, Kernel]
export declare function assembleKernel(wat: string, name?: string): Promise<Buffer>
export declare function kernelSource(kernel: Kernel, binary: Buffer): string
