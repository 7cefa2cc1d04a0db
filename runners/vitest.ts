/**
 * `import 'rag-matchers/vitest'` in a Vitest setup file: registers every matcher and declares their
 * types on Vitest's `Assertion` (Vitest 4 and 5).
 */
import 'vitest'
import { afterEach, beforeAll, describe, expect, type JestAssertion } from 'vitest'
import { allMatchers } from '../matchers/all.js'
import { checkPendingAssertions, enableAwaitCheck } from '../matchers/pending.js'
import { bindDescribeEvalSet } from './describe-eval-set.js'
import type { RagAsyncMatcherName, RagMatchers, RagSyncMatcherName } from '../matchers/types.js'

expect.extend(allMatchers as never)
// A test that calls an async matcher without `await` fails, naming the matcher and its line (matchers/pending.ts).
enableAwaitCheck()
afterEach(checkPendingAssertions)

/**
 * Every matcher on `expect(value)` without the received type (see below); the async ones return
 * `Promise<void>` (await them). Both parameter lists are offered where an answer string and an eval
 * set take different arguments.
 */
type RagVitestAssertion = Pick<RagMatchers<void, unknown>, RagSyncMatcherName | RagAsyncMatcherName>
/** Only the sync matchers work as asymmetric matchers: an async one would be called synchronously and never match. */
type RagVitestAsymmetric = Pick<RagMatchers<void, unknown>, RagSyncMatcherName>

/**
 * Vitest 5 returns `R` (any here) from `JestAssertion<R, T>`'s matchers, Vitest 4 `void` from
 * `JestAssertion<T>`'s. `JestAssertion<any>` is a valid reference in both, and does not depend on
 * `Assertion` (reading `Assertion` itself here would make its base type circular).
 */
type IsVitest5 = 0 extends 1 & ReturnType<JestAssertion<any>['toEqual']> ? true : false // eslint-disable-line @typescript-eslint/no-explicit-any

/** What `Assertion` itself gets: everything under Vitest 5, nothing under Vitest 4 (see below). */
type RagAssertionOfThisVitest = IsVitest5 extends true ? RagVitestAssertion : {} // eslint-disable-line @typescript-eslint/no-empty-object-type

// Why these declarations, and why none takes a type parameter:
// - Vitest 4 declares `Assertion<T>`, Vitest 5 `Assertion<R, T>`. Merged declarations must repeat
//   the type parameters by name, so only a declaration without any merges with both; it cannot see
//   the received type.
// - Vitest 4 re-exports `Assertion` from @vitest/expect, which Vitest itself augments too; TypeScript
//   merges an augmentation of the re-export or not depending on the order it reads the files (a setup
//   file listed before the tests lost every async matcher). So under Vitest 4 `Assertion` gets nothing
//   here, and the matchers come from the global `jest.Matchers<void, T>`, which Vitest 4's `Assertion`
//   extends: a declaration reached without the re-export, in every order, and one that sees the
//   received type `T`. It is the same declaration as rag-matchers/jest's, so both entries may load.
// - Vitest 5 has no `jest` namespace and declares `Assertion` in 'vitest' itself, where the
//   augmentation below merges in every order (checked by scripts/type-matrix.mjs).
// - `Matchers` is left alone: Vitest's static `expect` extends it, which would offer the async
//   matchers as asymmetric ones. `AsymmetricMatchersContaining` (`expect.x`, `expect.not.x`) gets the sync ones.
declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Assertion extends RagAssertionOfThisVitest {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends RagVitestAsymmetric {}
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Matchers<R, T = {}> extends RagMatchers<R, T> {}
  }
}

export { configure } from '../matchers/config.js'
/** `describeEvalSet` bound to Vitest's own `describe`/`beforeAll`: works without `globals: true`. */
export const describeEvalSet = bindDescribeEvalSet({ describe, beforeAll })
export { EvalRunHandle, type DescribeEvalSetOptions, type EvalSetRunner } from './describe-eval-set.js'
