import { functionEmbedder } from '../src/embeddings/function-embedder.js'
import {
  EmbeddingCache,
  EmbeddingError,
  embedSimSignature,
  meanSemanticSimilarity,
  semanticSimilarity,
  transformersEmbedder,
  type EmbedSimDetails,
  type Embedder,
} from '../src/embeddings/index.js'
import type { Score } from '../src/score.js'
import { getConfig } from './config.js'
import type { MatcherContext, MatcherResult } from './context.js'
import { isEvalSet, readAnswerSetPartial, type AnswerCase } from './generation-received.js'
import {
  buildMessage,
  FAILED_CASES_OPTION,
  failedCasesMode,
  failedCasesSignature,
  formatNumber,
  partialSetResult,
  quote,
  table,
  terminalSafe,
  thresholdHeadline,
  type FailedCasesMode,
} from './message.js'
import { answerCases } from './set-form.js'
import type { ByReceived } from './received-types.js'
import { atLeast, declareMatcher, type OptionSpec } from './declare.js'
import { matcherError, requireThreshold } from './validate.js'

export interface SemanticSimilarityMatcherOptions {
  /**
   * The embedder to use. Defaults to `configure({ embedder })`, then to `transformersEmbedder()`
   * (Xenova/all-MiniLM-L6-v2, mean pooling, normalised, fp32).
   */
  embedder?: Embedder
}

/** Options of the eval-set form. */
export interface SemanticSimilaritySetMatcherOptions extends SemanticSimilarityMatcherOptions {
  /**
   * A case whose pipeline failed (`error` set, no answer): `'fail'` (default) fails the assertion, with or
   * without `.not`, naming it; `'zero'` scores it 0; `'skip'` leaves it out of the mean.
   * @default 'fail'
   */
  failedCases?: FailedCasesMode
}

/** One case of an eval set for the set form of {@link EmbeddingMatchers.toBeSemanticallySimilarTo}. */
export interface SemanticSimilarityCase {
  /** Shown in the failure message; defaults to `#<index>`. */
  id?: string
  answer: string
  reference: string
}

/**
 * Typed signatures of the embedding matchers; async, so they must be awaited. As for the generation
 * matchers, the received value picks the form: an answer string takes `(reference, min, options?)`, an
 * eval set (cases with `answer` and `reference`) takes `(min, options?)`.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface EmbeddingMatchers<R = unknown, T = unknown> {
  /**
   * Cosine similarity of the embeddings of the received answer and `reference` ≥ `min` (scale −1…1;
   * sentence embedders mostly give 0–1); for an eval set, the MEAN over the cases, with the least similar
   * cases listed on failure. A threshold only means something for one embedder, so the message prints
   * its signature (model, pooling, normalisation, dtype). An embedder that fails makes the assertion
   * fail (with or without `.not`), never pass. Async: `await` it. (`R` is unused: async matchers return
   * `Promise<void>` in every runner.)
   *
   * @example await expect(answer).toBeSemanticallySimilarTo('Paris is the capital of France.', 0.8)
   * @example await expect([{ answer, reference }, …]).toBeSemanticallySimilarTo(0.75, { embedder })
   */
  toBeSemanticallySimilarTo: ByReceived<
    T,
    Promise<void>,
    [reference: string, min: number, options?: SemanticSimilarityMatcherOptions],
    [min: number, options?: SemanticSimilaritySetMatcherOptions]
  >
}

const MATCHER = 'toBeSemanticallySimilarTo'

// Matcher-layer state (like matchers/config.ts, kept on globalThis so the ESM and CJS copies share it):
// one vector cache for the whole run, and the default embedder, created once so its model loads once.
const STATE = Symbol.for('rag-matchers.embeddings-state')
interface State {
  cache: EmbeddingCache
  defaultEmbedder?: Embedder
}
function state(): State {
  const g = globalThis as { [STATE]?: State }
  g[STATE] ??= { cache: new EmbeddingCache() }
  return g[STATE]
}

/** Forgets cached vectors and the default embedder; for tests. */
export function resetEmbeddingMatcherState(): void {
  delete (globalThis as { [STATE]?: State })[STATE]
}

