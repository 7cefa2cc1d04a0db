/**
 * Eval-set files: JSON (an array of items), JSON Lines (one item per line) or CSV (a header row),
 * validated item by item with errors that point at the file, the line and the field.
 */
import { readFileSync } from 'node:fs'
import { extname } from 'node:path'
import { parse as parseCsv } from 'csv-parse/sync'
import type { ConversationTurn } from '../conversation/turns.js'
import { describeValue, MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { relevantBySubstring } from '../retrieval/relevant-by-substring.js'
import type { Id } from '../retrieval/types.js'
import { pyStrip } from '../text/python-string.js'

/** One question of an eval set, before the pipeline ran. Unknown fields are kept as they are. */
export interface EvalItem {
  /** Unique within the set; numbers are turned into strings (baselines key values by id). */
  readonly id: string
  readonly question: string
  /** Text whose presence in a chunk makes the chunk relevant (see {@link withKeywordGroundTruth}). */
  readonly keyword?: string
  /** Relevant ids (binary) or id → grade (graded). */
  readonly relevant?: readonly Id[] | Readonly<Record<string, number>>
  readonly reference?: string
  readonly references?: readonly string[]
  /**
   * Contexts recorded with the item, for a file of finished cases asserted on directly. runEvalSet
   * refuses an item that has them (like `answer` and `retrieved`): a case's contexts come from its pipeline.
   */
  readonly contexts?: readonly string[]
  /**
   * A conversation (JSON and JSONL only): its turns `{ user, assistant?, retrieved?, relevant?, contexts?,
   * reference? }` in order. Such an item needs no `question`: it gets the first turn's `user` message.
   */
  readonly turns?: readonly ConversationTurn[]
  readonly [extra: string]: unknown
}

export type Dataset = readonly EvalItem[]

export type DatasetFormat = 'json' | 'jsonl' | 'csv'

export interface ParseDatasetOptions {
  /** Defaults to the extension of `source` (`.json`, `.jsonl`/`.ndjson`, `.csv`). */
  readonly format?: DatasetFormat
  /** File name for error messages. @default '<inline>' */
  readonly source?: string
}

/** The keys of {@link ParseDatasetOptions}: what parseDataset accepts. */
export const PARSE_DATASET_OPTION_KEYS = keysOf<ParseDatasetOptions>()('format', 'source')

/** The options of {@link loadDataset}. */
export interface LoadDatasetOptions {
  /** Default: from the extension (`.json`, `.jsonl`/`.ndjson`, `.csv`). */
  readonly format?: DatasetFormat
}

/** The keys of {@link LoadDatasetOptions}: what loadDataset accepts. */
export const LOAD_DATASET_OPTION_KEYS = keysOf<LoadDatasetOptions>()('format')

/**
 * A dataset that does not validate. The message names the source, the line (and for JSON the array
 * index) and the field: ``parseDataset: eval.json line 7 (item [2]): Expected `question` to be a
 * non-empty string, got `3` (number)``.
 */
export class DatasetError extends MetricInputError {
  constructor(
    fn: string,
    readonly source: string,
    readonly line: number | undefined,
    readonly index: number | undefined,
    field: string,
    expected: string,
    received: unknown,
    hasReceived = true,
  ) {
    super(fn, field, expected, received)
    Object.defineProperty(this, 'name', { value: 'DatasetError' })
    const where = [source, line !== undefined ? `line ${line}` : undefined].filter(Boolean).join(' ') + (index !== undefined ? ` (item [${index}])` : '')
    this.message = hasReceived ? `${fn}: ${where}: Expected \`${field}\` to be ${expected}, got ${describeValue(received)}` : `${fn}: ${where}: ${expected}`
  }
}

const FN = 'parseDataset'

interface Location {
  readonly line: number | undefined
  readonly index: number | undefined
  /** Line of each top-level key of the item, when known (JSON). */
  readonly keyLines?: ReadonlyMap<string, number>
}

/** Offsets at which each line starts, for offset → line lookups. */
function lineStarts(text: string): number[] {
  const starts = [0]
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1)
  return starts
}

