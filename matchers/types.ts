import type { AgentMatchers } from './agent.js'
import type { AgentBudgetMatchers } from './agent-budget.js'
import type { AgreementMatchers } from './agreement.js'
import type { ConversationMatchers } from './conversation.js'
import type { EmbeddingMatchers } from './embeddings.js'
import type { EvalSetMatchers } from './baseline.js'
import type { GenerationMatchers } from './generation.js'
import type { HumanAlignmentMatchers } from './human-alignment.js'
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
  extends
    ReceivedCheck<RetrievalMatchers<R>, T, NotAnObject, 'a case { retrieved, relevant } or an eval set'>,
    ReceivedCheck<GenerationMatchers<R, T>, T, NotText, 'an answer string or an eval set'>,
    ReceivedCheck<NumericMatchers<R, T>, T, NotText, 'an answer string or an eval set'>,
    ReceivedCheck<EmbeddingMatchers<R, T>, T, NotText, 'an answer string or an eval set'>,
    ReceivedCheck<JudgeMatchers<R, T>, T, NotText, 'an answer string, the retrieved contexts or an eval set'>,
    ReceivedCheck<EvalSetMatchers<R>, T, NotAnObject, 'an eval run { cases } or an array of cases'>,
    ReceivedCheck<AgreementMatchers<R>, T, NotAnObject, 'ratings, scores or pairwise judgements (an array or an object)'>,
    ReceivedCheck<HumanAlignmentMatchers<R>, T, NotAnObject, "the judge's verdicts (an array)">,
    ReceivedCheck<AgentMatchers<R>, T, NotAnObject, 'tool calls, { toolCalls } or an eval set'>,
    ReceivedCheck<AgentBudgetMatchers<R>, T, NotAnObject, 'an eval run { cases } or an array of cases'>,
    ReceivedCheck<ConversationMatchers, T, NotAnObject, 'a conversation { turns } or an eval set of conversations'> {}

type IsAny<T> = 0 extends 1 & T ? true : false
type NotText = number | boolean | bigint | symbol | null | undefined
type NotAnObject = NotText | string

/**
 * A family's matchers, unchanged unless the received type `T` is known and can only be one the family
 * never accepts (`expect(42).toHaveRecallAtK(3, 0.5)`); then each becomes a signature whose first
 * parameter is the reason, so the call is a type error that says why. any/unknown (asymmetric use,
 * untyped values) and unions with a valid member keep the full signatures.
 */
type ReceivedCheck<M, T, Bad, Expected extends string> = {
  [K in keyof M]: IsAny<T> extends true ? M[K] : unknown extends T ? M[K] : [T] extends [Bad] ? WrongReceived<K & string, Expected> : M[K]
}

type WrongReceived<Name extends string, Expected extends string> = (reason: `${Name}: the received value must be ${Expected}`, ...rest: unknown[]) => never

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
