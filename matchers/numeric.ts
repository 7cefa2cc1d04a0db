import { numericConsistency, type NumericConsistencyDetails, type NumericConsistencyOptions } from '../src/generation/numeric-consistency.js'
import type { NumberMention } from '../src/generation/numbers/extract-numbers.js'
import type { Score } from '../src/score.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { isEvalSet, readAnswer, readAnswerSet } from './generation-received.js'
import { buildMessage, list, quote, table, terminalSafe } from './message.js'
import type { ByReceived } from './received-types.js'
import { atLeast, declareMatcher, isArray, isBoolean, isFiniteNumber, limitOption, type OptionSpec } from './declare.js'
import { matcherError } from './validate.js'

export interface NumericMatchers<R = unknown, T = unknown> {
  /**
   * The answer states the reference's numbers: none contradicted (a different value for the same
   * quantity) and none omitted. Numbers the answer adds are listed but allowed. For an eval set,
   * every answer must pass against its first reference.
   */
  toStateNumbersOf: ByReceived<T, R, [reference: string, options?: NumericConsistencyOptions], [options?: NumericConsistencyOptions]>
}

type NumericScore = Score<NumericConsistencyDetails>

const shown = (m: NumberMention) => JSON.stringify(m.raw)

/** Why an answer fails the numeric check, one line per problem, contradictions first. */
function problems(d: NumericConsistencyDetails): string[] {
  return [
    ...d.contradicted.map(
      (c) =>
        `contradicted: reference ${shown(c.reference)} but answer ${shown(c.candidate)}${c.context.length > 0 ? ` (both about: ${terminalSafe(c.context.join(', '))})` : ''}`,
    ),
    ...d.omitted.map((m) => `omitted: reference ${shown(m)}${m.context.length > 0 ? ` (after: ${terminalSafe([...m.context].reverse().join(' '))})` : ''}`),
  ]
}

function summary(d: NumericConsistencyDetails): string {
  const lines = [`reference numbers stated correctly: ${d.stated} of ${d.total}`]
  if (d.matched.length > 0) lines.push(`matched: ${list(d.matched.map((m) => `${shown(m.reference)} = ${shown(m.candidate)}`))}`)
  if (d.added.length > 0) lines.push(`added by the answer (allowed): ${list(d.added.map(shown))}`)
  if (d.reason) lines.push(d.reason)
  return lines.join('\n')
}

function headline(ctx: MatcherContext, pass: boolean, d: NumericConsistencyDetails): string {
  if (ctx.isNot) return pass ? 'the answer states every reference number, expected it not to' : 'the answer does not state the reference numbers'
  return pass ? 'the answer states every reference number' : `the answer misstates the reference numbers: ${d.contradicted.length} contradicted, ${d.omitted.length} omitted`
}

/** The matcher checks `requireNumbers` itself (its message names the case), so the core never refuses. */
function coreOptions(options: NumericConsistencyOptions | undefined): NumericConsistencyOptions {
  return { ...options, requireNumbers: false }
}

/** A reference without numbers leaves nothing to check: a Matcher error unless `requireNumbers: false`. */
function refuseNoNumbers(ctx: MatcherContext, matcher: string, args: string, score: NumericScore, options: NumericConsistencyOptions | undefined, where: string): void {
  if (score.details.total > 0 || options?.requireNumbers === false) return
  matcherError(
    ctx,
    matcher,
    args,
    `${where}the reference states no number, so there is nothing to check. Pass { requireNumbers: false } to accept a reference without numbers`,
  )
}

