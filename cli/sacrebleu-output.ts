/**
 * How the sacrebleu metrics (`bleu`, `chrf`) print, as sacrebleu 2.6's CLI does: the corpus score as one
 * `Score.format` line (or a JSON object indented by 1), or with `-sl` one line (or one compact JSON object) per
 * segment. Each command only says how to score and what its score adds to the common fields.
 */
import type { Score } from '../src/score.js'
import { pyFixed, segmentReferences, signatureFields, type CommonSettings, type TextInputs } from './text-input.js'

/** What one metric adds to the common output: sacrebleu's verbose part (BLEU has one) and its own JSON fields. */
export interface SacrebleuFormat<S extends Score<unknown>> {
  readonly verbose?: (score: S) => string
  /** fields after `name`, `score`, `signature`, `verbose_score` and the signature's fields */
  readonly jsonFields: (score: S) => Record<string, unknown>
}

/** `Score.format` of sacrebleu: `SIGNATURE = SCORE[ VERBOSE]`, or the score alone with -b. */
function textLine<S extends Score<unknown>>(format: SacrebleuFormat<S>, score: S, common: CommonSettings): string {
  const value = pyFixed(score.value, common.width)
  if (common.scoreOnly) return value
  return format.verbose ? `${score.signature} = ${value} ${format.verbose(score)}` : `${score.signature} = ${value}`
}

function jsonObject<S extends Score<unknown>>(format: SacrebleuFormat<S>, score: S): Record<string, unknown> {
  return {
    name: score.metric,
    score: score.value,
    signature: score.signature,
    ...(format.verbose ? { verbose_score: format.verbose(score) } : {}),
    ...signatureFields(score.signature),
    ...format.jsonFields(score),
  }
}

/**
 * The whole output of a sacrebleu metric: with `-sl`, `sentence(hypothesis, references)` per segment, one line each;
 * otherwise `corpus()` once.
 *
 * @example
 * sacrebleuOutput(CHRF_FORMAT, input, common, (h, refs) => sentenceChrf(h, refs), () => corpusChrf(input.hypotheses, input.referenceStreams))
 * // 'chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:0.1.0 = 59.7\n'
 */
export function sacrebleuOutput<S extends Score<unknown>>(
  format: SacrebleuFormat<S>,
  input: TextInputs,
  common: CommonSettings,
  sentence: (hypothesis: string, references: string[]) => S,
  corpus: () => S,
): string {
  if (common.sentenceLevel) {
    let out = ''
    for (let i = 0; i < input.hypotheses.length; i++) {
      const score = sentence(input.hypotheses[i] as string, segmentReferences(input, i))
      out += `${common.json ? JSON.stringify(jsonObject(format, score)) : textLine(format, score, common)}\n`
    }
    return out
  }
  const score = corpus()
  return common.json ? `${JSON.stringify(jsonObject(format, score), null, 1)}\n` : `${textLine(format, score, common)}\n`
}
