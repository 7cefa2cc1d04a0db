/**
 * trec_eval 10.0's measures, transcribed from the measure definitions (`m_*.c`, `measures.c`, `meas_init.c`,
 * `gain_init.c`) and written in TypeScript for this project. Each calculation mirrors the C loop, including its
 * order of floating-point operations, so values agree with trec_eval to the last bit or two.
 *
 * Vocabulary (trec_eval's): `rel[i]` is the qrels value of the document at rank i+1, or −1 (NONPOOL, not in the
 * qrels) or −2 (UNJUDGED, in the qrels with a negative value); relevant ⇔ `rel ≥ L` (the relevance level, `-l`);
 * `numRel` = qrels entries with value ≥ L; `levelCount(v)` = qrels entries with value v (v ≥ 0).
 */
import { MetricInputError } from '../../errors.js'
import { atof, atol } from './bytes.js'
import { formatFixed } from './c-format.js'

export const RELVALUE_NONPOOL = -1
export const RELVALUE_UNJUDGED = -2
const MIN_GEO_MEAN = 0.00001
const INFAP_EPSILON = 0.00001

/** The ranked relevance list of one topic and its counts (trec_eval's `RES_RELS`). */
export interface ResRels {
  /** rel value per rank, `rel[0 .. numRet)` */
  readonly rel: Float64Array
  readonly numRet: number
  readonly numRel: number
  readonly numRelRet: number
  readonly numNonpool: number
  readonly numUnjudged: number
  /** 1 + the largest qrels value ≥ 0 for the topic, 0 when there is none */
  readonly numRelLevels: number
  /** number of qrels entries of the topic with exactly this value (values ≥ 0) */
  levelCount(level: number): number
  /** the qrels values > 0 that occur for the topic, highest first */
  readonly positiveLevels: readonly number[]
}

export interface MeasureEnv {
  readonly relevanceLevel: number
  readonly numDocsInColl: number
}

type ParamKind = 'none' | 'cutLong' | 'cutDouble' | 'pDouble' | 'pPair'
type Averaging = 'mean' | 'sum' | 'gm' | 'numq' | 'none'
export type TrecValueKind = 'double' | 'long' | 'string'

export interface ParamPair {
  readonly name: string
  readonly value: number
}

/** A measure after its parameters are known: the printed names of its values and the parameters. */
export interface MeasureInstance {
  readonly def: MeasureDef
  /** printed value names, e.g. `P_5`, `P_10`; one for single-valued measures */
  readonly names: readonly string[]
  /** cutoffs (sorted ascending) or double parameters in the given order */
  readonly params: readonly number[]
  readonly pairs: readonly ParamPair[]
}

type Calc = (rr: ResRels, m: MeasureInstance, out: Float64Array, at: number, env: MeasureEnv) => void

export interface MeasureDef {
  readonly name: string
  readonly paramKind: ParamKind
  readonly defaults: readonly number[]
  readonly kind: TrecValueKind
  /** printed per topic with `-q` */
  readonly perQuery: boolean
  /** printed in the `all` summary */
  readonly summary: boolean
  readonly avg: Averaging
  /** needs the ranked list (trec_eval's `form_res_rels`, where duplicate docnos are refused) */
  readonly ranked: boolean
  readonly calc: Calc
}

const CUTS = [5, 10, 15, 20, 30, 100, 200, 500, 1000]
const RECALL_POINTS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]