function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if ((starts[mid] as number) <= offset) lo = mid
    else hi = mid - 1
  }
  return lo + 1
}

/**
 * For a JSON text that already parsed, the line of each top-level array element and of each key of
 * an element that is an object. A small scanner rather than a full parser: the text is known valid.
 */
function jsonArrayLocations(text: string): Array<{ line: number; keyLines: Map<string, number> }> | undefined {
  const starts = lineStarts(text)
  let i = 0
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const skipString = () => {
    i++ // opening quote
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i++
  }
  const skipValue = () => {
    if (text[i] === '"') return skipString()
    if (text[i] === '{' || text[i] === '[') {
      let depth = 0
      do {
        const ch = text[i]
        if (ch === '"') {
          skipString()
          continue
        }
        if (ch === '{' || ch === '[') depth++
        else if (ch === '}' || ch === ']') depth--
        i++
      } while (depth > 0 && i < text.length)
      return
    }
    while (i < text.length && !',]} \t\n\r'.includes(text[i] as string)) i++
  }
  ws()
  if (text[i] !== '[') return undefined
  i++
  const out: Array<{ line: number; keyLines: Map<string, number> }> = []
  for (;;) {
    ws()
    if (text[i] === ']' || i >= text.length) break
    const keyLines = new Map<string, number>()
    out.push({ line: lineAt(starts, i), keyLines })
    if (text[i] === '{') {
      i++
      for (;;) {
        ws()
        if (text[i] === '}') {
          i++
          break
        }
        const keyStart = i
        skipString()
        const key = JSON.parse(text.slice(keyStart, i)) as string
        if (!keyLines.has(key)) keyLines.set(key, lineAt(starts, keyStart))
        ws()
        i++ // ':'
        ws()
        skipValue()
        ws()
        if (text[i] === ',') i++
      }
    } else {
      skipValue()
    }
    ws()
    if (text[i] === ',') i++
  }
  return out
}

/**
 * The offset where a JSON text stops following the grammar (RFC 8259), or undefined when it is
 * valid; only used to give a line for a syntax error.
 * @example jsonSyntaxErrorOffset('[1,]') // 3
 */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
  let i = 0
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  class Stop extends Error {}
  const stop = (): never => {
    throw new Stop()
  }
  const string = () => {
    if (text[i] !== '"') stop()
    i++
    for (;;) {
      if (i >= text.length) stop()
      const c = text.charCodeAt(i)
      if (c === 0x22) break
      if (c < 0x20) stop()
      if (c === 0x5c) {
        const e = text[i + 1]
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2
            stop()
          }
          i += 6
          continue
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) {
          i++
          stop()
        }
        i += 2
        continue
      }
      i++
    }
    i++
  }
  const value = (depth: number): void => {
    if (depth > 512) stop()
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        string()
        ws()
        if (text[i] !== ':') stop()
        i++
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === '}') {
          i++
          return
        }
        stop()
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (;;) {
        value(depth + 1)
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ']') {
          i++
          return
        }
        stop()
      }
    }
    if (c === '"') return string()
    for (const literal of ['true', 'false', 'null']) {
      if (text.startsWith(literal, i)) {
        i += literal.length
        return
      }
    }
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400))
    if (m === null || m[0].length === 0) stop()
    i += (m as RegExpExecArray)[0].length
  }
  try {
    value(0)
    ws()
    return i < text.length ? i : undefined
  } catch (error) {
    if (error instanceof Stop) return Math.min(i, text.length)
    throw error
  }
}

