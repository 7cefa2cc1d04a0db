import { MetricInputError, assertPositiveInteger } from '../../errors.js'
import { keysOf } from '../../option-keys.js'
import { checkOptionKeys } from '../../options.js'
import { compareBytes, compareUtf8, decodeUtf8, encodeUtf8 } from './bytes.js'
import { TrecEvalError } from './errors.js'
import { trecRankOrder } from '../order.js'
import { RELVALUE_NONPOOL, RELVALUE_UNJUDGED, relString, resolveMeasures, type MeasureEnv, type MeasureInstance, type ResRels, type TrecValueKind } from './measures.js'
import { TrecQrels } from './qrels.js'
import { TABLE_SLOTS, type RunKernel } from './run-kernel.js'
import { kernelOf, TrecRun } from './run.js'

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

/** The keys of {@link TrecEvalOptions}: what trecEval and evaluateTrec accept. */
export const TREC_EVAL_OPTION_KEYS = keysOf<TrecEvalOptions>()('completeTopics', 'relevanceLevel', 'maxRetrieved', 'judgedOnly', 'numDocsInCollection')

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
 * relevant documents is kept and scores 0 on the precision, recall and rank measures (it still counts in the
 * means, as in trec_eval). Parity: every per-topic and summary value
 * of the golden `trec_cases` (trec_eval 10.0 built with %.17g printing) and of trec_eval's own test runs to 1e-12;
 * trec_eval's stock 4-decimal output byte for byte via {@link formatTrecEval}.
 *
 * @example
 * const qrels = parseQrels('q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\n')
 * const run = parseRun('q1 Q0 d2 1 0.9 r\nq1 Q0 d1 2 0.9 r\nq1 Q0 d3 3 0.1 r\n')
 * const { perQuery, mean } = trecEval(qrels, run, ['P.1,2', 'recip_rank', 'ndcg_cut.3'])
 * perQuery.q1 // { recip_rank: 0.5, P_1: 0, P_2: 0.5, ndcg_cut_3: 0.6199062332840657 } (tie: d2 ranks above d1)
 * mean.P_2 // 0.5
 */
export function trecEval(qrels: TrecQrels, run: TrecRun, measures: readonly string[], options: TrecEvalOptions = {}): TrecEvalResult {
  return tableToResult(evaluateTrec(qrels, run, measures, options, 'trecEval'))
}

/**
 * Records view of a {@link TrecEvalTable}: per-topic values of what trec_eval prints per topic, the summary of every
 * numeric measure, the topics, the run id and (when requested) relstrings.
 *
 * @example
 * const table = evaluateTrec(qrels, run, ['map', 'gm_map'])
 * tableToResult(table).mean // { map: …, gm_map: … } (gm_map has a summary value only, as in trec_eval)
 */
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
 * order (what {@link formatTrecEval} prints) instead of records. Values are kept in one Float64Array
 * (`values[topic * width + slot]`), which is what the CLI prints from on 100,000-topic runs.
 *
 * @example
 * const table = evaluateTrec(parseQrels('q 0 a 1\n'), parseRun('q Q0 a 1 1 myrun\n'), ['P.1', 'num_ret'])
 * table.columns.map((c) => c.name) // ['num_ret', 'P_1'] (trec_eval's order)
 * table.summary[table.columns[1].slot] // 1
 */
export function evaluateTrec(qrels: TrecQrels, run: TrecRun, measures: readonly string[], options: TrecEvalOptions = {}, fn = 'evaluateTrec'): TrecEvalTable {
  if (!(qrels instanceof TrecQrels)) throw new MetricInputError(fn, 'qrels', 'qrels from parseQrels/parseQrelsStream', qrels)
  if (!(run instanceof TrecRun)) throw new MetricInputError(fn, 'run', 'a run from parseRun/parseRunStream', run)
  const evaluation = new TrecEvaluation(qrels, measures, options, fn)
  const ranker = evaluation.ranker(run)
  const topics = evaluation.topics
  for (let q = 0; q < topics.length; q += 1) {
    const runTopic = run.topicIndex(topics[q] as string)
    if (runTopic < 0) evaluation.missing(q)
    evaluation.row(ranker, q, runTopic)
  }
  return evaluation.table(run.runId)
}

