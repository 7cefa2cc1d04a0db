/**
 * The eval-set form of each judge matcher: which case fields it reads, the metric call per case and the
 * one-line reasons shown per case. The loop, failed cases and the message are in judge-set.ts.
 */
import {
  answerRelevance,
  completeness,
  contextRecall,
  contextUtilization,
  groundedness,
  rubricScore,
  type AnswerRelevanceDetails,
  type CompletenessDetails,
  type ContextRecallDetails,
  type ContextUtilizationDetails,
  type GroundednessDetails,
  type Rubric,
} from '../src/judge/index.js'
import type { MatcherContext, MatcherResult } from './context.js'
import type { CompleteSetMatcherOptions, GroundedSetMatcherOptions, JudgeMatcherOptions, JudgeSetMatcherOptions, RelevanceSetMatcherOptions } from './judge-options.js'
import { metricOptions, relevanceOptions, type AnyScore } from './judge-shared.js'
import { runSet, shortfall, type JudgeCase, type SetSpec } from './judge-set.js'
import { quote } from './message.js'
import { matcherError } from './validate.js'

/** A first argument that is not a threshold: the single-answer form's argument given to an eval set. */
function refuseSingleFormArgument(ctx: MatcherContext, matcher: string, args: string, value: unknown, carries: string): void {
  if (value === undefined || typeof value === 'number') return
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return
  matcherError(ctx, matcher, args, `with an eval set as the received value, ${matcher} takes (${args}); each case carries its own ${carries}`, value)
}

/** A set form whose only argument is `min`: the single-answer form's argument is refused, then the set is judged. */
function minSet<S extends AnyScore, O extends JudgeMatcherOptions>(
  ctx: MatcherContext,
  received: unknown,
  min: unknown,
  options: unknown,
  carries: string,
  spec: Omit<SetSpec<S, O>, 'args' | 'min' | 'options'>,
): Promise<MatcherResult> {
  refuseSingleFormArgument(ctx, spec.matcher, 'min', min, carries)
  return runSet(ctx, received, { ...spec, args: 'min', min, options })
}

/** What a metric over items reports for one case: its note when there was nothing to judge (`none`), else `shortfall` of its failing items. */
function itemReasons<D extends { readonly empty?: boolean; readonly note?: string; readonly total: number }>(r: {
  /** The note when the metric had nothing to judge; absent when it always has something. */
  readonly none?: string
  /** The items, e.g. `claims`. */
  readonly noun: string | ((d: D) => string)
  /** What the failing items are, e.g. `unsupported`; what all are when none fails, e.g. `supported`. */
  readonly short: string
  readonly ok: string
  readonly failing: (d: D) => ReadonlyArray<{ text: string; reason: string }>
}): (score: { readonly details: D }) => string {
  return ({ details: d }) => {
    if (r.none !== undefined && d.empty) return d.note ?? r.none
    const noun = typeof r.noun === 'string' ? r.noun : r.noun(d)
    return shortfall(r.failing(d), d.total, `${noun} ${r.short}`, `all ${d.total} ${noun} ${r.ok}`)
  }
}

export function groundedSet(ctx: MatcherContext, received: unknown, min: unknown, options: unknown): Promise<MatcherResult> {
  const matcher = 'toBeGroundedIn'
  // `toBeGroundedIn({ judge })`: options in the place of min, min defaults to 1.
  if (min !== null && typeof min === 'object' && !Array.isArray(min) && options === undefined) {
    options = min
    min = undefined
  }
  return minSet(ctx, received, min ?? 1, options, 'contexts', {
    matcher,
    label: 'groundedness',
    emptyOption: true,
    needs: ['answer', 'contexts'],
    compute: (judge, o: GroundedSetMatcherOptions | undefined, c) =>
      groundedness(c.answer as string, c.contexts ?? [], judge, { ...metricOptions(o), ...(o?.onEmpty ? { onEmpty: o.onEmpty } : {}) }),
    reasons: itemReasons({
      none: 'no claims',
      noun: 'claims',
      short: 'unsupported',
      ok: 'supported',
      failing: (d: GroundednessDetails) =>
        [...d.claims.filter((c) => c.verdict === 'contradicted'), ...d.claims.filter((c) => c.verdict === 'not_found')].map((c) => ({
          text: c.claim,
          reason: `${c.verdict === 'contradicted' ? 'contradicted: ' : ''}${c.reason}`,
        })),
    }),
  })
}

export function completeSet(ctx: MatcherContext, received: unknown, min: unknown, options: unknown): Promise<MatcherResult> {
  const matcher = 'toBeCompleteGiven'
  refuseSingleFormArgument(ctx, matcher, 'min', min, 'reference or contexts')
  const source = (options as CompleteSetMatcherOptions | undefined)?.source
  if (source !== undefined && source !== 'reference' && source !== 'contexts') {
    matcherError(ctx, matcher, 'min', "options.source must be 'reference' | 'contexts'", source)
  }
  return runSet(ctx, received, {
    matcher,
    args: 'min',
    label: 'completeness',
    emptyOption: true,
    min,
    options,
    needs: source === undefined ? ['answer'] : ['answer', source],
    wants: source === undefined ? ['reference', 'contexts', 'question'] : ['question'],
    compute: (judge, o: CompleteSetMatcherOptions | undefined, c) => {
      const from = caseSource(ctx, matcher, c)
      return completeness(c.answer as string, from, judge, { ...metricOptions(o), ...(c.question === undefined ? {} : { question: c.question }) })
    },
    reasons: itemReasons({
      none: 'no key points',
      noun: (d: CompletenessDetails) => `key points of the ${d.source}`,
      short: 'missing',
      ok: 'covered',
      failing: (d: CompletenessDetails) => d.points.filter((p) => p.verdict === 'missing').map((p) => ({ text: p.point, reason: p.reason })),
    }),
  })
}

