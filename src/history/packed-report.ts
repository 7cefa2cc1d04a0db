/**
 * A rag-report as the history store keeps it: every fact once.
 *
 * A report repeats its per-case facts: each case's value in a metric row is in the row's `values`, again
 * in the case's `values` and again in the assertion's `perCase`; each case's texts are in the set's
 * `cases` and again in the assertion's `cases`. At 10 sets × 20 metrics × 1,000 cases that is a 39 MB
 * JSON document. Here each row's per-case values are packed once (float64 and pass bytes, see
 * blob-codec.ts), each case's texts once (a JSON string per case), and the rest of the report is a
 * small "skeleton" with placeholders where those parts were cut out, plus a layout saying how to put
 * them back.
 *
 * A part is cut out only when putting it back gives the very same JSON (checked here, on write): a hand
 * edited or older report whose parts are not in the canonical form stays inline in the skeleton, so
 * `unpackReport(packReport(r))` always equals `JSON.parse(JSON.stringify(r))`. The content hash is
 * taken over the packed form, which is a function of the report's JSON alone: a reporter's run and
 * its rag-report.json imported later hash alike.
 */
import { createHash } from 'node:crypto'
import type { CaseValue, RagReport } from '../report/model.js'
import { jsonNumber, PASS_FALSE, packFloat64, passByte, passOf, unpackFloat64 } from './blob-codec.js'

/** A metric row's per-case values, packed. */
export interface PackedValues {
  readonly setIndex: number
  readonly metricIndex: number
  readonly count: number
  /** Little-endian float64 per case; null as NaN. */
  readonly values: Uint8Array
  /** One byte per case (see blob-codec.ts PASS_*). */
  readonly passes: Uint8Array
  /** The cases' ids; undefined when they are the set's cases, in order (the usual case). */
  readonly ids?: readonly string[]
}

/** One case of an eval set: its id and its JSON without `values` and `failing` (question, answer, retrieved, …). */
export interface PackedCase {
  readonly setIndex: number
  readonly caseIndex: number
  readonly id: string
  readonly texts: string
}

/** Indexes of entries that carried `positional: true` (0: none, 1: all). */
type Marks = 0 | 1 | number[]

/** Which entries of a row (or cases of a set) a list is: `start` of a contiguous run, or each index. */
type Slice = number | number[]

/** Where the skeleton's placeholders are filled from. */
interface Layout {
  /** Metric rows [set, metric] whose `values` are their packed values. */
  readonly rows: Array<[number, number]>
  /** Eval sets whose `cases` are rebuilt: texts from the cases, values and failing from the packed rows. */
  readonly sets: number[]
  /**
   * Assertions whose `perCase` are entries of a packed row (all of it, or its part of a row pooled from
   * several assertions): [assertion, set, metric, positional marks, which entries].
   */
  readonly perCase: Array<[number, number, number, Marks, Slice]>
  /** Assertions whose `cases` are texts of a set's cases: [assertion, set, positional marks, which cases]. */
  readonly caseTexts: Array<[number, number, Marks, Slice]>
}

export interface PackedReport {
  /** JSON `{ v, layout, report }`: the report with the packed parts replaced by 0 (an assertion's lists by their length). */
  readonly skeleton: string
  readonly values: readonly PackedValues[]
  readonly cases: readonly PackedCase[]
  /** SHA-256 (hex) of the packed form: the report's content hash. */
  readonly hash: string
}

const FORMAT = 2
const PLACEHOLDER = 0

type Obj = Record<string, unknown>
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v)

/** A row's packed values, decoded: what deriving a case's values needs. */
interface RowValues {
  readonly ids: readonly string[]
  readonly values: ReadonlyArray<number | null>
  readonly passes: Uint8Array
  /** The ids are the set's case ids in order: case j is entry j. */
  readonly aligned: boolean
  entries?: CaseValue[]
  byId?: Map<string, number[]>
}

/** What of a metric row deriving a case's `values` and `failing` needs, from the skeleton (same on write and read). */
interface RowInfo {
  readonly key: string
  readonly metric: string
  readonly isNot: boolean
  readonly packed: RowValues
}

function entriesOf(row: RowValues): CaseValue[] {
  row.entries ??= row.ids.map((id, i) => canonicalEntry(id, row.values[i] ?? null, row.passes[i]))
  return row.entries
}

function canonicalEntry(id: string, value: number | null, pass: number | undefined): CaseValue {
  const p = passOf(pass)
  return p === undefined ? { id, value } : { id, value, pass: p }
}

