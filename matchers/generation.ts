import { bleuSegments, sentenceBleu, type BleuOptions, type BleuScore } from '../src/generation/bleu.js'
import { chrfSegments, sentenceChrf, type ChrfOptions, type ChrfScore } from '../src/generation/chrf.js'
import { meteorScore, type MeteorDetails, type MeteorOptions } from '../src/generation/meteor.js'
import type { TerOptions } from '../src/generation/ter/ter.js'
import type { Score } from '../src/score.js'
import { bleuReferenceCheck, chrfReferenceCheck, METEOR_REFERENCE_CHECK, ROUGE_REFERENCE_CHECK, type ReferenceTokenCheck } from '../src/generation/reference-tokens.js'
import { rougeScore, type RougeScore, type RougeType } from '../src/generation/rouge.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { terDeclaration } from './generation-ter.js'
import { readAnswer, readAnswerSetPartial, readReferences, isEvalSet, refuseBlankReferences, refuseBlankSetReferences, type AnswerCase } from './generation-received.js'
import {
  FAILED_CASES_OPTION,
  failedCasesMode,
  failedCasesSignature,
  formatNumber,
  list,
  partialSetResult,
  quote,
  table,
  thresholdResult,
  withoutFailedCases,
  type FailedCasesMode,
} from './message.js'
import { answerCases } from './set-form.js'
import type { ByReceived } from './received-types.js'
import {
  atLeast,
  declareMatcher,
  isBoolean,
  isFiniteNumber,
  isInteger,
  isPositiveInteger,
  limitOption,
  oneOf,
  type ArgSpec,
  type FormSpec,
  type MatcherDeclaration,
  type OptionSpec,
} from './declare.js'
import { matcherError, requireHundredScaleThreshold, requireThreshold } from './validate.js'

type References = string | readonly string[]
type MeteorScore = Score<MeteorDetails>

export interface RougeMatcherOptions {
  /** @default 'rougeL' */
  readonly type?: RougeType
  /** @default 'fmeasure' */
  readonly measure?: 'precision' | 'recall' | 'fmeasure'
  /** Porter-stem tokens longer than 3 (rouge-score `use_stemmer`). @default true */
  readonly stemmer?: boolean
  /** The most tokens the answer or a reference may have (more fails the assertion). @default 50000 for ROUGE-L/Lsum (20000 for ROUGE-Lsum on several lines), else 1000000 */
  readonly maxTokens?: number
  /** ROUGE-Lsum: the most lines the answer or a reference may have (more fails the assertion). @default 2000 */
  readonly maxLines?: number
}

/** The options of an answer-quality matcher on an eval set: its own, and what a failed case does. */
export type SetOptions<O = object> = O & {
  /** What a case whose pipeline failed does: `'fail'` (default) fails the assertion either way, `'zero'` scores it 0, `'skip'` leaves it out. */
  readonly failedCases?: FailedCasesMode
}

/**
 * Typed signatures of the answer-quality matchers. The received value decides the form: an answer
 * string takes `(references, min)`, an eval set (cases with `answer` and `reference`) takes `(min)`
 * only, and the other combination does not compile.
 */
export interface GenerationMatchers<R = unknown, T = unknown> {
  /** sacrebleu BLEU ≥ `min` on the 0–100 scale. Sentence BLEU for an answer; corpus BLEU for an eval set. */
  toScoreBleuAbove: ByReceived<T, R, [references: References, min: number, options?: BleuOptions], [min: number, options?: SetOptions<BleuOptions>]>
  /** sacrebleu chrF ≥ `min` on 0–100 (chrF++ with `{ wordOrder: 2 }`). Corpus chrF for an eval set. */
  toScoreChrfAbove: ByReceived<T, R, [references: References, min: number, options?: ChrfOptions], [min: number, options?: SetOptions<ChrfOptions>]>
  /** sacrebleu TER ≤ `max` on 0–100 (lower is better; `.not`: > max). Sentence TER for an answer; corpus TER for an eval set. */
  toScoreTerBelow: ByReceived<T, R, [references: References, max: number, options?: TerOptions], [max: number, options?: TerOptions]>
  /** rouge-score ROUGE (default ROUGE-L F with stemming) ≥ `min` on 0–1. Mean of per-answer scores for an eval set. */
  toScoreRougeAbove: ByReceived<T, R, [references: References, min: number, options?: RougeMatcherOptions], [min: number, options?: SetOptions<RougeMatcherOptions>]>
  /** Shorthand for `toScoreRougeAbove(references, min, { type: 'rougeL' })`. */
  toScoreRougeLAbove: ByReceived<T, R, [references: References, min: number], [min: number, options?: SetOptions]>
  /** NLTK METEOR (exact, Porter stem, WordNet 3.0 synonyms) ≥ `min` on 0–1. Mean for an eval set. */
  toScoreMeteorAbove: ByReceived<T, R, [references: References, min: number, options?: MeteorOptions], [min: number, options?: SetOptions<MeteorOptions>]>
}

