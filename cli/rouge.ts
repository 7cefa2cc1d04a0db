/**
 * `rag-matchers rouge REF [REF...] [-i HYP | < HYP] [--types rouge1,rouge2,rougeL,rougeLsum] [--stemmer]`.
 *
 * Each segment is scored with `rougeScore` (rouge-score 0.1.2 `score_multi` parity: with several reference files,
 * the best reference per type). The corpus value of each type is the **mean over segments** of the per-segment
 * precision, recall and F (F is not recomputed from the mean P and R; rouge-score has no corpus score of its own,
 * and its BootstrapAggregator resamples). The output header says so. Values are on 0–1, 4 decimals by default.
 */
import { DEFAULT_ROUGE_TYPES, ROUGE_TYPES, rougeScore, type RougeResult, type RougeType } from '../src/generation/rouge.js'
import type { CliIo } from './io.js'
import { CliUsageError, COMMON_HELP, pyFixed, runTextCommand, segmentReferences, type CommonSettings, type OptionDef, type TextInputs, withNrefs } from './text-input.js'

const OPTIONS: readonly OptionDef[] = [
  { names: ['--types', '--rouge-types'], key: 'types', value: true },
  { names: ['--stemmer', '--use-stemmer'], key: 'stemmer' },
]

const HELP = `Usage: rag-matchers rouge REF [REF...] [-i HYP] [options]      (or: ... < HYP)

ROUGE as rouge-score 0.1.2 computes it per segment (RougeScorer(types, use_stemmer).score_multi); the corpus
value of each type is the mean over segments of the per-segment precision, recall and F. Values on 0-1.

ROUGE options:
  --types LIST              comma-separated: rouge1..rouge9, rougeL, rougeLsum (default rouge1,rouge2,rougeL,rougeLsum)
  --stemmer                 Porter-stem tokens longer than 3 characters (rouge-score use_stemmer=True)

Note: a line is one segment, so rougeLsum (which splits summaries on newlines) equals rougeL here.

${COMMON_HELP}`

interface RougeConfig {
  readonly types: readonly RougeType[]
  readonly stemmer: boolean
}

interface Prf {
  precision: number
  recall: number
  fmeasure: number
}

function parseTypes(text: string | undefined): readonly RougeType[] {
  if (text === undefined) return DEFAULT_ROUGE_TYPES
  const types: RougeType[] = []
  for (const part of text.split(',')) {
    const name = part.trim()
    if (!(ROUGE_TYPES as readonly string[]).includes(name)) {
      throw new CliUsageError(`option --types expects a comma-separated list of ${ROUGE_TYPES.join(', ')}, got '${name}' in '${text}'`)
    }
    if (!types.includes(name as RougeType)) types.push(name as RougeType)
  }
  return types
}

function prfText(x: Prf, width: number): string {
  return `${pyFixed(x.fmeasure, width)} (P = ${pyFixed(x.precision, width)} R = ${pyFixed(x.recall, width)})`
}

function pick(result: RougeResult, type: RougeType): Prf {
  const d = (result[type] as NonNullable<RougeResult[RougeType]>).details
  return { precision: d.precision, recall: d.recall, fmeasure: d.fmeasure }
}

function evaluate(config: RougeConfig, input: TextInputs, common: CommonSettings): string {
  const { types, stemmer } = config
  const n = input.hypotheses.length
  const nrefs = input.referenceStreams.length
  const options = { types, stemmer }
  if (common.sentenceLevel) {
    let out = ''
    for (let i = 0; i < n; i++) {
      const result = rougeScore(input.hypotheses[i] as string, segmentReferences(input, i), options)
      if (common.json) {
        out += `${JSON.stringify(Object.fromEntries(types.map((t) => [t, pick(result, t)])))}\n`
      } else {
        const cells = types.map((t) =>
          common.scoreOnly ? pyFixed(pick(result, t).fmeasure, common.width) : `${result[t]?.metric} = ${prfText(pick(result, t), common.width)}`,
        )
        out += `${cells.join('\t')}\n`
      }
    }
    return out
  }

  const sums = new Map<RougeType, Prf>(types.map((t) => [t, { precision: 0, recall: 0, fmeasure: 0 }]))
  const names = new Map<RougeType, { metric: string; signature: string }>()
  for (let i = 0; i < n; i++) {
    const result = rougeScore(input.hypotheses[i] as string, segmentReferences(input, i), options)
    for (const t of types) {
      const s = sums.get(t) as Prf
      const x = pick(result, t)
      s.precision += x.precision
      s.recall += x.recall
      s.fmeasure += x.fmeasure
      if (!names.has(t)) {
        const score = result[t] as NonNullable<RougeResult[RougeType]>
        names.set(t, { metric: score.metric, signature: withNrefs(score.signature, nrefs, true) })
      }
    }
  }
  const means = types.map((t) => {
    const s = sums.get(t) as Prf
    return { type: t, ...(names.get(t) as { metric: string; signature: string }), precision: s.precision / n, recall: s.recall / n, fmeasure: s.fmeasure / n }
  })
  const header = `mean over ${n} segment${n === 1 ? '' : 's'} of the per-segment precision, recall and F (rouge-score score_multi per segment); F is not recomputed from the mean P and R`
  if (common.json) {
    const scores = Object.fromEntries(means.map((m) => [m.type, { name: m.metric, signature: m.signature, precision: m.precision, recall: m.recall, fmeasure: m.fmeasure }]))
    return `${JSON.stringify({ name: 'ROUGE', aggregation: header, segments: n, nrefs, stemmer, scores }, null, 1)}\n`
  }
  if (common.scoreOnly) return means.map((m) => `${pyFixed(m.fmeasure, common.width)}\n`).join('')
  return `# ROUGE: ${header}\n${means.map((m) => `${m.signature} = ${prfText(m, common.width)}\n`).join('')}`
}

/**
 * Runs `rag-matchers rouge` (argv without the command name) and returns the exit code.
 *
 * Per segment: rouge-score 0.1.2 `score_multi` (types default rouge1, rouge2, rougeL, rougeLsum; no stemmer).
 * Corpus: for each type, the mean over segments of P, R and F (F is not recomputed from the means), printed on 0–1
 * with `-w` decimals (default 4) after a header line that says so. Exit codes as `bleu`.
 *
 * Parity: every per-segment value equals rouge-score 0.1.2 on the golden cases (test/cli/rouge.test.ts, 1e-9).
 *
 * @example
 * // hyp.txt: "The dog bit the man." / "It wasn't surprising." / "The man had just bitten him."
 * // ref1.txt: "The dog bit the man." / "It was not unexpected." / "The man bit him first."
 * // ref2.txt: "The dog had bit the man." / "No one was surprised." / "The man had bitten the dog."
 * await run(['ref1.txt', 'ref2.txt', '-i', 'hyp.txt', '--types', 'rougeL'], { stdout: process.stdout, stderr: process.stderr })
 * // prints `# ROUGE: mean over 3 segments …` then
 * // `ROUGE-L|nrefs:2|tok:rouge-default|stem:no|agg:mean|version:0.1.0 = 0.6389 (P = 0.6389 R = 0.6389)`
 */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  return runTextCommand<RougeConfig>(
    {
      name: 'rouge',
      help: HELP,
      options: OPTIONS,
      defaultWidth: 4,
      configure: (args) => ({ types: parseTypes(args.values.get('types')), stemmer: args.flags.has('stemmer') }),
      evaluate,
    },
    argv,
    io,
  )
}
