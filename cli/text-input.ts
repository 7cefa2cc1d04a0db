/**
 * What the sacrebleu-style text commands (`bleu`, `chrf`, `rouge`, `meteor`) share: argparse-like option parsing,
 * reading one segment per line from files or stdin, the line-count checks, Python's `%.Nf` number formatting and
 * the run/exit-code plumbing. Each command only declares its options, turns them into core options, and formats.
 *
 * Input rules (sacrebleu 2.6's CLI, which reads with `open(..., newline="\n")` and `line.rstrip()`):
 * - lines end at `\n` only; a file that ends with `\n` has no extra empty segment (Python `readlines`), while a
 *   blank line before the end is a real, empty segment; an empty file has zero segments;
 * - each line is `rstrip()`ped of Python whitespace, which also removes the `\r` of CRLF files (this changes no
 *   number except chrF with `--chrf-whitespace`, exactly as in sacrebleu's CLI);
 * - UTF-8, decoded strictly (invalid bytes are an input error); a leading BOM is dropped (sacrebleu would keep
 *   U+FEFF as a character of the first segment; we don't, on purpose).
 */
import { readFile } from 'node:fs/promises'
import { MetricInputError } from '../src/errors.js'
import { formatFixed } from '../src/retrieval/trec/c-format.js'
import { buildSignature, parseSignature } from '../src/signature.js'
import { pyIsSpaceCode } from '../src/text/python-string.js'
import { cannotRead, cliMessage, EXIT, reportFailure, writeOut, type CliIo } from './io.js'

/** A bad command line: unknown option, missing or bad value, wrong file count (exit 1). */
export class CliUsageError extends Error {}

/** Unreadable or unusable input: missing file, invalid UTF-8, line-count mismatch, no segments (exit 2). */
export class CliInputError extends Error {}

/** One option: every spelling (`['-tok', '--tokenize']`), the key it is stored under, whether it takes a value. */
export interface OptionDef {
  readonly names: readonly string[]
  readonly key: string
  readonly value?: boolean
  /** argparse `nargs='+'`: the option takes every following argument up to the next option (stored in `lists`). */
  readonly multi?: boolean
}

export interface ParsedArgs {
  readonly positionals: readonly string[]
  /** Flags that were given. */
  readonly flags: ReadonlySet<string>
  /** Option values by key; the last one given wins (argparse). */
  readonly values: ReadonlyMap<string, string>
  /** Values of `multi` options by key (`-i a.txt b.txt`); a repeated option replaces the list, as argparse does. */
  readonly lists: ReadonlyMap<string, readonly string[]>
  /** How the user spelled each option given, for messages. */
  readonly spelled: ReadonlyMap<string, string>
}

/** The options every text command has. */
export const COMMON_OPTIONS: readonly OptionDef[] = [
  { names: ['-i', '--input'], key: 'input', value: true },
  { names: ['-w', '--width'], key: 'width', value: true },
  { names: ['-f', '--format'], key: 'format', value: true },
  { names: ['--json'], key: 'json' },
  { names: ['-sl', '--sentence-level'], key: 'sentenceLevel' },
  { names: ['-b', '--score-only'], key: 'scoreOnly' },
  { names: ['-h', '--help'], key: 'help' },
]

/**
 * argparse-style parsing: options and files in any order, `--name value` or `--name=value` (any spelling,
 * `-tok=intl` too), one-letter short options also as `-w2`, `--` ends the options, `-` is a file (stdin).
 * Repeated value options keep the last value (argparse). Long options must be spelled in full (argparse would
 * accept an unambiguous prefix).
 *
 * @throws CliUsageError for an unknown option, a value given to a flag, or a missing value
 * @example
 * parseCliArgs(['ref.txt', '-w2', '--json'], COMMON_OPTIONS)
 * // → { positionals: ['ref.txt'], flags: Set {'json'}, values: Map {'width' → '2'}, spelled: … }
 */
