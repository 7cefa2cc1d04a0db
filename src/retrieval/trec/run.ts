import { assertString } from '../../errors.js'
import { atofBytes, compareUtf8, decodeUtf8, encodeUtf8 } from './bytes.js'
import { TrecFormatError } from './errors.js'
import { LineFeeder, type LineHandler } from './lines.js'

export interface TrecParseOptions {
  /** Name used in error messages (a file name); defaults to `run` / `qrels`. */
  readonly source?: string
}

const RUN_LINE = 'a run line `qid iter docno rank sim run_id` (whitespace-separated, extra fields ignored)'

/**
 * A parsed TREC run, kept compact: one score (double) and the docno's bytes per retrieved document, in file
 * order, grouped per topic. Docnos stay UTF-8 bytes so that the ranking's tie order is `strcmp` order exactly as
 * in trec_eval; strings are only made on request ({@link TrecRun.docnos}).
 */
export class TrecRun {
  /** @internal */
  constructor(
    /** The `run_id` field of the last line (trec_eval keeps only that one and prints it as `runid`). */
    readonly runId: string,
    /** Topic ids in order of first appearance. */
    readonly topicIds: readonly string[],
    /** @internal per-document score, file order */
    readonly scores: Float64Array,
    /** @internal docno i is `arena[docStart[i] .. docStart[i + 1])` */
    readonly docStart: Uint32Array,
    /** @internal */
    readonly arena: Uint8Array,
    /** @internal FNV-1a of each docno's bytes */
    readonly hashes: Int32Array,
    /** @internal document indices grouped by topic: topic t owns `order[topicOffset[t] .. topicOffset[t + 1])` */
    readonly topicOffset: Uint32Array,
    /** @internal */
    readonly order: Uint32Array,
    private readonly index: ReadonlyMap<string, number>,
  ) {}

  /** Total number of retrieved documents (run lines). */
  get size(): number {
    return this.scores.length
  }

  /** Index of a topic in {@link topicIds}, or -1. */
  topicIndex(qid: string): number {
    return this.index.get(qid) ?? -1
  }

  /** The retrieved docnos of one topic in file order (empty for an unknown topic). */
  docnos(qid: string): string[] {
    const t = this.topicIndex(qid)
    if (t < 0) return []
    const out: string[] = []
    for (let k = this.topicOffset[t] as number; k < (this.topicOffset[t + 1] as number); k += 1) {
      const i = this.order[k] as number
      out.push(decodeUtf8(this.arena, this.docStart[i] as number, this.docStart[i + 1] as number))
    }
    return out
  }

  /** The scores of one topic in file order, aligned with {@link docnos}. */
  topicScores(qid: string): Float64Array {
    const t = this.topicIndex(qid)
    if (t < 0) return new Float64Array(0)
    const from = this.topicOffset[t] as number
    const to = this.topicOffset[t + 1] as number
    const out = new Float64Array(to - from)
    for (let k = from; k < to; k += 1) out[k - from] = this.scores[this.order[k] as number] as number
    return out
  }
}

/**
 * Incremental run reader: feed byte chunks, then {@link RunBuilder.finish}. Field rules are trec_eval 10.0's
 * (`get_trec_results.c`): fields split on C whitespace; a line needs at least the six fields
 * `qid iter docno rank sim run_id`, anything after `run_id` is ignored (results.trunc in trec_eval's own tests
 * carries such junk); `iter` and `rank` are ignored; `sim` is read with C `atof`; blank lines and lines whose
 * first non-blank character is `#` are skipped. A line with fewer fields throws {@link TrecFormatError}.
 */
export class RunBuilder implements LineHandler {
  private readonly feeder = new LineFeeder(this)
  private n = 0
  private scores: Float64Array
  private starts: Uint32Array
  private hashes: Int32Array
  private arena: Uint8Array
  private arenaLen = 0
  // one segment per stretch of consecutive lines with the same qid
  private segTopic: Uint32Array = new Uint32Array(64)
  private segStart: Uint32Array = new Uint32Array(64)
  private segCount = 0
  private readonly topicIndex = new Map<string, number>()
  private readonly topicIds: string[] = []
  private prevQid: Uint8Array = new Uint8Array(64)
  private prevQidLen = -1
  private runIdBuf: Uint8Array | null = null
  private runIdStart = 0
  private runIdEnd = 0
  private runId = ''

  constructor(
    private readonly fn: string,
    private readonly source: string,
    /** Expected input size in bytes, to size the columns once (they still grow when it is too small). */
    expectedBytes = 0,
  ) {
    // Over-reserving is cheap: large typed arrays are zero pages until written, so only used space is resident.
    const cap = Math.max(1024, Math.ceil(expectedBytes / 20))
    this.scores = new Float64Array(cap)
    this.starts = new Uint32Array(cap + 1)
    this.hashes = new Int32Array(cap)
    this.arena = new Uint8Array(Math.max(cap * 12, Math.ceil(expectedBytes / 2)))
  }

