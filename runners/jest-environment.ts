/**
 * A Jest test environment for the embedding matchers: Jest's Node environment plus the outer realm's
 * typed-array constructors.
 *
 * Why: Jest runs each test file in its own `vm` context, whose `Float32Array` is a different function
 * from the one native addons use. ONNX Runtime (behind Transformers.js) creates its output tensors
 * natively and then checks `data instanceof Float32Array` against the test context's constructor, which
 * fails with "A float32 tensor's data must be type of function Float32Array()". Jest already shares
 * `ArrayBuffer` and `Uint8Array` this way; this environment shares the rest.
 *
 * Use it for the test files that embed with Transformers.js (Ollama and function embedders do not need it):
 *
 *   // jest.config.js — every test file
 *   testEnvironment: 'rag-matchers/jest-environment'
 *
 *   // or per file, in a docblock at the top of the test file
 *   /** @jest-environment rag-matchers/jest-environment *\/
 *
 * Side effect of sharing: `new Float32Array()` in a test is the Node realm's, which is what code outside
 * Jest sees anyway. Vitest does not need this (it runs tests in the Node realm by default).
 */
import { TestEnvironment } from 'jest-environment-node'

/** The constructors copied from Node's realm into each test context (those that exist in this Node). */
export const SHARED_TYPED_ARRAY_GLOBALS: readonly string[] = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float16Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
]

/**
 * Copies the outer realm's typed-array constructors onto a test context's global object; for projects
 * that already have their own environment class (call it in the constructor, after `super`).
 *
 * @example
 * class MyEnvironment extends TestEnvironment {
 *   constructor(config, context) { super(config, context); shareTypedArrays(this.global) }
 * }
 */
export function shareTypedArrays(target: Record<string, unknown>): void {
  const outer = globalThis as unknown as Record<string, unknown>
  for (const name of SHARED_TYPED_ARRAY_GLOBALS) {
    if (typeof outer[name] === 'function') target[name] = outer[name]
  }
}

export default class RagMatchersEnvironment extends TestEnvironment {
  constructor(...args: ConstructorParameters<typeof TestEnvironment>) {
    super(...args)
    shareTypedArrays(this.global as unknown as Record<string, unknown>)
  }
}
