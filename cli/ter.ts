/**
 * `rag-matchers ter REF [REF...] [-i HYP | < HYP]`: corpus TER (or `-sl` per segment) as sacrebleu 2.6's
 * `TER(...)`, with its CLI options. Output as sacrebleu 2.x: JSON by default, `-f text` for
 * `TER|nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:0.1.0 = 41.2`, `--json` at full precision
 * (adds `num_edits` and `ref_length`). Lower is better. Numbers come from `corpusTer` / `sentenceTer`.
 */
import type { CliIo } from './io.js'
import { runMetricCommand } from './metric-command.js'
import { TER_OPTIONS } from './sacrebleu-metrics.js'
import { COMMON_HELP } from './text-input.js'

const HELP = `Usage: rag-matchers ter REF [REF...] [-i HYP] [options]      (or: ... < HYP)

Corpus TER (translation edit rate, lower is better) as sacrebleu 2.6 computes and prints it
(TER().corpus_score; with -sl, sentence_score per line). The defaults replicate TERCOM.

TER options (as sacrebleu's):
  --ter-normalized          tercom normalisation and tokenization
  --ter-no-punct            remove punctuation
  --ter-asian-support       split CJK characters and punctuation (with --ter-normalized)
  --ter-case-sensitive      case-sensitive (default: both sides lower-cased)
  -ci, --confidence         95% bootstrap confidence interval (sacrebleu's μ = mean ± ci; seed SACREBLEU_SEED, default 12345)
  -cin, --confidence-n N    bootstrap resamples (default 1000)

${COMMON_HELP}`

/**
 * Runs `rag-matchers ter` (argv without the command name) and returns the exit code. Exit codes as `bleu`.
 *
 * Parity: sacrebleu 2.6.0's corpus TER on the golden TER corpora (test/cli/sacrebleu.test.ts).
 *
 * @example
 * await run(['ref.txt', '-i', 'hyp.txt', '-f', 'text', '--ter-normalized'], { stdout: process.stdout, stderr: process.stderr })
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  return runMetricCommand('ter', HELP, TER_OPTIONS, argv, io)
}
