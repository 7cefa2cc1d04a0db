import type { NormalizedChunk } from './checks.js'

/**
 * The chunk a multi-chunk question pairs with chunk `at`: the available one sharing the most content
 * words with it (Jaccard over words of four letters or more), ties to the nearest in corpus order;
 * with no shared word, the nearest available chunk (neighbours in a file are usually on one subject).
 */
export function partnerFor(at: number, chunks: readonly NormalizedChunk[], available: (index: number) => boolean): number | undefined {
  const mine = contentWords((chunks[at] as NormalizedChunk).text)
  let best: number | undefined
  let bestScore = -1
  chunks.forEach((chunk, i) => {
    if (i === at || !available(i)) return
    const theirs = contentWords(chunk.text)
    let shared = 0
    for (const w of theirs) if (mine.has(w)) shared++
    const union = mine.size + theirs.size - shared
    const score = union === 0 ? 0 : shared / union
    if (score > bestScore || (score === bestScore && best !== undefined && Math.abs(i - at) < Math.abs(best - at))) {
      best = i
      bestScore = score
    }
  })
  return best
}

function contentWords(text: string): Set<string> {
  return new Set(text.match(/[\p{L}\p{N}]{4,}/gu) ?? [])
}