const SCALE_100: readonly [number, number] = [0, 100]

/** A BLEU/chrF threshold: on sacrebleu's 0–100 scale, a value in (0, 1) is refused with a hint. */
function requireHundredScale(ctx: MatcherContext, matcher: string, args: string, min: unknown): number {
  return requireHundredScaleThreshold(ctx, matcher, args, 'min', min, SCALE_100, 'A threshold below 1 would pass almost any answer.')
}

/** Lowest per-answer values first, with a note per case. */
function perCaseTable(rows: ReadonlyArray<{ id: string; value: number; note?: string }>, min: number, decimals: number, heading: string, isNot = false): string {
  if (isNot) {
    // Under .not the answers at or above min made the assertion fail: list those, best first.
    const above = rows
      .map((r, i) => ({ ...r, i }))
      .filter((r) => r.value >= min)
      .sort((a, b) => b.value - a.value || a.i - b.i)
    return `${heading}: ${above.length} of ${rows.length} at or above ${formatNumber(min, undefined, decimals)} (highest first)\n${table(
      above.map((r) => [r.id, formatNumber(r.value, min, decimals), r.note ?? '']),
    )}`
  }
  const ordered = rows.map((r, i) => ({ ...r, i })).sort((a, b) => a.value - b.value || a.i - b.i)
  const below = ordered.filter((r) => r.value < min).length
  return `${heading}: ${below} of ${rows.length} below ${formatNumber(min, undefined, decimals)} (lowest first)\n${table(
    ordered.map((r) => [r.id, formatNumber(r.value, min, decimals), r.note ?? '']),
  )}`
}

// ---------------------------------------------------------------- corpus metrics (BLEU, chrF)

/** A sacrebleu metric: 0–100, sentence score for an answer, corpus score (summed statistics) for a set. */
interface CorpusSpec<O, S extends Score<unknown>> {
  readonly matcher: string
  readonly sentence: (answer: string, references: readonly string[], options: O | undefined) => S
  /** The corpus score and each case's sentence score, every answer and reference tokenized once. */
  readonly segments: (answers: string[], references: Array<readonly string[]>, options: O | undefined) => { corpus: S; segments: S[] }
  readonly breakdown: (score: S) => string
  readonly perCaseHeading: string
  /** The metric's tokenizer under these options, to refuse a reference with no token. */
  readonly check: (options: O | undefined) => ReferenceTokenCheck
}

