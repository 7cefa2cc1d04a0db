import type { Score } from '../../score.js'
import { keysOf } from '../../option-keys.js'
import { groundednessTemplate as T } from '../templates/groundedness.js'
import type { Judge } from '../types.js'
import { attributeToContexts, emptyRun, extractItems, type ContextVerdictStep } from './extract-then-verify.js'
import { judgedScore } from './judged-score.js'
import {
  assertText,
  normalizeContexts,
  readEmptyPolicy,
  JUDGE_METRIC_OPTION_KEYS,
  readJudgeAndRepeat,
  type CallRecorder,
  type ContextInput,
  type EmptyPolicy,
  type JudgeContext,
  type JudgeDetailsBase,
  type JudgeMetricOptions,
} from './shared.js'

export type ClaimVerdict = 'supported' | 'contradicted' | 'not_found'

export interface ClaimJudgement {
  readonly claim: string
  readonly verdict: ClaimVerdict
  /** 0-based index of the supporting or contradicting context; null for `not_found`. */
  readonly contextIndex: number | null
  readonly contextId: string | null
  readonly reason: string
}

export interface GroundednessDetails extends JudgeDetailsBase {
  readonly claims: readonly ClaimJudgement[]
  readonly total: number
  readonly supported: number
  readonly contradicted: number
  readonly notFound: number
  /** True when the answer made no claim; the value then follows `onEmpty`. */
  readonly empty: boolean
  /** Why the value is what it is when no verdict was asked (no claims, no contexts). */
  readonly note?: string
}

export interface GroundednessOptions extends JudgeMetricOptions {
  /**
   * An answer with no factual claim ("I don't know"): `'vacuous'` → value 1 (it asserts nothing
   * unsupported; completeness catches refusals), `'nan'` → NaN with the reason in `details.note`.
   * Recorded in the signature as `empty:vacuous` / `empty:nan`.
   * @default 'vacuous'
   */
  readonly onEmpty?: EmptyPolicy
}

/** The keys of {@link GroundednessOptions}: what groundedness accepts. */
export const GROUNDEDNESS_OPTION_KEYS = keysOf<GroundednessOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'onEmpty')

/**
 * Groundedness (a.k.a. faithfulness): the share of the answer's claims that the contexts support.
 *
 *   value = supported claims / claims
 *
 * Two judge steps: (1) split the answer into atomic claims; (2) one verdict per claim against all
 * contexts: `supported`, `contradicted` or `not_found`, with the supporting passage and a short reason.
 * Contradicted and not-found claims both count as unsupported; `details` keeps them apart so a message
 * can list contradictions first.
 *
 * Edge cases: no claims → `onEmpty` (default value 1, `empty:vacuous`); an empty `contexts` list →
 * every claim `not_found` without asking the judge (value 0); an empty answer → no claims, no call.
 * Parity: none (LLM-judged); the signature pins template hash, model, temperature and seed, and the cache
 * makes re-runs exact.
 *
 * @example
 * const score = await groundedness('Paris is the capital of France. It has 80 million people.',
 *   ['Paris is the capital and largest city of France.'], judge)
 * score.value // 0.5 (the population claim is not_found)
 * score.signature // 'Judge|metric:groundedness@…|model:llama3.1:8b|temp:0|seed:42|empty:vacuous|version:0.1.0'
 */
export async function groundedness(answer: string, contexts: readonly ContextInput[], judge: Judge, options: GroundednessOptions = {}): Promise<Score<GroundednessDetails>> {
  const fn = 'groundedness'
  assertText(fn, 'answer', answer)
  const ctx = normalizeContexts(fn, 'contexts', contexts, true)
  const repeat = readJudgeAndRepeat(fn, judge, options, GROUNDEDNESS_OPTION_KEYS)
  const onEmpty = readEmptyPolicy(fn, options.onEmpty)
  return judgedScore('groundedness', T, judge, repeat, [['empty', onEmpty]], (recorder, seed) => groundednessOnce(recorder, answer, ctx, seed, onEmpty))
}

/** Alias of {@link groundedness} (the RAGAS name). */
export const faithfulness = groundedness

type RunDetails = Omit<GroundednessDetails, keyof JudgeDetailsBase>

/** Each claim against the numbered contexts; a supported or contradicted claim names its passage. */
const VERIFY: ContextVerdictStep<ClaimVerdict> = {
  template: T,
  step: 'verify',
  label: 'CLAIM',
  key: 'claim',
  none: 'not_found',
  noContextReason: 'no context was given',
  noContextNote: 'no contexts were given, so no claim can be supported',
  namesPassage: (verdict) => verdict !== 'not_found',
}

async function groundednessOnce(
  recorder: CallRecorder,
  answer: string,
  contexts: readonly JudgeContext[],
  seed: number,
  onEmpty: EmptyPolicy,
): Promise<{ value: number; details: RunDetails }> {
  const claims = answer.trim() === '' ? [] : await extractItems(recorder, T, 'claims', [{ label: 'ANSWER', text: answer }], seed)
  if (claims.length === 0) {
    const details = { claims: [], total: 0, supported: 0, contradicted: 0, notFound: 0, empty: true }
    return emptyRun(onEmpty, details, 'the answer makes no factual claim', { vacuous: 'vacuously grounded', nan: 'groundedness is undefined' })
  }
  const { judged: attributions, note } = await attributeToContexts(recorder, VERIFY, seed, claims, contexts)
  const judged: ClaimJudgement[] = attributions.map(({ item, ...rest }) => ({ claim: item, ...rest }))
  const supported = judged.filter((c) => c.verdict === 'supported').length
  const contradicted = judged.filter((c) => c.verdict === 'contradicted').length
  return {
    value: supported / judged.length,
    details: {
      claims: judged,
      total: judged.length,
      supported,
      contradicted,
      notFound: judged.length - supported - contradicted,
      empty: false,
      ...(note === undefined ? {} : { note }),
    },
  }
}
