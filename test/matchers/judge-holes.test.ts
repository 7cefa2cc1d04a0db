// Runs under Vitest AND Jest (globals only). Issue #27: a hole in `contexts` crashed the judge matchers
// (`TypeError … reading 'label'` in renderPrompt); it is a Matcher error naming the position, both ways.
import { functionJudge } from '../../src/judge/function-judge.js'
import { asyncFailureOf } from '../helpers/failure.js'

/** A judge that must never be asked: the input is refused before any call. */
const judge = functionJudge(
  () => {
    throw new Error('the judge was called although the input has a hole')
  },
  { id: 'never', model: 'never-1' },
)
// eslint-disable-next-line no-sparse-arrays
const holey = ['Paris is the capital of France.', , 'France uses the euro.'] as string[]

describe('a hole in contexts', () => {
  it.each([
    ['toBeGroundedIn', (to: jest.Matchers<Promise<void>>) => to.toBeGroundedIn(holey, 0.5, { judge })],
    ['toUtilizeContext', (to: jest.Matchers<Promise<void>>) => to.toUtilizeContext(holey, 0.5, { judge })],
  ] as const)('%s refuses it, with and without .not', async (_name, call) => {
    for (const to of [expect('Paris is the capital of France.'), expect('Paris is the capital of France.').not]) {
      const message = await asyncFailureOf(() => call(to as unknown as jest.Matchers<Promise<void>>))
      expect(message).toContain('Matcher error:')
      expect(message).toContain('contexts[1] is a hole')
    }
  })

  it('in an eval set case, is not judged and the set fails both ways', async () => {
    const set = [{ id: 'q1', answer: 'Paris is the capital of France.', contexts: holey }]
    for (const to of [expect(set), expect(set).not]) {
      const message = await asyncFailureOf(() => (to as unknown as jest.Matchers<Promise<void>>).toBeGroundedIn(0.5, { judge }))
      expect(message).toContain('q1')
      expect(message).not.toContain('the judge was called')
    }
  })
})