function fail(loc: Location, source: string, field: string, expected: string, received: unknown, fn = FN): never {
  const line = loc.keyLines?.get(field.split(/[.[]/)[0] as string) ?? loc.line
  throw new DatasetError(fn, source, line, loc.index, field, expected, received)
}

const RESERVED_STRINGS = ['keyword', 'reference'] as const

/**
 * Validates one raw item and returns it as an {@link EvalItem}. `fromCsv` enables the CSV cell
 * conventions (empty cell = absent; list cells as a JSON array or a `|`-separated list).
 */
function checkItem(raw: unknown, loc: Location, source: string, fromCsv: boolean): EvalItem {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail(loc, source, 'item', 'an object `{ id, question, … }`', raw)
  const item: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    if (fromCsv && value === '') continue
    Object.defineProperty(item, key, { value, enumerable: true, writable: true, configurable: true })
  }
  const id = item.id
  if (typeof id === 'number' && Number.isFinite(id)) item.id = String(id)
  else if (typeof id !== 'string' || pyStrip(id).length === 0) fail(loc, source, 'id', 'a non-empty string or a number', id)
  if (item.turns !== undefined) {
    if (fromCsv) fail(loc, source, 'turns', 'absent: a conversation is a JSON or JSONL item, not a CSV row', item.turns)
    checkTurns(item.turns, loc, source)
    // the conversation's opening message is its question, so the item is a valid EvalItem for runEvalSet
    if (item.question === undefined) item.question = (item.turns as Array<{ user: string }>)[0]?.user
  }
  if (typeof item.question !== 'string' || pyStrip(item.question).length === 0) fail(loc, source, 'question', 'a non-empty string', item.question)
  for (const key of RESERVED_STRINGS) {
    if (item[key] !== undefined && typeof item[key] !== 'string') fail(loc, source, key, 'a string', item[key])
  }
  if (typeof item.keyword === 'string' && item.keyword.length === 0) fail(loc, source, 'keyword', 'a non-empty string', item.keyword)
  for (const key of ['references', 'contexts'] as const) {
    if (item[key] === undefined) continue
    const list = fromCsv ? csvList(item[key] as string, loc, source, key) : item[key]
    if (!Array.isArray(list)) fail(loc, source, key, 'an array of strings', list)
    list.forEach((v, i) => {
      if (typeof v !== 'string') fail(loc, source, `${key}[${i}]`, 'a string', v)
    })
    if (key === 'references' && list.length === 0) fail(loc, source, key, 'a non-empty array of strings', list)
    item[key] = list
  }
  if (item.relevant !== undefined) item.relevant = checkRelevant(fromCsv ? csvRelevant(item.relevant as string, loc, source) : item.relevant, loc, source)
  return item as unknown as EvalItem
}

function checkRelevant(value: unknown, loc: Location, source: string, field = 'relevant'): EvalItem['relevant'] {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      if (!((typeof v === 'string' && v.length > 0) || (typeof v === 'number' && Number.isFinite(v))))
        fail(loc, source, `${field}[${i}]`, 'a non-empty string or a number (an id)', v)
    })
    return value as Id[]
  }
  if (value !== null && typeof value === 'object') {
    for (const [id, grade] of Object.entries(value)) {
      if (typeof grade !== 'number' || !Number.isFinite(grade)) fail(loc, source, `${field}.${id}`, 'a finite number (a grade)', grade)
    }
    return value as Record<string, number>
  }
  return fail(loc, source, field, 'an array of ids or an object of id → grade', value)
}

/**
 * A conversation's turns: a non-empty array of objects, each with a non-blank `user` message, and
 * `assistant` and `reference` strings, `contexts`/`references` arrays of strings, `retrieved` an array
 * and `relevant` ids or grades when given. The field in the message names the turn: `turns[2].user`.
 */
