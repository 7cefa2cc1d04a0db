import { MetricInputError } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import type { Score } from '../../score.js'
import { canonicalJson, sha256Hex } from '../hash.js'
import type { PromptSection } from '../prompt.js'
import { objectSchema, REASON } from '../templates/template.js'
import { rubricTemplate as T } from '../templates/rubric.js'
import type { Judge } from '../types.js'
import { judgedScore } from './judged-score.js'
import {
  assertText,
  contextSections,
  normalizeContexts,
  optionalSection,
  optionalText,
  JUDGE_METRIC_OPTION_KEYS,
  readJudgeAndRepeat,
  type ContextInput,
  type JudgeDetailsBase,
  type JudgeMetricOptions,
} from './shared.js'

/** A grading rubric. A bare string is `{ criteria: string }`. */
export interface Rubric {
  /** Short name for signatures and messages (`rubric:<id>@<hash8>`). @default 'custom' */
  readonly id?: string
  /** What a good answer does; shown to the judge verbatim. */
  readonly criteria: string
  /** Inclusive integer scale, worst first. @default [1, 5] */
  readonly scale?: readonly [number, number]
  /** Optional description of each score level, e.g. `{ 1: 'wrong', 5: 'fully correct and cited' }`. */
  readonly levels?: Readonly<Record<number, string>>
}

export interface RubricDetails extends JudgeDetailsBase {
  readonly rubricId: string
  /** First 8 hex digits of the sha256 of the rubric (criteria, scale, levels). */
  readonly rubricHash: string
  /** The judge's score on the rubric's scale (first run). */
  readonly raw: number
  readonly min: number
  readonly max: number
  readonly reason: string
}

export interface RubricScoreOptions extends JudgeMetricOptions {
  readonly question?: string
  readonly contexts?: readonly ContextInput[]
  readonly reference?: string
}

/** The keys of {@link RubricScoreOptions}: what rubricScore accepts. */
export const RUBRIC_SCORE_OPTION_KEYS = keysOf<RubricScoreOptions>()(...JUDGE_METRIC_OPTION_KEYS, 'question', 'contexts', 'reference')

/**
 * Scores an answer against a rubric on a fixed integer scale, normalised to 0…1, raw score kept.
 *
 *   value = (raw − min) / (max − min)      e.g. 4 on 1…5 → 0.75
 *
 * One judge call; the reply schema narrows `score` to the scale, so an out-of-range score is a schema
 * violation (retried, then reported), never clamped. `question`, `contexts` and `reference` are shown
 * to the judge as data when given. The signature records the rubric as `rubric:<id>@<hash8>` and the scale
 * as `scale:<min>-<max>`; with `repeat`, the value is the mean normalised score.
 * Parity: none (LLM-judged).
 *
 * @example
 * const score = await rubricScore(answer, { id: 'cites-sources', criteria: 'Cites the passage it relies on.' }, judge)
 * score.details.raw // 4
 * score.value // 0.75
 */
export async function rubricScore(answer: string, rubric: string | Rubric, judge: Judge, options: RubricScoreOptions = {}): Promise<Score<RubricDetails>> {
  const fn = 'rubricScore'
  assertText(fn, 'answer', answer)
  const r = normalizeRubric(fn, rubric)
  const repeat = readJudgeAndRepeat(fn, judge, options, RUBRIC_SCORE_OPTION_KEYS)
  const question = optionalText(fn, 'options.question', options.question)
  const reference = optionalText(fn, 'options.reference', options.reference)
  const contexts = options.contexts === undefined ? [] : normalizeContexts(fn, 'options.contexts', options.contexts, true)
  const [min, max] = r.scale
  const rubricHash = sha256Hex(canonicalJson({ criteria: r.criteria, scale: r.scale, levels: r.levels })).slice(0, 8)
  const levels = Object.entries(r.levels)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([k, v]) => `${k}: ${v}`)
  const sections: PromptSection[] = [
    { label: 'RUBRIC', text: r.criteria },
    { label: 'SCALE', text: [`Integers from ${min} (worst) to ${max} (best).`, ...levels].join('\n') },
    ...optionalSection('QUESTION', question),
    ...contextSections(contexts),
    ...optionalSection('REFERENCE', reference),
    { label: 'ANSWER', text: answer },
  ]
  const schema = objectSchema({ reason: REASON, score: { type: 'integer', minimum: min, maximum: max } })
  const signatureExtras = [
    ['rubric', `${r.id}@${rubricHash}`],
    ['scale', `${min}-${max}`],
  ] as const

  return judgedScore('rubricScore', T, judge, repeat, signatureExtras, async (recorder, seed) => {
    const reply = await recorder.ask<{ reason: string; score: number }>(T, 'score', sections, seed, undefined, schema)
    // raw and reason are the first run's (with repeat, the value is the mean of the normalised scores).
    return { value: (reply.score - min) / (max - min), details: { rubricId: r.id, rubricHash, raw: reply.score, min, max, reason: reply.reason } }
  })
}

function normalizeRubric(fn: string, rubric: unknown): { id: string; criteria: string; scale: readonly [number, number]; levels: Readonly<Record<number, string>> } {
  if (typeof rubric === 'string') rubric = { criteria: rubric }
  if (rubric === null || typeof rubric !== 'object') throw new MetricInputError(fn, 'rubric', 'a string or { criteria, scale?, levels?, id? }', rubric)
  const { id = 'custom', criteria, scale = [1, 5], levels = {} } = rubric as Partial<Rubric>
  if (typeof criteria !== 'string' || criteria.trim() === '') throw new MetricInputError(fn, 'rubric.criteria', 'a non-empty string', criteria)
  if (typeof id !== 'string' || id === '') throw new MetricInputError(fn, 'rubric.id', 'a non-empty string', id)
  if (!Array.isArray(scale) || scale.length !== 2 || !scale.every((n) => Number.isSafeInteger(n)) || !((scale[0] as number) < (scale[1] as number))) {
    throw new MetricInputError(fn, 'rubric.scale', 'two integers [min, max] with min < max', scale)
  }
  if (levels === null || typeof levels !== 'object') throw new MetricInputError(fn, 'rubric.levels', 'an object from score to description', levels)
  for (const [k, v] of Object.entries(levels)) {
    const n = Number(k)
    if (!Number.isSafeInteger(n) || n < (scale[0] as number) || n > (scale[1] as number) || typeof v !== 'string') {
      throw new MetricInputError(fn, `rubric.levels[${k}]`, `a description (string) for a score within ${scale[0]}…${scale[1]}`, v)
    }
  }
  return { id, criteria, scale: [scale[0] as number, scale[1] as number], levels }
}
