import { readTurns, type ConversationTurn } from '../../conversation/turns.js'
import { keysOf } from '../../option-keys.js'
import type { Score } from '../../score.js'
import type { PromptSection } from '../prompt.js'
import { knowledgeRetentionTemplate as T } from '../templates/knowledge-retention.js'
import type { Judge } from '../types.js'
import { emptyRun } from './extract-then-verify.js'
import { judgedScore } from './judged-score.js'
import { readEmptyPolicy, JUDGE_METRIC_OPTION_KEYS, readJudgeAndRepeat, type EmptyPolicy, type JudgeDetailsBase, type JudgeMetricOptions } from './shared.js'

export interface TurnRetention {
  /** 1-based turn number of the judged reply (2 … turns). */
  readonly turn: number
  readonly verdict: 'retained' | 'forgotten'
  readonly reason: string
}

export interface KnowledgeRetentionDetails extends JudgeDetailsBase {
  /** One verdict per reply after the first, in turn order. */
  readonly turns: readonly TurnRetention[]
  readonly total: number
  readonly retained: number
  readonly forgotten: number
  /** True for a one-turn conversation: no reply has an earlier turn to retain. */
  readonly empty: boolean
  readonly note?: string
}

export interface KnowledgeRetentionOptions extends JudgeMetricOptions {
  /** A one-turn conversation: `'vacuous'` → 1, `'nan'` → NaN with a note. Signed `empty:…`. @default 'vacuous' */
  readonly onEmpty?: EmptyPolicy
}

/** The keys of {@link KnowledgeRetentionOptions}: what knowledgeRetention accepts. */
export const KNOWLEDGE_RETENTION_OPTION_KEYS = keysOf<KnowledgeRetentionOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'onEmpty')

/** The turns before `k` (0-based) as `TURN n USER` / `TURN n ASSISTANT` sections. */
export function historySections(turns: readonly ConversationTurn[], k: number): PromptSection[] {
  return turns.slice(0, k).flatMap((t, i) => [
    { label: `TURN ${i + 1} USER`, text: t.user },
    { label: `TURN ${i + 1} ASSISTANT`, text: t.assistant },
  ])
}

/**
 * Knowledge retention of a conversation: the share of the assistant's replies after the first that keep
 * what the earlier turns established.
 *
 *   value = retained replies / (turns − 1)
 *
 * One judge call per reply k ≥ 2, shown turns 1…k−1 in full, the user's message of turn k and the reply:
 * `forgotten` when the reply contradicts an earlier fact, asks again for what the user already said, or
 * ignores an established fact that changes the answer (DeepEval's knowledge retention asks the same
 * question; this wording and the per-reply verdict are ours). A reply that needs no earlier fact is
 * retained. Edge cases: one turn → `onEmpty` (default 1, `empty:vacuous`); no turns, or a turn without a
 * string `user`/`assistant`, throws naming the turn. Parity: none (LLM-judged).
 *
 * @example
 * const score = await knowledgeRetention([
 *   { user: 'I am vegetarian. Suggest a dinner.', assistant: 'A mushroom risotto.' },
 *   { user: 'And a side?', assistant: 'Bacon-wrapped asparagus.' },
 * ], judge)
 * score.details.turns // [{ turn: 2, verdict: 'forgotten', reason: 'Bacon ignores that the user is vegetarian.' }]
 * score.value // 0
 */
export async function knowledgeRetention(
  turns: readonly ConversationTurn[],
  judge: Judge,
  options: KnowledgeRetentionOptions = {},
): Promise<Score<KnowledgeRetentionDetails>> {
  const fn = 'knowledgeRetention'
  const read = readTurns(fn, 'turns', turns)
  const repeat = readJudgeAndRepeat(fn, judge, options, KNOWLEDGE_RETENTION_OPTION_KEYS)
  const onEmpty = readEmptyPolicy(fn, options.onEmpty)

  return judgedScore<Omit<KnowledgeRetentionDetails, keyof JudgeDetailsBase>>('knowledgeRetention', T, judge, repeat, [['empty', onEmpty]], async (recorder, seed) => {
    if (read.length < 2) {
      const details = { turns: [], total: 0, retained: 0, forgotten: 0, empty: true }
      return emptyRun(onEmpty, details, 'a one-turn conversation has no earlier turn to retain', {
        vacuous: 'vacuously retained',
        nan: 'knowledge retention is undefined',
      })
    }
    // The replies are independent questions; the judge bounds its own requests.
    const judged = await Promise.all(
      read.slice(1).map(async (t, i) => {
        const k = i + 1
        const sections = [...historySections(read, k), { label: 'LATEST USER', text: t.user }, { label: 'REPLY', text: t.assistant }]
        const reply = await recorder.ask<{ reason: string; verdict: 'retained' | 'forgotten' }>(T, 'retain', sections, seed)
        return { turn: k + 1, verdict: reply.verdict, reason: reply.reason }
      }),
    )
    const retained = judged.filter((t) => t.verdict === 'retained').length
    return { value: retained / judged.length, details: { turns: judged, total: judged.length, retained, forgotten: judged.length - retained, empty: false } }
  })
}