function checkTurns(turns: unknown, loc: Location, source: string): void {
  if (!Array.isArray(turns) || turns.length === 0) fail(loc, source, 'turns', 'a non-empty array of turns `{ user, assistant }`', turns)
  for (let i = 0; i < turns.length; i++) {
    const at = `turns[${i}]`
    const turn: unknown = turns[i]
    if (turn === null || typeof turn !== 'object' || Array.isArray(turn)) fail(loc, source, at, 'a turn `{ user, assistant }`', turn)
    const t = turn as Record<string, unknown>
    if (typeof t.user !== 'string' || pyStrip(t.user).length === 0) fail(loc, source, `${at}.user`, "a non-empty string (the user's message)", t.user)
    for (const key of ['assistant', 'reference'] as const) {
      if (t[key] !== undefined && typeof t[key] !== 'string') fail(loc, source, `${at}.${key}`, 'a string', t[key])
    }
    for (const key of ['references', 'contexts'] as const) {
      const list = t[key]
      if (list === undefined) continue
      if (!Array.isArray(list)) fail(loc, source, `${at}.${key}`, 'an array of strings', list)
      list.forEach((v: unknown, j) => {
        if (typeof v !== 'string') fail(loc, source, `${at}.${key}[${j}]`, 'a string', v)
      })
    }
    if (t.retrieved !== undefined && !Array.isArray(t.retrieved)) fail(loc, source, `${at}.retrieved`, 'an array of ids or `{ id }` objects', t.retrieved)
    if (t.relevant !== undefined) checkRelevant(t.relevant, loc, source, `${at}.relevant`)
  }
}

/** A CSV list cell: a JSON array when it starts with `[`, else a `|`-separated list (items stripped, empties dropped). */
function csvList(cell: string, loc: Location, source: string, field: string): unknown {
  const text = pyStrip(cell)
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text)
    } catch (error) {
      return fail(loc, source, field, `a JSON array or a |-separated list (the cell starts with "[" but is not valid JSON: ${(error as Error).message})`, cell)
    }
  }
  return text
    .split('|')
    .map((s) => pyStrip(s))
    .filter((s) => s.length > 0)
}

/** A CSV `relevant` cell: a JSON array, a JSON object of id → grade, or a `|`-separated list of ids. */
function csvRelevant(cell: string, loc: Location, source: string): unknown {
  const text = pyStrip(cell)
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text)
    } catch (error) {
      return fail(loc, source, 'relevant', `a JSON object of id → grade (the cell starts with "{" but is not valid JSON: ${(error as Error).message})`, cell)
    }
  }
  return csvList(cell, loc, source, 'relevant')
}

function checkUniqueIds(items: readonly EvalItem[], locs: readonly Location[], source: string): void {
  const seen = new Map<string, number>()
  items.forEach((item, i) => {
    const first = seen.get(item.id)
    if (first !== undefined) {
      const at = locs[first]?.line !== undefined ? `line ${locs[first]?.line}` : `item [${first}]`
      fail(locs[i] as Location, source, 'id', `unique (first used at ${at})`, item.id)
    }
    seen.set(item.id, i)
  })
}

function parseJson(text: string, source: string): EvalItem[] {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    // V8's message does not always give a position (Node 20: `Unexpected token '}', …"`), so find it ourselves.
    const pos = jsonSyntaxErrorOffset(text) ?? Number(/position (\d+)/.exec(message)?.[1] ?? Number.NaN)
    const line = Number.isNaN(pos) ? undefined : lineAt(lineStarts(text), pos)
    throw new DatasetError(FN, source, line, undefined, 'file', `not valid JSON: ${message}`, undefined, false)
  }
  if (!Array.isArray(data)) {
    throw new DatasetError(FN, source, 1, undefined, 'file', 'a JSON array of items `[{ "id": …, "question": … }, …]`', data)
  }
  const positions = jsonArrayLocations(text) ?? []
  const locs: Location[] = data.map((_, index) => {
    const p = positions[index]
    return { line: p?.line, index, keyLines: p?.keyLines }
  })
  const items = data.map((raw, index) => checkItem(raw, locs[index] as Location, source, false))
  checkUniqueIds(items, locs, source)
  return items
}

