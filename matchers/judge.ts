import {
  answerRelevance,
  completeness,
  contextRecall,
  contextUtilization,
  groundedness,
  pairwiseJudge,
  rubricScore,
  type CompletenessSource,
  type ContextInput,
  type Rubric,
} from '../src/judge/index.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { isEvalSet } from './generation-received.js'
import { failures, itemRow, metricOptions, reasonCell, requireAnswer, requireContexts, requireString, relevanceOptions, requireText, run } from './judge-shared.js'
import { isCaseSet } from './judge-set.js'
import { completeSet, contextRecallSet, groundedSet, relevanceSet, rubricSet, utilizeSet } from './judge-set-forms.js'
import { list, quote, table, terminalSafe } from './message.js'
import type { ByReceived } from './received-types.js'
import { atLeast, declareMatcher, oneOf, type ArgSpec, type FormSpec, type OptionSpec } from './declare.js'
import { EMPTY, JUDGE_OPTIONS, SET_JUDGE_OPTIONS } from './judge-option-specs.js'
import { matcherError } from './validate.js'

export type {
  CompleteMatcherOptions,
  CompleteSetMatcherOptions,
  ContextRecallMatcherOptions,
  ContextRecallSetMatcherOptions,
  EmptyMatcherOptions,
  GroundedMatcherOptions,
  GroundedSetMatcherOptions,
  JudgeMatcherOptions,
  JudgeSetMatcherOptions,
  PreferenceMatcherOptions,
  QuestionMatcherOptions,
  RelevanceMatcherOptions,
  RelevanceSetMatcherOptions,
  RubricMatcherOptions,
  RubricSetMatcherOptions,
  UtilizeSetMatcherOptions,
} from './judge-options.js'
import type * as Opt from './judge-options.js'

type P = Promise<void>

