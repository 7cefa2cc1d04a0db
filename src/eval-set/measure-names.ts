/**
 * One name per measure. A baseline tracks per-case values and compares their MEAN, which for BLEU
 * and chrF is a different number from the corpus score a set matcher reports (corpus BLEU sums
 * n-gram statistics over the set; the mean of sentence BLEU averages per-answer scores). So every
 * table, message, report and baseline file names the measure it shows: `mean sentence BLEU`, never
 * plain `bleu` next to a `BLEU (corpus)`.
 */

const FIXED: Readonly<Record<string, string>> = {
  mrr: 'MRR',
  sentenceBleu: 'mean sentence BLEU',
  sentenceChrf: 'mean sentence chrF2',
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

/** Retrieval metrics rank `retrieved`; their label always says how (`order:given` is the default). */
const RANKED = /^(recall|precision|ndcg|hit|map)@[1-9][0-9]*$|^mrr$/

/**
 * The settings a metric was asked for, as `key:value` (option names as passed, values as JSON for
 * anything but strings, numbers and booleans). With `statesOrder`, ranked retrieval metrics always
 * state their `order` (the setting a matcher's `{ order: 'score' }` most often differs in), so a
 * report row never reads like the matcher's row when the ranking differs.
 * @example settingsText('ndcg@3', { gain: 'exponential' }, true) // 'order:given gain:exponential'
 */
export function settingsText(metric: string, options: Readonly<Record<string, unknown>> = {}, statesOrder = false): string {
  const parts: string[] = []
  if (statesOrder && RANKED.test(metric) && options.order === undefined) parts.push('order:given')
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined) continue
    parts.push(`${k}:${typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v)}`)
  }
  return parts.join(' ')
}

/**
 * The measure and its settings: `mean nDCG@3 [order:score gain:exponential]`, `mean sentence BLEU [tokenize:intl]`;
 * no brackets when there is nothing to say. `statesOrder` (the reports' rows): see {@link settingsText}.
 */
export function measureWithSettings(metric: string, options: Readonly<Record<string, unknown>> = {}, statesOrder = false): string {
  const settings = settingsText(metric, options, statesOrder)
  return settings === '' ? measureName(metric) : `${measureName(metric)} [${settings}]`
}

/**
 * `mean sentence BLEU (bleu)`: the measure and the registry name a user types in `metrics`, with the
 * settings when there are any: `mean nDCG@3 (ndcg@3 order:score gain:exponential)`.
 */
export function measureLabel(metric: string, options?: Readonly<Record<string, unknown>>, statesOrder = false): string {
  const name = measureName(metric)
  const settings = options === undefined ? '' : settingsText(metric, options, statesOrder)
  const key = settings === '' ? metric : `${metric} ${settings}`
  return name === metric && settings === '' ? metric : `${name} (${key})`
}
