/**
 * Near-duplicate questions: the Jaccard overlap of their word bigram sets (lower case, words are runs
 * of letters and digits). "How many heads does the model use?" and "How many heads does the base
 * model use?" share 5 of 8 bigrams (0.625). A question of one word is compared by its word.
 *
 * @example questionOverlap('How many heads?', 'How many heads are there?') // 0.5
 */
export function questionOverlap(a: string, b: string): number {
  const x = bigrams(a)
  const y = bigrams(b)
  if (x.size === 0 && y.size === 0) return 1
  let shared = 0
  for (const g of x) if (y.has(g)) shared++
  return shared / (x.size + y.size - shared)
}

function bigrams(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
  if (words.length === 1) return new Set(words)
  const out = new Set<string>()
  for (let i = 0; i + 1 < words.length; i++) out.add(`${words[i]} ${words[i + 1]}`)
  return out
}