export function toStateNumbersOf(this: MatcherContext, received: unknown, ...args: unknown[]): MatcherResult {
  const matcher = 'toStateNumbersOf'
  if (isEvalSet(received)) {
    const [options] = args as [NumericConsistencyOptions | undefined]
    if (options !== undefined && (options === null || typeof options !== 'object')) matcherError(this, matcher, 'options', 'options must be an object', options)
    const cases = readAnswerSet(this, matcher, '', received)
    const scores = cases.map((c, i) => {
      const score = numericConsistency(c.answer, c.references[0] as string, coreOptions(options))
      refuseNoNumbers(this, matcher, '', score, options, `received[${i}] (case ${c.id}): `)
      return score
    })
    const failing = cases.map((c, i) => ({ c, s: scores[i] as NumericScore })).filter((x) => !x.s.details.consistent)
    const pass = failing.length === 0
    const first = scores[0] as NumericScore
    return {
      pass,
      message: () =>
        buildMessage(this, {
          matcher,
          args: '',
          headline: `${cases.length - failing.length} of ${cases.length} answers state their reference numbers${this.isNot ? '; expected at least one not to' : ''}`,
          signature: first.signature,
          sections: [
            failing.length > 0
              ? `answers that misstate numbers:\n${table(
                  failing.map(({ c, s }) => [c.id, problems(s.details)[0] ?? '']),
                  { total: failing.length },
                )}`
              : undefined,
          ],
        }),
      meta: {
        matcher,
        metric: 'numeric consistency',
        value: (cases.length - failing.length) / cases.length,
        threshold: 1,
        comparator: this.isNot ? '<' : '>=',
        pass,
        signature: first.signature,
        perCase: cases.map((c, i) => ({ id: c.id, value: (scores[i] as NumericScore).details.consistent ? 1 : 0, pass: (scores[i] as NumericScore).details.consistent })),
      },
    }
  }
  const [reference, options] = args as [unknown, NumericConsistencyOptions | undefined]
  const answer = readAnswer(this, matcher, 'reference', received)
  if (typeof reference !== 'string') matcherError(this, matcher, 'reference', 'reference must be a string', reference)
  if (options !== undefined && (options === null || typeof options !== 'object')) matcherError(this, matcher, 'reference', 'options must be an object', options)
  const score = numericConsistency(answer, reference, coreOptions(options))
  refuseNoNumbers(this, matcher, 'reference', score, options, '')
  const pass = score.details.consistent
  return {
    pass,
    message: () =>
      buildMessage(this, {
        matcher,
        args: 'reference',
        headline: headline(this, pass, score.details),
        signature: score.signature,
        sections: [problems(score.details).join('\n'), summary(score.details), `answer:    ${quote(answer)}\nreference: ${quote(reference)}`],
      }),
    meta: {
      matcher,
      metric: 'numeric consistency',
      value: score.value,
      threshold: 1,
      comparator: this.isNot ? '<' : '>=',
      pass,
      signature: score.signature,
    },
  }
}

// ---------------------------------------------------------------- declarations

const NUMERIC_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  words: { type: 'a boolean', default: 'true', doc: 'Read number words ("twelve", "three million") as numbers.', check: isBoolean },
  ignore: { type: "an array of 'years' | 'dates' | 'ordinals' | 'versions'", default: '[]', doc: 'Kinds of numbers to leave out of the comparison.', check: isArray },
  relativeTolerance: {
    type: 'a number',
    default: '0',
    doc: 'Two plain numbers are equal when |a − b| ≤ relativeTolerance × max(|a|, |b|); in [0, 1).',
    check: isFiniteNumber,
  },
  rounding: { type: 'a boolean', default: 'false', doc: 'Accept a number written with fewer decimals when the other rounds to it (28.43 ≈ 28.4).', check: isBoolean },
  units: { type: 'a boolean', default: 'true', doc: 'Use units (`GB`, `percent`…) and the words right after a number to tell quantities apart.', check: isBoolean },
  requireNumbers: {
    type: 'a boolean',
    default: 'true',
    doc: 'A reference that states no number is a Matcher error (there is nothing to check); `false` accepts it as consistent.',
    check: isBoolean,
  },
  maxTokens: limitOption('1000000', 'The most whitespace-separated words the answer or reference may have.'),
  maxNumbers: limitOption('1000', 'The most number mentions the answer or reference may have (pairing them is quadratic).'),
}

export const numericDeclarations = [
  declareMatcher({
    name: 'toStateNumbersOf',
    async: false,
    family: 'generation',
    summary:
      "The answer states the reference's numbers: none contradicted (another value for the same quantity) and none omitted; numbers the answer adds are listed but allowed. For an eval set, every answer against its first reference.",
    forms: [
      { received: 'an eval set: cases with `answer` and `reference`', when: isEvalSet, args: [], options: NUMERIC_OPTIONS },
      { received: 'an answer string', args: [{ name: 'reference', type: 'string', doc: 'The reference answer whose numbers must be stated.' }], options: NUMERIC_OPTIONS },
    ],
    metric: atLeast('numeric consistency', { scale: 1 }),
    example: "expect('The model scored 28.4 BLEU.').toStateNumbersOf('It reached 28.4 BLEU in 3.5 days.')",
    failing: { received: 'The big model scored 41.0 BLEU.', args: ['The big model scored 28.4 BLEU after 3.5 days.'] },
    compute: toStateNumbersOf,
  }),
] as const