export function parseCliArgs(argv: readonly string[], defs: readonly OptionDef[]): ParsedArgs {
  const byName = new Map<string, OptionDef>()
  for (const def of defs) for (const name of def.names) byName.set(name, def)
  const positionals: string[] = []
  const flags = new Set<string>()
  const values = new Map<string, string>()
  const lists = new Map<string, string[]>()
  const spelled = new Map<string, string>()
  let onlyFiles = false
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string
    if (onlyFiles || arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg)
      continue
    }
    if (arg === '--') {
      onlyFiles = true
      continue
    }
    let name = arg
    let attached: string | undefined
    let def = byName.get(arg)
    if (def === undefined) {
      const eq = arg.indexOf('=')
      if (eq > 0 && byName.has(arg.slice(0, eq))) {
        name = arg.slice(0, eq)
        attached = arg.slice(eq + 1)
      } else if (!arg.startsWith('--') && arg.length > 2 && byName.get(arg.slice(0, 2))?.value) {
        // `-w2`: a one-letter option with its value attached (argparse allows it for one-letter options only)
        name = arg.slice(0, 2)
        attached = arg.slice(2)
      } else {
        throw new CliUsageError(`unknown option ${arg}`)
      }
      def = byName.get(name) as OptionDef
    }
    spelled.set(def.key, name)
    if (!def.value) {
      if (attached !== undefined) throw new CliUsageError(`option ${name} takes no value, got '${attached}'`)
      flags.add(def.key)
      continue
    }
    if (def.multi) {
      const list = attached === undefined ? [] : [attached]
      // like argparse, take arguments up to the next one that looks like an option ('-' alone is stdin, a file)
      while (i + 1 < argv.length && (argv[i + 1] === '-' || !(argv[i + 1] as string).startsWith('-'))) list.push(argv[++i] as string)
      if (list.length === 0) throw new CliUsageError(`option ${name} needs at least one value`)
      lists.set(def.key, list)
      continue
    }
    const value = attached ?? argv[++i]
    if (value === undefined) throw new CliUsageError(`option ${name} needs a value`)
    values.set(def.key, value)
  }
  return { positionals, flags, values, lists, spelled }
}

/**
 * The value of an option as an integer in [min, max], or `fallback` when not given.
 *
 * @throws CliUsageError naming the option as the user spelled it
 * @example
 * intOption(parseCliArgs(['-w', '3'], COMMON_OPTIONS), 'width', 1, 0, 20) // → 3
 */
export function intOption(args: ParsedArgs, key: string, fallback: number, min: number, max: number): number {
  const text = args.values.get(key)
  if (text === undefined) return fallback
  const value = /^\s*[+-]?\d+\s*$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new CliUsageError(`option ${args.spelled.get(key)} expects an integer from ${min} to ${max}, got '${text}'`)
  }
  return value
}

/**
 * The value of an option as a finite decimal number in [min, max], or `fallback` when not given (decimal and
 * exponent forms; no `inf`/`nan`).
 *
 * @throws CliUsageError naming the option as the user spelled it
 * @example
 * numberOption(parseCliArgs(['--alpha', '.5'], [{ names: ['--alpha'], key: 'alpha', value: true }]), 'alpha', 0.9, 0, 1) // → 0.5
 */
export function numberOption(args: ParsedArgs, key: string, fallback: number, min: number, max: number = Number.POSITIVE_INFINITY): number {
  const text = args.values.get(key)
  if (text === undefined) return fallback
  const value = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isFinite(value) || value < min || value > max) {
    const range = max === Number.POSITIVE_INFINITY ? `a number ≥ ${min}` : `a number from ${min} to ${max}`
    throw new CliUsageError(`option ${args.spelled.get(key)} expects ${range}, got '${text}'`)
  }
  return value
}

/**
 * The value of an option as one of `choices`, or `fallback` when not given.
 *
 * @throws CliUsageError listing the choices
 * @example
 * choiceOption(parseCliArgs([], COMMON_OPTIONS), 'tokenize', '13a', ['13a', 'intl']) // → '13a'
 */
export function choiceOption<T extends string>(args: ParsedArgs, key: string, fallback: T, choices: readonly T[]): T {
  const text = args.values.get(key)
  if (text === undefined) return fallback
  if (!(choices as readonly string[]).includes(text)) {
    throw new CliUsageError(`option ${args.spelled.get(key)} expects one of ${choices.join(', ')}, got '${text}'`)
  }
  return text as T
}

