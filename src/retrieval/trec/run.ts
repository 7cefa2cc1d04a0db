import { assertString } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import { checkOptionKeys } from '../../options.js'
import { atofBytes, decodeUtf8, encodeUtf8, plainDecimal, scanPlainDecimal } from './bytes.js'
import { TrecFormatError } from './errors.js'
import { countNewlines, LineFeeder, type BlockHandler } from './lines.js'
import { COLUMN_ROWS, KERNEL_WINDOW, RunKernel } from './run-kernel.js'

export interface TrecParseOptions {
  /** Name used in error messages (a file name); defaults to `run` / `qrels`. */
  readonly source?: string
}

/** The keys of {@link TrecParseOptions}: what parseRun, parseQrels, parseRunStream and parseQrelsStream accept. */
export const TREC_PARSE_OPTION_KEYS = keysOf<TrecParseOptions>()('source')

/**
 * How a {@link RunBuilder} reads lines: `auto` uses the WebAssembly kernel ({@link RunKernel}) for blocks of at
 * least {@link KERNEL_MIN_BLOCK} bytes where it compiles, `wasm` for every block (tests), `js` never.
 */
export type RunReaderMode = 'auto' | 'wasm' | 'js'
/** Smaller blocks (a short parseRun text, a stream's last line) are not worth a kernel instance. */
const KERNEL_MIN_BLOCK = 16 * 1024

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
    /** @internal topic t owns positions `topicOffset[t] .. topicOffset[t + 1]` of the topic-grouped order */
    readonly topicOffset: Uint32Array,
    /**
     * @internal document index at each position of the topic-grouped order; null when every topic is one
     * contiguous stretch of the file (the usual case), where the order is the file order
     */
    readonly order: Uint32Array | null,
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

  /** @internal index of the k-th document of the topic-grouped order */
  doc(k: number): number {
    return this.order === null ? k : (this.order[k] as number)
  }

  /** The retrieved docnos of one topic in file order (empty for an unknown topic). */
  docnos(qid: string): string[] {
    const t = this.topicIndex(qid)
    if (t < 0) return []
    const out: string[] = []
    for (let k = this.topicOffset[t] as number; k < (this.topicOffset[t + 1] as number); k += 1) {
      const i = this.doc(k)
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
    for (let k = from; k < to; k += 1) out[k - from] = this.scores[this.doc(k)] as number
    return out
  }
}

/** Runs whose columns are a kernel's memory (from row 0): that kernel also ranks their topics (`Ranker`). */
const kernels = new WeakMap<TrecRun, RunKernel>()

/** The kernel holding `run`'s columns, or null. */
export function kernelOf(run: TrecRun): RunKernel | null {
  return kernels.get(run) ?? null
}

/**
 * Incremental run reader: feed byte chunks, then {@link RunBuilder.finish}. Field rules are trec_eval 10.0's
 * (`get_trec_results.c`): fields split on C whitespace; a line needs at least the six fields
 * `qid iter docno rank sim run_id`, anything after `run_id` is ignored (results.trunc in trec_eval's own tests
 * carries such junk); `iter` and `rank` are ignored; `sim` is read with C `atof`; blank lines and lines whose
 * first non-blank character is `#` are skipped. A line with fewer fields throws {@link TrecFormatError}.
 */
export class RunBuilder implements BlockHandler {
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
  private runId = ''
  /** A topic's lines resumed after another topic's: the run is not one contiguous stretch per topic. */
  private resumed = false
  /** Bumped whenever prevQid changes, so the kernel copies it only then. */
  private qidVersion = 0
  /** undefined: not created yet; null: not available (or mode `js`). */
  private kernel: RunKernel | null | undefined
  /**
   * The columns are the kernel's ({@link RunKernel.scores} etc.), so its rows need no copying and it can rank
   * them. Only for batch reading ({@link finishedTopics}), asked for with `residentRows`, and until a batch
   * outgrows them (then the columns move to JS arrays, and the kernel's rows are copied as without it).
   */
  private resident = false

