import { MetricInputError } from '../errors.js'
import { checkCorpus, type CorpusChunk } from '../eval-set/load-dataset.js'
import { JudgeError } from '../judge/errors.js'
import { assertJudge } from '../judge/metrics/shared.js'
import { renderPrompt, type PromptSection } from '../judge/prompt.js'
import { stepTag } from '../judge/templates/template.js'
import type { Judge } from '../judge/types.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import type { Id } from '../retrieval/types.js'
import { checkCandidate, checkUnanswerable, REJECTION_REASONS, type CheckSettings, type KeywordClaim, type NormalizedChunk, type RejectionReason } from './checks.js'
import { normalizeForMatch } from './normalize.js'
import { partnerFor } from './partner.js'
import { spreadOrder } from './spread-sample.js'
import { testsetTemplate } from './template.js'

/**
 * What a generated question asks for: one fact, one number, two facts from two related chunks, or a
 * detail the corpus does not mention (the expected behaviour is a refusal).
 */
export const TESTSET_KINDS = ['factual', 'numeric', 'multi-chunk', 'unanswerable'] as const
export type TestsetKind = (typeof TESTSET_KINDS)[number]

/** The `reference` of every unanswerable item: what a pipeline should say instead of an answer. */
export const UNANSWERABLE_REFERENCE = 'The corpus does not answer this question.'

/** Where a run stands, after each reply and each round of checks (a progress bar draws it). */
export interface TestsetProgress {
  /** Questions asked of the model so far (a round of requests is counted when it is sent). */
  readonly asked: number
  /** Replies (or faults that reject one question) back, of `asked`. */
  readonly answered: number
  /** Questions that passed the checks so far, of `wanted`. */
  readonly kept: number
  readonly wanted: number
}

export interface GenerateEvalSetOptions {
  /** The corpus, with the ids your retriever returns: `{ id, text }`, ids unique. */
  readonly chunks: readonly CorpusChunk[]
  /** Writes the questions (ollamaJudge, openaiJudge, functionJudge); its cache replays a recorded run. */
  readonly judge: Judge
  /** Questions wanted. Each uses its own chunk (two for multi-chunk), so at most the corpus supports. */
  readonly n: number
  /** Seeds the chunk sample. @default 1 */
  readonly seed?: number
  /**
   * The mix: a list of kinds (equal shares) or kind → weight. Shares of `n` by largest remainder, ties in
   * the order of {@link TESTSET_KINDS}. @default { factual: 3, numeric: 1 }
   */
  readonly kinds?: readonly TestsetKind[] | Readonly<Partial<Record<TestsetKind, number>>>
  /** A keyword in more than this share of the chunks is rejected (a keyword in one chunk always passes). @default 0.2 */
  readonly maxKeywordShare?: number
  /** A question whose word-bigram Jaccard overlap with a kept one is ≥ this is a near-duplicate. @default 0.6 */
  readonly maxQuestionOverlap?: number
  /** Called as the run moves (a progress bar); what it throws stops the run. */
  readonly onProgress?: (progress: TestsetProgress) => void
}

/** The keys of {@link GenerateEvalSetOptions}: what generateEvalSet accepts. */
export const GENERATE_EVAL_SET_OPTION_KEYS = keysOf<GenerateEvalSetOptions>()('chunks', 'judge', 'n', 'seed', 'kinds', 'maxKeywordShare', 'maxQuestionOverlap', 'onProgress')

/** One generated question, in the shape loadDataset reads (`relevant` given, so no corpus is needed to score it). */
export interface GeneratedEvalItem {
  readonly id: string
  readonly question: string
  /**
   * The (first) keyword, spelled as its chunk spells it. Unanswerable: the missing detail the question
   * asks for, as the question spells it; it occurs in no chunk.
   */
  readonly keyword: string
  /** Multi-chunk only: the keyword of each source chunk, in source order. */
  readonly keywords?: readonly string[]
  /** Every chunk containing a keyword (after the normalisation), in corpus order. Unanswerable: `[]`. */
  readonly relevant: readonly Id[]
  /** The model's reference answer; unanswerable: {@link UNANSWERABLE_REFERENCE}. */
  readonly reference: string
  readonly kind: TestsetKind
  /** The chunk(s) the question was written from (unanswerable: the chunk whose subject it asks about). */
  readonly source: readonly Id[]
}

/** A question that was not kept, for review. */
export interface RejectedQuestion {
  readonly kind: TestsetKind
  readonly source: readonly Id[]
  readonly reason: RejectionReason
  readonly detail: string
  readonly question?: string
  readonly keyword?: string
}