/**
 * Typed signatures of the LLM-judge matchers. All are async: `await` them. Thresholds are on 0–1 and
 * mean ≥ (`.not`: <). A judge that cannot answer (server down, model missing, malformed replies, a replay
 * cache miss) makes the assertion FAIL, with or without `.not`, with a message that says what to do.
 * The received value picks the form: an answer string (the retrieved contexts for toHaveContextRecall)
 * takes the arguments below; an eval set (an array of cases or `{ cases }`) takes only `min` (and the
 * rubric) and reads answer, question, contexts and reference from each case, asserting on the MEAN.
 * (`R` is unused: async matchers return `Promise<void>` in every runner.)
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface JudgeMatchers<R = unknown, T = unknown> {
  /**
   * Groundedness (faithfulness) of the received answer in `contexts` ≥ `min` (default 1: every claim
   * supported). On failure, lists the unsupported claims with the judge's reasons, contradicted first.
   * For an eval set, the mean over the cases (each case's `answer` in its `contexts`).
   * @example await expect(answer).toBeGroundedIn(retrievedChunks)
   * @example await expect(answer).toBeGroundedIn(retrievedChunks, 0.8, { repeat: 3, passRate: 1 })
   * @example await expect(evalSet).toBeGroundedIn(0.8, { concurrency: 2 })
   */
  toBeGroundedIn: ByReceived<
    T,
    P,
    [contexts: readonly ContextInput[], min?: number, options?: Opt.GroundedMatcherOptions],
    [min?: number, options?: Opt.GroundedSetMatcherOptions]
  > &
    ByReceived<T, P, [contexts: readonly ContextInput[], options: Opt.GroundedMatcherOptions], [options: Opt.GroundedSetMatcherOptions]>
  /**
   * Completeness of the received answer against a reference answer or the contexts ≥ `min` (share of
   * key points covered). On failure, lists the missing key points. For an eval set, each case against
   * its `reference` (else its contexts; `{ source }` chooses), with its question.
   * @example await expect(answer).toBeCompleteGiven({ reference: 'Paris, on the Seine.' }, 1)
   */
  toBeCompleteGiven: ByReceived<T, P, [source: CompletenessSource, min: number, options?: Opt.CompleteMatcherOptions], [min: number, options?: Opt.CompleteSetMatcherOptions]>
  /**
   * Context utilization of the received answer ≥ `min` (share of the chunks it draws on). With
   * `{ question }`, unused chunks are split into relevant (ignored-good) and irrelevant (ignored-noise).
   * For an eval set, each case's answer, contexts and question.
   * @example await expect(answer).toUtilizeContext(chunks, 0.5, { question })
   */
  toUtilizeContext: ByReceived<
    T,
    P,
    [contexts: readonly ContextInput[], min: number, options?: Opt.QuestionMatcherOptions],
    [min: number, options?: Opt.UtilizeSetMatcherOptions]
  >
  /**
   * Context recall of the received retrieved contexts ≥ `min`: the share of the reference answer's
   * statements they account for. On failure, lists the statements retrieval missed. For an eval set,
   * each case's contexts against its reference.
   * @example await expect(retrievedChunks).toHaveContextRecall(referenceAnswer, 0.9)
   */
  toHaveContextRecall: ByReceived<
    T,
    P,
    [reference: string, min: number, options?: Opt.ContextRecallMatcherOptions],
    [min: number, options?: Opt.ContextRecallSetMatcherOptions]
  >
  /**
   * Answer relevance of the received answer to `question` ≥ `min` (share of its statements that address it).
   * An answer with no statement fails with or without `.not` unless `{ empty: 'pass' }` (then it scores 1).
   * For an eval set, each case's answer to its question.
   * @example await expect(answer).toBeRelevantTo('What is the capital of France?', 0.8)
   */
  toBeRelevantTo: ByReceived<T, P, [question: string, min: number, options?: Opt.RelevanceMatcherOptions], [min: number, options?: Opt.RelevanceSetMatcherOptions]>
  /**
   * Rubric score of the received answer, normalised to 0–1 ((raw − lo)/(hi − lo), default scale 1–5), ≥ `min`.
   * For an eval set, the mean over the cases (each with its question, contexts and reference).
   * @example await expect(answer).toSatisfyRubric({ id: 'cites', criteria: 'Cites its sources.' }, 0.75)
   */
  toSatisfyRubric: ByReceived<
    T,
    P,
    [rubric: string | Rubric, min: number, options?: Opt.RubricMatcherOptions],
    [rubric: string | Rubric, min: number, options?: Opt.RubricSetMatcherOptions]
  >
  /**
   * The judge prefers the received answer over `otherAnswer` for `question`, asked in both orders; a
   * disagreement between the orders is a tie, which does not pass.
   * @example await expect(newAnswer).toBePreferredOver(oldAnswer, { question })
   */
  toBePreferredOver(otherAnswer: string, options: Opt.PreferenceMatcherOptions): Promise<void>
}

/** `await expect(answer).toBeGroundedIn(contexts, min = 1, options?)`. See {@link JudgeMatchers}. */
export async function toBeGroundedIn(this: MatcherContext, received: unknown, contexts: unknown, min?: unknown, options?: unknown): Promise<MatcherResult> {
  if (isEvalSet(received)) return groundedSet(this, received, contexts, min)
  const matcher = 'toBeGroundedIn'
  const args = 'contexts, min'
  // `toBeGroundedIn(contexts, { judge })`: options in the place of min, min defaults to 1.
  if (min !== null && typeof min === 'object' && options === undefined) {
    options = min
    min = undefined
  }
  const answer = requireAnswer(this, matcher, args, received)
  const chunks = requireContexts(this, matcher, args, 'contexts', contexts)
  return run(this, {
    matcher,
    args,
    label: 'groundedness',
    emptyOption: true,
    min: min ?? 1,
    options,
    // A falsy onEmpty ('' too) means the core's default.
    compute: (judge, o: Opt.GroundedMatcherOptions | undefined) => groundedness(answer, chunks, judge, { ...metricOptions(o), ...(o?.onEmpty ? { onEmpty: o.onEmpty } : {}) }),
    breakdown: (score) => {
      const d = score.details
      if (d.empty) return [d.note]
      // Contradictions first: they are worse than gaps.
      const unsupported = [...d.claims.filter((c) => c.verdict === 'contradicted'), ...d.claims.filter((c) => c.verdict === 'not_found')]
      const rows = unsupported.map((c) => [
        c.verdict === 'contradicted' ? 'contradicted' : 'not found',
        quote(c.claim, 80),
        c.contextId === null ? '' : `(context ${c.contextId})`,
        reasonCell(c.reason),
      ])
      return [
        failures(rows, d.total, `all ${d.total} claims supported`, 'unsupported claims', ', contradicted first'),
        `supported: ${d.supported} of ${d.total}${d.note ? `; ${d.note}` : ''}`,
      ]
    },
  })
}

