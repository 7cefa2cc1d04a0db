/**
 * `toScoreTerBelow`: sacrebleu TER, the one lower-is-better text metric. The comparison is
 * `score ≤ max` (the mirror of every "above" matcher's `≥`), `.not` flips it to `>`, and the
 * recorded meta says `comparator: '<='` and `direction: 'lower'` so reports and baselines read it
 * the right way round.
 */
import { terReferenceCheck } from '../src/generation/reference-tokens.js'
import { DEFAULT_MAX_TER_TOKENS, terSegments, sentenceTer, TER_OPTION_KEYS, type CorpusTerScore, type TerOptions, type TerScore } from '../src/generation/ter/ter.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { declareMatcher, isBoolean, limitOption, type ArgSpec, type MatcherDeclaration, type MetricSpec, type OptionSpec } from './declare.js'
import { isEvalSet, readAnswer, readAnswerSet, readReferences, refuseBlankReferences, refuseBlankSetReferences } from './generation-received.js'
import { buildMessage, formatNumber, quote, table } from './message.js'
import { matcherError, requireHundredScaleThreshold } from './validate.js'

const MATCHER = 'toScoreTerBelow'
const DECIMALS = 2
/** TER has no upper bound (edits can outnumber reference words); the threshold only has to be finite. */
const TER_RANGE: readonly [number, number] = [0, Number.MAX_VALUE]

/** A TER threshold: on sacrebleu's 0–100 scale, a value in (0, 1) is refused with a hint. */
function requireMax(ctx: MatcherContext, args: string, max: unknown): number {
  return requireHundredScaleThreshold(ctx, MATCHER, args, 'max', max, TER_RANGE, 'A TER below 1 allows almost no edit.')
}

/** `TER = 35.29   required ≤ 30.00   (over by 5.29)`; under `.not`, `required > …` and `at or below by`. */
function headline(ctx: MatcherContext, label: string, value: number, max: number): string {
  const isNot = ctx.isNot === true
  const v = formatNumber(value, max, DECIMALS)
  const m = formatNumber(max, value, DECIMALS)
  let gap = ''
  if (!isNot && value > max) gap = `   (over by ${formatNumber(value - max, undefined, DECIMALS)})`
  else if (isNot && value <= max) gap = `   (at or below by ${formatNumber(max - value, undefined, DECIMALS)})`
  // printReceived(number) would print full precision; colour the chosen text with the runner's colours instead
  const received = ctx.utils.printReceived(0).replace('0', v)
  const expected = ctx.utils.printExpected(0).replace('0', m)
  return `${label} = ${received}   required ${isNot ? '>' : '≤'} ${expected}${gap}`
}

function breakdown(score: TerScore | CorpusTerScore, refs?: number): string {
  const which = refs !== undefined && refs > 1 && typeof score.bestReference === 'number' ? ` (fewest edits: reference ${score.bestReference + 1} of ${refs})` : ''
  return `${score.numEdits} edit${score.numEdits === 1 ? '' : 's'} (shifts, insertions, deletions, substitutions) over an average reference length of ${formatNumber(score.refLength, undefined, 2)} words${which}`
}

/** The answers that made the assertion fail: above max (highest first), or under `.not` at or below it (lowest first). */
function perCaseTable(ctx: MatcherContext, rows: ReadonlyArray<{ id: string; value: number }>, max: number): string {
  const isNot = ctx.isNot === true
  const indexed = rows.map((r, i) => ({ ...r, i }))
  const shown = isNot
    ? indexed.filter((r) => r.value <= max).sort((a, b) => a.value - b.value || a.i - b.i)
    : indexed.filter((r) => r.value > max).sort((a, b) => b.value - a.value || a.i - b.i)
  const what = isNot ? `at or below ${formatNumber(max, undefined, DECIMALS)} (lowest first)` : `above ${formatNumber(max, undefined, DECIMALS)} (highest first)`
  return `sentence TER per answer (for orientation; the corpus score is computed from summed edits): ${shown.length} of ${rows.length} ${what}\n${table(
    shown.map((r) => [r.id, formatNumber(r.value, max, DECIMALS)]),
  )}`
}

interface Outcome {
  readonly args: string
  readonly label: string
  readonly metric: string
  readonly value: number
  readonly max: number
  readonly signature: string
  readonly sections: () => ReadonlyArray<string | undefined>
}

/**
 * The result of a lower-is-better threshold: `pass` is `value ≤ max` (never flipped for `.not`; the
 * runner flips it). A corpus score is set-level (summed statistics), so, as for corpus BLEU, no
 * per-case values are recorded.
 */
function atMostResult(ctx: MatcherContext, o: Outcome): MatcherResult {
  // TER is finite on every valid input; a non-finite value would make `.not` pass, so it is refused
  if (!Number.isFinite(o.value)) matcherError(ctx, MATCHER, o.args, `${o.label} is not a finite number, so nothing can be asserted`, o.value)
  const pass = o.value <= o.max
  return {
    pass,
    message: () =>
      buildMessage(ctx, {
        matcher: MATCHER,
        args: o.args,
        headline: headline(ctx, o.label, o.value, o.max),
        signature: o.signature,
        sections: o.sections(),
      }),
    meta: {
      matcher: MATCHER,
      metric: o.metric,
      value: o.value,
      threshold: o.max,
      comparator: ctx.isNot === true ? '>' : '<=',
      direction: 'lower',
      pass,
      signature: o.signature,
    },
  }
}

