import { agreementDeclarations } from './agreement.js'
import { baselineDeclarations } from './baseline.js'
import { declaredScale, matcherOf, type MatcherImpl } from './declare.js'
import { embeddingDeclarations } from './embeddings.js'
import { generationDeclarations } from './generation.js'
import { judgeDeclarations } from './judge.js'
import { numericDeclarations } from './numeric.js'
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
] as const

/** A declared matcher name. */
export type DeclaredMatcherName = (typeof matcherDeclarations)[number]['name']

/**
 * Every matcher, ready for `expect.extend(allMatchers)`: each declaration's checks, then its
 * compute. `withRecording` hands each result's `meta`, with the declared metric scale, to the
 * rag-matchers reporters; it changes no result.
 */
export const allMatchers: Record<DeclaredMatcherName, MatcherImpl> = withRecording(
  Object.fromEntries(matcherDeclarations.map((d) => [d.name, matcherOf(d)])) as Record<DeclaredMatcherName, MatcherImpl>,
  Object.fromEntries(matcherDeclarations.map((d) => [d.name, declaredScale(d.metric)])),
)

/** Async matchers: awaited, and never advertised as asymmetric matchers (runners call those synchronously). */
export const asyncMatcherNames: ReadonlySet<string> = new Set<string>(matcherDeclarations.filter((d) => d.async).map((d) => d.name))
