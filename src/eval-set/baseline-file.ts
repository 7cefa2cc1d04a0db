/**
 * Baseline files: `__rag_baselines__/<test file name>.json` next to the test file, committed like
 * snapshots. Synchronous on purpose: the baseline matcher is a sync matcher (no `await` needed).
 *
 * Format (version 2), keys sorted, one case per line so that a review diff shows which cases moved:
 *
 *   {
 *     "version": 2,
 *     "entries": {
 *       "qa": {
 *         "metrics": {
 *           "recall@3": {
 *             "measure": "mean recall@3",
 *             "signature": "R|k:3|empty:zero|dup:first|rev:1",
 *             "values": {
 *               "bleu-en-de": 1,
 *               "heads": 0.5
 *             }
 *           }
 *         }
 *       }
 *     }
 *   }
 *
 * `measure` names what the values are and the settings asked for (`mean sentence BLEU`, not corpus
 * BLEU; `mean nDCG@3 [order:score gain:exponential]`); `signature` is the identity: the core
 * function's signature built from the metric's options (`order:score`, `gain:exponential`,
 * `tok:intl`…) and the metric's implementation revision `rev` (see metric-revisions.ts), so values
 * computed with other options are never compared. A metric without `signature` (hand-written or
 * older files) is read with `unsigned: true`; the matcher takes the default settings' signature for it.
 * Version 1 (written by 0.1.0) has no `measure` and signatures ending in `version:0.1.0`; it is read
 * as it is, and compared by the settings it records (identitySignature maps the version to a revision).
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { MetricInputError } from '../errors.js'
import { makeFolderSync } from '../make-folder.js'
import { keysOf } from '../option-keys.js'
import { checkOptionKeys } from '../options.js'
import { acquireLock } from './baseline-lock.js'
import type { MetricValues } from './metric-run.js'
import { isMetricName, METRIC_NAMES, metricRange } from './metrics.js'

/** Default folder (next to the test file) that holds baseline files. */
export const BASELINE_DIR = '__rag_baselines__'
/** The `version` field written to baseline files. */
export const BASELINE_FORMAT_VERSION = 2
/** Versions read: 1 (0.1.0) and 2. */
const READABLE_VERSIONS: readonly number[] = [1, 2]

/** One metric of a baseline entry: its identity signature, a value per case id, and the measure's name. */
export interface BaselineMetric extends MetricValues {
  /** Display name of the measure and its settings (`mean nDCG@3 [order:score]`); absent in files written by 0.1.0. */
  readonly measure?: string
  /**
   * `true` when the file stored no `signature` for the metric (a hand-written or pre-signature file);
   * `signature` is then `''`. The baseline matcher compares such values as computed with the metric's
   * DEFAULT settings (the only ones the registry had before metrics took options), so a metric now
   * asked for with other options is refused rather than compared.
   */
  readonly unsigned?: true
}

/** One named baseline: per metric, its signature and a value per case id. */
export interface BaselineEntry {
  readonly metrics: Readonly<Record<string, BaselineMetric>>
}

export interface BaselineFile {
  /** The format version the file was read with (2 when written by this version). */
  readonly version: 1 | 2
  readonly entries: Readonly<Record<string, BaselineEntry>>
}

