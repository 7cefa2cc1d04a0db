import { contextRecall } from '../../../../src/judge/metrics/context-recall.js'
import { chatReply, dataOf, labelsOf, step, useFakeJudge } from '../helpers.js'

describe('contextRecall', () => {
  const { fake, judge } = useFakeJudge()

  it('is attributed reference statements / statements', async () => {
    fake.on('/api/chat', step('statements'), chatReply({ statements: ['Paris is the capital of France.', 'Paris lies on the Seine.'] }))
    fake.on(
      '/api/chat',
      step('verdicts'),
      chatReply({
        verdicts: [
          { statement: 1, reason: 'Passage 2.', verdict: 'attributed', context: 2 },
          { statement: 2, reason: 'Absent.', verdict: 'not_attributed', context: 0 },
        ],
      }),
    )
    const score = await contextRecall('Paris, on the Seine, is the capital of France.', ['Lyon is big.', { id: 'p', text: 'Paris is the capital of France.' }], judge())
    expect(score.metric).toBe('contextRecall')
    expect(score.value).toBe(0.5)
    expect(score.details.statements).toEqual([
      { statement: 'Paris is the capital of France.', verdict: 'attributed', contextIndex: 1, contextId: 'p', reason: 'Passage 2.' },
      { statement: 'Paris lies on the Seine.', verdict: 'not_attributed', contextIndex: null, contextId: null, reason: 'Absent.' },
    ])
    expect(dataOf(fake.requests[0]!.body, 'REFERENCE')).toBe('Paris, on the Seine, is the capital of France.')
    expect(labelsOf(fake.requests[1]!.body)).toEqual(['STATEMENT 1', 'STATEMENT 2', 'CONTEXT 1', 'CONTEXT 2'])
    expect(score.signature).toMatch(/^Judge\|metric:context-recall@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|empty:vacuous\|version:0\.1\.0$/)
  })

  it('is 0 without contexts (one call), refuses a blank reference, and follows onEmpty for a reference without statements', async () => {
    fake.on('/api/chat', (body) => step('statements')(body) && JSON.stringify(body).includes('Hmm.'), chatReply({ statements: [] }))
    fake.on('/api/chat', step('statements'), chatReply({ statements: ['A.'] }))
    const none = await contextRecall('A.', [], judge())
    expect(none.value).toBe(0)
    expect(fake.requests).toHaveLength(1)
    // A blank reference is refused before any call (issue #27); an empty extraction follows onEmpty.
    await expect(contextRecall('', ['c'], judge())).rejects.toThrow(/contextRecall: Expected `reference` to be a non-blank string/)
    await expect(contextRecall(' \n', ['c'], judge())).rejects.toThrow(/non-blank/)
    expect(fake.requests).toHaveLength(1)
    expect((await contextRecall('Hmm.', ['c'], judge())).value).toBe(1)
    expect((await contextRecall('Hmm.', ['c'], judge(), { onEmpty: 'nan' })).value).toBeNaN()
  })
})
