import { corpusBleu, sentenceBleu, type BleuOptions, type BleuScore } from '../src/generation/bleu.js'
import { corpusChrf, sentenceChrf, type ChrfOptions, type ChrfScore } from '../src/generation/chrf.js'
import { meteorScore, type MeteorDetails, type MeteorOptions } from '../src/generation/meteor.js'
import type { Score } from '../src/score.js'
import { rougeScore, type RougeScore, type RougeType } from '../src/generation/rouge.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { readAnswer, readAnswerSet, readReferences, referenceStreams, isEvalSet, type AnswerCase } from './generation-received.js'
import { buildMessage, formatNumber, list, quote, table, thresholdHeadline } from './message.js'
import type { ByReceived } from './received-types.js'
import { matcherError, requireThreshold } from './validate.js'

type References = string | readonly string[]
type MeteorScore = Score<MeteorDetails>

export interface RougeMatcherOptions {
  /** @default 'rougeL' */
  readonly type?: RougeType
  /** @default 'fmeasure' */
  readonly measure?: 'precision' | 'recall' | 'fmeasure'
  /** Porter-stem tokens longer than 3 (rouge-score `use_stemmer`). @default true */
  readonly stemmer?: boolean
}

/**
 * Typed signatures of the answer-quality matchers. The received value decides the form: an answer
 * string takes `(references, min)`, an eval set (cases with `answer` and `reference`) takes `(min)`
 * only, and the other combination does not compile.
 */
export interface GenerationMatchers<R = unknown, T = unknown> {
  /** sacrebleu BLEU ≥ `min` on the 0–100 scale. Sentence BLEU for an answer; corpus BLEU for an eval set. */
  toScoreBleuAbove: ByReceived<T, R, [references: References, min: number, options?: BleuOptions], [min: number, options?: BleuOptions]>
  /** sacrebleu chrF ≥ `min` on 0–100 (chrF++ with `{ wordOrder: 2 }`). Corpus chrF for an eval set. */
  toScoreChrfAbove: ByReceived<T, R, [references: References, min: number, options?: ChrfOptions], [min: number, options?: ChrfOptions]>
  /** rouge-score ROUGE (default ROUGE-L F with stemming) ≥ `min` on 0–1. Mean of per-answer scores for an eval set. */
  toScoreRougeAbove: ByReceived<T, R, [references: References, min: number, options?: RougeMatcherOptions], [min: number, options?: RougeMatcherOptions]>
  /** Shorthand for `toScoreRougeAbove(references, min, { type: 'rougeL' })`. */
  toScoreRougeLAbove: ByReceived<T, R, [references: References, min: number], [min: number]>
  /** NLTK METEOR (exact, Porter stem, WordNet 3.0 synonyms) ≥ `min` on 0–1. Mean for an eval set. */
  toScoreMeteorAbove: ByReceived<T, R, [references: References, min: number, options?: MeteorOptions], [min: number, options?: MeteorOptions]>
}

const SCALE_100: readonly [number, number] = [0, 100]

/** A BLEU/chrF threshold in (0, 1) is almost certainly on the wrong scale; say so instead of passing everything. */
function requireHundredScale(ctx: MatcherContext, matcher: string, args: string, min: unknown): number {
  const value = requireThreshold(ctx, matcher, args, 'min', min, SCALE_100)
  if (value > 0 && value < 1) {
    matcherError(
      ctx,
      matcher,
      args,
      `min is on sacrebleu's 0–100 scale, got ${value}. Did you mean ${formatNumber(value * 100, undefined, 1)}? (A threshold below 1 would pass almost any answer.)`,
    )
  }
  return value
}

function meta(ctx: MatcherContext, matcher: string, metric: string, value: number, min: number, pass: boolean, signature: string, perCase?: Array<{ id: string; value: number }>) {
  return {
    matcher,
    metric,
    value,
    threshold: min,
    comparator: ctx.isNot ? ('<' as const) : ('>=' as const),
    pass,
    signature,
    ...(perCase ? { perCase: perCase.map((c) => ({ ...c, pass: c.value >= min })) } : {}),
  }
}