function isEmbedder(value: unknown): value is Embedder {
  return typeof value === 'object' && value !== null && typeof (value as Embedder).id === 'string' && typeof (value as Embedder).embed === 'function'
}

function resolveEmbedder(ctx: MatcherContext, args: string, options: unknown): { embedder: Embedder; source: 'option' | 'configure' | 'default' } {
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
    matcherError(ctx, MATCHER, args, 'options must be an object such as { embedder }', options)
  }
  const given = (options as SemanticSimilarityMatcherOptions | undefined)?.embedder
  if (given !== undefined) {
    if (!isEmbedder(given))
      matcherError(ctx, MATCHER, args, 'options.embedder must be an embedder { id, embed(texts) } (transformersEmbedder(), ollamaEmbedder(), functionEmbedder())', given)
    return { embedder: given, source: 'option' }
  }
  const configured = getConfig().embedder
  if (configured !== undefined) {
    if (!isEmbedder(configured)) matcherError(ctx, MATCHER, args, 'the embedder set with configure({ embedder }) is not an embedder { id, embed(texts) }', configured)
    return { embedder: configured, source: 'configure' }
  }
  const s = state()
  s.defaultEmbedder ??= transformersEmbedder()
  return { embedder: s.defaultEmbedder, source: 'default' }
}

/** The message when no number could be computed: the assertion fails in BOTH directions. */
function uncomputable(ctx: MatcherContext, args: string, embedder: Embedder, source: string, reason: string, signature?: string): MatcherResult {
  const fix =
    source === 'default'
      ? 'No embedder was passed or configured, so the default transformersEmbedder() was used. Pass { embedder } or call configure({ embedder }) in a setup file.'
      : undefined
  return {
    // Never a pass: with `.not` the runner flips `pass`, so report the result that fails either way.
    pass: ctx.isNot === true,
    message: () =>
      buildMessage(ctx, {
        matcher: MATCHER,
        args,
        headline: 'EmbedSim could not be computed, so the assertion fails.',
        ...(signature ? { signature } : {}),
        // the reason (an embedder's error, which may quote the input) and the embedder's id are user text, one line each
        sections: [terminalSafe(reason), `embedder: ${terminalSafe(String(embedder.id))}`, fix],
      }),
    meta: { matcher: MATCHER, metric: 'EmbedSim', value: Number.NaN, comparator: ctx.isNot ? '<' : '>=', pass: false, signature: signature ?? '', extra: { error: reason } },
  }
}

/**
 * A blank text (empty or whitespace only) has no meaning to compare, yet an embedder still returns a
 * vector for it (MiniLM gives a blank reference a cosine of 0.84 with many answers): refused with or
 * without `.not`, before any embedding.
 */
function refuseBlank(ctx: MatcherContext, args: string, what: string, text: string): void {
  if (text.trim() === '') {
    matcherError(ctx, MATCHER, args, `${what} is blank (${text.length === 0 ? 'empty' : 'whitespace only'}); there is nothing to compare, with or without .not`, text)
  }
}

function failureReason(error: unknown): string | undefined {
  if (error instanceof EmbeddingError) return error.message
  return undefined
}

/**
 * `await expect(answer).toBeSemanticallySimilarTo(reference, min, { embedder })`, or for an eval set
 * `await expect(cases).toBeSemanticallySimilarTo(min, { embedder })`. See {@link EmbeddingMatchers}.
 */