export interface EvalSetSummary {
  readonly requested: number
  /** Questions asked of the model (kept + rejected). */
  readonly generated: number
  readonly kept: number
  /** Every reason, zero included, in the order of {@link REJECTION_REASONS}. */
  readonly rejected: Readonly<Record<RejectionReason, number>>
  /** Distinct chunks relevant to at least one kept question, of `corpusChunks`. */
  readonly chunksCovered: number
  readonly corpusChunks: number
  readonly kinds: Readonly<Record<TestsetKind, { readonly requested: number; readonly kept: number }>>
  /** False when the corpus ran out of chunks before `requested` questions passed the checks. */
  readonly complete: boolean
  readonly seed: number
  readonly judge: string
  /** Replies served by the judge's cache, of `generated`. */
  readonly cached: number
  readonly maxKeywordShare: number
  readonly maxQuestionOverlap: number
}

export interface GeneratedEvalSet {
  readonly items: readonly GeneratedEvalItem[]
  readonly rejected: readonly RejectedQuestion[]
  readonly summary: EvalSetSummary
}

const FN = 'generateEvalSet'
const DEFAULT_KINDS: Readonly<Partial<Record<TestsetKind, number>>> = { factual: 3, numeric: 1 }
/** Kinds are filled in this order: the ones with the narrowest pool of chunks first, unanswerable from what is left. */
const FILL_ORDER: readonly TestsetKind[] = ['numeric', 'multi-chunk', 'factual', 'unanswerable']
/** A reply that opens like this is a refusal, not a malformed reply (a server without a refusal field). */
const REFUSAL_OPENING = /^\s*"?(?:i['’]?m sorry|i am sorry|sorry,|i can(?:no|['’])t|i am unable|i['’]m unable|i won['’]t|as an ai)/i

/**
 * Generates an eval set from a corpus, with ground truth that is checked rather than claimed.
 *
 * 1. Chunks are sampled in a seeded order spread over the corpus ({@link spreadOrder}, `n` strata).
 * 2. For each sampled chunk the judge's model writes a question, a reference answer and a keyword: a
 *    short span of the chunk that answers it (multi-chunk: two related chunks, a keyword from each).
 *    The request goes through the judge client: JSON schema, temperature and seed, repair retries on a
 *    malformed reply, and the replay cache (a committed cache regenerates the same set with no model).
 * 3. Each reply is checked ({@link checkCandidate}): the keyword must occur in its chunk after
 *    {@link normalizeForMatch}; `relevant` = every chunk containing it (relevantBySubstring over the
 *    normalised texts); the rejections are counted by reason ({@link REJECTION_REASONS}).
 * 4. A rejected chunk is spent; the next chunk of the spread order replaces it, until `n` questions
 *    pass or the corpus runs out (`summary.complete: false`).
 *
 * Unanswerable questions (kind `unanswerable`, opt-in through `kinds`) are written from a sampled chunk
 * too, about a detail it does not mention; the model names that detail as `keyword`, a span of its
 * question, and the question is kept only if the keyword occurs in no chunk ({@link checkUnanswerable}).
 * Such an item has `relevant: []` and `reference` {@link UNANSWERABLE_REFERENCE}: it belongs in a
 * refusal check, not in a retrieval assertion (which refuses an empty ground truth).
 *
 * Requests of one round run together (the judge bounds how many are in flight) and their replies are
 * checked in sample order, so the same seed and replies give the same set whatever the timing.
 * A timeout, a refusal, a malformed reply and a replay-cache miss reject one question; any other judge
 * failure (unreachable server, unknown model) stops the run and is thrown, and so does a replay in which
 * no question at all was recorded (the wrong cache folder).
 *
 * @throws MetricInputError naming the argument: an empty corpus, a chunk without an id, duplicate ids, `n` larger than the corpus supports
 * @example
 * const { items, summary } = await generateEvalSet({ chunks, judge: ollamaJudge({ model: 'llama3.1:8b' }), n: 20, seed: 1 })
 * summary.rejected['keyword-not-in-chunk'] // questions whose keyword was not copied from the chunk
 */