function parseJsonl(text: string, source: string): EvalItem[] {
  const items: EvalItem[] = []
  const locs: Location[] = []
  text.split('\n').forEach((rawLine, i) => {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine
    if (pyStrip(line).length === 0) return
    const loc = { line: i + 1, index: undefined }
    let data: unknown
    try {
      data = JSON.parse(line)
    } catch (error) {
      throw new DatasetError(FN, source, i + 1, undefined, 'line', `not valid JSON: ${(error as Error).message}`, undefined, false)
    }
    items.push(checkItem(data, loc, source, false))
    locs.push(loc)
  })
  checkUniqueIds(items, locs, source)
  return items
}

function parseCsvText(text: string, source: string): EvalItem[] {
  // Parse a Buffer so csv-parse's `info.bytes` (UTF-8 offsets) index the same bytes we count lines in.
  const buffer = Buffer.from(text, 'utf8')
  let rows: Array<{ record: string[]; info: { bytes: number } }>
  try {
    rows = parseCsv(buffer, { bom: true, info: true, skip_empty_lines: true, relax_column_count: false }) as unknown as typeof rows
  } catch (error) {
    const e = error as Error & { lines?: number }
    throw new DatasetError(FN, source, e.lines, undefined, 'file', `not valid CSV: ${e.message}`, undefined, false)
  }
  const newlines: number[] = []
  for (let i = 0; i < buffer.length; i++) if (buffer[i] === 10) newlines.push(i)
  const lineOf = (offset: number) => {
    let start = offset
    // skip_empty_lines: the record starts after any blank lines that follow the previous one
    while (start < buffer.length && (buffer[start] === 10 || buffer[start] === 13)) start++
    let lo = 0
    let hi = newlines.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((newlines[mid] as number) < start) lo = mid + 1
      else hi = mid
    }
    return lo + 1
  }
  const header = rows[0]
  if (header === undefined)
    throw new DatasetError(FN, source, undefined, undefined, 'file', 'a CSV file with a header row (`id,question,…`) and at least one item', undefined, false)
  const columns = header.record.map((c) => pyStrip(c))
  for (const required of ['id', 'question']) {
    if (!columns.includes(required)) throw new DatasetError(FN, source, 1, undefined, 'header', `a header row with an \`${required}\` column`, columns)
  }
  columns.forEach((c, i) => {
    if (c.length === 0) throw new DatasetError(FN, source, 1, undefined, `header column ${i + 1}`, 'a column name', header.record[i])
    if (columns.indexOf(c) !== i) throw new DatasetError(FN, source, 1, undefined, `header column ${i + 1}`, 'a unique column name', c)
  })
  const items: EvalItem[] = []
  const locs: Location[] = []
  for (let r = 1; r < rows.length; r++) {
    const row = rows[r] as (typeof rows)[number]
    const loc = { line: lineOf((rows[r - 1] as (typeof rows)[number]).info.bytes), index: undefined }
    const raw: Record<string, string> = {}
    columns.forEach((c, i) => Object.defineProperty(raw, c, { value: row.record[i] ?? '', enumerable: true, writable: true, configurable: true }))
    items.push(checkItem(raw, loc, source, true))
    locs.push(loc)
  }
  checkUniqueIds(items, locs, source)
  return items
}

function formatFor(fn: string, source: string | undefined, format: DatasetFormat | undefined): DatasetFormat {
  if (format !== undefined) {
    if (format !== 'json' && format !== 'jsonl' && format !== 'csv') throw new MetricInputError(fn, 'options.format', "'json', 'jsonl' or 'csv'", format)
    return format
  }
  const ext = source === undefined ? '' : extname(source).toLowerCase()
  if (ext === '.json') return 'json'
  if (ext === '.jsonl' || ext === '.ndjson') return 'jsonl'
  if (ext === '.csv') return 'csv'
  throw new MetricInputError(fn, 'options.format', "'json', 'jsonl' or 'csv' (it cannot be inferred from the file name)", format)
}

