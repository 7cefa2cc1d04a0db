import { readTurns, type ConversationTurn } from '../../conversation/turns.js'
import { keysOf } from '../../option-keys.js'
import type { Score } from '../../score.js'
import { conversationCompletenessTemplate as T } from '../templates/conversation-completeness.js'
import type { Judge } from '../types.js'
import { emptyRun, extractItems, verdictPerItem, type VerdictStep } from './extract-then-verify.js'
import { judgedScore } from './judged-score.js'
import { historySections } from './knowledge-retention.js'
import { readEmptyPolicy, JUDGE_METRIC_OPTION_KEYS, readJudgeAndRepeat, type EmptyPolicy, type JudgeDetailsBase, type JudgeMetricOptions } from './shared.js'

export interface RequestJudgement {
  readonly request: string
  readonly verdict: 'addressed' | 'unaddressed'
  readonly reason: string
}

export interface ConversationCompletenessDetails extends JudgeDetailsBase {
  readonly requests: readonly RequestJudgement[]
  readonly total: number
  readonly addressed: number
  readonly unaddressed: number
  /** True when the user asked for nothing; the value then follows `onEmpty`. */
  readonly empty: boolean
  readonly note?: string
}

export interface ConversationCompletenessOptions extends JudgeMetricOptions {
  /** A conversation in which the user asks for nothing: `'vacuous'` → 1, `'nan'` → NaN with a note. Signed `empty:…`. @default 'vacuous' */
  readonly onEmpty?: EmptyPolicy
}

/** The keys of {@link ConversationCompletenessOptions}: what conversationCompleteness accepts. */
export const CONVERSATION_COMPLETENESS_OPTION_KEYS = keysOf<ConversationCompletenessOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'onEmpty')

/**
 * Conversation completeness: the share of the user's requests, across all turns, that the assistant's
 * replies addressed.
 *
 *   value = addressed requests / requests
 *
 * Two judge steps: list the user's requests from the user messages alone (a request refined in a later
 * turn is one request), then one verdict per request (`addressed` / `unaddressed`) against the whole
 * conversation (DeepEval's conversation completeness asks the same question; the wording is ours).
 * Edge cases: no request → `onEmpty` (default 1, `empty:vacuous`); no turns, or a turn without a string
 * `user`/`assistant`, throws naming the turn. Parity: none (LLM-judged).
 *
 * @example
 * const score = await conversationCompleteness([
 *   { user: 'What is the refund window, and how do I ship a return?', assistant: 'Refunds are accepted within 30 days.' },
 * ], judge)
 * score.details.requests // [{ request: 'the refund window', verdict: 'addressed', … }, { request: 'how to ship a return', verdict: 'unaddressed', … }]
 * score.value // 0.5
 */
export async function conversationCompleteness(
  turns: readonly ConversationTurn[],
  judge: Judge,
  options: ConversationCompletenessOptions = {},
): Promise<Score<ConversationCompletenessDetails>> {
  const fn = 'conversationCompleteness'
  const read = readTurns(fn, 'turns', turns)
  const repeat = readJudgeAndRepeat(fn, judge, options, CONVERSATION_COMPLETENESS_OPTION_KEYS)
  const onEmpty = readEmptyPolicy(fn, options.onEmpty)
  const userSections = read.map((t, i) => ({ label: `USER ${i + 1}`, text: t.user }))

  return judgedScore<Omit<ConversationCompletenessDetails, keyof JudgeDetailsBase>>(
    'conversationCompleteness',
    T,
    judge,
    repeat,
    [['empty', onEmpty]],
    async (recorder, seed) => {
      const requests = await extractItems(recorder, T, 'requests', userSections, seed)
      if (requests.length === 0) {
        const details = { requests: [], total: 0, addressed: 0, unaddressed: 0, empty: true }
        return emptyRun(onEmpty, details, 'the user asked for nothing', { vacuous: 'vacuously complete', nan: 'conversation completeness is undefined' })
      }
      const verdicts = await verdictPerItem<RequestVerdict>(recorder, ADDRESSED, seed, requests, historySections(read, read.length))
      const judged = verdicts.map(({ item, reply }) => ({ request: item, verdict: reply.verdict, reason: reply.reason }))
      const addressed = judged.filter((r) => r.verdict === 'addressed').length
      return {
        value: addressed / judged.length,
        details: { requests: judged, total: judged.length, addressed, unaddressed: judged.length - addressed, empty: false },
      }
    },
  )
}

/** Each request against the whole conversation. */
const ADDRESSED: VerdictStep = { template: T, step: 'addressed', label: 'REQUEST', key: 'request' }
type RequestVerdict = { request: number; reason: string; verdict: 'addressed' | 'unaddressed' }