  push(chunk: Uint8Array): void {
    this.feeder.push(chunk)
  }

  line(buf: Uint8Array, start: number, end: number, lineNo: number): void {
    let p = start
    let c = 0
    // leading blanks; blank line; comment
    while (p < end && ((c = buf[p] as number) === 32 || (c >= 9 && c <= 13))) p += 1
    if (p === end || c === 35) return
    const qs = p
    while (p < end && !(((c = buf[p] as number) <= 32) && (c === 32 || (c >= 9 && c <= 13)))) p += 1
    const qe = p
    while (p < end && ((c = buf[p] as number) === 32 || (c >= 9 && c <= 13))) p += 1
    if (p === end) this.malformed(buf, start, end, lineNo)
    // iter
    while (p < end && !(((c = buf[p] as number) <= 32) && (c === 32 || (c >= 9 && c <= 13)))) p += 1
    while (p < end && ((c = buf[p] as number) === 32 || (c >= 9 && c <= 13))) p += 1
    if (p === end) this.malformed(buf, start, end, lineNo)
    // docno: copied into the arena and hashed in the same pass
    if (this.arenaLen + (end - p) > this.arena.length) this.growArena(end - p)
    const arena = this.arena
    let ap = this.arenaLen
    const docStart = ap
    let h = 0x811c9dc5
    while (p < end && !(((c = buf[p] as number) <= 32) && (c === 32 || (c >= 9 && c <= 13)))) {
      arena[ap] = c
      ap += 1
      h = Math.imul(h ^ c, 16777619)
      p += 1
    }
    while (p < end && ((c = buf[p] as number) === 32 || (c >= 9 && c <= 13))) p += 1
    if (p === end) this.malformed(buf, start, end, lineNo)
    // rank
    while (p < end && !(((c = buf[p] as number) <= 32) && (c === 32 || (c >= 9 && c <= 13)))) p += 1
    while (p < end && ((c = buf[p] as number) === 32 || (c >= 9 && c <= 13))) p += 1
    if (p === end) this.malformed(buf, start, end, lineNo)
    // sim
    const ss = p
    while (p < end && !(((c = buf[p] as number) <= 32) && (c === 32 || (c >= 9 && c <= 13)))) p += 1
    const se = p
    while (p < end && ((c = buf[p] as number) === 32 || (c >= 9 && c <= 13))) p += 1
    if (p === end) this.malformed(buf, start, end, lineNo)
    // run_id (only the last line's is kept; decoded once per chunk, see chunkDone)
    const rs = p
    while (p < end && !(((c = buf[p] as number) <= 32) && (c === 32 || (c >= 9 && c <= 13)))) p += 1
    this.runIdBuf = buf
    this.runIdStart = rs
    this.runIdEnd = p

    // topic: consecutive lines usually share the qid, so compare bytes with the previous one first
    if (!this.sameQid(buf, qs, qe)) this.startSegment(buf, qs, qe)

    const n = this.n
    if (n === this.scores.length) this.growColumns()
    this.scores[n] = atofBytes(buf, ss, se)
    this.starts[n] = docStart
    this.hashes[n] = h
    this.arenaLen = ap
    this.n = n + 1
  }

  chunkDone(): void {
    if (this.runIdBuf !== null) {
      this.runId = decodeUtf8(this.runIdBuf, this.runIdStart, this.runIdEnd)
      this.runIdBuf = null
    }
  }

  /** End of input: returns the run. The builder must not be used afterwards. */
  finish(): TrecRun {
    this.feeder.end()
    const n = this.n
    // views, not copies: copying would double the peak memory on a large run
    const starts = this.starts.subarray(0, n + 1)
    starts[n] = this.arenaLen
    // Group document indices by topic (a counting sort over segments keeps file order inside each topic).
    const numTopics = this.topicIds.length
    const topicOffset = new Uint32Array(numTopics + 1)
    for (let s = 0; s < this.segCount; s += 1) {
      const end = s + 1 < this.segCount ? (this.segStart[s + 1] as number) : n
      const t = (this.segTopic[s] as number) + 1
      topicOffset[t] = (topicOffset[t] as number) + end - (this.segStart[s] as number)
    }
    for (let t = 0; t < numTopics; t += 1) topicOffset[t + 1] = (topicOffset[t + 1] as number) + (topicOffset[t] as number)
    let order: Uint32Array
    if (this.segCount === numTopics) {
      // each topic is one contiguous stretch, and topics are numbered in order of appearance: file order it is
      order = new Uint32Array(n)
      for (let i = 0; i < n; i += 1) order[i] = i
    } else {
      order = new Uint32Array(n)
      const fill = topicOffset.slice(0, numTopics)
      for (let s = 0; s < this.segCount; s += 1) {
        const t = this.segTopic[s] as number
        const end = s + 1 < this.segCount ? (this.segStart[s + 1] as number) : n
        for (let i = this.segStart[s] as number; i < end; i += 1) {
          order[fill[t] as number] = i
          fill[t] = (fill[t] as number) + 1
        }
      }
    }
    return new TrecRun(
      this.runId,
      this.topicIds,
      this.scores.subarray(0, n),
      starts,
      this.arena.subarray(0, this.arenaLen),
      this.hashes.subarray(0, n),
      topicOffset,
      order,
      this.topicIndex,
    )
  }

