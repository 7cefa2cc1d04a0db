// Token usage: the judge clients read what the servers report (OpenAI `usage`, Ollama
// `prompt_eval_count`/`eval_count`), sum it over repair attempts, record it in cache entries, and the
// metrics sum it per score (live requests apart from replayed replies).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { judgeCache, type JudgeCacheEntry } from '../../../src/judge/cache.js'
import { functionJudge } from '../../../src/judge/function-judge.js'
import { groundedness } from '../../../src/judge/metrics/groundedness.js'
import { sumUsage } from '../../../src/judge/metrics/shared.js'
import { ollamaJudge } from '../../../src/judge/ollama-judge.js'
import { openaiJudge } from '../../../src/judge/openai-judge.js'
import type { JsonSchema, JudgeRequest } from '../../../src/judge/types.js'
import { completion, startFakeOpenAI, type FakeOpenAI } from '../../helpers/fake-openai.js'
import { serverPerTest } from '../../helpers/scripted-server.js'
import { chatReply, step, useFakeOllama } from './helpers.js'

const schema: JsonSchema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'], additionalProperties: false }
const request = (prompt = 'How many? Reply with JSON.'): JudgeRequest => ({ template: 'test.step@00000000', system: 'You judge.', prompt, schema })
const CHAT = '/v1/chat/completions'

describe('judge usage: OpenAI-compatible server', () => {
  let fake: FakeOpenAI
  serverPerTest(startFakeOpenAI, (started) => {
    fake = started
  })
  const judge = (cacheDir?: string) =>
    openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, apiKey: 'sk-test', ...(cacheDir === undefined ? {} : { cache: judgeCache({ dir: cacheDir }) }) })

  it('reads usage.prompt_tokens and completion_tokens', async () => {
    fake.on(CHAT, () => true, completion({ n: 1 }, { usage: { prompt_tokens: 321, completion_tokens: 12 } }))
    const reply = await judge().ask(request())
    expect(reply.usage).toEqual({ promptTokens: 321, completionTokens: 12 })
  })

  it('has no usage when the server reports none', async () => {
    fake.on(CHAT, () => true, completion({ n: 1 }, { usage: null }))
    const reply = await judge().ask(request())
    expect(reply.usage).toBeUndefined()
  })

  it('sums the tokens of a repair retry with the first call', async () => {
    fake.on(CHAT, () => true, completion({ wrong: true }, { usage: { prompt_tokens: 100, completion_tokens: 7 } }), { times: 1 })
    fake.on(CHAT, () => true, completion({ n: 2 }, { usage: { prompt_tokens: 140, completion_tokens: 5 } }))
    const reply = await judge().ask(request())
    expect(reply.attempts).toBe(2)
    expect(reply.usage).toEqual({ promptTokens: 240, completionTokens: 12 })
  })

  it('records usage in the cache entry and hands it back on a replay, marked cached', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rag-judge-usage-'))
    try {
      fake.on(CHAT, () => true, completion({ n: 3 }, { usage: { prompt_tokens: 50, completion_tokens: 4 } }))
      const live = await judge(dir).ask(request())
      expect(live).toMatchObject({ cached: false, usage: { promptTokens: 50, completionTokens: 4 } })
      const [file] = await readdir(dir)
      const entry = JSON.parse(await readFile(join(dir, file as string), 'utf8')) as JudgeCacheEntry
      expect(entry.reply.usage).toEqual({ promptTokens: 50, completionTokens: 4 })
      const replayed = await openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, apiKey: 'sk-test', cache: judgeCache({ dir, mode: 'replay' }) }).ask(request())
      expect(replayed).toMatchObject({ cached: true, usage: { promptTokens: 50, completionTokens: 4 } })
      expect(fake.requests).toHaveLength(1)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('judge usage: Ollama', () => {
  const fake = useFakeOllama()

  it('reads prompt_eval_count and eval_count', async () => {
    fake.on('/api/chat', () => true, chatReply({ n: 1 }, undefined, { promptEvalCount: 812, evalCount: 31 }))
    const reply = await ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir: 'unused', mode: 'off' }) }).ask(request())
    expect(reply.usage).toEqual({ promptTokens: 812, completionTokens: 31 })
  })

  it('sums a metric’s calls into details.calls.usage', async () => {
    fake.on('/api/chat', step('claims'), chatReply({ claims: ['Paris is in France.'] }, undefined, { promptEvalCount: 200, evalCount: 20 }))
    fake.on(
      '/api/chat',
      step('verdicts'),
      chatReply({ verdicts: [{ claim: 1, reason: 'Context 1.', verdict: 'supported', context: 1 }] }, undefined, { promptEvalCount: 300, evalCount: 30 }),
    )
    const judge = ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache: judgeCache({ dir: 'unused', mode: 'off' }) })
    const score = await groundedness('Paris is in France.', ['Paris is in France.'], judge)
    expect(score.details.calls.usage).toEqual({ promptTokens: 500, completionTokens: 50, calls: 2 })
  })
})

describe('judge usage: function judges and sums', () => {
  it('a function judge reports no usage', async () => {
    const judge = functionJudge(() => ({ n: 1 }), { id: 'plain', model: 'm', cache: judgeCache({ dir: 'unused', mode: 'off' }) })
    expect((await judge.ask(request())).usage).toBeUndefined()
  })

  it('sumUsage adds live and replayed tokens apart, and is undefined for nothing', () => {
    expect(sumUsage([undefined, undefined])).toBeUndefined()
    expect(
      sumUsage([
        { promptTokens: 10, completionTokens: 2, calls: 1 },
        undefined,
        { promptTokens: 5, completionTokens: 1, calls: 1, cached: { promptTokens: 7, completionTokens: 3, calls: 2 } },
      ]),
    ).toEqual({ promptTokens: 15, completionTokens: 3, calls: 2, cached: { promptTokens: 7, completionTokens: 3, calls: 2 } })
  })
})
