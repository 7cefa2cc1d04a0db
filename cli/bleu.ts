/**
 * `rag-matchers bleu REF [REF...] [-i HYP | < HYP]`: corpus BLEU (or `-sl` sentence BLEU) with sacrebleu 2.6's CLI
 * options and its text output `BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0 = 46.7
 * 71.4/52.4/40.0/30.8 (BP = 1.000 ratio = 1.050 hyp_len = 21 ref_len = 20)`. Numbers come from
 * `corpusBleu` / `sentenceBleu` (sacrebleu parity to 1e-9); input rules in `text-input.ts`.
 */
import { corpusBleu, sentenceBleu, type BleuOptions, type BleuScore, type BleuSmoothing } from '../src/generation/bleu.js'
import { BLEU_TOKENIZER_NAMES, type BleuTokenizerName } from '../src/generation/tokenizers/index.js'
import type { CliIo } from './io.js'
import { sacrebleuOutput, type SacrebleuFormat } from './sacrebleu-output.js'
import { choiceOption, COMMON_HELP, numberOption, pyFixed, runTextCommand, type CommonSettings, type OptionDef, type TextInputs } from './text-input.js'

const SMOOTHINGS: readonly BleuSmoothing[] = ['exp', 'floor', 'add-k', 'none']

const OPTIONS: readonly OptionDef[] = [
  { names: ['-tok', '--tokenize'], key: 'tokenize', value: true },
  { names: ['-s', '--smooth-method'], key: 'smooth', value: true },
  { names: ['-sv', '--smooth-value'], key: 'smoothValue', value: true },
  { names: ['-lc', '--lowercase'], key: 'lowercase' },
  { names: ['-e', '--use-effective-order'], key: 'effectiveOrder' },
  { names: ['--force'], key: 'force' },
]

const HELP = `Usage: rag-matchers bleu REF [REF...] [-i HYP] [options]      (or: ... < HYP)

Corpus BLEU as sacrebleu 2.6 computes and prints it (sacrebleu's corpus_bleu; with -sl, sentence_bleu per line).

BLEU options (as sacrebleu's):
  -tok, --tokenize {13a,intl,char,none}   tokenizer (default 13a)
  -s, --smooth-method {exp,floor,add-k,none}  smoothing (default exp)
  -sv, --smooth-value X     value for floor (default 0.1) and add-k (default 1)
  -lc, --lowercase          case-insensitive BLEU
  -e, --use-effective-order  average only the n-gram orders that occur (corpus; -sl always does)
  --force                   do not warn about input that looks tokenized

${COMMON_HELP}`

interface BleuConfig {
  readonly options: BleuOptions
  readonly force: boolean
}

/** sacrebleu warns when this many hypotheses end in a tokenized period (`' .'`) and --force is not given. */
const TOKENIZED_PERIOD_LINES = 100

/** sacrebleu's `BLEUScore`: the verbose part (precisions with 1 decimal, BP and ratio with 3, the lengths), the JSON. */
const BLEU_FORMAT: SacrebleuFormat<BleuScore> = {
  verbose: (score) => {
    const d = score.details
    const precisions = d.precisions.map((p) => pyFixed(p, 1)).join('/')
    return `${precisions} (BP = ${pyFixed(d.bp, 3)} ratio = ${pyFixed(d.ratio, 3)} hyp_len = ${d.sysLen} ref_len = ${d.refLen})`
  },
  jsonFields: ({ details: d }) => ({
    precisions: d.precisions,
    counts: d.counts,
    totals: d.totals,
    bp: d.bp,
    ratio: d.ratio,
    sys_len: d.sysLen,
    ref_len: d.refLen,
  }),
}

function evaluate(config: BleuConfig, input: TextInputs, common: CommonSettings, io: CliIo): string {
  // sacrebleu's CLI turns effective order on for sentence-level BLEU, whatever -e says
  const sentenceOptions: BleuOptions = { ...config.options, effectiveOrder: true }
  return sacrebleuOutput(
    BLEU_FORMAT,
    input,
    common,
    (hypothesis, references) => sentenceBleu(hypothesis, references, sentenceOptions),
    () => {
      if (!config.force) warnIfTokenized(input.hypotheses, io)
      return corpusBleu(input.hypotheses, input.referenceStreams, config.options)
    },
  )
}

/** sacrebleu's warning about input that looks tokenized (corpus BLEU only, as there). */
function warnIfTokenized(hypotheses: readonly string[], io: CliIo): void {
  const tokenized = hypotheses.filter((h) => h.endsWith(' .')).length
  if (tokenized >= TOKENIZED_PERIOD_LINES) {
    io.stderr.write(
      `rag-matchers bleu: warning: ${tokenized} lines end in a tokenized period (' .'). BLEU expects detokenized text; ` +
        'if your input is detokenized, or you do not mind, silence this with --force.\n',
    )
  }
}

/**
 * Runs `rag-matchers bleu` (argv without the command name) and returns the exit code.
 *
 * Corpus BLEU = sacrebleu `corpus_bleu(hyps, refStreams)` (13a, exp smoothing, effective order off by default);
 * `-sl` = `sentence_bleu` per line with effective order on, as sacrebleu's CLI forces it. Text output is
 * sacrebleu's `Score.format` with `-w` decimals (default 1), numbers rounded like Python's `%.Nf`. Exit codes: 0 ok,
 * 1 usage, 2 input (unreadable file, invalid UTF-8, line-count mismatch, no segments).
 *
 * Parity: equals sacrebleu 2.6.0 on the golden corpora and cases (test/cli/bleu.test.ts, 1e-9 relative).
 *
 * @example
 * // the golden corpus qa6 (6 QA answers, 1 reference file)
 * await run(['ref.txt', '-i', 'hyp.txt'], { stdout: process.stdout, stderr: process.stderr })
 * // prints `BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0 = 20.4 59.7/28.8/16.7/11.1 (BP = 0.858 ratio = 0.867 hyp_len = 72 ref_len = 83)`
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  return runTextCommand<BleuConfig>(
    {
      name: 'bleu',
      help: HELP,
      options: OPTIONS,
      defaultWidth: 1,
      configure: (args) => {
        const smooth = choiceOption(args, 'smooth', 'exp', SMOOTHINGS)
        const smoothValue = args.values.has('smoothValue') ? numberOption(args, 'smoothValue', 0, 0) : undefined
        const options: BleuOptions = {
          tokenize: choiceOption<BleuTokenizerName>(args, 'tokenize', '13a', BLEU_TOKENIZER_NAMES),
          smooth,
          lowercase: args.flags.has('lowercase'),
          effectiveOrder: args.flags.has('effectiveOrder'),
          ...(smoothValue === undefined ? {} : { smoothValue }),
        }
        return { options, force: args.flags.has('force') }
      },
      evaluate,
    },
    argv,
    io,
  )
}
