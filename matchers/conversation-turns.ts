/**
 * Conversations for the per-turn matchers (issue #31): a conversation `{ turns: [...] }`, received alone
 * or as a case of an eval set, is scored turn by turn. Each turn becomes a case `{ id: '<id> turn <n>',
 * question: user, answer: assistant, retrieved, relevant, contexts, reference }`, so a single conversation
 * takes the eval-set form (the mean over its turns, the message naming the turn) and a set's mean is over
 * turns. The matchers themselves are unchanged: this rewrites the received value before their checks.
 *
 * Strict by design: every turn must carry what the matcher reads. A turn without it is a Matcher error
 * naming the conversation and the turn (with or without `.not`), never skipped, so a typo in one turn
 * cannot shrink the set silently. To score some turns only, pass a conversation with just those turns.
 */
import { isConversation, readTurns } from '../src/conversation/turns.js'
import { caseLabel } from '../src/eval-case.js'
import { isPlainObject } from '../src/options.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { argsHint, formFor, type MatcherDeclaration, type MatcherImpl } from './declare.js'
import { matcherError } from './validate.js'

/** A field a turn must have; `source` is `reference` or `contexts` (toBeCompleteGiven reads either). */
type TurnNeed = 'user' | 'assistant' | 'retrieved' | 'relevant' | 'contexts' | 'reference' | 'source'

const RETRIEVAL: readonly TurnNeed[] = ['retrieved', 'relevant']
const LEXICAL: readonly TurnNeed[] = ['assistant', 'reference']

/**
 * The matchers that score a conversation turn by turn, and what each turn needs. The conversation
 * judges (conversation.ts) read whole conversations and are not here.
 */
export const TURN_NEEDS: Readonly<Record<string, readonly TurnNeed[]>> = {
  toHavePrecisionAtK: RETRIEVAL,
  toHaveRecallAtK: RETRIEVAL,
  toHaveMrrAbove: RETRIEVAL,
  toHaveNdcgAtK: RETRIEVAL,
  toHaveMapAtK: RETRIEVAL,
  toHitWithin: RETRIEVAL,
  toHaveHitRateAtK: RETRIEVAL,
  toScoreBleuAbove: LEXICAL,
  toScoreChrfAbove: LEXICAL,
  toScoreTerBelow: LEXICAL,
  toScoreRougeAbove: LEXICAL,
  toScoreRougeLAbove: LEXICAL,
  toScoreMeteorAbove: LEXICAL,
  toStateNumbersOf: LEXICAL,
  toBeSemanticallySimilarTo: LEXICAL,
  toBeGroundedIn: ['assistant', 'contexts'],
  toUtilizeContext: ['assistant', 'contexts'],
  toHaveContextRecall: ['contexts', 'reference'],
  toBeRelevantTo: ['user', 'assistant'],
  toSatisfyRubric: ['assistant'],
  toBeCompleteGiven: ['assistant', 'source'],
}

const NEED_TEXT: Record<TurnNeed, string> = {
  user: '`user`',
  assistant: '`assistant`',
  retrieved: '`retrieved`',
  relevant: '`relevant`',
  contexts: '`contexts` (or `retrieved` items with `text`)',
  reference: '`reference` (or `references`)',
  source: '`reference` or `contexts`',
}

/** What every turn needs for `matcher`, as the docs say it (`` `retrieved` and `relevant` ``); undefined when it does not score turns. */
export function turnNeedsText(matcher: string): string | undefined {
  return TURN_NEEDS[matcher]?.map((n) => NEED_TEXT[n]).join(' and ')
}

function has(turn: Record<string, unknown>, need: TurnNeed): boolean {
  switch (need) {
    case 'contexts':
      return turn.contexts !== undefined || turn.retrieved !== undefined
    case 'reference':
      return turn.reference !== undefined || turn.references !== undefined
    case 'source':
      return turn.reference !== undefined || turn.references !== undefined || turn.contexts !== undefined
    default:
      return turn[need] !== undefined
  }
}

