/**
 * `import 'rag-matchers/vitest'` in a Vitest setup file: registers every matcher and augments
 * Vitest's `Matchers` with their types.
 */
import 'vitest'
import { afterEach, beforeAll, describe, expect } from 'vitest'
import { allMatchers } from '../matchers/all.js'
import { checkPendingAssertions, enableAwaitCheck } from '../matchers/pending.js'
import { bindDescribeEvalSet } from './describe-eval-set.js'
import type { RagAsyncMatcherName, RagMatchers, RagSyncMatcherName } from '../matchers/types.js'

expect.extend(allMatchers as never)
// A test that calls an async matcher without `await` fails, naming the matcher and its line (matchers/pending.ts).
enableAwaitCheck()
afterEach(checkPendingAssertions)

/**
 * Every matcher on `expect(value)`; the async ones return `Promise<void>` (await them). The received
 * type is not seen here (see the declarations below), so both parameter lists are offered where an
 * answer string and an eval set take different arguments.
 */
type RagVitestAssertion = Pick<RagMatchers<void, unknown>, RagSyncMatcherName | RagAsyncMatcherName>
/** Only the sync matchers work as asymmetric matchers: an async one would be called synchronously and never match. */
type RagVitestAsymmetric = Pick<RagMatchers<void, unknown>, RagSyncMatcherName>

// Why these three declarations, and why none takes a type parameter:
// - Vitest 4 declares `Assertion<T>`/`Matchers<T>`, Vitest 5 `Assertion<R, T>`/`Matchers<R, T>`. Merged
//   declarations must repeat the type parameters by name, so only a declaration without any merges with
//   both. It cannot see the received type, hence `RagMatchers<void, unknown>`.
// - Vitest 4 re-exports `Assertion` from @vitest/expect, which Vitest itself augments too; TypeScript
//   merges an augmentation of the re-export or not depending on the order it reads the files (a setup
//   file listed before the tests lost every async matcher). Vitest 4's `Assertion` also extends the
//   global `jest.Matchers<void, T>`, a declaration reached without the re-export: that one holds in
//   every order. Vitest 5 has no `jest` namespace and declares `Assertion` in 'vitest' itself, where
//   the augmentation below always merges. In Vitest 4 both apply, with identical member types.
// - `Matchers` is left alone: Vitest's static `expect` extends it, which would offer the async
//   matchers as asymmetric ones. `AsymmetricMatchersContaining` (`expect.x`, `expect.not.x`) gets the sync ones.
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion extends RagVitestAssertion {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends RagVitestAsymmetric {}
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Matchers<R, T = {}> extends RagVitestAssertion {}
  }
}

export { configure } from '../matchers/config.js'
/** `describeEvalSet` bound to Vitest's own `describe`/`beforeAll`: works without `globals: true`. */
export const describeEvalSet = bindDescribeEvalSet({ describe, beforeAll })
export { EvalRunHandle, type DescribeEvalSetOptions, type EvalSetRunner } from './describe-eval-set.js'