function corpusMatcher<O, S extends Score<unknown>>(ctx: MatcherContext, spec: CorpusSpec<O, S>, received: unknown, args: unknown[]): MatcherResult {
  const { matcher } = spec
  if (isEvalSet(received)) {
    const [min, rawOptions] = args as [unknown, O | undefined]
    const mode = failedCasesMode(rawOptions)
    const options = withoutFailedCases(rawOptions)
    const threshold = requireHundredScale(ctx, matcher, 'min', min)
    // 'zero': a failed case counts as an empty answer, so its references still weigh in the corpus statistics
    const { cases, failed, total } = readAnswerSetPartial(ctx, matcher, 'min', received, mode === 'zero')
    refuseBlankSetReferences(ctx, matcher, 'min', cases, spec.check(options))
    const scoredCases = cases.length > 0 ? cases : [{ id: '', answer: '', references: ['-'] }]
    const { corpus: score, segments } = spec.segments(
      scoredCases.map((c) => c.answer),
      scoredCases.map((c) => c.references),
      options,
    )
    const left = failed.length === 0 || mode === 'fail' ? '' : mode === 'skip' ? ` (${failed.length} failed left out)` : ` (${failed.length} failed as empty answers)`
    return partialSetResult(ctx, {
      matcher,
      args: 'min',
      label: `corpus ${score.metric} over ${cases.length} answers${left}`,
      // a corpus score is not the mean of sentence scores (what baselines track): its name says which
      metric: `${score.metric} (corpus)`,
      value: score.value,
      min: threshold,
      decimals: 2,
      signature: failedCasesSignature(score.signature, mode, failed.length),
      sections: () => [
        spec.breakdown(score),
        perCaseTable(
          cases.map((c, i) => ({ id: c.id, value: (segments[i] as S).value, ...(c.failed === true ? { note: 'pipeline failed (empty answer)' } : {}) })),
          threshold,
          2,
          spec.perCaseHeading,
          ctx.isNot === true,
        ),
      ],
      failed,
      total,
      mode,
      what: 'answer',
      scored: cases.length,
    })
  }
  const [references, min, options] = args as [unknown, unknown, O | undefined]
  const argNames = 'references, min'
  const answer = readAnswer(ctx, matcher, argNames, received)
  const refs = readReferences(ctx, matcher, argNames, references)
  refuseBlankReferences(ctx, matcher, argNames, refs, referenceName(refs), spec.check(options))
  const threshold = requireHundredScale(ctx, matcher, argNames, min)
  const score = spec.sentence(answer, refs, options)
  return thresholdResult(ctx, {
    matcher,
    args: argNames,
    label: score.metric,
    value: score.value,
    min: threshold,
    decimals: 2,
    signature: score.signature,
    sections: () => [spec.breakdown(score), quoteAnswer(answer, refs)],
  })
}

/** How a message names the i-th reference argument: `reference` alone, `references[i]` in a list. */
function referenceName(refs: readonly string[]): (i: number) => string {
  return (i) => (refs.length === 1 ? 'the reference' : `references[${i}]`)
}

function quoteAnswer(answer: string, refs: readonly string[]): string {
  return `answer:    ${quote(answer)}\n${refs.map((r, i) => `reference${refs.length > 1 ? ` ${i + 1}` : ''}: ${quote(r)}`).join('\n')}`
}

function bleuBreakdown(score: BleuScore): string {
  const d = score.details
  const p = d.precisions.map((x) => x.toFixed(1)).join('/')
  const verbose = `${score.value.toFixed(2)} ${p} (BP = ${d.bp.toFixed(3)} ratio = ${d.ratio.toFixed(3)} hyp_len = ${d.sysLen} ref_len = ${d.refLen})`
  const unmatched = d.unmatchedNgrams.map((grams, i) => (grams.length > 0 ? `  ${i + 1}-grams: ${grams.map((g) => JSON.stringify(g)).join(', ')}` : undefined)).filter(Boolean)
  return unmatched.length > 0 ? `${verbose}\ncandidate n-grams found in no reference:\n${unmatched.join('\n')}` : verbose
}

function chrfBreakdown(score: ChrfScore): string {
  const d = score.details
  return `precision ${formatNumber(d.precision * 100, undefined, 2)}  recall ${formatNumber(d.recall * 100, undefined, 2)}  (averaged over ${d.effectiveOrder} n-gram orders)`
}

const BLEU_SPEC: CorpusSpec<BleuOptions, BleuScore> = {
  matcher: 'toScoreBleuAbove',
  sentence: sentenceBleu,
  segments: bleuSegments,
  breakdown: bleuBreakdown,
  check: (options) => bleuReferenceCheck(options?.tokenize),
  perCaseHeading: 'sentence BLEU per answer (for orientation; the corpus score is computed from summed n-gram counts)',
}

const CHRF_SPEC: CorpusSpec<ChrfOptions, ChrfScore> = {
  matcher: 'toScoreChrfAbove',
  sentence: sentenceChrf,
  segments: chrfSegments,
  breakdown: chrfBreakdown,
  check: (options) => chrfReferenceCheck(options?.keepWhitespace),
  perCaseHeading: 'sentence chrF per answer',
}

export function toScoreBleuAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  return corpusMatcher(this, BLEU_SPEC, received, args)
}

export function toScoreChrfAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  return corpusMatcher(this, CHRF_SPEC, received, args)
}

// ---------------------------------------------------------------- mean metrics (ROUGE, METEOR)

