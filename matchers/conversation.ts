/**
 * The conversation judges (issue #31): knowledge retention (a later reply keeps what earlier turns
 * established) and conversation completeness (every request the user made was addressed). The received
 * value is one conversation `{ turns }` or an eval set of them (the mean over conversations). The metrics
 * are in src/judge/metrics; the loop, options, trials and messages are the other judge matchers'.
 */
import type { ConversationTurn } from '../src/conversation/turns.js'
import { isConversation } from '../src/conversation/turns.js'
import { conversationCompleteness, knowledgeRetention, type ConversationCompletenessDetails, type KnowledgeRetentionDetails } from '../src/judge/index.js'
import type { Score } from '../src/score.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { atLeast, declareMatcher, type ArgSpec } from './declare.js'
import { isEvalSet } from './generation-received.js'
import { EMPTY, JUDGE_OPTIONS, SET_JUDGE_OPTIONS } from './judge-option-specs.js'
import type { EmptyMatcherOptions, JudgeMatcherOptions, JudgeSetOptions } from './judge-options.js'
import { failures, itemRow, metricOptions, reasonCell, run } from './judge-shared.js'
import { runSet, shortfall } from './judge-set.js'
import { matcherError } from './validate.js'

/** Options of a conversation judge on one conversation. */
export interface ConversationJudgeOptions extends JudgeMatcherOptions, EmptyMatcherOptions {}
/** Options of a conversation judge on an eval set of conversations. */
export interface ConversationJudgeSetOptions extends Omit<ConversationJudgeOptions, 'passRate'>, JudgeSetOptions {}

/** Typed signatures of the conversation judges. Async: `await` them. Thresholds on 0–1, ≥ (`.not`: <). */
export interface ConversationMatchers {
  /**
   * Knowledge retention ≥ `min`: the share of the assistant's replies after the first that keep what the
   * earlier turns established (no contradiction, no asking again). On failure, lists the replies that
   * forgot, with the judge's reasons. For an eval set of conversations, the mean over conversations.
   * @example await expect({ turns }).toRetainKnowledge(1)
   */
  toRetainKnowledge(min: number, options?: ConversationJudgeOptions & ConversationJudgeSetOptions): Promise<void>
  /**
   * Conversation completeness ≥ `min`: the share of the user's requests, across all turns, that the
   * replies addressed. On failure, lists the unaddressed requests. For an eval set, the mean over conversations.
   * @example await expect({ turns }).toCompleteConversation(1)
   */
  toCompleteConversation(min: number, options?: ConversationJudgeOptions & ConversationJudgeSetOptions): Promise<void>
}

type RetentionScore = Score<KnowledgeRetentionDetails>
type CompletionScore = Score<ConversationCompletenessDetails>

/** One conversation's turns, or a Matcher error saying what the received value must be. */
function requireConversation(ctx: MatcherContext, matcher: string, received: unknown): readonly ConversationTurn[] {
  if (!isConversation(received)) {
    matcherError(ctx, matcher, 'min', 'received value must be a conversation `{ turns: [{ user, assistant }, …] }` or an eval set of conversations', received)
  }
  // The core checks the turns and names the one at fault (`turns[2] (turn 3).assistant`).
  return received.turns as readonly ConversationTurn[]
}

/** The core's options: `repeat`, and with `empty: 'pass'` a vacuous score of 1 (the core's default anyway). */
function coreOptions(o: ConversationJudgeOptions | undefined): { repeat?: number } {
  return metricOptions(o)
}

function retentionReasons(score: RetentionScore): string {
  const d = score.details
  if (d.empty) return d.note ?? 'one turn'
  const forgot = d.turns.filter((t) => t.verdict === 'forgotten').map((t) => ({ text: `turn ${t.turn}`, reason: t.reason }))
  return shortfall(forgot, d.total, 'replies forgot', `all ${d.total} later replies retained`)
}

function completionReasons(score: CompletionScore): string {
  const d = score.details
  if (d.empty) return d.note ?? 'no request'
  const open = d.requests.filter((r) => r.verdict === 'unaddressed').map((r) => ({ text: r.request, reason: r.reason }))
  return shortfall(open, d.total, 'requests unaddressed', `all ${d.total} requests addressed`)
}

