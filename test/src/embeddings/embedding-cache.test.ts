// Issue #13: the embedding cache serves a vector only for the request it answers.
import { EmbeddingCache, embedTexts } from '../../../src/embeddings/cache.js'
import type { Embedder } from '../../../src/embeddings/types.js'

function counting(id: string): Embedder & { calls: string[][] } {
  const calls: string[][] = []
  return {
    id,
    calls,
    async embed(texts: string[]) {
      calls.push(texts)
      return texts.map((t) => new Float32Array([t.length, 1]))
    },
  }
}

describe('EmbeddingCache integrity', () => {
  it('serves hits for the same embedder and text', async () => {
    const cache = new EmbeddingCache({ onWarning: () => undefined })
    const e = counting('test|model:len')
    await embedTexts(e, ['ab', 'c'], { cache })
    await embedTexts(e, ['ab', 'c'], { cache })
    expect(e.calls).toEqual([['ab', 'c']])
    expect(cache.stats).toMatchObject({ hits: 2, misses: 2 })
  })

  it('an entry whose embedder id changed since it was cached is reported and embedded again', async () => {
    const warnings: string[] = []
    const cache = new EmbeddingCache({ onWarning: (m) => warnings.push(m) })
    const e = counting('test|model:a') as Embedder & { calls: string[][]; id: string }
    await embedTexts(e, ['ab'], { cache })
    ;(e as { id: string }).id = 'test|model:b'
    await embedTexts(e, ['ab'], { cache })
    expect(e.calls).toEqual([['ab'], ['ab']])
    expect(warnings).toEqual([
      'rag-matchers embedding cache: ignoring the cached vector of "ab" for test|model:b: it was embedded by test|model:a, and the embedder\'s id is now test|model:b; it will be embedded again.',
    ])
  })

  it('a cached vector mutated to hold NaN is reported and embedded again, never served', async () => {
    const warnings: string[] = []
    const cache = new EmbeddingCache({ onWarning: (m) => warnings.push(m) })
    const e = counting('test|model:len')
    const [v] = await embedTexts(e, ['ab'], { cache })
    v![1] = Number.NaN
    const [again] = await embedTexts(e, ['ab'], { cache })
    expect(Array.from(again!)).toEqual([2, 1])
    expect(e.calls).toHaveLength(2)
    expect(warnings[0]).toContain('it now holds a non-finite value (NaN) at position 1')
  })

  it('rejects a non-function onWarning', () => {
    expect(() => new EmbeddingCache({ onWarning: 'x' as never })).toThrow('Expected `onWarning` to be a function')
  })
})
