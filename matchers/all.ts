import { agentDeclarations } from './agent.js'
import { agentBudgetDeclarations } from './agent-budget.js'
import { agreementDeclarations } from './agreement.js'
import { baselineDeclarations } from './baseline.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { conversationDeclarations } from './conversation.js'
import { withConversations } from './conversation-turns.js'
import { declaredScale, matcherOf } from './declare.js'
import { embeddingDeclarations } from './embeddings.js'
import { generationDeclarations } from './generation.js'
import { humanAlignmentDeclarations } from './human-alignment.js'
import { judgeDeclarations } from './judge.js'
import { numericDeclarations } from './numeric.js'
import { withAwaitCheck } from './pending.js'
import { withRecording } from './record.js'
import { retrievalDeclarations } from './retrieval.js'

/** Every matcher's declaration, in documentation order. Families register here. */
export const matcherDeclarations = [
  ...retrievalDeclarations,
  ...generationDeclarations,
  ...numericDeclarations,
  ...embeddingDeclarations,
  ...judgeDeclarations,
  ...baselineDeclarations,
  ...agreementDeclarations,
  ...humanAlignmentDeclarations,
  ...agentDeclarations,
  ...agentBudgetDeclarations,
  ...conversationDeclarations,
] as const

/**
 * A matcher as runners call it. Runners pass any arguments (`any[]`, as their own `RawMatcherFn`
 * declares), and the declaration's checks decide what is accepted.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RegisteredMatcher = (this: MatcherContext, received: unknown, ...args: any[]) => MatcherResult | Promise<MatcherResult>

/** A declared matcher name. */
export type DeclaredMatcherName = (typeof matcherDeclarations)[number]['name']

/** Async matchers: awaited, and never advertised as asymmetric matchers (runners call those synchronously). */
export const asyncMatcherNames: ReadonlySet<string> = new Set<string>(matcherDeclarations.filter((d) => d.async).map((d) => d.name))

/**
 * Every matcher, ready for `expect.extend(allMatchers)`: each declaration's checks, then its
 * compute. `withRecording` hands each result's `meta`, with the declared metric scale, to the
 * rag-matchers reporters; it changes no result. `withAwaitCheck` lets the runner entries fail a
 * test that calls an async matcher without awaiting it (pending.ts); without them it changes nothing.
 */
export const allMatchers: Record<DeclaredMatcherName, RegisteredMatcher> = withAwaitCheck(
  withRecording(
    Object.fromEntries(matcherDeclarations.map((d) => [d.name, withConversations(d, matcherOf(d))])) as Record<DeclaredMatcherName, RegisteredMatcher>,
    Object.fromEntries(matcherDeclarations.map((d) => [d.name, declaredScale(d.metric)])),
  ),
  asyncMatcherNames,
)
