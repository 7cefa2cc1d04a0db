import type { AssertionMeta } from '../src/report/record.js'

/**
 * The part of the runner's matcher `this` that rag-matchers uses. Vitest's and Jest's MatcherState
 * both satisfy it, so one matcher function serves both runners without `@ts-expect-error`.
 */
export interface MatcherUtils {
  matcherHint(matcherName: string, received?: string, expected?: string, options?: MatcherHintOptions): string
  printReceived(value: unknown): string
  printExpected(value: unknown): string
}

export interface MatcherHintOptions {
  isNot?: boolean
  promise?: string
  comment?: string
  secondArgument?: string
}

export interface MatcherContext {
  readonly isNot?: boolean
  readonly promise?: string
  readonly utils: MatcherUtils
  /** Vitest only: the running test, used to attach results for the reporter. */
  readonly task?: unknown
  readonly currentTestName?: string
  readonly testPath?: string
}

/** Extra fields a reporter can read; runners ignore what they do not know (the report schema's {@link AssertionMeta}). */
export type MatcherMeta = AssertionMeta

export interface MatcherResult {
  pass: boolean
  message: () => string
  actual?: unknown
  expected?: unknown
  meta?: MatcherMeta
}
