/**
 * Splits a byte stream into lines for the TREC readers without ever holding the whole text: chunks come in, each
 * complete line goes to the handler as a byte range of the chunk, and only an unfinished last line is carried over.
 * A UTF-8 BOM at the very start is dropped; `\r` before `\n` is left in the line, where the readers treat it as
 * trailing whitespace (so CRLF files read like LF files).
 */
export interface LineHandler {
  /** One physical line (1-based number), `\n` excluded. The bytes are only valid during the call. */
  line(buf: Uint8Array, start: number, end: number, lineNo: number): void
  /** Called after the lines of each chunk, before the chunk's buffer may be reused. */
  chunkDone(): void
}

const BOM = [0xef, 0xbb, 0xbf]

export class LineFeeder {
  private carry: Uint8Array = new Uint8Array(0)
  private lineNo = 0
  private started = false

  constructor(private readonly handler: LineHandler) {}

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
      buf = concat(this.carry, chunk)
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
      const joined = concat(this.carry, chunk.subarray(0, nl))
      this.carry = new Uint8Array(0)
      this.lineNo += 1
      this.handler.line(joined, 0, joined.length, this.lineNo)
      p = nl + 1
    }
    const handler = this.handler
    const end = buf.length
    let nl = buf.indexOf(10, p)
    while (nl >= 0) {
      this.lineNo += 1
      handler.line(buf, p, nl, this.lineNo)
      p = nl + 1
      nl = buf.indexOf(10, p)
    }
    if (p < end) this.carry = buf.slice(p, end)
    handler.chunkDone()
  }

  /** End of input: a last line without `\n` still counts (trec_eval appends the newline). */
  end(): void {
    if (!this.started) {
      const buf = this.carry
      this.carry = new Uint8Array(0)
      this.started = true
      const skip = buf[0] === BOM[0] && buf[1] === BOM[1] && buf[2] === BOM[2] ? 3 : 0
      if (buf.length > skip) this.pushFinal(buf.subarray(skip))
    } else if (this.carry.length > 0) {
      const buf = this.carry
      this.carry = new Uint8Array(0)
      this.pushFinal(buf)
    }
    this.handler.chunkDone()
  }

  private pushFinal(buf: Uint8Array): void {
    let p = 0
    let nl = buf.indexOf(10, p)
    while (nl >= 0) {
      this.lineNo += 1
      this.handler.line(buf, p, nl, this.lineNo)
      p = nl + 1
      nl = buf.indexOf(10, p)
    }
    if (p < buf.length) {
      this.lineNo += 1
      this.handler.line(buf, p, buf.length, this.lineNo)
    }
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b.slice()
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