/** `await expect(answer).toBeCompleteGiven({ reference } | { contexts }, min, options?)`. */
export async function toBeCompleteGiven(this: MatcherContext, received: unknown, source: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  if (isEvalSet(received)) return completeSet(this, received, source, min)
  const matcher = 'toBeCompleteGiven'
  const args = 'source, min'
  const answer = requireAnswer(this, matcher, args, received)
  const s = source as { contexts?: unknown; reference?: unknown } | null
  if (s === null || typeof s !== 'object' || 'contexts' in s === 'reference' in s) {
    matcherError(this, matcher, args, 'source must be { reference: string } or { contexts: [...] } (exactly one)', source)
  }
  if ('reference' in s) requireText(this, matcher, args, 'source.reference', s.reference)
  else requireContexts(this, matcher, args, 'source.contexts', s.contexts)
  return run(this, {
    matcher,
    args,
    label: 'completeness',
    emptyOption: true,
    min,
    options,
    optionKinds: { question: 'string' },
    compute: (judge, o: Opt.QuestionMatcherOptions | undefined) => completeness(answer, source as CompletenessSource, judge, metricOptions(o, ['question'])),
    breakdown: (score) => {
      const d = score.details
      if (d.empty) return [d.note]
      const missing = d.points.filter((p) => p.verdict === 'missing')
      return [
        failures(
          missing.map((p) => itemRow(p.point, p.reason)),
          d.total,
          `all ${d.total} key points of the ${d.source} covered`,
          `missing key points of the ${d.source}`,
        ),
        `covered: ${d.covered} of ${d.total}`,
      ]
    },
  })
}

/** `await expect(answer).toUtilizeContext(contexts, min, { question }?)`. */
export async function toUtilizeContext(this: MatcherContext, received: unknown, contexts: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  if (isEvalSet(received)) return utilizeSet(this, received, contexts, min)
  const matcher = 'toUtilizeContext'
  const args = 'contexts, min'
  const answer = requireAnswer(this, matcher, args, received)
  const chunks = requireContexts(this, matcher, args, 'contexts', contexts)
  return run(this, {
    matcher,
    args,
    label: 'context utilization',
    min,
    options,
    optionKinds: { question: 'string' },
    compute: (judge, o: Opt.QuestionMatcherOptions | undefined) => contextUtilization(answer, chunks, judge, metricOptions(o, ['question'])),
    breakdown: (score) => {
      const d = score.details
      const byId = new Map(d.chunks.map((c) => [c.id, c]))
      // Relevant-but-ignored chunks first: those are what the answer should have used.
      const unused = [...d.unused].sort((a, b) => Number(b.relevant === true) - Number(a.relevant === true) || a.index - b.index)
      const rows = unused.map((u) => [
        u.id,
        u.relevant === undefined ? 'unused' : u.relevant ? 'relevant, ignored' : 'irrelevant, ignored',
        reasonCell(byId.get(u.id)?.reason ?? ''),
      ])
      return [
        failures(rows, d.total, `all ${d.total} chunks used`, 'unused chunks', d.ignoredRelevant ? ', relevant first' : ''),
        `used: ${d.used.length === 0 ? 'none' : list(d.used)}`,
      ]
    },
  })
}

/** `await expect(retrievedContexts).toHaveContextRecall(reference, min)`. */
export async function toHaveContextRecall(this: MatcherContext, received: unknown, reference: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  if (isCaseSet(received)) return contextRecallSet(this, received, reference, min)
  const matcher = 'toHaveContextRecall'
  const args = 'reference, min'
  const chunks = requireContexts(this, matcher, args, 'received value (the retrieved contexts)', received)
  const ref = requireText(this, matcher, args, 'reference', reference)
  return run(this, {
    matcher,
    args,
    label: 'context recall',
    emptyOption: true,
    min,
    options,
    compute: (judge, o) => contextRecall(ref, chunks, judge, metricOptions(o)),
    breakdown: (score) => {
      const d = score.details
      if (d.empty) return [d.note]
      const missing = d.statements.filter((s) => s.verdict === 'not_attributed')
      return [
        failures(
          missing.map((s) => itemRow(s.statement, s.reason)),
          d.total,
          `all ${d.total} reference statements found in the contexts`,
          'reference statements not found in the contexts',
        ),
        `attributed: ${d.attributed} of ${d.total}${d.note ? `; ${d.note}` : ''}`,
      ]
    },
  })
}

