import type { Score } from '../../score.js'
import { contextPrecisionTemplate as T } from '../templates/context-precision.js'
import type { Judge } from '../types.js'
import { judgedScore } from './judged-score.js'
import {
  assertNonBlank,
  JUDGE_METRIC_OPTION_KEYS,
  normalizeContexts,
  readJudgeAndRepeat,
  type CallRecorder,
  type ContextInput,
  type JudgeDetailsBase,
  type JudgeMetricOptions,
} from './shared.js'

export interface RankedChunkRelevance {
  /** 1-based rank (the order of `contexts`). */
  readonly rank: number
  readonly index: number
  readonly id: string
  readonly relevant: boolean
  readonly reason: string
  /** Relevant chunks in the top `rank` / `rank`. */
  readonly precisionAtRank: number
}

export interface ContextPrecisionDetails extends JudgeDetailsBase {
  readonly chunks: readonly RankedChunkRelevance[]
  readonly total: number
  readonly relevant: number
  readonly note?: string
}

/**
 * Context precision, rank-aware: average precision over per-chunk relevance verdicts, so relevant chunks
 * ranked high score better than the same chunks ranked low.
 *
 *   value = Σ_k ( precision@k · rel_k ) / (number of relevant chunks),   rel_k ∈ {0, 1}
 *
 * One judge call per chunk: is it useful for arriving at `reference` as the answer to `question`?
 * Conventions: no relevant chunk (or no chunk) → 0 with a note (nothing useful was retrieved, the same
 * convention as average precision in trec_eval with no relevant document). The denominator counts only
 * the relevant chunks among those retrieved (RAGAS context precision), not a qrels total.
 * Parity: none (LLM-judged); the AP arithmetic is tested on scripted verdicts.
 *
 * @example
 * // verdicts by rank: relevant, not relevant, relevant
 * const score = await contextPrecision('Capital of France?', [c1, c2, c3], 'Paris', judge)
 * score.value // (1/1 + 2/3) / 2 = 0.8333…
 */
export async function contextPrecision(
  question: string,
  contexts: readonly ContextInput[],
  reference: string,
  judge: Judge,
  options: JudgeMetricOptions = {},
): Promise<Score<ContextPrecisionDetails>> {
  const fn = 'contextPrecision'
  assertNonBlank(fn, 'question', question)
  const ctx = normalizeContexts(fn, 'contexts', contexts, true)
  assertNonBlank(fn, 'reference', reference)
  const repeat = readJudgeAndRepeat(fn, judge, options, JUDGE_METRIC_OPTION_KEYS)

  const once = async (recorder: CallRecorder, seed: number): Promise<{ value: number; details: Omit<ContextPrecisionDetails, keyof JudgeDetailsBase> }> => {
    const verdicts = await Promise.all(
      ctx.map((c) =>
        recorder.ask<{ reason: string; relevant: boolean }>(
          T,
          'relevance',
          [
            { label: 'QUESTION', text: question },
            { label: 'REFERENCE', text: reference },
            { label: 'CONTEXT', text: c.text },
          ],
          seed,
        ),
      ),
    )
    let hits = 0
    let sum = 0
    const chunks = ctx.map((c, i): RankedChunkRelevance => {
      const v = verdicts[i] as { reason: string; relevant: boolean }
      if (v.relevant) hits++
      const precisionAtRank = hits / (i + 1)
      if (v.relevant) sum += precisionAtRank
      return { rank: i + 1, index: c.index, id: c.id, relevant: v.relevant, reason: v.reason, precisionAtRank }
    })
    if (hits === 0) {
      const note = ctx.length === 0 ? 'no contexts were retrieved: precision 0' : 'no retrieved chunk is relevant: precision 0'
      return { value: 0, details: { chunks, total: chunks.length, relevant: 0, note } }
    }
    return { value: sum / hits, details: { chunks, total: chunks.length, relevant: hits } }
  }

  return judgedScore('contextPrecision', T, judge, repeat, [['agg', 'ap']], once)
}