/** The case's reference when it has one, else its contexts (`source` already made the chosen one required). */
function caseSource(ctx: MatcherContext, matcher: string, c: JudgeCase): { reference: string } | { contexts: NonNullable<JudgeCase['contexts']> } {
  if (c.reference !== undefined) return { reference: c.reference }
  if (c.contexts !== undefined) return { contexts: c.contexts }
  return matcherError(ctx, matcher, 'min', `${c.name} has neither \`reference\` nor \`contexts\`; ${matcher} over an eval set needs one of them in each case`)
}

export function utilizeSet(ctx: MatcherContext, received: unknown, min: unknown, options: unknown): Promise<MatcherResult> {
  const matcher = 'toUtilizeContext'
  return minSet(ctx, received, min, options, 'contexts', {
    matcher,
    label: 'context utilization',
    needs: ['answer', 'contexts'],
    wants: ['question'],
    compute: (judge, o: JudgeSetMatcherOptions | undefined, c) =>
      contextUtilization(c.answer as string, c.contexts ?? [], judge, { ...metricOptions(o), ...(c.question === undefined ? {} : { question: c.question }) }),
    reasons: itemReasons({
      noun: 'chunks',
      short: 'unused',
      ok: 'used',
      failing: (d: ContextUtilizationDetails) => {
        const byId = new Map(d.chunks.map((ch) => [ch.id, ch]))
        const unused = [...d.unused].sort((a, b) => Number(b.relevant === true) - Number(a.relevant === true) || a.index - b.index)
        return unused.map((u) => ({ text: `${u.id}${u.relevant === true ? ' (relevant)' : ''}`, reason: byId.get(u.id)?.reason ?? '' }))
      },
    }),
  })
}

export function contextRecallSet(ctx: MatcherContext, received: unknown, min: unknown, options: unknown): Promise<MatcherResult> {
  const matcher = 'toHaveContextRecall'
  return minSet(ctx, received, min, options, 'reference', {
    matcher,
    label: 'context recall',
    emptyOption: true,
    needs: ['contexts', 'reference'],
    compute: (judge, o, c) => contextRecall(c.reference as string, c.contexts ?? [], judge, metricOptions(o)),
    reasons: itemReasons({
      none: 'no statements',
      noun: 'reference statements',
      short: 'not in the contexts',
      ok: 'found',
      failing: (d: ContextRecallDetails) => d.statements.filter((st) => st.verdict === 'not_attributed').map((st) => ({ text: st.statement, reason: st.reason })),
    }),
  })
}

export function relevanceSet(ctx: MatcherContext, received: unknown, min: unknown, options: unknown): Promise<MatcherResult> {
  const matcher = 'toBeRelevantTo'
  return minSet(ctx, received, min, options, 'question', {
    matcher,
    label: 'answer relevance',
    emptyOption: true,
    needs: ['answer', 'question'],
    compute: (judge, o: RelevanceSetMatcherOptions | undefined, c) => answerRelevance(c.question as string, c.answer as string, judge, relevanceOptions(o)),
    reasons: itemReasons({
      none: 'no statements',
      noun: 'statements',
      short: 'off the question',
      ok: 'address the question',
      failing: (d: AnswerRelevanceDetails) => d.statements.filter((st) => !st.relevant).map((st) => ({ text: st.statement, reason: st.reason })),
    }),
  })
}

export function rubricSet(ctx: MatcherContext, received: unknown, rubric: unknown, min: unknown, options: unknown): Promise<MatcherResult> {
  const matcher = 'toSatisfyRubric'
  if (typeof rubric !== 'string' && (rubric === null || typeof rubric !== 'object')) {
    matcherError(ctx, matcher, 'rubric, min', 'rubric must be a string or { criteria, scale?, levels?, id? }', rubric)
  }
  return runSet(ctx, received, {
    matcher,
    args: 'rubric, min',
    label: 'rubric score',
    minHint: ' (the rubric score normalised to 0–1)',
    min,
    options,
    needs: ['answer'],
    wants: ['question', 'contexts', 'reference'],
    compute: (judge, o, c) =>
      rubricScore(c.answer as string, rubric as string | Rubric, judge, {
        ...metricOptions(o),
        ...(c.question === undefined ? {} : { question: c.question }),
        ...(c.contexts === undefined ? {} : { contexts: c.contexts }),
        ...(c.reference === undefined ? {} : { reference: c.reference }),
      }),
    reasons: (score) => `raw ${score.details.raw} on ${score.details.min}…${score.details.max}: ${quote(score.details.reason, 100)}`,
  })
}