/** `await expect(answer).toBeRelevantTo(question, min)`. */
export async function toBeRelevantTo(this: MatcherContext, received: unknown, question: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  if (isEvalSet(received)) return relevanceSet(this, received, question, min)
  const matcher = 'toBeRelevantTo'
  const args = 'question, min'
  const answer = requireAnswer(this, matcher, args, received)
  const q = requireText(this, matcher, args, 'question', question)
  return run(this, {
    matcher,
    args,
    label: 'answer relevance',
    emptyOption: true,
    min,
    options,
    compute: (judge, o: Opt.RelevanceMatcherOptions | undefined) => answerRelevance(q, answer, judge, relevanceOptions(o)),
    breakdown: (score) => {
      const d = score.details
      if (d.empty) return [d.note]
      const off = d.statements.filter((s) => !s.relevant)
      return [
        failures(
          off.map((s) => itemRow(s.statement, s.reason)),
          d.total,
          `all ${d.total} statements address the question`,
          'statements that do not address the question',
        ),
        `question: ${quote(q)}`,
      ]
    },
  })
}

/** `await expect(answer).toSatisfyRubric(rubric, min, options?)`. */
export async function toSatisfyRubric(this: MatcherContext, received: unknown, rubric: unknown, min: unknown, options?: unknown): Promise<MatcherResult> {
  if (isEvalSet(received)) return rubricSet(this, received, rubric, min, options)
  const matcher = 'toSatisfyRubric'
  const args = 'rubric, min'
  const answer = requireAnswer(this, matcher, args, received)
  if (typeof rubric !== 'string' && (rubric === null || typeof rubric !== 'object')) {
    matcherError(this, matcher, args, 'rubric must be a string or { criteria, scale?, levels?, id? }', rubric)
  }
  return run(this, {
    matcher,
    args,
    label: 'rubric score',
    min,
    minHint: ' (the rubric score normalised to 0–1)',
    options,
    optionKinds: { question: 'string', reference: 'string', contexts: 'contexts' },
    compute: (judge, o: Opt.RubricMatcherOptions | undefined) =>
      rubricScore(answer, rubric as string | Rubric, judge, metricOptions(o, ['question', 'contexts', 'reference'])),
    breakdown: (score) => {
      const d = score.details
      return [`rubric ${terminalSafe(String(d.rubricId))}: raw score ${d.raw} on ${d.min}…${d.max}\nreason: ${quote(d.reason, 300)}`]
    },
  })
}

/** `await expect(answer).toBePreferredOver(otherAnswer, { question })`. */
export async function toBePreferredOver(this: MatcherContext, received: unknown, otherAnswer: unknown, options: unknown): Promise<MatcherResult> {
  const matcher = 'toBePreferredOver'
  const args = 'otherAnswer, { question }'
  const answer = requireAnswer(this, matcher, args, received)
  const other = requireString(this, matcher, args, 'otherAnswer', otherAnswer)
  if (options === null || typeof options !== 'object' || typeof (options as { question?: unknown }).question !== 'string') {
    matcherError(this, matcher, args, 'options must include the question both answers respond to: { question: string }', options)
  }
  requireText(this, matcher, args, 'options.question', (options as { question: string }).question)
  const { question } = options as Opt.PreferenceMatcherOptions
  return run(this, {
    matcher,
    args,
    label: 'pairwise preference',
    headlineLabel: 'pairwise preference (1 received preferred, 0.5 tie, 0 other preferred)',
    min: 1,
    options,
    optionKinds: { criteria: 'string' },
    compute: (judge, o: Opt.PreferenceMatcherOptions | undefined) => pairwiseJudge(question, answer, other, judge, metricOptions(o, ['criteria'])),
    breakdown: (score) => {
      const d = score.details
      const name = (w: string) => (w === 'A' ? 'received' : w === 'B' ? 'other answer' : 'tie')
      const rows = d.verdicts.map((v) => [v.order === 'AB' ? 'received shown first:' : 'other shown first:', name(v.preferred), reasonCell(v.reason)])
      return [
        `winner: ${name(d.winner)}${d.consistent ? '' : ' (the two orders disagreed, so it counts as a tie; position bias?)'}\n${table(rows)}`,
        `question: ${quote(question)}\nreceived: ${quote(answer, 80)}\nother:    ${quote(other, 80)}`,
      ]
    },
  })
}

