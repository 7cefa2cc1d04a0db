import type { Score } from '../../score.js'
import { keysOf } from '../../option-keys.js'
import { contextUtilizationTemplate as T } from '../templates/context-utilization.js'
import type { Judge } from '../types.js'
import { judgedScore } from './judged-score.js'
import {
  assertText,
  normalizeContexts,
  optionalText,
  JUDGE_METRIC_OPTION_KEYS,
  readJudgeAndRepeat,
  type CallRecorder,
  type ContextInput,
  type JudgeDetailsBase,
  type JudgeMetricOptions,
} from './shared.js'

export interface ChunkUse {
  readonly index: number
  readonly id: string
  readonly used: boolean
  /** Whether the chunk helps answer the question; only when a question was given. */
  readonly relevant?: boolean
  readonly reason: string
}

export interface ContextUtilizationDetails extends JudgeDetailsBase {
  readonly chunks: readonly ChunkUse[]
  readonly total: number
  /** Ids of the chunks the answer used. */
  readonly used: readonly string[]
  /** Ids of the chunks the answer ignored, with their relevance when a question was given. */
  readonly unused: ReadonlyArray<{ readonly id: string; readonly index: number; readonly relevant?: boolean }>
  /** Ignored chunks that were relevant to the question (ignored-good); only with a question. */
  readonly ignoredRelevant?: readonly string[]
  /** Ignored chunks that were not relevant (ignored-noise: fine to ignore); only with a question. */
  readonly ignoredNoise?: readonly string[]
  readonly note?: string
}

export interface ContextUtilizationOptions extends JudgeMetricOptions {
  /** When given, each chunk is also judged relevant or not, so unused chunks split into ignored-good and ignored-noise (`q:yes`). */
  readonly question?: string
}

/** The keys of {@link ContextUtilizationOptions}: what contextUtilization accepts. */
export const CONTEXT_UTILIZATION_OPTION_KEYS = keysOf<ContextUtilizationOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'question')

/**
 * Context utilization: the share of the given chunks the answer actually draws on.
 *
 *   value = chunks used by the answer / chunks
 *
 * One judge call per chunk (each judged on its own, so a chunk's verdict does not depend on its
 * neighbours; the judge bounds the concurrency): `used` and a reason, plus `relevant` when a question is
 * given. `details.unused` lists the ignored chunk ids; with a question, `ignoredRelevant` (good context
 * the answer missed) and `ignoredNoise` (irrelevant context, rightly ignored) tell them apart.
 * Edge cases: an empty `contexts` list → NaN with a note (0/0); an empty answer uses nothing (value 0,
 * no calls without a question). Parity: none (LLM-judged).
 *
 * @example
 * const score = await contextUtilization('Paris is the capital.', ['Paris is the capital of France.', 'Lyon has 500k people.'], judge, { question: 'What is the capital of France?' })
 * score.value // 0.5
 * score.details.ignoredNoise // ['1']
 */
export async function contextUtilization(
  answer: string,
  contexts: readonly ContextInput[],
  judge: Judge,
  options: ContextUtilizationOptions = {},
): Promise<Score<ContextUtilizationDetails>> {
  const fn = 'contextUtilization'
  assertText(fn, 'answer', answer)
  const ctx = normalizeContexts(fn, 'contexts', contexts, true)
  const repeat = readJudgeAndRepeat(fn, judge, options, CONTEXT_UTILIZATION_OPTION_KEYS)
  const question = optionalText(fn, 'options.question', options.question)

  const once = async (recorder: CallRecorder, seed: number): Promise<{ value: number; details: Omit<ContextUtilizationDetails, keyof JudgeDetailsBase> }> => {
    if (ctx.length === 0) {
      return { value: Number.NaN, details: { chunks: [], total: 0, used: [], unused: [], note: 'no contexts were given: utilization is undefined (0/0)' } }
    }
    const chunks: ChunkUse[] = await Promise.all(
      ctx.map(async (c): Promise<ChunkUse> => {
        if (question === undefined) {
          if (answer.trim() === '') return { index: c.index, id: c.id, used: false, reason: 'the answer is empty' }
          const r = await recorder.ask<{ reason: string; used: boolean }>(
            T,
            'used',
            [
              { label: 'ANSWER', text: answer },
              { label: 'CONTEXT', text: c.text },
            ],
            seed,
          )
          return { index: c.index, id: c.id, used: r.used, reason: r.reason }
        }
        const r = await recorder.ask<{ reason: string; used: boolean; relevant: boolean }>(
          T,
          'usedAndRelevant',
          [
            { label: 'QUESTION', text: question },
            { label: 'ANSWER', text: answer },
            { label: 'CONTEXT', text: c.text },
          ],
          seed,
        )
        // An empty answer cannot use anything, whatever the model says; the relevance verdict still counts.
        return { index: c.index, id: c.id, used: answer.trim() !== '' && r.used, relevant: r.relevant, reason: r.reason }
      }),
    )
    const unusedChunks = chunks.filter((c) => !c.used)
    const details = {
      chunks,
      total: chunks.length,
      used: chunks.filter((c) => c.used).map((c) => c.id),
      unused: unusedChunks.map((c) => ({ id: c.id, index: c.index, ...(c.relevant === undefined ? {} : { relevant: c.relevant }) })),
      ...(question === undefined
        ? {}
        : {
            ignoredRelevant: unusedChunks.filter((c) => c.relevant === true).map((c) => c.id),
            ignoredNoise: unusedChunks.filter((c) => c.relevant === false).map((c) => c.id),
          }),
    }
    return { value: details.used.length / chunks.length, details }
  }

  return judgedScore('contextUtilization', T, judge, repeat, [['q', question !== undefined]], once)
}