/**
 * Python `f'{x:.{decimals}f}'` (what sacrebleu prints): correctly rounded from the exact binary value, half to even
 * on exact ties, where JS `toFixed` rounds up. Checked against Python on 18,090 values while writing it.
 *
 * @example
 * pyFixed(1.0625, 3) // → '1.062' (JS (1.0625).toFixed(3) gives '1.063')
 */
export function pyFixed(x: number, decimals: number): string {
  return formatFixed(x, decimals)
}

/**
 * The segments of one file's text, as sacrebleu's CLI reads them: split on `\n` only, no extra empty segment for a
 * final `\n` (Python `readlines`), each line `rstrip()`ped of Python whitespace; `''` has zero segments.
 *
 * @example
 * splitSegments('a b \r\n\nc') // → ['a b', '', 'c']
 */
export function splitSegments(text: string): string[] {
  if (text.length === 0) return []
  const lines = text.split('\n')
  // "a\nb\n" is two lines, as readlines() gives; "a\nb" is two as well
  if (lines[lines.length - 1] === '') lines.pop()
  for (let i = 0; i < lines.length; i++) lines[i] = rstrip(lines[i] as string)
  return lines
}

/** Python `str.rstrip()` as a loop (a `[…]+$` regex would retry at every whitespace run of a long line). */
function rstrip(line: string): string {
  let end = line.length
  while (end > 0 && pyIsSpaceCode(line.charCodeAt(end - 1))) end--
  return end === line.length ? line : line.slice(0, end)
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

function decode(bytes: Uint8Array, label: string): string {
  try {
    // TextDecoder drops a leading BOM (ignoreBOM is false)
    return utf8.decode(bytes)
  } catch {
    throw new CliInputError(`${label} is not valid UTF-8`)
  }
}

async function readSource(path: string, io: CliIo): Promise<Uint8Array> {
  if (path === '-') {
    if (!io.stdin) throw new CliUsageError("'-' needs standard input, which is not available here")
    const chunks: Uint8Array[] = []
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk)
    return Buffer.concat(chunks)
  }
  try {
    return await readFile(path)
  } catch (error) {
    const e = error as NodeJS.ErrnoException
    if (typeof e?.code === 'string') throw new CliInputError(cannotRead(path, e))
    throw error
  }
}

/**
 * The segments of one file (`-` = stdin) as sacrebleu's CLI reads them (see {@link splitSegments}).
 *
 * @throws CliUsageError for `-` without stdin; CliInputError for an unreadable file or invalid UTF-8
 */
export async function readSegments(path: string, io: CliIo): Promise<string[]> {
  return splitSegments(decode(await readSource(path, io), path === '-' ? '<stdin>' : path))
}

/** Hypotheses and reference streams read from the command line's files. */
export interface TextInputs {
  readonly hypotheses: readonly string[]
  /** `referenceStreams[k][i]`: line i of the k-th reference file (sacrebleu's layout). */
  readonly referenceStreams: ReadonlyArray<readonly string[]>
  /** The file names as given (`<stdin>` for `-`), hypotheses first. */
  readonly hypothesisFile: string
  readonly referenceFiles: readonly string[]
}

/**
 * Reads `REF [REF...]` (the positionals) and the hypotheses (`-i FILE`, default stdin). Every reference file must
 * have as many lines as the hypotheses; zero hypothesis lines is refused (sacrebleu: "contains no sentence").
 *
 * @throws CliUsageError for no reference file or two `-`; CliInputError for an unreadable file, invalid UTF-8, a
 *   line-count mismatch (naming each file and its count) or no segments
 * @example
 * const input = await readTextInputs(parseCliArgs(['ref.txt', '-i', 'hyp.txt'], COMMON_OPTIONS), io)
 * input.referenceStreams[0]?.length === input.hypotheses.length // true
 */