/**
 * `expect(answer).toScoreTerBelow(references, max, options?)`: sentence TER ≤ max;
 * `expect(evalSet).toScoreTerBelow(max, options?)`: corpus TER (summed edits over summed average
 * reference lengths) ≤ max. Options are the core's ({@link TerOptions}), checked by the declaration.
 */
export function toScoreTerBelow(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  if (isEvalSet(received)) {
    const [max, options] = args as [unknown, TerOptions | undefined]
    const threshold = requireMax(this, 'max', max)
    const cases = readAnswerSet(this, MATCHER, 'max', received)
    refuseBlankSetReferences(this, MATCHER, 'max', cases, terReferenceCheck(options))
    const { corpus, segments } = terSegments(
      cases.map((c) => c.answer),
      cases.map((c) => c.references),
      options,
    )
    const perCase = cases.map((c, i) => ({ id: c.id, value: segments[i]!.score }))
    return atMostResult(this, {
      args: 'max',
      label: `corpus TER over ${cases.length} answers`,
      metric: 'TER (corpus)',
      value: corpus.score,
      max: threshold,
      signature: corpus.signature,
      sections: () => [breakdown(corpus), perCaseTable(this, perCase, threshold)],
    })
  }
  const [references, max, options] = args as [unknown, unknown, TerOptions | undefined]
  const argNames = 'references, max'
  const answer = readAnswer(this, MATCHER, argNames, received)
  const refs = readReferences(this, MATCHER, argNames, references)
  refuseBlankReferences(this, MATCHER, argNames, refs, (i) => (refs.length === 1 ? 'the reference' : `references[${i}]`), terReferenceCheck(options))
  const threshold = requireMax(this, argNames, max)
  const score = sentenceTer(answer, refs, options)
  return atMostResult(this, {
    args: argNames,
    label: 'TER',
    metric: 'TER',
    value: score.score,
    max: threshold,
    signature: score.signature,
    sections: () => [
      breakdown(score, refs.length),
      `answer:    ${quote(answer)}\n${refs.map((r, i) => `reference${refs.length > 1 ? ` ${i + 1}` : ''}: ${quote(r)}`).join('\n')}`,
    ],
  })
}

// ---------------------------------------------------------------- declaration

const MAX_100: ArgSpec = { name: 'max', type: 'number', doc: "Threshold on sacrebleu's 0–100 scale (TER can exceed 100); passes when the score is ≤ max." }
const REFERENCES: ArgSpec = { name: 'references', type: 'string | string[]', doc: 'One reference or several (the edits are counted against the closest one).' }

/** The matcher options, one per core option (TER_OPTION_KEYS; the declarations test compares them). */
const TER_OPTIONS: Readonly<Record<(typeof TER_OPTION_KEYS)[number], OptionSpec>> = {
  normalized: { type: 'a boolean', default: 'false', doc: "Tercom normalisation: unescape XML entities, split punctuation, `'s` and numbers.", check: isBoolean },
  noPunct: { type: 'a boolean', default: 'false', doc: 'Delete `.,?:;!"()` (and CJK/full-width punctuation with asianSupport).', check: isBoolean },
  asianSupport: { type: 'a boolean', default: 'false', doc: 'Split CJK characters and punctuation (the splitting needs normalized).', check: isBoolean },
  caseSensitive: { type: 'a boolean', default: 'false', doc: 'Compare case-sensitively (otherwise both sides are lower-cased).', check: isBoolean },
  maxTokens: limitOption(
    String(DEFAULT_MAX_TER_TOKENS),
    "The most TER tokens the answer or one reference may have (TER's edit matrices grow with the product of the lengths); longer input fails the assertion instead of blocking the run.",
  ),
}

/** Lower is better: passes when the value is ≤ the threshold (`.not`: >). */
const TER_METRIC: MetricSpec = { name: 'TER', scale: 100, direction: 'lower', comparator: '<=' }

export const terDeclaration: MatcherDeclaration<'toScoreTerBelow'> = declareMatcher({
  name: 'toScoreTerBelow',
  async: false,
  family: 'generation',
  summary:
    'sacrebleu 2.6 TER (translation edit rate, lower is better) ≤ `max` on the 0–100 scale: sentence TER for an answer, corpus TER (summed edits over summed reference lengths) for an eval set.',
  forms: [
    {
      received: 'an eval set: cases with `answer` and `reference`/`references` (an array, `{ cases }`, or a describeEvalSet run)',
      when: isEvalSet,
      args: [MAX_100],
      options: TER_OPTIONS,
    },
    { received: 'an answer string', args: [REFERENCES, MAX_100], options: TER_OPTIONS },
  ],
  metric: TER_METRIC,
  example: 'expect(answer).toScoreTerBelow(reference, 30)',
  failing: {
    received: 'The big model scored 41.0 BLEU on the WMT 2014 English-to-German task.',
    args: ['The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.', 20],
  },
  compute: toScoreTerBelow,
})
