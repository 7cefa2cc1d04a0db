import type { Score } from '../../score.js'
import { keysOf } from '../../option-keys.js'
import { contextRecallTemplate as T } from '../templates/context-recall.js'
import type { Judge } from '../types.js'
import { attributeToContexts, emptyRun, extractItems, type ContextVerdictStep } from './extract-then-verify.js'
import { judgedScore } from './judged-score.js'
import {
  assertNonBlank,
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

export interface StatementAttribution {
  readonly statement: string
  readonly verdict: 'attributed' | 'not_attributed'
  /** 0-based index of the context the statement comes from; null when not attributed. */
  readonly contextIndex: number | null
  readonly contextId: string | null
  readonly reason: string
}

export interface ContextRecallDetails extends JudgeDetailsBase {
  readonly statements: readonly StatementAttribution[]
  readonly total: number
  readonly attributed: number
  /** True when the reference states nothing; the value then follows `onEmpty`. */
  readonly empty: boolean
  readonly note?: string
}

export interface ContextRecallOptions extends JudgeMetricOptions {
  /** A reference with no statement: `'vacuous'` → 1, `'nan'` → NaN with a note. Signed `empty:…`. @default 'vacuous' */
  readonly onEmpty?: EmptyPolicy
}

/** The keys of {@link ContextRecallOptions}: what contextRecall accepts. */
export const CONTEXT_RECALL_OPTION_KEYS = keysOf<ContextRecallOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'onEmpty')

/**
 * Context recall: the share of the reference answer's statements that the retrieved contexts account for
 * (did retrieval bring back everything the right answer needs?).
 *
 *   value = attributed statements / statements of the reference
 *
 * Two judge steps: split the reference into atomic statements, then one verdict per statement
 * (`attributed` / `not_attributed`) with the passage it comes from and a reason.
 * Edge cases: no statements → `onEmpty` (default 1, `empty:vacuous`); no contexts → every statement
 * `not_attributed` without a call (value 0). Parity: none (LLM-judged); see the signature.
 *
 * @example
 * const score = await contextRecall('Paris is the capital of France and lies on the Seine.',
 *   ['Paris is the capital of France.'], judge)
 * score.value // 0.5 (the Seine is not in the contexts)
 */
export async function contextRecall(
  reference: string,
  contexts: readonly ContextInput[],
  judge: Judge,
  options: ContextRecallOptions = {},
): Promise<Score<ContextRecallDetails>> {
  const fn = 'contextRecall'
  assertNonBlank(fn, 'reference', reference)
  const ctx = normalizeContexts(fn, 'contexts', contexts, true)
  const repeat = readJudgeAndRepeat(fn, judge, options, CONTEXT_RECALL_OPTION_KEYS)
  const onEmpty = readEmptyPolicy(fn, options.onEmpty)
  return judgedScore('contextRecall', T, judge, repeat, [['empty', onEmpty]], (recorder, seed) => recallOnce(recorder, reference, ctx, seed, onEmpty))
}

type RunDetails = Omit<ContextRecallDetails, keyof JudgeDetailsBase>

/** Each reference statement against the numbered contexts; an attributed one names its passage. */
const ATTRIBUTE: ContextVerdictStep<StatementAttribution['verdict']> = {
  template: T,
  step: 'attribute',
  label: 'STATEMENT',
  key: 'statement',
  none: 'not_attributed',
  noContextReason: 'no context was retrieved',
  noContextNote: 'no contexts were given, so nothing can be attributed',
  namesPassage: (verdict) => verdict === 'attributed',
}

async function recallOnce(
  recorder: CallRecorder,
  reference: string,
  contexts: readonly JudgeContext[],
  seed: number,
  onEmpty: EmptyPolicy,
): Promise<{ value: number; details: RunDetails }> {
  const statements = reference.trim() === '' ? [] : await extractItems(recorder, T, 'statements', [{ label: 'REFERENCE', text: reference }], seed)
  if (statements.length === 0) {
    const details = { statements: [], total: 0, attributed: 0, empty: true }
    return emptyRun(onEmpty, details, 'the reference states nothing', { vacuous: 'vacuous recall', nan: 'recall is undefined' })
  }
  const { judged: attributions, note } = await attributeToContexts(recorder, ATTRIBUTE, seed, statements, contexts)
  const judged: StatementAttribution[] = attributions.map(({ item, ...rest }) => ({ statement: item, ...rest }))
  const attributed = judged.filter((s) => s.verdict === 'attributed').length
  return {
    value: attributed / judged.length,
    details: { statements: judged, total: judged.length, attributed, empty: false, ...(note === undefined ? {} : { note }) },
  }
}
