import { answerRelevance } from '../../../../src/judge/metrics/answer-relevance.js'
import { chatReply, dataOf, step, useFakeJudge } from '../helpers.js'

describe('answerRelevance', () => {
  const { fake, judge } = useFakeJudge()

  it('is relevant statements / statements', async () => {
    fake.on(
      '/api/chat',
      step('statements'),
      chatReply({
        statements: [
          { statement: 'Paris is the capital.', reason: 'Answers it.', relevant: true },
          { statement: 'I like trains.', reason: 'Off topic.', relevant: false },
          { statement: 'It is on the Seine.', reason: 'Context.', relevant: true },
          { statement: 'Bye.', reason: 'Filler.', relevant: false },
        ],
      }),
    )
    const score = await answerRelevance('What is the capital of France?', 'Paris is the capital. I like trains. It is on the Seine. Bye.', judge())
    expect(score.value).toBe(0.5)
    expect(score.details).toMatchObject({ total: 4, relevant: 2, empty: false })
    expect(score.details.statements[1]).toEqual({ statement: 'I like trains.', relevant: false, reason: 'Off topic.' })
    expect(dataOf(fake.requests[0]!.body, 'QUESTION')).toBe('What is the capital of France?')
    expect(score.signature).toMatch(/^Judge\|metric:answer-relevance@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|empty:zero\|version:0\.1\.0$/)
  })

  it('is 0 with a note for an answer without statements', async () => {
    fake.on('/api/chat', step('statements'), chatReply({ statements: [] }))
    const score = await answerRelevance('Q?', '…', judge())
    expect(score.value).toBe(0)
    expect(score.details.note).toContain('no statement')
    expect((await answerRelevance('Q?', '', judge())).value).toBe(0)
    expect(fake.requests).toHaveLength(1)
  })
})