// ---------------------------------------------------------------- declarations

const QUESTION: OptionSpec = { type: 'a string', doc: "The user's question, shown to the judge." }
const ANSWER_RECEIVED = 'an answer string'
const MIN_JUDGE: ArgSpec = { name: 'min', type: 'number', doc: 'Threshold on 0–1; passes when the score is ≥ min.' }
const CONTEXTS: ArgSpec = { name: 'contexts', type: 'ContextInput[]', doc: 'The retrieved chunks: strings or `{ id?, text }`.' }
const judgeMetric = (name: string) => atLeast(name, { scale: 1 })
/** The eval-set form of a judge matcher: `reads` says what each case must carry. */
function setForm(reads: string, args: readonly ArgSpec[], options: Readonly<Record<string, OptionSpec>> = {}, when: (r: unknown) => boolean = isEvalSet): FormSpec {
  return { received: `an eval set: an array of cases or { cases }, each with ${reads}; asserts on the mean`, when, args, options: { ...SET_JUDGE_OPTIONS, ...options } }
}

export const judgeDeclarations = [
  declareMatcher({
    name: 'toBeGroundedIn',
    async: true,
    family: 'judge',
    summary: "Groundedness (faithfulness) of the answer in `contexts` ≥ `min` (default 1: every claim supported); lists unsupported claims with the judge's reasons.",
    forms: [
      setForm('`answer` and `contexts` (or `retrieved` items with `text`)', [{ ...MIN_JUDGE, optional: true, doc: 'Threshold on the mean, 0–1. @default 1' }], {
        empty: EMPTY,
        onEmpty: { type: "'vacuous' | 'nan'", default: "'vacuous'", doc: 'As for one answer.', check: oneOf('vacuous', 'nan') },
      }),
      {
        received: ANSWER_RECEIVED,
        args: [CONTEXTS, { ...MIN_JUDGE, optional: true, doc: 'Threshold on 0–1. @default 1' }],
        options: {
          ...JUDGE_OPTIONS,
          empty: EMPTY,
          onEmpty: {
            type: "'vacuous' | 'nan'",
            default: "'vacuous'",
            doc: "With `empty: 'pass'`, an answer without claims scores 1 (`'vacuous'`) or fails as not computable (`'nan'`).",
          },
        },
      },
    ],
    metric: judgeMetric('groundedness'),
    example: 'await expect(answer).toBeGroundedIn(retrievedChunks, 0.8, { repeat: 3, passRate: 1 })',
    compute: toBeGroundedIn,
  }),
  declareMatcher({
    name: 'toBeCompleteGiven',
    async: true,
    family: 'judge',
    summary: 'Completeness of the answer against a reference answer or the contexts ≥ `min` (share of key points covered); lists the missing key points.',
    forms: [
      setForm('`answer` and `reference` or `contexts` (and `question`, shown to the judge)', [MIN_JUDGE], {
        empty: EMPTY,
        source: {
          type: "'reference' | 'contexts'",
          default: "each case's `reference` when it has one, else its contexts",
          doc: "Eval sets only: where each case's key points come from.",
          check: oneOf('reference', 'contexts'),
        },
      }),
      {
        received: ANSWER_RECEIVED,
        args: [{ name: 'source', type: '{ reference } | { contexts }', doc: 'Where the key points come from.' }, MIN_JUDGE],
        options: { ...JUDGE_OPTIONS, question: QUESTION, empty: EMPTY },
      },
    ],
    metric: judgeMetric('completeness'),
    example: "await expect(answer).toBeCompleteGiven({ reference: 'Paris, on the Seine.' }, 1)",
    compute: toBeCompleteGiven,
  }),
  declareMatcher({
    name: 'toUtilizeContext',
    async: true,
    family: 'judge',
    summary: 'Context utilization ≥ `min`: the share of the chunks the answer draws on; with `{ question }` unused chunks are split into relevant and noise.',
    forms: [
      setForm('`answer` and `contexts` (and `question`, which splits unused chunks)', [MIN_JUDGE]),
      { received: ANSWER_RECEIVED, args: [CONTEXTS, MIN_JUDGE], options: { ...JUDGE_OPTIONS, question: QUESTION } },
    ],
    metric: judgeMetric('context utilization'),
    example: 'await expect(answer).toUtilizeContext(chunks, 0.5, { question })',
    compute: toUtilizeContext,
  }),
  declareMatcher({
    name: 'toHaveContextRecall',
    async: true,
    family: 'judge',
    summary: "Context recall of the received retrieved contexts ≥ `min`: the share of the reference answer's statements they account for.",
    forms: [
      setForm('`contexts` (or `retrieved` items with `text`) and `reference`', [MIN_JUDGE], { empty: EMPTY }, isCaseSet),
      {
        received: 'the retrieved contexts (ContextInput[])',
        args: [{ name: 'reference', type: 'string', doc: 'The reference answer.' }, MIN_JUDGE],
        options: { ...JUDGE_OPTIONS, empty: EMPTY },
      },
    ],
    metric: judgeMetric('context recall'),
    example: 'await expect(retrievedChunks).toHaveContextRecall(referenceAnswer, 0.9)',
    compute: toHaveContextRecall,
  }),
  declareMatcher({
    name: 'toBeRelevantTo',
    async: true,
    family: 'judge',
    summary: 'Answer relevance to `question` ≥ `min`: the share of its statements that address the question.',
    forms: [
      setForm('`answer` and `question`', [MIN_JUDGE], { empty: EMPTY }),
      { received: ANSWER_RECEIVED, args: [{ name: 'question', type: 'string', doc: "The user's question." }, MIN_JUDGE], options: { ...JUDGE_OPTIONS, empty: EMPTY } },
    ],
    metric: judgeMetric('answer relevance'),
    example: "await expect(answer).toBeRelevantTo('What is the capital of France?', 0.8)",
    compute: toBeRelevantTo,
  }),
  declareMatcher({
    name: 'toSatisfyRubric',
    async: true,
    family: 'judge',
    summary: 'Rubric score normalised to 0–1 ((raw − lo)/(hi − lo), default scale 1–5) ≥ `min`.',
    forms: [
      setForm('`answer` (and `question`, `contexts`, `reference`, shown to the judge)', [
        { name: 'rubric', type: 'string | Rubric', doc: 'The criteria, or `{ id?, criteria, scale?, levels? }`.' },
        MIN_JUDGE,
      ]),
      {
        received: ANSWER_RECEIVED,
        args: [{ name: 'rubric', type: 'string | Rubric', doc: 'The criteria, or `{ id?, criteria, scale?, levels? }`.' }, MIN_JUDGE],
        options: {
          ...JUDGE_OPTIONS,
          question: QUESTION,
          contexts: { type: 'ContextInput[]', doc: 'Contexts shown to the judge.' },
          reference: { type: 'a string', doc: 'A reference answer shown to the judge.' },
        },
      },
    ],
    metric: judgeMetric('rubric score'),
    example: "await expect(answer).toSatisfyRubric({ id: 'cites', criteria: 'Cites its sources.' }, 0.75)",
    compute: toSatisfyRubric,
  }),
  declareMatcher({
    name: 'toBePreferredOver',
    async: true,
    family: 'judge',
    summary: 'The judge prefers the answer over `otherAnswer` for `question`, asked in both orders; a disagreement between the orders is a tie, which does not pass.',
    forms: [
      {
        received: ANSWER_RECEIVED,
        args: [{ name: 'otherAnswer', type: 'string', doc: 'The answer to beat.' }],
        options: {
          ...JUDGE_OPTIONS,
          question: { type: 'a string (required)', doc: 'The question both answers respond to.' },
          criteria: { type: 'a string', doc: 'What "better" means, shown to the judge.' },
        },
      },
    ],
    metric: judgeMetric('pairwise preference'),
    example: 'await expect(newAnswer).toBePreferredOver(oldAnswer, { question })',
    compute: toBePreferredOver,
  }),
] as const
