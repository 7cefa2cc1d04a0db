/**
 * The three sacrebleu metrics of the command line (BLEU, chrF, TER): their options as sacrebleu 2.6's CLI spells
 * them, how the options become core options, and one printable score shape for all three, so `bleu`, `chrf`, `ter`
 * and `sacrebleu` share the scoring and the output code.
 */
import { corpusBleu, sentenceBleu, type BleuOptions, type BleuScore, type BleuSmoothing } from '../src/generation/bleu.js'
import { corpusChrf, sentenceChrf, type ChrfOptions, type ChrfScore } from '../src/generation/chrf.js'
import { corpusTer, sentenceTer, type CorpusTerScore, type TerOptions, type TerScore } from '../src/generation/ter/ter.js'
import { BLEU_TOKENIZER_NAMES, type BleuTokenizerName } from '../src/generation/tokenizers/index.js'
import { choiceOption, CliUsageError, intOption, numberOption, pyFixed, type OptionDef, type ParsedArgs } from './text-input.js'

export type SacrebleuMetric = 'bleu' | 'chrf' | 'ter'

/** sacrebleu prints the metrics of one run in this order (`sorted(metrics)` over BLEU, CHRF, TER), whatever `-m` says. */
export const SACREBLEU_METRICS: readonly SacrebleuMetric[] = ['bleu', 'chrf', 'ter']

/** A corpus or sentence score as the sacrebleu output needs it, whatever the metric. */
export interface PrintableScore {
  /** `BLEU`, `chrF2`, `chrF2++`, `TER` */
  readonly name: string
  readonly value: number
  /** the library's signature, which starts with the name (`BLEU|nrefs:1|…`) */
  readonly signature: string
  /** sacrebleu's verbose part (BLEU only) */
  readonly verbose?: string
  /** `--confidence`: sacrebleu's `μ = mean ± ci` */
  readonly bootstrap?: { readonly mean: number; readonly ci: number }
  /** the metric's own fields of the full-precision `--json` object */
  readonly fullJson: Record<string, unknown>
}

/** How one metric scores, from options already checked by {@link configureMetric}. */
export interface MetricScorer {
  readonly metric: SacrebleuMetric
  /** the options, for the paired tests (BLEU and chrF) */
  readonly options: BleuOptions | ChrfOptions | TerOptions
  readonly sentence: (hypothesis: string, references: string[]) => PrintableScore
  readonly corpus: (hypotheses: readonly string[], streams: ReadonlyArray<readonly string[]>, nBootstrap?: number) => PrintableScore
}

const SMOOTHINGS: readonly BleuSmoothing[] = ['exp', 'floor', 'add-k', 'none']

/** sacrebleu's BLEU options (its `-lc` is BLEU's; chrF has `--chrf-lowercase`). */
export const BLEU_OPTIONS: readonly OptionDef[] = [
  { names: ['-tok', '--tokenize'], key: 'tokenize', value: true },
  { names: ['-s', '--smooth-method'], key: 'smooth', value: true },
  { names: ['-sv', '--smooth-value'], key: 'smoothValue', value: true },
  { names: ['-lc', '--lowercase'], key: 'lowercase' },
  { names: ['--force'], key: 'force' },
]

export const CHRF_OPTIONS: readonly OptionDef[] = [
  { names: ['-cc', '--chrf-char-order'], key: 'charOrder', value: true },
  { names: ['-cw', '--chrf-word-order'], key: 'wordOrder', value: true },
  { names: ['--chrf-beta'], key: 'beta', value: true },
  { names: ['--chrf-whitespace'], key: 'whitespace' },
  { names: ['--chrf-lowercase'], key: 'chrfLowercase' },
  { names: ['--chrf-eps-smoothing'], key: 'epsSmoothing' },
]

export const TER_OPTIONS: readonly OptionDef[] = [
  { names: ['--ter-normalized'], key: 'terNormalized' },
  { names: ['--ter-no-punct'], key: 'terNoPunct' },
  { names: ['--ter-asian-support'], key: 'terAsianSupport' },
  { names: ['--ter-case-sensitive'], key: 'terCaseSensitive' },
]

/** The BLEU options from the command line (`effectiveOrder` from `-e` of `rag-matchers bleu`, or false). */
export function bleuOptionsOf(args: ParsedArgs): BleuOptions {
  const smoothValue = args.values.has('smoothValue') ? numberOption(args, 'smoothValue', 0, 0) : undefined
  return {
    tokenize: choiceOption<BleuTokenizerName>(args, 'tokenize', '13a', BLEU_TOKENIZER_NAMES),
    smooth: choiceOption(args, 'smooth', 'exp', SMOOTHINGS),
    lowercase: args.flags.has('lowercase'),
    effectiveOrder: args.flags.has('effectiveOrder'),
    ...(smoothValue === undefined ? {} : { smoothValue }),
  }
}

/** The chrF options; `lowercase` also from `-lc` when `lcMeansChrf` (the `chrf` command's spelling). */
export function chrfOptionsOf(args: ParsedArgs, lcMeansChrf: boolean): ChrfOptions {
  const charOrder = intOption(args, 'charOrder', 6, 0, 64)
  const wordOrder = intOption(args, 'wordOrder', 0, 0, 64)
  if (charOrder + wordOrder === 0) throw new CliUsageError('the character and word n-gram orders cannot both be 0')
  return {
    charOrder,
    wordOrder,
    // sacrebleu's --chrf-beta is an int (the metric name is chrF<beta>)
    beta: intOption(args, 'beta', 2, 0, 1000),
    keepWhitespace: args.flags.has('whitespace'),
    lowercase: args.flags.has('chrfLowercase') || (lcMeansChrf && args.flags.has('lowercase')),
    epsSmoothing: args.flags.has('epsSmoothing'),
  }
}