export async function generateEvalSet(options: GenerateEvalSetOptions): Promise<GeneratedEvalSet> {
  if (options === null || typeof options !== 'object') throw new MetricInputError(FN, 'options', 'an object `{ chunks, judge, n }`', options)
  checkOptionKeys(FN, options, GENERATE_EVAL_SET_OPTION_KEYS)
  const { n, seed = 1, maxKeywordShare = 0.2, maxQuestionOverlap = 0.6 } = options
  if (!Array.isArray(options.chunks) || options.chunks.length === 0) throw new MetricInputError(FN, 'chunks', 'a non-empty array of chunks `{ id, text }`', options.chunks)
  const chunks = checkCorpus(FN, options.chunks, 'chunks')
  assertJudge(FN, options.judge)
  const judge = options.judge
  if (!(Number.isSafeInteger(n) && n > 0)) throw new MetricInputError(FN, 'n', 'a positive integer', n)
  if (!Number.isSafeInteger(seed)) throw new MetricInputError(FN, 'seed', 'an integer', seed)
  if (!(typeof maxKeywordShare === 'number' && maxKeywordShare > 0 && maxKeywordShare <= 1))
    throw new MetricInputError(FN, 'maxKeywordShare', 'a number in (0, 1]', maxKeywordShare)
  if (!(typeof maxQuestionOverlap === 'number' && maxQuestionOverlap > 0 && maxQuestionOverlap <= 1))
    throw new MetricInputError(FN, 'maxQuestionOverlap', 'a number in (0, 1]', maxQuestionOverlap)
  if (options.onProgress !== undefined && typeof options.onProgress !== 'function') throw new MetricInputError(FN, 'onProgress', 'a function', options.onProgress)
  const quotas = kindQuotas(n, options.kinds ?? DEFAULT_KINDS)

  const normalized: NormalizedChunk[] = chunks.map((c) => ({ id: c.id, text: normalizeForMatch(c.text), raw: c.text }))
  const usable = normalized.map((c) => c.text.length > 0)
  const numericUsable = normalized.map((c) => /\d/.test(c.text))
  checkCapacity(quotas, usable, numericUsable)

  const settings: CheckSettings = { chunks: normalized, maxKeywordChunks: Math.max(1, Math.floor(maxKeywordShare * normalized.length)), maxQuestionOverlap }
  const order = spreadOrder(normalized.length, n, seed)
  const used = new Set<number>()
  const kept: Array<{ item: GeneratedEvalItem; position: number }> = []
  const rejected: RejectedQuestion[] = []
  const counts = Object.fromEntries(REJECTION_REASONS.map((r) => [r, 0])) as Record<RejectionReason, number>
  const keptByKind = Object.fromEntries(TESTSET_KINDS.map((k) => [k, 0])) as Record<TestsetKind, number>
  let generated = 0
  let cached = 0
  let answered = 0
  let firstMiss: JudgeError | undefined
  let asked = 0
  let replied = 0
  const progress = () => options.onProgress?.({ asked, answered: replied, kept: kept.length, wanted: n })

  for (const kind of FILL_ORDER) {
    let cursor = 0
    while (keptByKind[kind] < quotas[kind]) {
      // One round: as many candidates as questions still wanted, in spread order.
      const batch: number[][] = []
      while (batch.length < quotas[kind] - keptByKind[kind] && cursor < order.length) {
        const at = order[cursor++] as number
        if (used.has(at) || !(kind === 'numeric' ? numericUsable[at] : usable[at])) continue
        used.add(at)
        if (kind !== 'multi-chunk') {
          batch.push([at])
          continue
        }
        const partner = partnerFor(at, normalized, (i) => !used.has(i) && (usable[i] as boolean))
        if (partner === undefined) continue
        used.add(partner)
        batch.push(at < partner ? [at, partner] : [partner, at])
      }
      if (batch.length === 0) break
      // Settle the whole round before giving up on a fault: the replies that did come back are then in
      // the cache, and a run started again asks the model only for the rest.
      asked += batch.length
      progress()
      const settled = await Promise.allSettled(
        batch.map((sources) =>
          ask(
            judge,
            kind,
            sources.map((i) => normalized[i] as NormalizedChunk),
          ).then((reply) => {
            replied++
            progress()
            return reply
          }),
        ),
      )
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected')
      if (failed !== undefined) throw failed.reason
      const replies = settled.map((r) => (r as PromiseFulfilledResult<Reply>).value)
      generated += batch.length
      answered += replies.filter((r) => r.ok || r.reason !== 'not-recorded').length
      firstMiss ??= replies.find((r): r is Extract<Reply, { ok: false }> => !r.ok && r.reason === 'not-recorded')?.error
      batch.forEach((sources, b) => {
        const reply = replies[b] as Reply
        const sourceIds = sources.map((i) => (normalized[i] as NormalizedChunk).id)
        if (reply.cached) cached++
        if (!reply.ok) {
          counts[reply.reason]++
          rejected.push({ kind, source: sourceIds, reason: reply.reason, detail: reply.detail })
          return
        }
        const question = reply.question
        const reject = (reason: RejectionReason, detail: string, keyword: string): void => {
          counts[reason]++
          rejected.push({ kind, source: sourceIds, reason, detail, question, keyword })
        }
        // Field order is the JSONL's: id, question, keyword, [keywords], relevant, reference, kind, source.
        const keep = (fields: Pick<GeneratedEvalItem, 'keyword' | 'keywords' | 'relevant' | 'reference'>): void => {
          keptByKind[kind]++
          kept.push({ position: sources[0] as number, item: { id: `${kind}-${sourceIds.join('+')}`, question: question.trim(), ...fields, kind, source: sourceIds } })
        }
        const others = kept.map((k) => k.item.question)
        if (kind === 'unanswerable') {
          const keyword = reply.keywords[0] as string
          const outcome = checkUnanswerable({ question, keyword }, others, settings)
          if (!outcome.ok) reject(outcome.reason, outcome.detail, keyword)
          else keep({ keyword: outcome.keyword, relevant: [], reference: UNANSWERABLE_REFERENCE })
          return
        }
        const claims: KeywordClaim[] = reply.keywords.map((keyword, k) => ({ keyword, chunk: normalized[sources[k] as number] as NormalizedChunk }))
        const outcome = checkCandidate({ question, reference: reply.answer, claims, numeric: kind === 'numeric' }, others, settings)
        if (!outcome.ok) reject(outcome.reason, outcome.detail, reply.keywords.join(' | '))
        else
          keep({
            keyword: outcome.keywords[0] as string,
            ...(kind === 'multi-chunk' ? { keywords: outcome.keywords } : {}),
            relevant: outcome.relevant,
            reference: reply.answer.trim(),
          })
      })
      progress()
    }
  }

  // Not one recorded reply: the cache folder is the wrong one, not a few questions that failed when recording.
  if (answered === 0 && firstMiss !== undefined) throw firstMiss

  // The file reads along the corpus: items in the order of their (first) source chunk.
  kept.sort((a, b) => a.position - b.position)
  const items = uniqueIds(kept.map((k) => k.item))
  const covered = new Set(items.flatMap((item) => item.relevant))
  return {
    items,
    rejected,
    summary: {
      requested: n,
      generated,
      kept: items.length,
      rejected: counts,
      chunksCovered: covered.size,
      corpusChunks: normalized.length,
      kinds: Object.fromEntries(TESTSET_KINDS.map((k) => [k, { requested: quotas[k], kept: keptByKind[k] }])) as EvalSetSummary['kinds'],
      complete: items.length === n,
      seed,
      judge: judge.id,
      cached,
      maxKeywordShare,
      maxQuestionOverlap,
    },
  }
}