export async function readTextInputs(args: ParsedArgs, io: CliIo): Promise<TextInputs> {
  const refs = args.positionals
  if (refs.length === 0) throw new CliUsageError('expected at least one reference file (REF [REF...]); the hypotheses come from -i FILE or stdin')
  const hypPath = args.values.get('input') ?? '-'
  const stdinUsers = [hypPath, ...refs].filter((p) => p === '-').length
  if (stdinUsers > 1) throw new CliUsageError("only one file can be '-' (stdin); with a reference on stdin, give the hypotheses with -i FILE")
  const label = (path: string) => (path === '-' ? '<stdin>' : path)
  const hypotheses = splitSegments(decode(await readSource(hypPath, io), label(hypPath)))
  const referenceStreams: string[][] = []
  for (const ref of refs) referenceStreams.push(splitSegments(decode(await readSource(ref, io), label(ref))))
  const hypothesisFile = label(hypPath)
  const referenceFiles = refs.map(label)
  const wrong = referenceStreams.map((s, k) => [referenceFiles[k] as string, s.length] as const).filter(([, n]) => n !== hypotheses.length)
  if (wrong.length > 0) {
    const list = wrong.map(([file, n]) => `${file} has ${n} line${n === 1 ? '' : 's'}`).join(', ')
    throw new CliInputError(
      `the hypotheses (${hypothesisFile}) have ${hypotheses.length} line${hypotheses.length === 1 ? '' : 's'} but ${list}; every reference file needs one line per hypothesis line`,
    )
  }
  if (hypotheses.length === 0) throw new CliInputError(`${hypothesisFile} has no lines: there is no segment to score`)
  return { hypotheses, referenceStreams, hypothesisFile, referenceFiles }
}

/**
 * The references of segment i, one per stream.
 *
 * @example
 * segmentReferences({ hypotheses: ['h'], referenceStreams: [['r1'], ['r2']], hypothesisFile: '-', referenceFiles: [] }, 0) // → ['r1', 'r2']
 */
export function segmentReferences(input: TextInputs, i: number): string[] {
  return input.referenceStreams.map((stream) => stream[i] as string)
}

/** The common options, resolved. */
export interface CommonSettings {
  readonly width: number
  /**
   * `-f text|json` (sacrebleu 2.x's `--format`). For the sacrebleu metrics (`bleu`, `chrf`, `ter`) the default is
   * `json`, sacrebleu's object with the score rounded to `-w`; for `rouge`/`meteor` `-f json` is `--json`.
   */
  readonly format: 'text' | 'json'
  /** Full-precision JSON (`--json`, or `-f json` for a command without a sacrebleu JSON shape). */
  readonly json: boolean
  readonly sentenceLevel: boolean
  readonly scoreOnly: boolean
}

/** One text command: its help, options, how it validates them (before any input is read) and how it scores. */
export interface TextCommand<Config> {
  readonly name: string
  readonly help: string
  readonly options: readonly OptionDef[]
  /** Decimals printed when `-w` is not given. */
  readonly defaultWidth: number
  /**
   * The output without `-f`: `json` for the sacrebleu metrics (sacrebleu 2.x prints JSON by default, and `-f json`
   * is then its rounded object while `--json` stays full precision); `text` otherwise, where `-f json` = `--json`.
   * @default 'text'
   */
  readonly defaultFormat?: 'text' | 'json'
  /** Turns the options into settings; throws CliUsageError (or MetricInputError) for bad values. */
  readonly configure: (args: ParsedArgs) => Config
  /** Scores and returns the whole output text; throws CliInputError for unusable data (exit 2). */
  readonly evaluate: (config: Config, input: TextInputs, common: CommonSettings, io: CliIo) => string
}

/**
 * Parses, reads, scores and prints, mapping errors to the exit codes of `cli/main.ts`: options are checked before
 * any input is read (1), then the input (2), then the command scores (a core MetricInputError there is an option
 * combination, 1). Other exceptions propagate to `main`, which reports them as internal errors (70).
 *
 * @example
 * export const run: CommandRun = (argv, io) => runTextCommand(myCommand, argv, io)
 */
