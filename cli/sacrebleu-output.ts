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

/** sacrebleu `Score.format(width, score_only)`'s score part: the score and, bootstrapped, `(μ = MEAN ± CI)`. */
function scorePart(score: PrintableScore, width: number): string {
  const value = pyFixed(score.value, width)
  return score.bootstrap ? `${value} (μ = ${pyFixed(score.bootstrap.mean, width)} ± ${pyFixed(score.bootstrap.ci, width)})` : value
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
  if (score.bootstrap) {
    out.confidence_mean = rounded(score.bootstrap.mean)
    out.confidence_var = rounded(score.bootstrap.ci)
    out.confidence = `μ = ${pyFixed(score.bootstrap.mean, width)} ± ${pyFixed(score.bootstrap.ci, width)}`
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
 * sacrebleu `print_single_results`: JSON is the one object (indent 1) or, for several metrics, a list of them;
 * text lines are right-aligned on their ` = ` so the scores line up (a score-only line is printed as it is).
 */
export function singleSystemOutput(scores: readonly PrintableScore[], common: CommonSettings): string {
  if (common.json) {
    const objects = scores.map(fullJsonObject)
    return `${JSON.stringify(objects.length === 1 ? objects[0] : objects, null, 1)}\n`
  }
  if (common.format === 'json') {
    if (common.scoreOnly) {
      // sacrebleu prints the score string; with several metrics json.loads reads each back as a float
      if (scores.length === 1) return `${scorePart(scores[0]!, common.width)}\n`
      return `${pyJsonDumps(
        scores.map((s) => Number(pyFixed(s.value, common.width))),
        1,
      )}\n`
    }
    const objects = scores.map((s) => sacrebleuJsonObject(s, common.width))
    return `${pyJsonDumps(objects.length === 1 ? objects[0]! : objects, 1)}\n`
  }
  const lines = scores.map((s) => textLine(s, common.width, common.scoreOnly))
  if (lines.length === 1 || common.scoreOnly) return lines.map((l) => `${l}\n`).join('')
  const lefts = lines.map((l) => l.indexOf('=') - 1)
  const w = Math.max(...lefts)
  return lines.map((l, i) => `${l.slice(0, lefts[i]).padStart(w)}${l.slice(lefts[i])}\n`).join('')
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
