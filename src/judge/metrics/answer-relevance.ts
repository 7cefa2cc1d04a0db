import type { Score } from '../../score.js'
import { answerRelevanceTemplate as T } from '../templates/answer-relevance.js'
import type { Judge } from '../types.js'
import { judgedScore } from './judged-score.js'
import { MetricInputError } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import { assertNonBlank, assertText, JUDGE_METRIC_OPTION_KEYS, readJudgeAndRepeat, type CallRecorder, type JudgeDetailsBase, type JudgeMetricOptions } from './shared.js'

export interface StatementRelevance {
  readonly statement: string
  readonly relevant: boolean
  readonly reason: string
}

export interface AnswerRelevanceDetails extends JudgeDetailsBase {
  readonly statements: readonly StatementRelevance[]
  readonly total: number
  readonly relevant: number
  readonly empty: boolean
  readonly note?: string
}

export interface AnswerRelevanceOptions extends JudgeMetricOptions {
  /**
   * An answer with no statement: `'zero'` (default) scores 0, since saying nothing does not address the
   * question; `'vacuous'` scores 1 (the matcher's `empty: 'pass'`). Signed `empty:…`.
   * @default 'zero'
   */
  readonly onEmpty?: 'zero' | 'vacuous'
}

const ANSWER_RELEVANCE_OPTION_KEYS = keysOf<AnswerRelevanceOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'onEmpty')

/**
 * Answer relevance: the share of the answer's statements that address the question.
 *
 *   value = relevant statements / statements
 *
 * One judge call splits the answer into statements and marks each relevant or not, with a reason.
 * Truth is not judged here (that is groundedness); only whether the answer talks about what was asked.
 * Edge case: an answer with no statement (or an empty answer, which makes no call) scores 0 with a note:
 * saying nothing does not address the question (`empty:zero`; `onEmpty: 'vacuous'` scores it 1). A blank
 * question is refused before any call. Parity: none (LLM-judged).
 *
 * @example
 * const score = await answerRelevance('What is the capital of France?', 'Paris. I like trains.', judge)
 * score.value // 0.5
 */
export async function answerRelevance(question: string, answer: string, judge: Judge, options: AnswerRelevanceOptions = {}): Promise<Score<AnswerRelevanceDetails>> {
  const fn = 'answerRelevance'
  assertNonBlank(fn, 'question', question)
  assertText(fn, 'answer', answer)
  const repeat = readJudgeAndRepeat(fn, judge, options, ANSWER_RELEVANCE_OPTION_KEYS)
  const onEmpty = options?.onEmpty ?? 'zero'
  if (onEmpty !== 'zero' && onEmpty !== 'vacuous') throw new MetricInputError(fn, 'options.onEmpty', "'zero' or 'vacuous'", options?.onEmpty)

  const once = async (recorder: CallRecorder, seed: number): Promise<{ value: number; details: Omit<AnswerRelevanceDetails, keyof JudgeDetailsBase> }> => {
    const statements =
      answer.trim() === ''
        ? []
        : (
            await recorder.ask<{ statements: StatementRelevance[] }>(
              T,
              'statements',
              [
                { label: 'QUESTION', text: question },
                { label: 'ANSWER', text: answer },
              ],
              seed,
            )
          ).statements.map((s) => ({ statement: s.statement, relevant: s.relevant, reason: s.reason }))
    if (statements.length === 0) {
      const note = onEmpty === 'zero' ? 'it does not address the question (empty:zero)' : 'vacuously relevant (empty:vacuous)'
      return { value: onEmpty === 'zero' ? 0 : 1, details: { statements: [], total: 0, relevant: 0, empty: true, note: `the answer has no statement: ${note}` } }
    }
    const relevant = statements.filter((s) => s.relevant).length
    return { value: relevant / statements.length, details: { statements, total: statements.length, relevant, empty: false } }
  }

  return judgedScore('answerRelevance', T, judge, repeat, [['empty', onEmpty]], once)
}
