/**
 * How the sacrebleu metrics print, as sacrebleu 2.6's CLI does for one system: `Score.format` as a text line
 * (`SIGNATURE = SCORE[ (μ = MEAN ± CI)][ VERBOSE]`) or as sacrebleu's JSON object (score rounded to `-w`,
 * signature without the metric name, its fields spread out), several metrics aligned on ` = ` or as a JSON list;
 * with `-sl` one text line per segment. `--json` (this library's) is the full-precision object instead.
 */
import type { MetricScorer, PrintableScore } from './sacrebleu-metrics.js'
import { pyJsonDumps, type PyJson } from './python-json.js'
import { pyFixed, segmentReferences, signatureFields, type CommonSettings, type TextInputs } from './text-input.js'

/** The signature as sacrebleu prints it in JSON: without the leading metric name. */
export function sacrebleuSignature(signature: string): string {
  const bar = signature.indexOf('|')
  return bar < 0 ? '' : signature.slice(bar + 1)
}

/** The interval sacrebleu prints: `Score.format` shows it only when `_mean > 0` (so not for a mean of 0, e.g. TER of a perfect system). */
function shownBootstrap(score: PrintableScore): { mean: number; ci: number } | undefined {
  return score.bootstrap !== undefined && score.bootstrap.mean > 0 ? score.bootstrap : undefined
}

/** sacrebleu `Score.format(width, score_only)`'s score part: the score and, bootstrapped, `(μ = MEAN ± CI)`. */
function scorePart(score: PrintableScore, width: number): string {
  const value = pyFixed(score.value, width)
  const b = shownBootstrap(score)
  return b ? `${value} (μ = ${pyFixed(b.mean, width)} ± ${pyFixed(b.ci, width)})` : value
}

/**
 * sacrebleu `Score.format(width, score_only, signature)` as text.
 *
 * @example
 * textLine(score, 1, false) // 'BLEU|nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:0.1.0 = 20.4 59.7/28.8/16.7/11.1 (BP = …)'
 */
export function textLine(score: PrintableScore, width: number, scoreOnly: boolean): string {
  const sc = scorePart(score, width)
  if (scoreOnly) return sc
  return score.verbose === undefined ? `${score.signature} = ${sc}` : `${score.signature} = ${sc} ${score.verbose}`
}

/** sacrebleu `Score.format(..., is_json=True)` before `json.dumps`: the keys in sacrebleu's order. */
export function sacrebleuJsonObject(score: PrintableScore, width: number): { [key: string]: PyJson } {
  const rounded = (x: number) => Number(pyFixed(x, width))
  const out: { [key: string]: PyJson } = { name: score.name, score: rounded(score.value), signature: sacrebleuSignature(score.signature) }
  const b = shownBootstrap(score)
  if (b) {
    out.confidence_mean = rounded(b.mean)
    out.confidence_var = rounded(b.ci)
    out.confidence = `μ = ${pyFixed(b.mean, width)} ± ${pyFixed(b.ci, width)}`
  }
  if (score.verbose !== undefined) out.verbose_score = score.verbose
  Object.assign(out, signatureFields(score.signature))
  return out
}

/** This library's `--json`: every value at full precision, the signature with its name. */
export function fullJsonObject(score: PrintableScore): Record<string, unknown> {
  return {
    name: score.name,
    score: score.value,
    signature: score.signature,
    ...(score.verbose === undefined ? {} : { verbose_score: score.verbose }),
    ...signatureFields(score.signature),
    ...(score.bootstrap ? { confidence_mean: score.bootstrap.mean, confidence_var: score.bootstrap.ci } : {}),
    ...score.fullJson,
  }
}

/**
 * sacrebleu `print_single_results`: JSON is the one object (indent 1) or, for several metrics, their strings
 * joined into a list; text lines are right-aligned on their first `=` so the scores line up.
 */
export function singleSystemOutput(scores: readonly PrintableScore[], common: CommonSettings): string {
  if (common.json) {
    const objects = scores.map(fullJsonObject)
    return `${JSON.stringify(objects.length === 1 ? objects[0] : objects, null, 1)}\n`
  }
  if (common.format === 'json') {
    // each metric's Score.format string (score-only: the score part, μ included); several are joined into a
    // list as sacrebleu joins them, not re-serialised (so `-b --confidence` gives its non-JSON list too)
    const parts = scores.map((s) => (common.scoreOnly ? scorePart(s, common.width) : pyJsonDumps(sacrebleuJsonObject(s, common.width), 1)))
    return parts.length === 1 ? `${parts[0]!}\n` : `[\n${parts.join(',\n')}\n]\n`
  }
  const lines = scores.map((s) => textLine(s, common.width, common.scoreOnly))
  if (lines.length === 1) return `${lines[0]!}\n`
  // aligned on the first '=' (the signature's, or a score-only line's `μ =`); lines without one are printed
  // first, as sacrebleu prints them while it collects the others
  const plain = lines.filter((l) => !l.includes('='))
  const aligned = lines.filter((l) => l.includes('='))
  const w = Math.max(0, ...aligned.map((l) => l.indexOf('=') - 1))
  return [...plain, ...aligned.map((l) => `${l.slice(0, l.indexOf('=') - 1).padStart(w)}${l.slice(l.indexOf('=') - 1)}`)].map((l) => `${l}\n`).join('')
}

/** `-sl`: one text line per segment (sacrebleu ignores `-f` there), or with `--json` one compact object per line. */
export function sentenceLevelOutput(scorer: MetricScorer, input: TextInputs, hypotheses: readonly string[], common: CommonSettings): string {
  let out = ''
  for (let i = 0; i < hypotheses.length; i++) {
    const score = scorer.sentence(hypotheses[i]!, segmentReferences(input, i))
    out += `${common.json ? JSON.stringify(fullJsonObject(score)) : textLine(score, common.width, common.scoreOnly)}\n`
  }
  return out
}
