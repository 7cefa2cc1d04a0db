/**
 * `rag-matchers bleu`, `chrf` and `ter`: one sacrebleu metric, one system. They are `rag-matchers sacrebleu -m
 * METRIC` with this library's extras (`--json` at full precision; `bleu -e` for effective order) and share its
 * scoring and output code: JSON by default as sacrebleu 2.x prints it, `-f text` for the `Score.format` line.
 */
import type { CliIo } from './io.js'
import { sentenceLevelOutput, singleSystemOutput } from './sacrebleu-output.js'
import { confidenceOf, configureMetric, CONFIDENCE_OPTIONS, tokenizedWarning, type MetricScorer, type SacrebleuMetric } from './sacrebleu-metrics.js'
import { CliUsageError, runTextCommand, type OptionDef } from './text-input.js'

interface MetricConfig {
  readonly scorer: MetricScorer
  readonly force: boolean
  readonly nBootstrap: number | undefined
}

/** Runs one single-metric command: `options` are the metric's own (the common ones and `--confidence` are added). */
export async function runMetricCommand(name: SacrebleuMetric, help: string, options: readonly OptionDef[], argv: readonly string[], io: CliIo): Promise<number> {
  return runTextCommand<MetricConfig>(
    {
      name,
      help,
      options: [...options, ...CONFIDENCE_OPTIONS],
      defaultWidth: 1,
      defaultFormat: 'json',
      configure: (args) => {
        const nBootstrap = confidenceOf(args)
        if (nBootstrap !== undefined && args.flags.has('sentenceLevel'))
          throw new CliUsageError('--confidence is not available with -sl (sacrebleu: statistical tests are unavailable in sentence-level mode)')
        return { scorer: configureMetric(name, args, name === 'chrf'), force: args.flags.has('force'), nBootstrap }
      },
      evaluate: (config, input, common, out) => {
        if (common.sentenceLevel) return sentenceLevelOutput(config.scorer, input, input.hypotheses, common)
        if (name === 'bleu' && !config.force) out.stderr.write(tokenizedWarning(name, input.hypotheses))
        return singleSystemOutput([config.scorer.corpus(input.hypotheses, input.referenceStreams, config.nBootstrap)], common)
      },
    },
    argv,
    io,
  )
}
