import { MetricInputError, assertPositiveInteger } from '../../errors.js'
import { compareBytes, compareUtf8, decodeUtf8, encodeUtf8, hashBytes } from './bytes.js'
import { TrecEvalError } from './errors.js'
import {
  RELVALUE_NONPOOL,
  RELVALUE_UNJUDGED,
  relString,
  resolveMeasures,
  type MeasureEnv,
  type MeasureInstance,
  type ResRels,
  type TrecValueKind,
} from './measures.js'
import { TrecQrels } from './qrels.js'
import { TrecRun } from './run.js'

export interface TrecEvalOptions {
  /** `-c`: average over every qrels topic; a topic without results scores 0 (trec_eval's bogus one-doc ranking). Default false. */
  readonly completeTopics?: boolean
  /** `-l`: smallest qrels value that counts as relevant. Default 1. */
  readonly relevanceLevel?: number
  /** `-M`: evaluate only the first N documents of each ranking. Default: all. */
  readonly maxRetrieved?: number
  /** `-J`: drop unjudged documents from each ranking before evaluating (trec_eval: "DO NOT USE" unless you mean it). */
  readonly judgedOnly?: boolean
  /** `-N`: collection size, used only by `utility`'s fourth coefficient. Default 0. */
  readonly numDocsInCollection?: number
}

/** One printed value: trec_eval's name (`P_10`), how it prints, and where it appears. */
export interface TrecEvalColumn {
  readonly name: string
  /** the trec_eval measure it belongs to (`P`) */
  readonly measure: string
  readonly kind: TrecValueKind
  /** printed per topic with `-q` */
  readonly perQuery: boolean
  /** printed in the `all` summary */
  readonly summary: boolean
  /** index into {@link TrecEvalTable.values} rows, or -1 for string columns (runid, relstring) */
  readonly slot: number
}

/** Everything trec_eval prints, in its order, with values at full precision. */
export interface TrecEvalTable {
  readonly columns: readonly TrecEvalColumn[]
  /** evaluated topics, in trec_eval's order (qrels topic ids sorted by `strcmp`) */
  readonly topics: readonly string[]
  /** per-topic values, row-major: `values[t * width + slot]` */
  readonly values: Float64Array
  readonly width: number
  /** the `all` values per slot (means, sums, geometric means, num_q) */
  readonly summary: Float64Array
  readonly runId: string
  /** relstring per topic (when requested) */
  readonly relstrings: readonly string[] | undefined
}

export interface TrecEvalResult {
  /** topic → measure → value, for what trec_eval prints per topic with `-q` (not gm_map, gm_bpref, num_q, runid) */
  readonly perQuery: Record<string, Record<string, number>>
  /** the `all` line of every numeric measure */
  readonly mean: Record<string, number>
  /** evaluated topics in trec_eval's order */
  readonly topics: string[]
  /** `runid` (the run_id of the run's last line) */
  readonly runId: string
  /** `relstring` per topic, when requested */
  readonly relstring?: Record<string, string>
}

const BOGUS_DOCNO = 'ceci_nest_pas_un_docno'

/**
 * trec_eval 10.0, in process. Topics are the qrels topics (sorted by `strcmp`); each one's ranking is the run's
 * documents sorted by score descending, ties by docno descending (byte order), cut at `maxRetrieved`; a document
 * is relevant when its qrels value is ≥ `relevanceLevel`, documents missing from the qrels count as non-relevant.
 * Measures are requested as trec_eval takes them (`P.5,10`, `ndcg_cut.10`, `map`, `recip_rank`, `official`,
 * `all_trec`; a bare name uses trec_eval's default cutoffs) and reported under trec_eval's printed names (`P_5`,
 * `ndcg_cut_10`). Means are arithmetic over the evaluated topics; `num_ret`, `num_rel`, `num_rel_ret` and
 * `num_nonrel_judged_ret` are sums; `gm_map`, `gm_bpref` geometric means (values floored at 1e-5).
 *
 * Edge cases (all as trec_eval 10.0): run topics absent from the qrels are ignored; a qrels topic absent from the
 * run throws {@link TrecEvalError} (trec_eval exits 4) unless `completeTopics` (-c), which scores it 0 and averages
 * over all qrels topics; a docno retrieved twice (or judged twice) for an evaluated topic throws; a topic with no
 * relevant documents scores 0 on every measure except bpref-like counts. Parity: every per-topic and summary value
 * of the golden `trec_cases` (trec_eval 10.0 built with %.17g printing) and of trec_eval's own test runs to 1e-12;
 * trec_eval's stock 4-decimal output byte for byte via {@link formatTrecEval}.
 *
 * @example
 * const qrels = parseQrels('q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\n')
 * const run = parseRun('q1 Q0 d2 1 0.9 r\nq1 Q0 d1 2 0.9 r\nq1 Q0 d3 3 0.1 r\n')
 * const { perQuery, mean } = trecEval(qrels, run, ['P.1,2', 'recip_rank', 'ndcg_cut.3'])
 * perQuery.q1 // { P_1: 0, P_2: 0.5, recip_rank: 0.5, ndcg_cut_3: 0.5585… } (ties: d2 ranks above d1)
 * mean.P_2 // 0.5
 */
