/**
 * The one normalisation every ground-truth check of a generated eval set applies, to the keyword and
 * to the text it is looked for in (chunks, question, reference), so that the checks and the `relevant`
 * ids they write agree:
 *
 * 1. Unicode NFC, so a composed `é` and `e` + combining accent are the same span;
 * 2. every run of whitespace (spaces, tabs, newlines, no-break spaces) becomes one space, and the ends
 *    are trimmed, so a keyword copied across a line break of the chunk still matches;
 * 3. lower case, code point by code point (`toLowerCase` of each), as {@link relevantBySubstring}
 *    compares by default.
 *
 * Nothing else: punctuation, hyphens and digits are kept, so `AES-256` and `AES 256` stay different.
 *
 * @example normalizeForMatch('  AES-256\n  at rest ') // 'aes-256 at rest'
 */
export function normalizeForMatch(text: string): string {
  return normalizedWithOffsets(text).text
}

/**
 * {@link normalizeForMatch} of `text`, with, for each UTF-16 unit of the result, the offset in
 * `text.normalize('NFC')` of the character it came from: a match in the normalised text maps back to
 * the span of the chunk as written.
 */
export function normalizedWithOffsets(text: string): { text: string; source: string; offsets: number[] } {
  const source = text.normalize('NFC')
  let out = ''
  const offsets: number[] = []
  let pendingSpace = -1
  let i = 0
  for (const ch of source) {
    if (/\s/u.test(ch)) {
      if (pendingSpace < 0) pendingSpace = i
    } else {
      if (pendingSpace >= 0 && out.length > 0) {
        out += ' '
        offsets.push(pendingSpace)
      }
      pendingSpace = -1
      const lower = ch.toLowerCase()
      out += lower
      for (let k = 0; k < lower.length; k++) offsets.push(i)
    }
    i += ch.length
  }
  return { text: out, source, offsets }
}

/**
 * The span of the chunk (NFC) that a normalised keyword matched, first occurrence, or undefined when
 * the keyword does not occur: what the eval set stores as `keyword`, so the file shows the chunk's own
 * spelling.
 */
export function sourceSpan(chunkText: string, normalizedKeyword: string): string | undefined {
  const { text, source, offsets } = normalizedWithOffsets(chunkText)
  const at = text.indexOf(normalizedKeyword)
  if (at < 0 || normalizedKeyword.length === 0) return undefined
  const start = offsets[at] as number
  const lastFrom = offsets[at + normalizedKeyword.length - 1] as number
  const last = source.codePointAt(lastFrom) as number
  return source.slice(start, lastFrom + (last > 0xffff ? 2 : 1))
}

/** The numbers written in digits in a text (`1,024`, `3.5`, `8`), thousands separators removed: `['1024', '3.5', '8']`. */
export function digitNumbers(text: string): string[] {
  return [...text.matchAll(/\d+(?:[.,]\d+)*/g)].map((m) => {
    // A comma followed by exactly three digits groups thousands; any other comma is a decimal mark.
    return m[0].replace(/,(?=\d{3}(?:\D|$))/g, '').replace(',', '.')
  })
}
