/**
 * `rag-matchers sacrebleu REF [REF...] [-i HYP [HYP...]] [-m bleu chrf ter] [...]`: sacrebleu 2.6's command line
 * for files: several metrics in one run, several systems (a table), `--confidence` for one system, and the paired
 * tests `--paired-bs` / `--paired-ar` (the first system is the baseline). Output as sacrebleu 2.x: JSON by default,
 * `-f text` for its text lines and its box-drawn table. Numbers come from the library (`corpusBleu`, `corpusChrf`,
 * `corpusTer`, `pairedTest`), with sacrebleu's seed rule (`SACREBLEU_SEED`, default 12345).
 */
import { MetricInputError } from '../src/errors.js'
import { pyRstrip } from '../src/text/python-string.js'
import { pairedTest } from '../src/generation/significance/paired.js'
import { cliMessage, EXIT, reportFailure, writeOut, type CliIo } from './io.js'
import { sacrebleuSignature, sentenceLevelOutput, singleSystemOutput } from './sacrebleu-output.js'
import {
  BLEU_OPTIONS,
  CHRF_OPTIONS,
  confidenceOf,
  CONFIDENCE_OPTIONS,
  configureMetric,
  SACREBLEU_METRICS,
  TER_OPTIONS,
  tokenizedWarning,
  type MetricScorer,
} from './sacrebleu-metrics.js'
import { multiSystemOutput, type MetricColumn } from './significance-output.js'
import {
  choiceOption,
  CliInputError,
  CliUsageError,
  COMMON_OPTIONS,
  intOption,
  parseCliArgs,
  readSegments,
  type CommonSettings,
  type OptionDef,
  type ParsedArgs,
  type TextInputs,
} from './text-input.js'

const COMMAND = 'sacrebleu'

const OPTIONS: readonly OptionDef[] = [
  ...COMMON_OPTIONS.filter((o) => o.key !== 'input' && o.key !== 'json'),
  { names: ['-i', '--input'], key: 'input', value: true, multi: true },
  { names: ['-m', '--metrics'], key: 'metrics', value: true, multi: true },
  ...BLEU_OPTIONS,
  ...CHRF_OPTIONS,
  ...TER_OPTIONS,
  ...CONFIDENCE_OPTIONS,
  { names: ['-pbs', '--paired-bs'], key: 'pairedBs' },
  { names: ['-par', '--paired-ar'], key: 'pairedAr' },
  { names: ['-pbsn', '--paired-bs-n'], key: 'pairedBsN', value: true },
  { names: ['-part', '--paired-ar-n'], key: 'pairedArN', value: true },
  // accepted for sacrebleu command lines; they change nothing here (one process, no colours, no log lines)
  { names: ['-j', '--paired-jobs'], key: 'pairedJobs', value: true },
  { names: ['-q', '--quiet'], key: 'quiet' },
  { names: ['-nc', '--no-color'], key: 'noColor' },
  { names: ['-e', '--encoding'], key: 'encoding', value: true },
]

const HELP = `Usage: rag-matchers sacrebleu REF [REF...] [-i HYP [HYP...]] [-m {bleu,chrf,ter} ...] [options]

sacrebleu 2.6's command line for files. REF files are the reference streams (one segment per line); the
hypotheses come from -i (several files: one system each) or stdin (tab-separated columns: one system each).

  -m, --metrics M [M ...]   bleu, chrf, ter (default bleu); printed in sacrebleu's order (BLEU, chrF, TER)
  -f, --format {json,text}  output format (default json, as sacrebleu 2.x)
  -w, --width N             decimals (default 1)
  -b, --score-only          only the scores
  -sl, --sentence-level     one line per segment (one metric, one system)
  -ci, --confidence         95% bootstrap interval for one system
  -cin, --confidence-n N    its resamples (default 1000)
  -pbs, --paired-bs         paired bootstrap resampling test, the first system is the baseline
  -par, --paired-ar         paired approximate randomization test (with --confidence: intervals too)
  -pbsn, --paired-bs-n N    resamples of --paired-bs (default 1000)
  -part, --paired-ar-n N    trials of --paired-ar (default 10000)
  The seed of every resampling is SACREBLEU_SEED (default 12345; 'none' = unseeded).

BLEU: -tok {13a,intl,zh,char,none}, -s {exp,floor,add-k,none}, -sv X, -lc, --force
chrF: -cc N, -cw N, --chrf-beta N, --chrf-whitespace, --chrf-lowercase, --chrf-eps-smoothing
TER:  --ter-normalized, --ter-no-punct, --ter-asian-support, --ter-case-sensitive
Accepted and without effect here: -j/--paired-jobs N, -q/--quiet, -nc/--no-color, -e/--encoding utf-8.

Exit codes: 0 ok, 1 usage (unknown option, bad value, options that do not go together), 2 input (unreadable
file, invalid UTF-8, line-count mismatch, no segments), 70 internal error.
`

