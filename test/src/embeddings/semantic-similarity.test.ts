import { EmbeddingCache, embedTexts } from '../../../src/embeddings/cache.js'
import { EmbeddingError } from '../../../src/embeddings/errors.js'
import { functionEmbedder } from '../../../src/embeddings/function-embedder.js'
import { embedSimSignature, meanSemanticSimilarity, semanticSimilarities, semanticSimilarity } from '../../../src/embeddings/semantic-similarity.js'
import type { Embedder } from '../../../src/embeddings/types.js'
import { MetricInputError } from '../../../src/errors.js'
import { parseSignature } from '../../../src/signature.js'

/** Letter counts a–e: texts sharing letters point the same way; exact cosines are easy to work out by hand. */
function letters(text: string): number[] {
  return ['a', 'b', 'c', 'd', 'e'].map((ch) => [...text].filter((c) => c === ch).length)
}

/** An embedder that records every batch it is asked for. */
function countingEmbedder(fn: (text: string) => number[] = letters, id = 'test|model:letters'): Embedder & { batches: string[][] } {
  const batches: string[][] = []
  return {
    id,
    batches,
    async embed(texts) {
      batches.push([...texts])
      await new Promise((resolve) => setTimeout(resolve, 1))
      return texts.map((t) => Float32Array.from(fn(t)))
    },
  }
}

describe('semanticSimilarity', () => {
  it('is the cosine of the two embeddings, with dims, norms and the embedder in details', async () => {
    const embedder = countingEmbedder()
    const score = await semanticSimilarity('ab', 'abb', embedder)
    // (1,1,0,0,0)·(1,2,0,0,0) = 3; norms √2 and √5
    expect(score.metric).toBe('EmbedSim')
    expect(score.value).toBeCloseTo(3 / Math.sqrt(10), 15)
    expect(score.details).toEqual({ dims: 5, norms: { candidate: Math.SQRT2, reference: Math.sqrt(5) }, embedderId: 'test|model:letters' })
    expect(embedder.batches).toEqual([['ab', 'abb']])
  })

  it('gives exactly 1 for the same text (embedded once) and NaN with a reason for a zero vector', async () => {
    const embedder = countingEmbedder()
    expect((await semanticSimilarity('abc', 'abc', embedder)).value).toBe(1)
    expect(embedder.batches).toEqual([['abc']])
    const zero = await semanticSimilarity('xyz', 'abc', embedder)
    expect(zero.value).toBeNaN()
    expect(zero.details.reason).toBe('cosine is undefined: the candidate vector is all zeros')
  })

  it('records the embedder settings in the signature, version last', async () => {
    const id = 'transformers.js|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32'
    expect(embedSimSignature(id)).toBe('EmbedSim|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32|backend:transformers.js|sim:cos|rescale:none|version:0.1.0')
    // an id cannot override the signature's own keys, and odd characters stay parseable
    const odd = embedSimSignature('my api|model:a%b|version:9|sim:dot')
    expect(parseSignature(odd).entries.get('model')).toBe('a%b')
    expect(parseSignature(odd).entries.get('sim')).toBe('cos')
    expect(parseSignature(odd).entries.get('version')).toBe('0.1.0')
    expect(embedSimSignature('anything')).toBe('EmbedSim|backend:anything|sim:cos|rescale:none|version:0.1.0')
  })

  it('refuses bad arguments with the house grammar', async () => {
    const embedder = countingEmbedder()
    await expect(semanticSimilarity(42 as never, 'x', embedder)).rejects.toThrow('semanticSimilarity: Expected `candidate` to be a string, got `42` (number)')
    await expect(semanticSimilarity('x', undefined as never, embedder)).rejects.toThrow(MetricInputError)
    await expect(semanticSimilarity('x', 'y', {} as never)).rejects.toThrow(/Expected `embedder` to be an embedder/)
  })
})

