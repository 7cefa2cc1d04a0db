import { knowledgeRetention } from '../../../../src/judge/metrics/knowledge-retention.js'
import { chatReply, dataOf, labelsOf, step, useFakeJudge } from '../helpers.js'

const TURNS = [
  { user: 'I am vegetarian. Suggest a dinner.', assistant: 'A mushroom risotto.' },
  { user: 'Something quicker?', assistant: 'A tofu stir-fry.' },
  { user: 'And a side dish?', assistant: 'Bacon-wrapped asparagus.' },
]

describe('knowledgeRetention', () => {
  const { fake, judge } = useFakeJudge()

  it('is retained replies / (turns − 1), one call per reply after the first, each shown the earlier turns', async () => {
    fake.on('/api/chat', step('reason', 'verdict'), (req) =>
      chatReply(
        dataOf(req.body, 'REPLY')?.includes('Bacon')
          ? { reason: 'Ignores that the user is vegetarian.', verdict: 'forgotten' }
          : { reason: 'Consistent.', verdict: 'retained' },
      ),
    )
    const score = await knowledgeRetention(TURNS, judge())
    expect(score.value).toBe(0.5)
    expect(score.details).toMatchObject({ total: 2, retained: 1, forgotten: 1, empty: false })
    expect(score.details.turns).toEqual([
      { turn: 2, verdict: 'retained', reason: 'Consistent.' },
      { turn: 3, verdict: 'forgotten', reason: 'Ignores that the user is vegetarian.' },
    ])
    const last = fake.requests.find((r) => dataOf(r.body, 'REPLY') === 'Bacon-wrapped asparagus.')
    expect(labelsOf(last?.body)).toEqual(['TURN 1 USER', 'TURN 1 ASSISTANT', 'TURN 2 USER', 'TURN 2 ASSISTANT', 'LATEST USER', 'REPLY'])
    expect(dataOf(last?.body, 'LATEST USER')).toBe('And a side dish?')
    expect(score.signature).toMatch(/^Judge\|metric:knowledge-retention@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|empty:vacuous\|version:0\.1\.0$/)
  })

  it('follows onEmpty for a one-turn conversation, without a call', async () => {
    const one = await knowledgeRetention(TURNS.slice(0, 1), judge())
    expect(one.value).toBe(1)
    expect(one.details).toMatchObject({ empty: true, total: 0, note: 'a one-turn conversation has no earlier turn to retain: vacuously retained (empty:vacuous)' })
    expect((await knowledgeRetention(TURNS.slice(0, 1), judge(), { onEmpty: 'nan' })).value).toBeNaN()
    expect(fake.requests).toHaveLength(0)
  })

  it('repeats with seeds seed … seed+repeat−1 and reports the spread', async () => {
    fake.on('/api/chat', step('reason', 'verdict'), (req) => chatReply({ reason: 'r', verdict: req.body.options?.seed === 42 ? 'retained' : 'forgotten' }))
    const score = await knowledgeRetention(TURNS.slice(0, 2), judge(), { repeat: 2 })
    expect(score.value).toBe(0.5)
    expect(score.details.consistency?.values).toEqual([1, 0])
    expect(score.signature).toContain('|repeat:2|')
  })

  it('refuses bad turns naming the turn, and unknown options', async () => {
    const j = judge()
    await expect(knowledgeRetention([], j)).rejects.toThrow('knowledgeRetention: Expected `turns` to be a non-empty array of turns')
    await expect(knowledgeRetention([TURNS[0], { user: 'x' }] as never, j)).rejects.toThrow('Expected `turns[1] (turn 2).assistant` to be a string')
    await expect(knowledgeRetention([TURNS[0], 'hi'] as never, j)).rejects.toThrow('Expected `turns[1] (turn 2)` to be a turn')
    // eslint-disable-next-line no-sparse-arrays
    await expect(knowledgeRetention([TURNS[0], , TURNS[1]] as never, j)).rejects.toThrow('`turns[1] (turn 2)`')
    await expect(knowledgeRetention(TURNS, j, { onEmpty: 'pass' } as never)).rejects.toThrow("Expected `options.onEmpty` to be 'vacuous' or 'nan'")
    await expect(knowledgeRetention(TURNS, j, { question: 'x' } as never)).rejects.toThrow(/question/)
    expect(fake.requests).toHaveLength(0)
  })
})
