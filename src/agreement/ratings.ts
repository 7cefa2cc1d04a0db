import { readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import { parse as parseCsv } from 'csv-parse/sync'
import { describeValue, MetricInputError } from '../errors.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import type { Label } from './shared.js'

/** One human (or judge) score: `rater` gave `item` the `score` on `dimension`. */
export interface ScoreRating {
  readonly item: string
  readonly rater: string
  /** What was rated (`faithfulness`, `fluency`…); `'overall'` when the file has no dimension. */
  readonly dimension: string
  /** A number (Likert, 0–1…) or a category label (`'pass'`, `'good'`); booleans are kept from JSONL. */
  readonly score: Label
}

/** One pairwise judgement: `rater` compared systems `a` and `b` on `item`. */
export interface PairwiseRating {
  readonly item: string
  readonly rater: string
  readonly a: string
  readonly b: string
  readonly winner: 'a' | 'b' | 'tie'
}

export interface Ratings {
  readonly scores: ScoreRating[]
  readonly comparisons: PairwiseRating[]
}

export type RatingsFormat = 'jsonl' | 'csv'

export interface ParseRatingsOptions {
  readonly format: RatingsFormat
  /** File name (or any label) used in error messages. @default '<input>' */
  readonly source?: string
}

/** The keys of {@link ParseRatingsOptions}: what parseRatings accepts. */
export const PARSE_RATINGS_OPTION_KEYS = keysOf<ParseRatingsOptions>()('format', 'source')

/** The options of {@link loadRatings}. */
export interface LoadRatingsOptions {
  /** Default: from the extension (`.jsonl`/`.ndjson` → jsonl, `.csv` → csv). */
  readonly format?: RatingsFormat
}

/** The keys of {@link LoadRatingsOptions}: what loadRatings accepts. */
export const LOAD_RATINGS_OPTION_KEYS = keysOf<LoadRatingsOptions>()('format')

/**
 * A malformed ratings file. It is a MetricInputError (`argument` is the field) that also carries the
 * file, the 1-based line and the field, and its message names all three:
 * ``parseRatings: ratings.csv line 4, field `score`: expected a number or a label, got `""` (string)``.
 */
export class RatingsParseError extends MetricInputError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly field: string,
    expected: string,
    received: unknown,
  ) {
    super('parseRatings', field, expected, received)
    this.message = `parseRatings: ${file} line ${line}, field \`${field}\`: expected ${expected}, got ${describeValue(received)}`
  }
}

const WINNERS = new Set(['a', 'b', 'tie'])
const DEFAULT_DIMENSION = 'overall'
// A plain decimal number, as a CSV cell holding a score is written; anything else is a category label.
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

/**
 * Reads ratings from JSONL (one JSON object per line) or CSV (a header row, then one record per row).
 *
 * Each record is either a score `{ item, rater, dimension?, score }` or a pairwise judgement
 * `{ item, rater, a, b, winner }` with `winner` one of `a`, `b`, `tie` (any case). `item`, `rater`, `a`, `b`
 * may be strings or numbers (kept as strings); a missing or empty `dimension` is `'overall'`. In CSV a score
 * that reads as a decimal number becomes a number, any other text a label; the header must name `item`,
 * `rater` and exactly one of `score` / `winner`. Blank lines are skipped; other columns or keys are ignored.
 * Every problem throws a {@link RatingsParseError} naming the file (`source`), the line and the field.
 *
 * @example
 * parseRatings('item,rater,score\nq1,ann,4\nq1,bob,5\n', { format: 'csv', source: 'likert.csv' }).scores[1]
 * // { item: 'q1', rater: 'bob', dimension: 'overall', score: 5 }
 */
