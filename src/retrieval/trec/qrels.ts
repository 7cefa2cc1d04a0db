import { assertString } from '../../errors.js'
import { atolBytes, decodeUtf8, encodeUtf8, hashBytes } from './bytes.js'
import { TrecFormatError } from './errors.js'
import { LineFeeder, type BlockHandler } from './lines.js'
import { checkOptionKeys } from '../../options.js'
import { TREC_PARSE_OPTION_KEYS, type TrecParseOptions } from './run.js'

const QRELS_LINE = 'a qrels line `qid iter docno rel` (exactly four whitespace-separated fields)'

/** The judgments of one topic, in file order. */
export interface QrelsTopic {
  readonly docnos: readonly string[]
  /** `atol` of the rel field: ≥ relevance level = relevant, 0 ≤ rel < level = judged non-relevant, < 0 = unjudged. */
  readonly rels: readonly number[]
}

/**
 * @internal The judgments as the evaluator reads them, in file order: entry e belongs to topic `topic[e]` (an index
 * into `topicIds`, first appearance order), its docno is `arena[start[e], start[e + 1])` (UTF-8 bytes as in the
 * file, compared with `strcmp` semantics) with FNV-1a hash `hash[e]`, its value `rel[e]`.
 */
export interface QrelsEntries {
  readonly topicIds: readonly string[]
  readonly topicIndex: ReadonlyMap<string, number>
  readonly count: number
  readonly topic: Uint32Array
  readonly start: Uint32Array
  readonly arena: Uint8Array
  readonly hash: Int32Array
  readonly rel: Float64Array
}

/** Parsed qrels: topic id → judgments, topics in order of first appearance. */
export class TrecQrels {
  private byTopic: ReadonlyMap<string, QrelsTopic> | undefined

  /** @internal */
  constructor(readonly entries: QrelsEntries) {}

  /** Topic id → its judgments in file order, topics in order of first appearance (built on first use). */
  get topics(): ReadonlyMap<string, QrelsTopic> {
    if (this.byTopic === undefined) {
      const { topicIds, count, topic, start, arena, rel } = this.entries
      const lists = topicIds.map(() => ({ docnos: [] as string[], rels: [] as number[] }))
      for (let e = 0; e < count; e += 1) {
        const list = lists[topic[e] as number] as { docnos: string[]; rels: number[] }
        list.docnos.push(decodeUtf8(arena, start[e] as number, start[e + 1] as number))
        list.rels.push(rel[e] as number)
      }
      this.byTopic = new Map(topicIds.map((qid, t) => [qid, lists[t] as QrelsTopic]))
    }
    return this.byTopic
  }

  /** Topic ids in order of first appearance. */
  get topicIds(): string[] {
    return [...this.entries.topicIds]
  }

  /** Total number of judgments (qrels lines). */
  get size(): number {
    return this.entries.count
  }
}

/**
 * Incremental qrels reader (trec_eval 10.0 `get_qrels.c` rules): exactly four fields `qid iter docno rel`
 * separated by C whitespace, trailing whitespace allowed, `iter` ignored, `rel = atol(rel)`. Lines whose first
 * non-blank character is `#` are comments. Blank lines are skipped (trec_eval calls a blank qrels line malformed;
 * we accept them, which changes no value). Anything else throws {@link TrecFormatError}.
 * Judgments are kept as bytes in flat columns (no string or object per line): the evaluator needs nothing else.
 */
export class QrelsBuilder implements BlockHandler {
  private readonly feeder = new LineFeeder(this)
  private readonly topicIds: string[] = []
  private readonly topicIndex = new Map<string, number>()
  private current = -1
  private prevQid: Uint8Array = new Uint8Array(64)
  private prevQidLen = -1
  private count = 0
  private topic = new Uint32Array(1024)
  private start = new Uint32Array(1025)
  private hash = new Int32Array(1024)
  private rel = new Float64Array(1024)
  private arena = new Uint8Array(16384)
  private arenaLen = 0

  constructor(
    private readonly fn: string,
    private readonly source: string,
  ) {}

  push(chunk: Uint8Array): void {
    this.feeder.push(chunk)
  }