/** A 0–1 metric: the answer's score, or for a set the mean of the per-answer scores. */
interface MeanSpec<R> {
  readonly matcher: string
  /** Validates and completes the options (throws a matcher error). */
  readonly resolve: (ctx: MatcherContext, args: string, options: unknown) => R
  readonly score: (answer: string, references: readonly string[], options: R) => { score: Score<unknown>; value: number; label: string; note: string; breakdown: () => string }
  /** The metric's tokenizer, to refuse a reference with no token. */
  readonly check: ReferenceTokenCheck
}

function meanMatcher<R>(ctx: MatcherContext, spec: MeanSpec<R>, received: unknown, args: unknown[]): MatcherResult {
  const { matcher } = spec
  if (isEvalSet(received)) {
    const [min, options] = args as [unknown, unknown]
    const mode = failedCasesMode(options)
    const resolved = spec.resolve(ctx, 'min', withoutFailedCases(options))
    const threshold = requireThreshold(ctx, matcher, 'min', 'min', min)
    const { cases, failed, total } = readAnswerSetPartial(ctx, matcher, 'min', received)
    refuseBlankSetReferences(ctx, matcher, 'min', cases, spec.check)
    const results = cases.map((c) => spec.score(c.answer, c.references, resolved))
    // 'zero': each failed case adds a 0 to the mean
    const n = cases.length + (mode === 'zero' ? failed.length : 0)
    const value = n === 0 ? 0 : results.reduce((a, r) => a + r.value, 0) / n
    // the label and signature when every case failed: those of any answer
    const first = results[0] ?? spec.score('-', ['-'], resolved)
    const perCase = cases.map((c, i) => ({ id: c.id, value: (results[i] as (typeof results)[number]).value, note: (results[i] as (typeof results)[number]).note }))
    if (mode === 'zero') for (const f of failed) perCase.push({ id: f.id, value: 0, note: 'pipeline failed (scored 0)' })
    const left = failed.length === 0 || mode === 'fail' ? '' : mode === 'skip' ? ` (${failed.length} failed left out)` : ` (${failed.length} failed scored 0)`
    return partialSetResult(ctx, {
      matcher,
      args: 'min',
      label: `mean ${first.label} over ${n} answers${left}`,
      metric: `mean ${first.label}`,
      value,
      min: threshold,
      signature: failedCasesSignature(first.score.signature, mode, failed.length),
      sections: () => [perCaseTable(perCase, threshold, 4, 'per answer', ctx.isNot === true)],
      ...answerCases(perCase, failed, total, mode, n),
    })
  }
  const [references, min, options] = args as [unknown, unknown, unknown]
  const argNames = 'references, min'
  const answer = readAnswer(ctx, matcher, argNames, received)
  const refs = readReferences(ctx, matcher, argNames, references)
  const resolved = spec.resolve(ctx, argNames, options)
  refuseBlankReferences(ctx, matcher, argNames, refs, referenceName(refs), spec.check)
  const threshold = requireThreshold(ctx, matcher, argNames, 'min', min)
  const result = spec.score(answer, refs, resolved)
  return thresholdResult(ctx, {
    matcher,
    args: argNames,
    label: result.label,
    value: result.value,
    min: threshold,
    signature: result.score.signature,
    sections: () => [result.breakdown(), `answer:    ${quote(answer)}`],
  })
}

const MEASURE_LABEL = { precision: 'P', recall: 'R', fmeasure: 'F' } as const

type ResolvedRougeMatcherOptions = Required<Omit<RougeMatcherOptions, 'maxTokens' | 'maxLines'>> & {
  readonly maxTokens: number | undefined
  readonly maxLines: number | undefined
}

