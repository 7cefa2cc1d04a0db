/**
 * What every metric returns: the number, the exact settings that produced it, and the
 * breakdown a failure message needs, so matchers never recompute anything.
 */
export interface Score<TDetails = Record<string, unknown>> {
  /** Short metric name, e.g. `nDCG@3`, `BLEU`, `ROUGE-L`. */
  readonly metric: string
  /** The number. BLEU and chrF are on 0–100 (sacrebleu's scale); everything else on 0–1. */
  readonly value: number
  /** `NAME|key:value|…|version:X.Y.Z`, see `signature.ts`. */
  readonly signature: string
  readonly details: TDetails
}

export function makeScore<TDetails>(metric: string, value: number, signature: string, details: TDetails): Score<TDetails> {
  return { metric, value, signature, details }
}