describe('semanticSimilarities and meanSemanticSimilarity', () => {
  const pairs = [
    { candidate: 'ab', reference: 'ab' },
    { candidate: 'ab', reference: 'cd' },
    { candidate: 'abc', reference: 'ab' },
    { candidate: 'cd', reference: 'ab' },
  ]

  it('embeds each distinct text once, in batches, and scores every pair', async () => {
    const embedder = countingEmbedder()
    const scores = await semanticSimilarities(pairs, embedder, { batchSize: 2 })
    expect(scores.map((s) => s.value)).toEqual([1, 0, 2 / Math.sqrt(6), 0])
    expect(embedder.batches).toEqual([['ab', 'cd'], ['abc']])
  })

  it('averages over the set and lists the least similar pairs first (ties by index)', async () => {
    const set = await meanSemanticSimilarity(pairs, countingEmbedder())
    expect(set.value).toBeCloseTo((1 + 0 + 2 / Math.sqrt(6) + 0) / 4, 15)
    expect(set.details.n).toBe(4)
    expect(set.details.lowest).toEqual([1, 3, 2, 0])
    expect(set.details.pairs[2]?.value).toBeCloseTo(2 / Math.sqrt(6), 15)
    expect(set.signature).toBe(embedSimSignature('test|model:letters'))
  })

  it('is NaN with a reason when a pair has a zero vector, and refuses an empty set', async () => {
    const set = await meanSemanticSimilarity([...pairs, { candidate: 'zzz', reference: 'a' }], countingEmbedder())
    expect(set.value).toBeNaN()
    expect(set.details.reason).toBe('the mean is undefined: pair(s) 4 have a zero vector')
    expect(set.details.lowest[0]).toBe(4)
    await expect(meanSemanticSimilarity([], countingEmbedder())).rejects.toThrow('meanSemanticSimilarity: Expected `pairs` to be a non-empty array of pairs, got `[]` (array)')
    await expect(semanticSimilarities([{ candidate: 'a' }] as never, countingEmbedder())).rejects.toThrow(/Expected `pairs\[0\]`/)
  })
})

describe('EmbeddingCache', () => {
  it('500 comparisons over 20 distinct texts embed each text once', async () => {
    const embedder = countingEmbedder()
    const cache = new EmbeddingCache()
    const texts = Array.from({ length: 20 }, (_, i) => 'abcde'.slice(0, (i % 5) + 1) + 'e'.repeat(i))
    const comparisons = Array.from({ length: 500 }, (_, i) => [texts[i % 20] as string, texts[(i * 7) % 20] as string] as const)
    // one at a time AND concurrently: both must embed each text once
    for (const [c, r] of comparisons.slice(0, 250)) await semanticSimilarity(c, r, embedder, { cache })
    await Promise.all(comparisons.slice(250).map(([c, r]) => semanticSimilarity(c, r, embedder, { cache })))
    expect(embedder.batches.flat().sort()).toEqual([...texts].sort())
    expect(cache.size).toBe(20)
    expect(cache.stats.misses).toBe(20)
  })

  it('shares an in-flight embedding between concurrent calls', async () => {
    const embedder = countingEmbedder()
    const cache = new EmbeddingCache()
    const [a, b] = await Promise.all([embedTexts(embedder, ['ab', 'cd'], { cache }), embedTexts(embedder, ['cd', 'ab'], { cache })])
    expect(embedder.batches).toEqual([['ab', 'cd']])
    expect(a?.[0]).toBe(b?.[1])
  })

  it('evicts the least recently used vector beyond maxEntries', async () => {
    const embedder = countingEmbedder()
    const cache = new EmbeddingCache({ maxEntries: 2 })
    await embedTexts(embedder, ['a'], { cache })
    await embedTexts(embedder, ['b'], { cache })
    await embedTexts(embedder, ['a'], { cache }) // 'a' is now the most recent
    await embedTexts(embedder, ['c'], { cache }) // evicts 'b'
    expect(cache.size).toBe(2)
    expect(cache.stats.evictions).toBe(1)
    await embedTexts(embedder, ['a', 'c'], { cache })
    await embedTexts(embedder, ['b'], { cache })
    expect(embedder.batches).toEqual([['a'], ['b'], ['c'], ['b']])
  })

  it('keeps embedders apart even when they share an id', async () => {
    const cache = new EmbeddingCache()
    const one = countingEmbedder(() => [1, 0], 'same')
    const two = countingEmbedder(() => [0, 1], 'same')
    const [v1] = await embedTexts(one, ['x'], { cache })
    const [v2] = await embedTexts(two, ['x'], { cache })
    expect(Array.from(v1 as Float32Array)).toEqual([1, 0])
    expect(Array.from(v2 as Float32Array)).toEqual([0, 1])
  })

  it('does not cache a failure: the next call embeds again', async () => {
    let fail = true
    const embedder = functionEmbedder((text) => {
      if (fail) throw new Error('backend down')
      return letters(text)
    })
    const cache = new EmbeddingCache()
    await expect(embedTexts(embedder, ['ab'], { cache })).rejects.toThrow('backend down')
    fail = false
    await expect(embedTexts(embedder, ['ab'], { cache })).resolves.toHaveLength(1)
    expect(cache.size).toBe(1)
  })

  it('refuses a bad maxEntries', () => {
    expect(() => new EmbeddingCache({ maxEntries: 0 })).toThrow('EmbeddingCache: Expected `maxEntries` to be a positive integer, got `0` (number)')
  })
})