export function trecEval(qrels: TrecQrels, run: TrecRun, measures: readonly string[], options: TrecEvalOptions = {}): TrecEvalResult {
  return tableToResult(evaluateTrec(qrels, run, measures, options, 'trecEval'))
}

/** Records view of a {@link TrecEvalTable}. */
export function tableToResult(table: TrecEvalTable): TrecEvalResult {
  const perQuery: Record<string, Record<string, number>> = {}
  const mean: Record<string, number> = {}
  const numeric = table.columns.filter((c) => c.slot >= 0)
  table.topics.forEach((topic, t) => {
    const row: Record<string, number> = {}
    for (const c of numeric) if (c.perQuery) row[c.name] = table.values[t * table.width + c.slot] as number
    perQuery[topic] = row
  })
  for (const c of numeric) if (c.summary) mean[c.name] = table.summary[c.slot] as number
  const result: TrecEvalResult = { perQuery, mean, topics: [...table.topics], runId: table.runId }
  if (table.relstrings) {
    const relstring: Record<string, string> = {}
    table.topics.forEach((topic, t) => {
      relstring[topic] = table.relstrings?.[t] ?? ''
    })
    return { ...result, relstring }
  }
  return result
}

/**
 * The engine behind {@link trecEval}: the same evaluation, returned as a table of columns in trec_eval's print
 * order (what {@link formatTrecEval} prints) instead of records.
 */
export function evaluateTrec(
  qrels: TrecQrels,
  run: TrecRun,
  measures: readonly string[],
  options: TrecEvalOptions = {},
  fn = 'evaluateTrec',
): TrecEvalTable {
  if (!(qrels instanceof TrecQrels)) throw new MetricInputError(fn, 'qrels', 'qrels from parseQrels/parseQrelsStream', qrels)
  if (!(run instanceof TrecRun)) throw new MetricInputError(fn, 'run', 'a run from parseRun/parseRunStream', run)
  if (!Array.isArray(measures) || measures.length === 0) {
    throw new MetricInputError(fn, 'measures', 'a non-empty array of trec_eval measures (e.g. ["map", "P.10"])', measures)
  }
  const relevanceLevel = options.relevanceLevel ?? 1
  if (!Number.isInteger(relevanceLevel)) throw new MetricInputError(fn, 'relevanceLevel', 'an integer', relevanceLevel)
  const maxRetrieved = options.maxRetrieved ?? Number.MAX_SAFE_INTEGER
  assertPositiveInteger(fn, 'maxRetrieved', maxRetrieved)
  const numDocsInColl = options.numDocsInCollection ?? 0
  if (!Number.isInteger(numDocsInColl) || numDocsInColl < 0) {
    throw new MetricInputError(fn, 'numDocsInCollection', 'a non-negative integer', numDocsInColl)
  }
  const instances = resolveMeasures(fn, measures)
  const env: MeasureEnv = { relevanceLevel, numDocsInColl }

  // Columns in print order; numeric ones get a slot in the per-topic row.
  const columns: TrecEvalColumn[] = []
  const slotOf: number[] = []
  let width = 0
  let relstringInstance: MeasureInstance | undefined
  for (const m of instances) {
    slotOf.push(width)
    const d = m.def
    for (const name of m.names) {
      const numeric = d.kind !== 'string'
      columns.push({ name, measure: d.name, kind: d.kind, perQuery: d.perQuery, summary: d.summary, slot: numeric ? width : -1 })
      if (numeric) width += 1
    }
    if (d.name === 'relstring') relstringInstance = m
  }
  const needsRanking = instances.some((m) => m.def.ranked)

  const index = new QrelsIndex(qrels)
  if (index.topics.length === 0) {
    throw new TrecEvalError(fn, 'qrels', 'qrels with at least one judgment', 'empty-qrels', undefined, undefined)
  }
  const ranker = new Ranker(run, index, maxRetrieved, options.judgedOnly ?? false, relevanceLevel)
  const topics = index.topics
  const values = new Float64Array(topics.length * width)
  const relstrings: string[] | undefined = relstringInstance ? [] : undefined
  // What trec_eval resets after scoring a missing topic's bogus ranking (it matches these exact value names).
  const resetSlots = columns
    .filter((c) => c.slot >= 0 && (c.name === 'num_ret' || c.name === 'utility' || c.name === 'rbp_resid' || c.name.startsWith('unj')))
    .map((c) => c.slot)

  for (let q = 0; q < topics.length; q += 1) {
    const qid = topics[q] as string
    const runTopic = run.topicIndex(qid)
    if (runTopic < 0 && !options.completeTopics) {
      throw new TrecEvalError(
        fn,
        'run',
        'results for every qrels topic (trec_eval 10.0 exits 4 here; pass `completeTopics: true`, trec_eval -c, to score missing topics as 0)',
        'missing-topic',
        qid,
        undefined,
      )
    }
    const rr = needsRanking ? ranker.rank(fn, q, runTopic) : EMPTY_RES_RELS
    const row = q * width
    instances.forEach((m, k) => {
      m.def.calc(rr, m, values, row + (slotOf[k] as number), env)
    })
    if (relstrings && relstringInstance) relstrings.push(runTopic < 0 ? '' : relString(rr, relstringInstance))
    if (runTopic < 0) for (const s of resetSlots) values[row + s] = 0
  }

  const summary = new Float64Array(width)
  const n = topics.length
  instances.forEach((m, k) => {
    const first = slotOf[k] as number
    const count = m.def.kind === 'string' ? 0 : m.names.length
    for (let s = first; s < first + count; s += 1) {
      let sum = 0
      for (let q = 0; q < n; q += 1) sum += values[q * width + s] as number
      switch (m.def.avg) {
        case 'mean':
          summary[s] = n ? sum / n : sum
          break
        case 'gm':
          summary[s] = n > 0 ? Math.exp(sum / n) : sum
          break
        case 'numq':
          summary[s] = n
          break
        default:
          summary[s] = sum
      }
    }
  })
  return { columns, topics, values, width, summary, runId: run.runId, relstrings }
}