type Reply =
  | { readonly ok: true; readonly question: string; readonly answer: string; readonly keywords: readonly string[]; readonly cached: boolean }
  | {
      readonly ok: false
      readonly reason: 'malformed' | 'refusal' | 'timeout' | 'not-recorded'
      readonly detail: string
      readonly cached: boolean
      readonly error: JudgeError
    }

/** Asks the model for one question; the faults that reject one question become a Reply, the rest are thrown. */
async function ask(judge: Judge, kind: TestsetKind, sources: readonly NormalizedChunk[]): Promise<Reply> {
  const step = kind === 'multi-chunk' ? 'multi' : kind
  const s = testsetTemplate.steps[step]
  const sections: PromptSection[] =
    sources.length === 1 ? [{ label: 'PASSAGE', text: sources[0]?.raw ?? '' }] : sources.map((c, i) => ({ label: `PASSAGE ${i + 1}`, text: c.raw }))
  const prompt = renderPrompt(s.instructions, sections, s.reminder)
  try {
    const reply = await judge.ask<Record<string, string>>({ template: stepTag(testsetTemplate, step), system: testsetTemplate.system, prompt: prompt.text, schema: s.schema })
    const v = reply.value
    const keywords = kind === 'multi-chunk' ? [v['keyword1'] as string, v['keyword2'] as string] : [v['keyword'] as string]
    // An unanswerable question has no answer to write: its reference is fixed (UNANSWERABLE_REFERENCE).
    return { ok: true, question: v['question'] as string, answer: (v['answer'] as string | undefined) ?? '', keywords, cached: reply.cached }
  } catch (error) {
    if (!(error instanceof JudgeError)) throw error
    const fault = (reason: 'malformed' | 'refusal' | 'timeout' | 'not-recorded', detail = error.message): Reply => ({ ok: false, reason, detail, cached: false, error })
    if (error.kind === 'timeout') return fault('timeout')
    if (error.kind === 'refusal') return fault('refusal')
    // Not the judge's message, which names the cache file by its full path: the summary is meant to be committed.
    if (error.kind === 'cache-miss') return fault('not-recorded', `no reply recorded in the replay cache for this question (key ${String(error.info['key'])})`)
    if (error.kind === 'invalid-reply' || error.kind === 'truncated') {
      const raw = error.info['raw']
      return fault(typeof raw === 'string' && REFUSAL_OPENING.test(raw) ? 'refusal' : 'malformed')
    }
    throw error
  }
}