/** `await expect(conversation).toRetainKnowledge(min, options?)`. */
export async function toRetainKnowledge(this: MatcherContext, received: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  const matcher = 'toRetainKnowledge'
  if (isEvalSet(received)) {
    return runSet(this, received, {
      matcher,
      args: 'min',
      label: 'knowledge retention',
      emptyOption: true,
      min,
      options,
      needs: ['turns'],
      compute: (judge, o: ConversationJudgeSetOptions | undefined, c) => knowledgeRetention(c.turns as readonly ConversationTurn[], judge, coreOptions(o)),
      reasons: retentionReasons,
    })
  }
  const turns = requireConversation(this, matcher, received)
  return run(this, {
    matcher,
    args: 'min',
    label: 'knowledge retention',
    emptyOption: true,
    min,
    options,
    compute: (judge, o: ConversationJudgeOptions | undefined) => knowledgeRetention(turns, judge, coreOptions(o)),
    breakdown: (score: RetentionScore) => {
      const d = score.details
      if (d.empty) return [d.note]
      // Turn order: a conversation is read front to back.
      const rows = d.turns.filter((t) => t.verdict === 'forgotten').map((t) => [`turn ${t.turn}`, reasonCell(t.reason)])
      return [
        failures(rows, d.total, `all ${d.total} later replies retained what earlier turns established`, 'replies that forgot or contradicted an earlier turn'),
        `retained: ${d.retained} of ${d.total}`,
      ]
    },
  })
}

/** `await expect(conversation).toCompleteConversation(min, options?)`. */
export async function toCompleteConversation(this: MatcherContext, received: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  const matcher = 'toCompleteConversation'
  if (isEvalSet(received)) {
    return runSet(this, received, {
      matcher,
      args: 'min',
      label: 'conversation completeness',
      emptyOption: true,
      min,
      options,
      needs: ['turns'],
      compute: (judge, o: ConversationJudgeSetOptions | undefined, c) => conversationCompleteness(c.turns as readonly ConversationTurn[], judge, coreOptions(o)),
      reasons: completionReasons,
    })
  }
  const turns = requireConversation(this, matcher, received)
  return run(this, {
    matcher,
    args: 'min',
    label: 'conversation completeness',
    emptyOption: true,
    min,
    options,
    compute: (judge, o: ConversationJudgeOptions | undefined) => conversationCompleteness(turns, judge, coreOptions(o)),
    breakdown: (score: CompletionScore) => {
      const d = score.details
      if (d.empty) return [d.note]
      const rows = d.requests.filter((r) => r.verdict === 'unaddressed').map((r) => itemRow(r.request, r.reason))
      return [failures(rows, d.total, `all ${d.total} requests addressed`, 'requests the replies did not address'), `addressed: ${d.addressed} of ${d.total}`]
    },
  })
}

// ---------------------------------------------------------------- declarations

const MIN: ArgSpec = { name: 'min', type: 'number', doc: 'Threshold on 0–1; passes when the score is ≥ min.' }
const CONVERSATION = 'one conversation `{ turns: [{ user, assistant }, …] }`'
const RETENTION_EMPTY = {
  ...EMPTY,
  doc: "A one-turn conversation (no earlier turn to retain): `'fail'` fails the assertion, with or without `.not`; `'pass'` accepts it as vacuously retained (score 1).",
}
const COMPLETION_EMPTY = {
  ...EMPTY,
  doc: "A conversation in which the judge finds no request: `'fail'` fails the assertion, with or without `.not`; `'pass'` accepts it as vacuously complete (score 1).",
}
const CONVERSATION_SET = 'an eval set: an array of conversations or { cases }, each with `turns`; asserts on the mean over conversations'

export const conversationDeclarations = [
  declareMatcher({
    name: 'toRetainKnowledge',
    async: true,
    family: 'judge',
    summary:
      "Knowledge retention ≥ `min`: the share of the assistant's replies after the first that keep what earlier turns established (no contradiction, no asking again); lists the replies that forgot.",
    forms: [
      { received: CONVERSATION_SET, when: isEvalSet, args: [MIN], options: { ...SET_JUDGE_OPTIONS, empty: RETENTION_EMPTY } },
      { received: CONVERSATION, args: [MIN], options: { ...JUDGE_OPTIONS, empty: RETENTION_EMPTY } },
    ],
    metric: atLeast('knowledge retention', { scale: 1 }),
    example: 'await expect({ turns }).toRetainKnowledge(1)',
    failing: {
      received: {
        turns: [
          { user: 'I am vegetarian.', assistant: 'Noted.' },
          { user: 'A side dish?', assistant: 'Bacon.' },
        ],
      },
      args: [0.8],
    },
    compute: toRetainKnowledge,
  }),
  declareMatcher({
    name: 'toCompleteConversation',
    async: true,
    family: 'judge',
    summary: "Conversation completeness ≥ `min`: the share of the user's requests, across all turns, that the replies addressed; lists the unaddressed requests.",
    forms: [
      { received: CONVERSATION_SET, when: isEvalSet, args: [MIN], options: { ...SET_JUDGE_OPTIONS, empty: COMPLETION_EMPTY } },
      { received: CONVERSATION, args: [MIN], options: { ...JUDGE_OPTIONS, empty: COMPLETION_EMPTY } },
    ],
    metric: atLeast('conversation completeness', { scale: 1 }),
    example: 'await expect({ turns }).toCompleteConversation(1)',
    failing: { received: { turns: [{ user: 'What is the refund window?', assistant: 'Thirty days.' }] }, args: [0.8] },
    compute: toCompleteConversation,
  }),
] as const