export function parseRatings(text: string, options: ParseRatingsOptions): Ratings {
  if (typeof text !== 'string') throw new MetricInputError('parseRatings', 'text', 'a string', text)
  const source = options?.source ?? '<input>'
  const format = options?.format
  if (format !== 'jsonl' && format !== 'csv') throw new MetricInputError('parseRatings', 'options.format', "'jsonl' or 'csv'", format)
  checkOptionKeys('parseRatings', options, PARSE_RATINGS_OPTION_KEYS)
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  return format === 'jsonl' ? parseJsonl(body, source) : parseCsvText(body, source)
}

/**
 * {@link parseRatings} on a file. The format comes from the extension (`.jsonl`/`.ndjson` → jsonl,
 * `.csv` → csv) unless `options.format` is given; errors name the path.
 *
 * @example
 * const { scores } = await loadRatings('eval/human-ratings.csv')
 */
export async function loadRatings(path: string, options: LoadRatingsOptions = {}): Promise<Ratings> {
  if (typeof path !== 'string' || path === '') throw new MetricInputError('loadRatings', 'path', 'a file path', path)
  checkOptionKeys('loadRatings', options, LOAD_RATINGS_OPTION_KEYS)
  let format = options.format
  if (format === undefined) {
    const ext = extname(path).toLowerCase()
    if (ext === '.jsonl' || ext === '.ndjson') format = 'jsonl'
    else if (ext === '.csv') format = 'csv'
    else throw new MetricInputError('loadRatings', 'options.format', `'jsonl' or 'csv' (the extension '${ext}' does not say)`, undefined)
  }
  const text = await readFile(path, 'utf8')
  return parseRatings(text, { format, source: path })
}

type Raw = Record<string, unknown>

function parseJsonl(text: string, source: string): Ratings {
  const out: Ratings = { scores: [], comparisons: [] }
  const lines = text.split('\n')
  lines.forEach((rawLine, i) => {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine
    if (line.trim() === '') return
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      throw new RatingsParseError(source, i + 1, '(record)', `a JSON object (${(error as Error).message})`, line)
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new RatingsParseError(source, i + 1, '(record)', 'a JSON object', value)
    }
    addRecord(out, value as Raw, source, i + 1, 'jsonl')
  })
  return out
}

function parseCsvText(text: string, source: string): Ratings {
  const out: Ratings = { scores: [], comparisons: [] }
  let records: Array<{ record: Raw; info: { bytes: number } }>
  try {
    records = parseCsv(text, {
      columns: (header: string[]) => checkHeader(header, source),
      info: true,
      skip_empty_lines: true,
      trim: true,
    }) as unknown as Array<{ record: Raw; info: { bytes: number } }>
  } catch (error) {
    if (error instanceof RatingsParseError) throw error
    const e = error as Error & { lines?: number; column?: string | number }
    const field = typeof e.column === 'string' ? e.column : '(record)'
    throw new RatingsParseError(source, e.lines ?? 0, field, `well-formed CSV (${e.message})`, undefined)
  }
  // Line numbers from byte offsets: csv-parse's own line count drifts on CRLF files with quoted newlines.
  const lines = new LineCounter(Buffer.from(text, 'utf8'))
  let previousEnd = lines.headerEnd()
  for (const { record, info } of records) {
    addRecord(out, record, source, lines.lineOfRecordAfter(previousEnd), 'csv')
    previousEnd = info.bytes
  }
  return out
}

/** 1-based line numbers of byte offsets in a CSV buffer (line breaks: \n, \r\n or a lone \r). */
class LineCounter {
  private position = 0
  private line = 1
  constructor(private readonly bytes: Buffer) {}

  /** Offset just past the header row (a quoted header cell may contain line breaks). */
  headerEnd(): number {
    let quoted = false
    for (let i = 0; i < this.bytes.length; i += 1) {
      const b = this.bytes[i]
      if (b === 0x22) quoted = !quoted
      else if (!quoted && b === 0x0a) return i + 1
      else if (!quoted && b === 0x0d) return this.bytes[i + 1] === 0x0a ? i + 2 : i + 1
    }
    return this.bytes.length
  }