function rougeSpec(matcher: string, fixed?: Partial<RougeMatcherOptions>): MeanSpec<ResolvedRougeMatcherOptions> {
  return {
    matcher,
    check: ROUGE_REFERENCE_CHECK,
    resolve: (ctx, args, options) => {
      if (options !== undefined && (options === null || typeof options !== 'object')) matcherError(ctx, matcher, args, 'options must be an object', options)
      const o = { ...((options ?? {}) as RougeMatcherOptions), ...fixed }
      const type = o.type ?? 'rougeL'
      if (typeof type !== 'string' || !/^rouge([1-9]|L|Lsum)$/.test(type))
        matcherError(ctx, matcher, args, "options.type must be 'rouge1'…'rouge9', 'rougeL' or 'rougeLsum'", type)
      const measure = o.measure ?? 'fmeasure'
      if (measure !== 'precision' && measure !== 'recall' && measure !== 'fmeasure') {
        matcherError(ctx, matcher, args, "options.measure must be 'precision', 'recall' or 'fmeasure'", measure)
      }
      return { type, measure, stemmer: o.stemmer ?? true, maxTokens: o.maxTokens, maxLines: o.maxLines }
    },
    score: (answer, refs, o) => {
      const limit = { ...(o.maxTokens === undefined ? {} : { maxTokens: o.maxTokens }), ...(o.maxLines === undefined ? {} : { maxLines: o.maxLines }) }
      const score = rougeScore(answer, refs, { types: [o.type], stemmer: o.stemmer, ...limit })[o.type] as RougeScore
      return {
        score,
        value: score.details[o.measure],
        label: `${score.metric} ${MEASURE_LABEL[o.measure]}`,
        note: tokensNote('missed', score.details.missedReferenceTokens),
        breakdown: () => rougeBreakdown(score),
      }
    },
  }
}

function rougeBreakdown(score: RougeScore): string {
  const d = score.details
  const prf = `P ${formatNumber(d.precision)}  R ${formatNumber(d.recall)}  F ${formatNumber(d.fmeasure)}  (${d.matchCount} of ${d.referenceCount} reference units matched${d.perReference.length > 1 ? `, best of ${d.perReference.length} references: #${d.bestReferenceIndex + 1}` : ''})`
  const missed =
    d.missedReferenceTokens.length > 0
      ? `missed reference units (after tokenizing${d.stemmer ? ' and stemming' : ''}): ${list(d.missedReferenceTokens.map((t) => JSON.stringify(t)))}`
      : undefined
  return [prf, missed].filter(Boolean).join('\n')
}

function tokensNote(label: string, tokens: readonly string[]): string {
  return tokens.length > 0
    ? `${label}: ${list(
        tokens.map((t) => JSON.stringify(t)),
        5,
      )}`
    : ''
}

const ROUGE_SPEC = rougeSpec('toScoreRougeAbove')
const ROUGE_L_SPEC = rougeSpec('toScoreRougeLAbove', { type: 'rougeL' })

export function toScoreRougeAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  return meanMatcher(this, ROUGE_SPEC, received, args)
}

export function toScoreRougeLAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  return meanMatcher(this, ROUGE_L_SPEC, received, args)
}

function meteorBreakdown(score: MeteorScore): string {
  const d = score.details
  const stages = `matches: ${d.matches.exact} exact, ${d.matches.stem} stem, ${d.matches.synonym} synonym (of ${d.candidateLength} answer / ${d.referenceLength} reference tokens)`
  const frag = `chunks ${d.chunks}, fragmentation ${formatNumber(d.fragmentation)}, penalty ${formatNumber(d.penalty)}, Fmean ${formatNumber(d.fmean)}`
  const unmatched = [
    d.unmatchedCandidate.length > 0 ? `unmatched answer tokens: ${list(d.unmatchedCandidate.map((t) => JSON.stringify(t)))}` : undefined,
    d.unmatchedReference.length > 0 ? `unmatched reference tokens: ${list(d.unmatchedReference.map((t) => JSON.stringify(t)))}` : undefined,
  ].filter(Boolean)
  return [stages, frag, ...unmatched].join('\n')
}

const METEOR_SPEC: MeanSpec<MeteorOptions | undefined> = {
  matcher: 'toScoreMeteorAbove',
  check: METEOR_REFERENCE_CHECK,
  resolve: (ctx, args, options) => {
    if (options !== undefined && (options === null || typeof options !== 'object')) matcherError(ctx, 'toScoreMeteorAbove', args, 'options must be an object', options)
    return options as MeteorOptions | undefined
  },
  score: (answer, refs, options) => {
    const score = meteorScore(answer, refs, options)
    return {
      score,
      value: score.value,
      label: 'METEOR',
      note: tokensNote('unmatched reference', score.details.unmatchedReference),
      breakdown: () => meteorBreakdown(score),
    }
  },
}

export function toScoreMeteorAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  return meanMatcher(this, METEOR_SPEC, received, args)
}

export type { AnswerCase }
export { toScoreTerBelow } from './generation-ter.js'

// ---------------------------------------------------------------- declarations

