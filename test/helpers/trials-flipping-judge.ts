/**
 * A judge server with known behaviour for the trials tests (issue #30): it speaks the real Ollama
 * (`POST /api/chat`) or OpenAI (`POST /v1/chat/completions`) protocol on 127.0.0.1, answers the rubric
 * template (`{ reason, score }`), and gives each answer a base verdict that turns over with a set
 * probability p in each request.
 *
 * Whether request (answer, seed) flips is a pure function of the two: the first 32 bits of
 * sha256(answer NUL seed) read as a fraction below p. So the server is a faithful "same request, same
 * reply" model (the replay cache may record it), different seeds (trials) draw independently, and a test
 * can compute every verdict itself with {@link flipped} to check what the matchers report.
 */
import { createHash } from 'node:crypto'
import { judgeCache } from '../../src/judge/cache.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import { openaiJudge } from '../../src/judge/openai-judge.js'
import type { JudgeCache, JudgeCacheEntry } from '../../src/judge/cache.js'
import type { Judge } from '../../src/judge/types.js'
import { startFakeOllama } from './fake-ollama.js'
import { completion, startFakeOpenAI } from './fake-openai.js'
import type { ScriptedRequest } from './scripted-server.js'

/** How one answer is judged: its verdict without noise, and the chance that a request turns it over. */
export interface FlippingCase {
  readonly pass: boolean
  readonly p: number
}

export type FlippingProtocol = 'ollama' | 'openai'

/** The rubric scale the server answers on: 5 (best) for a pass, 1 for a fail, so the normalised score is 1 or 0. */
export const PASS_SCORE = 5
export const FAIL_SCORE = 1

export interface FlippingJudgeServer {
  readonly protocol: FlippingProtocol
  /** Every request, in order (the trials tests count them). */
  readonly requests: ScriptedRequest[]
  /** Requests the server could not answer (an unknown answer or template): must stay empty. */
  readonly unhandled: ScriptedRequest[]
  /** A judge on this server (cache mode off unless one is given). */
  judge(options?: { seed?: number; cache?: JudgeCache }): Judge
  close(): Promise<void>
}

/** Whether the request for `answer` with `seed` turns the base verdict over, given probability `p`. */
export function flipped(answer: string, seed: number, p: number): boolean {
  const u = createHash('sha256').update(`${answer}\u0000${seed}`).digest().readUInt32BE(0) / 2 ** 32
  return u < p
}

/** The verdict the server gives `answer` asked with `seed`. */
export function verdictOf(c: FlippingCase, answer: string, seed: number): boolean {
  return c.pass !== flipped(answer, seed, c.p)
}

/** The text between the ANSWER markers of a rendered prompt (see src/judge/prompt.ts). */
function answerOf(body: { messages?: Array<{ role: string; content: string }> }): string | undefined {
  const prompt = body.messages?.find((m) => m.role === 'user')?.content ?? ''
  const start = /^<<<ANSWER (#[0-9a-f]{8})>>>$/m.exec(prompt)
  if (start === null) return undefined
  const from = start.index + start[0].length + 1
  return prompt.slice(from, prompt.indexOf(`\n<<<END ANSWER ${start[1]}>>>`, from))
}

/** Starts the server; `cases` maps each answer text the tests send to its behaviour. */
export async function startFlippingJudge(protocol: FlippingProtocol, cases: ReadonlyMap<string, FlippingCase>): Promise<FlippingJudgeServer> {
  const reply = (body: any): { reason: string; score: number } | undefined => {
    const answer = answerOf(body)
    const c = answer === undefined ? undefined : cases.get(answer)
    const seed = protocol === 'ollama' ? body?.options?.seed : body?.seed
    if (answer === undefined || c === undefined || typeof seed !== 'number') return undefined
    const pass = verdictOf(c, answer, seed)
    return pass ? { reason: 'The answer meets the rubric.', score: PASS_SCORE } : { reason: 'The answer misses what the rubric asks for.', score: FAIL_SCORE }
  }
  const isRubric = (body: any) => reply(body) !== undefined
  if (protocol === 'ollama') {
    const fake = await startFakeOllama()
    fake.on('/api/chat', isRubric, (req) => ({
      body: {
        model: req.body.model,
        created_at: '2024-01-01T00:00:00Z',
        message: { role: 'assistant', content: JSON.stringify(reply(req.body)) },
        done: true,
        done_reason: 'stop',
      },
    }))
    return {
      protocol,
      requests: fake.requests,
      unhandled: fake.unhandled,
      judge: (o = {}) =>
        ollamaJudge({ model: 'llama3.1:8b', host: fake.host, seed: o.seed ?? 42, concurrency: 8, cache: o.cache ?? judgeCache({ dir: 'judge-cache', mode: 'off' }) }),
      close: fake.close,
    }
  }
  const fake = await startFakeOpenAI()
  fake.on('/v1/chat/completions', isRubric, (req) => completion(reply(req.body), { model: req.body.model }))
  return {
    protocol,
    requests: fake.requests,
    unhandled: fake.unhandled,
    judge: (o = {}) =>
      openaiJudge({
        model: 'gpt-4o-mini',
        baseURL: fake.baseURL,
        apiKey: 'sk-test',
        seed: o.seed ?? 42,
        concurrency: 8,
        cache: o.cache ?? judgeCache({ dir: 'judge-cache', mode: 'off' }),
      }),
    close: fake.close,
  }
}

/**
 * A judge cache held in memory (mode readwrite): the first assertion records, the next ones with the same
 * requests replay, without the disk. For tests that ask the same questions several times.
 */
export function memoryCache(): JudgeCache {
  const entries = new Map<string, JudgeCacheEntry>()
  return {
    dir: '(memory)',
    mode: 'readwrite',
    fileFor: (key) => `(memory)/${key}.json`,
    read: async (key) => {
      const entry = entries.get(key)
      return entry === undefined ? { status: 'miss' } : { status: 'hit', entry }
    },
    write: async (entry) => {
      entries.set(entry.key, entry)
    },
  }
}