/** Lowest per-answer values first, with a note per case. */
function perCaseTable(rows: ReadonlyArray<{ id: string; value: number; note?: string }>, min: number, decimals: number, heading: string): string {
  const ordered = rows.map((r, i) => ({ ...r, i })).sort((a, b) => a.value - b.value || a.i - b.i)
  const below = ordered.filter((r) => r.value < min).length
  return `${heading}: ${below} of ${rows.length} below ${formatNumber(min, undefined, decimals)} (lowest first)\n${table(
    ordered.map((r) => [r.id, formatNumber(r.value, min, decimals), r.note ?? '']),
  )}`
}

// ---------------------------------------------------------------- BLEU

function bleuBreakdown(score: BleuScore): string {
  const d = score.details
  const p = d.precisions.map((x) => x.toFixed(1)).join('/')
  const verbose = `${score.value.toFixed(2)} ${p} (BP = ${d.bp.toFixed(3)} ratio = ${d.ratio.toFixed(3)} hyp_len = ${d.sysLen} ref_len = ${d.refLen})`
  const unmatched = d.unmatchedNgrams
    .map((grams, i) => (grams.length > 0 ? `  ${i + 1}-grams: ${grams.map((g) => JSON.stringify(g)).join(', ')}` : undefined))
    .filter(Boolean)
  return unmatched.length > 0 ? `${verbose}\ncandidate n-grams found in no reference:\n${unmatched.join('\n')}` : verbose
}

export function toScoreBleuAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  const matcher = 'toScoreBleuAbove'
  if (isEvalSet(received)) {
    const [min, options] = args as [unknown, BleuOptions | undefined]
    requireHundredScale(this, matcher, 'min', min)
    const cases = readAnswerSet(this, matcher, 'min', received)
    const score = corpusBleu(cases.map((c) => c.answer), referenceStreams(cases), options)
    const pass = score.value >= (min as number)
    return {
      pass,
      message: () =>
        buildMessage(this, {
          matcher,
          args: 'min',
          headline: thresholdHeadline(this, { label: `corpus BLEU over ${cases.length} answers`, value: score.value, min: min as number, decimals: 2 }),
          signature: score.signature,
          sections: [
            bleuBreakdown(score),
            perCaseTable(
              cases.map((c) => ({ id: c.id, value: sentenceBleu(c.answer, c.references, options).value })),
              min as number,
              2,
              'sentence BLEU per answer (for orientation; the corpus score is computed from summed n-gram counts)',
            ),
          ],
        }),
      meta: meta(this, matcher, 'BLEU', score.value, min as number, pass, score.signature),
    }
  }
  const [references, min, options] = args as [unknown, unknown, BleuOptions | undefined]
  const answer = readAnswer(this, matcher, 'references, min', received)
  const refs = readReferences(this, matcher, 'references, min', references)
  requireHundredScale(this, matcher, 'references, min', min)
  const score = sentenceBleu(answer, refs, options)
  const pass = score.value >= (min as number)
  return {
    pass,
    message: () =>
      buildMessage(this, {
        matcher,
        args: 'references, min',
        headline: thresholdHeadline(this, { label: 'BLEU', value: score.value, min: min as number, decimals: 2 }),
        signature: score.signature,
        sections: [bleuBreakdown(score), `answer:    ${quote(answer)}\n${refs.map((r, i) => `reference${refs.length > 1 ? ` ${i + 1}` : ''}: ${quote(r)}`).join('\n')}`],
      }),
    meta: meta(this, matcher, 'BLEU', score.value, min as number, pass, score.signature),
  }
}

// ---------------------------------------------------------------- chrF

function chrfBreakdown(score: ChrfScore): string {
  const d = score.details
  return `precision ${formatNumber(d.precision * 100, undefined, 2)}  recall ${formatNumber(d.recall * 100, undefined, 2)}  (averaged over ${d.effectiveOrder} n-gram orders)`
}