interface Settings {
  readonly common: CommonSettings
  readonly scorers: readonly MetricScorer[]
  readonly nBootstrap: number | undefined
  readonly paired: { readonly test: 'bs' | 'ar'; readonly nSamples: number } | undefined
  readonly force: boolean
}

function configure(args: ParsedArgs): Settings {
  const common: CommonSettings = {
    width: intOption(args, 'width', 1, 0, 20),
    format: choiceOption<'text' | 'json'>(args, 'format', 'json', ['text', 'json']),
    json: false,
    sentenceLevel: args.flags.has('sentenceLevel'),
    scoreOnly: args.flags.has('scoreOnly'),
  }
  const names = args.lists.get('metrics') ?? ['bleu']
  for (const name of names) {
    if (!(SACREBLEU_METRICS as readonly string[]).includes(name)) throw new CliUsageError(`option ${args.spelled.get('metrics')} expects bleu, chrf or ter, got '${name}'`)
  }
  const metrics = SACREBLEU_METRICS.filter((m) => names.includes(m))
  const encoding = args.values.get('encoding')
  if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) throw new CliUsageError(`only UTF-8 input is supported, got --encoding ${encoding}`)
  if (args.values.has('pairedJobs')) intOption(args, 'pairedJobs', 1, 0, 1024)
  if (args.flags.has('pairedBs') && args.flags.has('pairedAr')) throw new CliUsageError('--paired-bs and --paired-ar cannot be used together')
  const nBs = intOption(args, 'pairedBsN', 1000, 1, 1_000_000)
  const nAr = intOption(args, 'pairedArN', 10000, 1, 1_000_000)
  const paired = args.flags.has('pairedBs') ? { test: 'bs' as const, nSamples: nBs } : args.flags.has('pairedAr') ? { test: 'ar' as const, nSamples: nAr } : undefined
  const nBootstrap = confidenceOf(args)
  if (common.sentenceLevel && metrics.length > 1) throw new CliUsageError('only one metric can be used with -sl')
  if (common.sentenceLevel && (nBootstrap !== undefined || paired)) throw new CliUsageError('statistical tests (--confidence, --paired-*) are not available with -sl')
  return { common, scorers: metrics.map((m) => configureMetric(m, args, false)), nBootstrap, paired, force: args.flags.has('force') }
}

/** The systems and the reference streams, read as sacrebleu's CLI reads them. */
async function readSystems(args: ParsedArgs, paired: boolean, io: CliIo): Promise<{ names: string[]; systems: string[][]; input: TextInputs }> {
  const refs = args.positionals
  if (refs.length === 0) throw new CliUsageError('expected at least one reference file (REF [REF...]); the hypotheses come from -i FILE... or stdin')
  const inputs = args.lists.get('input')
  if ([...refs, ...(inputs ?? ['-'])].filter((p) => p === '-').length > 1) throw new CliUsageError("only one file can be '-' (stdin)")
  const names: string[] = []
  const systems: string[][] = []
  if (inputs === undefined) {
    // stdin: one system per tab-separated column, named as sacrebleu names them
    const lines = await readSegments('-', io)
    const width = lines.length === 0 ? 1 : lines[0]!.split('\t').length
    for (let k = 0; k < width; k++) systems.push([])
    lines.forEach((line, i) => {
      const fields = line.split('\t')
      if (fields.length !== width) throw new CliInputError(`<stdin> line ${i + 1} has ${fields.length} tab-separated fields, the first line ${width}: one column per system`)
      // sacrebleu rstrips the fields of every line but the first (which it reads with readline before the loop)
      fields.forEach((f, k) => systems[k]!.push(i === 0 ? f : pyRstrip(f)))
    })
    for (let k = 0; k < width; k++) names.push(paired ? (k === 0 ? 'Baseline' : `System ${k}`) : `System ${k + 1}`)
  } else {
    for (const file of inputs) {
      if (names.includes(file)) {
        if (paired && file === names[0]) continue // sacrebleu skips a system that is also the baseline
        throw new CliUsageError(`'${file}' is given twice as a system; every system needs its own file name`)
      }
      names.push(file)
      systems.push(await readSegments(file, io))
    }
    if (paired) names[0] = `Baseline: ${names[0]}`
  }
  const referenceStreams: string[][] = []
  for (const ref of refs) referenceStreams.push(await readSegments(ref, io))
  const referenceFiles = refs.map((r) => (r === '-' ? '<stdin>' : r))
  systems.forEach((system, s) => {
    const label = inputs === undefined ? `<stdin> column ${s + 1}` : (inputs[s] as string)
    if (system.length === 0) throw new CliInputError(`${label} has no lines: there is no segment to score`)
    const wrong = referenceStreams.map((r, k) => [referenceFiles[k]!, r.length] as const).filter(([, n]) => n !== system.length)
    if (wrong.length > 0) {
      throw new CliInputError(
        `the hypotheses (${label}) have ${system.length} lines but ${wrong.map(([f, n]) => `${f} has ${n}`).join(', ')}; every reference file needs one line per hypothesis line`,
      )
    }
  })
  const input: TextInputs = { hypotheses: systems[0]!, referenceStreams, hypothesisFile: names[0]!, referenceFiles }
  return { names, systems, input }
}