/** Questions per kind: shares of `n` by largest remainder (ties in {@link TESTSET_KINDS} order). */
function kindQuotas(n: number, kinds: GenerateEvalSetOptions['kinds']): Record<TestsetKind, number> {
  const weights = Object.fromEntries(TESTSET_KINDS.map((k) => [k, 0])) as Record<TestsetKind, number>
  if (Array.isArray(kinds)) {
    if (kinds.length === 0) throw new MetricInputError(FN, 'kinds', `a non-empty list of ${TESTSET_KINDS.join(', ')}`, kinds)
    ;(kinds as readonly unknown[]).forEach((k, i) => {
      if (!TESTSET_KINDS.includes(k as TestsetKind)) throw new MetricInputError(FN, `kinds[${i}]`, `one of ${TESTSET_KINDS.join(', ')}`, k)
      weights[k as TestsetKind] = 1
    })
  } else if (kinds !== null && typeof kinds === 'object') {
    for (const [k, w] of Object.entries(kinds)) {
      if (!TESTSET_KINDS.includes(k as TestsetKind)) throw new MetricInputError(FN, `kinds.${k}`, `a kind: one of ${TESTSET_KINDS.join(', ')}`, k)
      if (!(typeof w === 'number' && Number.isFinite(w) && w >= 0)) throw new MetricInputError(FN, `kinds.${k}`, 'a finite weight ≥ 0', w)
      weights[k as TestsetKind] = w
    }
  } else {
    throw new MetricInputError(FN, 'kinds', 'a list of kinds or an object kind → weight', kinds)
  }
  const total = TESTSET_KINDS.reduce((sum, k) => sum + weights[k], 0)
  if (!(total > 0)) throw new MetricInputError(FN, 'kinds', 'at least one kind with a weight above 0', kinds)
  const exact = TESTSET_KINDS.map((k) => (n * weights[k]) / total)
  const quotas = exact.map(Math.floor)
  let left = n - quotas.reduce((a, b) => a + b, 0)
  const byRemainder = TESTSET_KINDS.map((_, i) => i).sort((a, b) => (exact[b] as number) - (quotas[b] as number) - ((exact[a] as number) - (quotas[a] as number)) || a - b)
  for (const i of byRemainder) {
    if (left === 0) break
    quotas[i] = (quotas[i] as number) + 1
    left--
  }
  return Object.fromEntries(TESTSET_KINDS.map((k, i) => [k, quotas[i]])) as Record<TestsetKind, number>
}

/** Each question spends its own chunk(s): refuse an `n` the corpus cannot supply before asking anything. */
function checkCapacity(quotas: Record<TestsetKind, number>, usable: readonly boolean[], numericUsable: readonly boolean[]): void {
  const chunks = usable.filter(Boolean).length
  const numeric = numericUsable.filter(Boolean).length
  const needed = quotas.factual + quotas.numeric + 2 * quotas['multi-chunk'] + quotas.unanswerable
  if (quotas.numeric > numeric)
    throw new MetricInputError(
      FN,
      'n',
      `at most what the corpus supports: ${quotas.numeric} numeric questions need as many chunks with a number, the corpus has ${numeric}`,
      quotas.numeric,
    )
  if (needed > chunks) {
    const mix = TESTSET_KINDS.filter((k) => quotas[k] > 0).map((k) => `${quotas[k]} ${k}`)
    throw new MetricInputError(
      FN,
      'n',
      `at most what the corpus supports: each question needs its own chunk (two for multi-chunk), so ${mix.join(' + ')} need ${needed} chunks, the corpus has ${chunks} non-blank`,
      quotas.factual + quotas.numeric + quotas['multi-chunk'] + quotas.unanswerable,
    )
  }
}

/** Chunk ids `7` and `'7'` give the same item id; the later one gets a suffix. */
function uniqueIds(items: GeneratedEvalItem[]): GeneratedEvalItem[] {
  const seen = new Set<string>()
  return items.map((item) => {
    let id = item.id
    for (let k = 2; seen.has(id); k++) id = `${item.id}-${k}`
    seen.add(id)
    return id === item.id ? item : { ...item, id }
  })
}
