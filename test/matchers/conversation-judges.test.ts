// Runs under Vitest AND Jest (globals only). The conversation judges (#31), toRetainKnowledge and
// toCompleteConversation, with a real ollamaJudge and openaiJudge talking to the scripted fake servers:
// the value, the message naming the turn or the request, the eval-set mean, `.not`, a one-turn or
// request-less conversation, malformed replies and an unreachable judge (a failure, never a pass),
// bad conversations (Matcher errors naming the case and turn), and replay from a recorded cache.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { judgeCache } from '../../src/judge/cache.js'
import { ollamaJudge } from '../../src/judge/ollama-judge.js'
import { openaiJudge } from '../../src/judge/openai-judge.js'
import type { Judge } from '../../src/judge/types.js'
import { startFakeOllama, type FakeOllama } from '../helpers/fake-ollama.js'
import { completion, startFakeOpenAI, type FakeOpenAI } from '../helpers/fake-openai.js'
import { asyncFailureOf } from '../helpers/failure.js'
import { serverPerTest } from '../helpers/scripted-server.js'
import { chatReply, dataOf, step } from '../src/judge/helpers.js'

const VEGETARIAN = {
  id: 'dinner',
  turns: [
    { user: 'I am vegetarian. Suggest a dinner.', assistant: 'A mushroom risotto.' },
    { user: 'Something quicker?', assistant: 'A vegetable stir-fry with tofu.' },
    { user: 'And a side dish?', assistant: 'Bacon-wrapped asparagus.' },
  ],
}
const REFUND = {
  id: 'refund',
  turns: [
    { user: 'What is your refund window?', assistant: 'Refunds are accepted within 30 days.' },
    { user: 'How do I ship a return, and do you cover postage?', assistant: 'Print the label from your account page.' },
  ],
}

/** A reply keeps what was established unless it mentions bacon (the user is vegetarian). */
function retention(reply: string): { reason: string; verdict: string } {
  return reply.includes('Bacon')
    ? { reason: 'Bacon ignores that the user is vegetarian.', verdict: 'forgotten' }
    : { reason: 'Consistent with the earlier turns.', verdict: 'retained' }
}

/** Requests are the user's questions split at ", and"; addressed when a reply mentions its first keyword. */
const KEYWORDS: Record<string, string> = { 'refund window': 'Refunds', 'ship a return': 'label', postage: 'postage' }
function requestsOf(users: string[]): string[] {
  return users.flatMap((u) => Object.keys(KEYWORDS).filter((k) => u.includes(k)))
}
function verdictsOf(requests: string[], answered: string): Array<{ reason: string; request: number; verdict: string }> {
  return requests.map((r, i) => {
    const done = answered.includes(KEYWORDS[r] as string)
    return { reason: done ? `A reply covers the ${r}.` : `No reply mentions the ${r}.`, request: i + 1, verdict: done ? 'addressed' : 'unaddressed' }
  })
}

function sections(body: unknown, prefix: string): string[] {
  const out: string[] = []
  for (let i = 1; dataOf(body, `${prefix} ${i}`) !== undefined; i++) out.push(dataOf(body, `${prefix} ${i}`) as string)
  return out
}

/** The replies of the TURN sections (what the assistant said), joined. */
function replies(body: unknown): string {
  const out: string[] = []
  for (let i = 1; dataOf(body, `TURN ${i} ASSISTANT`) !== undefined; i++) out.push(dataOf(body, `TURN ${i} ASSISTANT`) as string)
  return out.join('\n')
}

const root = mkdtempSync(join(tmpdir(), 'rag-matchers-conversation-judges-'))
afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

