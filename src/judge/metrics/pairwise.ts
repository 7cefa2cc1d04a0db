import type { Score } from '../../score.js'
import { keysOf } from '../../option-keys.js'
import { sha256Hex } from '../hash.js'
import { pairwiseTemplate as T } from '../templates/pairwise.js'
import type { Judge } from '../types.js'
import { judgedScore } from './judged-score.js'
import {
  assertNonBlank,
  assertText,
  optionalSection,
  optionalText,
  JUDGE_METRIC_OPTION_KEYS,
  readJudgeAndRepeat,
  type CallRecorder,
  type JudgeDetailsBase,
  type JudgeMetricOptions,
} from './shared.js'

export type PairwiseWinner = 'A' | 'B' | 'tie'

export interface PairwiseOrderVerdict {
  /** `AB`: answer A shown first; `BA`: answer B shown first. */
  readonly order: 'AB' | 'BA'
  /** What the judge said, by position. */
  readonly choice: 'first' | 'second' | 'tie'
  /** The same choice mapped back to the answers. */
  readonly preferred: PairwiseWinner
  readonly reason: string
}

export interface PairwiseDetails extends JudgeDetailsBase {
  readonly winner: PairwiseWinner
  /** Both orders named the same winner (or both said tie). */
  readonly consistent: boolean
  readonly verdicts: readonly [PairwiseOrderVerdict, PairwiseOrderVerdict]
}

export interface PairwiseOptions extends JudgeMetricOptions {
  /** What "better" means; shown to the judge and hashed into the signature (`criteria:<hash8>`). */
  readonly criteria?: string
}

/** The keys of {@link PairwiseOptions}: what pairwiseJudge accepts. */
export const PAIRWISE_OPTION_KEYS = keysOf<PairwiseOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'criteria')

/**
 * Pairwise preference between two answers, robust to position bias: the judge is asked in BOTH orders
 * (A first, then B first) and a winner counts only when both orders agree; any disagreement is a tie.
 *
 *   value = 1 if A wins, 0.5 for a tie, 0 if B wins
 *
 * `details.verdicts` keeps each order's raw choice, so a position-biased judge is visible
 * (`consistent: false`). With `repeat`, the value is the mean over runs. Parity: none (LLM-judged).
 *
 * @example
 * const score = await pairwiseJudge('Capital of France?', 'Paris.', 'Lyon.', judge)
 * score.details.winner // 'A'
 * score.value // 1
 */
export async function pairwiseJudge(question: string, answerA: string, answerB: string, judge: Judge, options: PairwiseOptions = {}): Promise<Score<PairwiseDetails>> {
  const fn = 'pairwiseJudge'
  assertNonBlank(fn, 'question', question)
  assertText(fn, 'answerA', answerA)
  assertText(fn, 'answerB', answerB)
  const repeat = readJudgeAndRepeat(fn, judge, options, PAIRWISE_OPTION_KEYS)
  const criteria = optionalText(fn, 'options.criteria', options.criteria)

  const ask = async (recorder: CallRecorder, order: 'AB' | 'BA', seed: number): Promise<PairwiseOrderVerdict> => {
    const [first, second] = order === 'AB' ? [answerA, answerB] : [answerB, answerA]
    const reply = await recorder.ask<{ reason: string; winner: 'first' | 'second' | 'tie' }>(
      T,
      'compare',
      [{ label: 'QUESTION', text: question }, ...optionalSection('CRITERIA', criteria), { label: 'FIRST ANSWER', text: first }, { label: 'SECOND ANSWER', text: second }],
      seed,
    )
    const preferred: PairwiseWinner = reply.winner === 'tie' ? 'tie' : (reply.winner === 'first') === (order === 'AB') ? 'A' : 'B'
    return { order, choice: reply.winner, preferred, reason: reply.reason }
  }

  const once = async (recorder: CallRecorder, seed: number) => {
    const verdicts = (await Promise.all([ask(recorder, 'AB', seed), ask(recorder, 'BA', seed)])) as [PairwiseOrderVerdict, PairwiseOrderVerdict]
    const consistent = verdicts[0].preferred === verdicts[1].preferred
    const winner: PairwiseWinner = consistent ? verdicts[0].preferred : 'tie'
    return { value: winner === 'A' ? 1 : winner === 'B' ? 0 : 0.5, details: { winner, consistent, verdicts } }
  }

  const signatureExtras = [
    ['orders', 'both'],
    ['criteria', criteria === undefined ? undefined : sha256Hex(criteria).slice(0, 8)],
  ] as const
  return judgedScore('pairwise', T, judge, repeat, signatureExtras, once)
}
