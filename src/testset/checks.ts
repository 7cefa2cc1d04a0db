import { relevantBySubstring } from '../retrieval/relevant-by-substring.js'
import type { Id } from '../retrieval/types.js'
import { digitNumbers, normalizeForMatch, sourceSpan } from './normalize.js'
import { questionOverlap } from './question-overlap.js'

/**
 * Why a generated question was not kept, in the order the checks run (the first failing check names it):
 *
 * - `malformed`: no reply matching the schema after the judge's retries (or a blank keyword/question);
 * - `refusal`: the model declined to write the question (an OpenAI `refusal`, or a reply that opens like one);
 * - `timeout`: no reply within the judge's `timeoutMs`;
 * - `not-recorded`: cache mode `replay` and no recorded reply (a question that failed when the cache was
 *   recorded, a timeout or a malformed reply, was not recorded either: replayed, it is rejected again, so
 *   the same questions are kept);
 * - `keyword-not-in-chunk`: the keyword does not occur in its source chunk (after {@link normalizeForMatch});
 * - `keyword-not-numeric`: a numeric question whose keyword holds no number written in digits;
 * - `keyword-too-common`: the keyword occurs in more than `maxKeywordShare` of the chunks, so it does not tell chunks apart;
 * - `keyword-in-question`: the question contains the keyword, so a string match would retrieve it;
 * - `reference-missing-keyword`: the reference answer does not contain the keyword (numeric: its numbers);
 * - `keyword-not-in-question`: an unanswerable question whose keyword (the missing detail it asks for) is
 *   not a span of the question itself, so its absence from the corpus would say nothing about the question;
 * - `keyword-in-corpus`: an unanswerable question whose keyword occurs in a chunk: the corpus mentions the
 *   detail, so it may answer the question;
 * - `near-duplicate`: the question's word-bigram overlap with a question already kept is ≥ `maxQuestionOverlap`.
 */
export const REJECTION_REASONS = [
  'malformed',
  'refusal',
  'timeout',
  'not-recorded',
  'keyword-not-in-chunk',
  'keyword-not-numeric',
  'keyword-too-common',
  'keyword-in-question',
  'reference-missing-keyword',
  'keyword-not-in-question',
  'keyword-in-corpus',
  'near-duplicate',
] as const

export type RejectionReason = (typeof REJECTION_REASONS)[number]

/** A chunk as the checks see it: its id and its text after {@link normalizeForMatch}. */
export interface NormalizedChunk {
  readonly id: Id
  readonly text: string
  /** The chunk as given (for the keyword's own spelling). */
  readonly raw: string
}

export interface CheckSettings {
  readonly chunks: readonly NormalizedChunk[]
  /** Most chunks a keyword may occur in (at least 1). */
  readonly maxKeywordChunks: number
  readonly maxQuestionOverlap: number
}

/** One keyword as written by the model, with the chunk it must come from. */
export interface KeywordClaim {
  readonly keyword: string
  readonly chunk: NormalizedChunk
}

export type CheckOutcome =
  | { readonly ok: true; readonly keywords: readonly string[]; readonly relevant: readonly Id[] }
  | { readonly ok: false; readonly reason: RejectionReason; readonly detail: string }

const reject = (reason: RejectionReason, detail: string): CheckOutcome => ({ ok: false, reason, detail })

/**
 * Checks one generated question against the corpus; on success, the keywords as the chunks spell them
 * and `relevant`: every chunk (in corpus order) containing any of the keywords.
 */