/**
 * Whether `e`'s defined keys are exactly `id`, `value` and optionally `pass` (and `positional: true` last
 * when `positional` is allowed), in that order: then it is rebuilt exactly from its packed bytes.
 * Returns 'positional' when it ended with `positional: true`.
 */
function entryShape(e: unknown, positional: boolean): false | 'plain' | 'positional' {
  if (!isObj(e)) return false
  let n = 0
  let marked = false
  for (const k in e) {
    const v = e[k]
    if (v === undefined) continue
    if (marked) return false
    if (n === 0 ? k !== 'id' : n === 1 ? k !== 'value' : n === 2 && k === 'pass' ? false : !(positional && k === 'positional' && v === true)) return false
    if (k === 'positional') marked = true
    n++
  }
  if (n < 2 || typeof e.id !== 'string' || !(e.value === null || typeof e.value === 'number') || !(e.pass === undefined || typeof e.pass === 'boolean')) return false
  return marked ? 'positional' : 'plain'
}

/**
 * Where case `index` (id `id`) is in a packed row, as buildReport puts it in the case's `values`: entry
 * `index` of an aligned row, else the first entry with its id; -1 when the row has no entry for the case.
 */
function caseInRow(p: RowValues, index: number, id: string): number {
  if (p.aligned) return index < p.ids.length ? index : -1
  return (idIndex(p).get(id) ?? NONE)[0] ?? -1
}

/** Whether an entry of the case did not pass (for an aligned row: entry `at`; else any entry with its id). */
function caseFailed(p: RowValues, at: number, id: string): boolean {
  if (p.aligned) return p.passes[at] === PASS_FALSE
  return (idIndex(p).get(id) ?? NONE).some((i) => p.passes[i] === PASS_FALSE)
}

const NONE: readonly number[] = []

function idIndex(p: RowValues): Map<string, number[]> {
  if (!p.byId) {
    const byId = new Map<string, number[]>()
    p.ids.forEach((rid, i) => {
      const list = byId.get(rid)
      if (list) list.push(i)
      else byId.set(rid, [i])
    })
    p.byId = byId
  }
  return p.byId
}

/** A case's `values` and `failing` from the set's packed rows (in row order; `.not` rows never fail a case). */
function deriveCase(rows: readonly RowInfo[], index: number, id: string): { values: Record<string, CaseValue>; failing: string[] } {
  const values: Record<string, CaseValue> = {}
  const failing: string[] = []
  for (const row of rows) {
    const at = caseInRow(row.packed, index, id)
    if (at < 0) continue
    values[row.key] = entriesOf(row.packed)[at] as CaseValue
    if (!row.isNot && caseFailed(row.packed, at, id) && !failing.includes(row.metric)) failing.push(row.metric)
  }
  return { values, failing }
}

/**
 * Whether case `c` is rebuilt exactly by its texts plus deriveCase's `values` and `failing` (those two its
 * last keys). The same walk as deriveCase, compared in place: no objects are built for 10,000 cases.
 */
function caseRebuilds(c: Obj, rows: readonly RowInfo[], index: number, id: string): boolean {
  let prev: string | undefined
  let last: string | undefined
  for (const k in c) {
    if (c[k] === undefined) continue
    prev = last
    last = k
  }
  if (prev !== 'values' || last !== 'failing' || !isObj(c.values) || !Array.isArray(c.failing)) return false
  const actual = c.values
  const keys = Object.keys(actual).filter((k) => actual[k] !== undefined)
  const failing = c.failing as unknown[]
  const seen: string[] = []
  let n = 0
  for (const row of rows) {
    const p = row.packed
    const at = caseInRow(p, index, id)
    if (at < 0) continue
    if (keys[n] !== row.key) return false
    const e = actual[row.key]
    if (entryShape(e, false) !== 'plain') return false
    const entry = e as { id: string; value: number | null; pass?: boolean }
    if (entry.id !== p.ids[at] || jsonNumber(entry.value) !== p.values[at] || passByte(entry.pass) !== p.passes[at]) return false
    n++
    if (!row.isNot && caseFailed(p, at, id) && !seen.includes(row.metric)) {
      if (failing[seen.length] !== row.metric) return false
      seen.push(row.metric)
    }
  }
  return n === keys.length && seen.length === failing.length
}

function rowInfos(metrics: unknown, packed: ReadonlyMap<number, RowValues> | undefined): RowInfo[] {
  const out: RowInfo[] = []
  if (!Array.isArray(metrics) || !packed) return out
  metrics.forEach((row: unknown, m) => {
    const p = packed.get(m)
    if (!p || !isObj(row) || typeof row.key !== 'string' || typeof row.metric !== 'string') return
    out.push({ key: row.key, metric: row.metric, isNot: row.isNot === true, packed: p })
  })
  return out
}