const ANSWER = 'an answer string'
const ANSWER_SET = 'an eval set: cases with `answer` and `reference`/`references` (an array, `{ cases }`, or a describeEvalSet run)'
const REFERENCES: ArgSpec = { name: 'references', type: 'string | string[]', doc: 'One reference or several (the score uses all of them).' }
const MIN_100: ArgSpec = { name: 'min', type: 'number', doc: "Threshold on sacrebleu's 0–100 scale; passes when the score is ≥ min." }
const MIN_1: ArgSpec = { name: 'min', type: 'number', doc: 'Threshold on 0–1; passes when the score is ≥ min.' }

/** `maxTokens`, accepted by every answer-quality matcher (src/generation/input-limits.ts). */
const maxTokensOption = (byDefault: string): OptionSpec =>
  limitOption(byDefault, 'The most tokens the answer or one reference may have; longer input fails the assertion instead of blocking the run.')

const BLEU_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  tokenize: { type: "'13a' | 'intl' | 'char' | 'none' | 'zh'", default: "'13a'", doc: "sacrebleu's tokenizer.", check: oneOf('13a', 'intl', 'char', 'none', 'zh') },
  smooth: { type: "'exp' | 'floor' | 'add-k' | 'none'", default: "'exp'", doc: 'Smoothing of zero n-gram precisions.', check: oneOf('exp', 'floor', 'add-k', 'none') },
  smoothValue: { type: 'a number', doc: 'The value for `floor` (0.1) or `add-k` (1) smoothing.', check: isFiniteNumber },
  lowercase: { type: 'a boolean', default: 'false', doc: 'Lower-case both sides first.', check: isBoolean },
  effectiveOrder: { type: 'a boolean', default: 'true for an answer, false for an eval set', doc: 'Average only the n-gram orders the candidate has.', check: isBoolean },
  maxNgramOrder: { type: 'a positive integer', default: '4', doc: 'Highest n-gram order.', check: isPositiveInteger },
  maxTokens: maxTokensOption('1000000'),
}
const CHRF_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  charOrder: { type: 'a positive integer', default: '6', doc: 'Character n-gram order.', check: isPositiveInteger },
  wordOrder: { type: 'an integer 0–2', default: '0', doc: 'Word n-gram order (2 = chrF++).', check: (v) => isInteger(v) && (v as number) >= 0 && (v as number) <= 2 },
  beta: { type: 'a positive number', default: '2', doc: 'Weight of recall over precision.', check: (v) => isFiniteNumber(v) && (v as number) > 0 },
  epsSmoothing: { type: 'a boolean', default: 'false', doc: "sacrebleu's eps smoothing instead of the default effective-order one.", check: isBoolean },
  lowercase: { type: 'a boolean', default: 'false', doc: 'Lower-case both sides first.', check: isBoolean },
  keepWhitespace: { type: 'a boolean', default: 'false', doc: 'Keep whitespace inside character n-grams.', check: isBoolean },
  maxTokens: maxTokensOption('1000000 (whitespace-separated words)'),
}
const ROUGE_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  type: { type: "'rouge1'…'rouge9' | 'rougeL' | 'rougeLsum'", default: "'rougeL'", doc: 'Which ROUGE.' },
  measure: { type: "'precision' | 'recall' | 'fmeasure'", default: "'fmeasure'", doc: 'Which of P, R, F is compared with min.' },
  stemmer: { type: 'a boolean', default: 'true', doc: 'Porter-stem tokens longer than 3 (rouge-score `use_stemmer`).', check: isBoolean },
  maxTokens: maxTokensOption('50000 for rougeL/rougeLsum (an LCS: cost grows with the product of the lengths; 20000 for rougeLsum on text of several lines), else 1000000'),
  maxLines: limitOption(
    '2000',
    'rougeLsum: the most lines the answer or one reference may have (every answer line is aligned with every reference line); more fails the assertion instead of blocking the run.',
  ),
}
const METEOR_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  alpha: { type: 'a number', default: '0.9', doc: 'Weight of precision vs recall in Fmean.', check: isFiniteNumber },
  beta: { type: 'a number', default: '3', doc: 'Shape of the fragmentation penalty.', check: isFiniteNumber },
  gamma: { type: 'a number', default: '0.5', doc: 'Weight of the fragmentation penalty.', check: isFiniteNumber },
  synonyms: { type: 'a boolean', default: 'true', doc: 'Match WordNet 3.0 synonyms.', check: isBoolean },
  stemmer: { type: 'a boolean', default: 'true', doc: 'Match Porter stems.', check: isBoolean },
  maxTokens: maxTokensOption('1000000'),
}

