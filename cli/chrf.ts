/**
 * `rag-matchers chrf REF [REF...] [-i HYP | < HYP]`: corpus chrF / chrF++ (or `-sl` per segment) with sacrebleu
 * 2.6's CLI options and text output `chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:0.1.0 = 59.7`.
 * Numbers come from `corpusChrf` / `sentenceChrf` (sacrebleu parity to 1e-9); input rules in `text-input.ts`.
 */
import { corpusChrf, sentenceChrf, type ChrfOptions, type ChrfScore } from '../src/generation/chrf.js'
import type { CliIo } from './io.js'
import { sacrebleuOutput, type SacrebleuFormat } from './sacrebleu-output.js'
import { CliUsageError, COMMON_HELP, intOption, runTextCommand, type CommonSettings, type OptionDef, type TextInputs } from './text-input.js'

const OPTIONS: readonly OptionDef[] = [
  { names: ['-cc', '--chrf-char-order'], key: 'charOrder', value: true },
  { names: ['-cw', '--chrf-word-order'], key: 'wordOrder', value: true },
  { names: ['--chrf-beta'], key: 'beta', value: true },
  { names: ['--chrf-whitespace'], key: 'whitespace' },
  { names: ['--chrf-lowercase', '-lc', '--lowercase'], key: 'lowercase' },
  { names: ['--chrf-eps-smoothing'], key: 'epsSmoothing' },
]

const HELP = `Usage: rag-matchers chrf REF [REF...] [-i HYP] [options]      (or: ... < HYP)

Corpus chrF / chrF++ as sacrebleu 2.6 computes and prints it (corpus_chrf; with -sl, sentence_chrf per line).

chrF options (as sacrebleu's):
  -cc, --chrf-char-order N  character n-gram order (default 6)
  -cw, --chrf-word-order N  word n-gram order (default 0; 2 is chrF++)
  --chrf-beta N             recall weight beta, an integer (default 2)
  --chrf-whitespace         keep whitespace inside character n-grams
  --chrf-lowercase, -lc     case-insensitive
  --chrf-eps-smoothing      epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective order

${COMMON_HELP}`

/** sacrebleu's `CHRFScore`: no verbose part; the JSON adds precision, recall and the summed statistics. */
const CHRF_FORMAT: SacrebleuFormat<ChrfScore> = {
  jsonFields: ({ details: d }) => ({ precision: d.precision, recall: d.recall, stats: d.stats }),
}

function evaluate(options: ChrfOptions, input: TextInputs, common: CommonSettings): string {
  return sacrebleuOutput(
    CHRF_FORMAT,
    input,
    common,
    (hypothesis, references) => sentenceChrf(hypothesis, references, options),
    () => corpusChrf(input.hypotheses, input.referenceStreams, options),
  )
}

/**
 * Runs `rag-matchers chrf` (argv without the command name) and returns the exit code.
 *
 * Corpus chrF = sacrebleu `corpus_chrf` (char order 6, word order 0, β 2, effective-order averaging); `-cw 2` gives
 * chrF++; `-sl` = `sentence_chrf` per line. Output `SIGNATURE = SCORE` with `-w` decimals (default 1). Exit codes as
 * `bleu`.
 *
 * Parity: equals sacrebleu 2.6.0 on the golden corpora and cases (test/cli/chrf.test.ts, 1e-9 relative).
 *
 * @example
 * // the golden corpus qa6 (6 QA answers, 1 reference file)
 * await run(['ref.txt', '-i', 'hyp.txt', '-cw', '2'], { stdout: process.stdout, stderr: process.stderr })
 * // prints `chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:0.1.0 = 37.5`
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  return runTextCommand<ChrfOptions>(
    {
      name: 'chrf',
      help: HELP,
      options: OPTIONS,
      defaultWidth: 1,
      configure: (args) => {
        const charOrder = intOption(args, 'charOrder', 6, 0, 64)
        const wordOrder = intOption(args, 'wordOrder', 0, 0, 64)
        if (charOrder + wordOrder === 0) throw new CliUsageError('the character and word n-gram orders cannot both be 0')
        return {
          charOrder,
          wordOrder,
          // sacrebleu's --chrf-beta is an int (the metric name is chrF<beta>)
          beta: intOption(args, 'beta', 2, 0, 1000),
          keepWhitespace: args.flags.has('whitespace'),
          lowercase: args.flags.has('lowercase'),
          epsSmoothing: args.flags.has('epsSmoothing'),
        }
      },
      evaluate,
    },
    argv,
    io,
  )
}
