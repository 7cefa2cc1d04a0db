// Runs under Vitest AND Jest (globals only). Conversations under the per-turn matchers (#31): every turn
// is scored as a case named `<id> turn <n>`, a single conversation asserts on the mean over its turns,
// a set's mean is over turns, and a turn without the field a matcher needs is a Matcher error naming it.
import { judgeCache } from '../../src/judge/cache.js'
import { functionJudge } from '../../src/judge/function-judge.js'
import { allMatchers } from '../../matchers/all.js'
import { TASK_META_KEY } from '../../matchers/record.js'
import { failureOf, asyncFailureOf } from '../helpers/failure.js'
import { matcherContext } from '../helpers/matcher-context.js'

const CONVERSATION = {
  id: 'c1',
  turns: [
    { user: 'Where is the Eiffel Tower?', assistant: 'The Eiffel Tower is in Paris.', retrieved: ['d1', 'd9'], relevant: ['d1'], reference: 'The Eiffel Tower is in Paris.' },
    { user: 'How tall is it?', assistant: 'It is about 330 metres tall.', retrieved: ['d9', 'd2'], relevant: ['d2'], reference: 'It is about 330 metres tall.' },
    { user: 'When was it built?', assistant: 'It was finished in 1889.', retrieved: ['d7', 'd8'], relevant: ['d3'], reference: 'It was completed in 1889.' },
  ],
}

describe('retrieval matchers on a conversation', () => {
  it('score every turn and assert on the mean over turns', () => {
    // recall@2 per turn: 1, 1, 0 → mean 2/3
    expect(CONVERSATION).toHaveRecallAtK(2, 0.6)
    expect(CONVERSATION).not.toHaveRecallAtK(2, 0.7)
    // MRR: 1, 0.5, 0 → 0.5
    expect(CONVERSATION).toHaveMrrAbove(0.5)
    expect(CONVERSATION).not.toHaveMrrAbove(0.51)
  })

  it('name the turn that fell short', () => {
    const message = failureOf(() => expect(CONVERSATION).toHaveRecallAtK(2, 0.9))
    expect(message).toMatch(/over 3 queries/)
    expect(message).toMatch(/c1 turn 3\s+0/)
    const not = failureOf(() => expect(CONVERSATION).not.toHaveRecallAtK(2, 0.5))
    expect(not).toMatch(/c1 turn 1/)
    expect(not).not.toMatch(/c1 turn 3/)
  })

  it('take the mean over the turns of every conversation in a set, next to plain cases', () => {
    const set = [CONVERSATION, { id: 'q9', retrieved: ['d1'], relevant: ['d1'] }]
    // 1, 1, 0, 1 → 0.75
    expect(set).toHaveRecallAtK(2, 0.75)
    expect(set).not.toHaveRecallAtK(2, 0.76)
    const message = failureOf(() => expect({ cases: set }).toHaveRecallAtK(2, 0.8))
    expect(message).toMatch(/over 4 queries/)
    expect(message).toMatch(/c1 turn 3/)
  })

  it('expand the conversations of a describeEvalSet-like run (a class with getters), and leave a run that throws to the matcher', () => {
    class Run {
      get cases(): unknown[] {
        return [CONVERSATION]
      }
    }
    expect(new Run()).toHaveRecallAtK(2, 0.6)
    expect(failureOf(() => expect(new Run()).toHaveRecallAtK(2, 0.9))).toMatch(/c1 turn 3/)
    class Failed {
      get cases(): unknown[] {
        throw new Error('the eval set could not be run: boom')
      }
    }
    expect(() => expect(new Failed()).toHaveRecallAtK(2, 0.5)).toThrow('the eval set could not be run: boom')
  })

  it('name a conversation without an id by its turns alone', () => {
    const { id: _id, ...anonymous } = CONVERSATION
    expect(failureOf(() => expect(anonymous).toHitWithin(2))).toMatch(/^\s*turn 3\s+0/m)
  })
})

describe('recording', () => {
  it('records one per-case row per turn, as for any case of a set', () => {
    // a Vitest-like task: the recorder appends each direct assertion's record to task.meta
    const task = { type: 'test', name: 'turns', meta: {} as Record<string, unknown> }
    const ctx = { ...matcherContext(false), task }
    const result = allMatchers.toHaveRecallAtK.call(ctx, CONVERSATION, 2, 0.5) as { pass: boolean }
    expect(result.pass).toBe(true)
    const records = task.meta[TASK_META_KEY] as Array<{ matcher: string; value: number; perCase: Array<{ id: string; value: number }> }>
    expect(records).toHaveLength(1)
    expect(records[0]?.matcher).toBe('toHaveRecallAtK')
    expect(records[0]?.value).toBeCloseTo(2 / 3, 10)
    expect(records[0]?.perCase.map((c) => [c.id, c.value])).toEqual([
      ['c1 turn 1', 1],
      ['c1 turn 2', 1],
      ['c1 turn 3', 0],
    ])
  })
})

