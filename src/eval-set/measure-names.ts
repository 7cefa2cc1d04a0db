/**
 * One name per measure. A baseline tracks per-case values and compares their MEAN, which for BLEU
 * and chrF is a different number from the corpus score a set matcher reports (corpus BLEU sums
 * n-gram statistics over the set; the mean of sentence BLEU averages per-answer scores). So every
 * table, message, report and baseline file names the measure it shows: `mean sentence BLEU`, never
 * plain `bleu` next to a `BLEU (corpus)`.
 */

const FIXED: Readonly<Record<string, string>> = {
  mrr: 'MRR',
  bleu: 'mean sentence BLEU',
  chrf: 'mean sentence chrF2',
  rouge1: 'mean ROUGE-1 F',
  rouge2: 'mean ROUGE-2 F',
  rougeL: 'mean ROUGE-L F',
  rougeLsum: 'mean ROUGE-Lsum F',
  meteor: 'mean METEOR',
  ter: 'mean sentence TER',
}

const AT_K: Readonly<Record<string, string>> = { recall: 'mean recall', precision: 'mean precision', ndcg: 'mean nDCG', hit: 'hit rate', map: 'MAP' }

/**
 * The display name of a baseline metric (a registry name such as `bleu` or `recall@3`); names it
 * does not know come back unchanged. Retrieval means over queries keep their usual names (MRR, MAP).
 *
 * @example measureName('bleu') // 'mean sentence BLEU'
 * @example measureName('ndcg@3') // 'mean nDCG@3'
 */
export function measureName(metric: string): string {
  if (Object.prototype.hasOwnProperty.call(FIXED, metric)) return FIXED[metric] as string
  const m = /^(recall|precision|ndcg|hit|map)@([1-9][0-9]*)$/.exec(metric)
  if (m !== null) return `${AT_K[m[1] as string] as string}@${m[2] as string}`
  return metric
}

/** `mean sentence BLEU (bleu)`: the measure and the registry name a user types in `metrics`. */
export function measureLabel(metric: string): string {
  const name = measureName(metric)
  return name === metric ? metric : `${name} (${metric})`
}
