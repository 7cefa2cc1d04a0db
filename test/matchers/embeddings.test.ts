/** @jest-environment ./runners/jest-environment.ts */
// Runs under Vitest AND Jest (globals only). The docblock gives Jest the environment that shares
// typed-array constructors with ONNX Runtime; Vitest ignores it (it only reads bare environment names).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { functionEmbedder } from '../../src/embeddings/function-embedder.js'
import { transformersEmbedder } from '../../src/embeddings/transformers-embedder.js'
import type { Embedder } from '../../src/embeddings/types.js'
import { configure, resetConfig } from '../../matchers/config.js'
import { resetEmbeddingMatcherState } from '../../matchers/embeddings.js'
import { asyncFailureOf } from '../helpers/failure.js'

/** Letter counts a–e: cosines are easy to check by hand (ab·abb = 3/√10 = 0.9487). */
const letters = functionEmbedder((text: string) => ['a', 'b', 'c', 'd', 'e'].map((ch) => [...text].filter((c) => c === ch).length), {
  id: 'test|model:letters',
})

const root = mkdtempSync(join(tmpdir(), 'rag-matchers-embed-matchers-'))
/** The tiny BERT of scripts/make-tiny-bert.mjs, written by a child process (Jest cannot import .mjs). */
function writeTinyBert(dir: string, name = 'tiny-bert'): void {
  execFileSync(process.execPath, [join(process.cwd(), 'scripts', 'make-tiny-bert.mjs'), dir, name])
}
writeTinyBert(join(root, 'models'))

afterEach(() => {
  resetConfig()
})
afterAll(() => {
  resetEmbeddingMatcherState()
  rmSync(root, { recursive: true, force: true })
})

describe('.toBeSemanticallySimilarTo (answer, reference)', () => {
  it('passes when the cosine ≥ min, inclusive', async () => {
    await expect('ab').toBeSemanticallySimilarTo('abb', 0.9, { embedder: letters })
    await expect('ab').toBeSemanticallySimilarTo('ab', 1, { embedder: letters })
  })

  it('fails with the cosine, the threshold, the signature and both texts', async () => {
    const message = await asyncFailureOf(() => expect('ab').toBeSemanticallySimilarTo('abb', 0.99, { embedder: letters }))
    expect(message).toContain('expect(received).toBeSemanticallySimilarTo(reference, min)')
    expect(message).toContain('EmbedSim (cosine) = 0.9487   required ≥ 0.9900   (short by 0.0413)')
    expect(message).toContain('signature: EmbedSim|model:letters|backend:test|sim:cos|rescale:none|version:')
    expect(message).toContain('received:   "ab"')
    expect(message).toContain('reference:  "abb"')
    expect(message).toMatchSnapshot()
  })

  it('.not passes below min and fails at or above it', async () => {
    await expect('ab').not.toBeSemanticallySimilarTo('cd', 0.5, { embedder: letters })
    const message = await asyncFailureOf(() => expect('ab').not.toBeSemanticallySimilarTo('abb', 0.9, { embedder: letters }))
    expect(message).toContain('expect(received).not.toBeSemanticallySimilarTo(reference, min)')
    expect(message).toContain('EmbedSim (cosine) = 0.9487   required < 0.9000   (at or above by 0.0487)')
  })

  it('uses the embedder set with configure({ embedder }) when none is passed', async () => {
    const calls: string[] = []
    configure({
      embedder: functionEmbedder(
        (text: string) => {
          calls.push(text)
          return [text.length, 1]
        },
        { id: 'configured|model:length' },
      ),
    })
    await expect('abc').toBeSemanticallySimilarTo('xyz', 1)
    expect(calls.sort()).toEqual(['abc', 'xyz'])
    const message = await asyncFailureOf(() => expect('a').toBeSemanticallySimilarTo('abcdefgh', 0.99))
    expect(message).toContain('signature: EmbedSim|model:length|backend:configured|')
  })

  it('fails — with or without .not — when the embedder cannot produce vectors', async () => {
    const broken: Embedder = { id: 'broken|model:x', embed: () => Promise.reject(new Error('GPU on fire')) }
    const message = await asyncFailureOf(() => expect('a').toBeSemanticallySimilarTo('b', 0.5, { embedder: broken }))
    expect(message).toContain('EmbedSim could not be computed, so the assertion fails.')
    expect(message).toContain('broken|model:x: embed() threw: GPU on fire')
    expect(message).not.toMatch(/\n\s+at /) // a clear message, not a stack
    const notMessage = await asyncFailureOf(() => expect('a').not.toBeSemanticallySimilarTo('b', 0.5, { embedder: broken }))
    expect(notMessage).toContain('EmbedSim could not be computed')
    // a zero vector has no direction: undefined cosine fails both ways too
    await asyncFailureOf(() => expect('xyz').toBeSemanticallySimilarTo('ab', -1, { embedder: letters }))
    const zero = await asyncFailureOf(() => expect('xyz').not.toBeSemanticallySimilarTo('ab', 1, { embedder: letters }))
    expect(zero).toContain('the candidate vector is all zeros')
  })

  it('throws a Matcher error on misuse, even with .not', async () => {
    await expect(expect(42).toBeSemanticallySimilarTo('a', 0.5, { embedder: letters })).rejects.toThrow(/Matcher error: received value must be a string/)
    await expect(expect('a').toBeSemanticallySimilarTo('b', 1.5, { embedder: letters })).rejects.toThrow(/Matcher error: min must be a number from -1 to 1/)
    await expect(expect('a').not.toBeSemanticallySimilarTo(0.5 as never, 0.5, { embedder: letters })).rejects.toThrow(/Matcher error: reference must be a string/)
    await expect(expect('a').toBeSemanticallySimilarTo('b', 0.5, { embedder: {} as never })).rejects.toThrow(/Matcher error: options.embedder must be an embedder/)
  })
})