  /**
   * One loop over the block's lines, with the C-whitespace tests written out: qrels files are small, so most of
   * their lines are read before the JIT has optimized anything but a hot loop, and a call per byte or per line
   * costs more than the parse itself there.
   */
  block(buf: Uint8Array, start: number, end: number, lineNo: number): number {
    let lines = 0
    let p = start
    while (p < end) {
      const lineStart = p
      lines += 1
      // (every line in a block ends with \n; blanks here are C isspace without \n)
      let c = buf[p] as number
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
      if (c === 10 || c === 35) {
        p = buf.indexOf(10, p) + 1
        continue
      }
      // exactly four fields: qid iter docno rel (the iter field is not kept)
      const qs = p
      while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
      const qe = p
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
      while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
      const ds = p
      while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
      const de = p
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
      const rs = p
      while (c > 32 || c < 9 || (c > 13 && c !== 32)) c = buf[++p] as number
      const re = p
      while (c === 32 || (c >= 9 && c <= 13 && c !== 10)) c = buf[++p] as number
      if (rs === re || c !== 10) {
        const nl = buf.indexOf(10, lineStart)
        const text = decodeUtf8(buf, lineStart, nl).replace(/\r$/, '')
        throw new TrecFormatError(this.fn, this.source, lineNo + lines - 1, QRELS_LINE, text)
      }
      p += 1
      if (this.current < 0 || !this.sameQid(buf, qs, qe)) this.startTopic(buf, qs, qe)
      if (this.count === this.topic.length || this.arenaLen + (de - ds) > this.arena.length) this.grow(de - ds)
      const e = this.count
      const arena = this.arena
      const from = this.arenaLen
      let at = from
      for (let k = ds; k < de; k += 1) {
        arena[at] = buf[k] as number
        at += 1
      }
      this.topic[e] = this.current
      this.hash[e] = hashBytes(arena, from, at)
      this.rel[e] = atolBytes(buf, rs, re)
      this.arenaLen = at
      this.count = e + 1
      this.start[e + 1] = at
    }
    return lines
  }

  /** Room for one more entry and `bytes` more docno bytes. */
  private grow(bytes: number): void {
    if (this.count === this.topic.length) {
      const cap = this.topic.length * 2
      const topic = new Uint32Array(cap)
      const start = new Uint32Array(cap + 1)
      const hash = new Int32Array(cap)
      const rel = new Float64Array(cap)
      topic.set(this.topic)
      start.set(this.start)
      hash.set(this.hash)
      rel.set(this.rel)
      this.topic = topic
      this.start = start
      this.hash = hash
      this.rel = rel
    }
    if (this.arenaLen + bytes > this.arena.length) {
      const arena = new Uint8Array(Math.max(this.arena.length * 2, this.arenaLen + bytes))
      arena.set(this.arena.subarray(0, this.arenaLen))
      this.arena = arena
    }
  }

  private sameQid(buf: Uint8Array, qs: number, qe: number): boolean {
    const prev = this.prevQid
    if (qe - qs !== this.prevQidLen) return false
    for (let k = 0; k < qe - qs; k += 1) if (prev[k] !== buf[qs + k]) return false
    return true
  }

  private startTopic(buf: Uint8Array, qs: number, qe: number): void {
    // the qid's bytes go into one reused buffer (a slice per topic was most of this function's cost)
    if (qe - qs > this.prevQid.length) this.prevQid = new Uint8Array((qe - qs) * 2)
    for (let k = qs; k < qe; k += 1) this.prevQid[k - qs] = buf[k] as number
    this.prevQidLen = qe - qs
    const qid = decodeUtf8(buf, qs, qe)
    let t = this.topicIndex.get(qid)
    if (t === undefined) {
      t = this.topicIds.length
      this.topicIds.push(qid)
      this.topicIndex.set(qid, t)
    }
    this.current = t
  }

  finish(): TrecQrels {
    this.feeder.end()
    const n = this.count
    return new TrecQrels({
      topicIds: this.topicIds,
      topicIndex: this.topicIndex,
      count: n,
      topic: this.topic.subarray(0, n),
      start: this.start.subarray(0, n + 1),
      arena: this.arena.subarray(0, this.arenaLen),
      hash: this.hash.subarray(0, n),
      rel: this.rel.subarray(0, n),
    })
  }
}

/**
 * Parse the text of TREC qrels (`qid iter docno rel` per line) with trec_eval 10.0's rules: `iter` is ignored,
 * `rel` is read with C `atol`, `#` comment lines and blank lines are skipped, CRLF line ends and a UTF-8 BOM are
 * accepted. A line without exactly four fields throws {@link TrecFormatError} naming the source and line number.
 * A docno judged twice for one topic is kept here and refused by {@link trecEval}, as trec_eval does.
 *
 * @example
 * const qrels = parseQrels('301 0 D1 1\n301 0 D2 0\n', { source: 'qrels.txt' })
 * qrels.topics.get('301') // { docnos: ['D1', 'D2'], rels: [1, 0] }
 */
export function parseQrels(text: string, options: TrecParseOptions = {}): TrecQrels {
  assertString('parseQrels', 'text', text)
  checkOptionKeys('parseQrels', options, TREC_PARSE_OPTION_KEYS)
  const builder = new QrelsBuilder('parseQrels', options.source ?? 'qrels')
  builder.push(encodeUtf8(text))
  return builder.finish()
}