function def(
  name: string,
  paramKind: ParamKind,
  defaults: readonly number[],
  kind: TrecValueKind,
  avg: Averaging,
  calc: Calc,
  flags: { perQuery?: boolean; summary?: boolean; ranked?: boolean } = {},
): MeasureDef {
  return {
    name,
    paramKind,
    defaults,
    kind,
    avg,
    calc,
    perQuery: flags.perQuery ?? true,
    summary: flags.summary ?? true,
    ranked: flags.ranked ?? true,
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Calculations. `out[at + k]` is value k of the measure; every slot starts at 0 (trec_eval zeroes them per topic).

const calcNothing: Calc = () => {}

const calcNumQ: Calc = (_rr, _m, out, at) => {
  out[at] = 1
}

const calcNumRet: Calc = (rr, _m, out, at) => {
  out[at] = rr.numRet
}

const calcNumRel: Calc = (rr, _m, out, at) => {
  out[at] = rr.numRel
}

const calcNumRelRet: Calc = (rr, _m, out, at) => {
  out[at] = rr.numRelRet
}

/** Σ over relevant retrieved docs of precision at their rank (the numerator of AP), and how many there were. */
function apSum(rr: ResRels, level: number, limit: number): [number, number] {
  const rel = rr.rel
  let relSoFar = 0
  let sum = 0
  for (let i = 0; i < limit; i += 1) {
    if ((rel[i] as number) >= level) {
      relSoFar += 1
      sum += relSoFar / (i + 1)
    }
  }
  return [sum, relSoFar]
}

const calcMap: Calc = (rr, _m, out, at, env) => {
  const [sum, relSoFar] = apSum(rr, env.relevanceLevel, rr.numRet)
  if (relSoFar) out[at] = sum / rr.numRel
}

const calcGmMap: Calc = (rr, _m, out, at, env) => {
  let [sum, relSoFar] = apSum(rr, env.relevanceLevel, rr.numRet)
  if (relSoFar) sum /= rr.numRel
  out[at] = Math.log(Math.max(sum, MIN_GEO_MEAN))
}

const calcRprec: Calc = (rr, _m, out, at, env) => {
  const n = Math.min(rr.numRet, rr.numRel)
  if (n === 0) return
  let relSoFar = 0
  for (let i = 0; i < n; i += 1) if ((rr.rel[i] as number) >= env.relevanceLevel) relSoFar += 1
  out[at] = relSoFar / rr.numRel
}

function bpref(rr: ResRels, env: MeasureEnv): number {
  const L = env.relevanceLevel
  let numNonrel = 0
  // judged non-relevant: values 0 .. L-1 (values past the largest one have no judgments)
  for (let j = 0; j < Math.min(L, rr.numRelLevels); j += 1) numNonrel += rr.levelCount(j)
  let nonrelSoFar = 0
  let sum = 0
  for (let j = 0; j < rr.numRet; j += 1) {
    const r = rr.rel[j] as number
    if (r === RELVALUE_NONPOOL || r === RELVALUE_UNJUDGED) continue
    if (r >= 0 && r < L) nonrelSoFar += 1
    else if (nonrelSoFar > 0) sum += 1 - Math.min(nonrelSoFar, rr.numRel) / Math.min(numNonrel, rr.numRel)
    else sum += 1
  }
  if (rr.numRel) sum /= rr.numRel
  return sum
}

const calcBpref: Calc = (rr, _m, out, at, env) => {
  out[at] = bpref(rr, env)
}

const calcGmBpref: Calc = (rr, _m, out, at, env) => {
  out[at] = Math.log(Math.max(bpref(rr, env), MIN_GEO_MEAN))
}

const calcRecipRank: Calc = (rr, _m, out, at, env) => {
  const rel = rr.rel
  for (let i = 0; i < rr.numRet; i += 1) {
    if ((rel[i] as number) >= env.relevanceLevel) {
      out[at] = 1 / (i + 1)
      return
    }
  }
}

/**
 * Interpolated precision at recall points; shared by iprec_at_recall (values) and 11pt_avg (their mean). Recall
 * point p becomes the number of relevant documents `(long)(p·numRel + 0.5)`: trec_eval 10.0 rounds here (9.x added
 * 0.9); every golden 10.0 value agrees with 0.5 and many disagree with 0.9.
 */
function interpolatedPrecision(rr: ResRels, percents: readonly number[], env: MeasureEnv, emit: (k: number, v: number) => void): void {
  const cutoffs = percents.map((p) => Math.trunc(p * rr.numRel + 0.5))
  let cut = cutoffs.length - 1
  while (cut >= 0 && (cutoffs[cut] as number) > rr.numRelRet) cut -= 1
  let precis = rr.numRelRet / rr.numRet
  let intPrecis = precis
  let relSoFar = rr.numRelRet
  for (let i = rr.numRet; i > 0 && relSoFar > 0; i -= 1) {
    precis = relSoFar / i
    if (intPrecis < precis) intPrecis = precis
    if ((rr.rel[i - 1] as number) >= env.relevanceLevel) {
      while (cut >= 0 && relSoFar === cutoffs[cut]) {
        emit(cut, intPrecis)
        cut -= 1
      }
      relSoFar -= 1
    }
  }
  while (cut >= 0) {
    emit(cut, intPrecis)
    cut -= 1
  }
}

const calcIprecAtRecall: Calc = (rr, m, out, at, env) => {
  interpolatedPrecision(rr, m.params, env, (k, v) => {
    out[at + k] = v
  })
}

const calc11ptAvg: Calc = (rr, m, out, at, env) => {
  let sum = 0
  interpolatedPrecision(rr, m.params, env, (_k, v) => {
    sum += v
  })
  out[at] = sum / m.params.length
}

/**
 * The cutoff loop shared by P, recall, map_cut, relative_P, success, unj and ndcg_cut: `step(rel, i)` is called per
 * document, and `value(i)` gives cutoff k's value once i = cutoffs[k] documents have been seen.
 */
function atCutoffs(rr: ResRels, cutoffs: readonly number[], out: Float64Array, at: number, step: (r: number, i: number) => void, value: (i: number) => number): void {
  let k = 0
  const n = cutoffs.length
  for (let i = 0; i < rr.numRet; i += 1) {
    if (i === cutoffs[k]) {
      out[at + k] = value(i)
      k += 1
      if (k === n) return
    }
    step(rr.rel[i] as number, i)
  }
  for (; k < n; k += 1) out[at + k] = value(cutoffs[k] as number)
}

/** {@link atCutoffs} for the measures that count relevant documents: `value(i, relSoFar)` at each cutoff. */
function relevantAtCutoffs(rr: ResRels, m: MeasureInstance, out: Float64Array, at: number, env: MeasureEnv, value: (i: number, relSoFar: number) => number): void {
  let relSoFar = 0
  const L = env.relevanceLevel
  atCutoffs(
    rr,
    m.params,
    out,
    at,
    (r) => {
      if (r >= L) relSoFar += 1
    },
    (i) => value(i, relSoFar),
  )
}

const calcP: Calc = (rr, m, out, at, env) => {
  relevantAtCutoffs(rr, m, out, at, env, (i, relSoFar) => relSoFar / i)
}

const calcRecall: Calc = (rr, m, out, at, env) => {
  if (rr.numRel === 0) return
  relevantAtCutoffs(rr, m, out, at, env, (_i, relSoFar) => relSoFar / rr.numRel)
}

const calcMapCut: Calc = (rr, m, out, at, env) => {
  if (rr.numRel === 0) return
  let relSoFar = 0
  let sum = 0
  const L = env.relevanceLevel
  atCutoffs(
    rr,
    m.params,
    out,
    at,
    (r, i) => {
      if (r >= L) {
        relSoFar += 1
        sum += relSoFar / (i + 1)
      }
    },
    () => sum / rr.numRel,
  )
}

const calcRelativeP: Calc = (rr, m, out, at, env) => {
  if (rr.numRel === 0) return
  relevantAtCutoffs(rr, m, out, at, env, (i, relSoFar) => relSoFar / (i > rr.numRel ? rr.numRel : i))
}

const calcSuccess: Calc = (rr, m, out, at, env) => {
  relevantAtCutoffs(rr, m, out, at, env, (_i, relSoFar) => (relSoFar ? 1 : 0))
}

const calcUnj: Calc = (rr, m, out, at) => {
  let unjSoFar = 0
  atCutoffs(
    rr,
    m.params,
    out,
    at,
    (r) => {
      if (r === RELVALUE_NONPOOL || r === RELVALUE_UNJUDGED) unjSoFar += 1
    },
    (i) => unjSoFar / i,
  )
}

const calcInfAP: Calc = (rr, _m, out, at, env) => {
  const L = env.relevanceLevel
  let nonrelSoFar = 0
  let relSoFar = 0
  let poolUnjudgedSoFar = 0
  let infAp = 0
  for (let j = 0; j < rr.numRet; j += 1) {
    const r = rr.rel[j] as number
    if (r === RELVALUE_NONPOOL) continue
    if (r === RELVALUE_UNJUDGED) {
      poolUnjudgedSoFar += 1
      continue
    }
    if (r >= 0 && r < L) {
      nonrelSoFar += 1
    } else {
      relSoFar += 1
      if (j === 0) infAp += 1
      else {
        const fj = j
        infAp +=
          1 / (fj + 1) +
          (fj / (fj + 1)) * ((relSoFar - 1 + nonrelSoFar + poolUnjudgedSoFar) / fj) * ((relSoFar - 1 + INFAP_EPSILON) / (relSoFar - 1 + nonrelSoFar + 2 * INFAP_EPSILON))
      }
    }
  }
  if (rr.numRel) infAp /= rr.numRel
  out[at] = infAp
}

const calcRprecMult: Calc = (rr, m, out, at, env) => {
  const cutoffs = m.params.map((p) => Math.trunc(p * rr.numRel + 0.9))
  let cut = cutoffs.length - 1
  while (cut >= 0 && (cutoffs[cut] as number) > rr.numRet) {
    out[at + cut] = rr.numRelRet / (cutoffs[cut] as number)
    cut -= 1
  }
  let relSoFar = rr.numRelRet
  for (let i = rr.numRet; i > 0 && relSoFar > 0; i -= 1) {
    const precis = relSoFar / i
    while (cut >= 0 && i === cutoffs[cut]) {
      out[at + cut] = precis
      cut -= 1
    }
    if ((rr.rel[i - 1] as number) >= env.relevanceLevel) relSoFar -= 1
  }
}

const calcUtility: Calc = (rr, m, out, at, env) => {
  const [a = 0, b = 0, c = 0, d = 0] = m.params
  out[at] = a * rr.numRelRet + b * (rr.numRet - rr.numRelRet) + c * (rr.numRel - rr.numRelRet) + d * (env.numDocsInColl + rr.numRelRet - rr.numRet - rr.numRel)
}

const calcBinG: Calc = (rr, _m, out, at, env) => {
  let relSoFar = 0
  let sum = 0
  for (let i = 0; i < rr.numRet; i += 1) {
    if ((rr.rel[i] as number) >= env.relevanceLevel) {
      relSoFar += 1
      sum += 1 / Math.log2(3 + i - relSoFar)
    }
  }
  if (relSoFar) out[at] = sum / rr.numRel
}

// ---- gains (gain_init.c) ----------------------------------------------------------------------------------------

interface Gains {
  readonly level: number[]
  readonly gain: number[]
  readonly count: number[]
}

/** Above this, levels 0..max are not enumerated one by one (trec_eval would allocate them); only those present. */
const DENSE_LEVEL_LIMIT = 1 << 16

function isValidInt(text: string): boolean {
  return /^[+-]?[0-9]+$/.test(text)
}

/**
 * `setup_gains`: gains from `level=gain` parameters first, then every level 0..max not given (gain = level), then
 * sorted by gain with trec_eval's comparator, `(int)(g1 − g2)` (fractional differences compare equal), in glibc's
 * stable merge order.
 */
function setupGains(m: MeasureInstance, rr: ResRels): Gains {
  const entries: Array<{ level: number; gain: number; count: number }> = []
  for (const pair of m.pairs) {
    if (!isValidInt(pair.name)) continue
    entries.push({ level: atol(pair.name), gain: pair.value, count: 0 })
  }
  const add = (i: number) => {
    const count = rr.levelCount(i)
    const found = entries.find((e) => e.level === i)
    if (found) found.count = count
    else entries.push({ level: i, gain: i, count })
  }
  if (rr.numRelLevels <= DENSE_LEVEL_LIMIT) {
    for (let i = 0; i < rr.numRelLevels; i += 1) add(i)
  } else {
    // Levels without judgments get count 0 and never meet a document; listing only the present ones is equivalent.
    add(0)
    for (let k = rr.positiveLevels.length - 1; k >= 0; k -= 1) add(rr.positiveLevels[k] as number)
  }
  const sorted = mergeSort(entries, (a, b) => Math.trunc(a.gain - b.gain))
  return { level: sorted.map((e) => e.level), gain: sorted.map((e) => e.gain), count: sorted.map((e) => e.count) }
}

/** glibc `msort`: top-down, left run wins ties. */
function mergeSort<T>(items: T[], cmp: (a: T, b: T) => number): T[] {
  if (items.length <= 1) return items
  const n1 = items.length >>> 1
  const left = mergeSort(items.slice(0, n1), cmp)
  const right = mergeSort(items.slice(n1), cmp)
  const out: T[] = []
  let i = 0
  let j = 0
  while (i < left.length && j < right.length) out.push(cmp(left[i] as T, right[j] as T) <= 0 ? (left[i++] as T) : (right[j++] as T))
  while (i < left.length) out.push(left[i++] as T)
  while (j < right.length) out.push(right[j++] as T)
  return out
}

function getGain(rel: number, g: Gains): number {
  for (let i = 0; i < g.level.length; i += 1) if (g.level[i] === rel) return g.gain[i] as number
  return 0
}

/**
 * The ideal ranking's gain at each rank: the gains from the highest level down, each repeated as often as it was
 * judged. trec_eval steps through it while the current level's gain is > 0, so the list ends with the first gain ≤ 0
 * it reaches (if any). m_ndcg.c and its siblings walk it beside the run in three loops (both rankings, the rest of the
 * run, the rest of the ideal ranking); each measure here does the same in one loop over `max(numRet, ideal.length)`
 * ranks, with 0 as the gain past the end of either ranking.
 */
function idealGains(g: Gains): number[] {
  const out: number[] = []
  let level = g.gain.length - 1
  let gain = level >= 0 ? (g.gain[level] as number) : 0
  let atLevel = 0
  while (gain > 0) {
    // one more rank at this level; past its count, down to the next level that has one
    atLevel += 1
    while (level >= 0 && atLevel > (g.count[level] as number)) {
      atLevel = 1
      level -= 1
      gain = level >= 0 ? (g.gain[level] as number) : 0
    }
    out.push(gain)
  }
  return out
}

/** ndcg, dcg and ideal_dcg (m_ndcg.c): gains per level (default: the level), discount log2(rank + 1). */
function dcgPair(rr: ResRels, m: MeasureInstance): [number, number] {
  const g = setupGains(m, rr)
  const ideal = idealGains(g)
  let resultsDcg = 0
  let idealDcg = 0
  for (let i = 0, n = Math.max(rr.numRet, ideal.length); i < n; i += 1) {
    const gain = i < rr.numRet ? getGain(rr.rel[i] as number, g) : 0
    const ig = i < ideal.length ? (ideal[i] as number) : 0
    if (gain !== 0) resultsDcg += gain / Math.log2(i + 2)
    if (ig > 0) idealDcg += ig / Math.log2(i + 2)
  }
  return [resultsDcg, idealDcg]
}

const calcNdcg: Calc = (rr, m, out, at) => {
  const [dcg, idcg] = dcgPair(rr, m)
  if (idcg > 0) out[at] = dcg / idcg
}

const calcDcg: Calc = (rr, m, out, at) => {
  out[at] = dcgPair(rr, m)[0]
}

const calcIdealDcg: Calc = (rr, m, out, at) => {
  out[at] = dcgPair(rr, m)[1]
}

const calcNdcgRel: Calc = (rr, m, out, at) => {
  const g = setupGains(m, rr)
  const ideal = idealGains(g)
  let resultsDcg = 0
  let idealDcg = 0
  let sum = 0
  let numRelRet = 0
  let numRel = 0
  for (let i = 0, n = Math.max(rr.numRet, ideal.length); i < n; i += 1) {
    const gain = i < rr.numRet ? getGain(rr.rel[i] as number, g) : 0
    const ig = i < ideal.length ? (ideal[i] as number) : 0
    if (gain !== 0) resultsDcg += gain / Math.log2(i + 2)
    if (ig > 0) {
      numRel += 1
      idealDcg += ig / Math.log2(i + 2)
    }
    if (gain > 0) {
      sum += resultsDcg / idealDcg
      numRelRet += 1
    }
  }
  sum += ((numRel - numRelRet) * resultsDcg) / idealDcg
  if (sum > 0) out[at] = sum / numRel
}

const calcRndcg: Calc = (rr, m, out, at) => {
  const g = setupGains(m, rr)
  if (rr.numRel === 0) return
  const ideal = idealGains(g)
  // the ideal gain before the first rank: the highest level's
  let oldIdealGain = g.gain.length > 0 ? (g.gain[g.gain.length - 1] as number) : 0
  let resultsDcg = 0
  let idealDcg = 0
  let sum = 0
  let changes = 0
  for (let i = 0, n = Math.max(rr.numRet, ideal.length); i < n; i += 1) {
    const gain = i < rr.numRet ? getGain(rr.rel[i] as number, g) : 0
    const ig = i < ideal.length ? (ideal[i] as number) : 0
    if (i < ideal.length && oldIdealGain !== ig) {
      if (idealDcg > 0) {
        sum += resultsDcg / idealDcg
        changes += 1
      }
      oldIdealGain = ig
    }
    if (gain !== 0) resultsDcg += gain / Math.log2(i + 2)
    if (ig > 0) idealDcg += ig / Math.log2(i + 2)
  }
  // m_rndcg.c counts the end of a run that outlasts the ideal ranking as one more change
  if (rr.numRet > ideal.length && idealDcg > 0) {
    sum += resultsDcg / idealDcg
    changes += 1
  }
  out[at] = sum / changes
}

const calcG: Calc = (rr, m, out, at) => {
  const g = setupGains(m, rr)
  const ideal = idealGains(g)
  let resultsG = 0
  let sumResults = 0
  let sumIdeal = 0
  let sumCost = 0
  const minCost = 1
  for (let i = 0, n = Math.max(rr.numRet, ideal.length); i < n; i += 1) {
    const ig = i < ideal.length ? (ideal[i] as number) : 0
    if (ig > 0) sumIdeal += ig
    if (i >= rr.numRet) continue
    const gain = getGain(rr.rel[i] as number, g)
    sumResults += gain
    // a rank costs its ideal gain, at least minCost (so minCost past the ideal ranking)
    sumCost += ig >= minCost ? ig : minCost
    if (gain !== 0) resultsG += gain / Math.log2(2 + sumCost - sumResults)
  }
  if (sumIdeal > 0) out[at] = resultsG / sumIdeal
}

/** ndcg_cut (m_ndcg_cut.c): gain = the rel value itself (> 0), ideal from the qrels levels, regardless of -l. */
const calcNdcgCut: Calc = (rr, m, out, at) => {
  const cutoffs = m.params
  const n = cutoffs.length
  let sum = 0
  atCutoffs(
    rr,
    cutoffs,
    out,
    at,
    (gain, i) => {
      if (gain > 0) sum += gain / Math.log2(i + 2)
    },
    () => sum,
  )
  // ideal DCG: every qrels value > 0, highest first, as often as it was judged (trec_eval walks its level array
  // down from the top, skipping empty levels, and stops at level 0: the same sequence)
  let k = 0
  let idealDcg = 0
  let i = 0
  ideal: for (const lvl of rr.positiveLevels) {
    for (let c = rr.levelCount(lvl); c > 0; c -= 1) {
      if (i === cutoffs[k]) {
        if (idealDcg > 0) out[at + k] = (out[at + k] as number) / idealDcg
        k += 1
        if (k === n) break ideal
      }
      idealDcg += lvl / Math.log2(i + 2)
      i += 1
    }
  }
  for (; k < n; k += 1) if (idealDcg > 0) out[at + k] = (out[at + k] as number) / idealDcg
}

const calcSetP: Calc = (rr, _m, out, at) => {
  if (rr.numRet) out[at] = rr.numRelRet / rr.numRet
}

const calcSetRelativeP: Calc = (rr, _m, out, at) => {
  if (rr.numRet && rr.numRel) out[at] = rr.numRelRet / Math.min(rr.numRet, rr.numRel)
}

const calcSetRecall: Calc = (rr, _m, out, at) => {
  if (rr.numRel) out[at] = rr.numRelRet / rr.numRel
}

const calcSetMap: Calc = (rr, _m, out, at) => {
  if (rr.numRet && rr.numRel) out[at] = (rr.numRelRet * rr.numRelRet) / (rr.numRet * rr.numRel)
}

const calcSetF: Calc = (rr, m, out, at) => {
  if (!rr.numRelRet) return
  const P = rr.numRelRet / rr.numRet
  const R = rr.numRelRet / rr.numRel
  const x = m.params[0] as number
  out[at] = ((x + 1) * P * R) / (x * P + R)
}

const calcNumNonrelJudgedRet: Calc = (rr, _m, out, at) => {
  out[at] = rr.numRet - rr.numNonpool - rr.numUnjudged - rr.numRelRet
}

function persistence(m: MeasureInstance): number {
  let p = 0.9
  for (const pair of m.pairs) if (pair.name === 'p') p = pair.value
  return p
}

const calcRbp: Calc = (rr, m, out, at) => {
  const p = persistence(m)
  const g = setupGains(m, rr)
  // m_rbp.c rescales gains to [0, 1] when one falls outside; its min/max start at 0 here (what the reference
  // build's values show: graded 0–3 qrels are divided by 3).
  let min = 0
  let max = 0
  for (const gain of g.gain) {
    if (gain < min) min = gain
    if (gain > max) max = gain
  }
  if (min < 0 || max > 1) for (let i = 0; i < g.gain.length; i += 1) g.gain[i] = ((g.gain[i] as number) - min) / (max - min)
  let sum = 0
  let curP = 1
  for (let i = 0; i < rr.numRet; i += 1) {
    const gain = getGain(rr.rel[i] as number, g)
    if (gain !== 0) sum += gain * curP
    curP *= p
  }
  out[at] = (1 - p) * sum
}

const calcRbpResid: Calc = (rr, m, out, at) => {
  const p = persistence(m)
  let unjSoFar = 0
  let sum = 0
  let curP = 1
  for (let i = 0; i < rr.numRet; i += 1) {
    if ((rr.rel[i] as number) < 0) {
      unjSoFar += 1
      sum += curP
    }
    curP *= p
  }
  if (unjSoFar) out[at] = curP + (1 - p) * sum
}

/** relstring is a string per topic; its characters are produced by {@link relString}. */
export function relString(rr: ResRels, m: MeasureInstance): string {
  let len = Math.min(Math.trunc(m.params[0] as number), rr.numRet)
  if (len < 0) len = 0
  let s = ''
  for (let i = 0; i < len; i += 1) {
    const r = rr.rel[i] as number
    if (r > 9) s += '>'
    else if (r >= 0) s += String.fromCharCode(48 + r)
    else if (r === RELVALUE_NONPOOL) s += '-'
    else if (r === RELVALUE_UNJUDGED) s += '.'
    else s += '<'
  }
  return s
}

// ---------------------------------------------------------------------------------------------------------------
// The table, in trec_eval's order: measures are computed and printed in this order whatever order `-m` gave.

export const MEASURES: readonly MeasureDef[] = [
  def('runid', 'none', [], 'string', 'none', calcNothing, { perQuery: false, ranked: false }),
  def('num_q', 'none', [], 'long', 'numq', calcNumQ, { perQuery: false, ranked: false }),
  def('num_ret', 'none', [], 'long', 'sum', calcNumRet),
  def('num_rel', 'none', [], 'long', 'sum', calcNumRel),
  def('num_rel_ret', 'none', [], 'long', 'sum', calcNumRelRet),
  def('map', 'none', [], 'double', 'mean', calcMap),
  def('gm_map', 'none', [], 'double', 'gm', calcGmMap, { perQuery: false }),
  def('Rprec', 'none', [], 'double', 'mean', calcRprec),
  def('bpref', 'none', [], 'double', 'mean', calcBpref),
  def('recip_rank', 'none', [], 'double', 'mean', calcRecipRank),
  def('iprec_at_recall', 'cutDouble', RECALL_POINTS, 'double', 'mean', calcIprecAtRecall),
  def('P', 'cutLong', CUTS, 'double', 'mean', calcP),
  def('relstring', 'pDouble', [10], 'string', 'none', calcNothing, { summary: false }),
  def('recall', 'cutLong', CUTS, 'double', 'mean', calcRecall),
  def('infAP', 'none', [], 'double', 'mean', calcInfAP),
  def('gm_bpref', 'none', [], 'double', 'gm', calcGmBpref, { perQuery: false }),
  def('Rprec_mult', 'cutDouble', [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 2.0], 'double', 'mean', calcRprecMult),
  def('utility', 'pDouble', [1.0, -1.0, 0.0, 0.0], 'double', 'mean', calcUtility),
  def('11pt_avg', 'pDouble', RECALL_POINTS, 'double', 'mean', calc11ptAvg),
  def('binG', 'none', [], 'double', 'mean', calcBinG),
  def('G', 'pPair', [], 'double', 'mean', calcG),
  def('dcg', 'pPair', [], 'double', 'mean', calcDcg),
  def('ideal_dcg', 'pPair', [], 'double', 'mean', calcIdealDcg),
  def('ndcg', 'pPair', [], 'double', 'mean', calcNdcg),
  def('ndcg_rel', 'pPair', [], 'double', 'mean', calcNdcgRel),
  def('Rndcg', 'pPair', [], 'double', 'mean', calcRndcg),
  def('ndcg_cut', 'cutLong', CUTS, 'double', 'mean', calcNdcgCut),
  def('map_cut', 'cutLong', CUTS, 'double', 'mean', calcMapCut),
  def('relative_P', 'cutLong', CUTS, 'double', 'mean', calcRelativeP),
  def('success', 'cutLong', [1, 5, 10], 'double', 'mean', calcSuccess),
  def('set_P', 'none', [], 'double', 'mean', calcSetP),
  def('set_relative_P', 'none', [], 'double', 'mean', calcSetRelativeP),
  def('set_recall', 'none', [], 'double', 'mean', calcSetRecall),
  def('set_map', 'none', [], 'double', 'mean', calcSetMap),
  def('set_F', 'pDouble', [1.0], 'double', 'mean', calcSetF),
  def('num_nonrel_judged_ret', 'none', [], 'long', 'sum', calcNumNonrelJudgedRet),
  def('rbp', 'pPair', [], 'double', 'mean', calcRbp),
  def('rbp_resid', 'pPair', [], 'double', 'mean', calcRbpResid),
  def('unj', 'cutLong', [5, 10, 20], 'double', 'mean', calcUnj),
]

/** trec_eval's nicknames (`measures.c`) for the measures we implement. */
export const MEASURE_SETS: Readonly<Record<string, readonly string[]>> = {
  official: ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'map', 'gm_map', 'Rprec', 'bpref', 'recip_rank', 'iprec_at_recall', 'P'],
  set: ['runid', 'num_q', 'num_ret', 'num_rel', 'num_rel_ret', 'utility', 'set_P', 'set_recall', 'set_relative_P', 'set_map', 'set_F'],
  all_trec: [
    'runid',
    'num_q',
    'num_ret',
    'num_rel',
    'num_rel_ret',
    'map',
    'gm_map',
    'Rprec',
    'bpref',
    'recip_rank',
    'iprec_at_recall',
    'P',
    'relstring',
    'recall',
    'unj',
    'rbp',
    'rbp_resid',
    'infAP',
    'gm_bpref',
    'utility',
    '11pt_avg',
    'ndcg',
    'relative_P',
    'Rprec_mult',
    'success',
    'map_cut',
    'ndcg_cut',
    'ndcg_rel',
    'Rndcg',
    'binG',
    'G',
    'set_P',
    'set_recall',
    'set_relative_P',
    'set_map',
    'set_F',
    'num_nonrel_judged_ret',
  ],
}

/** Measures of trec_eval 10.0 that need other input formats (`-R prefs`, `-R qrels_jg`) and are not implemented. */
const UNSUPPORTED = new Set([
  'all_prefs',
  'prefs',
  'qrels_jg',
  'prefs_num_prefs_poss',
  'prefs_num_prefs_ful',
  'prefs_num_prefs_ful_ret',
  'prefs_simp',
  'prefs_pair',
  'prefs_avgjg',
  'prefs_avgjg_Rnonrel',
  'prefs_simp_ret',
  'prefs_pair_ret',
  'prefs_avgjg_ret',
  'prefs_avgjg_Rnonrel_ret',
  'prefs_simp_imp',
  'prefs_pair_imp',
  'prefs_avgjg_imp',
  'map_avgjg',
  'P_avgjg',
  'Rprec_mult_avgjg',
  'yaap',
])

const BY_NAME = new Map(MEASURES.map((m) => [m.name, m]))

/**
 * Resolve `-m` arguments as trec_eval does (`trec_eval.c` mark_measure, `meas_init.c`): `name[.params]`, where a
 * nickname (`official`, `set`, `all_trec`) marks a group. Parameters belong to the measure name and the FIRST
 * occurrence wins (`-m P.5 -m P.10` gives P_5 only, as in trec_eval). Cutoff lists are sorted and must be positive
 * and distinct. Returns instances in trec_eval's table order.
 */
export function resolveMeasures(fn: string, requests: readonly string[]): MeasureInstance[] {
  const marked = new Set<string>()
  const params = new Map<string, string>()
  for (const request of requests) {
    if (typeof request !== 'string') throw new MetricInputError(fn, 'measures', 'an array of trec_eval measure names', request)
    const dot = request.indexOf('.')
    const name = dot < 0 ? request : request.slice(0, dot)
    if (dot >= 0) {
      const p = request.slice(dot + 1)
      if (p === '') throw new MetricInputError(fn, 'measures', 'a measure with parameters after the `.` (e.g. `P.5,10`)', request)
      if (!params.has(name)) params.set(name, p)
    }
    const group = MEASURE_SETS[name]
    if (group) {
      for (const member of group) marked.add(member)
      continue
    }
    if (UNSUPPORTED.has(name)) {
      throw new MetricInputError(fn, 'measures', 'a measure computed from qrels and a run (preference and judgment-group measures are not implemented)', request)
    }
    if (!BY_NAME.has(name))
      throw new MetricInputError(fn, 'measures', `a trec_eval measure (${[...BY_NAME.keys()].join(', ')}) or set (${Object.keys(MEASURE_SETS).join(', ')})`, request)
    marked.add(name)
  }
  const out: MeasureInstance[] = []
  for (const d of MEASURES) {
    if (!marked.has(d.name)) continue
    out.push(instantiate(fn, d, params.get(d.name)))
  }
  return out
}

function instantiate(fn: string, d: MeasureDef, paramText: string | undefined): MeasureInstance {
  const bad = (expected: string): never => {
    throw new MetricInputError(fn, 'measures', expected, `${d.name}.${paramText}`)
  }
  switch (d.paramKind) {
    case 'none':
      return { def: d, names: [d.name], params: [], pairs: [] }
    case 'cutLong': {
      const cuts =
        paramText === undefined
          ? [...d.defaults]
          : paramText
              .split(',')
              .map(atol)
              .sort((a, b) => a - b)
      if ((cuts[0] as number) <= 0) bad('positive cutoffs (trec_eval: "Negative cutoff detected")')
      for (let i = 1; i < cuts.length; i += 1) if (cuts[i] === cuts[i - 1]) bad('distinct cutoffs')
      return { def: d, names: cuts.map((c) => `${d.name}_${c}`), params: cuts, pairs: [] }
    }
    case 'cutDouble': {
      const cuts =
        paramText === undefined
          ? [...d.defaults]
          : paramText
              .split(',')
              .map(atof)
              .sort((a, b) => a - b)
      for (let i = 1; i < cuts.length; i += 1) if (cuts[i] === cuts[i - 1]) bad('distinct cutoffs')
      return { def: d, names: cuts.map((c) => `${d.name}_${formatFixed(c, 2, 3)}`), params: cuts, pairs: [] }
    }
    case 'pDouble': {
      const values = paramText === undefined ? [...d.defaults] : paramText.split(',').map(atof)
      if (d.name === 'utility' && values.length !== 4) bad('four utility coefficients (e.g. `utility.1,-1,0,0`)')
      return { def: d, names: [paramText === undefined ? d.name : `${d.name}_${paramText}`], params: values, pairs: [] }
    }
    case 'pPair': {
      if (paramText === undefined) return { def: d, names: [d.name], params: [], pairs: [] }
      return { def: d, names: [`${d.name}_${paramText}`], params: [], pairs: parsePairs(paramText, bad) }
    }
  }
}

/** `get_param_pairs`: comma-separated `name=value`, each with exactly one `=`. */
function parsePairs(text: string, bad: (expected: string) => never): ParamPair[] {
  const pairs: ParamPair[] = []
  for (const piece of text.split(',')) {
    const eq = piece.indexOf('=')
    if (eq < 0 || piece.indexOf('=', eq + 1) >= 0) bad('parameters of the form `level=gain,level=gain`')
    pairs.push({ name: piece.slice(0, eq), value: atof(piece.slice(eq + 1)) })
  }
  return pairs
}