export function checkCandidate(
  candidate: { readonly question: string; readonly reference: string; readonly claims: readonly KeywordClaim[]; readonly numeric: boolean },
  kept: readonly string[],
  settings: CheckSettings,
): CheckOutcome {
  const question = normalizeForMatch(candidate.question)
  const reference = normalizeForMatch(candidate.reference)
  if (question.length === 0) return reject('malformed', 'blank question')
  const keywords: string[] = []
  const relevant = new Set<Id>()
  for (const claim of candidate.claims) {
    const keyword = normalizeForMatch(claim.keyword)
    if (keyword.length === 0) return reject('malformed', 'blank keyword')
    const span = sourceSpan(claim.chunk.raw, keyword)
    if (span === undefined) return reject('keyword-not-in-chunk', `${JSON.stringify(claim.keyword)} does not occur in chunk ${JSON.stringify(claim.chunk.id)}`)
    if (candidate.numeric && digitNumbers(keyword).length === 0) return reject('keyword-not-numeric', `${JSON.stringify(claim.keyword)} holds no number written in digits`)
    const found = relevantBySubstring(settings.chunks, keyword, { caseSensitive: true })
    if (found.size > settings.maxKeywordChunks)
      return reject(
        'keyword-too-common',
        `${JSON.stringify(claim.keyword)} occurs in ${found.size} of ${settings.chunks.length} chunks (at most ${settings.maxKeywordChunks})`,
      )
    if (question.includes(keyword)) return reject('keyword-in-question', `the question contains ${JSON.stringify(claim.keyword)}`)
    if (!referenceHas(reference, keyword, candidate.numeric))
      return reject('reference-missing-keyword', `the reference answer does not contain ${candidate.numeric ? 'the number of ' : ''}${JSON.stringify(claim.keyword)}`)
    keywords.push(span)
    for (const id of found) relevant.add(id)
  }
  const duplicate = nearDuplicate(candidate.question, kept, settings)
  if (duplicate !== undefined) return duplicate
  const order = new Map(settings.chunks.map((c, i) => [c.id, i]))
  return { ok: true, keywords, relevant: [...relevant].sort((a, b) => (order.get(a) as number) - (order.get(b) as number)) }
}

/** A factual keyword's content is its text; a numeric one's is its numbers (the reference may reword the unit). */
function referenceHas(reference: string, keyword: string, numeric: boolean): boolean {
  if (!numeric) return reference.includes(keyword)
  const said = new Set(digitNumbers(reference))
  return digitNumbers(keyword).every((n) => said.has(n))
}

/**
 * Checks one generated unanswerable question. The rule that makes it checked: the model names the
 * missing detail as `keyword`, a span of its own question, and that keyword (after
 * {@link normalizeForMatch}) occurs in no chunk of the corpus. On success `relevant` is empty and the
 * keyword is returned as the question spells it.
 */
export function checkUnanswerable(
  candidate: { readonly question: string; readonly keyword: string },
  kept: readonly string[],
  settings: CheckSettings,
): { readonly ok: true; readonly keyword: string } | { readonly ok: false; readonly reason: RejectionReason; readonly detail: string } {
  const question = normalizeForMatch(candidate.question)
  const keyword = normalizeForMatch(candidate.keyword)
  if (question.length === 0) return { ok: false, reason: 'malformed', detail: 'blank question' }
  if (keyword.length === 0) return { ok: false, reason: 'malformed', detail: 'blank keyword' }
  const span = sourceSpan(candidate.question, keyword)
  if (span === undefined) return { ok: false, reason: 'keyword-not-in-question', detail: `${JSON.stringify(candidate.keyword)} does not occur in the question` }
  const found = relevantBySubstring(settings.chunks, keyword, { caseSensitive: true })
  if (found.size > 0) {
    const ids = [...found]
    const shown =
      ids
        .slice(0, 3)
        .map((id) => JSON.stringify(id))
        .join(', ') + (ids.length > 3 ? `, … (${ids.length} chunks)` : '')
    return { ok: false, reason: 'keyword-in-corpus', detail: `${JSON.stringify(candidate.keyword)} occurs in chunk ${shown}, so the corpus may answer the question` }
  }
  const duplicate = nearDuplicate(candidate.question, kept, settings)
  if (duplicate !== undefined) return duplicate
  return { ok: true, keyword: span }
}

function nearDuplicate(question: string, kept: readonly string[], settings: CheckSettings): (CheckOutcome & { ok: false }) | undefined {
  for (const other of kept) {
    const overlap = questionOverlap(question, other)
    if (overlap >= settings.maxQuestionOverlap) return { ok: false, reason: 'near-duplicate', detail: `bigram overlap ${overlap.toFixed(3)} with ${JSON.stringify(other)}` }
  }
  return undefined
}