export async function runTextCommand<Config>(command: TextCommand<Config>, argv: readonly string[], io: CliIo): Promise<number> {
  const fail = (code: number, message: string): number => reportFailure(io, command.name, code, message)
  // one line: the message, then where the options are
  const usageHint = ` (run 'rag-matchers ${command.name} --help' for the options)`
  let args: ParsedArgs
  let config: Config
  let common: CommonSettings
  try {
    args = parseCliArgs(argv, [...COMMON_OPTIONS, ...command.options])
    if (args.flags.has('help')) {
      await writeOut(io.stdout, command.help)
      return EXIT.ok
    }
    const format = choiceOption<'text' | 'json'>(args, 'format', command.defaultFormat ?? 'text', ['text', 'json'])
    common = {
      width: intOption(args, 'width', command.defaultWidth, 0, 20),
      format,
      json: args.flags.has('json') || (command.defaultFormat !== 'json' && args.values.has('format') && format === 'json'),
      sentenceLevel: args.flags.has('sentenceLevel'),
      scoreOnly: args.flags.has('scoreOnly'),
    }
    config = command.configure(args)
  } catch (error) {
    if (error instanceof CliUsageError || error instanceof MetricInputError) return fail(EXIT.usage, `${cliMessage(error)}${usageHint}`)
    throw error
  }
  let input: TextInputs
  try {
    input = await readTextInputs(args, io)
  } catch (error) {
    if (error instanceof CliUsageError) return fail(EXIT.usage, `${cliMessage(error)}${usageHint}`)
    if (error instanceof CliInputError) return fail(EXIT.input, error.message)
    throw error
  }
  let output: string
  try {
    output = command.evaluate(config, input, common, io)
  } catch (error) {
    // the inputs are well-formed strings by now, so the core can only object to an option combination
    if (error instanceof MetricInputError || error instanceof CliUsageError) return fail(EXIT.usage, `${cliMessage(error)}${usageHint}`)
    if (error instanceof CliInputError) return fail(EXIT.input, error.message)
    throw error
  }
  await writeOut(io.stdout, output)
  return EXIT.ok
}

/**
 * The `key:value` pairs of a signature (after the name), as sacrebleu's JSON output lists them (strings).
 *
 * @example
 * signatureFields('chrF2|nrefs:1|nc:6|version:0.1.0') // → { nrefs: '1', nc: '6', version: '0.1.0' }
 */
export function signatureFields(signature: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const pair of signature.split('|').slice(1)) {
    const colon = pair.indexOf(':')
    out[colon < 0 ? pair : pair.slice(0, colon)] = colon < 0 ? '' : pair.slice(colon + 1)
  }
  return out
}

/**
 * A per-segment signature (ROUGE, METEOR; they have no `nrefs` of their own) with `nrefs` first and, for a mean
 * over segments, `agg:mean` before `version`.
 *
 * @example
 * withNrefs('ROUGE-L|tok:rouge-default|stem:no|version:0.1.0', 1, true)
 * // → 'ROUGE-L|nrefs:1|tok:rouge-default|stem:no|agg:mean|version:0.1.0'
 */
export function withNrefs(segmentSignature: string, nrefs: number, mean: boolean): string {
  const { name, entries } = parseSignature(segmentSignature)
  const pairs: Array<[string, string | number]> = [['nrefs', nrefs]]
  for (const [key, value] of entries) if (key !== 'version' && key !== 'nrefs') pairs.push([key, value])
  if (mean) pairs.push(['agg', 'mean'])
  return buildSignature(name, pairs)
}

/** The help lines of the common options (appended to each command's help). */
export const COMMON_HELP = `Input: REF files and the hypotheses (-i FILE, or stdin) have one segment per line; several REF files are
several references per segment and must all have as many lines as the hypotheses. '-' is stdin.

Output options:
  -i, --input FILE          hypotheses (default: stdin)
  -w, --width N             decimals printed
  -b, --score-only          print only the score
  -sl, --sentence-level     one line per segment instead of the corpus score
  -f, --format {text,json}  output format (bleu/chrf/ter: default json, sacrebleu 2.x's object; -sl prints text)
  --json                    JSON at full precision (with -sl: one JSON object per line)
  -h, --help                this help

Exit codes: 0 ok, 1 usage (unknown option, bad value), 2 input (unreadable file, invalid UTF-8,
line-count mismatch, no segments), 70 internal error.
`