describe('with ollamaJudge on the fake Ollama server', () => {
  let fake: FakeOllama
  serverPerTest(startFakeOllama, (started) => {
    fake = started
  })
  const judge = (cache = judgeCache({ dir: 'judge-cache', mode: 'off' }), retries?: number): Judge =>
    ollamaJudge({ model: 'llama3.1:8b', host: fake.host, cache, ...(retries === undefined ? {} : { retries }) })

  function scriptRetention(): void {
    fake.on('/api/chat', step('reason', 'verdict'), (req) => chatReply(retention(dataOf(req.body, 'REPLY') ?? '')))
  }
  function scriptCompleteness(): void {
    fake.on('/api/chat', step('requests'), (req) => chatReply({ requests: requestsOf(sections(req.body, 'USER')) }))
    fake.on('/api/chat', step('verdicts'), (req) => chatReply({ verdicts: verdictsOf(sections(req.body, 'REQUEST'), replies(req.body)) }))
  }

  describe('.toRetainKnowledge', () => {
    it('is the share of later replies that keep what earlier turns established; .not passes below min', async () => {
      scriptRetention()
      await expect(VEGETARIAN).toRetainKnowledge(0.5, { judge: judge() })
      await expect(VEGETARIAN).not.toRetainKnowledge(0.6, { judge: judge() })
      // one call per reply after the first, each shown every earlier turn
      const asked = fake.requests.filter((r) => r.path === '/api/chat')
      expect(asked).toHaveLength(4)
      expect(dataOf(asked.find((r) => dataOf(r.body, 'REPLY') === 'Bacon-wrapped asparagus.')?.body, 'TURN 2 ASSISTANT')).toBe('A vegetable stir-fry with tofu.')
    })

    it('fails naming the turn that forgot, with the judge’s reason and the signature', async () => {
      scriptRetention()
      const message = await asyncFailureOf(() => expect(VEGETARIAN).toRetainKnowledge(1, { judge: judge() }))
      expect(message).toContain('expect(received).toRetainKnowledge(min)')
      expect(message).toContain('knowledge retention = 0.5000   required ≥ 1.0000')
      expect(message).toMatch(/replies that forgot or contradicted an earlier turn \(1 of 2\):\n\s+turn 3\s+— "Bacon ignores that the user is vegetarian\."/)
      expect(message).toContain('retained: 1 of 2')
      expect(message).toMatch(/signature: Judge\|metric:knowledge-retention@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|empty:vacuous\|version:/)
      scriptRetention()
      const not = await asyncFailureOf(() => expect(VEGETARIAN).not.toRetainKnowledge(0.5, { judge: judge() }))
      expect(not).toContain('expect(received).not.toRetainKnowledge(min)')
      expect(not).toContain('knowledge retention = 0.5000')
    })

    it('takes the mean over the conversations of an eval set, naming each', async () => {
      scriptRetention()
      const kept = { id: 'kept', turns: VEGETARIAN.turns.slice(0, 2) }
      await expect([VEGETARIAN, kept]).toRetainKnowledge(0.75, { judge: judge() })
      await expect({ cases: [VEGETARIAN, kept] }).not.toRetainKnowledge(0.76, { judge: judge() })
      const message = await asyncFailureOf(() => expect([VEGETARIAN, kept]).toRetainKnowledge(0.9, { judge: judge() }))
      expect(message).toContain('mean knowledge retention over 2 cases')
      expect(message).toMatch(/dinner\s+0\.5000\s+1 of 2 replies forgot: "turn 3"/)
    })

    it('fails a one-turn conversation with or without .not (nothing to judge) unless empty: pass', async () => {
      const one = { id: 'one', turns: VEGETARIAN.turns.slice(0, 1) }
      for (const run of [() => expect(one).toRetainKnowledge(0.5, { judge: judge() }), () => expect(one).not.toRetainKnowledge(0.5, { judge: judge() })]) {
        const message = await asyncFailureOf(run)
        expect(message).toContain('knowledge retention could not be computed, so the assertion fails.')
        expect(message).toContain('a one-turn conversation has no earlier turn to retain')
      }
      await expect(one).toRetainKnowledge(1, { judge: judge(), empty: 'pass' })
      expect(fake.requests).toHaveLength(0)
    })
  })

  describe('.toCompleteConversation', () => {
    it("is the share of the user's requests the replies addressed; .not passes below min", async () => {
      scriptCompleteness()
      await expect(REFUND).toCompleteConversation(0.6, { judge: judge() })
      scriptCompleteness()
      await expect(REFUND).not.toCompleteConversation(0.7, { judge: judge() })
    })

    it('fails listing the unaddressed requests with reasons', async () => {
      scriptCompleteness()
      const message = await asyncFailureOf(() => expect(REFUND).toCompleteConversation(1, { judge: judge() }))
      expect(message).toContain('conversation completeness = 0.6667   required ≥ 1.0000')
      expect(message).toMatch(/requests the replies did not address \(1 of 3\):\n\s+"postage"\s+— "No reply mentions the postage\."/)
      expect(message).toContain('addressed: 2 of 3')
      expect(message).toMatch(/metric:conversation-completeness@[0-9a-f]{8}/)
    })

    it('takes the mean over conversations; a conversation with no request fails either way unless empty: pass', async () => {
      scriptCompleteness()
      const done = { id: 'done', turns: REFUND.turns.slice(0, 1) }
      await expect([REFUND, done]).toCompleteConversation(0.8, { judge: judge() })
      await expect([REFUND, done]).not.toCompleteConversation(0.85, { judge: judge() })
      const chat = { id: 'chat', turns: [{ user: 'Thanks!', assistant: 'You are welcome.' }] }
      for (const run of [() => expect([chat]).toCompleteConversation(0.5, { judge: judge() }), () => expect([chat]).not.toCompleteConversation(0.5, { judge: judge() })]) {
        const message = await asyncFailureOf(run)
        expect(message).toContain('mean conversation completeness could not be computed, so the assertion fails.')
        expect(message).toMatch(/case chat: the user asked for nothing, so there is nothing to judge/)
      }
      await expect([chat]).toCompleteConversation(1, { judge: judge(), empty: 'pass' })
    })
  })

  it('fails — with or without .not — when the judge replies with malformed JSON or an out-of-schema verdict', async () => {
    fake.on('/api/chat', () => true, chatReply('Sure! The reply retained everything.'))
    for (const run of [
      () => expect(VEGETARIAN).toRetainKnowledge(0, { judge: judge(undefined, 1) }),
      () => expect(VEGETARIAN).not.toRetainKnowledge(1, { judge: judge(undefined, 1) }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('knowledge retention could not be computed, so the assertion fails.')
      expect(message).toContain('gave no valid reply for knowledge-retention')
    }
    fake.on('/api/chat', step('requests'), chatReply({ requests: ['refund window'] }))
    fake.on('/api/chat', step('verdicts'), chatReply({ verdicts: [{ reason: 'ok', request: 1, verdict: 'maybe' }] }))
    for (const run of [
      () => expect(REFUND).toCompleteConversation(0, { judge: judge(undefined, 0) }),
      () => expect(REFUND).not.toCompleteConversation(1, { judge: judge(undefined, 0) }),
    ]) {
      expect(await asyncFailureOf(run)).toContain('conversation completeness could not be computed, so the assertion fails.')
    }
  })

  it('fails — with or without .not — when the judge cannot be reached', async () => {
    const closed = await startFakeOllama()
    await closed.close()
    const gone = ollamaJudge({ model: 'llama3.1:8b', host: closed.host, retries: 0, cache: judgeCache({ dir: 'judge-cache', mode: 'off' }) })
    for (const run of [
      () => expect(VEGETARIAN).toRetainKnowledge(0, { judge: gone }),
      () => expect(VEGETARIAN).not.toRetainKnowledge(1, { judge: gone }),
      () => expect([REFUND]).toCompleteConversation(0, { judge: gone }),
      () => expect([REFUND]).not.toCompleteConversation(1, { judge: gone }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toMatch(/(knowledge retention|conversation completeness) could not be computed, so the assertion fails\./)
      expect(message).toContain(closed.host)
    }
  })

  it('replays recorded replies without a model; a replay miss fails with or without .not', async () => {
    const dir = join(root, 'replay')
    scriptRetention()
    await expect(VEGETARIAN).toRetainKnowledge(0.5, { judge: judge(judgeCache({ dir, mode: 'readwrite' })) })
    const made = fake.requests.length
    await expect(VEGETARIAN).toRetainKnowledge(0.5, { judge: judge(judgeCache({ dir, mode: 'replay' })) })
    await expect(VEGETARIAN).not.toRetainKnowledge(0.6, { judge: judge(judgeCache({ dir, mode: 'replay' })) })
    expect(fake.requests).toHaveLength(made)
    const other = { id: 'other', turns: [...VEGETARIAN.turns.slice(0, 2), { user: 'Dessert?', assistant: 'A fruit salad.' }] }
    for (const run of [
      () => expect(other).toRetainKnowledge(0, { judge: judge(judgeCache({ dir, mode: 'replay' })) }),
      () => expect(other).not.toRetainKnowledge(1, { judge: judge(judgeCache({ dir, mode: 'replay' })) }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('knowledge retention could not be computed, so the assertion fails.')
      expect(message).toMatch(/replay/i)
    }
    expect(fake.requests).toHaveLength(made)
  })
})

describe('with openaiJudge on the fake OpenAI server', () => {
  let fake: FakeOpenAI
  serverPerTest(startFakeOpenAI, (started) => {
    fake = started
  })
  const CHAT = '/v1/chat/completions'
  const judge = (): Judge =>
    openaiJudge({ model: 'gpt-4o-mini', baseURL: fake.baseURL, apiKey: 'sk-conv', cache: judgeCache({ dir: 'judge-cache', mode: 'off' }), retries: 0 })
  const keys = (b: { response_format?: { json_schema?: { schema?: { properties?: object } } } }) =>
    Object.keys(b.response_format?.json_schema?.schema?.properties ?? {})
      .sort()
      .join(',')
  /** The prompt of an OpenAI chat body, in the shape dataOf reads (Ollama's `messages`). */
  const asOllama = (b: { messages: unknown }) => ({ messages: b.messages })

  it('judges knowledge retention and conversation completeness with .not, signing backend and host', async () => {
    fake.on(
      CHAT,
      (b) => keys(b) === 'reason,verdict',
      (req) => completion(retention(dataOf(asOllama(req.body), 'REPLY') ?? '')),
    )
    fake.on(
      CHAT,
      (b) => keys(b) === 'requests',
      (req) => completion({ requests: requestsOf(sections(asOllama(req.body), 'USER')) }),
    )
    fake.on(
      CHAT,
      (b) => keys(b) === 'verdicts',
      (req) => completion({ verdicts: verdictsOf(sections(asOllama(req.body), 'REQUEST'), replies(asOllama(req.body))) }),
    )
    await expect(VEGETARIAN).toRetainKnowledge(0.5, { judge: judge() })
    await expect(VEGETARIAN).not.toRetainKnowledge(0.6, { judge: judge() })
    await expect(REFUND).toCompleteConversation(0.6, { judge: judge() })
    const message = await asyncFailureOf(() => expect(REFUND).toCompleteConversation(0.9, { judge: judge() }))
    expect(message).toContain(`backend:openai|host:${fake.host}`)
    expect(message).toContain('"postage"')
  })

  it('fails — with or without .not — on a refusal and on a reply that ignores the schema', async () => {
    fake.on(CHAT, () => true, completion(null, { refusal: 'I cannot help with that.' }), { times: 2 })
    fake.on(CHAT, () => true, completion('They were all addressed.'))
    for (const run of [() => expect(REFUND).toCompleteConversation(0, { judge: judge() }), () => expect(REFUND).not.toCompleteConversation(1, { judge: judge() })]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('conversation completeness could not be computed, so the assertion fails.')
      expect(message).toContain('refused to judge')
    }
    for (const run of [() => expect(VEGETARIAN).toRetainKnowledge(0, { judge: judge() }), () => expect(VEGETARIAN).not.toRetainKnowledge(1, { judge: judge() })]) {
      expect(await asyncFailureOf(run)).toContain('gave no valid reply for knowledge-retention')
    }
  })
})

describe('bad conversations are Matcher errors naming the case and the turn, with or without .not', () => {
  const judge = ollamaJudge({ model: 'never', host: 'http://127.0.0.1:9', cache: judgeCache({ dir: 'judge-cache', mode: 'off' }) })
  const cases: Array<[string, unknown, RegExp]> = [
    ['no turns', { id: 'c1', turns: [] }, /Expected `turns` to be a non-empty array of turns/],
    ['a turn without assistant', { id: 'c2', turns: [{ user: 'Hi', assistant: 'Hello' }, { user: 'Bye' }] }, /`turns\[1\] \(turn 2\)\.assistant` to be a string/],
    ['not a conversation', 'Hello there', /received value must be a conversation/],
    ['a set case with no turns', [VEGETARIAN, { id: 'c3', turns: [] }], /case c3: .*`turns` to be a non-empty array/],
    ['a set case with a bad turn', [{ id: 'c4', turns: [{ user: 1, assistant: 'x' }] }], /case c4: .*`turns\[0\] \(turn 1\)\.user`/],
    ['a set case without turns', [{ id: 'c5', question: 'q', answer: 'a' }], /case c5 \(received\[0\]\) has no `turns`/],
  ]
  it.each(cases)('%s', async (_, received, problem) => {
    for (const run of [
      () => expect(received).toRetainKnowledge(0.5, { judge }),
      () => expect(received).not.toRetainKnowledge(0.5, { judge }),
      () => expect(received).toCompleteConversation(0.5, { judge }),
      () => expect(received).not.toCompleteConversation(0.5, { judge }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain('Matcher error')
      expect(message).toMatch(problem)
    }
  })
})