const EMPTY_RES_RELS: ResRels = {
  rel: new Float64Array(0),
  numRet: 0,
  numRel: 0,
  numRelRet: 0,
  numNonpool: 0,
  numUnjudged: 0,
  numRelLevels: 0,
  levelCount: () => 0,
}

/**
 * The qrels as a byte-keyed hash table, so that a run's docno bytes are looked up without making strings:
 * key (topic, docno bytes) → qrels value. Also per topic: the count of each value ≥ 0, and the first duplicated
 * docno (in byte order), which trec_eval refuses when it evaluates the topic.
 */
class QrelsIndex {
  readonly topics: string[]
  readonly arena: Uint8Array
  readonly start: Uint32Array
  readonly hash: Int32Array
  readonly topicOf: Uint32Array
  readonly rel: Float64Array
  readonly table: Int32Array
  readonly mask: number
  /** per topic: value → count for values ≥ 0 */
  readonly levels: Array<Map<number, number>>
  readonly numRelLevels: number[]
  readonly duplicate: Array<string | undefined>

  constructor(qrels: TrecQrels) {
    this.topics = [...qrels.topics.keys()].sort(compareUtf8)
    let count = 0
    let bytes = 0
    const encoded: Uint8Array[][] = []
    for (const qid of this.topics) {
      const docnos = (qrels.topics.get(qid) as { docnos: readonly string[] }).docnos
      const list = docnos.map(encodeUtf8)
      encoded.push(list)
      count += list.length
      for (const b of list) bytes += b.length
    }
    this.arena = new Uint8Array(bytes)
    this.start = new Uint32Array(count + 1)
    this.hash = new Int32Array(count)
    this.topicOf = new Uint32Array(count)
    this.rel = new Float64Array(count)
    let size = 16
    while (size < count * 2) size *= 2
    this.table = new Int32Array(size).fill(-1)
    this.mask = size - 1
    this.levels = []
    this.numRelLevels = []
    this.duplicate = []
    let e = 0
    let at = 0
    this.topics.forEach((qid, t) => {
      const topic = qrels.topics.get(qid) as { rels: readonly number[] }
      const levels = new Map<number, number>()
      let maxRel = -Infinity
      let dup: Uint8Array | undefined
      ;(encoded[t] as Uint8Array[]).forEach((b, k) => {
        const rel = topic.rels[k] as number
        this.arena.set(b, at)
        this.start[e] = at
        at += b.length
        this.start[e + 1] = at
        const h = hashBytes(b, 0, b.length)
        this.hash[e] = h
        this.topicOf[e] = t
        this.rel[e] = rel
        if (rel > maxRel) maxRel = rel
        if (rel >= 0) levels.set(rel, (levels.get(rel) ?? 0) + 1)
        const existing = this.find(t, this.arena, this.start[e] as number, at, h)
        if (existing >= 0) {
          if (dup === undefined || compareBytes(b, 0, b.length, dup, 0, dup.length) < 0) dup = b
        } else {
          let slot = this.slot(t, h)
          while ((this.table[slot] as number) >= 0) slot = (slot + 1) & this.mask
          this.table[slot] = e
        }
        e += 1
      })
      this.levels.push(levels)
      // trec_eval sizes its level array by the largest value; with no value ≥ 0 there are no levels
      this.numRelLevels.push(maxRel >= 0 ? maxRel + 1 : 0)
      this.duplicate.push(dup && decodeUtf8(dup, 0, dup.length))
    })
  }

