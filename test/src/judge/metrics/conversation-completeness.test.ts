import { conversationCompleteness } from '../../../../src/judge/metrics/conversation-completeness.js'
import { chatReply, dataOf, labelsOf, step, useFakeJudge } from '../helpers.js'

const TURNS = [
  { user: 'What is your refund window?', assistant: 'Refunds are accepted within 30 days.' },
  { user: 'How do I ship a return?', assistant: 'Print the label from your account page.' },
]

describe('conversationCompleteness', () => {
  const { fake, judge } = useFakeJudge()

  it('is addressed requests / requests: requests from the user messages, verdicts against the whole conversation', async () => {
    fake.on('/api/chat', step('requests'), chatReply({ requests: ['the refund window', 'how to ship a return', 'who pays postage'] }))
    fake.on(
      '/api/chat',
      step('verdicts'),
      chatReply({
        verdicts: [
          { reason: 'Turn 1 gives it.', request: 1, verdict: 'addressed' },
          { reason: 'Nobody says.', request: 3, verdict: 'unaddressed' },
          { reason: 'Turn 2 explains it.', request: 2, verdict: 'addressed' },
        ],
      }),
    )
    const score = await conversationCompleteness(TURNS, judge())
    expect(score.value).toBeCloseTo(2 / 3, 12)
    expect(score.details).toMatchObject({ total: 3, addressed: 2, unaddressed: 1, empty: false })
    expect(score.details.requests[2]).toEqual({ request: 'who pays postage', verdict: 'unaddressed', reason: 'Nobody says.' })
    expect(labelsOf(fake.requests[0]?.body)).toEqual(['USER 1', 'USER 2'])
    expect(labelsOf(fake.requests[1]?.body)).toEqual(['REQUEST 1', 'REQUEST 2', 'REQUEST 3', 'TURN 1 USER', 'TURN 1 ASSISTANT', 'TURN 2 USER', 'TURN 2 ASSISTANT'])
    expect(dataOf(fake.requests[1]?.body, 'TURN 2 ASSISTANT')).toBe('Print the label from your account page.')
    expect(score.signature).toMatch(/^Judge\|metric:conversation-completeness@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|empty:vacuous\|version:0\.1\.0$/)
  })

  it('follows onEmpty when the user asked for nothing', async () => {
    fake.on('/api/chat', step('requests'), chatReply({ requests: [] }))
    expect((await conversationCompleteness([{ user: 'Thanks!', assistant: 'Welcome.' }], judge())).value).toBe(1)
    expect((await conversationCompleteness([{ user: 'Thanks!', assistant: 'Welcome.' }], judge(), { onEmpty: 'nan' })).value).toBeNaN()
  })

  it('retries a reply with a missing verdict, then fails naming the problem', async () => {
    fake.on('/api/chat', step('requests'), chatReply({ requests: ['a', 'b'] }))
    fake.on('/api/chat', step('verdicts'), chatReply({ verdicts: [{ reason: 'r', request: 1, verdict: 'addressed' }] }))
    await expect(conversationCompleteness(TURNS, judge({ retries: 1 }))).rejects.toThrow(/expected exactly 2 verdict\(s\), one per request, got 1/)
  })

  it('refuses bad turns naming the turn', async () => {
    const j = judge()
    await expect(conversationCompleteness('hi' as never, j)).rejects.toThrow('conversationCompleteness: Expected `turns` to be a non-empty array of turns')
    await expect(conversationCompleteness([{ user: 3, assistant: 'x' }] as never, j)).rejects.toThrow('Expected `turns[0] (turn 1).user` to be a string')
    expect(fake.requests).toHaveLength(0)
  })
})
