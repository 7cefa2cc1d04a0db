/**
 * Feeds a byte stream to the TREC readers in blocks of whole lines, without ever holding the whole text: chunks
 * come in, the complete lines of each chunk go to the handler as one byte range, and only an unfinished last line
 * is carried over to the next chunk. Every line in a block ends with `\n` (one is appended to a last line that
 * lacks it, as trec_eval does). A UTF-8 BOM at the very start is dropped; `\r` before `\n` stays in the line, where
 * the readers treat it as trailing whitespace, so CRLF files read like LF files.
 */
export interface BlockHandler {
  /**
   * Lines `buf[start, end)`, each terminated by `\n`; `lineNo` is the 1-based number of the first one. The bytes
   * are only valid during the call. Returns the number of lines in the block.
   */
  block(buf: Uint8Array, start: number, end: number, lineNo: number): number
}

const BOM = [0xef, 0xbb, 0xbf]
const NEWLINE = new Uint8Array([10])

export class LineFeeder {
  private carry: Uint8Array = new Uint8Array(0)
  private lineNo = 1
  private started = false

  constructor(private readonly handler: BlockHandler) {}

  /** Feed the next chunk. The chunk is not kept after the call returns (its buffer may be reused). */
  push(chunk: Uint8Array): void {
    let buf = chunk
    let p = 0
    if (!this.started) {
      // Wait for three bytes so that a BOM split across chunks is still recognised.
      if (this.carry.length + chunk.length < 3) {
        this.carry = concat(this.carry, chunk)
        return
      }
      // (no copy when the first chunk alone holds the three bytes)
      buf = this.carry.length === 0 ? chunk : concat(this.carry, chunk)
      this.carry = new Uint8Array(0)
      this.started = true
      if (buf[0] === BOM[0] && buf[1] === BOM[1] && buf[2] === BOM[2]) p = 3
    } else if (this.carry.length > 0) {
      // Finish the line that the previous chunk left open.
      const nl = chunk.indexOf(10)
      if (nl < 0) {
        this.carry = concat(this.carry, chunk)
        return
      }
      const joined = concat(this.carry, chunk.subarray(0, nl + 1))
      this.carry = new Uint8Array(0)
      this.emit(joined, 0, joined.length)
      p = nl + 1
    }
    const last = buf.lastIndexOf(10)
    if (last >= p) {
      this.emit(buf, p, last + 1)
      p = last + 1
    }
    if (p < buf.length) this.carry = buf.slice(p)
  }

  /** End of input: a last line without `\n` still counts. */
  end(): void {
    let buf = this.carry
    this.carry = new Uint8Array(0)
    if (!this.started) {
      this.started = true
      if (buf[0] === BOM[0] && buf[1] === BOM[1] && buf[2] === BOM[2]) buf = buf.subarray(3)
      // fewer than three bytes in all: may still hold whole lines
      const last = buf.lastIndexOf(10)
      if (last >= 0) {
        this.emit(buf, 0, last + 1)
        buf = buf.subarray(last + 1)
      }
    }
    if (buf.length > 0) {
      const line = concat(buf, NEWLINE)
      this.emit(line, 0, line.length)
    }
  }

  private emit(buf: Uint8Array, start: number, end: number): void {
    this.lineNo += this.handler.block(buf, start, end, this.lineNo)
  }
}

/** Number of `\n` in `buf[start, end)`. */
export function countNewlines(buf: Uint8Array, start: number, end: number): number {
  let n = 0
  let p = buf.indexOf(10, start)
  while (p >= 0 && p < end) {
    n += 1
    p = buf.indexOf(10, p + 1)
  }
  return n
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice()
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