/** The indexes marked positional, as Marks. */
function marksOf(marked: number[], length: number): Marks {
  return marked.length === 0 ? 0 : marked.length === length ? 1 : marked
}

function isMarked(marks: Marks, i: number): boolean {
  return marks === 1 || (Array.isArray(marks) && marks.includes(i))
}

/** Packs `report` (see the module comment). Never throws on a report checkReport accepted: what cannot be packed stays inline. */
export function packReport(report: RagReport): PackedReport {
  const layout: Layout = { rows: [], sets: [], perCase: [], caseTexts: [] }
  const values: PackedValues[] = []
  const cases: PackedCase[] = []
  const rowsBySet = new Map<number, Map<number, RowValues>>()
  const textsBySet = new Map<number, { texts: string[]; ids: Map<string, number[]> }>()
  const byMatcher = new Map<string, Array<{ s: number; m: number; row: RowValues }>>()

  const evalSets = (report.evalSets as readonly unknown[]).map((set, s): unknown => {
    if (!isObj(set)) return set
    // The set's cases: ids and texts (every case with an id goes to the cases table, for `history case`).
    const caseList = Array.isArray(set.cases) ? (set.cases as unknown[]) : undefined
    const caseIds: Array<string | undefined> = []
    const texts: string[] = []
    caseList?.forEach((c, j) => {
      if (!isObj(c) || typeof c.id !== 'string') {
        caseIds.push(undefined)
        return
      }
      const { values: _values, failing: _failing, ...rest } = c
      const text = JSON.stringify(rest)
      caseIds.push(c.id)
      texts.push(text)
      cases.push({ setIndex: s, caseIndex: j, id: c.id, texts: text })
    })
    const complete = caseList !== undefined && texts.length === caseList.length
    if (complete) {
      const ids = new Map<string, number[]>()
      caseIds.forEach((id, j) => {
        const list = ids.get(id as string)
        if (list) list.push(j)
        else ids.set(id as string, [j])
      })
      textsBySet.set(s, { texts, ids })
    }

    // The rows' per-case values.
    const packedRows = new Map<number, RowValues>()
    const metrics = Array.isArray(set.metrics)
      ? (set.metrics as unknown[]).map((row, m): unknown => {
          if (!isObj(row) || !Array.isArray(row.values)) return row
          const list = row.values as unknown[]
          const ids: string[] = new Array<string>(list.length)
          const nums: Array<number | null> = new Array<number | null>(list.length)
          const passes = new Uint8Array(list.length)
          let exact = true
          for (let i = 0; i < list.length; i++) {
            const e = list[i]
            if (!isObj(e) || typeof e.id !== 'string' || !(e.value === null || typeof e.value === 'number') || !(e.pass === undefined || typeof e.pass === 'boolean'))
              return row
            if (exact && entryShape(e, false) !== 'plain') exact = false
            ids[i] = e.id
            nums[i] = jsonNumber(e.value)
            passes[i] = passByte(e.pass as boolean | undefined)
          }
          const aligned = complete && caseIds.length === ids.length && ids.every((id, i) => id === caseIds[i])
          const packed: RowValues = { ids, values: nums, passes, aligned }
          packedRows.set(m, packed)
          values.push({ setIndex: s, metricIndex: m, count: ids.length, values: packFloat64(nums), passes, ...(aligned ? {} : { ids }) })
          if (typeof row.matcher === 'string' && typeof row.signature === 'string') {
            const key = `${row.matcher}\u0000${row.signature}`
            const list2 = byMatcher.get(key)
            if (list2) list2.push({ s, m, row: packed })
            else byMatcher.set(key, [{ s, m, row: packed }])
          }
          if (!exact) return row
          layout.rows.push([s, m])
          return { ...row, values: PLACEHOLDER }
        })
      : set.metrics
    rowsBySet.set(s, packedRows)

    // The set's cases are cut out when every one of them rebuilds exactly.
    if (complete && caseList.length > 0) {
      const infos = rowInfos(set.metrics, packedRows)
      const exact = caseList.every((c, j) => caseRebuilds(c as Obj, infos, j, caseIds[j] as string))
      if (exact) {
        layout.sets.push(s)
        return { ...set, metrics, cases: PLACEHOLDER }
      }
    }
    return { ...set, metrics }
  })

  const setNames = (report.evalSets as readonly unknown[]).map((set) => (isObj(set) ? set.name : undefined))
  const assertions = (report.assertions as readonly unknown[]).map((a, i): unknown => {
    if (!isObj(a)) return a
    let out: Obj = a
    // perCase: the values of a row with the same matcher and signature (the assertion's own set first).
    if (Array.isArray(a.perCase) && a.perCase.length > 0 && typeof a.matcher === 'string' && typeof a.signature === 'string') {
      const candidates = [...(byMatcher.get(`${a.matcher}\u0000${a.signature}`) ?? [])].sort((x, y) => Number(setNames[y.s] === a.set) - Number(setNames[x.s] === a.set))
      for (const c of candidates) {
        const ref = perCaseRef(a.perCase as unknown[], c.row)
        if (ref === undefined) continue
        layout.perCase.push([i, c.s, c.m, ref.marks, ref.slice])
        // The placeholder of a list cut from an assertion is its length (a contiguous slice needs it).
        out = { ...out, perCase: a.perCase.length }
        break
      }
    }
    // cases: the texts of a set's cases, in order.
    if (Array.isArray(a.cases) && a.cases.length > 0) {
      const order = [...textsBySet.keys()].sort((x, y) => Number(setNames[y] === a.set) - Number(setNames[x] === a.set))
      for (const s of order) {
        const ref = textsRef(a.cases as unknown[], textsBySet.get(s) as { texts: string[]; ids: Map<string, number[]> })
        if (ref === undefined) continue
        layout.caseTexts.push([i, s, ref.marks, ref.slice])
        out = { ...out, cases: a.cases.length }
        break
      }
    }
    return out
  })

  const skeleton = JSON.stringify({ v: FORMAT, layout, report: { ...report, evalSets, assertions } })
  return { skeleton, values, cases, hash: packedHash(skeleton, values, cases) }
}

