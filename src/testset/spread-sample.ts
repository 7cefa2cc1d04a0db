import { mulberry32 } from '../eval-set/statistics.js'

/**
 * A seeded order of `count` positions that spreads over the whole range: the range is cut into
 * `strata` contiguous, near-equal parts (a corpus in file order keeps a document's chunks together,
 * so each part is a stretch of the corpus), each part is shuffled with the seed, and the parts are
 * read round-robin: one position from each part, then a second from each, and so on. The first
 * `strata` positions therefore come one from each part, and a replacement for a rejected item comes
 * from the next round, still spread.
 *
 * @example spreadOrder(6, 3, 1) // e.g. [1, 2, 4, 0, 3, 5]: one of 0–1, one of 2–3, one of 4–5, then the others
 */
export function spreadOrder(count: number, strata: number, seed: number): number[] {
  const parts = Math.max(1, Math.min(count, strata))
  const random = mulberry32(seed)
  const groups: number[][] = []
  for (let p = 0; p < parts; p++) {
    const from = Math.floor((p * count) / parts)
    const to = Math.floor(((p + 1) * count) / parts)
    const group = Array.from({ length: to - from }, (_, i) => from + i)
    // Fisher–Yates with the seeded generator.
    for (let i = group.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[group[i], group[j]] = [group[j] as number, group[i] as number]
    }
    groups.push(group)
  }
  const out: number[] = []
  for (let round = 0; out.length < count; round++) {
    for (const group of groups) if (round < group.length) out.push(group[round] as number)
  }
  return out
}