/** A baseline file that cannot be read: bad JSON or a shape other than versions 1 and 2. */
export class BaselineFileError extends Error {
  override readonly name = 'BaselineFileError'
  constructor(
    readonly file: string,
    readonly where: string,
    detail: string,
  ) {
    super(`${file}${where ? ` at ${where}` : ''}: ${detail}. Fix the file or delete it and rerun the tests to write it again.`)
  }
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Where the baselines of a test file live: `<dir>/<basename(testFile)>.json`, with `dir` defaulting to
 * `<folder of testFile>/__rag_baselines__`.
 *
 * @example baselinePathFor('/repo/test/qa.test.ts') // '/repo/test/__rag_baselines__/qa.test.ts.json'
 */
export function baselinePathFor(testFile: string, dir?: string): string {
  if (typeof testFile !== 'string' || testFile.length === 0) throw new MetricInputError('baselinePathFor', 'testFile', 'a non-empty file path', testFile)
  if (dir !== undefined && (typeof dir !== 'string' || dir.length === 0)) throw new MetricInputError('baselinePathFor', 'dir', 'a non-empty folder path', dir)
  return join(dir ?? join(dirname(testFile), BASELINE_DIR), `${basename(testFile)}.json`)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

/** A record without a prototype, so that a case id such as `__proto__` is an ordinary key. */
function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>
}

/**
 * The first key of `record` that the format does not have: a hand edit (`"signture"` would leave the metric
 * unsigned, compared as the default settings; `"value"` would leave the values unread), so it is refused.
 */
function unknownKey(record: Record<string, unknown>, allowed: readonly string[]): string | undefined {
  return Object.keys(record).find((key) => !allowed.includes(key))
}

/**
 * Checks a parsed baseline document (version 1 or 2, entries → metrics → `{ signature, values,
 * measure? }` with finite numbers, and no other key at those levels) and copies it into prototype-free records.
 * @throws BaselineFileError naming `file` and the JSON path of the first problem
 * @example validateBaselineFile({ version: 2, entries: {} }) // { version: 2, entries: {} }
 */
export function validateBaselineFile(data: unknown, file = '<baseline>'): BaselineFile {
  const path = (parts: string[]) => parts.map((p) => `[${JSON.stringify(p)}]`).join('')
  if (!isRecord(data)) throw new BaselineFileError(file, '', `expected a JSON object \`{ "version": ${BASELINE_FORMAT_VERSION}, "entries": { … } }\``)
  if (typeof data.version !== 'number' || !READABLE_VERSIONS.includes(data.version)) {
    throw new BaselineFileError(
      file,
      '["version"]',
      `expected version ${READABLE_VERSIONS.join(' or ')}, got ${JSON.stringify(data.version)} (written by a newer rag-matchers version?)`,
    )
  }
  const version = data.version as 1 | 2
  const extra = (record: Record<string, unknown>, allowed: readonly string[], at: string[]): void => {
    const key = unknownKey(record, allowed)
    if (key !== undefined) {
      throw new BaselineFileError(
        file,
        path([...at, key]),
        `unknown key ${JSON.stringify(key)}; a baseline file has only ${allowed.map((k) => JSON.stringify(k)).join(', ')} here`,
      )
    }
  }
  extra(data, ['version', 'entries'], [])
  if (!isRecord(data.entries)) throw new BaselineFileError(file, '["entries"]', 'expected an object of named entries')
  const entries = emptyRecord<BaselineEntry>()
  for (const [name, entry] of Object.entries(data.entries)) {
    if (!isRecord(entry) || !isRecord(entry.metrics)) throw new BaselineFileError(file, path(['entries', name]), 'expected `{ "metrics": { … } }`')
    extra(entry, ['metrics'], ['entries', name])
    const metrics = emptyRecord<BaselineMetric>()
    for (const [metric, mv] of Object.entries(entry.metrics)) {
      const at = ['entries', name, 'metrics', metric]
      if (!isRecord(mv) || (mv.signature !== undefined && typeof mv.signature !== 'string') || !isRecord(mv.values)) {
        throw new BaselineFileError(file, path(at), 'expected `{ "signature": string, "values": { caseId: number } }`')
      }
      extra(mv, ['measure', 'signature', 'values'], at)
      if (mv.measure !== undefined && typeof mv.measure !== 'string') throw new BaselineFileError(file, path([...at, 'measure']), 'expected a string')
      const values = emptyRecord<number>()
      for (const [id, v] of Object.entries(mv.values)) {
        if (typeof v !== 'number' || !Number.isFinite(v)) throw new BaselineFileError(file, path([...at, 'values', id]), `expected a finite number, got ${JSON.stringify(v)}`)
        values[id] = v
      }
      const signed = typeof mv.signature === 'string' ? { signature: mv.signature } : { signature: '', unsigned: true as const }
      metrics[metric] = typeof mv.measure === 'string' ? { measure: mv.measure, ...signed, values } : { ...signed, values }
    }
    entries[name] = { metrics }
  }
  return { version, entries }
}

/**
 * The first key repeated within one object of a JSON text (which `JSON.parse` would silently drop),
 * as the JSON path of the object and the key; `undefined` when none is. Assumes the text parses.
 * @example duplicateJsonKey('{"a": 1, "a": 2}') // { path: [], key: 'a' }
 */
export function duplicateJsonKey(text: string): { path: string[]; key: string } | undefined {
  // one frame per open object/array: its keys (objects) and the key/index that led to it
  const stack: Array<{ keys: Set<string> | undefined; at: string; pendingKey: string | undefined; index: number }> = []
  const pathOf = () => stack.slice(1).map((f) => f.at)
  let i = 0
  const readString = (): string => {
    const start = i
    i += 1
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
    i += 1
    return JSON.parse(text.slice(start, i)) as string
  }
  while (i < text.length) {
    const ch = text[i] as string
    const top = stack[stack.length - 1]
    if (ch === '"') {
      const str = readString()
      let j = i
      while (j < text.length && /\s/.test(text[j] as string)) j += 1
      if (top?.keys !== undefined && text[j] === ':') {
        if (top.keys.has(str)) return { path: pathOf(), key: str }
        top.keys.add(str)
        top.pendingKey = str
      }
      continue
    }
    if (ch === '{' || ch === '[') {
      const at = top === undefined ? '' : top.keys !== undefined ? (top.pendingKey ?? '') : String(top.index)
      stack.push({ keys: ch === '{' ? new Set() : undefined, at, pendingKey: undefined, index: 0 })
    } else if (ch === '}' || ch === ']') stack.pop()
    else if (ch === ',' && top !== undefined && top.keys === undefined) top.index += 1
    i += 1
  }
  return undefined
}

/**
 * What a hand edit can break beyond the shape: every metric key is a registry metric, and every
 * value is within its metric's range (`[0, 1]` for recall, `[0, 100]` for BLEU and chrF, ≥ 0 for TER).
 * @throws BaselineFileError naming the file, the entry and metric, and what is wrong
 */
export function checkBaselineValues(data: BaselineFile, file = '<baseline>'): void {
  const path = (parts: string[]) => parts.map((p) => `[${JSON.stringify(p)}]`).join('')
  for (const [name, entry] of Object.entries(data.entries)) {
    for (const [metric, mv] of Object.entries(entry.metrics)) {
      const at = ['entries', name, 'metrics', metric]
      if (!isMetricName(metric)) {
        throw new BaselineFileError(file, path(at), `${JSON.stringify(metric)} is not a metric rag-matchers knows (known: ${METRIC_NAMES.join(', ')}; k a positive integer)`)
      }
      const [low, high] = metricRange(metric)
      // The references themselves overshoot by rounding (sacrebleu's sentence BLEU of a text against itself is
      // 100.00000000000004, and ours equals it), so a value the run wrote is allowed that far past the bound.
      const slack = (Number.isFinite(high) ? Math.max(Math.abs(low), Math.abs(high)) : 1) * 1e-12
      for (const [id, v] of Object.entries(mv.values)) {
        if (v < low - slack || v > high + slack) {
          const range = Number.isFinite(high) ? `from ${low} to ${high}` : `≥ ${low}`
          throw new BaselineFileError(file, path([...at, 'values', id]), `${metric} is ${range}, got ${v} (entry "${name}", case ${JSON.stringify(id)})`)
        }
      }
    }
  }
}

/**
 * The text of a baseline file as JSON: a leading byte order mark is dropped, a key repeated in one
 * object is refused (JSON.parse would keep only the last), and the values are checked against the registry.
 * @throws BaselineFileError
 */
function parseBaselineText(text: string, file: string): BaselineFile {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  let data: unknown
  try {
    data = JSON.parse(body)
  } catch (error) {
    throw new BaselineFileError(file, '', `not valid JSON (${(error as Error).message})`)
  }
  const dup = duplicateJsonKey(body)
  if (dup !== undefined) {
    const where = dup.path.map((p) => `[${JSON.stringify(p)}]`).join('')
    throw new BaselineFileError(file, where, `the key ${JSON.stringify(dup.key)} appears twice in one object (JSON keeps only the last one)`)
  }
  const checked = validateBaselineFile(data, file)
  checkBaselineValues(checked, file)
  return checked
}

/**
 * Reads a baseline file; `undefined` when it does not exist.
 * @throws BaselineFileError when the file is not valid JSON or not a version 1 or 2 baseline file
 * @example readBaselineFile('test/__rag_baselines__/qa.test.ts.json')?.entries.qa?.metrics['recall@3']?.values.heads // 1
 */
export function readBaselineFile(file: string): BaselineFile | undefined {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  return parseBaselineText(text, file)
}

function checkFinite(where: string, value: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new MetricInputError('serializeBaselineFile', where, 'a finite number', value)
  // JSON.stringify prints the shortest text that parses back to the same double
  return JSON.stringify(value)
}

/**
 * The file's text: 2-space indentation, entries, metrics and case ids each in code-unit order, one
 * case per line, a final newline. Written by hand rather than by `JSON.stringify(obj, null, 2)`
 * because objects list integer-like keys ("2", "10") first whatever the insertion order.
 * Numbers print as `JSON.stringify` does (the shortest text that reads back as the same double).
 * @throws MetricInputError for a value that is not a finite number
 * Always writes the current format version ({@link BASELINE_FORMAT_VERSION}), whatever `data.version` says.
 * @example serializeBaselineFile({ version: 2, entries: {} }) // '{\n  "version": 2,\n  "entries": {}\n}\n'
 */
export function serializeBaselineFile(data: BaselineFile): string {
  const q = (s: string) => JSON.stringify(s)
  const block = (indent: string, items: string[]) => (items.length === 0 ? '{}' : `{\n${items.join(',\n')}\n${indent}}`)
  const entries = Object.keys(data.entries)
    .sort(byCodeUnit)
    .map((name) => {
      const entry = data.entries[name] as BaselineEntry
      const metrics = Object.keys(entry.metrics)
        .sort(byCodeUnit)
        .map((metric) => {
          const mv = entry.metrics[metric] as BaselineMetric
          const values = Object.keys(mv.values)
            .sort(byCodeUnit)
            .map((id) => `            ${q(id)}: ${checkFinite(`entries.${name}.metrics.${metric}.values.${id}`, mv.values[id] as number)}`)
          const measure = mv.measure === undefined ? '' : `\n          "measure": ${q(mv.measure)},`
          // a metric read without a signature is written back without one (it is rewritten with one on update)
          const signature = mv.unsigned === true ? '' : `\n          "signature": ${q(mv.signature)},`
          return `        ${q(metric)}: {${measure}${signature}\n          "values": ${block('          ', values)}\n        }`
        })
      return `    ${q(name)}: {\n      "metrics": ${block('      ', metrics)}\n    }`
    })
  return `{\n  "version": ${BASELINE_FORMAT_VERSION},\n  "entries": ${block('  ', entries)}\n}\n`
}

export interface BaselineLockOptions {
  /** Give up waiting for the lock after this long. @default 30_000 */
  readonly timeoutMs?: number
  /** A lock file older than this is left over from a crashed writer and is taken over (atomically, see baseline-lock.ts). @default 10_000 */
  readonly staleMs?: number
}

/** The keys of {@link BaselineLockOptions}: what updateBaselineFile accepts. */
export const BASELINE_LOCK_OPTION_KEYS = keysOf<BaselineLockOptions>()('timeoutMs', 'staleMs')

/** The options of {@link writeBaselineEntry}: the lock options plus `merge`. */
export interface WriteBaselineEntryOptions extends BaselineLockOptions {
  /** Keep the entry's existing metrics that the new entry does not mention. @default false */
  readonly merge?: boolean
}

/** The keys of {@link WriteBaselineEntryOptions}: what writeBaselineEntry accepts. */
export const WRITE_BASELINE_ENTRY_OPTION_KEYS = keysOf<WriteBaselineEntryOptions>()(...BASELINE_LOCK_OPTION_KEYS, 'merge')

function writeAtomically(file: string, text: string): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}.tmp`)
  const fd = openSync(temp, 'w')
  try {
    writeSync(fd, text)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  try {
    // rename within one folder replaces the target atomically: readers see the old file or the new one
    renameSync(temp, file)
  } catch (error) {
    try {
      unlinkSync(temp)
    } catch {
      // nothing to clean up
    }
    throw error
  }
}

/**
 * Read-modify-write of a baseline file under a lock: `<file>.lock` is created with `wx` (retrying
 * with a short backoff while another writer holds it), the file is re-read, `update` receives its
 * current content (`undefined` when absent) and returns the new content, which is written to a
 * temporary file in the same folder and renamed over the target. Concurrent writers of other
 * entries therefore merge instead of overwriting each other, and readers never see a partial file.
 * Nothing is written when the text would not change. Returns the new content. The lock is owned (a
 * token in the file, checked before removal); one older than `staleMs` (a crashed writer) is taken
 * over atomically; after `timeoutMs` of waiting it throws. See baseline-lock.ts.
 * @example
 * updateBaselineFile(file, (current) => ({ version: 2, entries: { ...current?.entries } }))
 */
export function updateBaselineFile(file: string, update: (current: BaselineFile | undefined) => BaselineFile, options: BaselineLockOptions = {}): BaselineFile {
  checkOptionKeys('updateBaselineFile', options, BASELINE_LOCK_OPTION_KEYS)
  makeFolderSync(dirname(file))
  const lock = acquireLock(`${file}.lock`, options)
  try {
    let oldText: string | undefined
    try {
      oldText = readFileSync(file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
    const current = oldText === undefined ? undefined : parseBaselineText(oldText, file)
    const next = update(current)
    const text = serializeBaselineFile(next)
    if (text !== oldText) writeAtomically(file, text)
    return next
  } finally {
    lock.release()
  }
}

/**
 * Sets one entry of a baseline file (creating the file), keeping every other entry as found on
 * disk at write time. With `merge: true`, the entry's existing metrics that `entry` does not
 * mention are kept too.
 *
 * @example
 * writeBaselineEntry('/tmp/__rag_baselines__/qa.test.ts.json', 'qa', {
 *   metrics: { 'recall@3': { measure: 'mean recall@3', signature: 'R|k:3|empty:zero|dup:first|rev:1', values: { heads: 1 } } },
 * })
 */
export function writeBaselineEntry(file: string, name: string, entry: BaselineEntry, options: WriteBaselineEntryOptions = {}): BaselineFile {
  if (typeof name !== 'string' || name.length === 0) throw new MetricInputError('writeBaselineEntry', 'name', 'a non-empty string', name)
  checkOptionKeys('writeBaselineEntry', options, WRITE_BASELINE_ENTRY_OPTION_KEYS)
  if (entry === null || typeof entry !== 'object' || entry.metrics === null || typeof entry.metrics !== 'object') {
    throw new MetricInputError('writeBaselineEntry', 'entry', 'an object `{ metrics: { [metric]: { signature, values } } }`', entry)
  }
  // A metric's in-memory values may say higherIsBetter (MetricValues, for compareRuns); the file never stores it.
  const stored = { metrics: Object.fromEntries(Object.entries(entry.metrics).map(([m, v]) => [m, withoutDirection(v)])) }
  const checked = validateBaselineFile({ version: BASELINE_FORMAT_VERSION, entries: { [name]: stored } }, file).entries[name] as BaselineEntry
  return updateBaselineFile(
    file,
    (current) => {
      const entries = emptyRecord<BaselineEntry>()
      for (const [n, e] of Object.entries(current?.entries ?? {})) entries[n] = e
      const previous = options.merge ? entries[name]?.metrics : undefined
      const metrics = emptyRecord<BaselineMetric>()
      for (const [m, v] of Object.entries(previous ?? {})) metrics[m] = v
      for (const [m, v] of Object.entries(checked.metrics)) metrics[m] = v
      entries[name] = { metrics }
      return { version: BASELINE_FORMAT_VERSION, entries }
    },
    // only the lock options: updateBaselineFile refuses `merge`
    lockOptions(options),
  )
}

/** A metric's values without the in-memory `higherIsBetter` flag (anything else is left for the validation to judge). */
function withoutDirection(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || !('higherIsBetter' in v)) return v
  const { higherIsBetter: _dropped, ...rest } = v as Record<string, unknown>
  return rest
}

/** The lock options of `options`, set ones only. */
function lockOptions(options: BaselineLockOptions): BaselineLockOptions {
  return {
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.staleMs === undefined ? {} : { staleMs: options.staleMs }),
  }
}