  private sameQid(buf: Uint8Array, qs: number, qe: number): boolean {
    const len = qe - qs
    if (len !== this.prevQidLen) return false
    const prev = this.prevQid
    for (let k = 0; k < len; k += 1) if (prev[k] !== buf[qs + k]) return false
    return true
  }

  private startSegment(buf: Uint8Array, qs: number, qe: number): void {
    const len = qe - qs
    if (len > this.prevQid.length) this.prevQid = new Uint8Array(len * 2)
    this.prevQid.set(buf.subarray(qs, qe))
    this.prevQidLen = len
    const qid = decodeUtf8(buf, qs, qe)
    let t = this.topicIndex.get(qid)
    if (t === undefined) {
      t = this.topicIds.length
      this.topicIds.push(qid)
      this.topicIndex.set(qid, t)
    }
    if (this.segCount === this.segTopic.length) {
      this.segTopic = grow32(this.segTopic, this.segCount * 2)
      this.segStart = grow32(this.segStart, this.segCount * 2)
    }
    this.segTopic[this.segCount] = t
    this.segStart[this.segCount] = this.n
    this.segCount += 1
  }

  private growColumns(): void {
    const cap = this.scores.length * 2
    const scores = new Float64Array(cap)
    scores.set(this.scores)
    this.scores = scores
    const hashes = new Int32Array(cap)
    hashes.set(this.hashes)
    this.hashes = hashes
    this.starts = grow32(this.starts, cap + 1)
  }

  private growArena(need: number): void {
    const cap = Math.max(this.arena.length * 2, this.arenaLen + need)
    if (cap > 0xffffffff) {
      throw new TrecFormatError(this.fn, this.source, 0, 'a run whose docnos total less than 4 GiB', '(input too large)')
    }
    const arena = new Uint8Array(cap)
    arena.set(this.arena.subarray(0, this.arenaLen))
    this.arena = arena
  }

  private malformed(buf: Uint8Array, start: number, end: number, lineNo: number): never {
    throw new TrecFormatError(this.fn, this.source, lineNo, RUN_LINE, decodeUtf8(buf, start, end).replace(/\r$/, ''))
  }
}

function grow32(a: Uint32Array, cap: number): Uint32Array {
  const out = new Uint32Array(cap)
  out.set(a.subarray(0, Math.min(a.length, cap)))
  return out
}

/**
 * Parse the text of a TREC run (`qid iter docno rank sim run_id` per line) with trec_eval 10.0's rules: `iter` and
 * `rank` are ignored, `sim` is read with C `atof`, fields after `run_id` are ignored, `#` comment lines and blank
 * lines are skipped, CRLF line ends and a UTF-8 BOM are accepted. A line with fewer than six fields throws
 * {@link TrecFormatError} naming the source and line number; nothing is ever skipped silently. Ranks are assigned
 * later, by {@link trecEval}: score descending, ties by docno descending (`strcmp`).
 *
 * Duplicated docnos are kept here; trec_eval refuses them when the topic is evaluated, and so does `trecEval`.
 * For files of hundreds of MB use {@link readRun} / {@link parseRunStream}, which never hold the text.
 *
 * @example
 * const run = parseRun('301 Q0 D2 1 2.5 bm25\n301 Q0 D1 2 2.5 bm25\n', { source: 'bm25.run' })
 * run.topicIds // ['301']
 * run.docnos('301') // ['D2', 'D1']
 * run.runId // 'bm25'
 */
export function parseRun(text: string, options: TrecParseOptions = {}): TrecRun {
  assertString('parseRun', 'text', text)
  const builder = new RunBuilder('parseRun', options.source ?? 'run', text.length)
  builder.push(encodeUtf8(text))
  return builder.finish()
}

/** Topic ids of a run or qrels in trec_eval's order (`strcmp` of the UTF-8 bytes). */
export function sortTopicIds(ids: readonly string[]): string[] {
  return [...ids].sort(compareUtf8)
}