  private slot(topic: number, h: number): number {
    return (Math.imul(h ^ Math.imul(topic + 1, 0x9e3779b1), 0x85ebca6b) >>> 0) & this.mask
  }

  /** Entry index of docno bytes `buf[start, end)` (hash `h`) in topic `topic`, or -1. */
  find(topic: number, buf: Uint8Array, start: number, end: number, h: number): number {
    let slot = this.slot(topic, h)
    for (;;) {
      const e = this.table[slot] as number
      if (e < 0) return -1
      if (this.hash[e] === h && this.topicOf[e] === topic && compareBytes(this.arena, this.start[e] as number, this.start[e + 1] as number, buf, start, end) === 0) {
        return e
      }
      slot = (slot + 1) & this.mask
    }
  }
}

/**
 * Builds each topic's ranked relevance list (trec_eval's `form_res_rels`), reusing scratch buffers across topics.
 */
class Ranker {
  private idx = new Uint32Array(1024)
  private rel = new Float64Array(1024)
  private seen = new Int32Array(2048)
  private readonly bogus: { bytes: Uint8Array; hash: number }

  constructor(
    private readonly run: TrecRun,
    private readonly qrels: QrelsIndex,
    private readonly maxRetrieved: number,
    private readonly judgedOnly: boolean,
    private readonly level: number,
  ) {
    const bytes = encodeUtf8(BOGUS_DOCNO)
    this.bogus = { bytes, hash: hashBytes(bytes, 0, bytes.length) }
  }

  rank(fn: string, q: number, runTopic: number): ResRels {
    const qrels = this.qrels
    const qid = qrels.topics[q] as string
    const levels = qrels.levels[q] as Map<number, number>
    let rel: Float64Array
    let numRet: number
    if (runTopic < 0) {
      // -c and no results: trec_eval ranks one bogus, never-judged docno
      rel = this.rel
      const e = qrels.find(q, this.bogus.bytes, 0, this.bogus.bytes.length, this.bogus.hash)
      rel[0] = e < 0 ? RELVALUE_NONPOOL : toRel(qrels.rel[e] as number)
      numRet = Math.min(1, this.maxRetrieved)
    } else {
      numRet = this.sortTopic(runTopic)
      this.checkDuplicates(fn, qid, numRet)
      if (this.rel.length < numRet) this.rel = new Float64Array(Math.max(numRet, this.rel.length * 2))
      rel = this.rel
      const run = this.run
      const idx = this.idx
      for (let k = 0; k < numRet; k += 1) {
        const i = idx[k] as number
        const e = qrels.find(q, run.arena, run.docStart[i] as number, run.docStart[i + 1] as number, run.hashes[i] as number)
        rel[k] = e < 0 ? RELVALUE_NONPOOL : toRel(qrels.rel[e] as number)
      }
    }
    const dup = qrels.duplicate[q]
    if (dup !== undefined) {
      throw new TrecEvalError(fn, 'qrels', 'each docno judged at most once per topic (trec_eval refuses the file)', 'duplicate-qrels-docno', qid, dup)
    }
    let numRelRet = 0
    let numNonpool = 0
    let numUnjudged = 0
    if (this.judgedOnly) {
      // -J: keep judged documents only, in rank order
      let kept = 0
      for (let k = 0; k < numRet; k += 1) {
        const r = rel[k] as number
        if (r < 0) continue
        if (r >= this.level) numRelRet += 1
        rel[kept] = r
        kept += 1
      }
      numRet = kept
    } else {
      for (let k = 0; k < numRet; k += 1) {
        const r = rel[k] as number
        if (r === RELVALUE_NONPOOL) numNonpool += 1
        else if (r === RELVALUE_UNJUDGED) numUnjudged += 1
        else if (r >= this.level) numRelRet += 1
      }
    }
    let numRel = 0
    for (const [value, count] of levels) if (value >= this.level) numRel += count
    return {
      rel,
      numRet,
      numRel,
      numRelRet,
      numNonpool,
      numUnjudged,
      numRelLevels: qrels.numRelLevels[q] as number,
      levelCount: (value) => levels.get(value) ?? 0,
    }
  }

