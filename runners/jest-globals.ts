/**
 * For `import { expect } from '@jest/globals'` users: registers every matcher on that `expect`
 * and augments the `expect` package's `Matchers`.
 */
import { afterEach, beforeAll, describe, expect } from '@jest/globals'
import { allMatchers } from '../matchers/all.js'
import { checkPendingAssertions, enableAwaitCheck } from '../matchers/pending.js'
import { bindDescribeEvalSet } from './describe-eval-set.js'
import type { RagAsymmetricMatchers, RagMatchers } from '../matchers/types.js'

expect.extend(allMatchers as never)
// A test that calls an async matcher without `await` fails, naming the matcher and its line (matchers/pending.ts).
enableAwaitCheck()
afterEach(checkPendingAssertions)

declare module 'expect' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Matchers<R extends void | Promise<void>, T = unknown> extends RagMatchers<R, T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchers extends RagAsymmetricMatchers {}
}

export { configure } from '../matchers/config.js'
/** `describeEvalSet` bound to `@jest/globals`' `describe`/`beforeAll` (works with `injectGlobals: false`). */
export const describeEvalSet = bindDescribeEvalSet({ describe, beforeAll })
export { EvalRunHandle, type DescribeEvalSetOptions, type EvalSetRunner } from './describe-eval-set.js'