describe('lexical matchers on a conversation', () => {
  it('score every turn against its reference', () => {
    expect(CONVERSATION).toScoreRougeAbove(0.8)
    expect(CONVERSATION).not.toScoreRougeAbove(0.99)
    expect(CONVERSATION).toScoreBleuAbove(50)
    expect(CONVERSATION).not.toScoreChrfAbove(99)
    const message = failureOf(() => expect(CONVERSATION).toScoreRougeAbove(0.99))
    expect(message).toMatch(/c1 turn 3/)
  })
})

describe('a conversation the matcher cannot score', () => {
  const withoutRelevant = { id: 'c2', turns: [CONVERSATION.turns[0], { user: 'And?', assistant: 'Yes.', retrieved: ['d1'] }] }

  it('is a Matcher error naming the turn without the field, with or without .not', () => {
    for (const assertion of [() => expect(withoutRelevant).toHaveRecallAtK(2, 0.5), () => expect(withoutRelevant).not.toHaveRecallAtK(2, 0.5)]) {
      const message = failureOf(assertion)
      expect(message).toMatch(/Matcher error: conversation c2, turn 2 has no `relevant`; toHaveRecallAtK scores every turn/)
    }
    const inSet = failureOf(() => expect([{ id: 'q1', retrieved: ['a'], relevant: ['a'] }, withoutRelevant]).toHaveRecallAtK(2, 0.5))
    expect(inSet).toMatch(/conversation c2 \(received\[1\]\), turn 2 has no `relevant`/)
    const noReference = failureOf(() => expect({ turns: [{ user: 'Hi', assistant: 'Hello' }] }).not.toScoreBleuAbove(10))
    expect(noReference).toMatch(/the conversation, turn 1 has no `reference` \(or `references`\)/)
  })

  it('is a Matcher error naming the case when it has no turns, or a turn is not a turn', () => {
    expect(failureOf(() => expect({ id: 'c3', turns: [] }).not.toHaveMrrAbove(0.5))).toMatch(/conversation c3: .*`turns` to be a non-empty array of turns/)
    expect(failureOf(() => expect([{ id: 'c4', turns: [] }]).toHaveMrrAbove(0.5))).toMatch(/conversation c4 \(received\[0\]\)/)
    expect(failureOf(() => expect({ id: 'c5', turns: [{ user: 'Hi' }] }).toHaveMrrAbove(0.5))).toMatch(/turns\[0\] \(turn 1\)\.assistant/)
    expect(failureOf(() => expect({ id: 'c6', turns: 'hello' }).toHaveMrrAbove(0.5))).toMatch(/conversation c6/)
  })
})

describe('judge matchers on a conversation', () => {
  // Claims are the answer's sentences; a claim is supported when a context contains it.
  const judge = functionJudge(
    async (req) => {
      const keys = Object.keys(req.schema.properties ?? {}).join(',')
      const text = req.messages.map((m) => m.content).join('\n')
      if (keys === 'claims') return { claims: [/<<<ANSWER [^>]*>>>\n([\s\S]*?)\n<<<END ANSWER/.exec(text)?.[1] ?? ''] }
      const claim = /<<<CLAIM 1 [^>]*>>>\n([\s\S]*?)\n<<<END CLAIM 1/.exec(text)?.[1] ?? ''
      const supported = text
        .split('<<<CONTEXT')
        .slice(1)
        .some((c) => c.includes(claim))
      return { verdicts: [{ claim: 1, reason: supported ? 'stated' : 'not stated', verdict: supported ? 'supported' : 'not_found', context: supported ? 1 : 0 }] }
    },
    { id: 'turns', model: 'turns-1', cache: judgeCache({ dir: 'judge-cache', mode: 'off' }) },
  )
  const conversation = {
    id: 'g1',
    turns: [
      { user: 'Capital of France?', assistant: 'Paris is the capital.', contexts: ['Paris is the capital.'] },
      { user: 'Its river?', assistant: 'The Thames.', contexts: ['Paris lies on the Seine.'] },
    ],
  }

  it('judge every turn and name the turn that fell short', async () => {
    await expect(conversation).toBeGroundedIn(0.5, { judge })
    await expect(conversation).not.toBeGroundedIn(0.6, { judge })
    const message = await asyncFailureOf(() => expect(conversation).toBeGroundedIn(1, { judge }))
    expect(message).toMatch(/over 2 cases/)
    expect(message).toMatch(/g1 turn 2\s+0/)
  })

  it('refuse a turn without contexts, with or without .not', async () => {
    const bare = { id: 'g2', turns: [{ user: 'Hi', assistant: 'Hello' }] }
    for (const assertion of [() => expect(bare).toBeGroundedIn(0.5, { judge }), () => expect(bare).not.toBeGroundedIn(0.5, { judge })]) {
      expect(await asyncFailureOf(assertion)).toMatch(/conversation g2, turn 1 has no `contexts` \(or `retrieved` items with `text`\)/)
    }
  })
})
