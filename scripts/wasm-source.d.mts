// Types for scripts/wasm-source.mjs, so the TypeScript tests can import it.
export declare function assembleRunKernel(wat: string): Promise<Buffer>
export declare function runKernelSource(binary: Buffer): string
