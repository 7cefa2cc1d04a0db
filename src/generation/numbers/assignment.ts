/**
 * Maximum-weight bipartite matching on a dense weight matrix (Kuhn–Munkres / Hungarian method with
 * potentials, O(n²m)). Weights must be ≥ 0; a weight of 0 means "may not be paired", and such
 * pairs are dropped from the result, which is therefore a maximum-weight matching, not a perfect one.
 *
 * Written here rather than taken from a package: it is forty lines, and the numeric check needs
 * deterministic behaviour on ties (the caller breaks ties through the weights themselves).
 */
export function maxWeightMatching(weights: ReadonlyArray<ReadonlyArray<number>>): Array<[number, number]> {
  const rows = weights.length
  const cols = rows === 0 ? 0 : (weights[0] as ReadonlyArray<number>).length
  if (rows === 0 || cols === 0) return []
  // The method assigns every row, so it needs rows ≤ cols: transpose otherwise.
  if (rows > cols) {
    const transposed = Array.from({ length: cols }, (_, j) => weights.map((row) => row[j] as number))
    return maxWeightMatching(transposed).map(([j, i]) => [i, j])
  }
  const INF = Number.POSITIVE_INFINITY
  const cost = (i: number, j: number): number => -((weights[i] as ReadonlyArray<number>)[j] as number)
  // 1-based arrays as in the classic formulation; column 0 is a virtual start column.
  const u = new Float64Array(rows + 1)
  const v = new Float64Array(cols + 1)
  const p = new Int32Array(cols + 1)
  const way = new Int32Array(cols + 1)
  for (let i = 1; i <= rows; i++) {
    p[0] = i
    let j0 = 0
    const minv = new Float64Array(cols + 1).fill(INF)
    const used = new Uint8Array(cols + 1)
    do {
      used[j0] = 1
      const i0 = p[j0] as number
      let delta = INF
      let j1 = 0
      for (let j = 1; j <= cols; j++) {
        if (used[j]) continue
        const cur = cost(i0 - 1, j - 1) - (u[i0] as number) - (v[j] as number)
        if (cur < (minv[j] as number)) {
          minv[j] = cur
          way[j] = j0
        }
        if ((minv[j] as number) < delta) {
          delta = minv[j] as number
          j1 = j
        }
      }
      for (let j = 0; j <= cols; j++) {
        if (used[j]) {
          u[p[j] as number] = (u[p[j] as number] as number) + delta
          v[j] = (v[j] as number) - delta
        } else {
          minv[j] = (minv[j] as number) - delta
        }
      }
      j0 = j1
    } while (p[j0] !== 0)
    do {
      const j1 = way[j0] as number
      p[j0] = p[j1] as number
      j0 = j1
    } while (j0 !== 0)
  }
  const out: Array<[number, number]> = []
  for (let j = 1; j <= cols; j++) {
    const i = (p[j] as number) - 1
    if (i >= 0 && ((weights[i] as ReadonlyArray<number>)[j - 1] as number) > 0) out.push([i, j - 1])
  }
  return out.sort((a, b) => a[0] - b[0])
}
