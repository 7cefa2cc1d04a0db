import { functionEmbedder } from '../../../src/embeddings/function-embedder.js'
import { semanticSimilarity } from '../../../src/embeddings/semantic-similarity.js'

describe('functionEmbedder', () => {
  it('wraps a sync function returning number[]', async () => {
    const embedder = functionEmbedder(function lengths(text: string) {
      return [text.length, 1]
    })
    expect(embedder.id).toBe('function|name:lengths')
    const vectors = await embedder.embed(['a', 'abc'])
    expect(vectors.map((v) => Array.from(v))).toEqual([
      [1, 1],
      [3, 1],
    ])
    expect(vectors[0]).toBeInstanceOf(Float32Array)
  })

  it('wraps an async function returning Float32Array / Float64Array, keeping the input order', async () => {
    const embedder = functionEmbedder(
      async (text: string) => {
        // later texts answer sooner: the order must still follow the input
        await new Promise((resolve) => setTimeout(resolve, 10 - text.length))
        return text.length % 2 ? Float32Array.of(text.length, 0) : Float64Array.of(text.length, 0)
      },
      { id: 'my-api|model:lengths' },
    )
    expect(embedder.id).toBe('my-api|model:lengths')
    const vectors = await embedder.embed(['a', 'bb', 'ccc', 'dddd'])
    expect(vectors.map((v) => v[0])).toEqual([1, 2, 3, 4])
    const score = await semanticSimilarity('a', 'bb', embedder)
    expect(score.value).toBe(1)
    expect(score.signature).toBe('EmbedSim|model:lengths|backend:my-api|sim:cos|rescale:none|version:0.1.0')
  })

  it('runs at most `concurrency` calls at a time', async () => {
    let running = 0
    let peak = 0
    const embedder = functionEmbedder(
      async () => {
        running += 1
        peak = Math.max(peak, running)
        await new Promise((resolve) => setTimeout(resolve, 2))
        running -= 1
        return [1]
      },
      { concurrency: 3 },
    )
    await embedder.embed(Array.from({ length: 10 }, (_, i) => `t${i}`))
    expect(peak).toBe(3)
  })

  it('names an anonymous function and reports throws and bad results with the text index', async () => {
    const anonymous = functionEmbedder((text: string) => {
      if (text === 'boom') throw new Error('quota exceeded')
      return text === 'short' ? [1] : [1, 2]
    })
    expect(anonymous.id).toBe('function|name:anonymous')
    await expect(anonymous.embed(['ok', 'boom'])).rejects.toMatchObject({
      kind: 'embed-failed',
      message: 'function|name:anonymous: the embedding function threw for text 1: quota exceeded',
    })
    await expect(anonymous.embed(['ok', 'short'])).rejects.toThrow('returned 1 dimensions for text 1 but 2 for text 0')
    await expect(functionEmbedder(() => ({}) as never).embed(['x'])).rejects.toMatchObject({ kind: 'bad-response' })
  })

  it('refuses a non-function and bad options', () => {
    expect(() => functionEmbedder('x' as never)).toThrow('functionEmbedder: Expected `fn` to be a function (text) => number[] | Float32Array, got `"x"` (string)')
    expect(() => functionEmbedder(() => [1], { id: '' })).toThrow(/`options.id` to be a non-empty string/)
    expect(() => functionEmbedder(() => [1], { concurrency: 0 })).toThrow(/`options.concurrency`/)
    expect(() => functionEmbedder(() => [1], { timeoutMs: 0 })).toThrow(/`options.timeoutMs`/)
  })

  it('a function that never settles fails within timeoutMs, naming the embedder (issue #13)', async () => {
    const hanging = functionEmbedder(() => new Promise<number[]>(() => undefined), { id: 'my-api|model:e5', timeoutMs: 80 })
    const started = Date.now()
    await expect(hanging.embed(['a', 'b'])).rejects.toMatchObject({
      name: 'EmbeddingError',
      kind: 'timeout',
      embedderId: 'my-api|model:e5',
      message: expect.stringContaining('my-api|model:e5: the embedding function did not settle within 80 ms for text 0'),
    })
    expect(Date.now() - started).toBeLessThan(2_000)
    // A slow but settling function within the limit is fine.
    const slow = functionEmbedder(async (t: string) => new Promise<number[]>((resolve) => setTimeout(() => resolve([t.length, 1]), 10)), { timeoutMs: 1_000 })
    expect((await slow.embed(['ab'])).map((v) => Array.from(v))).toEqual([[2, 1]])
  })
})
