/**
 * `rag-matchers chrf REF [REF...] [-i HYP | < HYP]`: corpus chrF / chrF++ (or `-sl` per segment) with sacrebleu
 * 2.6's CLI options. Output as sacrebleu 2.x: JSON by default, `-f text` for
 * `chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:0.1.0 = 59.7`, `--json` at full precision. Numbers
 * come from `corpusChrf` / `sentenceChrf` (sacrebleu parity to 1e-9); shared code with `rag-matchers sacrebleu`.
 */
import type { CliIo } from './io.js'
import { runMetricCommand } from './metric-command.js'
import { CHRF_OPTIONS } from './sacrebleu-metrics.js'
import { COMMON_HELP, type OptionDef } from './text-input.js'

// -lc is chrF's lowercase here (sacrebleu's -lc is BLEU's; this command has no BLEU)
const OPTIONS: readonly OptionDef[] = [...CHRF_OPTIONS, { names: ['-lc', '--lowercase'], key: 'lowercase' }]

const HELP = `Usage: rag-matchers chrf REF [REF...] [-i HYP] [options]      (or: ... < HYP)

Corpus chrF / chrF++ as sacrebleu 2.6 computes and prints it (corpus_chrf; with -sl, sentence_chrf per line).

chrF options (as sacrebleu's):
  -cc, --chrf-char-order N  character n-gram order (default 6)
  -cw, --chrf-word-order N  word n-gram order (default 0; 2 is chrF++)
  --chrf-beta N             recall weight beta, an integer (default 2)
  --chrf-whitespace         keep whitespace inside character n-grams
  --chrf-lowercase, -lc     case-insensitive
  --chrf-eps-smoothing      epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective order
  -ci, --confidence         95% bootstrap confidence interval (seed SACREBLEU_SEED, default 12345)
  -cin, --confidence-n N    bootstrap resamples (default 1000)

${COMMON_HELP}`

/**
 * Runs `rag-matchers chrf` (argv without the command name) and returns the exit code.
 *
 * Corpus chrF = sacrebleu `corpus_chrf` (char order 6, word order 0, β 2, effective-order averaging); `-cw 2` gives
 * chrF++; `-sl` = `sentence_chrf` per line. Exit codes as `bleu`.
 *
 * Parity: equals sacrebleu 2.6.0 on the golden corpora and cases (test/cli/chrf.test.ts, 1e-9 relative).
 *
 * @example
 * // the golden corpus qa6 (6 QA answers, 1 reference file)
 * await run(['ref.txt', '-i', 'hyp.txt', '-cw', '2', '-f', 'text'], { stdout: process.stdout, stderr: process.stderr })
 * // prints `chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:0.1.0 = 37.5`
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  return runMetricCommand('chrf', HELP, OPTIONS, argv, io)
}