/** The cases a conversation stands for, one per turn; `label` names the conversation (`undefined`: received alone, without an id). */
function turnCases(
  ctx: MatcherContext,
  matcher: string,
  hint: string,
  conversation: { readonly turns: unknown },
  name: string,
  label: string | undefined,
  needs: readonly TurnNeed[],
): Array<Record<string, unknown>> {
  let turns: ReturnType<typeof readTurns>
  try {
    turns = readTurns(matcher, 'turns', conversation.turns)
  } catch (error) {
    // the core's message names the turn; prefix the conversation
    return matcherError(ctx, matcher, hint, `${name}: ${(error as Error).message}`)
  }
  return turns.map((turn, i) => {
    const t = turn as unknown as Record<string, unknown>
    const missing = needs.filter((n) => !has(t, n))
    if (missing.length > 0) {
      matcherError(
        ctx,
        matcher,
        hint,
        `${name}, turn ${i + 1} has no ${missing.map((n) => NEED_TEXT[n]).join(' and ')}; ${matcher} scores every turn of a conversation, so each turn needs ${needs
          .map((n) => NEED_TEXT[n])
          .join(' and ')} (to score some turns only, pass a conversation with just those turns)`,
      )
    }
    const { user, assistant, ...rest } = t
    return { ...rest, id: label === undefined ? `turn ${i + 1}` : `${label} turn ${i + 1}`, question: user, answer: assistant }
  })
}

/**
 * The received value with every conversation replaced by its turns, or the value itself when it holds
 * none. A conversation received alone becomes an eval set of its turns; in a set (an array, or `{ cases }`
 * whose other fields are kept), each conversation is replaced in place by its turns.
 */
export function expandConversations(ctx: MatcherContext, decl: MatcherDeclaration, received: unknown): unknown {
  const needs = TURN_NEEDS[decl.name]
  if (needs === undefined) return received
  const hint = argsHint(formFor(decl, []))
  if (isConversation(received)) {
    const id = (received as { id?: unknown }).id
    const label = typeof id === 'string' || typeof id === 'number' ? String(id) : undefined
    return turnCases(ctx, decl.name, hint, received, label === undefined ? 'the conversation' : `conversation ${label}`, label, needs)
  }
  const all = casesOf(received)
  // a sparse set is left to the matcher's reader, which names the hole
  if (all === undefined || !all.some((c, i) => i in all && isConversation(c))) return received
  const out: unknown[] = []
  for (let i = 0; i < all.length; i++) {
    if (!(i in all)) return received
    const c = all[i]
    if (!isConversation(c)) {
      out.push(c)
      continue
    }
    const label = caseLabel(c, i)
    out.push(...turnCases(ctx, decl.name, hint, c, `conversation ${label} (received[${i}])`, label, needs))
  }
  if (Array.isArray(received)) return out
  if (isPlainObject(received)) return { ...received, cases: out }
  // a describeEvalSet run (a class with getters): keep what the matchers read from it besides the cases
  const { trials, name } = received as { trials?: unknown; name?: unknown }
  return { cases: out, ...(trials === undefined ? {} : { trials }), ...(name === undefined ? {} : { name }) }
}

/** The cases of an eval set (an array, `{ cases }`, a describeEvalSet run), or undefined; a run that cannot be read is left to the matcher. */
function casesOf(received: unknown): readonly unknown[] | undefined {
  if (Array.isArray(received)) return received
  if (received === null || typeof received !== 'object') return undefined
  try {
    const cases = (received as { cases?: unknown }).cases
    return Array.isArray(cases) ? cases : undefined
  } catch {
    // a describeEvalSet run that failed throws on `.cases`; the matcher reads it again and reports why
    return undefined
  }
}

/**
 * `impl` (the declaration's checked matcher) with conversations expanded first. An async matcher's
 * Matcher error is a rejection, as its own checks' are; a sync one's is thrown.
 */
export function withConversations(decl: MatcherDeclaration, impl: MatcherImpl): MatcherImpl {
  if (TURN_NEEDS[decl.name] === undefined) return impl
  const fn = function (this: MatcherContext, received: unknown, ...args: never[]): MatcherResult | Promise<MatcherResult> {
    if (!decl.async) return impl.call(this, expandConversations(this, decl, received), ...args)
    return (async () => impl.call(this, expandConversations(this, decl, received), ...args))()
  }
  Object.defineProperty(fn, 'name', { value: decl.name })
  return fn
}
