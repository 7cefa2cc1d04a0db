// Opt-in: runs the judge metrics against a real Ollama model. Vitest only.
//   RAG_MATCHERS_LIVE=1 RAG_MATCHERS_JUDGE_MODEL=llama3.1:8b [OLLAMA_HOST=127.0.0.1:11434] npx vitest run test/live/judge.live.test.ts
// Without a cache, so it exercises the model every time; assertions are deliberately loose (clear-cut cases).
import { describe, expect, it } from 'vitest'
import { answerRelevance, contextPrecision, groundedness, ollamaJudge, pairwiseJudge, rubricScore } from '../../src/judge/index.js'

const live = process.env['RAG_MATCHERS_LIVE'] === '1'
const model = process.env['RAG_MATCHERS_JUDGE_MODEL']
const skipReason = !live
  ? 'set RAG_MATCHERS_LIVE=1 (and RAG_MATCHERS_JUDGE_MODEL, optionally OLLAMA_HOST) to run'
  : model === undefined || model === ''
    ? 'set RAG_MATCHERS_JUDGE_MODEL (e.g. llama3.1:8b) to run'
    : undefined

/** OLLAMA_HOST as Ollama itself accepts it: `host`, `host:port` or a URL; default loopback. */
function ollamaHost(): string {
  const raw = process.env['OLLAMA_HOST'] ?? '127.0.0.1:11434'
  const withScheme = /^https?:\/\//.test(raw) ? raw : `http://${raw}`
  const url = new URL(withScheme)
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1'
  if (url.port === '' && !/^https?:\/\/[^/]+:\d+/.test(withScheme)) url.port = '11434'
  return url.origin
}

describe.skipIf(skipReason !== undefined)(`judge metrics against a live Ollama model${skipReason === undefined ? '' : ` (skipped: ${skipReason})`}`, () => {
  const judge = () => ollamaJudge({ model: model as string, host: ollamaHost(), timeoutMs: 300_000 })
  const CONTEXTS = ['Paris is the capital and largest city of France.', 'The euro is the currency of France.']

  it('grounds a supported answer and flags an invented one', { timeout: 600_000 }, async () => {
    const good = await groundedness('Paris is the capital of France.', CONTEXTS, judge())
    const bad = await groundedness('Marseille is the capital of France and its currency is the franc.', CONTEXTS, judge())
    console.info(`[live] ${good.signature} good=${good.value} bad=${bad.value}`)
    expect(good.value).toBe(1)
    expect(bad.value).toBeLessThan(0.5)
  })

  it('judges relevance, precision, a rubric and a pairwise preference', { timeout: 600_000 }, async () => {
    const relevance = await answerRelevance('What is the capital of France?', 'The capital of France is Paris.', judge())
    expect(relevance.value).toBeGreaterThan(0.5)
    const precision = await contextPrecision('What is the capital of France?', [CONTEXTS[0] as string, 'Bananas are yellow.'], 'Paris', judge())
    expect(precision.details.chunks[0]?.relevant).toBe(true)
    const rubric = await rubricScore('Paris.', 'States the correct capital of France.', judge(), { question: 'What is the capital of France?' })
    expect(rubric.details.raw).toBeGreaterThanOrEqual(3)
    const pair = await pairwiseJudge('What is the capital of France?', 'Paris.', 'Berlin.', judge())
    expect(pair.details.winner).toBe('A')
  })

  it('names the model to pull when it is missing', { timeout: 60_000 }, async () => {
    const missing = ollamaJudge({ model: 'rag-matchers-no-such-model:0b', host: ollamaHost() })
    await expect(groundedness('x', ['y'], missing)).rejects.toThrow('ollama pull rag-matchers-no-such-model:0b')
  })
})