export function toScoreChrfAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  const matcher = 'toScoreChrfAbove'
  if (isEvalSet(received)) {
    const [min, options] = args as [unknown, ChrfOptions | undefined]
    requireHundredScale(this, matcher, 'min', min)
    const cases = readAnswerSet(this, matcher, 'min', received)
    const score = corpusChrf(cases.map((c) => c.answer), referenceStreams(cases), options)
    const pass = score.value >= (min as number)
    return {
      pass,
      message: () =>
        buildMessage(this, {
          matcher,
          args: 'min',
          headline: thresholdHeadline(this, { label: `corpus ${score.metric} over ${cases.length} answers`, value: score.value, min: min as number, decimals: 2 }),
          signature: score.signature,
          sections: [
            chrfBreakdown(score),
            perCaseTable(cases.map((c) => ({ id: c.id, value: sentenceChrf(c.answer, c.references, options).value })), min as number, 2, 'sentence chrF per answer'),
          ],
        }),
      meta: meta(this, matcher, score.metric, score.value, min as number, pass, score.signature),
    }
  }
  const [references, min, options] = args as [unknown, unknown, ChrfOptions | undefined]
  const answer = readAnswer(this, matcher, 'references, min', received)
  const refs = readReferences(this, matcher, 'references, min', references)
  requireHundredScale(this, matcher, 'references, min', min)
  const score = sentenceChrf(answer, refs, options)
  const pass = score.value >= (min as number)
  return {
    pass,
    message: () =>
      buildMessage(this, {
        matcher,
        args: 'references, min',
        headline: thresholdHeadline(this, { label: score.metric, value: score.value, min: min as number, decimals: 2 }),
        signature: score.signature,
        sections: [chrfBreakdown(score), `answer:    ${quote(answer)}`],
      }),
    meta: meta(this, matcher, score.metric, score.value, min as number, pass, score.signature),
  }
}

// ---------------------------------------------------------------- ROUGE

function resolveRouge(ctx: MatcherContext, matcher: string, args: string, options: unknown): Required<RougeMatcherOptions> {
  if (options !== undefined && (options === null || typeof options !== 'object')) matcherError(ctx, matcher, args, 'options must be an object', options)
  const o = (options ?? {}) as RougeMatcherOptions
  const type = o.type ?? 'rougeL'
  if (!/^rouge([1-9]|L|Lsum)$/.test(type)) matcherError(ctx, matcher, args, "options.type must be 'rouge1'…'rouge9', 'rougeL' or 'rougeLsum'", type)
  const measure = o.measure ?? 'fmeasure'
  if (measure !== 'precision' && measure !== 'recall' && measure !== 'fmeasure') {
    matcherError(ctx, matcher, args, "options.measure must be 'precision', 'recall' or 'fmeasure'", measure)
  }
  return { type, measure, stemmer: o.stemmer ?? true }
}

function rougeOf(answer: string, refs: readonly string[], o: Required<RougeMatcherOptions>): RougeScore {
  return rougeScore(answer, refs, { types: [o.type], stemmer: o.stemmer })[o.type] as RougeScore
}

const MEASURE_LABEL = { precision: 'P', recall: 'R', fmeasure: 'F' } as const

function rougeBreakdown(score: RougeScore): string {
  const d = score.details
  const prf = `P ${formatNumber(d.precision)}  R ${formatNumber(d.recall)}  F ${formatNumber(d.fmeasure)}  (${d.matchCount} of ${d.referenceCount} reference units matched${d.perReference.length > 1 ? `, best of ${d.perReference.length} references: #${d.bestReferenceIndex + 1}` : ''})`
  const missed = d.missedReferenceTokens.length > 0 ? `missed reference units (after tokenizing${d.stemmer ? ' and stemming' : ''}): ${list(d.missedReferenceTokens.map((t) => JSON.stringify(t)))}` : undefined
  return [prf, missed].filter(Boolean).join('\n')
}

