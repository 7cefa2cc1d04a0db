import { pairwiseJudge } from '../../../../src/judge/metrics/pairwise.js'
import { chatReply, dataOf, step, useFakeJudge } from '../helpers.js'

describe('pairwiseJudge', () => {
  const { fake, judge } = useFakeJudge()
  const Q = 'What is the capital of France?'

  it('asks in both orders, with the answers swapped', async () => {
    fake.on('/api/chat', step('reason', 'winner'), chatReply({ reason: 'r', winner: 'tie' }))
    await pairwiseJudge(Q, 'Paris.', 'Lyon.', judge())
    const shown = fake.requests.map((r) => [dataOf(r.body, 'FIRST ANSWER'), dataOf(r.body, 'SECOND ANSWER')]).sort()
    expect(shown).toEqual([
      ['Lyon.', 'Paris.'],
      ['Paris.', 'Lyon.'],
    ])
  })

  it('declares a winner when both orders agree', async () => {
    // A consistent judge: prefers whichever answer says Paris, wherever it is shown.
    fake.on('/api/chat', step('reason', 'winner'), (req) =>
      chatReply({ reason: 'Paris is right.', winner: dataOf(req.body, 'FIRST ANSWER') === 'Paris.' ? 'first' : 'second' }),
    )
    const a = await pairwiseJudge(Q, 'Paris.', 'Lyon.', judge())
    expect(a.value).toBe(1)
    expect(a.details).toMatchObject({ winner: 'A', consistent: true })
    expect(a.details.verdicts).toEqual([
      { order: 'AB', choice: 'first', preferred: 'A', reason: 'Paris is right.' },
      { order: 'BA', choice: 'second', preferred: 'A', reason: 'Paris is right.' },
    ])
    const b = await pairwiseJudge(Q, 'Lyon.', 'Paris.', judge())
    expect(b.value).toBe(0)
    expect(b.details.winner).toBe('B')
    expect(a.signature).toMatch(/^Judge\|metric:pairwise@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|orders:both\|version:0\.1\.0$/)
  })

  it('turns a position-biased judge (always "first") into a tie', async () => {
    fake.on('/api/chat', step('reason', 'winner'), chatReply({ reason: 'The first one.', winner: 'first' }))
    const score = await pairwiseJudge(Q, 'Paris.', 'Lyon.', judge())
    expect(score.value).toBe(0.5)
    expect(score.details).toMatchObject({ winner: 'tie', consistent: false })
    expect(score.details.verdicts.map((v) => v.preferred)).toEqual(['A', 'B'])
  })

  it('treats one tie and one win as a tie, and records criteria as a hash', async () => {
    fake.on('/api/chat', step('reason', 'winner'), (req) => chatReply({ reason: 'r', winner: dataOf(req.body, 'FIRST ANSWER') === 'Paris.' ? 'first' : 'tie' }))
    const score = await pairwiseJudge(Q, 'Paris.', 'Lyon.', judge(), { criteria: 'Prefer brevity.' })
    expect(score.details.winner).toBe('tie')
    expect(dataOf(fake.requests[0]!.body, 'CRITERIA')).toBe('Prefer brevity.')
    expect(score.signature).toMatch(/\|orders:both\|criteria:[0-9a-f]{8}\|/)
  })
})
