/**
 * `setupFilesAfterEnv: ['rag-matchers/jest']`: registers every matcher on Jest's global `expect`
 * and augments the `jest.Matchers` namespace (for `@types/jest` users).
 */
import { allMatchers } from '../matchers/all.js'
import { checkPendingAssertions, enableAwaitCheck } from '../matchers/pending.js'
import type { RagAsymmetricMatchers, RagMatchers } from '../matchers/types.js'

const jestExpect = (globalThis as { expect?: { extend?: (m: object) => void } }).expect

if (jestExpect === undefined || typeof jestExpect.extend !== 'function') {
  throw new Error(
    "rag-matchers/jest: no global `expect` was found. Load this module from Jest's `setupFilesAfterEnv` " +
      "(not `setupFiles`, which runs before expect exists), or use 'rag-matchers/jest-globals' with " +
      "`import { expect } from '@jest/globals'`. See the rag-matchers README, section Jest.",
  )
}

jestExpect.extend(allMatchers)

// A test that calls an async matcher without `await` fails, naming the matcher and its line
// (matchers/pending.ts). `afterEach` is a global wherever the global `expect` is.
const jestAfterEach = (globalThis as { afterEach?: (fn: () => Promise<void>) => void }).afterEach
if (typeof jestAfterEach === 'function') {
  enableAwaitCheck()
  jestAfterEach(checkPendingAssertions)
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Matchers<R, T = {}> extends RagMatchers<R, T> {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Expect extends RagAsymmetricMatchers {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface InverseAsymmetricMatchers extends RagAsymmetricMatchers {}
  }
}

export { configure } from '../matchers/config.js'
// Jest's `describe`/`beforeAll` are the globals this entry already requires, which describeEvalSet uses by default.
export { describeEvalSet, EvalRunHandle, type DescribeEvalSetOptions, type EvalSetRunner } from './describe-eval-set.js'