describe('embedTexts checks what embedders return', () => {
  const returning = (value: unknown): Embedder => ({ id: 'bad|model:x', embed: async () => value as Float32Array[] })

  it('one vector per text, non-empty, finite, same dimension — or a bad-response EmbeddingError', async () => {
    await expect(embedTexts(returning([[1]]), ['a', 'b'])).rejects.toThrow('bad|model:x: expected 2 vector(s), one per text, got 1 vectors.')
    await expect(embedTexts(returning('nope'), ['a'])).rejects.toMatchObject({ kind: 'bad-response' })
    await expect(embedTexts(returning([[]]), ['a'])).rejects.toThrow(/vector 0 is not a non-empty array of numbers/)
    await expect(embedTexts(returning([[1, Number.NaN]]), ['a'])).rejects.toThrow(/non-finite value \(NaN\) at position 1/)
    await expect(embedTexts(returning([[1, 1e39]]), ['a'])).rejects.toThrow(/non-finite value \(Infinity\)/) // overflows float32
    await expect(embedTexts(returning([[1, '2']]), ['a'])).rejects.toThrow(/holds a string at position 1/)
    await expect(embedTexts(returning([[1, 2], [1]]), ['a', 'b'])).rejects.toThrow(/different dimensions \(2 for text 0, 1 for text 1\)/)
  })

  it('accepts number[] rows and copies them into Float32Arrays', async () => {
    const [v] = await embedTexts(returning([[0.5, 0.25]]), ['a'])
    expect(v).toBeInstanceOf(Float32Array)
    expect(Array.from(v as Float32Array)).toEqual([0.5, 0.25])
  })

  it('wraps an unexpected throw as embed-failed, keeping the cause', async () => {
    const cause = new Error('socket hang up')
    const error = await embedTexts({ id: 'x', embed: () => Promise.reject(cause) }, ['a']).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(EmbeddingError)
    expect(error).toMatchObject({ kind: 'embed-failed', embedderId: 'x', cause })
  })

  it('refuses non-string texts and a bad batch size', async () => {
    await expect(embedTexts(countingEmbedder(), ['a', 3 as never])).rejects.toThrow('embedTexts: Expected `texts[1]` to be a string, got `3` (number)')
    await expect(embedTexts(countingEmbedder(), ['a'], { batchSize: 1.5 })).rejects.toThrow(/`batchSize` to be a positive integer/)
  })
})
