#!/usr/bin/env node
/**
 * Embedding throughput on the generated tiny BERT (scripts/make-tiny-bert.mjs), through the real
 * Transformers.js + ONNX Runtime path, and the cost of the cache-hit path.
 *
 *   node bench/embeddings-bench.mjs                 # uses dist/src/index.js (npm run build first)
 *   RAG_MATCHERS_BENCH_LIB=/path/to/index.js node bench/embeddings-bench.mjs
 *
 * `benchEmbeddings()` returns rows `{ name, value, unit }` for bench/run.mjs. The tiny model measures
 * the library's overhead (tokenizer, batching, pooling, copying, cache), not a real model's cost:
 * all-MiniLM-L6-v2 is far slower per text. Numbers are never asserted in tests.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { TINY_BERT_VOCAB, writeTinyBert } from '../scripts/make-tiny-bert.mjs'

const WORDS = TINY_BERT_VOCAB.filter((t) => !t.startsWith('[') && !t.startsWith('##'))

/** Deterministic sentences of 5–20 vocabulary words. */
function sentences(n, seed = 1) {
  let s = seed
  const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32
  return Array.from({ length: n }, (_, i) => {
    const len = 5 + Math.floor(next() * 16)
    return `${Array.from({ length: len }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ')} ${i}`
  })
}

async function time(fn, minMs = 300) {
  // Repeat until at least minMs has passed, so short runs are not dominated by timer noise.
  let runs = 0
  const start = performance.now()
  let elapsed = 0
  do {
    await fn()
    runs += 1
    elapsed = performance.now() - start
  } while (elapsed < minMs)
  return elapsed / runs
}

/**
 * @param {{ lib?: string, texts?: number, batchSizes?: number[] }} [options]
 * @returns {Promise<Array<{ name: string, value: number, unit: string }>>}
 */
export async function benchEmbeddings(options = {}) {
  const libPath = options.lib ?? process.env.RAG_MATCHERS_BENCH_LIB ?? new URL('../dist/src/index.js', import.meta.url).href
  const lib = await import(libPath.startsWith('file:') ? libPath : pathToFileURL(libPath).href)
  const { transformersEmbedder, EmbeddingCache, semanticSimilarities, semanticSimilarity } = lib
  if (typeof transformersEmbedder !== 'function') throw new Error(`${libPath} does not export the embeddings API (transformersEmbedder)`)

  const dir = mkdtempSync(join(tmpdir(), 'rag-matchers-bench-'))
  const rows = []
  try {
    writeTinyBert(dir)
    const texts = sentences(options.texts ?? 256)
    for (const batchSize of options.batchSizes ?? [1, 8, 32]) {
      const embedder = transformersEmbedder({ model: 'tiny-bert', localModelPath: dir, allowRemoteModels: false, batchSize })
      await embedder.embed(texts.slice(0, 8)) // load + warm up
      const ms = await time(() => embedder.embed(texts))
      rows.push({ name: `embeddings tiny-bert batch ${batchSize}`, value: Math.round((texts.length / ms) * 1000), unit: 'texts/s' })
      await embedder.dispose()
    }

    // Cache-hit path: every vector cached, so this is de-duplication + lookup + cosine only.
    const embedder = transformersEmbedder({ model: 'tiny-bert', localModelPath: dir, allowRemoteModels: false })
    const cache = new EmbeddingCache()
    const pairTexts = sentences(100, 7)
    const pairs = Array.from({ length: 500 }, (_, i) => ({ candidate: pairTexts[i % 100], reference: pairTexts[(i * 37 + 11) % 100] }))
    await semanticSimilarities(pairs, embedder, { cache })
    const msBatch = await time(() => semanticSimilarities(pairs, embedder, { cache }))
    rows.push({ name: 'semanticSimilarities 500 pairs, all cached', value: Math.round((pairs.length / msBatch) * 1000), unit: 'pairs/s' })
    const msSingle = await time(async () => {
      for (const p of pairs) await semanticSimilarity(p.candidate, p.reference, embedder, { cache })
    })
    rows.push({ name: 'semanticSimilarity one pair at a time, all cached', value: Math.round((pairs.length / msSingle) * 1000), unit: 'pairs/s' })
    await embedder.dispose()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const row of await benchEmbeddings()) console.log(`${row.name.padEnd(52)} ${String(row.value).padStart(9)} ${row.unit}`)
}
