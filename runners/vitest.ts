/**
 * `import 'rag-matchers/vitest'` in a Vitest setup file: registers every matcher and augments
 * Vitest's `Matchers` with their types.
 */
import 'vitest'
import { beforeAll, describe, expect } from 'vitest'
import { allMatchers } from '../matchers/all.js'
import { bindDescribeEvalSet } from './describe-eval-set.js'
import type { RagAsyncMatcherName, RagMatchers, RagSyncMatcherName } from '../matchers/types.js'

expect.extend(allMatchers as never)

declare module 'vitest' {
  // Vitest 4 declares `Matchers<T = any>` (T is the received type); merging needs the same parameter
  // list. Assertions return void, so the return type is fixed rather than tied to T. Vitest's static
  // `expect` extends `Matchers` too, so only the sync matchers go there: an async matcher used as an
  // asymmetric matcher would be called synchronously and silently never match. The async ones
  // augment `Assertion`, which only `expect(value)` returns.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends Pick<RagMatchers<void, T>, RagSyncMatcherName> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Assertion<T = any> extends Pick<RagMatchers<void, T>, RagAsyncMatcherName> {}
}

export { configure } from '../matchers/config.js'
/** `describeEvalSet` bound to Vitest's own `describe`/`beforeAll`: works without `globals: true`. */
export const describeEvalSet = bindDescribeEvalSet({ describe, beforeAll })
export { EvalRunHandle, type DescribeEvalSetOptions, type EvalSetRunner } from './describe-eval-set.js'