export async function toBeSemanticallySimilarTo(this: MatcherContext, received: unknown, ...rest: unknown[]): Promise<MatcherResult> {
  const ctx = this
  if (isEvalSet(received)) return setForm(ctx, received, rest[0], rest[1])
  const args = 'reference, min'
  if (typeof received !== 'string') {
    matcherError(ctx, MATCHER, args, 'received value must be a string (the answer), or an array of { answer, reference } cases', received)
  }
  const [reference, min, options] = rest
  if (typeof reference !== 'string') {
    matcherError(
      ctx,
      MATCHER,
      args,
      typeof reference === 'number'
        ? 'reference must be a string; the (min) form needs an array of { answer, reference } cases as the received value'
        : 'reference must be a string',
      reference,
    )
  }
  refuseBlank(ctx, args, 'received value (the answer)', received)
  refuseBlank(ctx, args, 'reference', reference)
  requireThreshold(ctx, MATCHER, args, 'min', min, [-1, 1], ' (cosine similarity)')
  const { embedder, source } = resolveEmbedder(ctx, args, options)

  let score: Score<EmbedSimDetails>
  try {
    score = await semanticSimilarity(received, reference, embedder, { cache: state().cache })
  } catch (error) {
    const reason = failureReason(error)
    if (reason === undefined) throw error
    return uncomputable(ctx, args, embedder, source, reason)
  }
  if (Number.isNaN(score.value)) return uncomputable(ctx, args, embedder, source, score.details.reason ?? 'the cosine is undefined', score.signature)

  const threshold = min as number
  const pass = score.value >= threshold
  return {
    pass,
    message: () =>
      buildMessage(ctx, {
        matcher: MATCHER,
        args,
        headline: thresholdHeadline(ctx, { label: 'EmbedSim (cosine)', value: score.value, min: threshold }),
        signature: score.signature,
        sections: [
          table([
            ['received:', quote(received)],
            ['reference:', quote(reference)],
          ]),
          `${score.details.dims} dimensions; norms ${formatNumber(score.details.norms.candidate)} and ${formatNumber(score.details.norms.reference)}`,
        ],
      }),
    meta: { matcher: MATCHER, metric: 'EmbedSim', value: score.value, threshold, comparator: ctx.isNot ? '<' : '>=', pass, signature: score.signature },
  }
}

async function setForm(ctx: MatcherContext, received: unknown, min: unknown, options: unknown): Promise<MatcherResult> {
  const args = 'min'
  // Same eval-set shape as the generation matchers: an array (or { cases }) of { id?, answer, reference };
  // a case whose pipeline failed (`error`, no answer) follows `failedCases` like theirs.
  const mode = failedCasesMode(options)
  const { cases, failed, total } = readAnswerSetPartial(ctx, MATCHER, args, received)
  const pairs = cases.map((c) => {
    if (c.references.length !== 1) {
      matcherError(ctx, MATCHER, args, `case ${c.id} has ${c.references.length} references; semantic similarity compares each answer with exactly one reference`, c.references)
    }
    const where = `case ${c.id} (received[${c.index}])`
    refuseBlank(ctx, args, `${where}: the answer`, c.answer)
    refuseBlank(ctx, args, `${where}: the reference`, c.references[0] as string)
    return { candidate: c.answer, reference: c.references[0] as string }
  })
  if (typeof min === 'string') {
    matcherError(ctx, MATCHER, args, 'with an array of cases as the received value, the first argument is min; each case carries its own reference', min)
  }
  requireThreshold(ctx, MATCHER, args, 'min', min, [-1, 1], ' (mean cosine similarity)')
  const { embedder, source } = resolveEmbedder(ctx, args, options)
  const threshold = min as number

  let perCase: Array<{ id: string; value: number; pair?: { candidate: string; reference: string } }> = []
  let signature = embedSimSignature(embedder.id)
  let dims: number | undefined
  if (pairs.length > 0) {
    let score: Awaited<ReturnType<typeof meanSemanticSimilarity>>
    try {
      score = await meanSemanticSimilarity(pairs, embedder, { cache: state().cache })
    } catch (error) {
      const reason = failureReason(error)
      if (reason === undefined) throw error
      return uncomputable(ctx, args, embedder, source, reason)
    }
    const d = score.details
    if (Number.isNaN(score.value)) {
      const named = d.reason?.replace(
        /pair\(s\) ([\d, ]+)/,
        (_, list: string) =>
          `case(s) ${list
            .split(', ')
            .map((i) => cases[Number(i)]?.id)
            .join(', ')}`,
      )
      return uncomputable(ctx, args, embedder, source, named ?? 'the mean cosine is undefined', failedCasesSignature(score.signature, mode, failed.length))
    }
    signature = score.signature
    dims = d.dims
    perCase = d.pairs.map((p, i) => ({ id: (cases[i] as AnswerCase).id, value: p.value, pair: pairs[i] as { candidate: string; reference: string } }))
  }
  // 'zero': each failed case adds a 0 to the mean
  if (mode === 'zero') for (const f of failed) perCase.push({ id: f.id, value: 0 })
  const n = perCase.length
  const value = n === 0 ? 0 : perCase.reduce((a, c) => a + c.value, 0) / n
  const left = failed.length === 0 || mode === 'fail' ? '' : mode === 'skip' ? ` (${failed.length} failed left out)` : ` (${failed.length} failed scored 0)`
  const row = (c: (typeof perCase)[number]) => [
    c.id,
    formatNumber(c.value, threshold),
    c.pair === undefined ? 'pipeline failed (scored 0)' : `${quote(c.pair.candidate, 50)} ↔ ${quote(c.pair.reference, 50)}`,
  ]
  const indexed = () => perCase.map((c, i) => ({ ...c, i }))
  return partialSetResult(ctx, {
    matcher: MATCHER,
    args,
    label: `mean EmbedSim (cosine) over ${n} ${n === 1 ? 'case' : 'cases'}${left}`,
    metric: 'mean EmbedSim',
    value,
    min: threshold,
    signature: failedCasesSignature(signature, mode, failed.length),
    sections: () => {
      const section = ctx.isNot
        ? // Under .not the cases at or above min made the assertion fail: list those, most similar first.
          (() => {
            const above = indexed()
              .filter((c) => c.value >= threshold)
              .sort((a, b) => b.value - a.value || a.i - b.i)
            return `cases at or above ${formatNumber(threshold)}: ${above.length} of ${n} (most similar first)\n${table(above.map(row))}`
          })()
        : (() => {
            const lowest = indexed().sort((a, b) => a.value - b.value || a.i - b.i)
            const below = perCase.filter((c) => c.value < threshold).length
            return `cases below ${formatNumber(threshold)}: ${below} of ${n} (least similar first)\n${table(lowest.map(row))}`
          })()
      return [section, dims === undefined ? undefined : `${dims} dimensions`]
    },
    ...answerCases(perCase, failed, total, mode, n),
  })
}