  /** Fills `idx` with the topic's documents in rank order; returns how many are evaluated (after -M). */
  private sortTopic(t: number): number {
    const run = this.run
    const from = run.topicOffset[t] as number
    const n = (run.topicOffset[t + 1] as number) - from
    if (this.idx.length < n) this.idx = new Uint32Array(Math.max(n, this.idx.length * 2))
    const idx = this.idx
    const order = run.order
    for (let k = 0; k < n; k += 1) idx[k] = order[from + k] as number
    const scores = run.scores
    // Runs are usually written in rank order already: then only equal-score stretches need ordering by docno.
    let sorted = true
    for (let k = 1; k < n; k += 1) {
      if (!((scores[idx[k - 1] as number] as number) >= (scores[idx[k] as number] as number))) {
        sorted = false
        break
      }
    }
    const cmp = (a: number, b: number): number => {
      const sa = scores[a] as number
      const sb = scores[b] as number
      if (sa > sb) return -1
      if (sa < sb) return 1
      // ties: docno descending, byte order (trec_eval comp_sim_docno: strcmp(p2, p1))
      return compareBytes(run.arena, run.docStart[b] as number, run.docStart[b + 1] as number, run.arena, run.docStart[a] as number, run.docStart[a + 1] as number)
    }
    if (sorted) {
      let k = 0
      while (k < n) {
        const s = scores[idx[k] as number]
        let j = k + 1
        while (j < n && scores[idx[j] as number] === s) j += 1
        if (j - k > 1) idx.subarray(k, j).sort(cmp)
        k = j
      }
    } else {
      idx.subarray(0, n).sort(cmp)
    }
    return Math.min(n, this.maxRetrieved)
  }

  /** trec_eval refuses a docno retrieved twice among the evaluated documents; it names the smallest such docno. */
  private checkDuplicates(fn: string, qid: string, n: number): void {
    let size = 16
    while (size < n * 2) size *= 2
    if (this.seen.length < size) this.seen = new Int32Array(size)
    const seen = this.seen
    seen.fill(-1, 0, size)
    const mask = size - 1
    const run = this.run
    const idx = this.idx
    let dup = -1
    for (let k = 0; k < n; k += 1) {
      const i = idx[k] as number
      const h = run.hashes[i] as number
      let slot = (Math.imul(h, 0x85ebca6b) >>> 0) & mask
      let isDup = false
      for (;;) {
        const j = seen[slot] as number
        if (j < 0) break
        if (run.hashes[j] === h && compareBytes(run.arena, run.docStart[i] as number, run.docStart[i + 1] as number, run.arena, run.docStart[j] as number, run.docStart[j + 1] as number) === 0) {
          isDup = true
          break
        }
        slot = (slot + 1) & mask
      }
      if (!isDup) seen[slot] = i
      else if (dup < 0 || compareBytes(run.arena, run.docStart[i] as number, run.docStart[i + 1] as number, run.arena, run.docStart[dup] as number, run.docStart[dup + 1] as number) < 0) dup = i
    }
    if (dup >= 0) {
      const docno = decodeUtf8(run.arena, run.docStart[dup] as number, run.docStart[dup + 1] as number)
      throw new TrecEvalError(fn, 'run', 'each docno retrieved at most once per topic (trec_eval exits 4: "duplicate docs")', 'duplicate-docno', qid, docno)
    }
  }
}

/** A qrels value as trec_eval ranks it: negative values mean "in the pool but unjudged". */
function toRel(value: number): number {
  return value < 0 ? RELVALUE_UNJUDGED : value
}