describe('.toBeSemanticallySimilarTo (eval set)', () => {
  const cases = [
    { id: 'same', answer: 'ab', reference: 'ab' },
    { id: 'close', answer: 'ab', reference: 'abb' },
    { id: 'far', answer: 'ab', reference: 'cd' },
  ]

  it('asserts the mean over the cases', async () => {
    // (1 + 0.9487 + 0) / 3 = 0.6496
    await expect(cases).toBeSemanticallySimilarTo(0.64, { embedder: letters })
    await expect({ cases }).not.toBeSemanticallySimilarTo(0.65, { embedder: letters })
  })

  it('lists the least similar cases first', async () => {
    const message = await asyncFailureOf(() => expect(cases).toBeSemanticallySimilarTo(0.9, { embedder: letters }))
    expect(message).toContain('expect(received).toBeSemanticallySimilarTo(min)')
    expect(message).toContain('mean EmbedSim (cosine) over 3 cases = 0.6496   required ≥ 0.9000   (short by 0.2504)')
    expect(message).toContain('cases below 0.9000: 1 of 3 (least similar first)')
    expect(message).toMatch(/far\s+0\.0000\s+"ab" ↔ "cd"\n\s+close\s+0\.9487/)
    expect(message).toMatchSnapshot()
  })

  it('refuses a set with a bad case or several references, and a reference argument', async () => {
    await expect(expect([{ answer: 'a' }]).toBeSemanticallySimilarTo(0.5, { embedder: letters })).rejects.toThrow(/Matcher error/)
    await expect(expect([{ answer: 'a', references: ['b', 'c'] }]).toBeSemanticallySimilarTo(0.5, { embedder: letters })).rejects.toThrow(
      /case #1 has 2 references; semantic similarity compares each answer with exactly one reference/,
    )
    await expect(expect(cases).toBeSemanticallySimilarTo('ab' as never, { embedder: letters })).rejects.toThrow(/Matcher error: with an array of cases/)
  })
})

describe('.toBeSemanticallySimilarTo with Transformers.js (tiny BERT, real loading path)', () => {
  it('embeds through ONNX Runtime in this runner', async () => {
    const embedder = transformersEmbedder({ model: 'tiny-bert', localModelPath: join(root, 'models'), allowRemoteModels: false })
    await expect('The cat sat on the mat.').toBeSemanticallySimilarTo('the cat sat on the mat .', 1, { embedder })
    await expect('the cat sat on the mat').not.toBeSemanticallySimilarTo('berlin is the capital of germany', 0.95, { embedder })
    await embedder.dispose()
  })

  it('falls back to transformersEmbedder() (the default model) when no embedder is given', async () => {
    const { env } = (await import('@huggingface/transformers')) as unknown as { env: { localModelPath: string; allowRemoteModels: boolean } }
    const saved = { localModelPath: env.localModelPath, allowRemoteModels: env.allowRemoteModels }
    try {
      env.allowRemoteModels = false // never reach for the hub in tests
      env.localModelPath = join(root, 'empty')
      resetEmbeddingMatcherState()
      const message = await asyncFailureOf(() => expect('a cat').toBeSemanticallySimilarTo('a cat', 0.5))
      expect(message).toContain('EmbedSim could not be computed, so the assertion fails.')
      expect(message).toContain('could not load model "Xenova/all-MiniLM-L6-v2"')
      expect(message).toContain(join(root, 'empty', 'Xenova/all-MiniLM-L6-v2'))
      expect(message).toContain('Pass { embedder } or call configure({ embedder })')

      // the same default embedder retries, and works once the model is there (a stand-in with the default name)
      writeTinyBert(join(root, 'default'), 'Xenova/all-MiniLM-L6-v2')
      env.localModelPath = join(root, 'default')
      await expect('a cat').toBeSemanticallySimilarTo('a cat', 1)
      const message2 = await asyncFailureOf(() => expect('a cat').toBeSemanticallySimilarTo('the river', 0.99))
      expect(message2).toContain('signature: EmbedSim|model:Xenova/all-MiniLM-L6-v2|pool:mean|norm:yes|dtype:fp32|backend:transformers.js|')
    } finally {
      Object.assign(env, saved)
      resetEmbeddingMatcherState()
    }
  })
})