/**
 * One evaluation, split so that it can also be fed a run topic by topic (`evaluate-file.ts`): the checked
 * options and measure columns, the per-topic rows, and the summary. Rows are independent of each other, so the
 * order in which they are computed does not change any value.
 */
export class TrecEvaluation {
  readonly columns: TrecEvalColumn[] = []
  /** qrels topics in trec_eval's order */
  readonly topics: readonly string[]
  readonly width: number
  readonly values: Float64Array
  private readonly instances: MeasureInstance[]
  private readonly slotOf: number[] = []
  private readonly relstringInstance: MeasureInstance | undefined
  private readonly relstrings: string[] | undefined
  private readonly needsRanking: boolean
  private readonly env: MeasureEnv
  private readonly index: QrelsIndex
  private readonly resetSlots: number[]
  private readonly topicOf = new Map<string, number>()

  constructor(
    qrels: TrecQrels,
    measures: readonly string[],
    private readonly options: TrecEvalOptions,
    private readonly fn: string,
  ) {
    if (!(qrels instanceof TrecQrels)) throw new MetricInputError(fn, 'qrels', 'qrels from parseQrels/parseQrelsStream', qrels)
    if (!Array.isArray(measures) || measures.length === 0) {
      throw new MetricInputError(fn, 'measures', 'a non-empty array of trec_eval measures (e.g. ["map", "P.10"])', measures)
    }
    checkOptionKeys(fn, options, TREC_EVAL_OPTION_KEYS)
    const relevanceLevel = options.relevanceLevel ?? 1
    if (!Number.isInteger(relevanceLevel)) throw new MetricInputError(fn, 'relevanceLevel', 'an integer', relevanceLevel)
    assertPositiveInteger(fn, 'maxRetrieved', options.maxRetrieved ?? Number.MAX_SAFE_INTEGER)
    const numDocsInColl = options.numDocsInCollection ?? 0
    if (!Number.isInteger(numDocsInColl) || numDocsInColl < 0) {
      throw new MetricInputError(fn, 'numDocsInCollection', 'a non-negative integer', numDocsInColl)
    }
    this.instances = resolveMeasures(fn, measures)
    this.env = { relevanceLevel, numDocsInColl }

    // Columns in print order; numeric ones get a slot in the per-topic row.
    let width = 0
    let relstringInstance: MeasureInstance | undefined
    for (const m of this.instances) {
      this.slotOf.push(width)
      const d = m.def
      for (const name of m.names) {
        const numeric = d.kind !== 'string'
        this.columns.push({ name, measure: d.name, kind: d.kind, perQuery: d.perQuery, summary: d.summary, slot: numeric ? width : -1 })
        if (numeric) width += 1
      }
      if (d.name === 'relstring') relstringInstance = m
    }
    this.width = width
    this.relstringInstance = relstringInstance
    this.needsRanking = this.instances.some((m) => m.def.ranked)

    this.index = new QrelsIndex(qrels)
    if (this.index.topics.length === 0) {
      throw new TrecEvalError(fn, 'qrels', 'qrels with at least one judgment', 'empty-qrels', undefined, undefined)
    }
    this.topics = this.index.topics
    this.topics.forEach((qid, q) => this.topicOf.set(qid, q))
    this.values = new Float64Array(this.topics.length * width)
    this.relstrings = relstringInstance ? new Array<string>(this.topics.length).fill('') : undefined
    // What trec_eval resets after scoring a missing topic's bogus ranking (it matches these exact value names).
    this.resetSlots = this.columns
      .filter((c) => c.slot >= 0 && (c.name === 'num_ret' || c.name === 'utility' || c.name === 'rbp_resid' || c.name.startsWith('unj')))
      .map((c) => c.slot)
  }

  /** A ranker over `run` (one per run or batch; it keeps scratch buffers between topics). */
  ranker(run: TrecRun): Ranker {
    return new Ranker(run, this.index, this.options.maxRetrieved ?? Number.MAX_SAFE_INTEGER, this.options.judgedOnly ?? false, this.env.relevanceLevel)
  }

  /** Index of a qrels topic in {@link topics}, or -1 (run topics absent from the qrels are not evaluated). */
  topicIndex(qid: string): number {
    return this.topicOf.get(qid) ?? -1
  }