/**
 * Parses and validates an eval set.
 *
 * Item fields: `id` (non-empty string, or a number turned into a string; unique), `question`
 * (non-empty string), and optionally `keyword` (string), `relevant` (array of ids, or object of
 * id → grade), `reference` (string), `references` (non-empty array of strings), `contexts` (array of
 * strings). Other fields are kept unchanged.
 *
 * Pipeline outputs (`answer`, `retrieved`, `contexts`) are kept too, so a file of finished cases can be
 * asserted on directly (`expect(loadDataset('run.jsonl')).toScoreBleuAbove(20)`); runEvalSet refuses an
 * item that carries one, naming it, since a case's outputs must come from its pipeline (a failed call
 * would otherwise be scored on the file's copy). A reference answer belongs in `reference`.
 *
 * Formats:
 * - `json`: one array of item objects. Errors give the array index and the line of the item (or of
 *   the offending key).
 * - `jsonl`: one item object per line; blank lines are skipped. Errors give the line.
 * - `csv`: a header row naming the fields (`id` and `question` required), one item per record
 *   (quoted fields may span lines; a UTF-8 BOM is ignored). Every cell is a string; an empty cell
 *   means the field is absent. `relevant`, `references` and `contexts` cells hold either a JSON
 *   array (`["c1","c2"]`; for `relevant` also a JSON object of grades `{"c1":2}`) or a
 *   `|`-separated list (`c1|c2`, items stripped, empty items dropped), so a reference containing
 *   `|` must use the JSON form. Errors give the line where the record starts.
 *
 * @throws DatasetError (a MetricInputError) naming the source, line, item index (JSON) and field
 * @example
 * parseDataset('id,question,relevant\nq1,What is BLEU?,c1|c4\n', { format: 'csv', source: 'set.csv' })
 * // [{ id: 'q1', question: 'What is BLEU?', relevant: ['c1', 'c4'] }]
 */
export function parseDataset(text: string, options: ParseDatasetOptions = {}): EvalItem[] {
  if (typeof text !== 'string') throw new MetricInputError(FN, 'text', 'a string', text)
  if (options === null || typeof options !== 'object') throw new MetricInputError(FN, 'options', 'an object', options)
  checkOptionKeys(FN, options, PARSE_DATASET_OPTION_KEYS)
  if (options.source !== undefined && typeof options.source !== 'string') throw new MetricInputError(FN, 'options.source', 'a string', options.source)
  const source = options.source ?? '<inline>'
  const format = formatFor(FN, options.source, options.format)
  const body = text.charCodeAt(0) === 0xfeff && format !== 'csv' ? text.slice(1) : text
  if (format === 'json') return parseJson(body, source)
  if (format === 'jsonl') return parseJsonl(body, source)
  return parseCsvText(body, source)
}

/**
 * Reads and validates an eval-set file (UTF-8); the format comes from the extension (`.json`,
 * `.jsonl`/`.ndjson`, `.csv`) unless given. Synchronous, so it can run while tests are collected.
 *
 * @throws DatasetError naming the file, line and field (see {@link parseDataset}); the usual fs errors for a missing file
 * @example
 * const dataset = loadDataset('examples/transformer-qa/data/eval-set.json')
 * dataset[0] // { id: 'heads', question: 'How many attention heads does the base Transformer use?', keyword: 'h = 8', reference: '…' }
 */
export function loadDataset(path: string, options: LoadDatasetOptions = {}): EvalItem[] {
  if (typeof path !== 'string' || path.length === 0) throw new MetricInputError('loadDataset', 'path', 'a non-empty file path', path)
  checkOptionKeys('loadDataset', options, LOAD_DATASET_OPTION_KEYS)
  const format = formatFor('loadDataset', path, options?.format)
  return parseDataset(readFileSync(path, 'utf8'), { format, source: path })
}

/**
 * Fills in `relevant` from `keyword` for the items that have a keyword but no `relevant`: the ids of
 * the chunks whose text contains the keyword, case-insensitively ({@link relevantBySubstring}), in
 * chunk order. Items with `relevant` keep it; items with neither are returned unchanged. A keyword
 * found in no chunk gives `relevant: []` (every retrieval metric of that item is then 0).
 *
 * @example
 * withKeywordGroundTruth([{ id: 'q1', question: '…', keyword: 'h = 8' }], [{ id: 'c1', text: 'h = 8 heads' }, { id: 'c2', text: 'BLEU' }])
 * // [{ id: 'q1', question: '…', keyword: 'h = 8', relevant: ['c1'] }]
 */
