/**
 * The judge of the human-evaluation example, and the recording it replays.
 *
 * No model was available where this example was written, so the judge is a STAND-IN: a `functionJudge`
 * that answers the rubric template the way a small sampled model might. It scores correctness 5 when the
 * answer states the reference's numbers (numericConsistency) and 1 when it contradicts or omits one, and,
 * like a model sampled at a temperature above 0, its score moves one point toward the middle (5 → 4,
 * 1 → 2) in about a third of the requests, drawn from the request's seed. It never sees the human labels.
 *
 * Its replies are recorded in `__rag_judge_cache__/` (one entry per item and trial seed) and the example
 * replays them (cache mode `replay`): the same mechanism that lets CI run a real judge's trials without a
 * model. To record them again: `RAG_MATCHERS_EXAMPLE_RECORD=1 npm run example`. With a real model, use
 * `ollamaJudge({ model, cache: judgeCache({ dir, mode }) })` instead, record once, commit the folder.
 */
import { createHash } from 'node:crypto'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { numericConsistency } from '../../src/index.js'
// rag-matchers/judge in a project of your own
import { functionJudge, judgeCache, type FunctionJudgeRequest, type Judge, type Rubric } from '../../src/judge/public.js'

export const CACHE_DIR = join(dirname(fileURLToPath(import.meta.url)), '__rag_judge_cache__')

/** The rubric the judge scores, on the raters' 1–5 correctness scale. */
export const CORRECTNESS: Rubric = {
  id: 'correctness',
  criteria: 'The answer gives the same facts and numbers as the reference answer.',
  scale: [1, 5],
  levels: { 1: 'wrong: a number or fact contradicts the reference', 3: 'partly right', 5: 'fully right' },
}

/** Probability, per request, that the stand-in's score moves one point toward the middle. */
export const JITTER = 0.3

/** The text between a section's markers in a rendered judge prompt (src/judge/prompt.ts). */
function section(prompt: string, label: string): string | undefined {
  const start = new RegExp(`^<<<${label} (#[0-9a-f]{8})>>>$`, 'm').exec(prompt)
  if (start === null) return undefined
  const from = start.index + start[0].length + 1
  return prompt.slice(from, prompt.indexOf(`\n<<<END ${label} ${start[1]}>>>`, from))
}

/** The stand-in's reply to one rubric request: `{ reason, score }`. */
export function standInReply(request: Pick<FunctionJudgeRequest, 'messages' | 'seed'>): { reason: string; score: number } {
  const prompt = request.messages.find((m) => m.role === 'user')?.content ?? ''
  const answer = section(prompt, 'ANSWER')
  const reference = section(prompt, 'REFERENCE')
  if (answer === undefined || reference === undefined) throw new Error('the stand-in judge answers rubric requests with an ANSWER and a REFERENCE')
  const check = numericConsistency(answer, reference).details
  const u = createHash('sha256').update(`${answer}\u0000${request.seed}`).digest().readUInt32BE(0) / 2 ** 32
  const jitter = u < JITTER
  if (check.consistent) {
    const stated = check.matched.map((m) => m.reference.raw).join(', ')
    return { reason: `States the reference's number${check.matched.length === 1 ? '' : 's'} (${stated})${jitter ? ', though tersely' : ''}.`, score: jitter ? 4 : 5 }
  }
  const wrong = check.contradicted.map((c) => `${c.candidate.raw} where the reference says ${c.reference.raw}`)
  const missing = check.omitted.map((m) => `omits ${m.raw}`)
  return { reason: `Gives ${[...wrong, ...missing].join('; ')}${jitter ? '; the rest is plausible' : ''}.`, score: jitter ? 2 : 1 }
}

/** The judge, replaying the committed recording (or recording it with RAG_MATCHERS_EXAMPLE_RECORD=1). */
export function exampleJudge(): Judge {
  const mode = process.env.RAG_MATCHERS_EXAMPLE_RECORD === '1' ? 'readwrite' : 'replay'
  return functionJudge(async (request) => standInReply(request), {
    id: 'human-eval-stand-in',
    model: 'numeric-check-stand-in',
    temperature: 0.7,
    seed: 42,
    cache: judgeCache({ dir: CACHE_DIR, mode }),
  })
}