  /** Qrels topic `q` has no results: an error unless `completeTopics` (then {@link row} scores its bogus ranking). */
  missing(q: number): void {
    if (this.options.completeTopics) return
    throw new TrecEvalError(
      this.fn,
      'run',
      'results for every qrels topic (trec_eval 10.0 exits 4 here; pass `completeTopics: true`, trec_eval -c, to score missing topics as 0)',
      'missing-topic',
      this.topics[q],
      undefined,
    )
  }

  /** Computes the row of qrels topic `q` from topic `runTopic` of the ranker's run (-1: no results). */
  row(ranker: Ranker, q: number, runTopic: number): void {
    const rr = this.needsRanking ? ranker.rank(this.fn, q, runTopic) : EMPTY_RES_RELS
    const row = q * this.width
    const values = this.values
    this.instances.forEach((m, k) => {
      m.def.calc(rr, m, values, row + (this.slotOf[k] as number), this.env)
    })
    if (this.relstrings && this.relstringInstance) this.relstrings[q] = runTopic < 0 ? '' : relString(rr, this.relstringInstance)
    if (runTopic < 0) for (const s of this.resetSlots) values[row + s] = 0
  }

  /** The table, once every row is computed: summary values over all topics, in topic order. */
  table(runId: string): TrecEvalTable {
    const { width, values } = this
    const summary = new Float64Array(width)
    const n = this.topics.length
    this.instances.forEach((m, k) => {
      const first = this.slotOf[k] as number
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
    return { columns: this.columns, topics: this.topics, values, width, summary, runId, relstrings: this.relstrings }
  }
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
  positiveLevels: [],
}

/**
 * The qrels in the form the ranker needs: per topic (in trec_eval's order) the judged docnos as UTF-8 bytes with
 * their hashes and values, the count of each value ≥ 0, and the smallest docno judged twice (trec_eval refuses
 * the topic when it evaluates it).
 */
class QrelsIndex {
  readonly topics: string[]
  /** topic t owns entries `first[t] .. first[t + 1]` */
  readonly first: Uint32Array
  readonly arena: Uint8Array
  /** entry e's docno is `arena[start[e] .. start[e + 1])` */
  readonly start: Uint32Array
  readonly hash: Int32Array
  readonly rel: Float64Array
  /** topic t's distinct values ≥ 0 are `levelValue[levelFirst[t] .. levelFirst[t + 1])`, counted in `levelCount` */
  readonly levelFirst: Uint32Array
  readonly levelValue: Float64Array
  readonly levelCount: Uint32Array
  /** per topic: the values > 0 present, highest first (topics with the same values share one array) */
  readonly positiveLevels: number[][] = []
  readonly numRelLevels: number[] = []
  readonly duplicate: Array<string | undefined> = []

  constructor(qrels: TrecQrels) {
    // (this runs once, mostly before the JIT has compiled it: locals rather than fields, and no per-topic objects
    // beyond what the index keeps)
    const { topicIds, topicIndex, count, topic: topicOf, start: srcStart, arena: srcArena, hash: srcHash, rel: srcRel } = qrels.entries
    const topics = sortUtf8([...topicIds])
    this.topics = topics
    const numTopics = topics.length
    // entries grouped by topic in trec_eval's order, file order within a topic (a counting sort)
    const rank = new Uint32Array(numTopics)
    for (let t = 0; t < numTopics; t += 1) rank[topicIndex.get(topics[t] as string) as number] = t
    const first = new Uint32Array(numTopics + 1)
    for (let e = 0; e < count; e += 1) {
      const t = (rank[topicOf[e] as number] as number) + 1
      first[t] = (first[t] as number) + 1
    }
    for (let t = 0; t < numTopics; t += 1) first[t + 1] = (first[t + 1] as number) + (first[t] as number)
    const fill = first.slice(0, numTopics)
    const source = new Uint32Array(count)
    for (let e = 0; e < count; e += 1) {
      const t = rank[topicOf[e] as number] as number
      source[fill[t] as number] = e
      fill[t] = (fill[t] as number) + 1
    }
    const arena = new Uint8Array(srcArena.length)
    const start = new Uint32Array(count + 1)
    const hash = new Int32Array(count)
    const rels = new Float64Array(count)
    let at = 0
    for (let k = 0; k < count; k += 1) {
      const e = source[k] as number
      start[k] = at
      for (let b = srcStart[e] as number; b < (srcStart[e + 1] as number); b += 1) {
        arena[at] = srcArena[b] as number
        at += 1
      }
      hash[k] = srcHash[e] as number
      rels[k] = srcRel[e] as number
    }
    start[count] = at
    // flat per-topic level counts: a Map per topic (most topics have one judged docno) made the index cost more
    // than the qrels parse
    const levelFirst = new Uint32Array(numTopics + 1)
    const levelValue = new Float64Array(count)
    const levelCount = new Uint32Array(count)
    const shared = new Map<string, number[]>()
    const positiveLevels = this.positiveLevels
    const numRelLevels = this.numRelLevels
    const duplicate = this.duplicate
    let lv = 0
    for (let t = 0; t < numTopics; t += 1) {
      levelFirst[t] = lv
      const firstLevel = lv
      let maxRel = -Infinity
      for (let k = first[t] as number; k < (first[t + 1] as number); k += 1) {
        const rel = rels[k] as number
        if (rel > maxRel) maxRel = rel
        if (rel >= 0) {
          let j = firstLevel
          while (j < lv && levelValue[j] !== rel) j += 1
          if (j === lv) {
            levelValue[lv] = rel
            lv += 1
          }
          levelCount[j] = (levelCount[j] as number) + 1
        }
      }
      positiveLevels.push(sharedPositiveLevels(levelValue, firstLevel, lv, shared))
      // trec_eval sizes its level array by the largest value; with no value ≥ 0 there are no levels
      numRelLevels.push(maxRel >= 0 ? maxRel + 1 : 0)
      duplicate.push(smallestDuplicate(arena, start, first[t] as number, first[t + 1] as number))
    }
    levelFirst[numTopics] = lv
    this.first = first
    this.start = start
    this.hash = hash
    this.rel = rels
    this.levelFirst = levelFirst
    this.levelValue = levelValue
    this.levelCount = levelCount
    this.arena = arena
  }

  /** Number of topic q's judgments with exactly this value (≥ 0). */
  countOf(q: number, value: number): number {
    for (let j = this.levelFirst[q] as number; j < (this.levelFirst[q + 1] as number); j += 1) {
      if (this.levelValue[j] === value) return this.levelCount[j] as number
    }
    return 0
  }

  /** Number of topic q's judgments with a value ≥ `level`. */
  countAtLeast(q: number, level: number): number {
    let n = 0
    for (let j = this.levelFirst[q] as number; j < (this.levelFirst[q + 1] as number); j += 1) {
      if ((this.levelValue[j] as number) >= level) n += this.levelCount[j] as number
    }
    return n
  }
}

/**
 * The values > 0 among `values[from, to)`, highest first, as one array shared by every topic with the same values
 * (the usual topic judges one value, whose key needs no sorting).
 */
function sharedPositiveLevels(values: Float64Array, from: number, to: number, shared: Map<string, number[]>): number[] {
  const list = to - from === 1 ? null : Array.from(values.subarray(from, to)).sort((a, b) => b - a)
  const key = list === null ? String(values[from]) : list.join(' ')
  let positive = shared.get(key)
  if (positive === undefined) {
    positive = (list ?? [values[from] as number]).filter((v) => v > 0)
    shared.set(key, positive)
  }
  return positive
}

/** Topic ids in `strcmp` order of their UTF-8 bytes; without surrogates that is UTF-16 order, the native sort's. */
function sortUtf8(ids: string[]): string[] {
  return ids.some((id) => /[\uD800-\uDFFF]/.test(id)) ? ids.sort(compareUtf8) : ids.sort()
}

/** The smallest docno (in byte order) that entries `from .. to` judge twice, decoded; undefined when none is. */
function smallestDuplicate(arena: Uint8Array, start: Uint32Array, from: number, to: number): string | undefined {
  if (to - from < 2) return undefined
  const cmp = (a: number, b: number) => compareBytes(arena, start[a] as number, start[a + 1] as number, arena, start[b] as number, start[b + 1] as number)
  const sorted = new Uint32Array(to - from)
  for (let i = 0; i < sorted.length; i += 1) sorted[i] = from + i
  sorted.sort(cmp)
  for (let i = 1; i < sorted.length; i += 1) {
    const k = sorted[i] as number
    if (cmp(sorted[i - 1] as number, k) === 0) return decodeUtf8(arena, start[k] as number, start[k + 1] as number)
  }
  return undefined
}

/**
 * Builds each topic's ranked relevance list (trec_eval's `form_res_rels`), reusing scratch buffers across topics.
 * The ranked docnos go into a hash table (which also finds duplicates); the topic's few judged docnos are then
 * looked up in it, so no per-document lookup into the qrels is needed. For a batch whose columns live in the run
 * reader's WebAssembly memory, the kernel orders a ranked topic and builds that table (same rules, same table).
 */
export class Ranker {
  private idx: Uint32Array
  private rel = new Float64Array(1024)
  private keys: Int32Array
  private ranks: Int32Array
  private mask = 0
  private readonly bogus: Uint8Array = encodeUtf8(BOGUS_DOCNO)
  /** The kernel holding the run's columns, which orders and indexes each topic (its scratch is idx, keys, ranks). */
  private readonly kernel: RunKernel | null

  constructor(
    private readonly run: TrecRun,
    private readonly qrels: QrelsIndex,
    private readonly maxRetrieved: number,
    private readonly judgedOnly: boolean,
    private readonly level: number,
  ) {
    this.kernel = kernelOf(run)
    // with a kernel its scratch (a topic has at most COLUMN_ROWS rows there, so it never needs to grow); a Ranker
    // is made per batch, and scratch allocated for nothing made the garbage collector run more often
    this.idx = this.kernel?.idx ?? new Uint32Array(1024)
    this.keys = this.kernel?.keys ?? new Int32Array(8192)
    this.ranks = this.kernel?.ranks ?? new Int32Array(8192)
  }

  rank(fn: string, q: number, runTopic: number): ResRels {
    const qrels = this.qrels
    const qid = qrels.topics[q] as string
    const from = qrels.first[q] as number
    const to = qrels.first[q + 1] as number
    let numRet: number
    if (runTopic < 0) {
      // -c and no results: trec_eval ranks one bogus docno, which the qrels will not contain (but we look)
      numRet = Math.min(1, this.maxRetrieved)
      this.rel[0] = RELVALUE_NONPOOL
      for (let e = from; e < to; e += 1) {
        if (compareBytes(qrels.arena, qrels.start[e] as number, qrels.start[e + 1] as number, this.bogus, 0, this.bogus.length) === 0) {
          this.rel[0] = toRel(qrels.rel[e] as number)
        }
      }
    } else {
      numRet = this.sortTopic(runTopic)
      this.indexRanking(fn, qid, numRet)
      if (this.rel.length < numRet) this.rel = new Float64Array(Math.max(numRet, this.rel.length * 2))
      const rel = this.rel
      rel.fill(RELVALUE_NONPOOL, 0, numRet)
      // Without -J the counts come from the judged documents alone (every other ranked one is non-pool), so the
      // ranking is not scanned again. Each judged docno is found at most once: a docno judged twice throws below.
      let found = 0
      let numRelRet = 0
      let numUnjudged = 0
      for (let e = from; e < to; e += 1) {
        const k = this.findRanked(qrels.arena, qrels.start[e] as number, qrels.start[e + 1] as number, qrels.hash[e] as number)
        if (k < 0) continue
        const r = toRel(qrels.rel[e] as number)
        rel[k] = r
        found += 1
        if (r === RELVALUE_UNJUDGED) numUnjudged += 1
        else if (r >= this.level) numRelRet += 1
      }
      if (!this.judgedOnly) {
        this.checkJudgedOnce(fn, q)
        return this.resRels(rel, numRet, numRelRet, numRet - found, numUnjudged, q)
      }
    }
    this.checkJudgedOnce(fn, q)
    return this.count(this.rel, numRet, q)
  }

  /** trec_eval refuses a topic whose qrels judge one docno twice. */
  private checkJudgedOnce(fn: string, q: number): void {
    const dup = this.qrels.duplicate[q]
    if (dup !== undefined) {
      const qid = this.qrels.topics[q] as string
      throw new TrecEvalError(fn, 'qrels', 'each docno judged at most once per topic (trec_eval refuses the file)', 'duplicate-qrels-docno', qid, dup)
    }
  }

  /** The counts by a scan of the ranking: -J (which also drops unjudged documents) and the bogus ranking of -c. */
  private count(rel: Float64Array, n: number, q: number): ResRels {
    let numRet = n
    let numRelRet = 0
    let numNonpool = 0
    let numUnjudged = 0
    if (this.judgedOnly) {
      // -J: keep judged documents only, in rank order
      let kept = 0
      for (let k = 0; k < n; k += 1) {
        const r = rel[k] as number
        if (r < 0) continue
        if (r >= this.level) numRelRet += 1
        rel[kept] = r
        kept += 1
      }
      numRet = kept
    } else {
      for (let k = 0; k < n; k += 1) {
        const r = rel[k] as number
        if (r === RELVALUE_NONPOOL) numNonpool += 1
        else if (r === RELVALUE_UNJUDGED) numUnjudged += 1
        else if (r >= this.level) numRelRet += 1
      }
    }
    return this.resRels(rel, numRet, numRelRet, numNonpool, numUnjudged, q)
  }

  private resRels(rel: Float64Array, numRet: number, numRelRet: number, numNonpool: number, numUnjudged: number, q: number): ResRels {
    const qrels = this.qrels
    return {
      rel,
      numRet,
      numRel: qrels.countAtLeast(q, this.level),
      numRelRet,
      numNonpool,
      numUnjudged,
      numRelLevels: qrels.numRelLevels[q] as number,
      levelCount: (value) => qrels.countOf(q, value),
      positiveLevels: qrels.positiveLevels[q] as number[],
    }
  }

  /** Fills `idx` with the topic's documents in rank order; returns how many are evaluated (after -M). */
  private sortTopic(t: number): number {
    const run = this.run
    const from = run.topicOffset[t] as number
    const n = (run.topicOffset[t + 1] as number) - from
    if (this.idx.length < n) this.idx = new Uint32Array(Math.max(n, this.idx.length * 2))
    const order = run.order
    // the kernel orders a ranked file's topic in place; anything else (out of order, long ties) is ordered here
    if (order === null && this.kernel !== null && this.kernel.order(from, n) === 0) return Math.min(n, this.maxRetrieved)
    const idx = this.idx
    if (order === null) for (let k = 0; k < n; k += 1) idx[k] = from + k
    else for (let k = 0; k < n; k += 1) idx[k] = order[from + k] as number
    const scores = run.scores
    const arena = run.arena
    const docStart = run.docStart
    // the one trec_eval ranking rule (score descending, ties by docno descending in byte order)
    const rankOrder = trecRankOrder(
      (i: number) => scores[i] as number,
      (a: number, b: number): number => compareBytes(arena, docStart[a] as number, docStart[a + 1] as number, arena, docStart[b] as number, docStart[b + 1] as number),
    )
    // Runs are usually written in rank order already: then only stretches of equal scores need ordering by docno,
    // done in the same pass that checks the order (ties ordered before an out-of-order score is seen are simply
    // sorted again by the full sort).
    let sorted = true
    let tieStart = 0
    let prev = n > 0 ? (scores[idx[0] as number] as number) : 0
    for (let k = 1; k < n; k += 1) {
      const s = scores[idx[k] as number] as number
      if (s === prev) continue
      if (!(prev > s)) {
        sorted = false
        break
      }
      if (k - tieStart > 1) sortTies(idx, tieStart, k, arena, docStart, rankOrder)
      tieStart = k
      prev = s
    }
    if (!sorted) idx.subarray(0, n).sort(rankOrder)
    else if (n - tieStart > 1) sortTies(idx, tieStart, n, arena, docStart, rankOrder)
    return Math.min(n, this.maxRetrieved)
  }

  /**
   * Puts the first `n` ranked docnos in a hash table (value: rank position). trec_eval refuses a docno retrieved
   * twice among them; like trec_eval (which sorts by docno to find one) it names the smallest such docno.
   * The table has at least 8 slots per docno, so a probe almost always ends at its first slot: at half load the
   * unpredictable probe-loop exit cost more than the rest of the insert.
   */
  private indexRanking(fn: string, qid: string, n: number): void {
    let size = 16
    while (size < n * 8) size *= 2
    if (this.kernel !== null) {
      size = Math.min(size, TABLE_SLOTS)
      this.mask = size - 1
      this.throwIfDuplicate(fn, qid, this.kernel.index(n, size - 1))
      return
    }
    // keys[s]: tableKey of the docno in slot s (0: free); ranks[s]: its rank position
    if (this.keys.length < size) {
      this.keys = new Int32Array(size)
      this.ranks = new Int32Array(size)
    } else this.keys.fill(0, 0, size)
    const keys = this.keys
    const ranks = this.ranks
    const mask = size - 1
    this.mask = mask
    const run = this.run
    const idx = this.idx
    const { arena, docStart, hashes } = run
    let dup = -1
    for (let k = 0; k < n; k += 1) {
      const i = idx[k] as number
      const h = hashes[i] as number
      const key = tableKey(h)
      // one probe sequence both finds an equal docno already ranked and the free slot for a new one
      let slot = firstSlot(h, mask)
      let found = false
      for (;;) {
        const other = keys[slot] as number
        if (other === 0) break
        if (other === key) {
          const j = idx[ranks[slot] as number] as number
          if (compareBytes(arena, docStart[j] as number, docStart[j + 1] as number, arena, docStart[i] as number, docStart[i + 1] as number) === 0) {
            found = true
            break
          }
        }
        slot = (slot + 1) & mask
      }
      if (!found) {
        keys[slot] = key
        ranks[slot] = k
      } else if (dup < 0 || compareBytes(arena, docStart[i] as number, docStart[i + 1] as number, arena, docStart[dup] as number, docStart[dup + 1] as number) < 0) dup = i
    }
    this.throwIfDuplicate(fn, qid, dup)
  }

  /** trec_eval refuses a topic that retrieves a docno twice; `dup` is the row of the smallest such docno, or -1. */
  private throwIfDuplicate(fn: string, qid: string, dup: number): void {
    if (dup < 0) return
    const run = this.run
    const docno = decodeUtf8(run.arena, run.docStart[dup] as number, run.docStart[dup + 1] as number)
    throw new TrecEvalError(fn, 'run', 'each docno retrieved at most once per topic (trec_eval exits 4: "duplicate docs")', 'duplicate-docno', qid, docno)
  }

  /** Rank position of docno bytes `buf[start, end)` (hash `h`) in the current topic's table, or -1. */
  private findRanked(buf: Uint8Array, start: number, end: number, h: number): number {
    const keys = this.keys
    const mask = this.mask
    const key = tableKey(h)
    const run = this.run
    let slot = firstSlot(h, mask)
    for (;;) {
      const other = keys[slot] as number
      if (other === 0) return -1
      if (other === key) {
        const k = this.ranks[slot] as number
        const i = this.idx[k] as number
        if (compareBytes(run.arena, run.docStart[i] as number, run.docStart[i + 1] as number, buf, start, end) === 0) return k
      }
      slot = (slot + 1) & mask
    }
  }
}

/**
 * The ranking table's key for a docno hash: never 0, which marks a free slot. A key match is confirmed by the
 * docno bytes. The kernel's `index` (run-kernel.wat) builds the same table, which findRanked reads.
 */
function tableKey(h: number): number {
  return h | 1
}

/** Where a docno with hash `h` starts probing in a table of `mask + 1` slots (run-kernel.wat: the same rule). */
function firstSlot(h: number, mask: number): number {
  return (Math.imul(h, 0x85ebca6b) >>> 0) & mask
}

/**
 * Orders `idx[from, to)`, documents of one score, by docno descending (`cmp` is the whole rank order): an insertion
 * sort on the docno bytes for the short tie runs of a ranked file, else the built-in sort.
 */
function sortTies(idx: Uint32Array, from: number, to: number, arena: Uint8Array, docStart: Uint32Array, cmp: (a: number, b: number) => number): void {
  if (to - from > 16) {
    idx.subarray(from, to).sort(cmp)
    return
  }
  for (let k = from + 1; k < to; k += 1) {
    const v = idx[k] as number
    const vs = docStart[v] as number
    const ve = docStart[v + 1] as number
    let j = k - 1
    while (j >= from) {
      const u = idx[j] as number
      if (compareBytes(arena, vs, ve, arena, docStart[u] as number, docStart[u + 1] as number) <= 0) break
      idx[j + 1] = u
      j -= 1
    }
    idx[j + 1] = v
  }
}

/** A qrels value as trec_eval ranks it: negative values mean "in the pool but unjudged". */
function toRel(value: number): number {
  return value < 0 ? RELVALUE_UNJUDGED : value
}