export function withKeywordGroundTruth(dataset: readonly EvalItem[], chunks: ReadonlyArray<{ readonly id: Id; readonly text: string }>): EvalItem[] {
  if (!Array.isArray(dataset)) throw new MetricInputError('withKeywordGroundTruth', 'dataset', 'an array of eval items', dataset)
  return dataset.map((item, i) => {
    if (item === null || typeof item !== 'object') throw new MetricInputError('withKeywordGroundTruth', `dataset[${i}]`, 'an eval item object', item)
    if (item.relevant !== undefined || item.keyword === undefined) return item
    return { ...item, relevant: [...relevantBySubstring(chunks, item.keyword)] }
  })
}

/** One chunk of a retrieval corpus: the id a pipeline retrieves and the text a keyword is looked for in. */
export interface CorpusChunk {
  readonly id: Id
  readonly text: string
}

/** A corpus for keyword ground truth: the chunks, a JSON/JSONL file of them, or a function returning them. */
export type CorpusSource = readonly CorpusChunk[] | string | (() => readonly CorpusChunk[] | Promise<readonly CorpusChunk[]>)

/** Checks chunks `{ id, text }` (ids non-empty strings or finite numbers, unique), naming the bad one. */
export function checkCorpus(fn: string, chunks: unknown, where = 'corpus'): CorpusChunk[] {
  if (!Array.isArray(chunks)) throw new MetricInputError(fn, where, 'an array of chunks `{ id, text }`, a JSON/JSONL file path, or a function returning chunks', chunks)
  const seen = new Set<Id>()
  chunks.forEach((chunk: unknown, i) => {
    if (chunk === null || typeof chunk !== 'object' || Array.isArray(chunk)) throw new MetricInputError(fn, `${where}[${i}]`, 'a chunk `{ id, text }`', chunk)
    const { id, text } = chunk as { id?: unknown; text?: unknown }
    if (!((typeof id === 'string' && id.length > 0) || (typeof id === 'number' && Number.isFinite(id)))) {
      throw new MetricInputError(fn, `${where}[${i}].id`, 'a non-empty string or a number', id)
    }
    if (typeof text !== 'string') throw new MetricInputError(fn, `${where}[${i}].text`, 'a string', text)
    if (seen.has(id)) throw new MetricInputError(fn, `${where}[${i}].id`, 'unique within the corpus', id)
    seen.add(id)
  })
  return chunks as CorpusChunk[]
}

/**
 * Reads a corpus file (UTF-8): a JSON array of chunks `{ id, text }` or JSON Lines, one chunk per
 * line (`.jsonl`/`.ndjson`; blank lines skipped). Extra fields are kept.
 *
 * @throws DatasetError naming the file and line of invalid JSON or a bad chunk; the usual fs errors for a missing file
 * @example loadCorpus('eval/chunks.jsonl') // [{ id: 'c1', text: 'AES-256 at rest' }, …]
 */
