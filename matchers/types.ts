import type { AgreementMatchers } from './agreement.js'
import type { EmbeddingMatchers } from './embeddings.js'
import type { EvalSetMatchers } from './baseline.js'
import type { GenerationMatchers } from './generation.js'
import type { NumericMatchers } from './numeric.js'
import type { JudgeMatchers } from './judge.js'
import type { RetrievalMatchers } from './retrieval.js'

/**
 * The ONE declaration of every rag-matchers signature. Each runner entry (vitest.ts, jest.ts,
 * jest-globals.ts) augments its own `Matchers` interface from this, so the lists never drift.
 * Sync matchers return `R`; async ones return `Promise<void>` and must be awaited.
 * Families add themselves to the `extends` list. `T` is the received type, which some matchers
 * use to pick their parameter list (an answer string versus an eval set).
 */
export interface RagMatchers<R = unknown, T = unknown>
  extends RetrievalMatchers<R>, GenerationMatchers<R, T>, NumericMatchers<R, T>, EmbeddingMatchers<R, T>, JudgeMatchers<R>, EvalSetMatchers<R>, AgreementMatchers<R> {}

/** The sync matchers, which are also offered as asymmetric matchers (`expect.toHaveNdcgAtK(…)`). */
export type RagAsymmetricMatchers = {
  [K in keyof RagMatchers<unknown> as RagMatchers<unknown>[K] extends (...args: never[]) => Promise<unknown> ? never : K]: RagMatchers<unknown>[K]
}

/** Names of the async matchers (they return promises and must be awaited). */
export type RagAsyncMatcherName = {
  [K in keyof RagMatchers<unknown>]: RagMatchers<unknown>[K] extends (...args: never[]) => Promise<unknown> ? K : never
}[keyof RagMatchers<unknown>]

/** Names of the sync matchers. */
export type RagSyncMatcherName = Exclude<keyof RagMatchers<unknown>, RagAsyncMatcherName>
