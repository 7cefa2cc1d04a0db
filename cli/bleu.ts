/**
 * `rag-matchers bleu REF [REF...] [-i HYP | < HYP]`: corpus BLEU (or `-sl` sentence BLEU) with sacrebleu 2.6's CLI
 * options. Output as sacrebleu 2.x: JSON by default (`{"name": "BLEU", "score": 46.7, "signature": …}`), `-f text`
 * for `BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0 = 46.7 71.4/52.4/40.0/30.8 (BP = 1.000 ratio
 * = 1.050 hyp_len = 21 ref_len = 20)`, `--json` at full precision. Numbers come from `corpusBleu` / `sentenceBleu`
 * (sacrebleu parity to 1e-9); input rules in `text-input.ts`, scoring and output shared with `rag-matchers sacrebleu`.
 */
import type { CliIo } from './io.js'
import { runMetricCommand } from './metric-command.js'
import { BLEU_OPTIONS } from './sacrebleu-metrics.js'
import { COMMON_HELP, type OptionDef } from './text-input.js'

const OPTIONS: readonly OptionDef[] = [...BLEU_OPTIONS, { names: ['-e', '--use-effective-order'], key: 'effectiveOrder' }]

const HELP = `Usage: rag-matchers bleu REF [REF...] [-i HYP] [options]      (or: ... < HYP)

Corpus BLEU as sacrebleu 2.6 computes and prints it (sacrebleu's corpus_bleu; with -sl, sentence_bleu per line).

BLEU options (as sacrebleu's):
  -tok, --tokenize {13a,intl,zh,char,none}  tokenizer (default 13a)
  -s, --smooth-method {exp,floor,add-k,none}  smoothing (default exp)
  -sv, --smooth-value X     value for floor (default 0.1) and add-k (default 1)
  -lc, --lowercase          case-insensitive BLEU
  -e, --use-effective-order  average only the n-gram orders that occur (corpus; -sl always does)
  --force                   do not warn about input that looks tokenized
  -ci, --confidence         95% bootstrap confidence interval (sacrebleu's μ = mean ± ci; seed SACREBLEU_SEED, default 12345)
  -cin, --confidence-n N    bootstrap resamples (default 1000)

${COMMON_HELP}`

/**
 * Runs `rag-matchers bleu` (argv without the command name) and returns the exit code.
 *
 * Corpus BLEU = sacrebleu `corpus_bleu(hyps, refStreams)` (13a, exp smoothing, effective order off by default);
 * `-sl` = `sentence_bleu` per line with effective order on, as sacrebleu's CLI forces it. Exit codes: 0 ok, 1 usage,
 * 2 input (unreadable file, invalid UTF-8, line-count mismatch, no segments).
 *
 * Parity: equals sacrebleu 2.6.0 on the golden corpora and cases (test/cli/bleu.test.ts, 1e-9 relative).
 *
 * @example
 * // the golden corpus qa6 (6 QA answers, 1 reference file)
 * await run(['ref.txt', '-i', 'hyp.txt', '-f', 'text'], { stdout: process.stdout, stderr: process.stderr })
 * // prints `BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0 = 20.4 59.7/28.8/16.7/11.1 (BP = 0.858 ratio = 0.867 hyp_len = 72 ref_len = 83)`
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  return runMetricCommand('bleu', HELP, OPTIONS, argv, io)
}