export function loadCorpus(path: string): CorpusChunk[] {
  const fn = 'loadCorpus'
  if (typeof path !== 'string' || path.length === 0) throw new MetricInputError(fn, 'path', 'a non-empty file path', path)
  const ext = extname(path).toLowerCase()
  if (ext !== '.json' && ext !== '.jsonl' && ext !== '.ndjson') throw new MetricInputError(fn, 'path', 'a .json, .jsonl or .ndjson file of chunks `{ id, text }`', path)
  const raw = readFileSync(path, 'utf8')
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw
  if (ext === '.json') {
    let data: unknown
    try {
      data = JSON.parse(text)
    } catch (error) {
      const pos = jsonSyntaxErrorOffset(text)
      throw new DatasetError(
        fn,
        path,
        pos === undefined ? undefined : lineAt(lineStarts(text), pos),
        undefined,
        'file',
        `not valid JSON: ${(error as Error).message}`,
        undefined,
        false,
      )
    }
    const positions = jsonArrayLocations(text) ?? []
    try {
      return checkCorpus(fn, data, 'chunks')
    } catch (error) {
      const index = Number(/^chunks\[(\d+)\]/.exec((error as MetricInputError).argument ?? '')?.[1] ?? Number.NaN)
      if (error instanceof MetricInputError && !Number.isNaN(index)) {
        throw new DatasetError(fn, path, positions[index]?.line, index, error.argument, error.expected, error.received)
      }
      throw error
    }
  }
  const chunks: unknown[] = []
  const lines: number[] = []
  text.split('\n').forEach((rawLine, i) => {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine
    if (pyStrip(line).length === 0) return
    try {
      chunks.push(JSON.parse(line))
    } catch (error) {
      throw new DatasetError(fn, path, i + 1, undefined, 'line', `not valid JSON: ${(error as Error).message}`, undefined, false)
    }
    lines.push(i + 1)
  })
  try {
    return checkCorpus(fn, chunks, 'chunks')
  } catch (error) {
    const index = Number(/^chunks\[(\d+)\]/.exec((error as MetricInputError).argument ?? '')?.[1] ?? Number.NaN)
    if (error instanceof MetricInputError && !Number.isNaN(index)) {
      throw new DatasetError(fn, path, lines[index], undefined, error.argument.replace(/^chunks\[\d+\]\.?/, '') || 'chunk', error.expected, error.received)
    }
    throw error
  }
}

/**
 * The corpus of a run: `corpus` itself (checked), the chunks of a file ({@link loadCorpus}), or what
 * a function returns (awaited, checked).
 */
export async function resolveCorpus(fn: string, corpus: CorpusSource): Promise<CorpusChunk[]> {
  if (typeof corpus === 'string') return loadCorpus(corpus)
  if (typeof corpus === 'function') return checkCorpus(fn, await corpus(), 'the chunks options.corpus() returned')
  return checkCorpus(fn, corpus, 'options.corpus')
}

/**
 * {@link withKeywordGroundTruth} that fails loudly: an item with `keyword` and no `relevant` gets the
 * ids of the chunks containing the keyword (case-insensitive), and a keyword found in no chunk is an
 * error naming every such item and its keyword (it would otherwise score 0 on every retrieval metric
 * for a typo such as `AES 256` against `AES-256`).
 *
 * @throws MetricInputError listing each item id whose keyword matches no chunk
 */
export function keywordGroundTruth<I extends { readonly id?: unknown; readonly keyword?: unknown; readonly relevant?: unknown }>(
  fn: string,
  dataset: readonly I[],
  chunks: readonly CorpusChunk[],
): I[] {
  const unmatched: string[] = []
  const out = dataset.map((item, i) => {
    if (item.relevant !== undefined || typeof item.keyword !== 'string' || item.keyword.length === 0) return item
    const relevant = relevantBySubstring(chunks, item.keyword)
    if (relevant.size === 0) unmatched.push(`${item.id !== undefined ? `item ${JSON.stringify(String(item.id))}` : `dataset[${i}]`}: keyword ${JSON.stringify(item.keyword)}`)
    return { ...item, relevant: [...relevant] }
  })
  if (unmatched.length > 0) {
    const shown = unmatched.slice(0, 10).join('; ') + (unmatched.length > 10 ? `; … and ${unmatched.length - 10} more` : '')
    const error = new MetricInputError(fn, 'keyword', 'found in at least one corpus chunk', undefined)
    error.message =
      `${fn}: ${unmatched.length} of ${dataset.length} items have a keyword found in no chunk of the corpus (${chunks.length} chunks; case-insensitive substring), ` +
      `so they would have no relevant chunk and score 0 on every retrieval metric: ${shown}. Spell the keyword as the corpus does, or give the item \`relevant\``
    throw error
  }
  return out
}