function evaluate(s: Settings, names: readonly string[], systems: readonly string[][], input: TextInputs, io: CliIo): string {
  const { common } = s
  const numSys = systems.length
  if (common.sentenceLevel) {
    if (numSys > 1) throw new CliUsageError('only one system can be scored with -sl')
    return sentenceLevelOutput(s.scorers[0]!, input, systems[0]!, common)
  }
  if (s.paired && numSys === 1) throw new CliUsageError('the paired tests need several systems: give them to -i (the first is the baseline)')
  if (!s.paired && numSys > 1 && s.nBootstrap !== undefined) throw new CliUsageError('--confidence is for one system; for several, use --paired-bs or --paired-ar')
  if (s.scorers.some((m) => m.metric === 'bleu') && !s.force) for (const system of systems) io.stderr.write(tokenizedWarning(COMMAND, system))
  if (numSys === 1) {
    return singleSystemOutput(
      s.scorers.map((m) => m.corpus(systems[0]!, input.referenceStreams, s.nBootstrap)),
      common,
    )
  }
  const columns: MetricColumn[] = s.scorers.map((m) => {
    if (!s.paired) {
      const scores = systems.map((system) => m.corpus(system, input.referenceStreams))
      return { name: scores[0]!.name, signature: sacrebleuSignature(scores[0]!.signature), cells: scores.map((x) => x.value) }
    }
    const result = pairedTest({
      test: s.paired.test,
      baseline: { name: names[0]!, hypotheses: systems[0]! },
      systems: systems.slice(1).map((hypotheses, k) => ({ name: names[k + 1]!, hypotheses })),
      references: input.referenceStreams,
      metric: m.metric,
      metricOptions: m.options,
      nSamples: s.paired.nSamples,
      ...(s.paired.test === 'ar' && s.nBootstrap !== undefined ? { nConfidence: s.nBootstrap } : {}),
    })
    return { name: result.metric, signature: sacrebleuSignature(result.signature), cells: result.results }
  })
  return multiSystemOutput(names, columns, common.width, common.format, s.paired)
}

/**
 * Runs `rag-matchers sacrebleu` (argv without the command name) and returns the exit code.
 *
 * @example
 * await run(['ref.txt', '-i', 'base.txt', 'new.txt', '-m', 'bleu', 'chrf', '--paired-bs', '-f', 'text'], io)
 * // prints the table of both systems with p-values, the legend and the signatures
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const fail = (code: number, message: string): number => reportFailure(io, COMMAND, code, message)
  const usageHint = ` (run 'rag-matchers ${COMMAND} --help' for the options)`
  let args: ParsedArgs
  let settings: Settings
  try {
    args = parseCliArgs(argv, OPTIONS)
    if (args.flags.has('help')) {
      await writeOut(io.stdout, HELP)
      return EXIT.ok
    }
    settings = configure(args)
  } catch (error) {
    if (error instanceof CliUsageError || error instanceof MetricInputError) return fail(EXIT.usage, `${cliMessage(error)}${usageHint}`)
    throw error
  }
  let output: string
  try {
    const { names, systems, input } = await readSystems(args, settings.paired !== undefined, io)
    output = evaluate(settings, names, systems, input, io)
  } catch (error) {
    if (error instanceof CliUsageError) return fail(EXIT.usage, `${cliMessage(error)}${usageHint}`)
    if (error instanceof CliInputError) return fail(EXIT.input, error.message)
    // the inputs are well-formed strings by now, so the core can only object to an option combination
    if (error instanceof MetricInputError) return fail(EXIT.usage, `${cliMessage(error)}${usageHint}`)
    throw error
  }
  await writeOut(io.stdout, output)
  return EXIT.ok
}