function rougeMatcher(ctx: MatcherContext, matcher: string, received: unknown, args: unknown[], fixed?: Partial<RougeMatcherOptions>): MatcherResult {
  if (isEvalSet(received)) {
    const [min, options] = args as [unknown, unknown]
    const o = resolveRouge(ctx, matcher, 'min', { ...((options as object) ?? {}), ...fixed })
    requireThreshold(ctx, matcher, 'min', 'min', min)
    const cases = readAnswerSet(ctx, matcher, 'min', received)
    const scores = cases.map((c) => rougeOf(c.answer, c.references, o))
    const values = scores.map((s) => s.details[o.measure])
    const value = values.reduce((a, b) => a + b, 0) / values.length
    const pass = value >= (min as number)
    const label = `mean ${(scores[0] as RougeScore).metric} ${MEASURE_LABEL[o.measure]} over ${cases.length} answers`
    return {
      pass,
      message: () =>
        buildMessage(ctx, {
          matcher,
          args: 'min',
          headline: thresholdHeadline(ctx, { label, value, min: min as number }),
          signature: (scores[0] as RougeScore).signature,
          sections: [
            perCaseTable(
              cases.map((c, i) => ({ id: c.id, value: values[i] as number, note: missedNote((scores[i] as RougeScore).details.missedReferenceTokens) })),
              min as number,
              4,
              'per answer',
            ),
          ],
        }),
      meta: meta(ctx, matcher, label, value, min as number, pass, (scores[0] as RougeScore).signature, cases.map((c, i) => ({ id: c.id, value: values[i] as number }))),
    }
  }
  const [references, min, options] = args as [unknown, unknown, unknown]
  const argNames = 'references, min'
  const answer = readAnswer(ctx, matcher, argNames, received)
  const refs = readReferences(ctx, matcher, argNames, references)
  requireThreshold(ctx, matcher, argNames, 'min', min)
  const o = resolveRouge(ctx, matcher, argNames, { ...((options as object) ?? {}), ...fixed })
  const score = rougeOf(answer, refs, o)
  const value = score.details[o.measure]
  const pass = value >= (min as number)
  return {
    pass,
    message: () =>
      buildMessage(ctx, {
        matcher,
        args: argNames,
        headline: thresholdHeadline(ctx, { label: `${score.metric} ${MEASURE_LABEL[o.measure]}`, value, min: min as number }),
        signature: score.signature,
        sections: [rougeBreakdown(score), `answer:    ${quote(answer)}`],
      }),
    meta: meta(ctx, matcher, `${score.metric} ${MEASURE_LABEL[o.measure]}`, value, min as number, pass, score.signature),
  }
}

function missedNote(tokens: readonly string[]): string {
  return tokens.length > 0 ? `missed: ${list(tokens.map((t) => JSON.stringify(t)), 5)}` : ''
}

export function toScoreRougeAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  return rougeMatcher(this, 'toScoreRougeAbove', received, args)
}

export function toScoreRougeLAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  return rougeMatcher(this, 'toScoreRougeLAbove', received, args.slice(0, isEvalSet(received) ? 1 : 2), { type: 'rougeL' })
}

// ---------------------------------------------------------------- METEOR

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

export function toScoreMeteorAbove(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  const matcher = 'toScoreMeteorAbove'
  if (isEvalSet(received)) {
    const [min, options] = args as [unknown, MeteorOptions | undefined]
    requireThreshold(this, matcher, 'min', 'min', min)
    const cases = readAnswerSet(this, matcher, 'min', received)
    const scores = cases.map((c) => meteorScore(c.answer, c.references, options))
    const value = scores.reduce((a, s) => a + s.value, 0) / scores.length
    const pass = value >= (min as number)
    const first = scores[0] as MeteorScore
    return {
      pass,
      message: () =>
        buildMessage(this, {
          matcher,
          args: 'min',
          headline: thresholdHeadline(this, { label: `mean METEOR over ${cases.length} answers`, value, min: min as number }),
          signature: first.signature,
          sections: [
            perCaseTable(
              cases.map((c, i) => ({ id: c.id, value: (scores[i] as MeteorScore).value, note: unmatchedNote((scores[i] as MeteorScore).details.unmatchedReference) })),
              min as number,
              4,
              'per answer',
            ),
          ],
        }),
      meta: meta(this, matcher, 'METEOR', value, min as number, pass, first.signature, cases.map((c, i) => ({ id: c.id, value: (scores[i] as MeteorScore).value }))),
    }
  }
  const [references, min, options] = args as [unknown, unknown, MeteorOptions | undefined]
  const argNames = 'references, min'
  const answer = readAnswer(this, matcher, argNames, received)
  const refs = readReferences(this, matcher, argNames, references)
  requireThreshold(this, matcher, argNames, 'min', min)
  const score = meteorScore(answer, refs, options)
  const pass = score.value >= (min as number)
  return {
    pass,
    message: () =>
      buildMessage(this, {
        matcher,
        args: argNames,
        headline: thresholdHeadline(this, { label: 'METEOR', value: score.value, min: min as number }),
        signature: score.signature,
        sections: [meteorBreakdown(score), `answer:    ${quote(answer)}`],
      }),
    meta: meta(this, matcher, 'METEOR', score.value, min as number, pass, score.signature),
  }
}

function unmatchedNote(tokens: readonly string[]): string {
  return tokens.length > 0 ? `unmatched reference: ${list(tokens.map((t) => JSON.stringify(t)), 5)}` : ''
}

export type { AnswerCase }
