import { assertString } from '../../errors.js'
import { atolBytes, decodeUtf8, encodeUtf8, isBlank } from './bytes.js'
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

/** Parsed qrels: topic id → judgments, topics in order of first appearance. */
export class TrecQrels {
  /** @internal */
  constructor(readonly topics: ReadonlyMap<string, QrelsTopic>) {}

  /** Topic ids in order of first appearance. */
  get topicIds(): string[] {
    return [...this.topics.keys()]
  }

  /** Total number of judgments (qrels lines). */
  get size(): number {
    let n = 0
    for (const t of this.topics.values()) n += t.docnos.length
    return n
  }
}

/**
 * Incremental qrels reader (trec_eval 10.0 `get_qrels.c` rules): exactly four fields `qid iter docno rel`
 * separated by C whitespace, trailing whitespace allowed, `iter` ignored, `rel = atol(rel)`. Lines whose first
 * non-blank character is `#` are comments. Blank lines are skipped (trec_eval calls a blank qrels line malformed;
 * we accept them, which changes no value). Anything else throws {@link TrecFormatError}.
 */
export class QrelsBuilder implements BlockHandler {
  private readonly feeder = new LineFeeder(this)
  private readonly topics = new Map<string, { docnos: string[]; rels: number[] }>()
  private current: { docnos: string[]; rels: number[] } | undefined
  private prevQid: Uint8Array = new Uint8Array(0)

  constructor(
    private readonly fn: string,
    private readonly source: string,
  ) {}

  push(chunk: Uint8Array): void {
    this.feeder.push(chunk)
  }

  block(buf: Uint8Array, start: number, end: number, lineNo: number): number {
    let lines = 0
    for (let p = start; p < end; lines += 1) {
      const nl = buf.indexOf(10, p)
      this.line(buf, p, nl, lineNo + lines)
      p = nl + 1
    }
    return lines
  }

  private line(buf: Uint8Array, start: number, end: number, lineNo: number): void {
    let p = start
    while (p < end && isBlank(buf[p] as number)) p += 1
    if (p === end || buf[p] === 35) return
    // exactly four fields: qid iter docno rel (the iter field is not kept)
    const qs = p
    while (p < end && !isBlank(buf[p] as number)) p += 1
    const qe = p
    while (p < end && isBlank(buf[p] as number)) p += 1
    while (p < end && !isBlank(buf[p] as number)) p += 1
    while (p < end && isBlank(buf[p] as number)) p += 1
    const ds = p
    while (p < end && !isBlank(buf[p] as number)) p += 1
    const de = p
    while (p < end && isBlank(buf[p] as number)) p += 1
    const rs = p
    while (p < end && !isBlank(buf[p] as number)) p += 1
    const re = p
    while (p < end && isBlank(buf[p] as number)) p += 1
    if (rs === re || p !== end) {
      throw new TrecFormatError(this.fn, this.source, lineNo, QRELS_LINE, decodeUtf8(buf, start, end).replace(/\r$/, ''))
    }
    if (this.current === undefined || !this.sameQid(buf, qs, qe)) this.startTopic(buf, qs, qe)
    const current = this.current as { docnos: string[]; rels: number[] }
    current.docnos.push(decodeUtf8(buf, ds, de))
    current.rels.push(atolBytes(buf, rs, re))
  }

  private sameQid(buf: Uint8Array, qs: number, qe: number): boolean {
    const prev = this.prevQid
    if (qe - qs !== prev.length) return false
    for (let k = 0; k < prev.length; k += 1) if (prev[k] !== buf[qs + k]) return false
    return true
  }

  private startTopic(buf: Uint8Array, qs: number, qe: number): void {
    this.prevQid = buf.slice(qs, qe)
    const qid = decodeUtf8(buf, qs, qe)
    this.current = this.topics.get(qid)
    if (this.current === undefined) {
      this.current = { docnos: [], rels: [] }
      this.topics.set(qid, this.current)
    }
  }

  finish(): TrecQrels {
    this.feeder.end()
    return new TrecQrels(this.topics)
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
