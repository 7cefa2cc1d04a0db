/**
 * `import 'rag-matchers/vitest'` in a Vitest setup file: registers every matcher and augments
 * Vitest's `Matchers` with their types.
 */
import 'vitest'
import { expect } from 'vitest'
import { allMatchers } from './all.js'
import type { RagMatchers } from './types.js'

expect.extend(allMatchers as never)

declare module 'vitest' {
  // Vitest 4 declares `Matchers<T = any>` (T is the received type); merging needs the same parameter
  // list. Assertions return void, so the return type is fixed rather than tied to T.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any, @typescript-eslint/no-unused-vars
  interface Matchers<T = any> extends RagMatchers<void, T> {}
}

export { configure } from './config.js'
