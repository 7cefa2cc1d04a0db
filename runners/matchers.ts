/**
 * `rag-matchers/matchers`: the raw matchers for a custom `expect.extend`, their configuration, and
 * `describeEvalSet` (which binds an eval set to the runner's `describe`/`beforeAll`). Importing it
 * has no side effects; `rag-matchers/vitest` and `rag-matchers/jest` register everything for you.
 */
export * from '../matchers/index.js'
export { describeEvalSet, EvalRunHandle, type DescribeEvalSetOptions, type EvalSetRunner } from './describe-eval-set.js'