  constructor(
    private readonly fn: string,
    private readonly source: string,
    /** Expected input size in bytes, to size the columns once (they still grow when it is too small). */
    expectedBytes = 0,
    private readonly mode: RunReaderMode = 'auto',
    /** Batch reading: how many rows may live in the kernel's columns (0: none; tests pass fewer than they hold). */
    private readonly residentRows = 0,
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

  block(buf: Uint8Array, start: number, end: number, lineNo: number): number {
    const kernel = this.kernelFor(end - start)
    return kernel === null ? this.scanLines(buf, start, end, lineNo) : this.kernelLines(kernel, buf, start, end, lineNo)
  }

  private kernelFor(blockBytes: number): RunKernel | null {
    if (this.kernel !== undefined) return this.kernel
    if (this.mode === 'js' || (this.mode === 'auto' && blockBytes < KERNEL_MIN_BLOCK)) return null
    this.kernel = RunKernel.create()
    if (this.kernel !== null && this.residentRows > 0) this.moveIntoKernel(this.kernel)
    return this.kernel
  }

  /** Makes the kernel's columns this builder's, with the rows read so far (if they fit). */
  private moveIntoKernel(kernel: RunKernel): void {
    const rows = Math.min(this.residentRows, COLUMN_ROWS)
    if (this.n > rows || this.arenaLen > kernel.arena.length) return
    const scores = kernel.scores.subarray(0, rows)
    scores.set(this.scores.subarray(0, this.n))
    const hashes = kernel.hashes.subarray(0, rows)
    hashes.set(this.hashes.subarray(0, this.n))
    const starts = kernel.starts.subarray(0, rows + 1)
    starts.set(this.starts.subarray(0, this.n))
    kernel.arena.set(this.arena.subarray(0, this.arenaLen))
    this.scores = scores
    this.hashes = hashes
    this.starts = starts
    this.arena = kernel.arena
    this.resident = true
  }

  /**
   * The kernel reads the block window by window; each line it declines (a new qid, or anything off its fast
   * path) is read alone by {@link scanLines}, and the kernel goes on after it. The kernel writes its rows into
   * the columns when they are its own (`resident`), else they are copied in after every kernel call; either way
   * the columns, batches and errors are those of the JS path.
   */
  private kernelLines(kernel: RunKernel, buf: Uint8Array, start: number, end: number, lineNo: number): number {
    let line = lineNo
    let pos = start
    while (pos < end) {
      let stop = end
      if (end - pos > KERNEL_WINDOW) {
        stop = buf.lastIndexOf(10, pos + KERNEL_WINDOW - 1) + 1
        if (stop <= pos) {
          // one line longer than the window
          const eol = buf.indexOf(10, pos) + 1
          line += this.scanLines(buf, pos, eol, line)
          pos = eol
          continue
        }
      }
      // memory address of buf[pos]: in place when the file was read into the kernel's buffers, else a copy
      let base = kernel.addressOf(buf, pos)
      if (base < 0) base = kernel.load(buf, pos, stop)
      const size = stop - pos
      this.reserve(Math.ceil(size / 12) + 1, size)
      let at = 0
      while (at < size) {
        kernel.setQid(this.prevQid, this.prevQidLen, this.qidVersion)
        const resident = this.resident
        const status = resident ? kernel.parse(base + at, base + size, this.n, this.arenaLen, 0) : kernel.parse(base + at, base + size, 0, 0, this.arenaLen)
        const rows = kernel.rows
        if (rows > 0) {
          const n = this.n
          if (!resident) {
            this.scores.set(kernel.scores.subarray(0, rows), n)
            this.starts.set(kernel.starts.subarray(0, rows), n)
            this.hashes.set(kernel.hashes.subarray(0, rows), n)
            this.arena.set(kernel.arena.subarray(0, kernel.arenaBytes), this.arenaLen)
          }
          this.n = n + rows
          this.arenaLen += kernel.arenaBytes
          line += rows
          const runId = kernel.runIdRange()
          if (runId !== null) this.runId = decodeUtf8(buf, pos + runId[0] - base, pos + runId[1] - base)
        }
        if (status === 0) break
        const lineStart = pos + kernel.stoppedAt - base
        const eol = buf.indexOf(10, lineStart) + 1
        line += this.scanLines(buf, lineStart, eol, line)
        at = eol - pos
      }
      pos = stop
    }
    return line - lineNo
  }

  /**
   * Buffers in the kernel's memory for a file to be read into (`Sink.readBuffers` in stream.ts); undefined without
   * a kernel, or for a file too small to be worth one.
   */
  readBuffers(size: number, fileBytes: number): readonly [Uint8Array, Uint8Array] | undefined {
    return this.kernelFor(fileBytes)?.readBuffers(size)
  }

  /**
   * The hot loop. Each line is first tried on a fast path that only knows the common layout: fields separated by
   * spaces, a plain decimal score, `\n` after the run_id (a `\r` or further fields are fine too). Any other byte
   * where a field ends (a tab, a control byte, `#`, a blank line, an exponent…) sends that one line to the exact
   * path, which follows trec_eval's rules: fields split on C `isspace` (32, 9, 11, 12, 13; 10 ends the line),
   * `atof` for the score ({@link scanPlainDecimal} and {@link atofBytes}). Why two paths: the exact class tests at
   * every field boundary cost as much as the rest of the parse on a 7M-line run.
   * The docno is copied into the arena and hashed (FNV-1a) as it is scanned.
   */
  private scanLines(buf: Uint8Array, start: number, end: number, lineNo: number): number {
    // A line of a valid run has at least 12 bytes, and its docno is shorter than the line: reserve once per block.
    this.reserve(Math.ceil((end - start) / 12) + 1, end - start)
    const scores = this.scores
    const starts = this.starts
    const hashes = this.hashes
    const arena = this.arena
    let n = this.n
    let ap = this.arenaLen
    let lines = 0
    let runIdStart = -1
    let runIdEnd = -1
    let prevQid = this.prevQid
    let prevLen = this.prevQidLen
    let p = start
    while (p < end) {
      const lineStart = p
      const docStart = ap
      lines += 1
      let qs = p
      let qe = p
      let h = 0x811c9dc5
      let score = 0
      let parsed = false
      let sameQid = false
      let c = buf[p] as number
      fast: {
        if (c <= 32 || c === 35) break fast
        // qid: usually the previous line's, so compare with that first
        let k = 0
        if (prevLen > 0 && buf[p + prevLen] === 32) while (k < prevLen && buf[p + k] === prevQid[k]) k += 1
        if (k === prevLen && k > 0) {
          p += prevLen
          sameQid = true
        } else {
          do c = buf[++p] as number
          while (c > 32)
          if (c !== 32) break fast
        }
        qe = p
        c = 32
        do c = buf[++p] as number
        while (c === 32)
        // iter (ignored)
        if (c < 32) break fast
        do c = buf[++p] as number
        while (c > 32)
        if (c !== 32) break fast
        do c = buf[++p] as number
        while (c === 32)
        // docno
        if (c < 32) break fast
        do {
          arena[ap] = c
          ap += 1
          h = Math.imul(h ^ c, 16777619)
          c = buf[++p] as number
        } while (c > 32)
        if (c !== 32) break fast
        do c = buf[++p] as number
        while (c === 32)
        // rank (ignored)
        if (c < 32) break fast
        do c = buf[++p] as number
        while (c > 32)
        if (c !== 32) break fast
        do c = buf[++p] as number
        while (c === 32)
        // sim: a plain decimal followed by a space (atof's exact fast path); anything else goes to the exact path
        p = scanPlainDecimal(buf, p, end)
        c = buf[p] as number
        score = plainDecimal.value
        if (c !== 32 || Number.isNaN(score)) break fast
        do c = buf[++p] as number
        while (c === 32)
        // run_id, then the line end (a \r, or fields after run_id, are skipped as the exact path does)
        if (c < 32) break fast
        runIdStart = p
        do c = buf[++p] as number
        while (c > 32)
        if (c !== 10 && c !== 32 && c !== 13) break fast
        runIdEnd = p
        p = c === 10 ? p + 1 : buf.indexOf(10, p) + 1
        parsed = true
      }
      if (!parsed) {
        // the exact path, from the start of the line
        p = lineStart
        sameQid = false
        ap = docStart
        h = 0x811c9dc5
        c = buf[p] as number
        while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
        if (c === 10) {
          p += 1
          continue
        }
        if (c === 35) {
          p = buf.indexOf(10, p) + 1
          continue
        }
        qs = p
        while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
        qe = p
        while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
        if (c === 10) this.malformed(buf, start, lineStart, lineNo)
        while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
        while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
        if (c === 10) this.malformed(buf, start, lineStart, lineNo)
        while (c > 32 || c < 9 || (c > 13 && c !== 32)) {
          arena[ap] = c
          ap += 1
          h = Math.imul(h ^ c, 16777619)
          c = buf[++p] as number
        }
        while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
        if (c === 10) this.malformed(buf, start, lineStart, lineNo)
        while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
        while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
        if (c === 10) this.malformed(buf, start, lineStart, lineNo)
        const ss = p
        p = scanPlainDecimal(buf, p, end)
        c = buf[p] as number
        score = plainDecimal.value
        while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
        if (Number.isNaN(score)) score = atofBytes(buf, ss, p)
        while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
        if (c === 10) this.malformed(buf, start, lineStart, lineNo)
        // run_id (only the last line's is kept); anything after it is ignored
        runIdStart = p
        while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
        runIdEnd = p
        p = c === 10 ? p + 1 : buf.indexOf(10, p) + 1
      }

      // topic: consecutive lines usually share the qid, so compare bytes with the previous one first (the fast
      // path has done so already when sameQid)
      if (!sameQid) {
        let same = qe - qs === prevLen
        for (let k = 0; same && k < prevLen; k += 1) same = prevQid[k] === buf[qs + k]
        if (!same) {
          this.n = n
          this.startSegment(buf, qs, qe)
          prevQid = this.prevQid
          prevLen = this.prevQidLen
        }
      }
      scores[n] = score
      starts[n] = docStart
      hashes[n] = h
      n += 1
    }
    this.n = n
    this.arenaLen = ap
    if (runIdStart >= 0) this.runId = decodeUtf8(buf, runIdStart, runIdEnd)
    return lines
  }

  /** Documents read and not yet handed over. */
  get size(): number {
    return this.n
  }

  /** Some topic's lines did not form one stretch (batches then cannot be evaluated topic by topic). */
  get topicsResumed(): boolean {
    return this.resumed
  }

  /**
   * Batch reading (see `evaluate-file.ts`): the topics read completely so far, i.e. all but the one being read,
   * as a run that views this builder's columns. Valid until {@link RunBuilder.dropFinished}; null when none is
   * complete. Only meaningful while {@link topicsResumed} is false.
   */
  finishedTopics(): TrecRun | null {
    return this.segCount > 1 ? this.batchRun(this.segCount - 1) : null
  }

  /**
   * Forgets the topics {@link finishedTopics} handed over and moves the open topic's columns to the front, so
   * the same (already touched) memory is reused: on this machine class first-touching fresh pages costs more
   * than parsing the bytes that fill them.
   */
  dropFinished(): void {
    if (this.segCount <= 1) return
    const last = this.segCount - 1
    const cut = this.segStart[last] as number
    const arenaCut = this.starts[cut] as number
    const rest = this.n - cut
    this.scores.copyWithin(0, cut, this.n)
    this.hashes.copyWithin(0, cut, this.n)
    this.starts.copyWithin(0, cut, this.n)
    for (let i = 0; i < rest; i += 1) this.starts[i] = (this.starts[i] as number) - arenaCut
    this.arena.copyWithin(0, arenaCut, this.arenaLen)
    this.arenaLen -= arenaCut
    this.n = rest
    this.segTopic[0] = this.segTopic[last] as number
    this.segStart[0] = 0
    this.segCount = 1
  }

  /** End of input in batch reading: the topics not handed over yet. The builder must not be used afterwards. */
  finishBatches(): TrecRun {
    this.feeder.end()
    return this.batchRun(this.segCount)
  }

  /** A run of the first `segs` segments, each a whole topic, viewing the columns (no copy). */
  private batchRun(segs: number): TrecRun {
    const end = segs < this.segCount ? (this.segStart[segs] as number) : this.n
    const starts = this.starts.subarray(0, end + 1)
    if (segs === this.segCount) starts[end] = this.arenaLen
    const topicIds: string[] = []
    const index = new Map<string, number>()
    const topicOffset = new Uint32Array(segs + 1)
    for (let s = 0; s < segs; s += 1) {
      const qid = this.topicIds[this.segTopic[s] as number] as string
      index.set(qid, s)
      topicIds.push(qid)
      topicOffset[s] = this.segStart[s] as number
    }
    topicOffset[segs] = end
    const run = new TrecRun(
      this.runId,
      topicIds,
      this.scores.subarray(0, end),
      starts,
      this.arena.subarray(0, starts[end] as number),
      this.hashes.subarray(0, end),
      topicOffset,
      null,
      index,
    )
    if (this.resident && this.kernel) kernels.set(run, this.kernel)
    return run
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
    // Each topic one contiguous stretch (topics are numbered in order of appearance): file order already groups them.
    let order: Uint32Array | null = null
    if (this.segCount !== numTopics) {
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

  private startSegment(buf: Uint8Array, qs: number, qe: number): void {
    const len = qe - qs
    if (len > this.prevQid.length) this.prevQid = new Uint8Array(len * 2)
    this.prevQid.set(buf.subarray(qs, qe))
    this.prevQidLen = len
    this.qidVersion += 1
    const qid = decodeUtf8(buf, qs, qe)
    let t = this.topicIndex.get(qid)
    if (t === undefined) {
      t = this.topicIds.length
      this.topicIds.push(qid)
      this.topicIndex.set(qid, t)
    } else {
      this.resumed = true
    }
    if (this.segCount === this.segTopic.length) {
      this.segTopic = grow32(this.segTopic, this.segCount * 2)
      this.segStart = grow32(this.segStart, this.segCount * 2)
    }
    this.segTopic[this.segCount] = t
    this.segStart[this.segCount] = this.n
    this.segCount += 1
  }

  /** The columns become JS arrays (a batch outgrew the kernel's); the kernel's rows are copied out from now on. */
  private moveOutOfKernel(): void {
    const n = this.n
    this.scores = this.scores.slice(0, n)
    this.hashes = this.hashes.slice(0, n)
    this.starts = this.starts.slice(0, n + 1)
    this.arena = this.arena.slice(0, this.arenaLen)
    this.resident = false
  }

  /** Room for `lines` more documents and `bytes` more docno bytes (columns in the kernel move out when full). */
  private reserve(lines: number, bytes: number): void {
    if (this.resident && (this.n + lines > this.scores.length || this.arenaLen + bytes > this.arena.length)) this.moveOutOfKernel()
    if (this.n + lines > this.scores.length) {
      const cap = Math.max(this.scores.length * 2, this.n + lines)
      const scores = new Float64Array(cap)
      scores.set(this.scores.subarray(0, this.n))
      this.scores = scores
      const hashes = new Int32Array(cap)
      hashes.set(this.hashes.subarray(0, this.n))
      this.hashes = hashes
      this.starts = grow32(this.starts, cap + 1)
    }
    if (this.arenaLen + bytes > this.arena.length) {
      const cap = Math.max(this.arena.length * 2, this.arenaLen + bytes)
      if (cap > 0xffffffff) {
        throw new TrecFormatError(this.fn, this.source, 0, 'a run whose docnos total less than 4 GiB', '(input too large)')
      }
      const arena = new Uint8Array(cap)
      arena.set(this.arena.subarray(0, this.arenaLen))
      this.arena = arena
    }
  }

  /** The line starting at `lineStart` has too few fields; its number is counted from the block start. */
  private malformed(buf: Uint8Array, blockStart: number, lineStart: number, blockLineNo: number): never {
    const lineNo = blockLineNo + countNewlines(buf, blockStart, lineStart)
    const text = decodeUtf8(buf, lineStart, buf.indexOf(10, lineStart)).replace(/\r$/, '')
    throw new TrecFormatError(this.fn, this.source, lineNo, RUN_LINE, text)
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
  checkOptionKeys('parseRun', options, TREC_PARSE_OPTION_KEYS)
  const builder = new RunBuilder('parseRun', options.source ?? 'run', text.length)
  builder.push(encodeUtf8(text))
  return builder.finish()
}
