/**
 * A newline-separated list searched where it lies: the WordNet data file holds each table as one long
 * string with one entry per line. Only where each line starts is recorded (one `indexOf` scan), so
 * loading makes no per-entry strings; a line is sliced out when it is read, and a sorted list is
 * binary-searched by comparing code units in place.
 */
export class Lines {
  readonly text: string
  /** `starts[k]` is where line k begins; `starts[count]` is `text.length + 1` (one past the last line's end). */
  private readonly starts: Int32Array
  /** Number of lines; an empty text has none. */
  readonly count: number

  constructor(text: string) {
    this.text = text
    const count = text.length === 0 ? 0 : countNewlines(text) + 1
    const starts = new Int32Array(count + 1)
    recordLineStarts(text, starts)
    starts[count] = text.length + 1
    this.starts = starts
    this.count = count
  }

  /** Where line `k` begins in {@link text}. */
  start(k: number): number {
    return this.starts[k]!
  }

  /** Where line `k` ends (exclusive: its `\n` or the end of the text). */
  end(k: number): number {
    return this.starts[k + 1]! - 1
  }

  /** Line `k` as a string. */
  line(k: number): string {
    return this.text.slice(this.starts[k]!, this.starts[k + 1]! - 1)
  }

  /**
   * The number of the line equal to `key`, or −1, in a list sorted in ascending code-unit order (the
   * order of JS `<`). With `keyEndsAtSpace`, a line's key is its text up to its first space (`form base…`).
   */
  find(key: string, keyEndsAtSpace = false): number {
    const { text, starts } = this
    let lo = 0
    let hi = this.count - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const from = starts[mid]!
      let to = starts[mid + 1]! - 1
      if (keyEndsAtSpace) {
        const space = text.indexOf(' ', from)
        if (space >= 0 && space < to) to = space
      }
      const order = compareWithRange(key, text, from, to)
      if (order === 0) return mid
      if (order > 0) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }
}

// The two scans are functions of their own, each only its loop: a loop is optimised while it runs
// (on-stack replacement), and code after it that had never run would throw that work away again.

function countNewlines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
}

/** `starts[k]` = where line k begins, for every line after the first (`starts[0]` stays 0). */
function recordLineStarts(text: string, starts: Int32Array): void {
  let k = 1
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts[k++] = at + 1
}

/** `key` against `text[from, to)` in code-unit order: negative, 0 or positive, as `key < / === / > range`. */
function compareWithRange(key: string, text: string, from: number, to: number): number {
  const length = to - from
  const shorter = key.length < length ? key.length : length
  for (let i = 0; i < shorter; i++) {
    const d = key.charCodeAt(i) - text.charCodeAt(from + i)
    if (d !== 0) return d
  }
  return key.length - length
}