export function terOptionsOf(args: ParsedArgs): TerOptions {
  return {
    normalized: args.flags.has('terNormalized'),
    noPunct: args.flags.has('terNoPunct'),
    asianSupport: args.flags.has('terAsianSupport'),
    caseSensitive: args.flags.has('terCaseSensitive'),
  }
}

/** sacrebleu's BLEU verbose part: precisions with 1 decimal, BP and ratio with 3, the lengths. */
function bleuPrintable(score: BleuScore): PrintableScore {
  const d = score.details
  const precisions = d.precisions.map((p) => pyFixed(p, 1)).join('/')
  return {
    name: score.metric,
    value: score.value,
    signature: score.signature,
    verbose: `${precisions} (BP = ${pyFixed(d.bp, 3)} ratio = ${pyFixed(d.ratio, 3)} hyp_len = ${d.sysLen} ref_len = ${d.refLen})`,
    ...(d.bootstrap ? { bootstrap: { mean: d.bootstrap.mean, ci: d.bootstrap.ci } } : {}),
    fullJson: { precisions: d.precisions, counts: d.counts, totals: d.totals, bp: d.bp, ratio: d.ratio, sys_len: d.sysLen, ref_len: d.refLen },
  }
}

/** sacrebleu's chrF has no verbose part. */
function chrfPrintable(score: ChrfScore): PrintableScore {
  const d = score.details
  return {
    name: score.metric,
    value: score.value,
    signature: score.signature,
    ...(d.bootstrap ? { bootstrap: { mean: d.bootstrap.mean, ci: d.bootstrap.ci } } : {}),
    fullJson: { precision: d.precision, recall: d.recall, stats: d.stats },
  }
}

/** sacrebleu's TER has no verbose part either. */
function terPrintable(score: TerScore | CorpusTerScore): PrintableScore {
  return {
    name: 'TER',
    value: score.score,
    signature: score.signature,
    ...('bootstrap' in score && score.bootstrap ? { bootstrap: { mean: score.bootstrap.mean, ci: score.bootstrap.ci } } : {}),
    fullJson: { num_edits: score.numEdits, ref_length: score.refLength },
  }
}

/**
 * The scorer of one metric with the options of the command line.
 *
 * @throws CliUsageError (or MetricInputError) for a bad option value
 * @example
 * configureMetric('ter', parseCliArgs(['--ter-normalized'], TER_OPTIONS), false).corpus(['a b'], [['a c']]).value // → 50
 */
export function configureMetric(metric: SacrebleuMetric, args: ParsedArgs, lcMeansChrf: boolean): MetricScorer {
  if (metric === 'bleu') {
    const options = bleuOptionsOf(args)
    // sacrebleu's CLI turns effective order on for sentence-level BLEU, whatever -e says
    const sentenceOptions: BleuOptions = { ...options, effectiveOrder: true }
    return {
      metric,
      options,
      sentence: (h, refs) => bleuPrintable(sentenceBleu(h, refs, sentenceOptions)),
      corpus: (hyps, streams, nBootstrap) => bleuPrintable(corpusBleu(hyps, streams, nBootstrap === undefined ? options : { ...options, nBootstrap })),
    }
  }
  if (metric === 'chrf') {
    const options = chrfOptionsOf(args, lcMeansChrf)
    return {
      metric,
      options,
      sentence: (h, refs) => chrfPrintable(sentenceChrf(h, refs, options)),
      corpus: (hyps, streams, nBootstrap) => chrfPrintable(corpusChrf(hyps, streams, nBootstrap === undefined ? options : { ...options, nBootstrap })),
    }
  }
  const options = terOptionsOf(args)
  return {
    metric,
    options,
    sentence: (h, refs) => terPrintable(sentenceTer(h, refs, options)),
    corpus: (hyps, streams, nBootstrap) => terPrintable(corpusTer(hyps, streams, nBootstrap === undefined ? options : { ...options, nBootstrap })),
  }
}

/** `--confidence` / `--confidence-n` (sacrebleu 2.x: 1000 resamples by default). */
export const CONFIDENCE_OPTIONS: readonly OptionDef[] = [
  { names: ['-ci', '--confidence'], key: 'confidence' },
  { names: ['-cin', '--confidence-n'], key: 'confidenceN', value: true },
]

/** sacrebleu 2.x's default `--confidence-n`. */
export const DEFAULT_CONFIDENCE_N = 1000

/** The bootstrap resample count of `--confidence` (undefined without it). */
export function confidenceOf(args: ParsedArgs): number | undefined {
  const n = intOption(args, 'confidenceN', DEFAULT_CONFIDENCE_N, 2, 1_000_000)
  return args.flags.has('confidence') ? n : undefined
}

/** sacrebleu warns when this many hypotheses end in a tokenized period (`' .'`) and --force is not given. */
const TOKENIZED_PERIOD_LINES = 100

/** sacrebleu's warning about input that looks tokenized (corpus BLEU only, as there); the text for stderr or ''. */
export function tokenizedWarning(command: string, hypotheses: readonly string[]): string {
  const tokenized = hypotheses.filter((h) => h.endsWith(' .')).length
  if (tokenized < TOKENIZED_PERIOD_LINES) return ''
  return (
    `rag-matchers ${command}: warning: ${tokenized} lines end in a tokenized period (' .'). BLEU expects detokenized text; ` +
    'if your input is detokenized, or you do not mind, silence this with --force.\n'
  )
}