// ---------------------------------------------------------------- declarations

const EMBEDDING_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  embedder: {
    type: 'an Embedder',
    default: 'configure({ embedder }), else transformersEmbedder()',
    doc: 'The embedder: transformersEmbedder(), ollamaEmbedder(), functionEmbedder() or your own `{ id, embed(texts) }`.',
  },
}

export const embeddingDeclarations = [
  declareMatcher({
    name: 'toBeSemanticallySimilarTo',
    async: true,
    family: 'embeddings',
    summary:
      'Cosine similarity of the embeddings of the answer and `reference` ≥ `min` (−1…1); for an eval set the mean over cases, least similar listed on failure. An embedder that fails makes the assertion fail, with or without `.not`.',
    forms: [
      {
        received: 'an eval set: cases with `answer` and `reference`',
        when: isEvalSet,
        args: [{ name: 'min', type: 'number', doc: 'Threshold on the mean cosine (−1…1).' }],
        options: { ...EMBEDDING_OPTIONS, failedCases: FAILED_CASES_OPTION },
      },
      {
        received: 'an answer string',
        args: [
          { name: 'reference', type: 'string', doc: 'The text to compare with.' },
          { name: 'min', type: 'number', doc: 'Threshold on the cosine (−1…1).' },
        ],
        options: EMBEDDING_OPTIONS,
      },
    ],
    metric: atLeast('EmbedSim', { scale: 1 }),
    example: "await expect(answer).toBeSemanticallySimilarTo('Paris is the capital of France.', 0.8, { embedder })",
    failing: {
      received: 'the cat sat',
      // A letter-count embedder written for the example, so the message is real and needs no model.
      args: [
        'a dog ran',
        0.9,
        { embedder: functionEmbedder((t: string) => ['a', 'e', 'o', 't', 's'].map((ch) => [...t].filter((c) => c === ch).length), { id: 'letter-counts' }) },
      ],
    },
    compute: toBeSemanticallySimilarTo,
  }),
] as const
