import { rubricScore } from '../../../../src/judge/metrics/rubric-score.js'
import { chatReply, dataOf, labelsOf, step, useFakeJudge } from '../helpers.js'

describe('rubricScore', () => {
  const { fake, judge } = useFakeJudge()

  it('normalises the raw score to 0…1 and keeps it', async () => {
    fake.on('/api/chat', step('reason', 'score'), chatReply({ reason: 'Cites one of two sources.', score: 4 }))
    const score = await rubricScore('Paris [1].', { id: 'cites', criteria: 'Cites its sources.' }, judge())
    expect(score.value).toBe(0.75)
    expect(score.details).toMatchObject({ rubricId: 'cites', raw: 4, min: 1, max: 5, reason: 'Cites one of two sources.' })
    expect(score.signature).toMatch(/^Judge\|metric:rubric@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|rubric:cites@[0-9a-f]{8}\|scale:1-5\|version:0\.1\.0$/)
    expect(score.signature).toContain(`rubric:cites@${score.details.rubricHash}`)
  })

  it('sends the scale as schema bounds and as data, with optional question, contexts and reference', async () => {
    fake.on('/api/chat', step('reason', 'score'), chatReply({ reason: 'ok', score: 0 }))
    const score = await rubricScore('A', { criteria: 'Be right.', scale: [0, 10], levels: { 10: 'perfect', 0: 'wrong' } }, judge(), {
      question: 'Q?',
      contexts: ['c1'],
      reference: 'R',
    })
    expect(score.value).toBe(0)
    const body = fake.requests[0]!.body
    expect(body.format.properties.score).toEqual({ type: 'integer', minimum: 0, maximum: 10 })
    expect(labelsOf(body)).toEqual(['RUBRIC', 'SCALE', 'QUESTION', 'CONTEXT 1', 'REFERENCE', 'ANSWER'])
    expect(dataOf(body, 'SCALE')).toBe('Integers from 0 (worst) to 10 (best).\n0: wrong\n10: perfect')
    expect(score.signature).toContain('|rubric:custom@')
    expect(score.signature).toContain('|scale:0-10|')
  })

  it('re-asks when the score is outside the scale instead of clamping it', async () => {
    fake.on('/api/chat', step('reason', 'score'), chatReply({ reason: 'great', score: 7 }), { times: 1 })
    fake.on('/api/chat', step('reason', 'score'), chatReply({ reason: 'great', score: 5 }))
    const score = await rubricScore('A', 'Be right.', judge())
    expect(score.value).toBe(1)
    expect(fake.requests[1]!.body.messages.at(-1).content).toContain('$.score: expected ≤ 5, got 7')
  })

  it('hashes the rubric: a different criterion gives a different signature', async () => {
    fake.on('/api/chat', step('reason', 'score'), chatReply({ reason: 'ok', score: 3 }))
    const a = await rubricScore('A', 'Be right.', judge())
    const b = await rubricScore('A', 'Be brief.', judge())
    expect(a.signature).not.toBe(b.signature)
  })

  it('validates the rubric', async () => {
    const j = judge()
    await expect(rubricScore('A', { criteria: '' }, j)).rejects.toThrow('rubricScore: Expected `rubric.criteria` to be a non-empty string')
    await expect(rubricScore('A', { criteria: 'x', scale: [5, 1] }, j)).rejects.toThrow('Expected `rubric.scale` to be two integers [min, max] with min < max')
    await expect(rubricScore('A', { criteria: 'x', levels: { 9: 'great' } }, j)).rejects.toThrow(
      'Expected `rubric.levels[9]` to be a description (string) for a score within 1…5',
    )
  })
})