  /** The line where the record after `offset` starts, skipping the blank lines before it. */
  lineOfRecordAfter(offset: number): number {
    let start = offset
    while (start < this.bytes.length && (this.bytes[start] === 0x0a || this.bytes[start] === 0x0d)) start += 1
    for (; this.position < start; this.position += 1) {
      const b = this.bytes[this.position]
      if (b === 0x0a || (b === 0x0d && this.bytes[this.position + 1] !== 0x0a)) this.line += 1
    }
    return this.line
  }
}

function checkHeader(header: string[], source: string): string[] {
  const names = header.map((h) => h.trim())
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name)) throw new RatingsParseError(source, 1, name, 'a header with distinct column names', name)
    seen.add(name)
  }
  for (const required of ['item', 'rater']) {
    if (!seen.has(required)) throw new RatingsParseError(source, 1, required, `a header with an \`${required}\` column`, names.join(','))
  }
  const hasScore = seen.has('score')
  const hasWinner = seen.has('winner')
  if (hasScore === hasWinner) {
    throw new RatingsParseError(source, 1, hasScore ? 'winner' : 'score', 'a header with exactly one of `score` (scores) or `winner` (pairwise)', names.join(','))
  }
  if (hasWinner) {
    for (const side of ['a', 'b']) {
      if (!seen.has(side)) throw new RatingsParseError(source, 1, side, `a header with an \`${side}\` column (pairwise judgements)`, names.join(','))
    }
  }
  return names
}

function addRecord(out: Ratings, record: Raw, source: string, line: number, format: RatingsFormat): void {
  const item = identifier(record, 'item', source, line)
  const rater = identifier(record, 'rater', source, line)
  const hasScore = record.score !== undefined
  const hasWinner = record.winner !== undefined
  if (hasScore && hasWinner) throw new RatingsParseError(source, line, 'winner', 'either `score` or `winner`, not both', record.winner)
  if (hasWinner) {
    const winner = typeof record.winner === 'string' ? record.winner.trim().toLowerCase() : record.winner
    if (typeof winner !== 'string' || !WINNERS.has(winner)) throw new RatingsParseError(source, line, 'winner', "'a', 'b' or 'tie'", record.winner)
    const a = identifier(record, 'a', source, line)
    const b = identifier(record, 'b', source, line)
    if (a === b) throw new RatingsParseError(source, line, 'b', `a system other than a (${a})`, record.b)
    out.comparisons.push({ item, rater, a, b, winner: winner as 'a' | 'b' | 'tie' })
    return
  }
  if (!hasScore) throw new RatingsParseError(source, line, 'score', 'a `score` (or a `winner` for a pairwise judgement)', undefined)
  const score = scoreValue(record.score, format, source, line)
  const dimensionRaw = record.dimension
  let dimension = DEFAULT_DIMENSION
  if (dimensionRaw !== undefined && dimensionRaw !== null && dimensionRaw !== '') {
    if (typeof dimensionRaw !== 'string') throw new RatingsParseError(source, line, 'dimension', 'a string', dimensionRaw)
    dimension = dimensionRaw
  }
  out.scores.push({ item, rater, dimension, score })
}

function identifier(record: Raw, field: string, source: string, line: number): string {
  const v = record[field]
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  if (typeof v === 'string' && v.trim() !== '') return v
  return raise(source, line, field, 'a non-empty string or a number', v)
}

function scoreValue(v: unknown, format: RatingsFormat, source: string, line: number): Label {
  if (format === 'csv') {
    const text = String(v)
    if (text === '') return raise(source, line, 'score', 'a number or a label', v)
    return NUMBER.test(text) ? Number(text) : text
  }
  if (typeof v === 'number' && Number.isFinite(v)) return v
  if (typeof v === 'boolean') return v
  if (typeof v === 'string' && v.trim() !== '') return v
  return raise(source, line, 'score', 'a finite number, a boolean or a non-empty label', v)
}

function raise(source: string, line: number, field: string, expected: string, received: unknown): never {
  throw new RatingsParseError(source, line, field, expected, received)
}
