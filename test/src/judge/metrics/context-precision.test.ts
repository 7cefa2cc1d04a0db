import { contextPrecision } from '../../../../src/judge/metrics/context-precision.js'
import { chatReply, dataOf, step, useFakeJudge } from '../helpers.js'

describe('contextPrecision', () => {
  const { fake, judge } = useFakeJudge()
  beforeEach(() => {
    // A chunk is relevant when its text starts with "yes".
    fake.on('/api/chat', step('reason', 'relevant'), (req) => chatReply({ reason: 'r', relevant: (dataOf(req.body, 'CONTEXT') ?? '').startsWith('yes') }))
  })
  const run = (chunks: string[]) => contextPrecision('Capital of France?', chunks, 'Paris', judge())

  it.each([
    { verdicts: 'yes no yes', expected: (1 / 1 + 2 / 3) / 2 },
    { verdicts: 'no yes', expected: 1 / 2 },
    { verdicts: 'yes no', expected: 1 },
    { verdicts: 'no no yes yes', expected: (1 / 3 + 2 / 4) / 2 },
    { verdicts: 'yes yes yes', expected: 1 },
  ])('is average precision over per-chunk verdicts ($verdicts → $expected)', async ({ verdicts, expected }) => {
    const chunks = verdicts.split(' ').map((v, i) => `${v} chunk ${i}`)
    const score = await run(chunks)
    expect(score.value).toBeCloseTo(expected, 12)
    expect(fake.requests).toHaveLength(chunks.length)
    expect(score.details.relevant).toBe(verdicts.split(' ').filter((v) => v === 'yes').length)
  })

  it('is rank-aware: the same chunks score higher with the relevant one first', async () => {
    expect((await run(['yes a', 'no b'])).value).toBeGreaterThan((await run(['no b', 'yes a'])).value)
  })

  it('lists per-rank verdicts and precision, and shows question and reference to the judge', async () => {
    const score = await run(['no a', 'yes b'])
    expect(score.details.chunks).toEqual([
      { rank: 1, index: 0, id: '0', relevant: false, reason: 'r', precisionAtRank: 0 },
      { rank: 2, index: 1, id: '1', relevant: true, reason: 'r', precisionAtRank: 0.5 },
    ])
    expect(dataOf(fake.requests[0]!.body, 'QUESTION')).toBe('Capital of France?')
    expect(dataOf(fake.requests[0]!.body, 'REFERENCE')).toBe('Paris')
    expect(score.signature).toMatch(/^Judge\|metric:context-precision@[0-9a-f]{8}\|model:llama3\.1:8b\|temp:0\|seed:42\|agg:ap\|version:0\.1\.0$/)
  })

  it('is 0 with a note when nothing relevant (or nothing at all) was retrieved', async () => {
    const none = await run(['no a', 'no b'])
    expect(none.value).toBe(0)
    expect(none.details.note).toContain('no retrieved chunk is relevant')
    const empty = await run([])
    expect(empty.value).toBe(0)
    expect(empty.details.note).toContain('no contexts')
  })
})