/**
 * Finds each of `count` list items among `length` slots: `matches(i, j)` says whether item i is slot j.
 * Slot prev + 1 is tried first (a list is usually a run of consecutive slots), then the slots `candidates(i)`.
 */
function sliceOf(count: number, length: number, matches: (i: number, j: number) => boolean, candidates: (i: number) => readonly number[]): Slice | undefined {
  const at: number[] = []
  let contiguous = true
  for (let i = 0; i < count; i++) {
    const guess = i === 0 ? 0 : (at[i - 1] as number) + 1
    const found = guess < length && matches(i, guess) ? guess : candidates(i).find((j) => matches(i, j))
    if (found === undefined) return undefined
    if (i > 0 && found !== (at[i - 1] as number) + 1) contiguous = false
    at.push(found)
  }
  return contiguous ? (at[0] ?? 0) : at
}

function sliceIndexes(slice: Slice, count: number): number[] {
  return typeof slice === 'number' ? Array.from({ length: count }, (_, i) => slice + i) : slice
}

/** How `perCase` is entries of `row` exactly (each may end with `positional: true`); undefined when it is not. */
function perCaseRef(perCase: readonly unknown[], row: RowValues): { marks: Marks; slice: Slice } | undefined {
  const marked: number[] = []
  for (let i = 0; i < perCase.length; i++) {
    const shape = entryShape(perCase[i], true)
    if (shape === false) return undefined
    if (shape === 'positional') marked.push(i)
  }
  const entries = perCase as ReadonlyArray<{ id: string; value: number | null; pass?: boolean }>
  const slice = sliceOf(
    entries.length,
    row.ids.length,
    (i, j) => {
      const e = entries[i] as { id: string; value: number | null; pass?: boolean }
      return e.id === row.ids[j] && jsonNumber(e.value) === row.values[j] && passByte(e.pass) === row.passes[j]
    },
    (i) => idIndex(row).get((entries[i] as { id: string }).id) ?? NONE,
  )
  return slice === undefined ? undefined : { marks: marksOf(marked, perCase.length), slice }
}

/** How `list` is texts of the set's cases exactly (each may end with `positional: true`); undefined when it is not. */
function textsRef(list: readonly unknown[], set: { texts: readonly string[]; ids: ReadonlyMap<string, number[]> }): { marks: Marks; slice: Slice } | undefined {
  const json: string[] = []
  for (const item of list) {
    if (!isObj(item) || typeof item.id !== 'string') return undefined
    json.push(JSON.stringify(item))
  }
  const marked = new Set<number>()
  const slice = sliceOf(
    list.length,
    set.texts.length,
    (i, j) => {
      const text = set.texts[j] as string
      if (json[i] === text) return true
      // The set's case has no `positional`; the assertion's copy of a case without id or question ends with it.
      if (json[i] === `${text.slice(0, -1)},"positional":true}` && text.length > 2) {
        marked.add(i)
        return true
      }
      return false
    },
    (i) => set.ids.get((list[i] as { id: string }).id) ?? NONE,
  )
  return slice === undefined
    ? undefined
    : {
        marks: marksOf(
          [...marked].sort((a, b) => a - b),
          list.length,
        ),
        slice,
      }
}

