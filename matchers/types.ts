import type { RetrievalMatchers } from './retrieval.js'

/**
 * The ONE declaration of every rag-matchers signature. Each runner entry (vitest.ts, jest.ts,
 * jest-globals.ts) augments its own `Matchers` interface from this, so the lists never drift.
 * Sync matchers return `R`; async ones return `Promise<void>` and must be awaited.
 * Families add themselves to the `extends` list.
 */
export interface RagMatchers<R = unknown> extends RetrievalMatchers<R> {}

/** The sync matchers, which are also offered as asymmetric matchers (`expect.toHaveNdcgAtK(…)`). */
export type RagAsymmetricMatchers = {
  [K in keyof RagMatchers<unknown> as ReturnType<RagMatchers<unknown>[K]> extends Promise<unknown> ? never : K]: (
    ...args: Parameters<RagMatchers<unknown>[K]>
  ) => unknown
}