/** An answer-quality matcher: sync; an answer takes `(references, min)`, an eval set `(min)`, both the same options. */
function answerMatcher<const N extends string>(
  d: Pick<MatcherDeclaration<N>, 'name' | 'summary' | 'metric' | 'example' | 'failing' | 'compute'> & {
    min: ArgSpec
    options: Readonly<Record<string, OptionSpec>> | undefined
  },
): MatcherDeclaration<N> {
  const { min, options, ...rest } = d
  const opt = options === undefined ? {} : { options }
  const forms: FormSpec[] = [
    { received: ANSWER_SET, when: isEvalSet, args: [min], options: { ...options, failedCases: FAILED_CASES_OPTION } },
    { received: ANSWER, args: [REFERENCES, min], ...opt },
  ]
  return declareMatcher({ ...rest, async: false, family: 'generation', forms })
}

const WRONG = 'The big model scored 41.0 BLEU on the WMT 2014 English-to-German task.'
const RIGHT = 'The big model achieved a BLEU score of 28.4 on the WMT 2014 English-to-German translation task.'

export const generationDeclarations = [
  answerMatcher({
    name: 'toScoreBleuAbove',
    summary: 'sacrebleu 2.6 BLEU ≥ `min` on the 0–100 scale: sentence BLEU for an answer, corpus BLEU (summed n-gram statistics) for an eval set.',
    min: MIN_100,
    options: BLEU_OPTIONS,
    metric: atLeast('BLEU', { registry: 'bleu' }),
    example: 'expect(answer).toScoreBleuAbove(reference, 30)',
    failing: { received: WRONG, args: [RIGHT, 60] },
    compute: toScoreBleuAbove,
  }),
  answerMatcher({
    name: 'toScoreChrfAbove',
    summary: 'sacrebleu 2.6 chrF ≥ `min` on 0–100 (chrF++ with `{ wordOrder: 2 }`); corpus chrF for an eval set.',
    min: MIN_100,
    options: CHRF_OPTIONS,
    metric: atLeast('chrF', { registry: 'chrf' }),
    example: 'expect(answer).toScoreChrfAbove(reference, 50, { wordOrder: 2 })',
    failing: { received: WRONG, args: [RIGHT, 80] },
    compute: toScoreChrfAbove,
  }),
  terDeclaration,
  answerMatcher({
    name: 'toScoreRougeAbove',
    summary: 'rouge-score 0.1.2 ROUGE (default ROUGE-L F with stemming) ≥ `min` on 0–1; the mean of per-answer scores for an eval set.',
    min: MIN_1,
    options: ROUGE_OPTIONS,
    metric: atLeast('ROUGE', { registry: 'rougeL' }),
    example: "expect(answer).toScoreRougeAbove(reference, 0.4, { type: 'rouge2', measure: 'recall' })",
    failing: { received: WRONG, args: [RIGHT, 0.9] },
    compute: toScoreRougeAbove,
  }),
  answerMatcher({
    name: 'toScoreRougeLAbove',
    summary: "Shorthand for `toScoreRougeAbove(references, min, { type: 'rougeL' })`: ROUGE-L F with stemming ≥ `min`.",
    min: MIN_1,
    options: undefined,
    metric: atLeast('ROUGE-L', { registry: 'rougeL' }),
    example: 'expect(run.cases).toScoreRougeLAbove(0.4)',
    failing: { received: WRONG, args: [RIGHT, 0.9] },
    compute: toScoreRougeLAbove,
  }),
  answerMatcher({
    name: 'toScoreMeteorAbove',
    summary: 'NLTK 3.8 METEOR (exact, Porter stem and WordNet 3.0 synonym matches) ≥ `min` on 0–1; the mean for an eval set.',
    min: MIN_1,
    options: METEOR_OPTIONS,
    metric: atLeast('METEOR', { registry: 'meteor' }),
    example: 'expect(answer).toScoreMeteorAbove(reference, 0.5)',
    failing: { received: WRONG, args: [RIGHT, 0.95] },
    compute: toScoreMeteorAbove,
  }),
] as const