/** SHA-256 over the packed form; JSON text has no raw newline, so the newlines frame the parts unambiguously. */
function packedHash(skeleton: string, values: readonly PackedValues[], cases: readonly PackedCase[]): string {
  const h = createHash('sha256')
  h.update(`rag-matchers history run ${FORMAT}\n`)
  h.update(skeleton)
  for (const v of values) {
    h.update(`\n${v.setIndex} ${v.metricIndex} ${v.count} ${v.ids ? JSON.stringify(v.ids) : '='}\n`)
    h.update(v.values)
    h.update(v.passes)
  }
  for (const c of cases) h.update(`\n${c.setIndex} ${c.caseIndex} ${c.texts}`)
  return h.digest('hex')
}

/** The content hash of a report (see packReport): the same report, from a reporter or from its rag-report.json, hashes alike. */
export function contentHash(report: RagReport): string {
  return packReport(report).hash
}

/** The report packed by {@link packReport}, put back together: equal to the report's JSON round trip. */
export function unpackReport(skeleton: string, values: readonly PackedValues[], cases: readonly PackedCase[]): RagReport {
  const parsed = JSON.parse(skeleton) as { v: number; layout: Layout; report: Obj }
  if (parsed.v !== FORMAT) throw new Error(`stored run format ${String(parsed.v)} is not ${FORMAT}`)
  const { layout, report } = parsed
  const sets = report.evalSets as Obj[]
  const assertions = report.assertions as Obj[]
  const casesBySet = new Map<number, PackedCase[]>()
  for (const c of [...cases].sort((a, b) => a.setIndex - b.setIndex || a.caseIndex - b.caseIndex)) {
    const list = casesBySet.get(c.setIndex)
    if (list) list.push(c)
    else casesBySet.set(c.setIndex, [c])
  }
  const rowsBySet = new Map<number, Map<number, RowValues>>()
  for (const v of values) {
    const setIds = v.ids === undefined ? (casesBySet.get(v.setIndex) ?? []).map((c) => c.id) : undefined
    const row: RowValues = { ids: v.ids ?? setIds ?? [], values: unpackFloat64(v.values), passes: v.passes, aligned: v.ids === undefined }
    const map = rowsBySet.get(v.setIndex) ?? new Map<number, RowValues>()
    map.set(v.metricIndex, row)
    rowsBySet.set(v.setIndex, map)
  }
  const packedRow = (s: number, m: number): RowValues => {
    const row = rowsBySet.get(s)?.get(m)
    if (!row) throw new Error(`stored run lacks the values of metric row ${m} of eval set ${s}`)
    return row
  }
  const metricsOf = (s: number) => (sets[s] as Obj).metrics as Obj[]
  for (const [s, m] of layout.rows) (metricsOf(s)[m] as Obj).values = entriesOf(packedRow(s, m))
  for (const s of layout.sets) {
    const infos = rowInfos(metricsOf(s), rowsBySet.get(s))
    ;(sets[s] as Obj).cases = (casesBySet.get(s) ?? []).map((c) => {
      const out = JSON.parse(c.texts) as Obj
      const derived = deriveCase(infos, c.caseIndex, c.id)
      out.values = derived.values
      out.failing = derived.failing
      return out
    })
  }
  for (const [a, s, m, marks, slice] of layout.perCase) {
    const entries = entriesOf(packedRow(s, m))
    const count = Array.isArray(slice) ? slice.length : ((assertions[a] as Obj).perCase as number)
    ;(assertions[a] as Obj).perCase = sliceIndexes(slice, count).map((j, i) => ({ ...entries[j], ...(isMarked(marks, i) ? { positional: true } : {}) }))
  }
  for (const [a, s, marks, slice] of layout.caseTexts) {
    const setCases = casesBySet.get(s) ?? []
    const count = Array.isArray(slice) ? slice.length : ((assertions[a] as Obj).cases as number)
    ;(assertions[a] as Obj).cases = sliceIndexes(slice, count).map((j, i) => {
      const out = JSON.parse((setCases[j] as PackedCase).texts) as Obj
      if (isMarked(marks, i)) out.positional = true
      return out
    })
  }
  return report as unknown as RagReport
}
