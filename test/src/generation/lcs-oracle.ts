// The quadratic full-table LCS the library used before its bit-parallel kernels: rouge-score's
// `_lcs_table` + `_backtrack_norec`, kept in plain arrays so that the tests share no code with what
// they check.

function oracleTable(ref: readonly number[], can: readonly number[]): number[][] {
  const t: number[][] = []
  for (let i = 0; i <= ref.length; i++) t.push(new Array<number>(can.length + 1).fill(0))
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= can.length; j++) {
      const row = t[i] as number[]
      const above = t[i - 1] as number[]
      row[j] = ref[i - 1] === can[j - 1] ? (above[j - 1] as number) + 1 : Math.max(above[j] as number, row[j - 1] as number)
    }
  }
  return t
}

export function oraclePath(ref: readonly number[], can: readonly number[]): number[] {
  const t = oracleTable(ref, can)
  const path: number[] = []
  let i = ref.length
  let j = can.length
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      path.unshift(i - 1)
      i--
      j--
    } else if (((t[i] as number[])[j - 1] as number) > ((t[i - 1] as number[])[j] as number)) {
      j--
    } else {
      i--
    }
  }
  return path
}
