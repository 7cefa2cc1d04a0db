/** @jest-environment ./runners/jest-environment.ts */
// Runs under Vitest AND Jest (globals only). The eval-set form of toBeSemanticallySimilarTo: case ids in
// messages and meta, and cases whose pipeline failed handled per `failedCases` like the other set matchers.
import { functionEmbedder } from '../../src/embeddings/function-embedder.js'
import type { MatcherContext, MatcherResult } from '../../matchers/context.js'
import { toBeSemanticallySimilarTo } from '../../matchers/embeddings.js'
import { asyncFailureOf } from '../helpers/failure.js'

/** Letter counts a–e: ab·abb = 3/√10 = 0.9487. */
const letters = functionEmbedder((text: string) => ['a', 'b', 'c', 'd', 'e'].map((ch) => [...text].filter((c) => c === ch).length), {
  id: 'test|model:letters',
})
const CASES = [
  { id: 'same', answer: 'ab', reference: 'ab' },
  { id: 'close', answer: 'ab', reference: 'abb' },
  { id: 'far', answer: 'ab', reference: 'cd' },
]
const FAILED = { id: 'broken', reference: 'ab', error: new Error('LLM timeout') }

function context(isNot = false): MatcherContext {
  return { isNot, promise: '', utils: { matcherHint: (name: string) => name, printReceived: String, printExpected: String } }
}

describe('.toBeSemanticallySimilarTo over an eval set', () => {
  it('names the case ids in the message and in meta.perCase', async () => {
    const message = await asyncFailureOf(() => expect(CASES).toBeSemanticallySimilarTo(0.9, { embedder: letters }))
    expect(message).toMatch(/far\s+0\.0000\s+"ab" ↔ "cd"\n\s+close\s+0\.9487/)
    const result = (await toBeSemanticallySimilarTo.call(context(), CASES, 0.9, { embedder: letters })) as MatcherResult
    expect(result.meta?.perCase).toEqual([
      { id: 'same', value: 1, pass: true },
      { id: 'close', value: expect.closeTo(0.9487, 4), pass: true },
      { id: 'far', value: 0, pass: false },
    ])
  })

  it("a failed case with 'fail' (default) fails with and without .not, naming it", async () => {
    for (const run of [
      () => expect([...CASES, FAILED]).toBeSemanticallySimilarTo(0, { embedder: letters }),
      () => expect([...CASES, FAILED]).not.toBeSemanticallySimilarTo(1, { embedder: letters }),
    ]) {
      const message = await asyncFailureOf(run)
      expect(message).toContain("1 of 4 cases failed in the pipeline (failedCases: 'fail'), so the assertion fails")
      expect(message).toContain('case broken has no answer because its pipeline failed: LLM timeout')
      expect(message).toContain('mean EmbedSim (cosine) over 3 cases = 0.6496')
      expect(message).toMatch(/signature: .*\|failed:fail\|version:/)
    }
  })

  it("'skip' leaves it out of the mean; 'zero' scores it 0", async () => {
    await expect([...CASES, FAILED]).toBeSemanticallySimilarTo(0.64, { embedder: letters, failedCases: 'skip' })
    await expect([...CASES, FAILED]).not.toBeSemanticallySimilarTo(0.5, { embedder: letters, failedCases: 'zero' })
    const message = await asyncFailureOf(() => expect([...CASES, FAILED]).toBeSemanticallySimilarTo(0.5, { embedder: letters, failedCases: 'zero' }))
    expect(message).toContain('mean EmbedSim (cosine) over 4 cases (1 failed scored 0) = 0.4872   required ≥ 0.5000')
    expect(message).toMatch(/broken\s+0\.0000\s+pipeline failed \(scored 0\)/)
    expect(message).toContain("failed cases: 1 of 4 (scored 0; failedCases: 'zero')")
  })

  it('every case failed: fails both ways, without calling the embedder', async () => {
    const refuse = functionEmbedder(
      () => {
        throw new Error('must not be called')
      },
      { id: 'refuse' },
    )
    for (const run of [
      () => expect([FAILED]).toBeSemanticallySimilarTo(0.5, { embedder: refuse, failedCases: 'skip' }),
      () => expect([FAILED]).not.toBeSemanticallySimilarTo(0.5, { embedder: refuse }),
    ]) {
      expect(await asyncFailureOf(run)).toContain('every case (1 of 1) failed in the pipeline')
    }
  })

  it('a bad failedCases or unknown option is a Matcher error, with and without .not', async () => {
    for (const not of [false, true]) {
      const e = not ? expect(CASES).not : expect(CASES)
      await expect(e.toBeSemanticallySimilarTo(0.5, { embedder: letters, failedCases: 'drop' as never })).rejects.toThrow(
        /Matcher error: options\.failedCases must be 'fail' \| 'zero' \| 'skip'/,
      )
      await expect(e.toBeSemanticallySimilarTo(0.5, { embedder: letters, failed: 'skip' } as never)).rejects.toThrow(/Matcher error: unknown option 'failed'/)
      // a case without an answer and without an error is misuse, not a failed pipeline
      const bad = not ? expect([{ id: 'x', reference: 'ab' }]).not : expect([{ id: 'x', reference: 'ab' }])
      await expect(bad.toBeSemanticallySimilarTo(0.5, { embedder: letters })).rejects.toThrow(/Matcher error: case x \(received\[0\]\): answer must be a string/)
    }
  })
})
