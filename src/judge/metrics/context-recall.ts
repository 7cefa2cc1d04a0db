import { makeScore, type Score } from '../../score.js'
import { contextRecallTemplate as T } from '../templates/context-recall.js'
import type { Judge } from '../types.js'
import {
  assertJudge,
  assertText,
  byNumber,
  CallRecorder,
  contextRef,
  contextSections,
  judgeSignature,
  normalizeContexts,
  numberedProblems,
  readEmptyPolicy,
  readRepeat,
  repeated,
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
  assertText(fn, 'reference', reference)
  const ctx = normalizeContexts(fn, 'contexts', contexts, true)
  assertJudge(fn, judge)
  const repeat = readRepeat(fn, options)
  const onEmpty = readEmptyPolicy(fn, options.onEmpty)
  const recorder = new CallRecorder(judge)
  const result = await repeated(judge, repeat, (seed) => recallOnce(recorder, reference, ctx, seed, onEmpty))
  return makeScore('contextRecall', result.value, judgeSignature(T, judge, repeat, [['empty', onEmpty]]), {
    ...result.details,
    model: judge.model,
    temperature: judge.temperature,
    seed: judge.seed,
    calls: recorder.stats(),
    ...(result.consistency === undefined ? {} : { consistency: result.consistency }),
  })
}

type RunDetails = Omit<ContextRecallDetails, keyof JudgeDetailsBase>

async function recallOnce(
  recorder: CallRecorder,
  reference: string,
  contexts: readonly JudgeContext[],
  seed: number,
  onEmpty: EmptyPolicy,
): Promise<{ value: number; details: RunDetails }> {
  const statements =
    reference.trim() === ''
      ? []
      : (await recorder.ask<{ statements: string[] }>(T, 'statements', [{ label: 'REFERENCE', text: reference }], seed)).statements
  if (statements.length === 0) {
    const details = { statements: [], total: 0, attributed: 0, empty: true }
    return onEmpty === 'vacuous'
      ? { value: 1, details: { ...details, note: 'the reference states nothing: vacuous recall (empty:vacuous)' } }
      : { value: Number.NaN, details: { ...details, note: 'the reference states nothing: recall is undefined (empty:nan)' } }
  }
  let judged: StatementAttribution[]
  let note: string | undefined
  if (contexts.length === 0) {
    judged = statements.map((statement) => ({ statement, verdict: 'not_attributed', contextIndex: null, contextId: null, reason: 'no context was retrieved' }))
    note = 'no contexts were given, so nothing can be attributed'
  } else {
    type Verdict = { statement: number; reason: string; verdict: 'attributed' | 'not_attributed'; context: number }
    const reply = await recorder.ask<{ verdicts: Verdict[] }>(
      T,
      'attribute',
      [...statements.map((text, i) => ({ label: `STATEMENT ${i + 1}`, text })), ...contextSections(contexts)],
      seed,
      (v) => numberedProblems(v.verdicts, 'statement', statements.length, contexts.length),
    )
    judged = byNumber(reply.verdicts, 'statement').map((v) => ({
      statement: statements[v.statement - 1] as string,
      verdict: v.verdict,
      ...(v.verdict === 'attributed' ? contextRef(contexts, v.context) : { contextIndex: null, contextId: null }),
      reason: v.reason,
    }))
  }
  const attributed = judged.filter((s) => s.verdict === 'attributed').length
  return {
    value: attributed / judged.length,
    details: { statements: judged, total: judged.length, attributed, empty: false, ...(note === undefined ? {} : { note }) },
  }
}
