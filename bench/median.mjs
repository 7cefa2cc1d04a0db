// The median the benchmarks report: the middle value of an odd count, the mean of the two middle values of an even
// one (never one of those two, which for two sittings would quote the faster or the slower of them).
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2
}
