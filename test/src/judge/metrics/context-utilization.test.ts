import { contextUtilization } from '../../../../src/judge/metrics/context-utilization.js'
import { chatReply, dataOf, step, useFakeJudge } from '../helpers.js'

const CONTEXTS = [
  { id: 'capital', text: 'Paris is the capital of France.' },
  { id: 'river', text: 'Paris lies on the Seine.' },
  { id: 'noise', text: 'Bananas are yellow.' },
]
const VERDICTS: Record<string, { used: boolean; relevant: boolean }> = {
  'Paris is the capital of France.': { used: true, relevant: true },
  'Paris lies on the Seine.': { used: false, relevant: true },
  'Bananas are yellow.': { used: false, relevant: false },
}

describe('contextUtilization', () => {
  const { fake, judge } = useFakeJudge()

  it('is used chunks / chunks, one call per chunk, and splits unused chunks into ignored-good and ignored-noise', async () => {
    fake.on('/api/chat', step('reason', 'relevant', 'used'), (req) => {
      const v = VERDICTS[dataOf(req.body, 'CONTEXT') as string] as { used: boolean; relevant: boolean }
      return chatReply({ reason: 'because', ...v })
    })
    const score = await contextUtilization('Paris is the capital.', CONTEXTS, judge(), { question: 'Tell me about Paris.' })
    expect(fake.requests).toHaveLength(3)
    expect(fake.requests.every((r) => dataOf(r.body, 'QUESTION') === 'Tell me about Paris.')).toBe(true)
    expect(score.value).toBeCloseTo(1 / 3, 12)
    expect(score.details.used).toEqual(['capital'])
    expect(score.details.unused).toEqual([
      { id: 'river', index: 1, relevant: true },
      { id: 'noise', index: 2, relevant: false },
    ])
    expect(score.details.ignoredRelevant).toEqual(['river'])
    expect(score.details.ignoredNoise).toEqual(['noise'])
    expect(score.signature).toMatch(/^Judge\|metric:context-utilization@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|q:yes\|version:0\.1\.0$/)
  })

  it('asks only about use without a question', async () => {
    fake.on('/api/chat', step('reason', 'used'), (req) => chatReply({ reason: 'r', used: dataOf(req.body, 'CONTEXT') !== 'Bananas are yellow.' }))
    const score = await contextUtilization('Paris is the capital, on the Seine.', CONTEXTS, judge())
    expect(score.value).toBeCloseTo(2 / 3, 12)
    expect(score.details.unused).toEqual([{ id: 'noise', index: 2 }])
    expect(score.details.ignoredRelevant).toBeUndefined()
    expect(score.signature).toContain('|q:no|')
  })

  it('is NaN with a note for no contexts, and 0 without calls for an empty answer', async () => {
    const none = await contextUtilization('x', [], judge())
    expect(none.value).toBeNaN()
    expect(none.details.note).toContain('0/0')
    const empty = await contextUtilization('', ['a', 'b'], judge())
    expect(empty.value).toBe(0)
    expect(fake.requests).toHaveLength(0)
  })
})
