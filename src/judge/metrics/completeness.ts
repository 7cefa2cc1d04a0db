import { MetricInputError } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import type { Score } from '../../score.js'
import type { PromptSection } from '../prompt.js'
import { completenessTemplate as T } from '../templates/completeness.js'
import type { Judge } from '../types.js'
import { emptyRun, extractItems, verdictPerItem, type VerdictStep } from './extract-then-verify.js'
import { judgedScore } from './judged-score.js'
import {
  assertNonBlank,
  assertText,
  contextSections,
  normalizeContexts,
  optionalSection,
  optionalText,
  readEmptyPolicy,
  JUDGE_METRIC_OPTION_KEYS,
  readJudgeAndRepeat,
  type CallRecorder,
  type ContextInput,
  type EmptyPolicy,
  type JudgeDetailsBase,
  type JudgeMetricOptions,
  type RunResult,
} from './shared.js'

/** What the answer should be complete against: the retrieved contexts, or a reference answer. */
export type CompletenessSource = { readonly contexts: readonly ContextInput[] } | { readonly reference: string }

export interface KeyPointJudgement {
  readonly point: string
  readonly verdict: 'covered' | 'missing'
  readonly reason: string
}

export interface CompletenessDetails extends JudgeDetailsBase {
  readonly source: 'contexts' | 'reference'
  readonly points: readonly KeyPointJudgement[]
  readonly total: number
  readonly covered: number
  readonly missing: number
  /** True when the source yields no key point; the value then follows `onEmpty`. */
  readonly empty: boolean
  readonly note?: string
}

export interface CompletenessOptions extends JudgeMetricOptions {
  /** Focuses the key points on this question (recorded as `q:yes`). */
  readonly question?: string
  /** A source without key points: `'vacuous'` → 1, `'nan'` → NaN with a note. Signed `empty:…`. @default 'vacuous' */
  readonly onEmpty?: EmptyPolicy
}

/** The keys of {@link CompletenessOptions}: what completeness accepts. */
export const COMPLETENESS_OPTION_KEYS = keysOf<CompletenessOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'question', 'onEmpty')

/**
 * Completeness: the share of the source's key points that the answer conveys.
 *
 *   value = covered key points / key points of the source
 *
 * Two judge steps: list the key points of the source (the reference answer, or the contexts taken
 * together; only those bearing on `question` when given), then one verdict per point (`covered` /
 * `missing`) with a reason. The signature records `source:reference|contexts` and `q:yes|no`.
 * Edge cases: no key points → `onEmpty` (default 1, `empty:vacuous`); `{ contexts: [] }` throws (nothing to
 * be complete against); an empty answer still gets verdicts (everything missing).
 * Parity: none (LLM-judged).
 *
 * @example
 * const score = await completeness('Paris.', { reference: 'Paris, on the Seine, is the capital of France.' }, judge)
 * score.details.points // [{ point: 'Paris is the capital of France', verdict: 'covered', … }, { point: 'Paris lies on the Seine', verdict: 'missing', … }]
 * score.value // 0.5
 */
export async function completeness(answer: string, source: CompletenessSource, judge: Judge, options: CompletenessOptions = {}): Promise<Score<CompletenessDetails>> {
  const fn = 'completeness'
  assertText(fn, 'answer', answer)
  let kind: 'contexts' | 'reference'
  let sourceSections: PromptSection[]
  if (source !== null && typeof source === 'object' && 'reference' in source && !('contexts' in source)) {
    assertNonBlank(fn, 'source.reference', source.reference)
    kind = 'reference'
    sourceSections = [{ label: 'SOURCE', text: source.reference }]
  } else if (source !== null && typeof source === 'object' && 'contexts' in source && !('reference' in source)) {
    kind = 'contexts'
    sourceSections = contextSections(normalizeContexts(fn, 'source.contexts', source.contexts, false)).map((s, i) => ({
      label: `SOURCE ${i + 1}`,
      text: s.text,
    }))
  } else {
    throw new MetricInputError(fn, 'source', '{ contexts } or { reference } (exactly one)', source)
  }
  const repeat = readJudgeAndRepeat(fn, judge, options, COMPLETENESS_OPTION_KEYS)
  const onEmpty = readEmptyPolicy(fn, options.onEmpty)
  const question = optionalText(fn, 'options.question', options.question)

  const once = async (recorder: CallRecorder, seed: number): Promise<RunResult<Omit<CompletenessDetails, keyof JudgeDetailsBase>>> => {
    const points = await extractItems(recorder, T, 'points', [...optionalSection('QUESTION', question), ...sourceSections], seed)
    if (points.length === 0) {
      const details = { source: kind, points: [], total: 0, covered: 0, missing: 0, empty: true }
      return emptyRun(onEmpty, details, 'the source has no key point', { vacuous: 'vacuously complete', nan: 'completeness is undefined' })
    }
    const verdicts = await verdictPerItem<KeyPointVerdict>(recorder, COVER, seed, points, [{ label: 'ANSWER', text: answer }])
    const judged = verdicts.map(({ item, reply }) => ({ point: item, verdict: reply.verdict, reason: reply.reason }))
    const covered = judged.filter((p) => p.verdict === 'covered').length
    return {
      value: covered / judged.length,
      details: { source: kind, points: judged, total: judged.length, covered, missing: judged.length - covered, empty: false },
    }
  }

  const signatureExtras = [
    ['source', kind],
    ['q', question !== undefined],
    ['empty', onEmpty],
  ] as const
  return judgedScore('completeness', T, judge, repeat, signatureExtras, once)
}

/** Each key point against the answer (no passage involved). */
const COVER: VerdictStep = { template: T, step: 'cover', label: 'KEY POINT', key: 'point' }
type KeyPointVerdict = { point: number; reason: string; verdict: 'covered' | 'missing' }
