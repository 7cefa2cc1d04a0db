import { completeness } from '../../../../src/judge/metrics/completeness.js'
import { chatReply, dataOf, labelsOf, step, useFakeJudge } from '../helpers.js'

describe('completeness', () => {
  const { fake, judge } = useFakeJudge()

  it('is covered key points / key points of a reference answer', async () => {
    fake.on('/api/chat', step('points'), chatReply({ points: ['Paris is the capital of France', 'Paris lies on the Seine', 'Paris has 2.1 million people'] }))
    fake.on(
      '/api/chat',
      step('verdicts'),
      chatReply({
        verdicts: [
          { point: 1, reason: 'Stated.', verdict: 'covered' },
          { point: 2, reason: 'Not mentioned.', verdict: 'missing' },
          { point: 3, reason: 'Stated.', verdict: 'covered' },
        ],
      }),
    )
    const score = await completeness('Paris, 2.1 million people, is the capital.', { reference: 'Paris, on the Seine, …' }, judge())
    expect(score.value).toBeCloseTo(2 / 3, 12)
    expect(score.details).toMatchObject({ source: 'reference', total: 3, covered: 2, missing: 1, empty: false })
    expect(score.details.points[1]).toEqual({ point: 'Paris lies on the Seine', verdict: 'missing', reason: 'Not mentioned.' })
    expect(dataOf(fake.requests[0]!.body, 'SOURCE')).toBe('Paris, on the Seine, …')
    expect(labelsOf(fake.requests[1]!.body)).toEqual(['KEY POINT 1', 'KEY POINT 2', 'KEY POINT 3', 'ANSWER'])
    expect(score.signature).toMatch(/^Judge\|metric:completeness@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|source:reference\|q:no\|empty:vacuous\|version:0\.1\.0$/)
  })

  it('takes key points from the contexts, focused on a question when given', async () => {
    fake.on('/api/chat', step('points'), chatReply({ points: ['A'] }))
    fake.on('/api/chat', step('verdicts'), chatReply({ verdicts: [{ point: 1, reason: 'r', verdict: 'missing' }] }))
    const score = await completeness('x', { contexts: ['c1', { id: 'k', text: 'c2' }] }, judge(), { question: 'What?' })
    expect(score.value).toBe(0)
    expect(labelsOf(fake.requests[0]!.body)).toEqual(['QUESTION', 'SOURCE 1', 'SOURCE 2'])
    expect(score.signature).toContain('|source:contexts|q:yes|')
  })

  it('follows onEmpty when the source has no key point', async () => {
    fake.on('/api/chat', step('points'), chatReply({ points: [] }))
    expect((await completeness('x', { reference: 'Hello.' }, judge())).value).toBe(1)
    expect((await completeness('x', { reference: 'Hello.' }, judge(), { onEmpty: 'nan' })).value).toBeNaN()
  })

  it('needs exactly one source, and a non-empty context list', async () => {
    const j = judge()
    await expect(completeness('x', { contexts: [] }, j)).rejects.toThrow('completeness: Expected `source.contexts` to be a non-empty array of contexts')
    await expect(completeness('x', { contexts: ['a'], reference: 'b' } as never, j)).rejects.toThrow('Expected `source` to be { contexts } or { reference } (exactly one)')
    await expect(completeness('x', 'ref' as never, j)).rejects.toThrow('Expected `source` to be { contexts } or { reference }')
  })
})
