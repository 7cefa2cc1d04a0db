/**
 * A newline-separated list read where it lies: the WordNet data file holds each table as one long
 * string with one entry per line. Only where each line starts is recorded (an `indexOf` scan, after
 * one that counts the lines unless their number is known), so loading makes no per-entry strings; a
 * line is sliced out when it is read. Lookups by key go through one `FormIndex` over all the tables
 * (`wordnet-index.ts`), which compares keys in place.
 */
export class Lines {
  readonly text: string
  /** `starts[k]` is where line k begins; `starts[count]` is `text.length + 1` (one past the last line's end). */
  private readonly starts: Int32Array
  /** Number of lines; an empty text has none. */
  readonly count: number

  /**
   * `expectedCount`: the number of lines, when known (the WordNet data file records each table's), which
   * saves the scan that counts them; a wrong count is noticed while the lines are recorded, and they are
   * then counted.
   */
  constructor(text: string, expectedCount?: number) {
    this.text = text
    const hinted = expectedCount !== undefined && Number.isInteger(expectedCount) && expectedCount >= 1
    let count = text.length === 0 ? 0 : hinted ? expectedCount : countNewlines(text) + 1
    let starts = new Int32Array(count + 1)
    if (count > 0 && recordLineStarts(text, starts) !== count) {
      count = countNewlines(text) + 1
      starts = new Int32Array(count + 1)
      recordLineStarts(text, starts)
    }
    starts[count] = text.length + 1
    this.starts = starts
    this.count = count
  }

  /** Where each line begins, then `text.length + 1` (read-only; wordnet-kernel.ts copies it). */
  get lineStarts(): Int32Array {
    return this.starts
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
}

// The two scans are functions of their own, each only its loop: a loop is optimised while it runs
// (on-stack replacement), and code after it that had never run would throw that work away again.

function countNewlines(text: string): number {
  let count = 0
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++
  return count
}

/**
 * `starts[k]` = where line k begins, for every line after the first (`starts[0]` stays 0), `starts`
 * having room for `starts.length − 1` lines. Returns the number of lines: that many if they fit, fewer
 * if the text has fewer, one more if it has more (then stops).
 */
function recordLineStarts(text: string, starts: Int32Array): number {
  const room = starts.length - 1
  let k = 1
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) {
    if (k === room) return room + 1
    starts[k++] = at + 1
  }
  return k
}
