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
  // Vitest 4 declares `Matchers<T = any>`; merging needs the same parameter list.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends RagMatchers<T> {}
}

export { configure } from './config.js'
