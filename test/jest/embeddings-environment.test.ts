/** @jest-environment ./runners/jest-environment.ts */
// The embedding core under Jest's VM context, with the environment that shares typed-array constructors
// (without it ONNX Runtime rejects its own output: "A float32 tensor's data must be type of function
// Float32Array()"). Vitest runs this file too (in Node's own realm, where it holds trivially).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runInThisContext } from 'node:vm'
import { semanticSimilarity } from '../../src/embeddings/semantic-similarity.js'
import { transformersEmbedder } from '../../src/embeddings/transformers-embedder.js'
import { SHARED_TYPED_ARRAY_GLOBALS } from '../../runners/jest-environment.js'

const root = mkdtempSync(join(tmpdir(), 'rag-matchers-jest-env-'))
execFileSync(process.execPath, [join(process.cwd(), 'scripts', 'make-tiny-bert.mjs'), root])
const embedder = transformersEmbedder({ model: 'tiny-bert', localModelPath: root, allowRemoteModels: false })

afterAll(async () => {
  await embedder.dispose()
  rmSync(root, { recursive: true, force: true })
})

describe('matchers/jest-environment', () => {
  it('gives the test context the outer realm typed-array constructors', () => {
    // runInThisContext evaluates in Node's main context, outside Jest's sandbox
    for (const name of SHARED_TYPED_ARRAY_GLOBALS) {
      const outer = runInThisContext(`typeof ${name} === 'function' ? ${name} : undefined`) as unknown
      if (outer !== undefined) expect((globalThis as Record<string, unknown>)[name]).toBe(outer)
    }
    expect(runInThisContext('new Float32Array(2)')).toBeInstanceOf(Float32Array)
  })

  it('lets Transformers.js + ONNX Runtime embed: identical texts 1, padding ignored, texts differ', async () => {
    const [alone] = await embedder.embed(['dog'])
    const [inBatch] = await embedder.embed(['dog', 'the quick brown fox jumps over the lazy dog in paris'])
    expect(alone).toBeInstanceOf(Float32Array)
    expect(alone).toHaveLength(32)
    for (let i = 0; i < 32; i++) expect(Math.abs((alone as Float32Array)[i]! - (inBatch as Float32Array)[i]!)).toBeLessThan(1e-6)
    expect((await semanticSimilarity('the cat sat', 'the cat sat', embedder)).value).toBe(1)
    expect((await semanticSimilarity('the cat sat', 'berlin germany', embedder)).value).toBeLessThan(0.95)
  })
})
