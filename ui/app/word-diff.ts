/**
 * A word diff of two answers: the longest common subsequence of their words (whitespace kept with the
 * word before it). Quadratic, so answers beyond MAX_WORDS words are shown as one removal and one
 * insertion instead of a diff.
 */
export const MAX_WORDS = 1500

export type DiffPart = { readonly op: 'same' | 'del' | 'ins'; readonly text: string }

function words(text: string): string[] {
  return text.match(/\s*\S+\s*|\s+/g) ?? []
}

export function wordDiff(before: string, after: string): DiffPart[] {
  const a = words(before)
  const b = words(after)
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) return [...(before ? [{ op: 'del' as const, text: before }] : []), ...(after ? [{ op: 'ins' as const, text: after }] : [])]
  const key = (w: string) => w.trim()
  // lcs[i][j]: common words of a[i..] and b[j..], one flat array (rows of b.length + 1)
  const width = b.length + 1
  const lcs = new Uint16Array((a.length + 1) * width)
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        key(a[i] as string) === key(b[j] as string)
          ? (lcs[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lcs[(i + 1) * width + j] as number, lcs[i * width + j + 1] as number)
    }
  }
  const out: DiffPart[] = []
  const push = (op: DiffPart['op'], text: string) => {
    const last = out[out.length - 1]
    if (last && last.op === op) out[out.length - 1] = { op, text: last.text + text }
    else out.push({ op, text })
  }
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (key(a[i] as string) === key(b[j] as string)) {
      push('same', b[j] as string)
      i++
      j++
    } else if ((lcs[(i + 1) * width + j] as number) >= (lcs[i * width + j + 1] as number)) push('del', a[i++] as string)
    else push('ins', b[j++] as string)
  }
  while (i < a.length) push('del', a[i++] as string)
  while (j < b.length) push('ins', b[j++] as string)
  return out
}
